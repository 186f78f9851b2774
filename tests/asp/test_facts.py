"""Facts: boards as ASP facts, region labels as terms that stay apart."""

from __future__ import annotations

from helpers import PZPRJS

from starbattle import Board, check, read_board, write_board
from starbattle.asp.facts import region_terms
from starbattle.asp.solver import Solver
from starbattle.io.inputs import parse_board


def relabelled(board: Board, labels: list[str]) -> Board:
    """The board with its regions renamed, in order of first appearance."""
    names = dict(zip(board.region_labels, labels, strict=True))
    return Board.from_rows([[names[label] for label in row] for row in board.regions], board.stars)


def test_d2_huge_integer_labels_stay_apart() -> None:
    board = read_board(PZPRJS)
    (truth,) = Solver(board).solutions(0)
    huge = relabelled(board, [str(1 + k * 2**32) for k in range(board.size)])  # 1, 4294967297...
    solutions = list(Solver(huge).solutions(0))
    assert [s.stars for s in solutions] == [truth.stars]
    assert not check(huge, solutions[0].stars)
    assert parse_board(str(write_board(huge, "lp"))).region_cells().keys() == set(
        region_terms(huge).values()
    )


def test_d2_keyword_label_not_is_renamed() -> None:
    board = relabelled(read_board(PZPRJS), ["not", "a", "b", "c", "d", "e"])
    assert region_terms(board)["not"] != "not"
    assert len(list(Solver(board).solutions(0))) == 1


def test_d2_small_integer_and_constant_labels_stay() -> None:
    board = relabelled(read_board(PZPRJS), ["-999999999", "999999999", "0", "x", "y'", "z_1"])
    assert region_terms(board) == {label: label for label in board.region_labels}
