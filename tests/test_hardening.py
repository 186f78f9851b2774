"""Limits, atomic output files and the last-resort error line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import INSTANCES

from starbattle import Board, BoardError
from starbattle.cli.main import cli
from starbattle.io.files import write_atomic
from starbattle.limits import MAX_SIZE

PZPRJS = str(INSTANCES / "pzprjs-6x6-1star.lp")


def test_board_size_limit() -> None:
    size = MAX_SIZE + 1
    with pytest.raises(BoardError, match=f"has {size} rows; at most {MAX_SIZE}"):
        Board.from_rows([[str(r)] * size for r in range(size)], 1)


def test_huge_input_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"A" * (17 * 1024 * 1024))
    result = CliRunner().invoke(cli, [str(path)])
    assert result.exit_code == 2 and "larger than 16 MiB" in result.stderr


def test_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "board.json"
    target.write_text("the good old content")

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new content")
    assert target.read_text() == "the good old content"
    assert [p.name for p in tmp_path.iterdir()] == ["board.json"]  # no temporary file left


def test_unwritable_output_is_a_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["convert", PZPRJS, "--to", "json", "-o", str(tmp_path / "missing" / "x.json")]
    )
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_internal_error_is_one_line_and_debug_shows_the_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("starbattle.cli.running.records", broken)
    result = CliRunner().invoke(cli, [PZPRJS])
    assert result.exit_code == 70
    assert result.stderr.count("\n") == 1
    assert "internal error: ZeroDivisionError: a bug (please report it" in result.stderr
    result = CliRunner().invoke(cli, ["--debug", PZPRJS])
    assert result.exit_code == 70 and "Traceback" in result.stderr


def test_count_with_a_time_limit_says_at_least(tmp_path: Path) -> None:
    path = tmp_path / "rows14.txt"
    path.write_text("stars: 1\n" + "\n".join(chr(65 + r) * 14 for r in range(14)) + "\n")
    result = CliRunner().invoke(cli, [str(path), "--count", "--timeout", "0.2"])
    assert result.exit_code == 0
    assert result.stdout.startswith("at least ") and "the count is incomplete" in result.stdout
