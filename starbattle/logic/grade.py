"""Difficulty: a tier and a score from the hint ladder's trace (clingo's search: measured only).

Every feature is measured on the board's canonical form (the least of its 8 rotations and
reflections, regions renamed in reading order), so a grade never depends on orientation or
region names. A board without exactly one solution gets no grade: `Grade.reason` says why.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from starbattle.errors import UsageError
from starbattle.logic.registry import BY_NAME, EFFORTS
from starbattle.logic.trial import FOLLOWABLE
from starbattle.model.board import Board, Cell
from starbattle.model.steps import TIERS, Grade
from starbattle.words import joined

if TYPE_CHECKING:
    from collections.abc import Iterator

    from starbattle.model.steps import Step


# Fitted by `python benchmarks/grade.py extract -j 1 && python benchmarks/grade.py fit --write`
# (least squares on the fitting half of ../shared/corpus/difficulty.jsonl, StarBattleLab tiers).
WEIGHTS = {
    "is_basic": 0.3,
    "is_region": -2.2709,
    "is_exclusion": 1.0106,
    "is_counting": 1.9901,
    "is_advanced": 2.2575,
    "is_assumption-chain": 2.9989,
    "is_machine": 3.0089,
    "pace_region": 0.878,
    "share_exclusion": 1.3964,
    "share_counting": 0.256,
    "share_advanced": 2.8426,
    "share_assumption-chain": 0.0161,
    "share_machine": 0.0,
}
"""The score's weight of each term (see `terms`): for each effort class of EFFORTS, the score
of a trace whose hardest step is of that class (`is_`) and what adds to it how much of that
class the trace needs: the share of the board's cells its steps of that class decide
(`share_`), or for region the trace's steps per row (`pace_`, kept within `bounds`). The
score estimates StarBattleLab's tier rank (0 easy, 1 medium, 2 hard, 3 expert)."""
CUTS = (0.558, 1.991, 2.404, 3.008)
"""The least score of medium, hard, expert and extreme (fitted by the same command: fewest
misplaced between neighbouring StarBattleLab tiers, expert above every puzzle of the fitting
half that another source labels normal or easy; extreme above 90% of the experts)."""


def _orientations(size: int) -> Iterator[dict[Cell, Cell]]:
    """The 8 rotations and reflections of a size x size board, as maps from old to new cells."""
    for turns in range(4):
        for mirror in (False, True):
            mapping = {}
            for r in range(1, size + 1):
                for c in range(1, size + 1):
                    rr, cc = r, c
                    for _ in range(turns):
                        rr, cc = cc, size + 1 - rr
                    mapping[(r, c)] = (rr, size + 1 - cc) if mirror else (rr, cc)
            yield mapping


def canonical_board(board: Board) -> Board:
    """The least of the board's 8 orientations, regions renamed 1, 2, ... in reading order."""
    size, best, best_key = board.size, board, None
    for mapping in _orientations(size):
        grid: list[list[str | None]] = [[None] * size for _ in range(size)]
        for (r, c), (rr, cc) in mapping.items():
            grid[rr - 1][cc - 1] = board.regions[r - 1][c - 1]
        names: dict[str, str] = {}
        rows = tuple(
            tuple(
                None if label is None else names.setdefault(label, str(len(names) + 1))
                for label in row
            )
            for row in grid
        )
        stars = frozenset(mapping[cell] for cell in board.given_stars)
        blanks = frozenset(mapping[cell] for cell in board.given_blanks)
        key = (
            tuple(tuple(0 if label is None else int(label) for label in row) for row in rows),
            sorted(stars),
            sorted(blanks),
        )
        if best_key is None or key < best_key:
            best_key = key
            best = Board(rows, board.stars, stars, blanks, name=board.name)
    return best


LEVEL_6_BUDGET = 8
"""The most level-6 steps a grade reads: the trace is cut there (or where levels 1-6 are
stuck), which bounds the time a grade takes (level 6 is the slow level) and costs no
agreement with people's labels (benchmarks/RESULTS.md, grade section)."""


def effort(step: Step) -> int:
    """A step's effort: the index in EFFORTS of its technique's effort class (the registry's).

    A trial whose chain is longer than a person can follow (FOLLOWABLE steps) is a machine
    step, as an unsatisfiable core is.
    """
    if step.chain_length > FOLLOWABLE:
        return EFFORTS.index("machine")
    return EFFORTS.index(BY_NAME[step.technique].effort(step.units))


Summary = list[tuple[int, int, int, int]]
"""A trace as (level, effort, deductions of that effort available, cells decided) per step."""


def graded_trace(
    board: Board, deadline: float | None = None, *, assume_unique: bool = False
) -> tuple[Summary, bool]:
    """The trace the grade reads (least effort first), summarised, and whether it was cut.

    `assume_unique`: techniques may assume the puzzle has one solution (Logic's).

    Levels 1-6 only: where they are stuck the step is counted as level 7 (a clingo core
    would be next) without computing it, and the trace stops. Raises TimeLimitReached once
    the perf_counter `deadline` passes.
    """
    from starbattle.logic.ladder import Logic, State  # imports clingo: only when grading

    logic = Logic(board, deadline=deadline, assume_unique=assume_unique)
    state, steps = State(), []
    while (step := logic.easiest_step(state, effort)) is not None:
        steps.append((step.level, effort(step), step.available, len(step.stars + step.blanks)))
        state = state.after(step)
        if sum(level == 6 for level, *_ in steps) == LEVEL_6_BUDGET:
            return steps, True
    if logic.solved(state):
        return steps, False
    return [*steps, (7, EFFORTS.index("machine"), 1, 1)], True


def measure(
    board: Board, deadline: float | None = None, *, assume_unique: bool = False
) -> tuple[Summary, bool, dict[str, int]] | int:
    """A canonical board's trace summary, whether it was cut, and its search effort.

    A board without exactly one solution gives its solution count (0, or 2 for several).
    Raises TimeLimitReached once the perf_counter `deadline` passes.
    """
    from starbattle.asp.solver import Solver
    from starbattle.limits import TimeLimitReached, time_left

    # clingo_args given: a grounding of its own, so the search effort never depends on history
    solver = Solver(board, clingo_args=("--seed=0",), ground_timeout=time_left(deadline))
    found = len(list(solver.solutions(2, time_left(deadline))))
    if solver.last.timed_out:
        raise TimeLimitReached
    if found != 1:
        return found
    stats = solver.stats
    search = {
        "size": board.size,
        "stars": board.stars,
        "cells": sum(label is not None for row in board.regions for label in row),
        "choices": stats.choices,
        "conflicts": stats.conflicts,
    }
    return (*graded_trace(board, deadline, assume_unique=assume_unique), search)


def summarise(steps: Summary, cut: bool, search: dict[str, int]) -> dict[str, int]:
    """The grade's raw features from a trace summary (`graded_trace`) and the search effort.

    `effort` is the hardest effort class the trace needed (its index in EFFORTS) and
    `effort_cells` the cells its steps of that class decided.
    """
    levels = [level for level, *_ in steps]
    efforts = [effort_ for _, effort_, *_ in steps]
    hardest = max(efforts, default=0)
    return {
        "solutions": 1,
        **search,
        "steps": len(steps),
        **{f"level_{level}": levels.count(level) for level in range(1, 8)},
        "hardest": max(levels, default=0),
        "effort": hardest,
        "effort_cells": sum(cells for _, effort_, _, cells in steps if effort_ == hardest),
        "chains": efforts.count(EFFORTS.index("assumption-chain")),
        "bottlenecks": sum(available == 1 for _, _, available, _ in steps),
        "cut": int(cut),
    }


def features(
    board: Board, timeout: float | None = None, *, assume_unique: bool = False
) -> dict[str, int]:
    """The grade's raw features of a board (only `solutions`, 0 or 2, when it is not unique).

    Raises TimeLimitReached when `timeout` seconds pass first.
    """
    from starbattle.limits import deadline_after

    measured = measure(canonical_board(board), deadline_after(timeout), assume_unique=assume_unique)
    if isinstance(measured, int):
        return {"solutions": measured}
    return summarise(*measured)


def share(raw: dict[str, int]) -> float:
    """The share of the board's cells that steps of the hardest effort class decided."""
    return raw["effort_cells"] / raw["cells"]


def pace(raw: dict[str, int]) -> float:
    """The trace's steps per row of the board: how long the solve is, whatever its size."""
    return raw["steps"] / raw["size"]


def weighed_class(raw: dict[str, int], weights: dict[str, float] = WEIGHTS) -> int:
    """The trace's hardest effort class, or the nearest easier one with weights.

    A class added to the registry since the last fit has no weights yet.
    """
    hardest = raw["effort"]
    while hardest and f"is_{EFFORTS[hardest]}" not in weights:
        hardest -= 1
    return hardest


def terms(raw: dict[str, int], weights: dict[str, float] = WEIGHTS) -> dict[str, float]:
    """The score's terms: the hardest effort class a person needs, and how much of it.

    For each class of EFFORTS, `is_CLASS` (1 when the trace's hardest step is of that class,
    see `weighed_class`), `share_CLASS` (the `share` of cells its steps decided, there) and
    `pace_CLASS` (the trace's steps per row, there). Only shares and steps per row count, not
    the board's size, so that a tier means the same at every size.
    """
    hardest = weighed_class(raw, weights)
    measures = {"share": share(raw), "pace": pace(raw)}
    return {
        **{f"is_{name}": float(k == hardest) for k, name in enumerate(EFFORTS)},
        **{
            f"{measure}_{name}": value if k == hardest else 0.0
            for measure, value in measures.items()
            for k, name in enumerate(EFFORTS)
        },
    }


def bounds(name: str, weights: dict[str, float] = WEIGHTS) -> tuple[float, float]:
    """The least and most a trace whose hardest class is `name` scores.

    A class whose amount is its steps per row (`pace_`, unbounded) scores from the least of
    the next easier class with weights to the least of the next harder one whose amount is
    a share; a share is at most 1, so those classes need no bounds.
    """
    if weights.get(f"pace_{name}", 0.0) <= 0:
        return -math.inf, math.inf
    k = EFFORTS.index(name)
    easier = [weights[f"is_{other}"] for other in EFFORTS[:k] if f"is_{other}" in weights]
    harder = [
        weights[f"is_{other}"]
        for other in EFFORTS[k + 1 :]
        if f"is_{other}" in weights and weights.get(f"pace_{other}", 0.0) <= 0
    ]
    return (easier[-1] if easier else -math.inf), (harder[0] if harder else math.inf)


def score_of(raw: dict[str, int], weights: dict[str, float] = WEIGHTS) -> float:
    """The weighted sum of a board's terms, within its class's `bounds`."""
    values = terms(raw, weights)
    total = sum(weight * values[name] for name, weight in weights.items())
    least, most = bounds(EFFORTS[weighed_class(raw, weights)], weights)
    return min(max(total, least), most)


MEASURES = ("share", "pace")
"""The measures of how much of its hardest class a trace needs (`terms`)."""


def rules(
    weights: dict[str, float] = WEIGHTS, cuts: tuple[float, ...] = CUTS
) -> list[tuple[str, str, list[tuple[str, float]]]]:
    """What each tier means: per effort class, the tiers its measure of how much reaches.

    For each class with weights, the measure that weighs for it ('share' of the board's
    cells, 0 to 1 in thousandths, or 'pace', steps per row in hundredths: the first that
    weighs), and its tiers in order with the least value each needs (the first from 0).
    """
    said = []
    for name in EFFORTS:
        if f"is_{name}" not in weights:
            continue
        amount = next((m for m in MEASURES if weights.get(f"{m}_{name}", 0.0) > 0), "share")
        base, slope = weights[f"is_{name}"], weights.get(f"{amount}_{name}", 0.0)
        least, most = bounds(name, weights)
        low, top = max(base, least), min(base + slope if amount == "share" else most, most)
        unit = 1000 if amount == "share" else 100
        reached = [(tier_of(low, cuts), 0.0)]
        for cut, tier in zip(cuts, TIERS[1:], strict=True):
            if slope > 0 and low < cut <= top:
                needs = math.ceil(unit * (cut - base) / slope) / unit
                reached = [*(pair for pair in reached if pair[1] < needs), (tier, needs)]
        said.append((name, amount, reached))
    return said


def tier_of(score: float, cuts: tuple[float, ...] = CUTS) -> str:
    """The tier a score falls in."""
    return TIERS[sum(score >= cut for cut in cuts)]


TIMED_OUT = "no grade: the time limit was reached first"
"""The reason of a grade that a time limit stopped."""


def grade(board: Board, timeout: float | None = None, *, assume_unique: bool = False) -> Grade:
    """The board's difficulty; a board without exactly one solution gets a reason instead.

    So does one whose grading outlasts `timeout` seconds (TIMED_OUT). `assume_unique`: the
    trace may use the techniques that assume one solution (--assume-unique).
    """
    from starbattle.limits import TimeLimitReached

    try:
        raw = features(board, timeout, assume_unique=assume_unique)
    except TimeLimitReached:
        return Grade(None, None, {}, TIMED_OUT)
    if raw["solutions"] == 0:
        return Grade(None, None, raw, "no grade: the board has no solution")
    if raw["solutions"] > 1:
        return Grade(None, None, raw, "no grade: the board has more than one solution")
    score = round(score_of(raw), 3)
    return Grade(tier_of(score), score, raw, kind=EFFORTS[raw["effort"]])


REACHABLE: dict[tuple[int, int], tuple[str, ...]] = {
    (5, 1): ("easy", "medium", "hard"),
    (6, 1): ("easy", "medium", "hard"),
    (7, 1): ("easy", "medium", "hard"),
    (8, 1): ("medium", "hard"),
    (9, 1): ("medium", "hard", "expert"),
    (10, 1): ("medium", "hard"),
    (11, 1): ("medium", "hard"),
    (12, 1): ("medium", "hard"),
    (8, 2): ("medium", "hard", "expert", "extreme"),
    (9, 2): ("easy", "medium", "hard", "expert", "extreme"),
    (10, 2): ("easy", "medium", "hard", "expert", "extreme"),
    (11, 2): ("easy", "medium", "hard", "expert", "extreme"),
    (12, 2): ("easy", "medium", "hard", "expert", "extreme"),
    (13, 3): ("easy", "medium", "hard", "expert", "extreme"),
    (14, 3): ("easy", "medium", "hard", "expert", "extreme"),
    (15, 3): ("medium", "hard", "expert", "extreme"),
}
"""The tiers that generated puzzles of a size and star count were seen to reach (measured by
`python benchmarks/tier_reach.py`: benchmarks/RESULTS.md, tier reach); a size not listed may
reach any tier."""


def refuse_unreachable(size: int, stars: int, tier: str) -> None:
    """Refuse at once a tier that no generated puzzle of this size reached (REACHABLE)."""
    reached = REACHABLE.get((size, stars))
    if reached is not None and tier not in reached:
        raise UsageError(
            f"no generated {size}x{size} {stars}-star puzzle was {tier} when measured "
            f"(benchmarks/tier_reach.py): ask {joined(reached, 'or')}, or another size"
        )
