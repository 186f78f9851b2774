"""Entanglement: cells that no star can take beside one or two stars, on boards of some sizes.

The table (encodings/hints/tables/entanglement.lp, made by tools/entanglement.py by brute
force over every placement of stars on the bare board, regions ignored) lists them per size.
"""

from __future__ import annotations

import re
from functools import cache

from starbattle.asp.encodings import encodings_dir
from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import outcome, within
from starbattle.words import joined

TABLE = ("hints", "tables", "entanglement.lp")
"""The table's file under encodings/."""
_FACT = re.compile(r"^entangled\((\d+),(\d+),(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)\.$", re.M)


@cache
def patterns(n: int, s: int) -> dict[tuple[int, int], frozenset[int]]:
    """The table of one size: (star, star) cell numbers (a star twice alone) -> the cells marked."""
    found: dict[tuple[int, int], set[int]] = {}
    text = encodings_dir().joinpath(*TABLE).read_text()
    for fact in _FACT.finditer(text):
        size, stars, r1, c1, r2, c2, r, c = map(int, fact.groups())
        if (size, stars) == (n, s):
            key = ((r1 - 1) * n + c1 - 1, (r2 - 1) * n + c2 - 1)
            found.setdefault(key, set()).add((r - 1) * n + c - 1)
    return {key: frozenset(cells) for key, cells in found.items()}


def entanglement(view: View) -> list[Found]:
    """The undecided cells the table says no star can take beside the stars so far.

    One argument, one step: the table looked up for every star and pair of stars, together
    (no placement holding all those stars has a star where one of them rules it out).
    """
    grid = view.grid
    table = patterns(grid.n, grid.quota)
    if not table:
        return []
    stars = sorted(view.stars)
    undecided = set(grid.cells) - view.stars - view.blanks
    used: set[int] = set()
    blanks: set[int] = set()
    for k, a in enumerate(stars):
        for b in stars[k:]:
            ruled = table.get((a, b), frozenset()) & undecided
            if ruled:
                blanks |= ruled
                used |= {a, b}
    if not blanks:
        return []
    size = f"{grid.n}x{grid.n} board with {grid.quota} stars"
    placed = joined([grid.where(i) for i in sorted(used)])
    placed = f"the star at {placed}" if len(used) == 1 else f"the stars at {placed}"
    text = within(
        f"on a {size} in every row and column, no placement with {said} has a "
        f"star at {_cells(view, blanks)} (entanglement), so {outcome(grid, (), blanks)}"
        for said in (placed, f"these {len(used)} stars")
    )
    lines = (*grid.rows, *grid.columns)
    return [Found("entanglement", lines, tuple(sorted(used)), frozenset(), frozenset(blanks), text)]


def _cells(view: View, cells: set[int]) -> str:
    """'(3,4)', '(3,4) or (5,6)', 'these 4 cells'."""
    if len(cells) > 3:
        return f"these {len(cells)} cells"
    return joined([view.grid.where(i) for i in sorted(cells)], "or")
