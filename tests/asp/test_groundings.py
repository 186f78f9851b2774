"""Shared groundings per board shape: the first board alone, the second builds, the rest reuse."""

from __future__ import annotations

import subprocess
import sys

from helpers import INSTANCES

from starbattle import Board, Solver, read_board
from starbattle.asp.shapes import SEEN, SHAPES


def three_boards() -> list[Board]:
    """Three different 6x6 1-star boards: a shipped one, mirrored and transposed."""
    board = read_board(str(INSTANCES / "pzprjs-6x6-1star.lp"))
    rows = [list(row) for row in board.regions]
    return [
        Board.from_rows(rows, 1),
        Board.from_rows([row[::-1] for row in rows], 1),
        Board.from_rows([list(column) for column in zip(*rows, strict=True)], 1),
    ]


def test_a_shape_is_shared_from_its_second_board_on() -> None:
    SHAPES.clear()
    SEEN.clear()
    first, second, third = three_boards()
    assert len(list(Solver(first).solutions(2))) == 1
    assert not SHAPES and len(SEEN) == 1  # a lone board is grounded on its own
    assert len(list(Solver(second).solutions(2))) == 1
    assert len(SHAPES) == 1 and not SEEN
    (shape,) = SHAPES.values()
    assert len(list(Solver(third).solutions(2))) == 1
    assert list(SHAPES.values()) == [shape]  # reused, switched to the third board


def test_a_board_too_large_to_share_leaves_the_shared_groundings_unloaded() -> None:
    """The cold start of `starbattle-asp FILE` on such a board imports no module for them."""
    path = INSTANCES / "generated-10x10-2star.lp"
    code = (
        "import sys; from starbattle import Solver, read_board; "
        f"assert len(list(Solver(read_board({str(path)!r})).solutions(2))) == 1; "
        "print('starbattle.asp.shapes' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"
