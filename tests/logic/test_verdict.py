"""The live verdict on crafted boards: region problems, then 0, 1 or 2+ solutions, exactly."""

from __future__ import annotations

from helpers import INSTANCES, PZPRJS, TWO

from starbattle import Board, read_board
from starbattle.exits import Exit
from starbattle.io.inputs import parse_board
from starbattle.logic.verdict import drawn, holds, region_problems, verdict
from starbattle.model.setter import RegionProblem


def problems(text: str) -> tuple[RegionProblem, ...]:
    """The region problems of a picture board, read as a board being drawn."""
    return region_problems(drawn(lambda: parse_board(text)))


def test_too_few_regions() -> None:
    assert problems("stars: 1\nAAB\nAAB\nAAB\n") == (
        RegionProblem(
            "count",
            "the board has 2 regions; a 3x3 board needs 3: split a region in two, e.g. "
            "region A (6 cells)",
            ((1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)),
        ),
    )


def test_too_many_regions() -> None:
    assert problems("stars: 1\nABC\nDDD\nDDD\n") == (
        RegionProblem(
            "count",
            "the board has 4 regions; a 3x3 board needs 3: join a region to a neighbour, e.g. "
            "region A",
            ((1, 1),),
        ),
    )


def test_a_split_region() -> None:
    assert problems("stars: 1\nABA\nBBB\nCCC\n") == (
        RegionProblem(
            "split",
            "region A is in 2 separate pieces: join them, or give the smaller pieces to other "
            "regions",
            ((1, 3),),
        ),
    )


def test_a_region_too_small_for_its_stars() -> None:
    board = "stars: 2\nAAAAAAAABB\nAAAAAAAAAA\n" + "".join(f"{c * 10}\n" for c in "CDEFGHIJ")
    said = problems(board)
    assert said == (
        RegionProblem(
            "small",
            "region B (2 cells) cannot hold 2 stars without two touching: give it more cells",
            ((1, 9), (1, 10)),
        ),
    )
    assert verdict(drawn(lambda: parse_board(board))).code is Exit.NONE


def test_regions_called_by_colour_words_are_named_by_them() -> None:
    words = {"A": "red", "B": "light blue", "C": "green", "D": "grey", "F": "pink"}
    split = Board.from_rows(["ABB", "CAB", "CCB"], 1, words={k: words[k] for k in "ABC"})
    assert [problem.message for problem in region_problems(split)] == [
        "the red region is in 2 separate pieces: join them, or give the smaller pieces to "
        "other regions"
    ]
    judged = verdict(Board.from_rows(["BBFFA", "AAAAA", "CCCCC", "CCDDD", "DDDDD"], 1, words=words))
    assert judged.why is not None and judged.why.sentence == (
        "The light blue and pink regions lie entirely in row 1 and need 2 x 1 = 2 stars there, "
        "but row 1 holds only 1 x 1 = 1"
    )


def test_room_for_stars() -> None:
    assert holds([(1, 1), (1, 2), (1, 3)], 2)
    assert not holds([(1, 1), (1, 2), (2, 1), (2, 2)], 2)
    assert holds([(1, 1)], 1) and not holds([], 1)


def test_no_solution_says_why() -> None:
    judged = verdict(read_board(str(INSTANCES / "crafted-6x6-no-solution.lp")))
    assert (judged.problems, judged.solutions, judged.code) == ((), 0, Exit.NONE)
    assert judged.why is not None
    assert judged.why.sentence == (
        "Regions b and f lie entirely in row 1 and need 2 x 1 = 2 stars there, but row 1 "
        "holds only 1 x 1 = 1"
    )
    assert judged.grade is None and judged.difference is None


def test_one_solution_is_graded() -> None:
    judged = verdict(read_board(PZPRJS), fixed=True)
    assert (judged.solutions, judged.code) == (1, Exit.FOUND)
    assert judged.grade is not None and judged.grade.tier == "medium"
    assert judged.hardest == "exclusion"
    assert judged.fixed is not None and not judged.fixed.open


def test_several_solutions_show_where_two_differ() -> None:
    judged = verdict(read_board(TWO))
    assert judged.solutions == 2 and judged.difference is not None
    assert judged.difference.cells == [
        (1, 2),
        (1, 5),
        (2, 2),
        (2, 5),
        (3, 3),
        (3, 4),
        (5, 3),
        (5, 4),
    ]
    assert judged.grade is None


def test_a_star_count_the_size_cannot_hold() -> None:
    judged = verdict(read_board("stars: 2\nABCD\nABCD\nABCD\nABCD\n"))
    assert [p.kind for p in judged.problems] == ["stars"]
    assert judged.problems[0].message.startswith("2 stars per row cannot fit a 4x4 board")
