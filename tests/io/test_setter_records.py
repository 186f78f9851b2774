"""The setter's records and the format a suggested board is written in."""

from __future__ import annotations

import pytest
from helpers import NORVIG_FIX, TWO

from starbattle import read_board
from starbattle.io.inputs import format_for, records
from starbattle.io.records import record
from starbattle.model.board import Board, RegionCountError
from starbattle.model.setter import Move, RegionProblem, Suggested, Suggestion
from starbattle.model.values import BoardVerdict


def test_suggestion_and_summary_records() -> None:
    board = read_board(TWO)
    fixed = Board.from_rows(["aaccc", "abddc", "abdde", "aeeee", "aeeee"], 1)
    made = Suggestion(1, board, (Move((1, 2), "b", "a"),), fixed, 1, 2)
    assert record(made) == {**NORVIG_FIX, "grade": None}
    assert record(Suggested(board, 2, 1, 3, True, 0.25)) == {
        "type": "suggested",
        "before": 2,
        "suggestions": 1,
        "tried": 3,
        "complete": True,
        "seconds": 0.25,
    }


def test_verdict_record_of_a_board_with_problems() -> None:
    problem = RegionProblem("split", "region A is in 2 separate pieces", ((1, 3),))
    made = record(BoardVerdict(read_board(TWO), (problem,), seconds=0.5))
    assert made == {
        "type": "verdict",
        "valid": False,
        "problems": [
            {"kind": "split", "message": "region A is in 2 separate pieces", "cells": [[1, 3]]}
        ],
        "solutions": None,
        "unique": None,
        "why": None,
        "difference": None,
        "fixed": None,
        "grade": None,
        "hardest": None,
        "seconds": 0.5,
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [("out.lp", "lp"), ("out.JSON", "json"), ("out.svg", "svg"), ("out.png", "png"),
     ("out.sbn", "sbn"), ("out", "lp"), ("out.board", "lp")],
)  # fmt: skip
def test_a_written_board_takes_the_extensions_format_else_the_inputs(name, expected) -> None:
    assert format_for(name, records(TWO)[0]) == expected


def test_a_board_with_the_wrong_number_of_regions_is_carried_by_its_error() -> None:
    with pytest.raises(RegionCountError) as caught:
        Board.from_rows(["AAB", "AAB", "AAB"], 1)
    assert caught.value.board.region_labels == ("A", "B")
    assert "has 2 regions; it needs exactly 3" in str(caught.value)
