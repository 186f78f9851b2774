"""The hint ladder: each technique on crafted boards, mistakes first, audits on real puzzles."""

from __future__ import annotations

import json
import time

import pytest
from crafted import APPLIES, DOES_NOT_APPLY, SHARED_C, UNIQUE, board_of, stars_of, state_of
from helpers import CORPUS, needs_corpus

from starbattle import Board
from starbattle.errors import BoardError
from starbattle.io.records import record, step_record
from starbattle.limits import TimeLimitReached
from starbattle.logic import core, ladder
from starbattle.logic.assumption import assumption
from starbattle.logic.grid import Grid, View
from starbattle.logic.ladder import Logic, explain, next_step
from starbattle.logic.minimise import Budget
from starbattle.logic.registry import BY_NAME
from starbattle.model.steps import Explained, State
from starbattle.model.units import Unit


# Boards made by `starbattle.logic.generate` (unique, 1 star but for the 10x10 2-star one),
# relabelled A-J; states are grids of '*' (star), 'x' (marked empty) and '.' (undecided).
# Where a technique must not apply, rows are separated by '/'.
@pytest.mark.parametrize(
    ("technique", "case"),
    [(technique, case) for technique, cases in APPLIES.items() for case in cases],
)
def test_technique_applies(technique: str, case: tuple) -> None:
    regions, grid, stars, blanks, units, sentence = case
    logic, state = Logic(board_of(regions, stars_of(regions))), state_of(grid)
    step = logic.next_step(state)
    assert step is not None and step.level == BY_NAME[technique].level
    if BY_NAME[technique].costly and step.technique != technique:  # one before it applies too
        step = logic.deductions(state, technique)[0]
    if step.level == 6 and step.technique != technique:  # the other trial's chain is shorter
        step = logic.deductions(state, technique)[0]
    assert step.technique == technique
    assert [list(c) for c in step.stars] == stars
    assert [list(c) for c in step.blanks] == blanks
    assert [unit.name(logic.board) for unit in step.units] == units
    assert step.sentence == sentence
    assert len(step.sentence) <= 200
    assert logic.audit(state, step) == []


@pytest.mark.parametrize(
    ("technique", "case"),
    [(technique, case) for technique, cases in DOES_NOT_APPLY.items() for case in cases],
)
def test_technique_does_not_apply(technique: str, case: tuple) -> None:
    regions, grid = case
    logic = Logic(board_of(regions.split("/"), stars_of(regions.split("/"))))
    assert logic.deductions(state_of(grid.split("/")), technique) == []


@pytest.mark.parametrize(
    ("regions", "unit", "blank"),
    [
        (["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"], "C", (2, 4)),
        (["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"], "E", (4, 4)),
        (["AAABB", "ACCBB", "DDCCC", "DDEEC", "DDDEE"], "A", (2, 2)),
    ],
)
def test_unsat_core_forces_a_cell_from_few_units(
    regions: list[str], unit: str, blank: tuple[int, int]
) -> None:
    logic = Logic(board_of(regions))
    steps = logic.deductions(State(), "unsat-core")
    assert len(steps) == 1
    step = steps[0]
    assert (step.level, step.units, step.stars, step.blanks) == (
        7,
        (Unit("region", unit),),
        (),
        (blank,),
    )
    assert step.sentence == (
        "No technique here finds the next step; clingo proves that "
        f"region {unit} cannot get its star unless ({blank[0]},{blank[1]}) is empty"
    )
    assert [p for p in logic.audit(State(), step) if not p.startswith("not lowest")] == []


def test_a_core_of_every_unit_is_said_as_the_whole_puzzle() -> None:
    logic = Logic(board_of(["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"]))
    view = View(logic.grid, frozenset(), frozenset())
    every = tuple(range(len(logic.grid.names)))
    step = core._core_step(view, {3: True}, every)
    assert step.sentence == (
        "no technique here finds the next step; clingo proves that the puzzle has no solution "
        "unless (1,4) is a star"
    )
    assert core._core_step(view, {3: True}, every[:2]).sentence.endswith(
        "clingo proves that rows 1-2 cannot all get their stars unless (1,4) is a star"
    )


BOARD = ["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"]  # solution (1,4) (2,2) (3,5) (4,3) (5,1)


def test_wrong_star_is_a_mistake_first() -> None:
    step = next_step(board_of(BOARD), State.of([(1, 1), (3, 5)]))
    assert step is not None
    assert (step.technique, step.level, step.stars, step.blanks) == ("mistake", 0, (), ((1, 1),))
    assert step.sentence == "The star at (1,1) is wrong: the solution leaves it empty"


def test_wrong_blank_comes_before_easy_steps() -> None:
    step = next_step(board_of(BOARD), State.of([(3, 5)], [(4, 3)]))
    assert step is not None
    assert (step.level, step.stars, step.blanks) == (0, ((4, 3),), ())
    assert step.sentence == "The cell (4,3) is marked empty but holds a star in the solution"


def test_broken_rule_is_named() -> None:
    step = next_step(board_of(BOARD), State.of([(1, 4), (2, 5)]))
    assert step is not None
    assert step.level == 0 and step.blanks == ((2, 5),)
    assert step.sentence == (
        "Stars touch: (1,4) and (2,5); the star at (2,5) is wrong: the solution leaves it empty"
    )


def test_mistake_is_corrected_and_the_trace_goes_on() -> None:
    trace = explain(board_of(BOARD), State.of([(1, 1)]))
    assert trace.steps[0].level == 0
    assert trace.solved
    assert trace.state.stars == frozenset({(1, 4), (2, 2), (3, 5), (4, 3), (5, 1)})


def test_board_without_solution_is_refused() -> None:
    with pytest.raises(BoardError, match="no solution"):
        next_step(board_of(["AABBC", "DDDDD", "DDDDD", "EEEEE", "EEEEE"]))


def test_records_follow_design() -> None:
    board = board_of(BOARD)
    trace = explain(board)
    assert trace.solved and trace.hardest == max(trace.levels)
    assert record(Explained(board, trace)) == {
        "type": "explain",
        "solved": True,
        "complete": True,
        "steps": len(trace.steps),
        "levels": {str(level): n for level, n in trace.levels.items()},
        "hardest": trace.hardest,
    }
    first = step_record(trace.steps[0], board, 1)
    assert list(first) == [
        "type",
        "index",
        "technique",
        "level",
        "premises",
        "conclusions",
        "sentence",
    ]
    assert first["type"] == "step" and first["index"] == 1
    assert set(first["premises"]) == {"units", "cells"}
    assert set(first["conclusions"]) == {"stars", "blanks"}


def corpus_sample(name: str, keep: object, count: int) -> list[Board]:
    boards = []
    for line in (CORPUS / name).read_text().splitlines():
        record = json.loads(line)
        if keep(record):  # type: ignore[operator]
            rows = [list(row) for row in record["regions"]]
            boards.append(Board.from_rows(rows, record["stars"], name=record["id"]))
        if len(boards) == count:
            break
    return boards


@needs_corpus
@pytest.mark.slow
def test_every_step_of_real_traces_passes_the_audit() -> None:
    boards = corpus_sample(
        "real-puzzles.jsonl",
        lambda r: r.get("solution_count") == 1 and r["id"].startswith(("kd-", "lq")),
        4,
    ) + corpus_sample(
        "difficulty.jsonl",
        lambda r: r["label"] == "expert" and r["label_scale"].startswith("StarBattleLab"),
        2,
    )
    for board in boards:
        logic, state = Logic(board), State()
        while (step := logic.next_step(state)) is not None:
            assert logic.audit(state, step) == [], (board.name, step)
            state = state.after(step)
        assert logic.solved(state), board.name


@pytest.mark.parametrize("case", APPLIES["assumption"])
def test_level_6_without_budget_still_refutes_by_levels_1_and_2(
    case: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ladder, "ASSUMPTION_WORK", 0)
    regions, grid, stars, blanks, _, sentence = case
    step = next_step(board_of(regions, 2 if len(regions) == 10 else 1), state_of(grid))
    assert step is not None
    assert (step.level, step.stars, step.blanks, step.sentence) == (
        6,
        tuple(map(tuple, stars)),
        tuple(map(tuple, blanks)),
        sentence,
    )


def test_level_6_falls_through_to_level_7_when_its_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    regions, grid, stars, blanks, _, sentence = APPLIES["assumption-chain"][1]
    board, state = board_of(regions, 2), state_of(grid)
    step = next_step(board, state)
    assert step is not None
    assert (step.level, step.technique, step.sentence) == (6, "assumption-chain", sentence)
    assert (step.stars, step.blanks) == (tuple(map(tuple, stars)), tuple(map(tuple, blanks)))
    assert step.chain[-1].sentence == (
        "Region D needs 2 stars but its undecided cells fit in 1 2x2 block, which holds one "
        "star: a contradiction"
    )
    monkeypatch.setattr(ladder, "ASSUMPTION_WORK", 0)
    logic = Logic(board)
    assert logic.next_step(state, max_level=6) is None
    fallback = logic.next_step(state)
    assert fallback is not None and fallback.level == 7
    assert logic.audit(state, fallback) == []


@needs_corpus
def test_a_level_7_step_depends_on_the_board_and_state_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ladder, "ASSUMPTION_WORK", 0)  # more steps left to level 7
    [board] = corpus_sample("difficulty.jsonl", lambda r: r["id"] == "sblsort-9-2-expert-0", 1)
    trace = explain(board)
    assert trace.solved
    state, asked = State(), 0
    for step in trace.steps:
        if step.level == 7:  # mid-trace, after many proofs; here on a new engine, the first
            assert next_step(board, state) == step
            asked += 1
        state = state.after(step)
    assert asked >= 2


def test_every_grounding_of_the_checker_has_the_same_literals() -> None:
    logic = Logic(board_of(SHARED_C, 2))
    again = logic.ground_checker()
    assert again.star_literals() == logic.checker.star_literals()
    assert again._units == logic.checker._units


def test_a_proof_cut_short_by_the_conflict_limit_proves_nothing() -> None:
    logic = Logic(board_of(SHARED_C, 2))
    [truth] = logic.solutions
    flip = -logic.literals[0] if 0 in truth else logic.literals[0]
    every = logic.rules()
    assert logic.checker.core(every, literals=[flip]) is not None
    assert logic.checker.core(every, literals=[flip], conflicts=0) is None


def test_a_proof_that_fails_reads_the_way_the_units_hold() -> None:
    logic = Logic(board_of(SHARED_C, 2))
    [truth] = logic.solutions
    every = logic.rules()
    seen: dict[int, bool | None] = dict.fromkeys(logic.literals.values())
    assert logic.checker.core(every, seen=seen) is None
    assert {i for i, literal in logic.literals.items() if seen[literal]} == set(truth)
    flip = -logic.literals[0] if 0 in truth else logic.literals[0]
    unread: dict[int, bool | None] = dict.fromkeys(logic.literals.values())
    assert logic.checker.core(every, literals=[flip], seen=unread) is not None
    assert set(unread.values()) == {None}


def test_a_level_7_step_counts_its_units_where_naming_them_would_pass_200_characters() -> None:
    logic = Logic(board_of(SHARED_C, 2))
    view, names = View(logic.grid, frozenset(), frozenset()), logic.grid.names
    wanted = {f"row {r}" for r in (1, 3, 5, 7, 9)} | {f"column {c}" for c in (2, 4, 6, 8, 10)}
    wanted |= {f"region {label}" for label in "ABCDEFGHIJ"}
    units = tuple(u for u, name in enumerate(names) if name in wanted)
    named = core._core_step(view, {0: True}, units[:4])
    assert named.sentence == (
        "no technique here finds the next step; clingo proves that rows 1, 3, 5 and 7 cannot "
        "all get their stars unless (1,1) is a star"
    )
    counted = core._core_step(view, {0: True, 11: False, 22: False}, units)
    assert counted.sentence == (
        "no technique here finds the next step; clingo proves that these 20 units cannot all "
        "get their stars unless (1,1) is a star and (2,2) and (3,3) are empty"
    )
    assert counted.units == units


def test_a_tiling_cascade_on_many_units_is_said_in_its_shortest_way() -> None:
    """sblsort-9-2-expert-58 (../shared/corpus/difficulty.jsonl), a state of its trace: every
    way of naming its eleven units passes 200 characters (a board not in crafted.py: the
    container programs take minutes on it)."""
    regions = [
        *("AABBBBBBC", "DAAAEBBBC", "DDFAEBCCC", "DFFAEEECC", "DDFEEEGCC"),
        *("DFFGEGGGG", "HFFGEGIIG", "HHFGGGIII", "HHHHHGIII"),
    ]
    marks = [
        *("x*x.....x", "xxx.x..x.", "..x.x.x..", "xx.x.....", ".x.x.x.x."),
        *(".x.x.xx..", ".x.x.....", "...xx.xx.", ".xx......"),
    ]
    logic, state = Logic(board_of(regions, 2)), state_of(marks)
    step = logic.next_step(state)
    assert step is not None and step.technique == "tiling-cascade"
    assert step.blanks == ((1, 6),) and len(step.units) == 11
    assert step.sentence == (
        "A star at (1,6) would fill its units that need just that star and force two rounds of "
        "2x2 tilings that break a rule, so (1,6) is empty"
    )
    assert logic.audit(state, step) == []


def test_level_7_leaves_untried_the_cells_a_failed_proof_shows_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    logic = Logic(board_of(["AAABB", "ACCBB", "DDCCC", "DDEEC", "DDDEE"]))
    proofs: list[int] = []
    whole = core._whole

    def counted(*arguments: object) -> object:
        proofs.clear()
        return whole(*arguments)

    core_of = type(logic.checker).core
    monkeypatch.setattr(core, "_whole", counted)
    monkeypatch.setattr(
        type(logic.checker), "core", lambda *a, **k: proofs.append(1) or core_of(*a, **k)
    )
    [step] = logic.deductions(State(), "unsat-core")
    assert (step.units, step.blanks) == ((Unit("region", "A"),), ((2, 2),))
    assert len(proofs) == 8  # 9 cells in or next to region A to try; one shown free


def test_sentences_start_with_a_capital_and_stay_short() -> None:
    trace = explain(Board.from_rows([list(row) for row in SHARED_C], 2))
    assert trace.solved
    assert all(s.sentence[0].isupper() and len(s.sentence) <= 200 for s in trace.steps)


CONFINED = ["AAABB", "ACCBB", "DDCCC", "DDEEC", "DDDEE"]
CONFINED_STATE = [".....", ".x.x.", ".x...", "....x", "..x.."]


def test_hint_picture_hatches_premises_and_crosses_conclusions() -> None:
    from starbattle.io.pictures import HATCH, HIGHLIGHT, Overlay, render_svg

    logic, state = Logic(board_of(CONFINED)), state_of(CONFINED_STATE)
    step = logic.next_step(state)
    assert step is not None
    overlay = Overlay.of(logic.board, state, step)
    assert overlay.shaded == {(r, c) for r in (1, 2) for c in range(1, 6)}
    assert (overlay.new_stars, overlay.new_blanks) == (frozenset(), {(2, 3)})
    assert overlay.blanks == state.blanks
    svg = render_svg(board_of(CONFINED), None, overlay=overlay)
    assert svg.count(f'stroke="{HATCH}"') == 5 * len(overlay.shaded)  # 5 hatch lines a cell
    assert svg.count(f'stroke="{HIGHLIGHT}"') == 2  # one cross
    assert svg.count('class="star"') == len(state.blanks)  # dots are small polygons


@pytest.mark.parametrize("case", UNIQUE["uniqueness"])
def test_uniqueness_applies_only_when_asked(case: tuple) -> None:
    regions, grid, stars, blanks, units, sentence = case
    board, state = board_of(regions, stars_of(regions)), state_of(grid)
    logic = Logic(board, assume_unique=True)
    [step] = logic.deductions(state, "uniqueness")
    assert (step.technique, step.level, step.assumes) == ("uniqueness", 6, "unique")
    assert [list(c) for c in step.stars] == stars
    assert [list(c) for c in step.blanks] == blanks
    assert [unit.name(board) for unit in step.units] == units
    assert step.sentence == sentence and len(sentence) <= 200
    assert logic.audit(state, step) == []  # given one solution: the other way, 0 or 2+
    view = ladder.View(logic.grid, *logic.numbers(state))
    assert next(f.technique for f in logic.apply(6, view)) == "uniqueness"
    assert "uniqueness" not in [f.technique for f in Logic(board).apply(6, view)]
    assert step_record(step, board, 1)["assumes"] == "unique"


def test_a_uniqueness_step_the_other_way_round_is_found_unsound() -> None:
    """The audit of a step that assumes one solution fails when its conclusion turned the
    other way leaves exactly one solution (here: a true cell claimed empty)."""
    regions, grid, stars, *_ = UNIQUE["uniqueness"][0]
    board, state = board_of(regions), state_of(grid)
    logic = Logic(board, assume_unique=True)
    [step] = logic.deductions(state, "uniqueness")
    wrong = step._replace(stars=(), blanks=(tuple(stars[0]),))
    assert any(p.startswith("unsound") for p in logic.audit(state, wrong))


@needs_corpus
def test_on_a_real_expert_trials_look_at_changed_units_alone_and_find_the_same() -> None:
    """At every state of a StarBattleLab 10x10 2★ expert where the ladder makes a trial."""
    [board] = corpus_sample("difficulty.jsonl", lambda r: r["id"] == "sblsort-10-2-expert-1", 1)
    trace, state, compared = explain(board), State(), 0
    for step in trace.steps:
        if step.level == 6:
            quiet, full = Logic(board), Logic(board)
            marks = quiet.numbers(state)
            view = View(quiet.grid, *marks)
            assert not quiet.apply(3, view) and not quiet.apply(4, view)
            assert assumption(quiet, view) == assumption(full, View(full.grid, *marks))
            compared += 1
        state = state.after(step)
    assert compared >= 3


REFUTING = (
    "too-little-room",
    "container-exclusion",
    "counting-exclusion",
    "tiling-exclusion",
    "tiling-cascade",
    "m-and-t",
)
"""Techniques that try a star at each cell (band enumeration and level 6 too: see below)."""


@pytest.mark.parametrize(
    ("technique", "case"),
    [
        (technique, case)
        for technique in (*REFUTING, "band-enumeration", "assumption", "assumption-chain")
        for case in APPLIES[technique]
    ],
    ids=lambda value: value if isinstance(value, str) else value[5][:12],
)
def test_a_known_solution_spares_trying_what_it_agrees_with_and_changes_no_step(
    technique: str, case: tuple
) -> None:
    """A star the solution holds is never refuted, so skipping it finds the same steps."""
    regions, grid = case[0], case[1]
    logic = Logic(board_of(regions, stars_of(regions)))
    marks = logic.numbers(state_of(grid))
    seen = View(logic.grid, *marks, solutions=logic.solutions)
    [truth] = logic.solutions
    undecided = set(logic.grid.cells) - marks[0] - marks[1]
    assert seen.seen_star == truth and seen.seen_empty == set(logic.grid.cells) - truth
    assert undecided & truth and undecided - truth
    apply = BY_NAME[technique].apply
    assert apply(Logic(logic.board), seen) == apply(Logic(logic.board), View(logic.grid, *marks))


def test_a_solution_the_marks_contradict_spares_nothing() -> None:
    regions, grid = APPLIES["counting-exclusion"][0][:2]
    logic = Logic(board_of(regions, stars_of(regions)))
    stars, blanks = logic.numbers(state_of(grid))
    [truth] = logic.solutions
    wrong = min(truth - stars)
    view = View(logic.grid, stars, blanks | {wrong}, solutions=logic.solutions)
    assert view.seen_star == view.seen_empty == frozenset()


@needs_corpus
def test_on_a_real_expert_a_known_solution_changes_no_refuting_step() -> None:
    """At every state of a StarBattleLab 10x10 2★ expert where level 5 is tried in full."""
    [board] = corpus_sample("difficulty.jsonl", lambda r: r["id"] == "sblsort-10-2-expert-1", 1)
    logic, state, compared = Logic(board), State(), 0
    for step in explain(board).steps:
        if step.level >= 5:
            marks = logic.numbers(state)
            seen = View(logic.grid, *marks, solutions=logic.solutions)
            for technique in REFUTING:
                apply = BY_NAME[technique].apply
                assert apply(logic, seen) == apply(logic, View(logic.grid, *marks))
            compared += 1
        state = state.after(step)
    assert compared >= 10


def test_the_callers_deadline_holds_inside_every_search_of_a_step() -> None:
    """A container technique on a large board works for a while between the ladder's own
    checks: its budgets and the grid's cover searches keep the deadline too (the server's
    explain past its limit answered 0.5 s late at 21x21 5 stars before)."""
    board = Board.from_rows(["AABB", "AABB", "CCDD", "CCDD"], 1)
    past = time.perf_counter() - 1
    square = (1 << 0) | (1 << 1) | (1 << 4) | (1 << 5)  # (1,1)-(2,2): one 2x2 block
    assert Grid(board).capacity(square | 1 << 15, 3) == 2
    with pytest.raises(TimeLimitReached):
        Grid(board, past).capacity(square, 3)
    with pytest.raises(TimeLimitReached):
        Budget(10**6, past).spend(1)
    logic = Logic(board, deadline=past)
    view = View(logic.grid, frozenset(), frozenset())
    assert logic.grid.deadline == logic.budget(6).deadline == logic.budget(7).deadline == past
    with pytest.raises(TimeLimitReached):
        logic.container_budget(view, "capacity-counting")
