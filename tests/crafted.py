"""Crafted boards for the hint ladder: where each technique applies (with its exact step) and
where it does not; shared by the ladder's tests and the hint programs' tests."""

from __future__ import annotations

from starbattle.logic.grid import View
from starbattle.logic.ladder import Logic
from starbattle.model.board import Board
from starbattle.model.steps import State

# 10x10 2-star boards that several cases share, each case at its own marks
SHARED_A = [
    "AAAAAAAAAB",
    "AAACCCAAAB",
    "ADACCEEEBB",
    "DDDFFEEEBB",
    "DFFFEEEEBG",
    "DDFFHIIIGG",
    "DDHHHIIIGG",
    "GGGHHIIGGG",
    "GGGGGGGGGG",
    "GGJJJJJGGG",
]
SHARED_B = [
    "AAAABBBBCC",
    "AAAABBBBBC",
    "AAAADEEECC",
    "AAADDEEEEC",
    "AAADDEECCC",
    "FGGGDEHHHH",
    "FGGGHHHHHH",
    "FGGGHHIHHH",
    "FFJJJIIIII",
    "FFFJJJIIII",
]
SHARED_C = [
    "AAABBBBBCC",
    "DADBBBBCCC",
    "DADDBBBECC",
    "DDDDBEBEEE",
    "FFFFBEBEEE",
    "GFFFBEEEEH",
    "GGGFGIIHHH",
    "GIGGGIIJHJ",
    "GIIIIIJJHJ",
    "IIIIIIJJJJ",
]
SHARED_D = [
    "AAAAABBBBC",
    "DDAAABCCCC",
    "DAAAAACCCE",
    "DDFFAACGEE",
    "FFFFGGGGEE",
    "FFFFFGGEEH",
    "FFIIHGHHHH",
    "IFIHHHHJHJ",
    "IFIIIHHJJJ",
    "IIIJJJJJJJ",
]
SHARED_E = [
    "AABBBBBBAA",
    "AAAAAAAAAA",
    "ACDDDDDAAA",
    "ACCCCCCEAE",
    "CCFCFCCEEE",
    "GFFFFHHEEE",
    "GGFGHHHEEE",
    "IGGGGGGGGG",
    "IIGJJJJJGG",
    "IIIIIIIIGG",
]
SHARED_F = [
    "AAABBBBBBC",
    "AAAAADBEBC",
    "AAAAADBEBC",
    "AAAAADBEFC",
    "AGAADDBEFC",
    "AGGGGGGEFC",
    "HGIIIIGCFC",
    "HHHHHIGCFC",
    "HJHHHICCFC",
    "HJJJHICCCC",
]

SHARED_G = [
    "AABBBCCCCC",
    "ADBCCCCEEC",
    "ADBCCBCECC",
    "ADBBBBCECF",
    "ADGCCCCCCF",
    "ADGCCHHHHF",
    "ADGICCCFFF",
    "ADGICCCFJJ",
    "ADGIJJJJJJ",
    "ADDIIIIJJJ",
]
"""StarBattleLab's sblsort-10-2-expert-98 (../shared/corpus/difficulty.jsonl)."""

SHARED_H = [
    "AAAAAABBBC",
    "ADDDAAABBC",
    "DDDDDEEEEC",
    "DDFFDECCCC",
    "FDFFFEGCHH",
    "FDFFFGGCHI",
    "FFFGFGGGHI",
    "FJJGGGHHHI",
    "JJIIIHHIHI",
    "JIIIIIIIII",
]
"""StarBattleLab's sblsort-10-2-expert-442 (../shared/corpus/difficulty.jsonl)."""


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
            "Row 1 has its star, so its other cells are empty",
        ),
        (
            ["BBBAA", "BBBBA", "BBBBC", "BBDDC", "EEEDC"],
            ["..x*x", "..xxx", ".....", "xx...", "..x.."],
            [],
            [[1, 1], [1, 2]],
            ["row 1"],
            "Row 1 has its star, so its other cells are empty",
        ),
        (
            ["AAABB", "CCABD", "CDDDD", "EEDDD", "EEDDD"],
            ["x.xx.", "xx..x", "*x...", "xx...", "....."],
            [],
            [[3, 3], [3, 4], [3, 5]],
            ["row 3"],
            "Row 3 has its star, so its other cells are empty",
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
            [[1, 1], [1, 2], [2, 4]],  # (2,4) fills nothing: one argument all the same
            ["region A", "row 1"],
            "A star at (1,1), (1,2) or (2,4) would fill row 1 if it lies in it and leave region A "
            "no room, but it needs 1, so they are empty",
        ),
        (
            ["CABBB", "CAABB", "CAAEE", "DDDEE", "DEEEE"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[2, 2], [4, 1], [5, 1]],
            ["region C", "column 1"],
            "A star at (2,2), (4,1) or (5,1) would fill column 1 if it lies in it and leave "
            "region C no room, but it needs 1, so they are empty",
        ),
        (
            ["BBAAA", "BBBAA", "CEDDD", "CEDDD", "CEDDD"],
            [".....", ".....", ".....", ".....", "....."],
            [],
            [[1, 1], [2, 1], [4, 2]],
            ["region C", "column 1"],
            "A star at (1,1), (2,1) or (4,2) would fill column 1 if it lies in it and leave "
            "region C no room, but it needs 1, so they are empty",
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
    # Containers (issue 31): states of generated 10x10 2-star puzzles reached by the ladder
    "band-tiling": [
        (
            SHARED_A,
            [
                "....xxx...",
                "..x.x*x.x.",
                "..x.xxx...",
                "......x.x.",
                "....xx...x",
                ".x.x....xx",
                ".x.xxxx.xx",
                "xxx....xxx",
                "...xxxxx..",
                "xx.....xxx",
            ],
            [[7, 1]],
            [[6, 1]],
            ["row 7", "row 8"],
            "Rows 7-8 need 4 stars and their undecided cells fit in 4 2x2 blocks, one star each, "
            "so (7,1) is a star and (6,1) is empty",
        ),
        (
            SHARED_A,
            [
                "....xxx...",
                "..x.x*x.x.",
                "..x.xxx...",
                "......x.x.",
                "....xx...x",
                "xx.x....xx",
                "*x.xxxx.xx",
                "xxx....xxx",
                "...xxxxx..",
                "xx.....xxx",
            ],
            [[5, 9]],
            [[2, 10], [4, 8], [4, 10], [5, 8], [6, 8]],
            ["column 9", "column 10"],
            "Columns 9-10 need 4 stars and their undecided cells fit in 4 2x2 blocks, one star "
            "each, so (5,9) is a star and 5 cells are empty",
        ),
        (
            [
                "AAAAAABBBB",
                "CAAAABBBBB",
                "CCCCDBDDDD",
                "CCCCDDDDDD",
                "CCCCDEEFGG",
                "CCHCEEFFGG",
                "CHHHEEFFGG",
                "CHIHHHHHHG",
                "IIIJJJJJHH",
                "IIIIIJHHHH",
            ],
            [
                "..x.xx.x*x",
                "x...xx.xxx",
                "xxxx.x.x*x",
                "....xxxxxx",
                "xxxxx*x*xx",
                "xx*xxxxxx*",
                "xxxx....xx",
                "x*xxxxxxx*",
                "xxxx....xx",
                "....xxxxxx",
            ],
            [],
            [[1, 2]],
            ["row 2", "row 3"],
            "Rows 2-3 need 3 more stars and their undecided cells fit in 3 2x2 blocks, one star "
            "each, so (1,2) is empty",
        ),
    ],
    "composite-tiling": [
        (
            [
                "AAAABBBBBB",
                "AAAAABBCBC",
                "AAAADDBCBC",
                "AEEEDDCCBC",
                "EEEEDDCCCC",
                "EEEFFFGGGC",
                "EHHFFFFGGG",
                "HHHFFGGGGG",
                "HHIFFIJGJJ",
                "IIIIIIJJJJ",
            ],
            [
                "..........",
                "....xx....",
                "..........",
                "x...xx....",
                ".......x..",
                "xxx.xx...x",
                "xx.x...x..",
                "*x.x.xx...",
                "xx.xx..x..",
                "..........",
            ],
            [],
            [[8, 5]],
            ["row 8", "region F", "region G", "region H"],
            "Regions F, G and H, which meet row 8, need 5 more stars and row 8 needs 1 more "
            "star, so their cells outside row 8 hold 4 stars; those fit in 4 2x2 blocks, one "
            "star each, so (8,5) is empty",
        ),
        (
            [
                "AAAABBBBCC",
                "AAABBBBCCC",
                "DDDBBBBBCC",
                "EDDBBBFCCC",
                "EEEEFFFFGC",
                "EEEEFFHFGG",
                "IEIIFFHFGG",
                "IIIIIFHJJJ",
                "IIIIIHHJJJ",
                "IIIIIHHJJJ",
            ],
            [
                ".......x..",
                "xx.x....xx",
                "*xxxxxxx..",
                "xx*x..xxxx",
                ".xxxxx.x*x",
                ".x...x.xxx",
                "x.xx.xxx..",
                "x...x...xx",
                "....xxxxx.",
                "....x.....",
            ],
            [],
            [[6, 4]],
            ["row 5", "row 6", "row 7", "region E", "region G"],
            "Rows 5-7 need 5 more stars and regions E and G lying inside them need 3 more stars, "
            "so the rest of rows 5-7 holds 2 stars; those fit in 2 2x2 blocks, one star each, so "
            "(6,4) is empty",
        ),
        (
            SHARED_B,
            [
                "..........",
                "...xxx....",
                "...x*x..x.",
                "...xxxx.x.",
                "..........",
                "...xxxx...",
                ".xx.......",
                "..........",
                ".....x....",
                "..x.......",
            ],
            [[5, 4]],
            [[4, 3], [5, 3], [5, 5], [6, 3]],
            ["column 1", "column 2", "column 3", "column 4", "region A", "region F", "region G"],
            "The rest of columns 1-4, without regions A, F and G, holds 2 stars in 2 2x2 blocks, "
            "one star each, so (5,4) is a star and 4 cells are empty",
        ),
    ],
    "capacity-counting": [
        (
            [
                "AABBBBCCCC",
                "ABBBCCCCCD",
                "ABEBBCCDDD",
                "AEEEEFFFDD",
                "AAEFFFFFFD",
                "AAAAFFFGFF",
                "AAAAFHFGFF",
                "IAIAHHHGGF",
                "IIIIHHGGGF",
                "IIJJJJJGGG",
            ],
            [
                "..........",
                "........x.",
                "...x......",
                "..........",
                "...x......",
                "..........",
                "......x...",
                ".x.x.x....",
                ".x.x.x....",
                "xx.....xxx",
            ],
            [[7, 6], [9, 5]],
            [
                *([6, 5], [6, 6], [6, 7], [6, 9], [7, 5], [7, 9], [8, 5]),
                *([8, 7], [8, 10], [9, 10], [10, 4], [10, 5], [10, 6]),
            ],
            ["row 8", "row 9", "region F", "region G", "region H", "region I"],
            "Rows 8-9 need 4 stars; counting the 2x2 blocks of the 4 regions meeting them, "
            "region F puts none there, region G 1 star and region H 1 star, so (7,6) and (9,5) "
            "are stars and 13 cells are empty",
        ),
        (
            SHARED_C,
            [
                "*x*xxxxxxx",
                "xxxx..x*x.",
                ".x....xxx.",
                ".....x....",
                "x....xx...",
                "..x.x...x.",
                "....xxx.x.",
                ".......x..",
                ".....x.xxx",
                ".....x.x..",
            ],
            [[10, 9]],
            [[4, 10], [5, 10], [8, 10], [10, 10]],
            ["column 10", "region C", "region E", "region H", "region J"],
            "Column 10 needs 2 stars; counting the 2x2 blocks of the 4 regions meeting it, region "
            "E puts none there and region J none, so (10,9) is a star and 4 cells are empty",
        ),
        (
            [
                "AABBBCCCCC",
                "AABBBBCCCD",
                "EABAADDDDD",
                "EAAAADDDDD",
                "EFFGGDDDDD",
                "EFGGGHDHHH",
                "EFFGGHHHHH",
                "EEEEEEEHHH",
                "IIEIJJJJJJ",
                "IIIIJJJJJJ",
            ],
            [
                "..........",
                ".xxxx....x",
                "x....xxxxx",
                ".xxxx.....",
                "..........",
                ".xxxx.....",
                "..........",
                ".xxxx.....",
                "..x.......",
                "..........",
            ],
            [],
            [[5, 1], [5, 6], [5, 7], [5, 8], [5, 9], [5, 10]],
            ["row 5", "region D", "region E", "region F", "region G"],
            "Row 5 needs 2 stars, which only regions D, E, F and G can hold; counting the 2x2 "
            "blocks each has room for inside and outside row 5, region D puts none there and "
            "region E none, so 6 cells are empty",
        ),
    ],
    "container-exclusion": [
        (
            SHARED_D,
            [
                "xx........",
                "...x..xxx.",
                "xx...xxx.x",
                "..xxxx*xxx",
                "xxxx*xxxx*",
                "...xxxx*xx",
                ".x..x*xxx.",
                "....xxx...",
                "..........",
                "..........",
            ],
            [],
            [[1, 5], [1, 10]],
            ["row 2", "row 3", "row 4", "column 5", "column 10", "region C"],
            "Rows 2-4 need 5 more stars; a star at (1,5) or (1,10) would fill those of columns 5 "
            "and 10 and region C it lies in and leave room for at most 4 stars for them, so they "
            "are empty",
        ),
        (
            SHARED_D,
            [
                "xx..x....x",
                "...x..xxx.",
                "xx...xxx.x",
                "..xxxx*xxx",
                "xxxx*xxxx*",
                "...xxxx*xx",
                ".x..x*xxx.",
                "....xxx...",
                "..........",
                "..........",
            ],
            [],
            [[8, 1]],
            ["row 4", "row 5", "row 6", "region D", "region F"],
            "A star at (8,1) would leave regions D and F outside rows 4-6 room for at most 1 "
            "star, but they need 2, so (8,1) is empty",
        ),
        (
            SHARED_C,
            [
                "*x*xxxxxxx",
                "xxxx..x*x.",
                ".x....xxx.",
                ".....x...x",
                "x....xx..x",
                "..x.x...x.",
                "....xxx.x.",
                ".......x.x",
                ".....x.xxx",
                ".....x.x*x",
            ],
            [],
            [[4, 3]],
            ["row 2", "row 3", "row 4", "row 5", "region B", "region C", "region D"],
            "A star at (4,3) would leave the rest of rows 2-5 room for at most 1 star, but it "
            "needs 2, so (4,3) is empty",
        ),
    ],
    "counting-exclusion": [
        (
            SHARED_D,
            [
                "xx..x.x..x",
                "...xx.xxxx",
                "xx...xxx*x",
                "..xxxx*xxx",
                "xxxx*xxxx*",
                "...xxxx*xx",
                ".xx.x*xxx.",
                "x...xxx...",
                ".x.xxx.x..",
                ".....x.x..",
            ],
            [],
            [[8, 8]],
            ["row 9", "row 10", "region H", "region I", "region J"],
            "A star at (8,8) would leave regions H, I and J room to put at most 3 stars into "
            "rows 9-10 (counting 2x2 blocks), but rows 9-10 need 4 more, so (8,8) is empty",
        ),
        (
            SHARED_B,
            [
                "..........",
                ".x.xxx..x.",
                "...x*x..x.",
                "..xxxxx.x.",
                "xxx*x..xxx",
                "..xxxxx...",
                "xxx.....x.",
                "...xx.....",
                ".....x....",
                "..x.......",
            ],
            [],
            [[9, 2]],
            ["column 4", "region A", "region G", "region J"],
            "A star at (9,2) would leave regions A, G and J so little room outside column 4 "
            "(counting 2x2 blocks) that they put at least 2 stars into it, but column 4 needs "
            "only 1 more, so (9,2) is empty",
        ),
        (
            SHARED_E,
            [
                "xx..x.x*xx",
                "..xxxxxxx*",
                "xx....xxxx",
                "x.xxxx.xx*",
                ".x.x.x.xxx",
                "xx.xxx.x*x",
                "xx.x*x.xxx",
                "..xxxxx..x",
                "xxx*x*xxxx",
                "..xxxxx..x",
            ],
            [],
            [[3, 5]],
            ["row 1", "column 3", "column 4", "column 6"],
            "A star at (3,5) would leave columns 3-4 and 6 so little room outside row 1 "
            "(counting 2x2 blocks) that they put at least 2 stars into it, but row 1 needs only "
            "1 more, so (3,5) is empty",
        ),
    ],
    # StarBattleLab experts (sblsort-10-2-expert-3650, -442, -5139), at states where their traces
    # need an assumption
    "assumption-chain": [
        (  # StarBattleLab sblsort-10-2-expert-3650, at a trial the tiling cascade leaves
            [
                "AAAABBCCCC",
                "AADDBBEECC",
                "DDDDBBEFFC",
                "DDBBBBEFFC",
                "DDGGGGEFFC",
                "DDGGGGGFFC",
                "HHGGGGGGFC",
                "HHIIIJJJJJ",
                "HHHIIJJJJJ",
                "HHIIIIIJJJ",
            ],
            [
                "......x...",
                "..xx....x.",
                "...x...x..",
                ".....x.xxx",
                ".....x.x..",
                "......x.xx",
                "xx........",
                "........xx",
                ".x........",
                "..........",
            ],
            [],
            [[9, 9]],
            ["column 8", "column 9", "region E", "region F"],
            "If (9,9) were a star, then after 2 steps regions E and F would have too little room "
            "for their stars, so (9,9) is empty",
        ),
        (  # StarBattleLab sblsort-10-2-expert-442, at a trial of levels 1-3
            SHARED_H,
            [
                ".....x*x.x",
                ".xxx.xxx.x",
                "........x.",
                "....x.x.x.",
                "x...x.x.x.",
                "......x...",
                ".xx.x.....",
                ".........x",
                ".xx.......",
                ".x........",
            ],
            [],
            [[7, 4]],
            ["row 2", "column 1", "region D", "region F", "region J"],
            "If (7,4) were a star, then after 3 steps region D would have too little room for its "
            "stars, so (7,4) is empty",
        ),
    ],
    "assumption": [
        (  # StarBattleLab sblsort-10-2-expert-5139, at a trial of levels 1-2
            [
                "AAABBBBBBC",
                "DAAAAABBBC",
                "DDDEABBCCC",
                "DDDEACCCFF",
                "DEEEECCFFG",
                "DDEEEEEFGG",
                "DDEHIEIIIG",
                "DHHHIIIIGG",
                "HHIHIJJIGG",
                "HIIIIIJJJG",
            ],
            [
                ".......xx.",
                ".....x.xx.",
                "...x....xx",
                "..........",
                "......x.xx",
                "......x.x.",
                ".......xxx",
                "....x..x*x",
                ".......xxx",
                ".....x....",
            ],
            [[6, 10]],
            [],
            [
                *("row 9", "row 10", "column 8", "column 9"),
                *("region G", "region H", "region I", "region J"),
            ],
            "If (6,10) were empty, then after 5 steps region H would have no room for its stars, "
            "so (6,10) is a star",
        ),
    ],
}

# Boards whose first trial is a short chain, though a level-5 technique applies first
CHAINS = {
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
        # StarBattleLab expert states where a unit's placements listed now apply first
        (
            SHARED_C,
            [
                "*x*xxxxxxx",
                "xxxxx.x*x.",
                ".x...xxxx.",
                "..x..x...x",
                "x....xx..x",
                "..x.x...x.",
                "....xxx.x.",
                ".x.....x.x",
                "...x.x.xxx",
                ".....x.x*x",
            ],
            [[2, 6]],
            [],
            ["row 10", "column 5", "column 6", "column 7"],
            "If (2,6) were empty, then after 6 steps the stars at (3,5) and (4,5) would touch, so "
            "(2,6) is a star",
        ),
        (
            SHARED_C,
            [
                "*x*xxxxxxx",
                "xxxxx.x*x.",
                ".x..xxxxx.",
                "..x..x...x",
                "x....xx..x",
                "..x.x...x.",
                "....xxx.x.",
                ".x.....x.x",
                "...x.x.xxx",
                ".....x.x*x",
            ],
            [[2, 6]],
            [],
            ["row 9", "column 5", "column 6", "region I"],
            "If (2,6) were empty, then after 5 steps row 9 would have no room for its stars, so "
            "(2,6) is a star",
        ),
        (
            SHARED_C,
            [
                "*x*xxxxxxx",
                "xxxxx.x*x.",
                ".x....xxx.",
                "..x..x...x",
                "x....xx..x",
                "..x.x...x.",
                "....xxx.x.",
                ".x.....x.x",
                "...x.x.xxx",
                ".....x.x*x",
            ],
            [],
            [[3, 5]],
            ["row 9", "column 5", "column 6", "region I"],
            "If (3,5) were a star, then after 6 steps row 9 would have no room for its stars, so "
            "(3,5) is empty",
        ),
        (
            [
                "AAAABBCCDD",
                "AEABBACCDD",
                "AEAAAACCDF",
                "AEAGAGDDDF",
                "AEGGGGDGDF",
                "EEEEEGGGFF",
                "HHHIEJJGFF",
                "HHIIJJJJFF",
                "HHHIJJIJJJ",
                "HHIIIIIIII",
            ],
            [
                "xxxxx*x*xx",
                "..x*xxxxx.",
                "..xxxx*x.x",
                ".x.x.xxx..",
                ".x.x.x.xxx",
                "...x.x.x..",
                "........xx",
                "..........",
                "........xx",
                "..........",
            ],
            [],
            [[8, 7]],
            ["column 4", "column 6", "column 8", "region I"],
            "If (8,7) were a star, then after 4 steps column 4 would have no room for its stars, "
            "so (8,7) is empty",
        ),
    ],
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
        # StarBattleLab expert states where a unit's placements listed now apply first
        (
            SHARED_E,
            [
                "xx......xx",
                "..xxxxx...",
                "xx.....xxx",
                "x.xx.x..x.",
                ".x.x.x..xx",
                "x..xxx.x..",
                "xx.x*x.xxx",
                "...xxxx...",
                "xxx.....xx",
                "...xxxx...",
            ],
            [[4, 10]],
            [],
            ["row 3", "row 4", "region C", "region E"],
            "If (4,10) were empty, then after 5 steps row 4 would have no room for its stars, so "
            "(4,10) is a star",
        ),
        (
            SHARED_E,
            [
                "xx......xx",
                "..xxxxx...",
                "xx.....xxx",
                "x.xx.x..x.",
                ".x.x.x..x.",
                "x..xxx.x..",
                "xx.x*x.x.x",
                "...xxxx...",
                "xxx.....xx",
                "....x.x...",
            ],
            [],
            [[4, 5]],
            ["row 3", "column 3", "region F"],
            "If (4,5) were a star, then after 3 steps column 3 would have too many stars, so "
            "(4,5) is empty",
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
    "band-tiling": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "..x.x/x.x.x/...../...../....."),
    ],
    "composite-tiling": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("AAABB/ACCBB/DDCCC/DDEEC/DDDEE", "...../...../...../...../....."),
    ],
    "capacity-counting": [
        ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
        ("ABCDE/ABCDE/ABCDE/ABCDE/ABCDE", "...../...../...../...../....."),
    ],
    "container-exclusion": [
        ("ABCDE/ABCDE/ABCDE/ABCDE/ABCDE", "...../...../...../...../....."),
        ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "xxx*x/x*xxx/xxxx*/xx*xx/*xxxx"),
    ],
    "counting-exclusion": [
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


# Issue 31: states of StarBattleLab experts (../shared/corpus/difficulty.jsonl,
# sblsort-10-2-expert-98, -184, -771, -3963, -4327; sblsort-9-2-expert-86, -128, -192)
# where the technique is the next step
NEW_APPLIES = {
    "m-and-t": [
        (
            [
                "AABBBCCCCC",
                "ADBCCCCEEC",
                "ADBCCBCECC",
                "ADBBBBCECF",
                "ADGCCCCCCF",
                "ADGCCHHHHF",
                "ADGICCCFFF",
                "ADGICCCFJJ",
                "ADGIJJJJJJ",
                "ADDIIIIJJJ",
            ],
            [
                ".xx....xx.",
                "..x.......",
                "..x.x.xxx.",
                "..x...x*x.",
                ".....xxxx.",
                "xxxxx....x",
                ".....xxxx.",
                ".x.x....x.",
                "..........",
                "..x.......",
            ],
            [],
            [[2, 5]],
            ["row 4", "region B"],
            "A star at (2,5) would leave region B room for at most 1 star (a pressured T), but "
            "it needs 2, so (2,5) is empty",
        ),
        (
            SHARED_F,
            [
                ".......xx.",
                "....x.x.x.",
                "....x.x.x.",
                "....x.....",
                "......x.x.",
                "..........",
                ".x.x...x..",
                ".......x..",
                "x.xxx.xx..",
                "x.x*x.xxx.",
            ],
            [],
            [[6, 6]],
            ["column 6", "region D"],
            "A star at (6,6) would leave region D room for at most 1 star (a pressured T), but "
            "it needs 2, so (6,6) is empty",
        ),
        (
            [
                "ABBBBCCCCC",
                "AAABBCCCCC",
                "AADBDDDCCC",
                "AADDDDDEEE",
                "AADDDFDGEE",
                "AAHDDFGGEE",
                "AHHHFFFGEE",
                "IHHHHFEEEE",
                "IHHHHJJEJE",
                "IHHHHHJJJJ",
            ],
            [
                "xx.....x.x",
                "x.xx.x.x.x",
                "x.x....x.x",
                "x.....xxx.",
                "x.x.x.x*x.",
                "x...x.xxx.",
                "xx....x*x.",
                "*x..x.xxx.",
                "xx.....x.x",
                "*x...x.x.x",
            ],
            [],
            [[4, 6]],
            ["column 6", "region F"],
            "A star at (4,6) would leave region F room for at most 1 star (a pressured T), but "
            "it needs 2, so (4,6) is empty",
        ),
    ],
    "n-rooks": [
        (
            SHARED_F,
            [
                ".......xx.",
                "....x.x.x.",
                "....x.x.x.",
                "....x.....",
                "......x.x.",
                ".....x....",
                ".x.x...x..",
                ".......x..",
                "x.xxx.xx..",
                "x.x*x.xxx.",
            ],
            [],
            [[7, 6], [8, 6]],
            [
                "row 1",
                "row 2",
                "row 3",
                "row 4",
                "row 5",
                "row 6",
                "row 7",
                "row 8",
                "row 9",
                "row 10",
                "column 1",
                "column 2",
                "column 3",
                "column 4",
                "column 5",
                "column 6",
                "column 7",
                "column 8",
                "column 9",
                "column 10",
            ],
            "Each pair of rows and of columns has one 2x2 block without a star (n-rooks); so far "
            "the block at rows 7-8, columns 7-8 cannot be one without, so (7,6) and (8,6) are "
            "empty",
        ),
        (
            [
                "AAAABBCCCC",
                "AAABBBCCDC",
                "AAABBCCDDC",
                "EAABFCCCDD",
                "EEEFFFFFFD",
                "FFFFFDDDDD",
                "FFGFHHHHHD",
                "FFGHHIHHJJ",
                "GGGHHIIIJJ",
                "GGJJJJJJJJ",
            ],
            [
                "..x.......",
                "x.x.x.....",
                "..x.......",
                ".xxx......",
                ".x*x......",
                ".xxx......",
                "xx.x....xx",
                "xx.xx.xxx.",
                "....x.x*x.",
                "..x...xxx.",
            ],
            [[8, 10]],
            [[6, 7], [6, 8]],
            [
                "row 1",
                "row 2",
                "row 3",
                "row 4",
                "row 5",
                "row 6",
                "row 7",
                "row 8",
                "row 9",
                "row 10",
                "column 1",
                "column 2",
                "column 3",
                "column 4",
                "column 5",
                "column 6",
                "column 7",
                "column 8",
                "column 9",
                "column 10",
            ],
            "Each pair of rows and of columns has one 2x2 block without a star (n-rooks); so far "
            "the blocks from (7,7) and (7,9) cannot be ones without, so (8,10) is a star and "
            "(6,7) and (6,8) are empty",
        ),
        (
            [
                "AAAABBBBBB",
                "AAACCCDBBB",
                "EEACCCDDFF",
                "EEACCCDDFF",
                "EEEGGGGDFF",
                "HHHGGGGFFF",
                "HHHGGGGIFF",
                "HHHHGIIIFF",
                "HHHGGIIJJJ",
                "HHHGIIJJJJ",
            ],
            [
                "...x......",
                ".......x..",
                "....x...xx",
                ".x......xx",
                "...xxxx.xx",
                ".x........",
                "......x.x.",
                "...x......",
                "....x.x...",
                "..........",
            ],
            [],
            [[7, 10]],
            [
                "row 1",
                "row 2",
                "row 3",
                "row 4",
                "row 5",
                "row 6",
                "row 7",
                "row 8",
                "row 9",
                "row 10",
                "column 1",
                "column 2",
                "column 3",
                "column 4",
                "column 5",
                "column 6",
                "column 7",
                "column 8",
                "column 9",
                "column 10",
            ],
            "Each pair of rows and of columns has one 2x2 block without a star (n-rooks); so far "
            "the block at rows 5-6, columns 9-10 cannot be one without, so (7,10) is empty",
        ),
    ],
    "entanglement": [
        (
            [
                "AABBBBBBC",
                "ADBBDBCCC",
                "ADDDDBCEC",
                "AADFFBEEE",
                "GADDFFHEE",
                "GGDFFFHHE",
                "GGFFHFHII",
                "GGGHHHHII",
                "GGGGHHHII",
            ],
            [
                ".x.x*xxx.",
                ".x.xxx*x.",
                ".x...xxx.",
                "...x.x*x.",
                "x..x.xxx.",
                ".x..x.xxx",
                "..xxx.x*x",
                "x.x*x.xxx",
                "..xxx.x*x",
            ],
            [],
            [[4, 9], [5, 3]],
            [
                "row 1",
                "row 2",
                "row 3",
                "row 4",
                "row 5",
                "row 6",
                "row 7",
                "row 8",
                "row 9",
                "column 1",
                "column 2",
                "column 3",
                "column 4",
                "column 5",
                "column 6",
                "column 7",
                "column 8",
                "column 9",
            ],
            "On a 9x9 board with 2 stars in every row and column, no placement with the stars at "
            "(4,7), (7,8) and (8,4) has a star at (4,9) or (5,3) (entanglement), so (4,9) and "
            "(5,3) are empty",
        ),
        (
            [
                "AAAAAAABB",
                "ACCCABABB",
                "AAACDBBBB",
                "EEDDDDDDD",
                "EEEEFFFDD",
                "GGGEEFHHD",
                "GGEEEFHHD",
                "GEEEIIHHH",
                "EEIIIHHHH",
            ],
            [
                "xxx....x.",
                "x*xxxx...",
                "xxx*x..x.",
                "..xxxx...",
                ".x.....x.",
                ".x.xxxx..",
                ".x.......",
                ".xxx.....",
                ".....x...",
            ],
            [],
            [[5, 1]],
            [
                "row 1",
                "row 2",
                "row 3",
                "row 4",
                "row 5",
                "row 6",
                "row 7",
                "row 8",
                "row 9",
                "column 1",
                "column 2",
                "column 3",
                "column 4",
                "column 5",
                "column 6",
                "column 7",
                "column 8",
                "column 9",
            ],
            "On a 9x9 board with 2 stars in every row and column, no placement with the stars at "
            "(2,2) and (3,4) has a star at (5,1) (entanglement), so (5,1) is empty",
        ),
        (
            [
                "AAAAAAAAB",
                "CDAAABBBB",
                "CDDAAABBB",
                "CDDEAFFFG",
                "CDDEEEFFG",
                "CHDEEEEFG",
                "CHIIEGGGG",
                "HHIIEEEGG",
                "HHHIIEEEE",
            ],
            [
                "xxx......",
                ".xxx.....",
                ".x*x.xx..",
                ".xxx.....",
                ".x*x.xxxx",
                "xxxxx....",
                "x*x*xxxxx",
                "xxxxx....",
                "x*x..xxxx",
            ],
            [],
            [[3, 8], [4, 6]],
            [
                "row 1",
                "row 2",
                "row 3",
                "row 4",
                "row 5",
                "row 6",
                "row 7",
                "row 8",
                "row 9",
                "column 1",
                "column 2",
                "column 3",
                "column 4",
                "column 5",
                "column 6",
                "column 7",
                "column 8",
                "column 9",
            ],
            "On a 9x9 board with 2 stars in every row and column, no placement with the stars at "
            "(3,3), (5,3), (7,2), (7,4) and (9,2) has a star at (3,8) or (4,6) (entanglement), so "
            "(3,8) and (4,6) are empty",
        ),
    ],
}
# Issue 31: a unit's placements listed, at states of StarBattleLab experts
# (sblsort-10-2-expert-98 and -442) where it is the next step
NEW_APPLIES["unit-enumeration"] = [
    (
        SHARED_G,
        [
            ".xx....xx.",
            "x.x.x.....",
            "x.x.x.xxx.",
            ".xx...x*x.",
            ".....xxxx.",
            "xxxxx....x",
            ".....xxxx.",
            ".x.x.x..x.",
            "..........",
            "..x..x....",
        ],
        [],
        [[3, 10]],
        ["region F", "row 6", "column 8", "column 10", "region H"],
        "Region F needs 2 stars, which go 3 ways only (no two touching; 2 others would leave "
        "row 6 and region H too little room): each touches (3,10) or empties it by filling "
        "column 10, so (3,10) is empty",
    ),
    (
        SHARED_G,
        [
            ".xx....xx.",
            "x.x.x.....",
            "x.x.x.xxxx",
            ".xx.x.x*x.",
            ".....xxxx.",
            "xxxxx....x",
            ".....xxxx.",
            ".x.x.x..x.",
            "..........",
            "..x..x....",
        ],
        [],
        [[8, 3], [8, 5], [9, 6], [10, 4]],
        ["region I", "row 10", "column 3", "region G", "region J"],
        "Region I needs 2 stars, which go 3 ways only: each leaves out (10,4) and touches "
        "(8,3), (8,5) and (9,6), so 4 cells are empty",
    ),
    (
        SHARED_G,
        [
            ".xx....xx.",
            "x.x.x.....",
            "x.x.x.xxxx",
            ".xx.x.x*x.",
            ".....xxxx.",
            "xxxxx....x",
            ".....xxxx.",
            ".xxxxx..x.",
            ".....x.x..",
            "..xx.x....",
        ],
        [],
        [[9, 7]],
        ["row 8", "region F"],
        "Row 8 needs 2 stars, which go only at (8,1) and (8,7), at (8,1) and (8,8) or at "
        "(8,8) and (8,10) (no two touching; 2 others would leave region F too little room): "
        "each touches (9,7), so (9,7) is empty",
    ),
    (
        SHARED_H,
        [
            ".....x*x.x",
            ".xxx.xxx.x",
            "........x.",
            "....x.x.x.",
            "x.....x.x.",
            "......x...",
            ".xx.x.....",
            ".........x",
            ".xx.......",
            ".x........",
        ],
        [],
        [[5, 5]],
        ["region E", "row 2"],
        "Region E needs 2 stars, which go 4 ways only (no two touching; 1 other would leave "
        "row 2 too little room): each touches (5,5), so (5,5) is empty",
    ),
]
APPLIES.update(NEW_APPLIES)

# Pair enumeration: states of community LinkedIn Queens levels (samimsu/ and
# myramblings/queens-game-linkedin, community-levels; ../shared/corpus real-puzzles.jsonl
# qc-0249, qc-0505, qc-0611) where no technique before it finds a step
APPLIES["pair-enumeration"] = [
    (
        ["AAABCCB", "DDAECBB", "DAACCCE", "DCCCEEE", "DDCEEFG", "GDDDDDF", "GGFFFFF"],
        [".....x.", ".x.....", ".......", "......x", ".......", "x....x.", "......x"],
        [],
        [[3, 7]],
        ["row 1", "column 7", "row 3", "region A", "region B"],
        "Row 1 and column 7 need one star each; each of the 13 ways to place both (stars "
        "apart, every unit keeping room) rules out (3,7), next to a star or in a unit it "
        "fills, so (3,7) is empty",
    ),
    (
        ["ABBCBCD", "AECFEBD", "CDCEABD", "FFDBAGD", "DBDGGCD", "AABCDGD", "BFDBFDD"],
        [".......", "..xx...", ".x...x.", "..xxx..", "x.x..xx", "....x..", "x.x..x."],
        [],
        [[1, 2], [1, 3], [1, 5]],
        [
            "row 1",
            "row 5",
            "column 2",
            "column 3",
            "column 4",
            "column 5",
            "column 6",
            "region B",
            "region C",
            "region G",
        ],
        "Row 1 and row 5 need one star each; each of the 6 ways to place both (stars apart, "
        "every unit keeping room) rules out (1,2), (1,3) and (1,5), next to a star or in a "
        "unit it fills, so they are empty",
    ),
    (
        [
            "AABBCDDD",
            "AEEBEEEC",
            "DEEBEEED",
            "FGBBBGFF",
            "FEEHEEEF",
            "HEEHEEEH",
            "AEEGGGEC",
            "FFGGHHHH",
        ],
        [
            "x.xx...x",
            "........",
            "........",
            "........",
            "...x....",
            "........",
            "..x.....",
            "........",
        ],
        [],
        [[2, 3], [4, 1], [5, 1], [6, 1], [8, 1]],
        [
            "row 3",
            "region A",
            "row 1",
            "row 2",
            "row 7",
            "column 1",
            "column 2",
            "column 6",
            "column 7",
            "column 8",
            "region C",
            "region D",
            "region E",
            "region F",
        ],
        "Row 3 and region A need one star each; each of the 12 ways to place both (stars "
        "apart, every unit keeping room) rules out these 5 cells, next to a star or in a unit"
        " it fills, so they are empty",
    ),
]
DOES_NOT_APPLY["pair-enumeration"] = [
    (  # 2 stars: no unit needs just one more
        "AABBBCCCCC/ADBCCCCEEC/ADBCCBCECC/ADBBBBCECF/ADGCCCCCCF/ADGCCHHHHF/ADGICCCFFF/ADGICCCFJJ/ADGIJJJJJJ/ADDIIIIJJJ",
        "........../........../........../........../........../........../........../........../........../..........",
    ),
    (  # qc-0611 at its last step: row 5 and column 7 have one way, which rules out no cell
        "AABBCDDD/AEEBEEEC/DEEBEEED/FGBBBGFF/FEEHEEEF/HEEHEEEH/AEEGGGEC/FFGGHHHH",
        "xxxx*xxx/*xxxxxxx/xxxxxxx*/xx*xxxxx/xxxxxx.x/xxx*xxxx/xxxxx*xx/x*xxxxxx",
    ),
]


# Band enumeration: states of LinkedIn Queens levels (samimsu/queens-game-linkedin level221
# and myramblings/queens-game-linkedin community levels 671 and 623; ../shared/corpus
# real-puzzles.jsonl lq-0130, qc-0670, qc-0623). The first is reached by the ladder's own
# steps (confinement applies too); the other two are where the ladder needed a trial before
# (benchmarks/RESULTS.md `logic-bands`)
APPLIES["band-enumeration"] = [
    (
        [
            *("AAAAAAAA", "BCACDADA", "BCCCDDDA", "BBCEEDAA"),
            *("BFCFGDGA", "BFFFGGGA", "BBFHHGBA", "BBBBBBBA"),
        ],
        [
            *("xxxxxxx*", "x.xx.xxx", "x..xx..x", "xxx..xxx"),
            *("x.xxxx.x", "x..xx..x", "xxx..xxx", "*xxxxxxx"),
        ],
        [],
        [[3, 3], [3, 7], [4, 5], [5, 2], [6, 2], [6, 6], [6, 7], [7, 4]],
        [
            *("row 2", "row 3", "row 4", "row 5", "column 2", "column 3", "column 5"),
            *("column 7", "region C"),
        ],
        "A star at any of these 8 cells would leave rows 2-3 (one star each) no way to place "
        "their stars apart, every unit keeping room (row by row, at most 1 star tried), so "
        "they are empty",
    ),
    (
        ["AAAABCD", "EEEEFFF", "EEBDCDC", "FEAAGGG", "FFCDBAG", "EEEEEAA", "CDBEEAG"],
        [".......", ".......", ".......", ".......", ".....x.", ".......", "....x.."],
        [],
        [[2, 4], [3, 5], [3, 7], [4, 2], [4, 3], [4, 4], [4, 5], [7, 4], [7, 6]],
        [
            *("row 1", "row 2", "row 3", "row 4", "row 6", "row 7", "column 1", "column 4"),
            *("column 5", "column 6", "column 7", "region A", "region C", "region D"),
            *("region E", "region F", "region G"),
        ],
        "A star at any of these 9 cells would leave rows 1-2 (one star each) no way to place "
        "their stars apart, every unit keeping room (row by row, at most 6 stars tried), so "
        "they are empty",
    ),
    (
        [
            *("AABAACDDDEE", "AEFEECEEGEE", "AFHFFFEGIGB", "EEFEEFEEGEE", "EEJEBABEKEE"),
            *("CJKJADAKJKC", "EEJEBABEKEE", "EEIEEHEEHEE", "BIGIEHHHFHA", "EEIEECEEEEA"),
            "EEDDDCCABAA",
        ],
        [
            *("...........", "...........", "..x.....x..", "...........", "..........."),
            *("..x.....x..", "...........", "...........", "..x.....x..", "..........."),
            "...........",
        ],
        [],
        [[9, 5]],
        [
            *("row 4", "row 5", "row 9", "column 3", "column 9"),
            *("region E", "region H", "region I"),
        ],
        "A star at (9,5) would leave rows 4-5 (one star each) no way to place their stars "
        "apart, every unit keeping room (row by row, 1 star tried), so (9,5) is empty",
    ),
]
# Pair enumeration's boards: with 2 stars no line needs just one more; qc-0611 at its last
# step has only row 5 needing a star, so no band
DOES_NOT_APPLY["band-enumeration"] = list(DOES_NOT_APPLY["pair-enumeration"])

# Issue 31: states of StarBattleLab experts (../shared/corpus/difficulty.jsonl) where a star
# forcing 2x2 tilings is the step (10x10 but one: the container programs run on crafted
# boards under 10x10, tens of seconds on such states)
APPLIES["tiling-exclusion"] = [
    (  # sblsort-10-2-expert-3202: two tilings at odds
        [
            "ABBBBBCCDD",
            "ABBBBCCDDD",
            "AAAAACCCDD",
            "AAAAECFDDD",
            "GGAAECFDDD",
            "GHAAEEFFFF",
            "GHHAEEFFFF",
            "GHHHHEEFFF",
            "IHHIIEEJJJ",
            "IIIIIEJJJJ",
        ],
        [
            "x.........",
            "x.x.x.xx..",
            "x...x.....",
            "xxx..x.x..",
            "x*x.xx.x..",
            "xxx.......",
            "*x.xxxx...",
            "xx.x*x..xx",
            "*xxxxxxx..",
            "xx...x..xx",
        ],
        [],
        [[1, 3]],
        ["row 2", "region B"],
        "A star at (1,3) would leave row 2's undecided cells in 2 2x2 blocks and region B's "
        "in one, one star each: row 2's blocks put a star at (2,6), which region B's leave "
        "empty, so (1,3) is empty",
    ),
    (  # sblsort-10-2-expert-848: under pressure, rows filled and a region left too little room
        [
            "AAAAAAABBB",
            "CACDDAAAAB",
            "CCCCDAEEAB",
            "CCCDDAEEEB",
            "CCCCDEEEEF",
            "CGGCDDDFFF",
            "CCGCHDIIIF",
            "JCGCHDDDII",
            "JJGCHIIIII",
            "JJJJHHHHHH",
        ],
        [
            "xxxxxx*x*x",
            "..x..xxxxx",
            "xxxxx...x.",
            "..x*xxxxx.",
            ".xxxx*xxx.",
            "xx*xxxx*xx",
            ".xxx*xxxx.",
            ".x*xxxxx.x",
            ".xxxx..x.x",
            "..x..xx.xx",
        ],
        [],
        [[3, 6]],
        ["column 2", "region E", "row 3", "row 4", "region B", "column 6", "region A"],
        "A star at (3,6) would fill its units that need just that star and tile column 2 and "
        "region E by 2x2 blocks, one star each, leaving rows 3-4 full and region B too little "
        "room, so (3,6) is empty",
    ),
    (  # sblsort-10-2-expert-3202 later: a column and a region filled, a row left no room
        [
            "ABBBBBCCDD",
            "ABBBBCCDDD",
            "AAAAACCCDD",
            "AAAAECFDDD",
            "GGAAECFDDD",
            "GHAAEEFFFF",
            "GHHAEEFFFF",
            "GHHHHEEFFF",
            "IHHIIEEJJJ",
            "IIIIIEJJJJ",
        ],
        [
            "x.x.x.....",
            "xxx.x.xx..",
            "x..xx.x...",
            "xxx..x.x..",
            "x*x.xx.x..",
            "xxx.......",
            "*x.xxxx...",
            "xx.x*x.xxx",
            "*xxxxxxx..",
            "xx...x..xx",
        ],
        [],
        [[1, 7]],
        ["row 2", "column 6", "region B", "column 2", "region C", "row 3"],
        "A star at (1,7) would tile row 2, column 6 and region B by 2x2 blocks, one star each: "
        "that fills column 2 and region C and leaves row 3 no room for the 1 more star it "
        "needs, so (1,7) is empty",
    ),
    # sblsort-10-2-expert-33, where its trace needed a trial before: a column left too
    # little room
    (
        [
            "AAAAABBCCC",
            "ABBBBBBBCC",
            "ABBBBDDDCC",
            "EEEEDDFCCC",
            "EEDDDDFFCC",
            "GGDDDHHFCC",
            "GGGIIHHFFC",
            "GJIIIHHHHC",
            "JJJJIHIIHC",
            "JJJJIIIHHC",
        ],
        [
            ".x.....xx.",
            ".x.x.xx.x.",
            "xxxx..x.x.",
            "....xxxxxx",
            "xxxx..x*x.",
            "......xxxx",
            "xx.x...x*x",
            ".x.....xxx",
            "x....x.x.x",
            ".......x.x",
        ],
        [],
        [[5, 5]],
        ["row 4", "row 6", "region E", "column 2"],
        "A star at (5,5) would tile rows 4 and 6 and region E by 2x2 blocks, one star each: "
        "that leaves column 2 room for at most 1 of the 2 stars it needs, so (5,5) is empty",
    ),
    (  # sblsort-9-2-expert-4, under pressure: a 9x9 state, where the programs run too
        [
            "ABBBCCCDD",
            "ABCBCECDD",
            "ABCCCEDDD",
            "ACCEEEEDF",
            "AAGGGEHDF",
            "AGGIIEHDF",
            "AGIIIIHFF",
            "AIIIIHHHF",
            "AHHHHHFFF",
        ],
        [
            "xxx*xx..x",
            "x*xxx.xx.",
            "xxx*x.x..",
            "..xxx...x",
            "xx.x..xx.",
            ".x.x.x.x.",
            "..xx.x.x.",
            ".x.x.x.x.",
            ".x.x..x..",
        ],
        [],
        [[1, 7]],
        ["column 2", "region E", "row 6", "row 1", "region C"],
        "A star at (1,7) would fill row 1 and region C and tile column 2 and region E by 2x2 "
        "blocks, one star each: that leaves row 6 room for at most 1 of the 2 stars it needs, so "
        "(1,7) is empty",
    ),
]
# qc-0677 (11x11 1★, real-puzzles.jsonl), a state of its trace: the tilings' stars fill rows,
# columns and regions; the longer sentences pass 200 characters, so the step names the unit
# left too little room alone
APPLIES["tiling-exclusion"].append(
    (
        [
            "ABBBCBDBBBB",
            "EFDDGHHIEEE",
            "JFDDGHHEJEE",
            "ECKHBHGEECE",
            "EEKEGCGEEEE",
            "KKEEGGGEEKK",
            "EEEEGCGEKEE",
            "ECEEGHBHKCE",
            "EEJEHHGDDFJ",
            "EEEIHHGDDFE",
            "BBBBGBCBBBA",
        ],
        [
            ".xxx.xxxxxx",
            "xx.xxxx.xxx",
            "..xxxxxx.xx",
            "xxx..xxxxxx",
            ".xxxx.xxx..",
            "x.xxx.xxx..",
            "x..x.xxx.x.",
            "xxxxxx..xxx",
            "xx.xxxxxx..",
            "xxx.xxxx.xx",
            "xxxx.x.xxx.",
        ],
        [],
        [[3, 1]],
        [
            "row 1",
            "row 9",
            "region A",
            "region F",
            "column 10",
            "column 11",
            "region C",
            "row 5",
            "row 3",
            "column 1",
            "region J",
        ],
        "A star at (3,1) would fill its units that need just that star and tile rows 1 and 9 "
        "and regions A and F by 2x2 blocks, one star each, leaving row 5 too little room, so "
        "(3,1) is empty",
    )
)
# Where a trial is the step (sblsort-10-2-expert-3650 and -1245, the trials' crafted states):
# no star forces tilings that break a rule
DOES_NOT_APPLY["tiling-exclusion"] = [
    (
        "/".join(APPLIES["assumption-chain"][0][0]),
        "/".join(APPLIES["assumption-chain"][0][1]),
    ),
    ("/".join(APPLIES["assumption"][0][0]), "/".join(APPLIES["assumption"][0][1])),
]

# Tiling cascade (issue 31): states of StarBattleLab experts (../shared/corpus/difficulty.jsonl)
# where the ladder needed a trial before: a star forces tilings whose marks force more (10x10:
# the container programs run on crafted boards under 10x10, tens of seconds on such states)
APPLIES["tiling-cascade"] = [
    (  # sblsort-10-2-expert-4623: two tilings at odds
        [
            "AABBBBBCCC",
            "AAAAACCCCD",
            "EAFFACCCCD",
            "EFFFACCGGD",
            "EFFAAACGDD",
            "EEFFEHHGGH",
            "IEFFEJHHHH",
            "IEEEEJJJHH",
            "IEIJEEEJHJ",
            "IIIJJJJJJJ",
        ],
        [
            "xx....xxxx",
            "..xxxx..x.",
            "x...x.xxx.",
            "xx..x.x*x.",
            "x.....xxx.",
            "....x....x",
            ".....x.xxx",
            ".....x.x.x",
            ".x.....x.x",
            ".........x",
        ],
        [],
        [[4, 3], [6, 3]],
        ["row 5", "region A", "region G", "region H"],
        "A star at (4,3) or (6,3) would tile row 5 and region A by 2x2 blocks, one star "
        "each, and so regions G and H: region G's blocks put a star at (6,8), which "
        "region H's leave empty, so they are empty",
    ),
    (  # sblsort-10-2-expert-5365: a row and a column filled, two tilings at odds
        [
            "AAAAAABBBB",
            "CAAADBBBBB",
            "CCADDDBBBB",
            "CCCCDDDEBB",
            "CCFDDDEEEB",
            "CFFGGGEEEH",
            "FFGGGGGEHH",
            "IIIGGJJHHH",
            "IIIIJJJHHH",
            "IIIJJJJJJH",
        ],
        [
            "x.........",
            ".xx.xx....",
            "......x...",
            ".xxxx.x...",
            ".x*xx...x.",
            "xxxx......",
            "....x.....",
            "xx...x....",
            ".......x..",
            "..........",
        ],
        [],
        [[2, 4]],
        ["region D", "region A", "region C", "row 5", "column 6"],
        "A star at (2,4) would tile region D by 2x2 blocks, one star each, filling row 5 and "
        "column 6, and so regions A and C, which disagree on (1,2), so (2,4) is empty",
    ),
    (  # sblsort-10-2-expert-848: a row filled, two tilings at odds
        [
            "AAAAAAABBB",
            "CACDDAAAAB",
            "CCCCDAEEAB",
            "CCCDDAEEEB",
            "CCCCDEEEEF",
            "CGGCDDDFFF",
            "CCGCHDIIIF",
            "JCGCHDDDII",
            "JJGCHIIIII",
            "JJJJHHHHHH",
        ],
        [
            "..xxx.....",
            "..x..xxxx.",
            "..xxx.....",
            "..x*xxx.x.",
            "..xxx*xxx.",
            ".x.xxxx*x.",
            ".x.x*xxxx.",
            ".x.xxxxx.x",
            ".x.xx..x.x",
            "..x..xx..x",
        ],
        [],
        [[3, 9]],
        ["region B", "region E", "column 6", "column 7", "row 1"],
        "A star at (3,9) would tile regions B and E by 2x2 blocks, one star each, filling row "
        "1, and so columns 6-7: column 6's blocks put a star at (9,6), which column 7's leave "
        "empty, so (3,9) is empty",
    ),
]

# Where a trial is still the step (sblsort-10-2-expert-3650 and -5477): no star forces tilings
# whose marks force more that break a rule
DOES_NOT_APPLY["tiling-cascade"] = [
    (  # sblsort-10-2-expert-5477
        "ABBBBCCCDD/ABBBEECCDD/ABBEECCCCD/AAEEECCCCD/FFEEGGHHCC/FFFEGGHHII/FFFGGGHIII/FFFGHHHIII/FJFGHIIIII/FJJJJJJJJJ",
        "xx...xxx../*x.x....xx/xx.x....x*/........xx/xxx.x.x.../..x.x...xx/......x.../....x...../.xx..x..../x.........",
    ),
    (  # sblsort-10-2-expert-3650
        "AAAABBCCCC/AADDBBEECC/DDDDBBEFFC/DDBBBBEFFC/DDGGGGEFFC/DDGGGGGFFC/HHGGGGGGFC/HHIIIJJJJJ/HHHIIJJJJJ/HHIIIIIJJJ",
        "......x.../..xx....x./...x...x../.....x.xxx/.....x.x../......x.xx/xx......../........xx/.x......../..........",
    ),
]

# Set differentials (issue 31, catalogue row 20): states of StarBattleLab experts
# (../shared/corpus/difficulty.jsonl, sblsort-10-2-expert-532, -4676 and -4623) where the
# ladder needed a trial before
APPLIES["set-differentials"] = [
    (
        [
            *("AAABBBBBCC", "ADDBBEEEEC", "ADDBFECEEC", "ADFFFECCCC", "ADFFFEECGC"),
            *("DDHFIEGGGJ", "DHHFIEGIIJ", "DHIIIIGIJJ", "HHJJIIIIIJ", "HHJJJJJJJJ"),
        ],
        [
            *("..........", ".x.x......", "..........", "..xx......", "..x....x.."),
            *("..x.x.....", ".....x.x..", "..x.......", "..x.......", "..x......."),
        ],
        [],
        [[6, 4], [6, 10], [8, 4], [8, 6], [8, 8]],
        ["row 7", "row 8", "row 9", "row 10", "region I", "region J"],
        "Rows 7-10 need 8 stars, regions I and J 4 stars: the rest of rows 7-10 holds at least "
        "4 stars and fits in 4 2x2 blocks, one star each, so regions I and J have none outside "
        "rows 7-10: 5 cells are empty",
    ),
    (
        [
            *("AAAABBBBCC", "ABAABDBBBC", "ABBBBDBECC", "AFFDDDDECC", "AAFFGGDECC"),
            *("AFFFGGGECC", "HHFGGGEECC", "HFFGGIIIII", "HFGGGJJIII", "HFGGGGJJJJ"),
        ],
        [
            *("..........", "........x.", "....x.x...", "......x.x.", ".........."),
            *("x.....x...", ".....x..xx", ".x.....x..", ".x....x.xx", ".x..xx...."),
        ],
        [],
        [[1, 8], [2, 8], [10, 8]],
        ["column 8", "region E", "region I"],
        "Regions E and I outside column 8 hold at least 2 stars and fit in 2 2x2 blocks, one "
        "star each, so the rest of column 8 is empty: (1,8), (2,8) and (10,8) are empty",
    ),
    (
        [
            *("AABBBBBCCC", "AAAAACCCCD", "EAFFACCCCD", "EFFFACCGGD", "EFFAAACGDD"),
            *("EEFFEHHGGH", "IEFFEJHHHH", "IEEEEJJJHH", "IEIJEEEJHJ", "IIIJJJJJJJ"),
        ],
        [
            *("xx....xxxx", "xxxxxx..x*", "x*x.x.xxxx", "xxxxx.x*x.", "x.....xxx."),
            *("..x.x....x", ".x...x.xxx", ".x...x.x.x", ".x...x.x.x", ".......x.x"),
        ],
        [],
        [[9, 3], [10, 3]],
        ["column 1", "column 2", "region I"],
        "Columns 1-2 need 3 more stars, region I 2 stars: the rest of columns 1-2 holds at "
        "least 1 star and fits in one 2x2 block, so region I has none outside columns 1-2: "
        "(9,3) and (10,3) are empty",
    ),
]
APPLIES["set-differentials"].append(
    (  # sblsort-10-2-expert-488, where the ladder's trace took an assumption chain before
        [
            *("AABBBBBCCC", "AABBBBCCCC", "ADBEECCECC", "DDBBEEEEEE", "DDBBEDFFFF"),
            *("DDDDDDFFGF", "DDDHHDFGGG", "IIHHHDGGIG", "IIIIIIIIII", "IIJJJJJIII"),
        ],
        [
            *("x*x.......", "xxx.......", "*x.x......", "xx........", "x.xxx....."),
            *("x.x.......", ".xxx.x..x.", "xx*x.x..x.", ".xxx.x....", "xx.....xxx"),
        ],
        [],
        [[7, 1]],
        ["row 5", "row 6", "region D"],
        "Rows 5-6 need 4 stars and region D needs 2 stars, so the rest of rows 5-6 holds at "
        "least 2 stars; it fits in 2 2x2 blocks, one star each, so region D has none outside "
        "rows 5-6: (7,1) is empty",
    )
)
# Mixed rows and columns (issue 31: qc-0646's first trial was this argument): states of
# Queens community levels (../shared/corpus/real-puzzles.jsonl, qc-0270, qc-0249 and
# qc-0393) made here by emptying the cells of some regions off a row or column through each
# one's star, then levels 1-4 to their fixpoint. In the last two a region's cell lies on a
# chosen row and a chosen column, which count it twice: it is empty too ((7,5), (4,2))
APPLIES["set-differentials"] += [
    (
        ["ABCDEEF", "GABCDEE", "BBABCDE", "CGGABCD", "DCBBABC", "FDCGGAB", "FFDCBGA"],
        ["x...x.x", ".x....x", ".....x.", "...x.x.", "....x..", ".xx....", "......x"],
        [],
        [[3, 1], [3, 2], [3, 4], [3, 5], [5, 6], [7, 6]],
        ["row 3", "column 6", "region A", "region E"],
        "Regions A and E need 2 stars and lie inside row 3 plus column 6, which need as many, "
        "so the rest of those lines is empty: 6 cells are empty",
    ),
    (
        ["AAABCCB", "DDAECBB", "DAACCCE", "DCCCEEE", "DDCEEFG", "GDDDDDF", "GGFFFFF"],
        ["...xxxx", "xxxxx*x", ".xx.xxx", ".x.x.x.", "...x.x.", "x..x.x.", ".....xx"],
        [],
        [[6, 5], [7, 5]],
        ["row 1", "row 7", "column 5", "column 7", "region A", "region E", "region F", "region G"],
        "Regions A, E, F and G lie inside rows 1 and 7 plus columns 5 and 7, needing as many "
        "stars (a cell on two of them counts twice): (6,5) and (7,5) are empty",
    ),
    (
        ["ABAAAAA", "BBACCAA", "AAAACAD", "AEEAADD", "AEAAFFA", "AAGGFAA", "AAGAAAA"],
        ["x.x.x..", ".xx..xx", ".xxx.x.", "x..xx..", "..xx..x", ".x...xx", ".x.xxxx"],
        [],
        [[3, 1], [4, 2]],
        ["row 2", "row 3", "row 4", "column 2", "region B", "region C", "region D", "region E"],
        "Regions B, C, D and E lie inside rows 2-4 plus column 2, needing as many stars (a "
        "cell on two of them counts twice): (3,1) and (4,2) are empty",
    ),
]
# Rows as regions, and columns as regions: every band less regions leaves a side with more
# room than the stars it holds
DOES_NOT_APPLY["set-differentials"] = [
    ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),
    ("ABCDE/ABCDE/ABCDE/ABCDE/ABCDE", "...../...../...../...../....."),
    # the first mixed case with region A's (7,7) undecided: on neither row 3 nor column 6
    (
        "ABCDEEF/GABCDEE/BBABCDE/CGGABCD/DCBBABC/FDCGGAB/FFDCBGA",
        "x...x.x/.x....x/.....x./...x.x./....x../.xx..../.......",
    ),
]

UNIQUE = {
    # Made here: a by-a-thread swap (stars in opposite columns of two regions) and its
    # transpose and mirror; the ladder makes such steps only when asked (--assume-unique)
    "uniqueness": [
        (
            ["AABBBB", "AABBBB", "DDBBEE", "FFGEEE", "FFGGGE", "FFFFGE"],
            ["..xxxx", "xxxx*x", "..xxxx", "xx.x.x", "xxxxx*", "xx.*.x"],
            [[1, 2], [3, 1], [4, 3]],
            [[1, 1], [3, 2]],
            [
                "row 1",
                "row 3",
                "row 4",
                "column 1",
                "column 2",
                "column 3",
                "region A",
                "region D",
                "region G",
            ],
            "Assuming one solution (by a thread): the 5 walled-off cells from (1,1) take no "
            "filling that another matches unit for unit, so (1,2), (3,1) and (4,3) are stars and "
            "(1,1) and (3,2) are empty",
        ),
        (
            ["AADFFF", "AADFFF", "BBBGGF", "BBBEGF", "BBEEGG", "BBEEEE"],
            [".x.xxx", ".x.xxx", "xxx.x.", "xxxxx*", "x*x.x.", "xxxx*x"],
            [[1, 3], [2, 1], [3, 4]],
            [[1, 1], [2, 3]],
            [
                "row 1",
                "row 2",
                "row 3",
                "column 1",
                "column 3",
                "column 4",
                "region A",
                "region D",
                "region G",
            ],
            "Assuming one solution (by a thread): the 5 walled-off cells from (1,1) take no "
            "filling that another matches unit for unit, so (1,3), (2,1) and (3,4) are stars and "
            "(1,1) and (2,3) are empty",
        ),
        (
            ["BBBBAA", "BBBBAA", "EEBBDD", "EEEGFF", "EGGGFF", "EGFFFF"],
            ["xxxx..", "x*xxxx", "xxxx..", "x.x.xx", "*xxxxx", "x.*.xx"],
            [[1, 5], [3, 6], [4, 4]],
            [[1, 6], [3, 5]],
            [
                "row 1",
                "row 3",
                "row 4",
                "column 4",
                "column 5",
                "column 6",
                "region A",
                "region D",
                "region G",
            ],
            "Assuming one solution (by a thread): the 5 walled-off cells from (1,5) take no "
            "filling that another matches unit for unit, so (1,5), (3,6) and (4,4) are stars and "
            "(1,6) and (3,5) are empty",
        ),
    ],
}
DOES_NOT_APPLY.update(
    {
        "unit-enumeration": [
            ("AAAAA/BBBBB/CCCCC/DDDDD/EEEEE", "...../...../...../...../....."),  # one star each
            (  # every unit needing 2 stars can place them more than 20 ways
                "AAAAAAAAAA/BBBBBBBBBB/CCCCCCCCCC/DDDDDDDDDD/EEEEEEEEEE/"
                "FFFFFFFFFF/GGGGGGGGGG/HHHHHHHHHH/IIIIIIIIII/JJJJJJJJJJ",
                "/".join(["." * 10] * 10),
            ),
            (  # its placements decide nothing more
                "/".join(SHARED_G),
                "xxxx*..xxx/x*xxxxxx*x/xxx*x*xxxx/xxxxxxx*x*/*x*xxxxxxx/xxxxx..x*x/"
                "x*x*xxxxxx/xxxxxxx*x*/xx*x*xxxxx/*xxxxx*xxx",
            ),
        ],
        "m-and-t": [
            (
                "AABBBCCCCC/ADBCCCCEEC/ADBCCBCECC/ADBBBBCECF/ADGCCCCCCF/ADGCCHHHHF/ADGICCCFFF/ADGICCCFJJ/ADGIJJJJJJ/ADDIIIIJJJ",
                ".xx....xx./..x.x...../..x.x.xxx./..x...x*x./.....xxxx./xxxxx....x/.....xxxx./.x.x....x./........../..x.......",
            ),
            (
                "AAABBBBBBC/AAAAADBEBC/AAAAADBEBC/AAAAADBEFC/AGAADDBEFC/AGGGGGGEFC/HGIIIIGCFC/HHHHHIGCFC/HJHHHICCFC/HJJJHICCCC",
                ".......xx./....x.x.x./....x.x.x./....x...../......x.x./.....x..../.x.x...x../.......x../x.xxx.xx../x.x*x.xxx.",
            ),
        ],
        "n-rooks": [
            (
                "AABBBCCCCC/ADBCCCCEEC/ADBCCBCECC/ADBBBBCECF/ADGCCCCCCF/ADGCCHHHHF/ADGICCCFFF/ADGICCCFJJ/ADGIJJJJJJ/ADDIIIIJJJ",
                ".xx....xx./..x.x...../..x.x.xxx./..x...x*x./.....xxxx./xxxxx....x/.....xxxx./.x.x....x./........../..x.......",
            ),
            (
                "ABBBBCCCCC/AAABBCCCCC/AADBDDDCCC/AADDDDDEEE/AADDDFDGEE/AAHDDFGGEE/AHHHFFFGEE/IHHHHFEEEE/IHHHHJJEJE/IHHHHHJJJJ",
                "xx.....x.x/x.xx.x.x.x/x.x....x.x/x....xxxx./x.x.x.x*x./x...x.xxx./xx....x*x./*x..x.xxx./xx.....x.x/*x...x.x.x",
            ),
        ],
        "entanglement": [
            (
                "AABBBCCCCC/ADBCCCCEEC/ADBCCBCECC/ADBBBBCECF/ADGCCCCCCF/ADGCCHHHHF/ADGICCCFFF/ADGICCCFJJ/ADGIJJJJJJ/ADDIIIIJJJ",
                ".xx....xx./..x.x...../..x.x.xxx./..x...x*x./.....xxxx./xxxxx....x/.....xxxx./.x.x....x./........../..x.......",
            ),
            (
                "AAABBBBBBC/AAAAADBEBC/AAAAADBEBC/AAAAADBEFC/AGAADDBEFC/AGGGGGGEFC/HGIIIIGCFC/HHHHHIGCFC/HJHHHICCFC/HJJJHICCCC",
                ".......xx./....x.x.x./....x.x.x./....x...../......x.x./.....x..../.x.x...x../.......x../x.xxx.xx../x.x*x.xxx.",
            ),
        ],
        "uniqueness": [
            (
                "AABBBB/AABBBB/DDBBEE/FFGEEE/FFGGGE/FFFFGE",
                "..xxxx/xxxx*x/..xxxx/xx*x.x/xxxxx*/xx.*.x",
            ),
            (
                "AABBBB/AABBBB/DDBBEE/FFGEEE/FFGGGE/FFFFGE",
                "....../....../....../....../....../......",
            ),
        ],
    }
)


def stars_of(regions: list[str]) -> int:
    """The stars of a crafted board: 2 on 9x9 and 10x10 boards, else 1."""
    return 2 if len(regions) in (9, 10) else 1


def board_of(regions: list[str], stars: int = 1) -> Board:
    return Board.from_rows([list(row) for row in regions], stars)


def state_of(grid: list[str]) -> State:
    cells = [((r, c), mark) for r, row in enumerate(grid, 1) for c, mark in enumerate(row, 1)]
    return State.of(
        [cell for cell, mark in cells if mark == "*"], [cell for cell, mark in cells if mark == "x"]
    )


def view_of(regions: list[str] | str, marks: list[str] | str) -> View:
    """The view of a crafted state (its rows as a list, or joined by slashes)."""
    regions, marks = (
        part.split("/") if isinstance(part, str) else part for part in (regions, marks)
    )
    logic = Logic(board_of(regions, stars_of(regions)))
    return View(logic.grid, *logic.numbers(state_of(marks)))


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
