"""Level 5: unit enumeration (every placement of a unit's remaining stars, listed).

Levels 3 and 4 bound a unit's room by 2x2 blocks; a person faced with a unit whose stars
have few places left lists them instead: every way to put the stars it still needs into its
undecided cells, no two touching and no row, column or region given more stars than it still
needs. A placement that would leave some unit too little room (level 4's measure: its cells
left fit in fewer 2x2 blocks than the stars it would still need) is no placement. Then a cell
of the unit in no placement is empty, a cell in every one is a star, and a cell outside it is
empty when every placement touches it or fills a unit that holds it (k-tuples, nosy
neighbours). Only units needing two stars or more are listed (for one star this is level 4's
argument), with at most PLACEMENTS placements (a list a person can check), within the
ladder's CONTAINER_WORK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import needed, outcome, units_phrase, within
from starbattle.words import joined, plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Budget, Logic

PLACEMENTS = 20
"""The most placements a unit may have to be listed (before those that leave a unit too
little room are struck out): more is no list a person checks."""
SHOWN = 3
"""The most placements a sentence spells out (else it counts them)."""


class Way(NamedTuple):
    """One placement of a unit's stars and what it does to the board."""

    cells: tuple[int, ...]
    touched: frozenset[int]
    """The undecided cells around its stars."""
    filled: dict[int, frozenset[int]]
    """The units it gives all the stars they need, with their other undecided cells."""
    starved: tuple[int, ...]
    """The units it leaves too little room (none: it is a placement)."""
    takers: tuple[int, ...]
    """The units besides the listed one it fills that take cells of those."""


class Listed(NamedTuple):
    """Every placement of a unit's remaining stars, and the units whose needs cut some."""

    unit: int
    ways: list[Way]
    """In reading order of their cells."""
    cut: frozenset[int]
    """The other units that would have got more stars than they need from a partial
    placement (cells taken in reading order), so that it went no further."""


def unit_enumeration(logic: Logic, view: View) -> list[Found]:
    """Every unit needing 2+ stars with at most PLACEMENTS placements that decides cells.

    One argument, one step: all that one unit's placements decide is one step.
    """
    budget = logic.container_budget(view, "unit-enumeration")
    found = []
    for unit, need in enumerate(view.need):
        if need < 2 or len(view.open[unit]) <= need:
            continue
        listed = placements(view, unit, budget)
        if listed is None:
            if budget.left < 0:
                break
            continue
        step = _concluded(view, listed)
        if step is not None:
            found.append(step)
    return found


def placements(view: View, unit: int, budget: Budget) -> Listed | None:
    """A unit's placements, or None when it has more than PLACEMENTS or the budget runs out.

    Hand-written: a depth-first search over its undecided cells in reading order, a partial
    placement growing by a later cell that touches none of its cells and gives no unit more
    stars than it needs (the units that stop one are remembered: they cut).
    """
    grid, need = view.grid, view.need[unit]
    cells = sorted(view.open[unit])
    found: list[tuple[int, ...]] = []
    cut: set[int] = set()
    stack: list[tuple[int, ...]] = [()]
    while stack:
        chosen = stack.pop()
        if len(chosen) == need:
            found.append(chosen)
            if len(found) > PLACEMENTS:
                return None
            continue
        if not budget.spend(len(cells)):
            return None
        counts = _counts(view, chosen)
        taken = 0
        for i in chosen:
            taken |= grid.reach[i]
        grown = []
        for x in cells[cells.index(chosen[-1]) + 1 :] if chosen else cells:
            if taken >> x & 1:
                continue
            over = [v for v in grid.units_of[x] if counts.get(v, 0) + 1 > view.need[v]]
            cut.update(over)
            if not over:
                grown.append((*chosen, x))
        stack.extend(reversed(grown))
    ways = []
    for chosen in found:
        way = _way(view, unit, chosen, budget)
        if way is None:
            return None
        ways.append(way)
    return Listed(unit, ways, frozenset(cut - {unit}))


def _counts(view: View, cells: tuple[int, ...]) -> dict[int, int]:
    """The stars some cells put into each unit."""
    counts: dict[int, int] = {}
    for i in cells:
        for v in view.grid.units_of[i]:
            counts[v] = counts.get(v, 0) + 1
    return counts


def _way(view: View, unit: int, cells: tuple[int, ...], budget: Budget) -> Way | None:
    """A placement's effect, and the units it leaves too little room (None: no budget).

    A star takes the cells around it, a filled unit its other undecided cells; a unit then
    needing k more stars whose cells left fit in k-1 2x2 blocks is starved (level 4).
    """
    grid, placed = view.grid, set(cells)
    near = {j for i in cells for j in grid.around[i]}
    touched = frozenset(near - view.stars - view.blanks - placed)
    counts = _counts(view, cells)
    filled = {v: view.open[v] - placed for v, k in counts.items() if k == view.need[v]}
    gone = touched.union(placed, *filled.values())
    starved, takers = [], set()
    for v in sorted({v for i in gone for v in grid.units_of[i]}):
        still = view.need[v] - counts.get(v, 0)
        left = view.open[v] - gone
        if still <= 0 or len(left) > 4 * (still - 1):
            continue
        if not budget.spend(len(left)):
            return None
        if grid.cover(frozenset(left), still - 1) is not None:
            starved.append(v)
            takers.update(w for w, emptied in filled.items() if emptied & view.open[v])
    return Way(cells, touched, filled, tuple(starved), tuple(sorted(takers - {unit, *starved})))


def _concluded(view: View, listed: Listed) -> Found | None:
    """The step of a unit's placements: what all of them decide (None: nothing)."""
    unit = listed.unit
    kept = [way for way in listed.ways if not way.starved]
    if not kept:  # a contradiction, left for the state check to name
        return None
    stars = frozenset.intersection(*(frozenset(way.cells) for way in kept))
    blanks = frozenset.intersection(*(way.touched.union(*way.filled.values()) for way in kept))
    if not stars and not blanks:
        return None
    fills = {
        v
        for way in kept
        for v, cells in way.filled.items()
        if v != unit and cells & blanks - way.touched - view.open[unit]
    }
    starving = {v for way in listed.ways for v in (*way.starved, *way.takers)}
    units = (unit, *sorted((listed.cut | fills | starving) - {unit}))
    text = _sentence(view, listed, sorted(fills), stars, blanks)
    return Found("unit-enumeration", units, view.marks_in(units), stars, blanks, text)


def _sentence(
    view: View,
    listed: Listed,
    fills: list[int],
    stars: frozenset[int],
    blanks: frozenset[int],
) -> str:
    """'Row 3 needs 2 stars, which go only at (3,1) and (3,4) or at ...: each ..., so ...'."""
    grid, unit = view.grid, listed.unit
    kept = [way for way in listed.ways if not way.starved]
    struck = [way for way in listed.ways if way.starved]
    where = [joined([grid.where(i) for i in way.cells]) for way in kept]
    inside = blanks & view.open[unit]
    does = []
    if stars:
        does.append(f"takes {joined([grid.where(i) for i in sorted(stars)])}")
    if inside:
        does.append(f"leaves out {joined([grid.where(i) for i in sorted(inside)])}")
    if outside := sorted(blanks - inside):
        them = "it" if len(outside) == 1 else "them"
        fill = f" or empties {them} by filling {units_phrase(grid, fills)}" if fills else ""
        does.append(f"touches {joined([grid.where(i) for i in outside])}{fill}")
    each = f"{joined(does)}, so {outcome(grid, stars, blanks)}"
    rules = "no two touching"
    if listed.cut:
        rules += f", none giving {units_phrase(grid, listed.cut)} too many stars"
    starving = sorted({v for way in struck for v in way.starved})
    if struck:
        rules += (
            f"; {plural(len(struck), 'other')} would leave {units_phrase(grid, starving)} "
            "too little room"
        )
    head = f"{grid.names[unit]} needs {needed(view, unit)}"
    said = []
    if len(kept) <= SHOWN:
        spelt = joined([f"at {w}" for w in where], "or")
        said.append(f"{head}, which go only {spelt} ({rules}): each {each}")
    many = plural(len(kept), "way")
    said.append(f"{head}, which go {many} only ({rules}): each {each}")
    said.append(f"{head}, which go {many} only: each {each}")
    return within(said)
