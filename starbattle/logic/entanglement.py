"""Entanglement: cells that no star can take beside one or two stars, on boards of some sizes.

The table (encodings/hints/tables/entanglement.lp, made by tools/entanglement.py by brute
force over every placement of stars on the bare board, regions ignored) lists them per size.
"""

from __future__ import annotations

import re
from functools import cache

from starbattle.asp.encodings import encodings_dir
from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import outcome

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
    """A star, or two, that the table says leave no star at some undecided cells."""
    grid = view.grid
    table = patterns(grid.n, grid.quota)
    if not table:
        return []
    stars, found = sorted(view.stars), []
    undecided = set(grid.cells) - view.stars - view.blanks
    lines = (*grid.rows, *grid.columns)
    size = f"{grid.n}x{grid.n} board with {grid.quota} stars"
    for k, a in enumerate(stars):
        for b in stars[k:]:
            blanks = table.get((a, b), frozenset()) & undecided
            if not blanks:
                continue
            placed = (
                f"the star at {grid.where(a)}"
                if a == b
                else f"the stars at {grid.where(a)} and {grid.where(b)}"
            )
            text = (
                f"on a {size} in every row and column, no placement with {placed} has a "
                f"star at {_cells(view, blanks)} (entanglement), so {outcome(grid, (), blanks)}"
            )
            cells = (a,) if a == b else (a, b)
            found.append(Found("entanglement", lines, cells, frozenset(), blanks, text))
    return found


def _cells(view: View, cells: frozenset[int]) -> str:
    """'(3,4)', 'these 2 cells'."""
    return view.grid.where(min(cells)) if len(cells) == 1 else f"these {len(cells)} cells"
