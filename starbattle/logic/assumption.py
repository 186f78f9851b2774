"""Level 6: one assumption, refuted by levels 1-2 alone or by a chain that needs levels 3-5."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starbattle.logic.grid import Found, Grid, View
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Budget, Logic

CHAIN_DEPTH = 8
"""The most rounds of levels 1-5 an assumption may take to reach a contradiction."""
ASSUMPTION_CHOICES = 3
"""Chains using levels 3-5 stop once this many refutations are found."""


def assumption(logic: Logic, view: View) -> list[Found]:
    """An undecided cell whose star (or emptiness) levels 1-5 refute within a few rounds.

    Complete for chains of levels 1-2: every undecided cell is assumed a star and empty
    and levels 1-2 run to their fixpoint. Bounded for chains using levels 3-5: those
    allowed levels up to 3, then 4, then 5 are tried on the cells of the tightest units
    first, until ASSUMPTION_CHOICES refutations are found or the ladder's ASSUMPTION_WORK
    is spent (a count of cells, not seconds, so every run finds the same steps); once it is
    spent level 6 has nothing to say and the ladder goes on to level 7. Refutations found by
    the last search are tried again first (more marks cannot undo them), which saves a
    search per step while a trace works through them.
    """
    grid = view.grid
    budget = logic.budget(6)
    again = [
        (cap, refuted)
        for x, star, cap in logic.refutable
        if x in view.open[grid.units_of[x][0]]
        and (refuted := _refute(logic, view, x, star, cap, budget)) is not None
    ]
    if again:
        return [
            refuted for _, (_, refuted) in sorted(again, key=lambda pair: (pair[0], pair[1][0]))
        ]
    undecided = sorted(
        set(grid.cells) - view.stars - view.blanks,
        key=lambda i: (min(len(view.open[u]) - view.need[u] for u in grid.units_of[i]), i),
    )
    budget = logic.budget(6)
    for cap in (2, 3, 4, 5):
        found: list[tuple[int, Found]] = []
        logic.refutable = []
        for x in undecided:
            for star in (True, False):
                refuted = _refute(logic, view, x, star, cap, budget)
                if refuted is not None:
                    found.append(refuted)
                    logic.refutable.append((x, star, cap))
            if cap > 2 and (len(found) >= ASSUMPTION_CHOICES or budget.left < 0):
                break
        if found or budget.left < 0:
            return [refuted for _, refuted in sorted(found, key=lambda pair: pair[0])]
    return []


def _refute(
    logic: Logic, view: View, x: int, star: bool, max_level: int, budget: Budget
) -> tuple[int, Found] | None:
    """Assume x is a star (or empty) and apply levels 1..max_level until something breaks.

    Levels 1 and 2 run to their fixpoint between rounds; a round applies every step of
    the lowest of levels 3..max_level that has one and costs the budget (None once the
    budget is spent). Returns the rounds it took and the step.
    """
    grid = view.grid
    logic.left()
    stars, blanks = set(view.stars), set(view.blanks)
    (stars if star else blanks).add(x)
    units: set[int] = set()
    for rounds in range(CHAIN_DEPTH + 1):
        broken = _propagate(grid, stars, blanks, units)
        if broken is None and max_level > 2 and rounds < CHAIN_DEPTH:
            if not budget.spend(grid.n * (len(grid.cells) - len(stars) - len(blanks))):
                return None
            current = View(grid, frozenset(stars), frozenset(blanks))
            steps: list[Found] = []
            for level in range(3, max_level + 1):
                steps = logic.apply(level, current, costly=False)
                if steps:
                    break
            if not steps:
                return None
            for step in steps:
                units.update(step.units)
                stars |= step.stars
                blanks |= step.blanks
            if stars & blanks:
                both = grid.where(min(stars & blanks))
                broken = (), f"{both} would have to be both a star and empty"
        if broken is None:
            if max_level > 2 and rounds < CHAIN_DEPTH:
                continue
            return None
        culprits, what = broken
        units.update(culprits)
        assumed, verdict = ("a star", "empty") if star else ("empty", "a star")
        later = f"after {plural(rounds, 'harder step')} " if rounds else ""
        text = f"if {grid.where(x)} were {assumed}, {later}{what}, so {grid.where(x)} is {verdict}"
        cells = {x, *view.marks_in(units), *(j for j in grid.around[x] if j in view.stars)}
        conclusion = frozenset({x})
        return rounds, Found(
            "assumption-chain" if rounds else "assumption",
            tuple(sorted(units)),
            tuple(sorted(cells)),
            frozenset() if star else conclusion,
            conclusion if star else frozenset(),
            text,
        )
    return None


def _propagate(
    grid: Grid, stars: set[int], blanks: set[int], units: set[int]
) -> tuple[tuple[int, ...], str] | None:
    """Apply levels 1 and 2 to their fixpoint, in place; the rule that breaks, if one does.

    Hand-written as a work queue (not by the level-1/2 scans) because level 6 runs it
    on every undecided cell: units are re-examined only when one of their cells changes.
    Units that decide a cell are added to `units`.
    """
    quota = grid.quota
    has = [len(cells & stars) for cells in grid.sets]
    free = [len(cells) - len(cells & blanks) - h for cells, h in zip(grid.sets, has, strict=True)]
    new_stars, pending = list(stars), list(range(len(grid.members)))
    while new_stars or pending:
        while new_stars:
            s = new_stars.pop()
            for j in grid.around[s]:
                if j in stars:
                    pair = sorted((s, j))
                    return (
                        (),
                        f"the stars at {grid.where(pair[0])} and {grid.where(pair[1])} touch",
                    )
                if j not in blanks:
                    blanks.add(j)
                    for u in grid.units_of[j]:
                        free[u] -= 1
                        pending.append(u)
        if not pending:
            continue
        unit = pending.pop()
        need = quota - has[unit]
        if need < 0:
            return (unit,), f"{grid.names[unit]} would have too many stars"
        if free[unit] < need:
            return (unit,), f"{grid.names[unit]} would have no room for its stars"
        if free[unit] and (need == 0 or need == free[unit]):
            units.add(unit)
            for i in grid.members[unit]:
                if i in stars or i in blanks:
                    continue
                (blanks if need == 0 else stars).add(i)
                for u in grid.units_of[i]:
                    free[u] -= 1
                    has[u] += need > 0
                    pending.append(u)
                if need:
                    new_stars.append(i)
    return None
