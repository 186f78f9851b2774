"""N-rooks: on a (4s+2)x(4s+2) board with s stars, the star-free 2x2 blocks form a rook pattern.

Cut the board into a (2s+1)x(2s+1) grid of 2x2 blocks. Two rows need 2s stars and cross
2s+1 blocks, each holding at most one, so exactly one of those blocks holds no star; so too
for two columns. The star-free blocks are thus one per pair of rows and one per pair of
columns, like rooks that do not attack each other on a (2s+1)x(2s+1) chessboard.
"""

from __future__ import annotations

from itertools import permutations

from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.sentences import outcome

Block = tuple[int, int]
"""A block of the 2x2 grid: its pair of rows and its pair of columns, from 0."""


def rooks(view: View) -> list[Found]:
    """Blocks the rook pattern leaves star-free (their cells empty) or sure to hold a star."""
    grid = view.grid
    size = grid.n // 2
    if grid.n != 4 * grid.quota + 2 or len(grid.cells) != grid.n * grid.n:
        return []
    cells = {(i, j): _block(grid, i, j) for i in range(size) for j in range(size)}
    starry = {block for block, inside in cells.items() if inside & view.stars}
    bare = {block for block, inside in cells.items() if inside <= view.blanks}
    patterns = [
        p
        for p in permutations(range(size))
        if all((i, p[i]) not in starry for i in range(size)) and all(p[i] == j for i, j in bare)
    ]
    if not patterns:  # a contradiction, left for the state check to name
        return []
    lines = (*grid.rows, *grid.columns)
    premises = tuple(sorted(view.stars.union(*(cells[block] for block in bare))))
    found = []
    for block in sorted(cells):
        i, j = block
        free = [p[i] == j for p in patterns]
        inside = cells[block] - view.stars - view.blanks
        if all(free) and inside:
            blanks, stars = frozenset(inside), frozenset()
            said = "is the only one left without"
        elif not any(free) and block not in starry:
            stars, blanks = _holding(view, inside)
            said = "cannot be one without"
        else:
            continue
        if not stars and not blanks:
            continue
        held = () if all(free) else tuple(cells[block] & (view.stars | view.blanks))
        text = (
            f"each pair of rows and of columns has one 2x2 block without a star (n-rooks); "
            f"so far the block at {_where(grid, block)} {said}, so {outcome(grid, stars, blanks)}"
        )
        used = tuple(sorted({*premises, *held}))
        found.append(Found("n-rooks", lines, used, stars, blanks, text))
    return found


def _block(grid: Grid, i: int, j: int) -> frozenset[int]:
    """The cells of block (i, j)."""
    n = grid.n
    return frozenset((2 * i + a) * n + 2 * j + b for a in (0, 1) for b in (0, 1))


def _holding(view: View, inside: frozenset[int] | set[int]) -> tuple[frozenset[int], frozenset]:
    """What a block sure to hold a star gives: its lone cell, or the cells touching all of its."""
    grid = view.grid
    if len(inside) == 1:
        return frozenset(inside), frozenset()
    if not inside:
        return frozenset(), frozenset()
    common = set.intersection(*(set(grid.around[i]) for i in inside)) - set(inside)
    return frozenset(), frozenset(common - view.stars - view.blanks)


def _where(grid: Grid, block: Block) -> str:
    """'rows 3-4, columns 5-6'."""
    i, j = block
    return f"rows {2 * i + 1}-{2 * i + 2}, columns {2 * j + 1}-{2 * j + 2}"
