"""Uniqueness (by a thread, at sea): what must hold if the puzzle has only one solution.

Opt in (Logic's `assume_unique`): a person may assume it, a checker may not. An area, one
or two groups of undecided cells each walled off from the others by decided cells (a cell of
a group touches, even at a corner, only cells of its group or decided ones), meets the rest
of the board only through the stars its rows, columns and regions count. Two ways of
filling it that give every such unit the same count can be swapped in any solution, which
would give a second one: so the area is filled in a way no other way matches (at sea). A
single cell that tells two such ways apart (the thread) must then hold what keeps them
apart (by a thread).
"""

from __future__ import annotations

from itertools import combinations

from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.sentences import outcome

AREA_CELLS = 12
"""The most cells of an area whose fillings are listed."""
AREA_GROUPS = 2
"""The most groups of undecided cells (each walled off) an area joins."""
AREA_FILLINGS = 2_000
"""The most fillings listed for one area (more: the area is left alone)."""


def uniqueness(view: View) -> list[Found]:
    """Areas walled off by empty cells whose fillings, all but the unmatched, are ruled out."""
    grid, found = view.grid, []
    undecided = set(grid.cells) - view.stars - view.blanks
    groups = [group for group in _areas(grid, undecided) if len(group) <= AREA_CELLS]
    for k in range(1, AREA_GROUPS + 1):
        for chosen in combinations(groups, k):
            area = frozenset().union(*chosen)
            step = _unmatched(view, area) if len(area) <= AREA_CELLS else None
            if step is not None:
                found.append(step)
    return found


def _areas(grid: Grid, undecided: set[int]) -> list[frozenset[int]]:
    """The undecided cells in groups, cells touching (even at a corner) in one group."""
    left, areas = set(undecided), []
    while left:
        start = min(left)
        group, queue = {start}, [start]
        while queue:
            for j in grid.around[queue.pop()]:
                if j in left and j not in group:
                    group.add(j)
                    queue.append(j)
        left -= group
        areas.append(frozenset(group))
    return sorted(areas, key=min)


def _unmatched(view: View, area: frozenset[int]) -> Found | None:
    """The step for one area: its fillings that no other filling matches, if not all of them."""
    grid = view.grid
    units = sorted({u for i in area for u in grid.units_of[i]})
    inside = [u for u in units if view.open[u] <= area]
    shared = [u for u in units if not view.open[u] <= area]
    if not shared:
        return None
    fillings = _fillings(view, area, inside)
    if fillings is None or len(fillings) < 2:
        return None
    classes: dict[tuple[int, ...], list[frozenset[int]]] = {}
    for filling in fillings:
        counts = tuple(len(filling & grid.sets[u]) for u in shared)
        classes.setdefault(counts, []).append(filling)
    alone = [group[0] for group in classes.values() if len(group) == 1]
    if not alone or len(alone) == len(fillings):
        return None
    stars = frozenset.intersection(*alone)
    blanks = area - frozenset().union(*alone)
    if not stars and not blanks:
        return None
    matched = [f for group in classes.values() if len(group) > 1 for f in group]
    thread = stars - frozenset().union(*matched)
    text = (
        f"assuming one solution ({'by a thread' if thread else 'at sea'}): the {len(area)} "
        f"walled-off cells from {grid.where(min(area))} take no filling that another matches "
        f"unit for unit, so {outcome(grid, stars, blanks)}"
    )
    return Found("uniqueness", tuple(units), view.marks_in(units), stars, frozenset(blanks), text)


def _fillings(view: View, area: frozenset[int], inside: list[int]) -> list[frozenset[int]] | None:
    """Every way to put stars in the area (None: more than AREA_FILLINGS).

    No two stars touch, no unit gets more than it needs, units lying inside it get just that.
    """
    grid = view.grid
    cells = sorted(area)
    need = list(view.need)
    left = {u: len(view.open[u]) for u in inside}
    found: list[frozenset[int]] = []

    def extend(k: int, chosen: set[int]) -> bool:
        if any(need[u] > left[u] for u in inside):
            return True
        if k == len(cells):
            found.append(frozenset(chosen))
            return len(found) <= AREA_FILLINGS
        i = cells[k]
        for u in grid.units_of[i]:
            if u in left:
                left[u] -= 1
        going = True
        if not chosen.intersection(grid.around[i]) and all(need[u] > 0 for u in grid.units_of[i]):
            for u in grid.units_of[i]:
                need[u] -= 1
            chosen.add(i)
            going = extend(k + 1, chosen)
            chosen.discard(i)
            for u in grid.units_of[i]:
                need[u] += 1
        going = going and extend(k + 1, chosen)
        for u in grid.units_of[i]:
            if u in left:
                left[u] += 1
        return going

    return found if extend(0, set()) else None
