"""Region walls, the shape URL and SBN formats share: walls -> regions and regions -> walls."""

from __future__ import annotations

from collections.abc import Callable

from starbattle.errors import FormatError
from starbattle.model.board import Board, grid_pieces, pieces

Wall = Callable[[int, int], bool]
"""wall(r, c): whether a wall separates (r, c) from its right (or lower) neighbour; 0-based."""


def regions_from_walls(rows: int, cols: int, right: Wall, below: Wall) -> list[list[int]]:
    """Label the 4-connected groups of cells that no wall separates, 0.. in reading order."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    labels = grid_pieces(
        cols,
        [c + 1 < cols and not right(r, c) for r, c in cells],
        [r + 1 < rows and not below(r, c) for r, c in cells],
    )
    return [labels[r * cols : (r + 1) * cols] for r in range(rows)]


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
        count = len(pieces(cells))
        if count > 1:
            raise FormatError(
                f"region {label} is in {count} separate pieces, and the {fmt} format "
                "describes regions by their walls: write this board as lp, txt or json"
            )
    n, grid = board.size, board.regions
    right = [[c + 1 < n and grid[r][c] != grid[r][c + 1] for c in range(n)] for r in range(n)]
    below = [[r + 1 < n and grid[r][c] != grid[r + 1][c] for c in range(n)] for r in range(n)]
    return right, below
