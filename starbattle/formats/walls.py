"""Region walls, the shape URL and SBN formats share: walls -> regions and regions -> walls."""

from __future__ import annotations

from collections.abc import Callable

from starbattle.board import Board
from starbattle.errors import FormatError

Wall = Callable[[int, int], bool]
"""wall(r, c): whether a wall separates (r, c) from its right (or lower) neighbour; 0-based."""


def regions_from_walls(rows: int, cols: int, right: Wall, below: Wall) -> list[list[int]]:
    """Label the 4-connected groups of cells that no wall separates, 0.. in reading order."""
    labels = [[-1] * cols for _ in range(rows)]
    count = 0
    for r in range(rows):
        for c in range(cols):
            if labels[r][c] >= 0:
                continue
            labels[r][c] = count
            stack = [(r, c)]
            while stack:
                i, j = stack.pop()
                steps = (
                    (i, j + 1, j + 1 < cols and not right(i, j)),
                    (i, j - 1, j > 0 and not right(i, j - 1)),
                    (i + 1, j, i + 1 < rows and not below(i, j)),
                    (i - 1, j, i > 0 and not below(i - 1, j)),
                )
                for ni, nj, open_ in steps:
                    if open_ and labels[ni][nj] < 0:
                        labels[ni][nj] = count
                        stack.append((ni, nj))
            count += 1
    return labels


def wall_grids(board: Board, fmt: str) -> tuple[list[list[bool]], list[list[bool]]]:
    """The walls right of and below every cell, for a board that walls can describe.

    Walls describe only connected regions, and no blocked cells or givens: anything else
    is refused with the reason, rather than written as another puzzle.
    """
    if board.blocked or board.given_stars or board.given_blanks:
        raise FormatError(
            f"the {fmt} format has no place for blocked cells or givens: "
            "write this board as lp, txt, json or pzprv3"
        )
    for label, cells in board.region_cells().items():
        pieces = len(set(regions_of_cells(cells)))
        if pieces > 1:
            raise FormatError(
                f"region {label} is in {pieces} separate pieces, and the {fmt} format "
                "describes regions by their walls: write this board as lp, txt or json"
            )
    n, grid = board.size, board.regions
    right = [[c + 1 < n and grid[r][c] != grid[r][c + 1] for c in range(n)] for r in range(n)]
    below = [[r + 1 < n and grid[r][c] != grid[r + 1][c] for c in range(n)] for r in range(n)]
    return right, below


def regions_of_cells(cells: list[tuple[int, int]]) -> list[int]:
    """For each cell, the index of the 4-connected piece of `cells` it lies in."""
    index = {cell: position for position, cell in enumerate(cells)}
    piece = [-1] * len(cells)
    count = 0
    for start, cell in enumerate(cells):
        if piece[start] >= 0:
            continue
        piece[start] = count
        stack = [cell]
        while stack:
            r, c = stack.pop()
            for neighbour in ((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)):
                position = index.get(neighbour)
                if position is not None and piece[position] < 0:
                    piece[position] = count
                    stack.append(neighbour)
        count += 1
    return piece
