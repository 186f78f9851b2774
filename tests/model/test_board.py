"""Boards: their size limit, their regions counted and named."""

from __future__ import annotations

from pathlib import Path

import pytest

from starbattle import Board, BoardError
from starbattle.limits import MAX_SIZE


def test_board_size_limit() -> None:
    size = MAX_SIZE + 1
    with pytest.raises(BoardError, match=f"has {size} rows; at most {MAX_SIZE}"):
        Board.from_rows([[str(r)] * size for r in range(size)], 1)


def test_a_wrong_region_count_names_the_labels(run, tmp_path: Path) -> None:
    board = tmp_path / "colours.txt"
    board.write_text("red red gray\nred grey gray\nblue blue gray\n")
    result = run(str(board), "-s", "1")
    assert result.exit_code == 2
    assert "(labels: red, gray, grey, blue; the same region? gray and grey)" in result.stderr
