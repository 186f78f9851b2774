"""Crafted boards for the hint ladder: where each technique applies (with its exact step) and
where it does not; shared by the ladder's tests and the hint programs' tests."""

from __future__ import annotations

from starbattle.model.board import Board
from starbattle.model.steps import State

APPLIES = {
    "around-star": [
        (
            ["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"],
            ["..x.x", "x.x.x", "....*", ".....", "....."],
            [],
            [[2, 4], [3, 4], [4, 4], [4, 5]],
            [],
            "No two stars touch, so the cells around the star at (3,5) are empty",
        ),
        (
            ["AAAAA", "BBAAA", "BDACA", "DDCCA", "DEEEA"],
            [".....", ".....", ".xx*.", "..xx.", ".x..."],
            [],
            [[2, 3], [2, 4], [2, 5], [3, 5], [4, 5]],
            [],
            "No two stars touch, so the cells around the star at (3,4) are empty",
        ),
        (
            ["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"],
            ["...*x", "..xxx", "...x.", "...x.", "....."],
            [],
            [[1, 3]],
            [],
            "No two stars touch, so the cells around the star at (1,4) are empty",
        ),
    ],
    "full-unit": [
        (
            ["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"],
            ["..x*x", "..xxx", "...x.", "...x.", "....."],
            [],
            [[1, 1], [1, 2]],
            ["row 1"],
            "Row 1 has its 1 star, so its other cells are empty",
        ),
        (
            ["BBBAA", "BBBBA", "BBBBC", "BBDDC", "EEEDC"],
            ["..x*x", "..xxx", ".....", "xx...", "..x.."],
            [],
            [[1, 1], [1, 2]],
            ["row 1"],
            "Row 1 has its 1 star, so its other cells are empty",
        ),
        (
            ["AAABB", "CCABD", "CDDDD", "EEDDD", "EEDDD"],
            ["x.xx.", "xx..x", "*x...", "xx...", "....."],
            [],
            [[3, 3], [3, 4], [3, 5]],
            ["row 3"],
            "Row 3 has its 1 star, so its other cells are empty",
        ),
    ],
    "forced-fill": [
        (
            ["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"],
            ["..x.x", "x.x.x", ".....", ".....", "....."],
            [[3, 5]],
            [],
            ["region C"],
            "Region C needs 1 star and (3,5) is its only undecided cell, so it is a star",
        ),
        (
            ["AAAAA", "BBAAA", "BDACA", "DDCCA", "DEEEA"],
            [".....", ".....", ".xx..", "..xx.", ".x..."],
            [[3, 4]],
            [],
            ["region C"],
            "Region C needs 1 star and (3,4) is its only undecided cell, so it is a star",
        ),
        (
            ["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"],
            ["....x", "..xxx", "...x.", "...x.", "....."],
            [[1, 4]],
            [],
            ["region A"],
            "Region A needs 1 star and (1,4) is its only undecided cell, so it is a star",
        ),
    ],
    "2x2-blocks": [
        (
            ["BBBAA", "BBBBA", "BBDBC", "DDDCC", "DDEEE"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[2, 4]],
            ["region A"],
            "Region A needs 1 star and its undecided cells fit in one 2x2 block, so (2,4) is empty",
        ),
        (
            ["ACCCB", "AACBB", "CCCCD", "ECDDD", "EEEED"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[1, 2]],
            ["region A"],
            "Region A needs 1 star and its undecided cells fit in one 2x2 block, so (1,2) is empty",
        ),
        (
            ["AAABB", "AABBB", "DDDCC", "DDDEC", "DDDEE"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[4, 4]],
            ["region C"],
            "Region C needs 1 star and its undecided cells fit in one 2x2 block, so (4,4) is empty",
        ),
    ],
    "too-little-room": [
        (
            ["BBAAA", "BBCCC", "EECCC", "EDDDC", "EEEDD"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[1, 1], [1, 2]],
            ["region A", "row 1"],
            "A star at (1,1) or (1,2) would fill row 1 and leave region A no room, but it needs "
            "1, so they are empty",
        ),
        (
            ["CABBB", "CAABB", "CAAEE", "DDDEE", "DEEEE"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[2, 2]],
            ["region C"],
            "A star at (2,2) would leave region C no room, but it needs 1, so (2,2) is empty",
        ),
        (
            ["BBAAA", "BBBAA", "CEDDD", "CEDDD", "CEDDD"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[1, 1], [2, 1]],
            ["region C", "column 1"],
            "A star at (1,1) or (2,1) would fill column 1 and leave region C no room, but it "
            "needs 1, so they are empty",
        ),
    ],
    "confinement": [
        (
            ["AAABB", "ACCBB", "DDCCC", "DDEEC", "DDDEE"],
            [".....", ".x.x.", ".x...", "....x", "..x.."],
            [],
            [[2, 3]],
            ["region A", "region B", "row 1", "row 2"],
            "Regions A and B lie inside rows 1-2, so every other cell of rows 1-2 is empty",
        ),
        (
            ["CCAAA", "CBBBA", "CBDDA", "EDDDA", "EEDDA"],
            ["..xx.", "xx...", "..xx.", ".x...", "....."],
            [],
            [[4, 5], [5, 5]],
            ["region D", "region E", "row 4", "row 5"],
            "Regions D and E lie inside rows 4-5, so every other cell of rows 4-5 is empty",
        ),
        (
            ["BBBBAA", "BBBBAA", "BBBBCA", "BBDDCC", "EEDDFF", "EEEFFF"],
            ["......", "...x..", ".....x", ".x.x..", ".x..x.", "..x..."],
            [],
            [[3, 1], [3, 2], [3, 3], [3, 4], [4, 1]],
            ["row 1", "row 2", "region B", "region A"],
            "Rows 1-2 lie inside regions B and A, so every other cell of regions B and A is empty",
        ),
    ],
    # Real 10x10 2-star puzzles of ../shared/corpus/real-puzzles.jsonl (url-0010, misc-0003,
    # kr-0005), at the state where their traces first need a chain
    "assumption-chain": [
        (
            [
                "AAAAAABBBB",
                "AAAACCCBBB",
                "DDACCCBBBB",
                "DDCCCCCEEF",
                "DDCDEEEEEF",
                "GDDDHEEFFF",
                "GIDDHHEJJF",
                "GIHHHHJJJF",
                "GIIIIHJJJF",
                "GGGGGJJJFF",
            ],
            [
                "..........",
                "..........",
                "..........",
                "..........",
                "..........",
                "..........",
                "..........",
                "x.x.......",
                "....x.....",
                "..x.......",
            ],
            [],
            [[7, 1]],
            ["region G", "region I"],
            "If (7,1) were a star, then after 2 steps region G would have no room for its stars, "
            "so (7,1) is empty",
        ),
        (
            [
                "AAABBCCCCC",
                "ADDDBECECF",
                "AAADBECEFF",
                "ADDDBEEEFF",
                "ADGGGHIEIF",
                "ADDDGHIEIF",
                "AAGGGHIIIF",
                "JJGHHHHHIF",
                "JJGGGJFHIF",
                "JJJJJJFFFF",
            ],
            [
                "..........",
                "...x..xx..",
                "...x.xx...",
                "...x.x..x.",
                "..x.......",
                ".......x..",
                "..........",
                "...x......",
                "..........",
                "..........",
            ],
            [[3, 8]],
            [],
            ["row 1", "region B", "region C", "region E"],
            "If (3,8) were empty, then after 3 steps row 1 would have too many stars, "
            "so (3,8) is a star",
        ),
        (
            [
                "AAABBBBBBB",
                "ACAABBBBDD",
                "ACABBDDDDD",
                "ACACCDEEED",
                "FCCCDDEEGH",
                "FCCCDEEEGH",
                "FCIIIEEEGH",
                "FCJJIEEEGH",
                "FJJJIIGGGH",
                "FJIIIIGGGG",
            ],
            [
                "x........x",
                "x.x......x",
                "x..x.....x",
                "x........x",
                ".x........",
                ".x......x.",
                ".x........",
                ".x......x.",
                "x.x.......",
                "x.x......x",
            ],
            [],
            [[1, 3]],
            ["column 2", "region A"],
            "If (1,3) were a star, then after 2 steps region A would have no room for its stars, "
            "so (1,3) is empty",
        ),
    ],
    "assumption": [
        (
            ["BCCCCA", "BBCCAA", "BBBCEE", "DFCCCE", "DFFCCE", "DDFCEE"],
            ["xxx.x.", "x.x.x.", "x.x..x", ".xx.xx", ".x.xxx", ".x.x.x"],
            [[4, 1]],
            [],
            ["row 4", "row 6", "column 3", "column 5"],
            "If (4,1) were empty, then after 4 steps row 6 would have too many stars, so (4,1) "
            "is a star",
        ),
        (
            ["AAABCC", "DBBBCC", "DDDDCC", "FDEDCC", "FEEEEC", "FFFEEE"],
            ["..xxxx", "xx..xx", "..xxx.", "x.x...", ".xxx.x", "...x.."],
            [[5, 5]],
            [],
            ["row 1", "row 5", "column 1", "column 3", "region F"],
            "If (5,5) were empty, then after 5 steps the stars at (1,2) and (2,3) would touch, "
            "so (5,5) is a star",
        ),
        (
            [
                "EBBBBAAAAC",
                "EBBAAAAACC",
                "EEBBBDAACC",
                "EEDDDDECCG",
                "EEEEEEEEGG",
                "EEFFFGGGGG",
                "EHFFGGGGGI",
                "EHFHGIIGGI",
                "HHHHHIIGII",
                "JJJJJIIIII",
            ],
            [
                "x.........",
                "x..xx.x.x.",
                "xxxxx.....",
                "xx....x.xx",
                "..xx......",
                "..........",
                ".x.x......",
                "........x.",
                ".x.x......",
                ".....xxxxx",
            ],
            [],
            [[2, 10]],
            ["row 3", "region C"],
            "If (2,10) were a star, then after 3 steps row 3 would have no room for its stars, so "
            "(2,10) is empty",
        ),
    ],
}

DOES_NOT_APPLY = {
    "around-star": [
        ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "..x.x/x.x.x/...../...../....."),
        ("BBBAA/BBBBA/BBDBC/DDDCC/DDEEE", "...../...x./...x./...../....."),
    ],
    "full-unit": [
        ("BBBAA/BBBBA/BBDBC/DDDCC/DDEEE", "...../...x./...x./...../....."),
        ("AAABB/CCABD/CDDDD/EEDDD/EEDDD", "x.xx./xx..x/.x.../xx.../....."),
    ],
    "forced-fill": [
        ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "..x.x/x.x../...../...../....."),
        ("BBBAA/BBBBA/BBDBC/DDDCC/DDEEE", "...../...../...../...../....."),
    ],
    "2x2-blocks": [
        ("BBBAA/BBBBA/BBDBC/DDDCC/DDEEE", "...../...x./...x./...../....."),
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
    ],
    "too-little-room": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("ABCDE/ABCDE/ABCDE/ABCDE/ABCDE", "...../...../...../...../....."),
    ],
    "confinement": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("ABCDE/ABCDE/ABCDE/ABCDE/ABCDE", "...../...../...../...../....."),
    ],
    "assumption": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "xxx*x/x*xxx/xxxx*/xx*xx/*xxxx"),
    ],
    "assumption-chain": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        (  # an assumption applies, refuted by levels 1-2 alone
            "BCCCCA/BBCCAA/BBBCEE/DFCCCE/DFFCCE/DDFCEE",
            "xxx.x./x.x.x./x.x..x/.xx.xx/.x.xxx/.x.x.x",
        ),
    ],
    "unsat-core": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "xxx*x/x*xxx/xxxx*/xx*xx/*xxxx"),
    ],
}


def board_of(regions: list[str], stars: int = 1) -> Board:
    return Board.from_rows([list(row) for row in regions], stars)


def state_of(grid: list[str]) -> State:
    cells = [((r, c), mark) for r, row in enumerate(grid, 1) for c, mark in enumerate(row, 1)]
    return State.of(
        [cell for cell, mark in cells if mark == "*"], [cell for cell, mark in cells if mark == "x"]
    )


BOARD = "stars: 1\nBBAAC\nEBBAC\nEEDDC\nEEDDD\nEEEDD\n"
"""Solution (1,4) (2,2) (3,5) (4,3) (5,1)."""
PAIR = """% Two cells: a unit needing 1 star in 2 undecided cells empties the cells touching both.
%
% level: {level}
technique("two-cells").
1 {{ chosen(U) : still_needs(U,1), undecided_in(U,2) }} 1.
pair(R,C) :- chosen(U), unit_cell(U,R,C), undecided(R,C).
conclude(blank,X,Y) :- undecided(X,Y), not pair(X,Y), touching(R,C,X,Y) : pair(R,C).
premise_unit(U) :- chosen(U).
premise_cell(R,C) :- chosen(U), rests_on(U,R,C).
"""
