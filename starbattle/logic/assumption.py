"""Level 6: one assumption refuted by a chain of levels 1-2 alone, or of levels 1-5."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from starbattle.logic.grid import Found, View
from starbattle.logic.minimise import Budget
from starbattle.logic.trial import FOLLOWABLE, Trial, trial_step

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic

CHAIN_DEPTH = 8
"""The most rounds of levels 3-5 an assumption may take to reach a contradiction."""
SHALLOW = 6
"""The rounds of levels 3-5 allowed while looking for a chain short enough to follow."""
PASSES = ((2, 0), (3, SHALLOW), (5, SHALLOW), *((cap, CHAIN_DEPTH) for cap in (3, 4, 5)))
"""The searches, in order: the highest level a chain may use and its rounds of levels 3-5."""
ASSUMPTION_CHOICES = 3
"""Chains using levels 3-5 stop once this many refutations short enough to follow are found."""
SHORTEST = 4
"""How many refutations, the best ones (`_steps`), level 6 makes steps of."""
FOLLOW_WORK = 200_000
"""The part of ASSUMPTION_WORK the search for chains short enough to follow may spend."""
MET = 3
"""How many of the refutations too long to follow that the searches for followable chains
met (the shortest first) are found again with the containers, when no chain can be followed."""


def assumption(logic: Logic, view: View) -> list[Found]:
    """Undecided cells whose star (or emptiness) levels 1-5 refute, the shortest chain first.

    Complete for chains of levels 1-2: every undecided cell is assumed a star and empty
    and levels 1-2 run to their fixpoint. While no chain found is short enough to follow
    (FOLLOWABLE steps, once shortened), chains that may use level 3, then levels 3-5, for
    SHALLOW rounds are tried too, on the cells of the tightest units first, keeping only
    those short enough to follow, until ASSUMPTION_CHOICES are found or each search has
    spent FOLLOW_WORK (the longer ones they meet are dropped: the deep passes find chains of
    simpler steps). While no refutation is found, chains that may use levels up to 3, then
    4, then 5 for CHAIN_DEPTH rounds are tried, until ASSUMPTION_CHOICES refutations are
    found or the ladder's ASSUMPTION_WORK is spent (a count of cells, not seconds, so every
    run finds the same steps); once it is spent with no refutation, level 6 has nothing to
    say and the ladder goes on to level 7.
    Refutations found by the last search are tried again first (more marks cannot undo
    them), which saves a search per step while a trace works through them: the search is
    made again when they are all too long to follow, as it would be on a fresh board with
    these marks (where the new marks allow a shorter chain, it is found: on 40 held-out
    10x10 experts, chains over FOLLOWABLE steps 5 -> 3, at 14% more CPU).
    Each refutation is a chain (starbattle.logic.trial); the SHORTEST are the steps.
    """
    grid = view.grid
    budget = logic.budget(6)
    since = view if {3, 4} <= view.quiet else None
    again = [
        trial
        for x, star, cap in logic.refutable
        if x in view.open[grid.units_of[x][0]]
        and (trial := _refute(logic, view, x, star, cap, budget, since)) is not None
    ]
    if any(trial.length <= FOLLOWABLE for trial in again):
        return _steps(logic, again)
    undecided = sorted(
        set(grid.cells) - view.stars - view.blanks,
        key=lambda i: (min(len(view.open[u]) - view.need[u] for u in grid.units_of[i]), i),
    )
    budget = logic.budget(6)
    found: list[Trial] = []
    met: list[Trial] = []  # refutations too long to follow, met by the searches for short ones
    logic.refutable = []
    for cap, rounds in PASSES:
        deep = rounds == CHAIN_DEPTH
        if deep and found:
            break
        spent = (
            budget if deep or cap == 2 else Budget(min(FOLLOW_WORK, budget.left), budget.deadline)
        )
        for x in undecided:
            for star in (True, False):
                if x in (view.seen_star if star else view.seen_empty):
                    continue  # a known solution agrees: no chain breaks a rule
                trial = _refute(logic, view, x, star, cap, spent, since, rounds)
                if trial is not None and (deep or cap == 2 or _followable(trial)):
                    found.append(trial)
                    logic.refutable.append((x, star, cap))
                elif trial is not None:
                    met.append(trial)
            enough = sum(deep or t.length <= FOLLOWABLE for t in found)
            if cap > 2 and (enough >= ASSUMPTION_CHOICES or spent.left < 0):
                break
        if spent is not budget:
            budget.spend(min(FOLLOW_WORK, budget.left) - spent.left)
        if any(trial.length <= FOLLOWABLE for trial in found) or budget.left < 0:
            break
    return _steps(logic, found, met)


def _followable(trial: Trial) -> bool:
    """Whether a refutation's chain, shortened, is short enough for a person to follow."""
    trial.shorten()
    return trial.length <= FOLLOWABLE


def _steps(logic: Logic, trials: list[Trial], met: list[Trial] | None = None) -> list[Found]:
    """The steps of the SHORTEST refuted assumptions, best first.

    Every chain is shortened (`Trial.shorten`) first. Chains a person can follow come
    first; among them those that place a star (an emptiness refuted), which move a puzzle
    on most, then the shortest; ties go in reading order. When none can be followed, each
    of the SHORTEST is refuted again with the containers too (`_deepened`), which may find
    the same cell a shorter chain; while none can still, so are the MET shortest of those
    `met` too long by the searches for followable chains (on 40 StarBattleLab 14x3 traces,
    chains over FOLLOWABLE steps 10 -> 4, at 8% more CPU).
    """
    for trial in trials:
        if trial.kept is None:
            trial.shorten()
    ranked = sorted(trials, key=_rank)
    if ranked and ranked[0].length > FOLLOWABLE:
        ranked = sorted((_deepened(logic, trial) for trial in ranked[:SHORTEST]), key=_rank)
        tried, others = {(t.x, t.star) for t in ranked}, {}
        for trial in sorted(met or (), key=lambda t: (t.length, t.x)):
            if (trial.x, trial.star) not in tried:  # each cell once, its shortest chain
                others.setdefault((trial.x, trial.star), trial)
        for trial in list(others.values())[:MET]:
            if ranked[0].length <= FOLLOWABLE:
                break
            ranked = sorted([_deepened(logic, trial), *ranked], key=_rank)
    restate = partial(_restated, logic)
    return [trial_step(trial, restate) for trial in ranked[:SHORTEST]]


def _rank(trial: Trial) -> tuple[bool, bool, int, int]:
    """A refutation's place among the steps: followable, placing a star, shortest, first."""
    return (trial.length > FOLLOWABLE, trial.star, trial.length, trial.x)


def _deepened(logic: Logic, trial: Trial) -> Trial:
    """A refutation too long to follow, found again with level 5's containers in its rounds.

    Searched with them, level 6 costs several times as much (and at 14x14 3-star finds
    longer chains); asked of the few cells already refuted by chains too long to follow,
    they shorten those chains at little cost (chains over FOLLOWABLE steps on 40 held-out
    10x10 experts 13 -> 5, StarBattleLab 14x3 19 -> 11, at 6-15% more CPU). The shorter
    of the two chains.
    """
    budget, view = Budget(FOLLOW_WORK, logic.deadline), trial.view
    again = _refute(logic, view, trial.x, trial.star, 5, budget, None, SHALLOW, containers=True)
    if again is None:
        return trial
    again.shorten()
    return again if again.length < trial.length else trial


def _restated(logic: Logic, view: View, found: Found) -> Found:
    """A chain's level 3-5 step said again from the chain's marks, some of its own among them.

    The same technique on the same units, concluding just the cells still undecided there;
    as found when it says nothing so there.
    """
    rest = (found.stars - view.stars, found.blanks - view.blanks)
    for again in logic.found_by(found.technique, view):
        if again.units == found.units and (again.stars, again.blanks) == rest:
            return again
    return found


def _refute(
    logic: Logic,
    view: View,
    x: int,
    star: bool,
    max_level: int,
    budget: Budget,
    since: View | None,
    depth: int = CHAIN_DEPTH,
    containers: bool = False,
) -> Trial | None:
    """Assume x is a star (or empty) and apply levels 1..max_level until a rule breaks.

    Levels 1 and 2 run to their fixpoint between at most `depth` rounds; a round applies
    every step of the lowest of levels 3..max_level that has one and costs the budget
    (None once the budget is spent). With level 3 allowed, a unit, two or three adjacent
    lines together (a squeeze) or two neighbouring regions whose undecided cells fit in fewer
    2x2 blocks than the stars they need break the rules too (Trial.cramped, looked at after
    every step). Returns the trial once a rule breaks, else None. `since`: the view itself
    when levels 3 and 4 found nothing there, so that their rounds look at the units the
    trial changed alone (View.changed). `containers`: every round also takes the deductions
    of every one of level 5's costly techniques.
    """
    grid = view.grid
    logic.left()
    trial = Trial(view, x, star, squeezes=max_level > 2)
    for rounds in range(depth + 1):
        if trial.propagate():
            return trial
        if max_level <= 2 or rounds == depth:
            return None
        if not budget.spend(grid.n * (len(grid.cells) - len(trial.stars) - len(trial.blanks))):
            return None
        current = View(grid, frozenset(trial.stars), frozenset(trial.blanks), since)
        steps: list[Found] = []
        for level in range(3, max_level + 1):
            steps = logic.apply(level, current, costly=False)
            if steps:
                break
        if containers:  # every container's deductions too, whatever the cheaper ones found
            steps += logic.apply(5, current, cheap=False, alone=False)
        if not steps:
            return None
        if trial.take(steps):
            return trial
    return None
