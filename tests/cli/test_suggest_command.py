"""The suggest command: exact output, exit codes, -o in the input's format or by extension."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import INSTANCES, NORVIG_FIX, PZPRJS, TWO

from starbattle import read_board
from starbattle.asp.solver import Solver

SEVERAL = str(INSTANCES / "planted-10x10-2star-several.lp")
NONE = str(INSTANCES / "crafted-6x6-no-solution.lp")


def timeless(text: str) -> str:
    """Output with its timings masked."""
    return re.sub(r"\d+\.\d+ s\)", "T s)", re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text))


def test_text_output_is_exact(run) -> None:
    result = run("suggest", TWO, "-n", "1")
    assert result.exit_code == 0
    assert timeless(result.stdout) == (
        "suggestion 1: move (1,2) from region b to region a: unique, medium (score 1.066)\n"
        "a a c c c    . o . . .\n"
        "a b d d c    . . . . .\n"
        "a b d d e    . . . . .\n"
        "a e e e e    . . . . .\n"
        "a e e e e    . . . . .\n"
        "\n"
        "the board has 2 or more solutions; 1 suggestion (2 boards tried, T s)\n"
    )


def test_json_records(run) -> None:
    result = run("suggest", TWO, "-n", "1", "-f", "json")
    suggestion, summary = (json.loads(line) for line in result.stdout.splitlines())
    assert {k: v for k, v in suggestion.items() if k != "grade"} == NORVIG_FIX
    assert suggestion["grade"]["tier"] == "medium"
    assert summary == {
        "type": "suggested",
        "before": 2,
        "suggestions": 1,
        "tried": 2,
        "complete": False,
        "seconds": summary["seconds"],
    }


@pytest.mark.parametrize(
    ("arguments", "code", "last"),
    [
        ((PZPRJS,), 0, "the board has exactly one solution: nothing to fix"),
        ((SEVERAL, "--max-moves", "1"), 1, "no edit of the regions tried gives exactly one"),
        ((SEVERAL, "--timeout", "0.01"), 3, "the time limit of 0.01 s was reached before"),
        ((NONE, "-n", "1"), 0, "the board has no solution; 1 suggestion"),
    ],
    ids=["unique", "none-works", "time-limit", "no-solution"],
)
def test_exit_codes(run, arguments: tuple[str, ...], code: int, last: str) -> None:
    result = run("suggest", *arguments)
    assert result.exit_code == code
    assert last in result.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("name", "starts"),
    [("fixed.lp", "% Star Battle 5x5"), ("fixed.json", '{"stars": 1'), ("fixed", "% Star")],
)
def test_output_writes_the_first_suggestions_board(run, tmp_path: Path, name, starts) -> None:
    target = tmp_path / name
    result = run("suggest", TWO, "-n", "1", "-o", str(target))
    assert result.exit_code == 0
    assert target.read_text().startswith(starts)
    board = read_board(str(target), stars=1)
    assert len(list(Solver(board).solutions(2))) == 1


def test_output_is_not_written_without_a_suggestion(run, tmp_path: Path) -> None:
    target = tmp_path / "fixed.lp"
    result = run("suggest", SEVERAL, "--max-moves", "1", "-o", str(target))
    assert result.exit_code == 1 and not target.exists()
    assert "no suggestion, so no board was written" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("missing.lp",), "starbattle-asp: error: missing.lp: no such file"),
        ((TWO, "--max-moves", "3"), "Invalid value for '--max-moves': 3 is not in the range"),
        ((TWO, "--tier", "harder"), "Invalid value for '--tier': 'harder' is not one of"),
        ((TWO, "-n", "-1"), "Invalid value for '-n' / '--most'"),
    ],
)
def test_bad_inputs_get_one_line(run, arguments: tuple[str, ...], said: str) -> None:
    result = run("suggest", *arguments)
    assert result.exit_code == 2
    assert said in result.stderr
    assert "Traceback" not in result.stderr


def test_ctrl_c_stops_a_search_at_once() -> None:
    import signal
    import time

    from helpers import start

    child = start(["suggest", str(INSTANCES / "generated-14x14-3star.lp"), "--tier", "easy"])
    time.sleep(2.0)
    child.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert time.monotonic() - stopped < 5 and "Traceback" not in err
