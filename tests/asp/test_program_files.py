"""Program files: a user's encoding that is not UTF-8 or holds non-ASCII code is one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import PZPRJS

from starbattle import EncodingError, read_board
from starbattle.asp.solver import Solver


@pytest.mark.parametrize(
    ("content", "place"),
    [(b"caf\xe9(1).\n", ":1:4: not UTF-8 text (byte 3)"), (b"a.\nx :- \xff.\n", ":2:6:")],
)
def test_d21_program_that_is_not_utf8_is_one_line(
    tmp_path: Path, content: bytes, place: str
) -> None:
    program = tmp_path / "mine.lp"
    program.write_bytes(content)
    with pytest.raises(EncodingError, match=r"^.*mine\.lp" + re.escape(place)):
        Solver(read_board(PZPRJS), encoding=str(program))
    with pytest.raises(EncodingError, match=r"mine\.lp" + re.escape(place)):
        Solver(read_board(PZPRJS), variants=(str(program),))


def test_d21_included_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "rules.lp").write_bytes(b"% rules\ncaf\xe9(1).\n")
    (tmp_path / "main.lp").write_text('#include "rules.lp".\n')
    with pytest.raises(EncodingError, match=r"rules\.lp:2:4: not UTF-8 text \(byte 11\)"):
        Solver(read_board(PZPRJS), encoding=str(tmp_path / "main.lp"))


def test_d21_character_beyond_ascii_in_code_is_one_line(tmp_path: Path) -> None:
    program = tmp_path / "mine.lp"
    program.write_text('% café\n%* é *%\na("é\\"é").\n:- a(X), #count { R,²C : star(R,C) } > 1.\n')
    with pytest.raises(EncodingError, match=r"mine\.lp:4:21: the character '²' \(U\+00B2\)"):
        Solver(read_board(PZPRJS), encoding=str(program))
