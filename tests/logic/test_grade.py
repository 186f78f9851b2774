"""The difficulty grade: features, tiers, no grade without one solution, invariance, CLI."""

from __future__ import annotations

import json
import math
import random

import pytest
from helpers import CORPUS, INSTANCES, needs_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from starbattle import Board
from starbattle.io.inputs import read_board
from starbattle.io.records import record
from starbattle.logic.grade import (
    EFFORTS,
    LEVEL_6_BUDGET,
    WEIGHTS,
    bounds,
    canonical_board,
    features,
    grade,
    graded_trace,
    pace,
    rules,
    score_of,
    tier_of,
)
from starbattle.logic.graded import Asked, NoneAsAsked, generate_graded
from starbattle.model.steps import TIERS, Grade, Graded

SIX = INSTANCES / "pzprjs-6x6-1star.lp"
SIX_BLOCKED = INSTANCES / "cspuz-6x6-blocked.lp"
REGION_LONG = INSTANCES / "generated-6x6-1star-region.lp"
"""A puzzle that needs region steps and nothing harder, but many steps per row."""
NOT_UNIQUE = INSTANCES / "norvig-5x5-1star.lp"
NO_SOLUTION = Board.from_rows(["ABCCC", "CCCCC", "DDDDD", "EEEEE", "EEEEE"], 1)
"""Regions A and B are single touching cells: their stars would touch."""


def oriented(board: Board, turns: int, mirror: bool, names: dict[str, str]) -> Board:
    """The board turned a quarter `turns` times, mirrored if asked, regions renamed."""
    rows = [list(row) for row in board.regions]
    stars, blanks = set(board.given_stars), set(board.given_blanks)
    n = board.size
    for _ in range(turns):
        rows = [list(row) for row in zip(*rows[::-1], strict=True)]
        stars = {(c, n + 1 - r) for r, c in stars}
        blanks = {(c, n + 1 - r) for r, c in blanks}
    if mirror:
        rows = [row[::-1] for row in rows]
        stars = {(r, n + 1 - c) for r, c in stars}
        blanks = {(r, n + 1 - c) for r, c in blanks}
    renamed = [[None if label is None else names[label] for label in row] for row in rows]
    return Board.from_rows(renamed, board.stars, given_stars=stars, given_blanks=blanks)


def test_features_of_a_known_board_are_exact() -> None:
    graded = grade(read_board(str(SIX)))
    assert graded.reason is None
    assert graded.features == {
        "solutions": 1,
        "size": 6,
        "stars": 1,
        "cells": 36,
        "choices": 19,
        "conflicts": 18,
        "steps": 19,
        "level_1": 9,
        "level_2": 6,
        "level_3": 1,
        "level_4": 1,
        "level_5": 2,
        "level_6": 0,
        "level_7": 0,
        "hardest": 5,
        "effort": 2,
        "effort_cells": 2,
        "chains": 0,
        "bottlenecks": 4,
        "cut": 0,
    }


@pytest.mark.parametrize(
    ("path", "tier", "kind"),
    [
        (INSTANCES / "norvig-5x5-given.lp", "easy", "region"),
        (REGION_LONG, "medium", "region"),
        (SIX, "medium", "exclusion"),
        (SIX_BLOCKED, "medium", "exclusion"),
        (INSTANCES / "generated-10x10-2star.lp", "medium", "exclusion"),
        (INSTANCES / "cspuz-6x6-1star.lp", "hard", "counting"),
        (INSTANCES / "generated-14x14-3star.lp", "hard", "advanced"),
        (INSTANCES / "generated-9x9-2star-expert.lp", "expert", "advanced"),
        (INSTANCES / "generated-17x17-4star.lp", "expert", "advanced"),
        (INSTANCES / "generated-21x21-5star.lp", "extreme", "machine"),
    ],
)
def test_the_shipped_examples_get_their_tier(path: object, tier: str, kind: str) -> None:
    """The README's example of each tier (a 6x6 and a 10x10 medium alike)."""
    graded = grade(read_board(str(path)))
    assert (graded.tier, graded.kind) == (tier, kind)
    assert graded.tier == tier_of(graded.score)


@pytest.mark.parametrize(
    ("path", "steps", "size"),
    [(INSTANCES / "norvig-5x5-given.lp", 13, 5), (REGION_LONG, 22, 6)],
)
def test_region_traces_are_graded_by_their_steps_per_row(
    path: object, steps: int, size: int
) -> None:
    """Both traces need region steps at most; the longer one per row scores more."""
    graded = grade(read_board(str(path)))
    assert graded.kind == "region"
    assert (graded.features["steps"], graded.features["size"]) == (steps, size)
    assert pace(graded.features) == steps / size
    lifted = WEIGHTS["is_region"] + WEIGHTS["pace_region"] * steps / size
    least, most = bounds("region")
    assert graded.score == round(min(max(lifted, least), most), 3)


def test_the_short_region_trace_scores_as_basic_and_the_long_one_more() -> None:
    short, long = (
        grade(read_board(str(path))) for path in (INSTANCES / "norvig-5x5-given.lp", REGION_LONG)
    )
    assert short.score == WEIGHTS["is_basic"] < long.score < WEIGHTS["is_exclusion"]
    assert (short.tier, long.tier) == ("easy", "medium")


def raw_of(
    size: int, stars: int, kind: str, part: float, cells: int = 0, per_row: float = 3.0
) -> dict[str, int]:
    """Raw features of a board whose hardest kind of step decides `part` of its cells, in a
    trace of `per_row` steps per row (rounded up to whole steps)."""
    cells = cells or size * size
    return {
        "size": size,
        "stars": stars,
        "cells": cells,
        "effort": EFFORTS.index(kind),
        "effort_cells": math.ceil(part * cells),
        "steps": math.ceil(per_row * size),
    }


@pytest.mark.parametrize("kind", EFFORTS)
def test_a_tier_means_the_same_at_every_size(kind: str) -> None:
    for part, per_row in ((0.0, 2.5), (0.25, 3.0), (0.5, 3.5), (1.0, 4.5)):
        scores = {
            score_of(raw_of(size, stars, kind, part, per_row=per_row)) for size, stars in SIZES
        }
        assert len(scores) == 1, (kind, part, scores)


SIZES = ((6, 1), (10, 2), (14, 3), (18, 4))


def test_each_kinds_tiers_rise_with_its_amount_as_the_rules_say() -> None:
    said = {kind: (amount, reached) for kind, amount, reached in rules()}
    assert set(said) <= set(EFFORTS) and said
    assert {amount for amount, _ in said.values()} == {"share", "pace"}
    for kind, (amount, reached) in said.items():
        for tier, least in reached:
            # a million rows: whole steps come as close to `least` steps per row as asked
            raw = (
                raw_of(10, 2, kind, least, cells=100_000)
                if amount == "share"
                else raw_of(1_000_000, 2, kind, 0.0, per_row=least)
            )
            assert tier_of(score_of(raw)) == tier, (kind, tier, least)
        tiers = [TIERS.index(tier) for tier, _ in reached]
        assert tiers == sorted(tiers)
    at_zero = [TIERS.index(reached[0][0]) for _, reached in said.values()]
    assert at_zero == sorted(at_zero)  # a harder kind never starts in a lower tier


def test_region_steps_per_row_lift_the_score_between_basic_and_exclusion() -> None:
    """How much region a trace needs is its steps per row, and that never lifts a region
    trace past the least exclusion trace nor lowers it under a basic one."""
    weights = {"is_basic": 0.3, "is_region": -2.0, "is_exclusion": 1.0, "pace_region": 0.8}
    weights["share_exclusion"] = 1.5
    by_pace = [score_of(raw_of(10, 2, "region", 0.2, per_row=r), weights) for r in (2, 3, 3.5, 9)]
    assert by_pace == [0.3, pytest.approx(0.4), pytest.approx(0.8), 1.0]
    assert score_of(raw_of(10, 2, "exclusion", 0.1, per_row=9), weights) == pytest.approx(1.15)
    assert bounds("region", weights) == (0.3, 1.0)
    assert bounds("exclusion", weights) == (-math.inf, math.inf)
    assert score_of(raw_of(10, 2, "basic", 0.0, per_row=9), weights) == 0.3
    assert pace(raw_of(7, 1, "region", 0.0, per_row=3.2)) == 23 / 7


def test_a_kind_without_weights_counts_as_the_nearest_easier_one() -> None:
    fitted = {name: weight for name, weight in WEIGHTS.items() if "machine" not in name}
    raw = raw_of(10, 2, "machine", 0.01)
    assert score_of(raw, fitted) == score_of(raw_of(10, 2, "assumption-chain", 0.01), fitted)


def test_tiers_rise_with_the_score() -> None:
    assert [tier_of(score) for score in (-1.0, 1e9)] == [TIERS[0], TIERS[-1]]


@pytest.mark.parametrize(
    ("board", "reason", "solutions"),
    [
        (read_board(str(NOT_UNIQUE)), "no grade: the board has more than one solution", 2),
        (NO_SOLUTION, "no grade: the board has no solution", 0),
    ],
)
def test_no_grade_without_exactly_one_solution(board: Board, reason: str, solutions: int) -> None:
    graded = grade(board)
    assert (graded.tier, graded.score, graded.reason) == (None, None, reason)
    assert record(Graded(board, graded)) == {
        "type": "grade",
        "tier": None,
        "score": None,
        "kind": None,
        "features": {"solutions": solutions},
        "reason": reason,
    }


def test_canonical_board_is_one_for_all_orientations() -> None:
    board = read_board(str(SIX_BLOCKED))
    forms = {
        canonical_board(oriented(board, turns, mirror, {k: k for k in board.region_labels}))
        for turns in range(4)
        for mirror in (False, True)
    }
    assert len(forms) == 1
    assert canonical_board(board).blocked == forms.pop().blocked


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(
    which=st.sampled_from([SIX, SIX_BLOCKED]),
    turns=st.integers(0, 3),
    mirror=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_grade_is_the_same_in_every_orientation_and_naming(
    which: object, turns: int, mirror: bool, seed: int
) -> None:
    board = read_board(str(which))
    labels = list(board.region_labels)
    shuffled = labels[:]
    random.Random(seed).shuffle(shuffled)
    moved = oriented(board, turns, mirror, dict(zip(labels, shuffled, strict=True)))
    assert grade(moved) == grade(board)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 3), mirror=st.booleans())
def test_grade_of_generated_boards_is_invariant(seed: int, turns: int, mirror: bool) -> None:
    from starbattle.logic.generate import generate

    board = next(generate(7, 1, 1, seed)).board
    names = {label: f"r{label}" for label in board.region_labels}
    assert grade(oriented(board, turns, mirror, names)) == grade(board)


@pytest.mark.slow
def test_generate_graded_counts_what_it_tried() -> None:
    found = generate_graded(6, 1, 1, Asked(max_score=1e9))
    assert found.tried == 1 and found.grade.tier in TIERS
    assert found.puzzle.board.size == 6
    with pytest.raises(NoneAsAsked, match="none of 2 generated puzzles was score >= 1e\\+09"):
        generate_graded(6, 1, 1, Asked(min_score=1e9, attempts=2))


def test_cli_grade_record_and_exit_codes(run) -> None:
    one = run("grade", str(SIX), "-f", "json")
    assert one.exit_code == 0
    record = json.loads(one.stdout)
    assert set(record) == {"type", "tier", "score", "kind", "features"}
    assert (record["type"], record["tier"], record["score"]) == ("grade", "medium", 1.088)
    assert record["kind"] == "exclusion"
    unique_not = run("grade", str(NOT_UNIQUE))
    assert unique_not.exit_code == 1
    assert unique_not.stdout == "no grade: the board has more than one solution\n"
    assert run("grade", str(INSTANCES / "missing.lp")).exit_code == 2


def test_cli_grade_collection_counts_tiers(run) -> None:
    result = run("grade", str(SIX), str(SIX_BLOCKED), str(NOT_UNIQUE), "-f", "json")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("id") for line in lines[:3]] == [str(SIX), str(SIX_BLOCKED), str(NOT_UNIQUE)]
    overall = lines[-1]
    assert overall["type"] == "overall" and overall["puzzles"] == 3
    assert overall["tiers"] == {"easy": 0, "medium": 2, "hard": 0, "expert": 0, "extreme": 0}
    text = run("grade", str(SIX), str(SIX_BLOCKED)).stdout
    assert "tiers: 2 medium" in text


@pytest.mark.slow
def test_cli_generate_to_a_score_says_how_many_were_made(run) -> None:
    made = run("generate", "-N", "6", "-s", "1", "--max-score", "100", "--seed", "2")
    assert made.exit_code == 0 and made.stdout.startswith("stars: 1\n")
    assert made.stderr == "puzzle 1: medium, score 1.282 (1 puzzle made)\n"
    none = run("generate", "-N", "6", "-s", "1", "--min-score", "100", "--attempts", "2")
    assert none.exit_code == 2
    assert "none of 2 generated puzzles was score >= 100" in none.stderr


def records_of(graded: Grade) -> dict[str, object] | None:
    """A grade's JSON record."""
    return record(Graded(read_board(str(SIX)), graded))


def test_cli_solve_and_explain_show_the_grade_when_asked(run) -> None:
    expected = grade(read_board(str(SIX)))
    said = (
        f"grade: {expected.tier} (score {expected.score:g}): needs exclusion steps, which decide "
        "6% of the cells; 19 steps (3.2 per row), hardest level 5"
    )
    lines = run("solve", str(SIX), "--grade").stdout.splitlines()
    assert lines[-2].startswith("1 solution, unique (")
    assert lines[-1].startswith(said)
    assert "grade" not in run("solve", str(SIX)).stdout
    solved = run("solve", str(SIX), "--grade", "-f", "json").stdout.splitlines()
    records = [json.loads(line) for line in solved]
    assert [made["type"] for made in records] == ["solution", "summary", "grade"]
    assert records[-1] == records_of(expected)
    explained = run("explain", str(SIX), "--grade", "-f", "json").stdout.splitlines()
    assert [json.loads(line)["type"] for line in explained[-2:]] == ["explain", "grade"]
    assert json.loads(explained[-1]) == records_of(expected)
    assert run("explain", str(SIX), "--grade").stdout.splitlines()[-1].startswith(said)
    both = run("solve", str(SIX), str(SIX_BLOCKED), "--grade", "-j", "2", "-f", "json")
    overall = json.loads(both.stdout.splitlines()[-1])
    assert overall["tiers"] == {"easy": 0, "medium": 2, "hard": 0, "expert": 0, "extreme": 0}


def test_cli_solve_grade_says_why_there_is_none_and_needs_the_shipped_rules(run) -> None:
    result = run("solve", str(NOT_UNIQUE), "--grade", "-f", "json")
    assert json.loads(result.stdout.splitlines()[-1])["reason"] == (
        "no grade: the board has more than one solution"
    )
    assert run("solve", str(NOT_UNIQUE), "--grade").stdout.endswith(
        "\nno grade: the board has more than one solution\n"
    )
    refused = run("solve", str(SIX), "--grade", "-w", "plain")
    assert refused.exit_code == 2
    assert "--grade grades by the shipped rules" in refused.stderr


@needs_corpus
def test_the_trace_is_read_to_the_level_6_budget() -> None:
    record = next(
        json.loads(line)
        for line in (CORPUS / "difficulty.jsonl").open()
        if json.loads(line)["id"] == "sblsort-9-2-expert-70"
    )
    raw = features(Board.from_rows(record["regions"], record["stars"]))
    assert (raw["level_6"], raw["cut"], raw["level_7"]) == (LEVEL_6_BUDGET, 1, 0)
    assert (raw["steps"], raw["hardest"], raw["bottlenecks"]) == (11, 6, 8)
    assert (raw["effort"], raw["chains"]) == (EFFORTS.index("assumption-chain"), 8)  # all 8
    assert raw["effort_cells"] == 8  # the cells its trials decided, one each


def test_a_trace_stuck_below_level_7_counts_one_level_7_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from starbattle.logic.ladder import Logic

    real = Logic.easiest_step
    taken: list[int] = []

    def three_steps(self: Logic, state: object, effort: object) -> object:
        """The real easiest step, three times, then nothing (as if levels 1-6 were stuck)."""
        taken.append(1)
        return real(self, state, effort) if len(taken) <= 3 else None

    monkeypatch.setattr(Logic, "easiest_step", three_steps)
    steps, cut = graded_trace(canonical_board(read_board(str(SIX))))
    assert cut and [level for level, *_ in steps] == [4, 5, 3, 7]
    assert steps[-1] == (7, EFFORTS.index("machine"), 1, 1) and len(taken) == 4


@pytest.mark.slow
def test_generate_graded_easy_keeps_three_cell_regions() -> None:
    found = generate_graded(10, 2, 3, Asked("easy"))
    assert found.grade.tier == "easy" and found.grade == grade(found.puzzle.board)
    sizes = sorted(len(cells) for cells in found.puzzle.board.region_cells().values())
    assert sizes[0] == 3
