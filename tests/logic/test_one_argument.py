"""One argument, one hint: a technique's step concludes every cell its argument decides.

Checked for every technique of levels 1-5 in the registry (so a new one is checked too) on the
crafted boards and on states of real puzzles reached by the ladder's own steps: no two of a
technique's deductions from one state rest on the same premise units (or, without units, the
same premise cells), and once a step's conclusions are marked, the same argument concludes
nothing more (levels 1-3, the M and T and counting with 2x2 room, whose arguments are
followed to their fixpoint). Level 7 concludes every cell its units force.
"""

from __future__ import annotations

import random

import pytest
from crafted import APPLIES, board_of, state_of
from helpers import corpus, corpus_board, needs_corpus

from starbattle.logic.ladder import Logic
from starbattle.logic.registry import TECHNIQUES
from starbattle.model.steps import State, Step

BUILT_IN = [t.name for t in TECHNIQUES if 1 <= t.level <= 5]
FIXPOINT = {t.name for t in TECHNIQUES if 1 <= t.level <= 3} | {"m-and-t", "capacity-counting"}
"""Techniques whose argument, followed, concludes all it can in one step."""
FOLLOWED = 24
"""The most steps of a technique from one state that are followed (a state the ladder would
settle at level 1 can give counting with 2x2 room 300 steps, 50 s to follow them all)."""


def argument(step: Step) -> tuple:
    """What one argument rests on: its premise units, or its premise cells without units."""
    return step.technique, step.units, () if step.units else step.cells


def assert_one_step_per_argument(logic: Logic, state: State) -> None:
    for technique in BUILT_IN:
        steps = logic.deductions(state, technique)
        arguments = [argument(step) for step in steps]
        assert len(set(arguments)) == len(arguments), [s.sentence for s in steps]
        for step in steps[:FOLLOWED] if technique in FIXPOINT else ():
            again = [
                later.sentence
                for later in logic.deductions(state.after(step), technique)
                if argument(later) == argument(step)
            ]
            assert not again, (step.sentence, again)


CRAFTED = [(case[0], case[1]) for cases in APPLIES.values() for case in cases]


@pytest.mark.parametrize(("regions", "marks"), CRAFTED)
def test_one_step_per_argument_on_crafted_boards(regions: list[str], marks: list[str]) -> None:
    logic = Logic(board_of(regions, 2 if len(regions) == 10 else 1))
    assert_one_step_per_argument(logic, state_of(marks))


@needs_corpus
def test_one_step_per_argument_on_real_states() -> None:
    rng = random.Random(5)
    records = [r for r in corpus() if r["solution_count"] == 1 and r["n"] <= 14]
    for record in rng.sample(records, 12):
        logic, state = Logic(corpus_board(record)), State()
        for _ in range(rng.randint(0, 4 * record["n"])):
            step = logic.next_step(state, 5)
            if step is None:
                break
            state = state.after(step)
        assert_one_step_per_argument(logic, state)


EXPERT = (
    [
        *("AAAAABBBBC", "AABBBBCCBC", "AAADDEECCC", "ADAADDEEEC", "DDDDDFGEGG"),
        *("DHDFFFGGGG", "DHHHHFFFFG", "DHIJFFFFFG", "DHIJJFFFFG", "IIIJJJJFFG"),
    ],
    [
        *("..........", "..........", "..........", ".....x....", "........x."),
        *("..........", "..........", "..........", ".x.x......", ".........."),
    ],
)
"""StarBattleLab's sblsort-10-2-expert-1059 (../shared/corpus/difficulty.jsonl) as its trace
reaches counting with 2x2 room."""


def test_counting_with_2x2_room_follows_its_count_to_the_fixpoint_in_one_step() -> None:
    """Regions F and G have no room in row 10, so regions I and J put its 2 stars there: the
    step used to stop at the 6 cells that empties, and counting row 10 again (I and J alone)
    came next. Followed: J's star in row 10 is (10,7), its other one (9,5), in one step."""
    regions, marks = EXPERT
    logic, state = Logic(board_of(regions, 2)), state_of(marks)
    [step] = [s for s in logic.deductions(state, "capacity-counting") if len(s.units) == 5]
    assert [unit.name(logic.board) for unit in step.units] == [
        *("row 10", "region F", "region G", "region I", "region J")
    ]
    assert step.stars == ((9, 5), (10, 7))
    assert step.blanks == (
        *((8, 2), (8, 4), (8, 5), (8, 6), (9, 6), (9, 7), (9, 8)),
        *((10, 4), (10, 5), (10, 6), (10, 8), (10, 9), (10, 10)),
    )
    assert step.sentence == (
        "Row 10 needs 2 stars; counting the 2x2 blocks the regions meeting row 10 have room "
        "for, (9,5) and (10,7) are stars and 13 cells are empty"
    )
    assert [p for p in logic.audit(state, step) if not p.startswith("not lowest")] == []
    again = logic.deductions(state.after(step), "capacity-counting")
    assert not [s for s in again if set(s.units) <= set(step.units)]


def test_too_little_room_empties_every_cell_that_starves_a_unit_in_one_step() -> None:
    """Region A is (1,3)-(1,5): a star at (1,1) or (1,2) fills row 1 and leaves it no room,
    one at (2,4) takes its cells around: one argument, whatever each star fills."""
    logic = Logic(board_of(["BBAAA", "BBCCC", "EECCC", "EDDDC", "EEEDD"]))
    [step] = [s for s in logic.deductions(State(), "too-little-room") if s.blanks[0] == (1, 1)]
    assert step.blanks == ((1, 1), (1, 2), (2, 4))
    assert step.sentence == (
        "A star at (1,1), (1,2) or (2,4) would fill row 1 if it lies in it and leave region A "
        "no room, but it needs 1, so they are empty"
    )


@pytest.mark.parametrize(
    "regions",
    [
        ["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"],
        ["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"],
        ["AAABB", "ACCBB", "DDCCC", "DDEEC", "DDDEE"],
    ],
)
def test_a_level_7_step_concludes_every_cell_its_units_force(regions: list[str]) -> None:
    logic = Logic(board_of(regions))
    [step] = logic.deductions(State(), "unsat-core")
    units = [logic.grid.number[unit] for unit in step.units]
    decided = set(step.stars) | set(step.blanks)
    for i in logic.grid.cells:
        if logic.grid.cell(i) in decided:
            continue
        for star in (True, False):
            assert not logic.entails(set(), set(), i, star, units), logic.grid.cell(i)
