"""The hint and explain commands: what each disclosure level says, JSON records, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers import INSTANCES

from starbattle.cli import cli

TEN = str(INSTANCES / "generated-10x10-2star.lp")


def run(*args: str) -> object:
    """Run the CLI in-process."""
    return CliRunner().invoke(cli, list(args))


def test_hint_discloses_technique_then_where_then_the_whole_step() -> None:
    technique = run("hint", TEN, "--disclose", "technique")
    assert technique.exit_code == 0 and technique.stdout == "hint: level 3, 2x2-blocks\n"
    where = json.loads(run("hint", TEN, "--disclose", "where", "-f", "json").stdout)
    assert where == {
        "type": "step",
        "index": 1,
        "technique": "2x2-blocks",
        "level": 3,
        "premises": {"units": ["region 4"], "cells": []},
    }
    full = json.loads(run("hint", TEN, "-f", "json").stdout)
    assert full["conclusions"] == {
        "stars": [],
        "blanks": [[4, 5], [4, 6], [6, 5], [6, 6], [6, 7]],
    }
    assert full["sentence"] == (
        "Region 4 needs 2 stars and its undecided cells fit in 2 2x2 blocks, one star each, "
        "so 5 cells are empty"
    )
    text = run("hint", TEN, "--ascii").stdout.splitlines()
    assert text[:2] == ["hint: level 3, 2x2-blocks", "look at: region 4"]
    assert text[6:9] == [
        "3 3 3 3 3 3 3 3 3 3    . . . . X X . . . .",
        "7 7 5 5 4 4 4 4 3 3    . . . . ? ? ? ? . .",
        "7 7 5 5 5 5 5 4 6 6    . . . . X X X ? . .",
    ]


def test_a_wrong_mark_is_named_before_anything_else(tmp_path: Path) -> None:
    state = tmp_path / "marks.txt"
    state.write_text("*" + "." * 9 + "\n" + ("." * 10 + "\n") * 9)  # (1,1) is empty in truth
    step = json.loads(run("hint", TEN, str(state), "-f", "json").stdout)
    assert step["level"] == 0 and [1, 1] in step["premises"]["cells"]


def test_explain_walks_to_the_end_and_sums_up() -> None:
    result = run("explain", TEN)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("  1. [3 2x2-blocks] Region 4 needs 2 stars")
    assert lines[-1].startswith("solved by logic in ")
    records = [json.loads(line) for line in run("explain", TEN, "-f", "json").stdout.splitlines()]
    assert records[-1]["type"] == "explain" and records[-1]["solved"] is True
    assert records[-1]["steps"] == len(records) - 1
    assert all(record["type"] == "step" for record in records[:-1])


def test_hint_picture_outlines_the_premises(tmp_path: Path) -> None:
    target = tmp_path / "hint.svg"
    result = run("hint", TEN, "-f", "svg", "-o", str(target))
    assert result.exit_code == 0 and "wrote" in result.stderr
    assert target.read_text().startswith("<svg") or "<svg" in target.read_text()
