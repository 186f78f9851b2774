"""N-rooks: on a (4s+2)x(4s+2) board with s stars, the star-free 2x2 blocks form a rook pattern.

Cut the board into a (2s+1)x(2s+1) grid of 2x2 blocks. Two rows need 2s stars and cross
2s+1 blocks, each holding at most one, so exactly one of those blocks holds no star; so too
for two columns. The star-free blocks are thus one per pair of rows and one per pair of
columns, like rooks that do not attack each other on a (2s+1)x(2s+1) chessboard.
"""

from __future__ import annotations

from itertools import permutations

from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.sentences import outcome, within
from starbattle.words import joined, plural

PATTERN = "each pair of rows and of columns has one 2x2 block without a star (n-rooks)"
"""What every n-rooks step says first."""
STYLES = ("lines", "corner", "counted")
"""The ways to name the blocks a step decides, the longest first (see _said)."""
Block = tuple[int, int]
"""A block of the 2x2 grid: its pair of rows and its pair of columns, from 0."""


def rooks(view: View) -> list[Found]:
    """Blocks the rook pattern leaves star-free (their cells empty) or sure to hold a star.

    One argument, one step: every block the pattern decides, together.
    """
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
    premises = set(view.stars.union(*(cells[block] for block in bare)))
    stars: set[int] = set()
    blanks: set[int] = set()
    said: dict[bool, list[Block]] = {True: [], False: []}
    for block in sorted(cells):
        i, j = block
        free = [p[i] == j for p in patterns]
        inside = cells[block] - view.stars - view.blanks
        if all(free) and inside:
            more = frozenset(), frozenset(inside)
        elif not any(free) and block not in starry:
            more = _holding(view, inside)
        else:
            continue
        if more[0] or more[1]:
            stars |= more[0]
            blanks |= more[1]
            said[all(free)].append(block)
            if not all(free):  # it rests on the block's decided cells too
                premises |= cells[block] & (view.stars | view.blanks)
    if not stars and not blanks:
        return []
    so = outcome(grid, stars, blanks)
    text = within(
        [
            *(f"{PATTERN}; so far {_said(grid, said, style)}, so {so}" for style in STYLES),
            f"by n-rooks, {_said(grid, said, 'counted')}, so {so}",
        ]
    )
    lines = (*grid.rows, *grid.columns)
    used = tuple(sorted(premises))
    return [Found("n-rooks", lines, used, frozenset(stars), frozenset(blanks), text)]


def _said(grid: Grid, said: dict[bool, list[Block]], style: str) -> str:
    """'the block at rows 3-4, columns 5-6 cannot be one without': the blocks decided.

    Star-free blocks (True) are 'the only one left without'. Style 'lines' names a block by
    its lines, 'corner' by its top left cell ('the blocks from (3,5) and (7,1)'), 'counted'
    counts them ('2 blocks must hold a star').
    """
    parts = []
    for free, blocks in said.items():
        one = len(blocks) == 1
        if not blocks:
            continue
        if style == "counted":
            held = "be star-free" if free else "hold a star"
            parts.append(
                f"{plural(len(blocks), 'block') if not parts else len(blocks)} must {held}"
            )
            continue
        if style == "lines":
            where = joined([f"at {_where(grid, block)}" for block in blocks])
        else:
            where = "from " + joined([grid.where(2 * i * grid.n + 2 * j) for i, j in blocks])
        if free:
            state = "is the only one left without" if one else "are the only ones left without"
        else:
            state = "cannot be one without" if one else "cannot be ones without"
        parts.append(f"the block{'' if one else 's'} {where} {state}")
    return joined(parts)


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
