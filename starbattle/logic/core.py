"""Level 7: the undecided cell forced by the fewest units, found by clingo's unsatisfiable cores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starbattle.logic.grid import Found, View
from starbattle.logic.minimise import NO_TOUCH, smaller_core
from starbattle.logic.sentences import outcome, units_phrase, within
from starbattle.words import noun

if TYPE_CHECKING:
    from starbattle.asp.solver import Rule, Solver
    from starbattle.logic.ladder import Logic

CORE_CANDIDATES = 16
"""How many undecided cells (those in the tightest units first) get a core."""
CORE_CONFLICTS = 300
"""Clasp's conflicts allowed per proof while a core is made smaller (a proof that takes more
keeps its unit: the core stays sound, only larger)."""
CORE_FIRST_CONFLICTS = 200
"""On a unique board: clasp's conflicts allowed for a cell's first proof, raised 8-fold in
each round while no candidate cell is proved (then without limit)."""


def unsat_core(logic: Logic, view: View) -> list[Found]:
    """The undecided cell forced by the fewest units, found by clingo cores.

    Up to CORE_CANDIDATES cells (in the tightest units first) get a core, made smaller
    by dropping units while the ladder's proofs last (CORE_PROOFS / size: a count, not
    seconds, so every run finds the same step); the first forced cell always gets one. On a
    unique board only the solution's side of each cell needs a proof, and the first proofs
    are cut at CORE_FIRST_CONFLICTS conflicts, then at 8 times as many, and so on:
    a cell that is quick to prove comes before one that would take the whole search.
    The proofs run on a checker grounded for this step alone: clasp keeps some state
    from one proof to the next even when told to forget, and a conflict limit makes
    that state matter, so a shared checker would make the step depend on the questions
    asked before it, not only on the board and state.
    """
    grid = view.grid
    prover = logic.ground_checker()
    undecided = sorted(
        set(grid.cells) - view.stars - view.blanks,
        key=lambda i: min(len(view.open[u]) - view.need[u] for u in grid.units_of[i]),
    )[:CORE_CANDIDATES]
    every = logic.rules()
    marks = logic.assume(view.stars, view.blanks)
    proofs = logic.budget(7)
    if len(logic.solutions) == 1:
        truth = logic.solutions[0]
        tries = [(x, (x in truth,)) for x in undecided]
        limit: int | None = CORE_FIRST_CONFLICTS
    else:
        tries = [(x, (True, False)) for x in undecided]
        limit = None
    best: Found | None = None
    forcing: list[Rule] = []
    while best is None and tries:
        cut: list[tuple[int, tuple[bool, ...]]] = []
        for x, sides in tries:
            if best is not None and proofs.left <= 0:
                break
            for star in sides:
                flip = -logic.literals[x] if star else logic.literals[x]
                literals = [*marks, flip]
                core = prover.core(every, (), logic.left(), literals=literals, conflicts=limit)
                if core is None:
                    continue
                needed = smaller_core(
                    prover,
                    core,
                    list(logic.unit_numbers),
                    (NO_TOUCH,),
                    logic.deadline,
                    literals=literals,
                    conflicts=CORE_CONFLICTS,
                    proofs=proofs,
                )
                units = tuple(sorted(logic.unit_numbers[unit] for unit in needed))
                if best is None or len(units) < len(best.units):
                    best, forcing = _core_step(view, {x: star}, units), needed
                break
            else:
                cut.append((x, sides))
        tries = cut if limit is not None else []
        limit = None if limit is None or limit >= CORE_FIRST_CONFLICTS * 8**3 else limit * 8
    if best is None:
        return []
    return [_whole(logic, prover, view, best, forcing, marks)]


def _whole(
    logic: Logic, prover: Solver, view: View, step: Found, forcing: list[Rule], marks: list[int]
) -> Found:
    """The step with every other undecided cell in or next to its units that they force too.

    One argument, one step: each such cell is proved with the same units (its solution's
    side only on a unique board), each proof cut at CORE_CONFLICTS (a proof cut short
    leaves its cell out). On a unique board a proof that fails finds a way the units hold:
    the cells it puts on the other side than the solution's are not forced and go untried
    (the same step in fewer proofs).

    The cut keeps a step to what its units show quickly, not only its cost down: many
    proofs cut short are of cells the units do force (502 of 633 on one 14x14 3-star
    board's first 4 core steps), and concluding every cell the units force (cautious and
    brave consequences, one solve each) concluded 2,625 cells against 301 on 58 SBL 14x14
    3-star core steps: traces ended in a few steps that decided most of the board
    (sbn:30441 86 -> 11 steps, 21x21 5-star sbl-0378 3 steps).
    """
    grid, truth = view.grid, logic.solutions[0] if len(logic.solutions) == 1 else None
    forced = {i: True for i in step.stars} | {i: False for i in step.blanks}
    on = [*forcing, NO_TOUCH]
    off = [rule for rule in logic.unit_numbers if rule not in forcing]
    inside = {i for u in step.units for i in view.open[u]}
    near = {j for i in inside for j in grid.around[i] if j not in view.stars | view.blanks}
    cells = sorted((inside | near) - set(forced))
    free: set[int] = set()
    for y in cells:
        for star in (y in truth,) if truth is not None else (True, False):
            if y in free:
                break
            flip = -logic.literals[y] if star else logic.literals[y]
            seen = None if truth is None else dict.fromkeys(logic.literals[i] for i in cells)
            core = prover.core(
                on, off, logic.left(), literals=[*marks, flip], conflicts=CORE_CONFLICTS, seen=seen
            )
            if core is not None:
                forced[y] = star
                break
            if seen is not None and truth is not None:
                free |= {i for i in cells if seen[logic.literals[i]] not in (None, i in truth)}
    return _core_step(view, forced, step.units) if len(forced) > 1 else step


def _core_step(view: View, forced: dict[int, bool], units: tuple[int, ...]) -> Found:
    """The level-7 step: these units force the cells (a star where True, else empty).

    Its units named, or counted where naming them would pass SENTENCE_LIMIT (the board
    outlines them).
    """
    grid = view.grid
    stars = frozenset(i for i, star in forced.items() if star)
    blanks = frozenset(i for i, star in forced.items() if not star)
    if len(units) == len(grid.names):
        rules = ["the puzzle has no solution"]
    elif len(units) > 1:
        rules = [
            f"{named} cannot all get their stars"
            for named in (units_phrase(grid, units), f"these {len(units)} units")
        ]
    else:
        rules = [f"{units_phrase(grid, units)} cannot get its {noun(grid.quota, 'star')}"]
    unless = outcome(grid, stars, blanks)
    return Found(
        "unsat-core",
        units,
        view.marks_in(units),
        stars,
        blanks,
        within(
            f"no technique here finds the next step; clingo proves that {rule} unless {unless}"
            for rule in rules
        ),
    )
