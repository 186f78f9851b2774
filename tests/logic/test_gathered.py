"""One argument, one step, said once: the cells a level-4 or 5 argument empties alike are one step,
its sentence naming them together (and what differs between them generally)."""

from __future__ import annotations

import pytest
from crafted import APPLIES, board_of, stars_of, state_of

from starbattle.logic.ladder import Logic

FIVE = ["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"], ["..x.x", "x.x.x", "....*", ".....", "....."]
"""A 5x5 state where around-star applies first (solution (1,4) (2,2) (3,5) (4,3) (5,1))."""
CORNER = (
    ["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"],
    ["...*x", "..xxx", "...x.", "...x.", "....."],
)
EIGHT = (
    [
        *("AAAAAAAA", "BCACDADA", "BCCCDDDA", "BBCEEDAA"),
        *("BFCFGDGA", "BFFFGGGA", "BBFHHGBA", "BBBBBBBA"),
    ],
    [
        *("xxxxxxx*", "x.xx.xxx", "x..xx..x", "xxx..xxx"),
        *("x.xxxx.x", "x..xx..x", "xxx..xxx", "*xxxxxxx"),
    ],
)
"""A crafted 8x8 1-star state (tests/crafted.py) where counting exclusion is the lowest step."""
ROOF = ["AAAAA", "BBAAA", "BDACA", "DDCCA", "DEEEA"], [".....", ".....", ".xx*.", "..xx.", ".x..."]
TEN = (
    [
        *("AAAABBBBBB", "AAAAABBCBC", "AAAADDBCBC", "AEEEDDCCBC", "EEEEDDCCCC"),
        *("EEEFFFGGGC", "EHHFFFFGGG", "HHHFFGGGGG", "HHIFFIJGJJ", "IIIIIIJJJJ"),
    ],
    [
        *("..........", "....xx....", "..........", "x...xx....", ".......x.."),
        *("xxx.xx...x", "xx.x...x..", "*x.x.xx...", "xx.xx..x..", ".........."),
    ],
)


@pytest.mark.parametrize(
    ("board", "technique", "blanks", "units", "sentence"),
    [
        (  # (5,1) fills row 5, (5,5) row 5 and region E, (1,3) column 3, (4,2) nothing: one
            # argument all the same
            CORNER,
            "container-exclusion",
            [(1, 3), (3, 3), (4, 2), (4, 3), (5, 1), (5, 2), (5, 4), (5, 5)],
            ["column 4", "column 5", "region C", "region E", "column 3", "row 5"],
            "A star at any of these 8 cells would fill those of row 5, column 3 and region E it "
            "lies in and leave regions C and E outside columns 4-5 no room, but they need 1, so "
            "they are empty",
        ),
        (  # some lie in the area, some do not: they differ in the stars it would need; what
            # they fill is said briefly (the units would make the sentence too long)
            FIVE,
            "container-exclusion",
            [(1, 1), (3, 1), (4, 1), (4, 2), (4, 4), (5, 2), (5, 3), (5, 4)],
            [
                *("column 4", "column 5", "row 1", "row 2", "row 4", "row 5"),
                *("column 1", "region B", "region E", "column 3"),
            ],
            "A star at any of these 8 cells would fill its units that need just that star and "
            "leave rows 1-2 and 4-5 outside columns 4-5 too little room for their 3 stars, so "
            "they are empty",
        ),
        (  # (4,2) fills region E, (5,4) row 5 and region D, (3,2) region E: one unit starved
            FIVE,
            "too-little-room",
            [(3, 2), (4, 2), (4, 4), (5, 4), (5, 5)],
            ["column 3", "region E", "row 5", "region D"],
            "A star at (3,2), (4,2), (4,4), (5,4) or (5,5) would fill those of row 5 and regions E "
            "and D it lies in and leave column 3 no room, but it needs 1, so they are empty",
        ),
        (  # (4,1) fills row 4, column 1 and region E, (5,2) region E, (5,4) nothing: the
            # same tiling of column 3 breaks row 3 for each
            FIVE,
            "tiling-exclusion",
            [(4, 1), (5, 2), (5, 4)],
            ["column 3", "row 3", "row 4", "column 1", "region E"],
            "A star at (4,1), (5,2) or (5,4) would fill those of row 4, column 1 and region E it "
            "lies in and tile column 3 by 2x2 blocks, one star each: that gives row 3 2 stars, "
            "more than 1, so they are empty",
        ),
        (  # (9,3)'s tilings break a rule alone, (9,2)'s with row 9 full: both lie in row 9
            # and would fill it, so it is named plainly (not 'row 9 if it lies in it')
            APPLIES["n-rooks"][1][:2],
            "tiling-exclusion",
            [(9, 2), (9, 3)],
            ["row 8", "region H", "row 9"],
            "A star at (9,2) or (9,3) would fill row 9 and tile row 8 and region H by 2x2 blocks, "
            "one star each: row 8's blocks put a star at (8,6), which region H's leave empty, so "
            "they are empty",
        ),
        (  # (3,2) fills column 2, (5,2) row 5, column 2 and region F: one argument all the
            # same (on a 1-star board no two stars fill the same units)
            EIGHT,
            "counting-exclusion",
            [(3, 2), (5, 2)],
            ["column 4", "column 5", "row 2", "row 4", "row 7", "row 5", "column 2", "region F"],
            "A star at (3,2) or (5,2) would fill those of row 5, column 2 and region F it lies in "
            "and leave rows 2, 4 and 7 unable to give columns 4-5 the stars they need (counting "
            "2x2 blocks), so they are empty",
        ),
        (
            ROOF,
            "counting-exclusion",
            [(1, 1), (1, 2)],
            ["row 2", "region A", "region B"],
            "A star at (1,1) or (1,2) would leave regions A and B no room to put a star into row 2 "
            "(counting 2x2 blocks), but row 2 needs 1 more, so they are empty",
        ),
        (  # one would leave row 5 too few stars, the other too many
            ROOF,
            "counting-exclusion",
            [(3, 1), (5, 1)],
            ["row 5", "region A", "region D", "region E"],
            "A star at (3,1) or (5,1) would leave regions A, D and E unable to give row 5 the "
            "stars it needs (counting 2x2 blocks), so they are empty",
        ),
        (
            TEN,
            "m-and-t",
            [(7, 7), (7, 9)],
            ["row 6", "row 7"],
            "A star at (7,7) or (7,9) would leave rows 6-7 room for at most 2 stars (a 2x2 block "
            "and a pressured T), but they need 3, so they are empty",
        ),
    ],
)
def test_the_cells_one_argument_empties_are_one_step(
    board: tuple[list[str], list[str]],
    technique: str,
    blanks: list[tuple[int, int]],
    units: list[str],
    sentence: str,
) -> None:
    regions, marks = board
    logic, state = Logic(board_of(regions, stars_of(regions))), state_of(marks)
    [step] = [s for s in logic.deductions(state, technique) if list(s.blanks) == blanks]
    assert [unit.name(logic.board) for unit in step.units] == units
    assert step.sentence == sentence
    assert [p for p in logic.audit(state, step) if not p.startswith("not lowest")] == []
