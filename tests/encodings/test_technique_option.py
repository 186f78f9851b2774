"""A user's own technique: `hint --technique FILE.lp` and `explain --technique`, at the level
its header declares, every conclusion checked by clingo; each bad file a one-line error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from crafted import BOARD, PAIR
from helpers import ROOT

from starbattle import read_board
from starbattle.logic.programs import Deduction, hint_programs, shipped_hint_programs
from starbattle.logic.registry import TECHNIQUES


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """The board, two states and technique files, by name."""
    written = {
        "board.txt": BOARD,
        "blank.txt": "....x\n.....\n.....\n.....\n.....\n",  # region C keeps (2,5), (3,5)
        "star.txt": "...*x\n.....\n.....\n.....\n.....\n",
        "pair.lp": PAIR.format(level=2),
        "pair1.lp": PAIR.format(level=1),
        "unsound.lp": "% Guess\n% level: 1\n1 { conclude(star,R,C) : undecided(R,C) } 1.\n",
        "nolevel.lp": "% Nothing\nconclude(blank,1,1).\n",
        "badlevel.lp": "% Nothing\n% level: 9\nconclude(blank,1,1).\n",
        "syntax.lp": "% Broken\n% level: 1\nconclude(blank,1,1) :- undecided(1,1)\n",
        "shows.lp": "% Shows\n% level: 1\n#show foo/1.\nfoo(1). conclude(blank,1,1).\n",
        "offboard.lp": "% Off\n% level: 1\nconclude(blank,9,1).\n",
        "kind.lp": "% Kind\n% level: 1\nconclude(maybe,1,1).\n",
        "names.lp": '% Names\n% level: 1\ntechnique("a";"b"). conclude(blank,1,1).\n',
        "blocked.lp": "% Blocked\n% level: 1\nconclude(blank,1,1).\n",
        "unit.lp": "% Unit\n% level: 1\nconclude(blank,1,1). premise_unit(region(z)).\n",
    }
    for name, text in written.items():
        (tmp_path / name).write_text(text)
    return {name: str(tmp_path / name) for name in written}


def step_of(run: Callable[..., Result], files: dict, state: str, *techniques: str) -> dict:
    """The JSON step of `hint` on the board from a state, with techniques added."""
    added = [argument for name in techniques for argument in ("--technique", files[name])]
    result = run("hint", files["board.txt"], files[state], *added, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_a_technique_gives_its_step_at_its_level_before_higher_ones(run, files: dict) -> None:
    result = run("hint", files["board.txt"], files["blank.txt"], "--technique", files["pair.lp"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:3] == [
        "hint: level 2, two-cells",
        "look at: region C",
        "Two-cells on region C: (2,4) and (3,4) are empty",
    ]
    assert step_of(run, files, "blank.txt", "pair.lp") == {
        "type": "step",
        "index": 1,
        "technique": "two-cells",
        "level": 2,
        "premises": {"units": ["region C"], "cells": [[1, 5]]},
        "conclusions": {"stars": [], "blanks": [[2, 4], [3, 4]]},
        "sentence": "Two-cells on region C: (2,4) and (3,4) are empty",
    }
    assert step_of(run, files, "blank.txt")["level"] == 3  # the built-in ladder: 2x2 blocks


def test_lower_and_equal_built_in_levels_come_first(run, files: dict) -> None:
    lower, equal = (
        step_of(run, files, "star.txt", "pair.lp"),
        step_of(run, files, "star.txt", "pair1.lp"),
    )
    assert (lower["technique"], lower["level"]) == ("around-star", 1)
    assert (equal["technique"], equal["level"]) == ("around-star", 1)
    alone = step_of(run, files, "blank.txt", "pair1.lp")
    assert (alone["technique"], alone["level"]) == ("two-cells", 1)


def test_explain_uses_the_technique_and_names_it(run, files: dict) -> None:
    result = run(
        "explain", files["board.txt"], files["blank.txt"], "--technique", files["pair.lp"],
        "-f", "json",
    )  # fmt: skip
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 0 and records[-1]["solved"] is True
    assert (records[0]["technique"], records[0]["level"]) == ("two-cells", 2)


def test_a_shipped_program_as_a_technique_changes_nothing(run, files: dict) -> None:
    forced = str(ROOT / "encodings" / "hints" / "forced-fill.lp")
    plain = run("explain", files["board.txt"], files["blank.txt"]).stdout
    assert run("explain", files["board.txt"], files["blank.txt"], "--technique", forced).stdout == (
        plain
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "unsound.lp",
            "{file}: unsound: it concludes that (1,1) is a star, which the rules and the marks "
            "do not force",
        ),
        (
            "nolevel.lp",
            "{file}: the header declares no level: add a line '% level: L' (L from 1 to 7, "
            "where the ladder tries it)",
        ),
        (
            "badlevel.lp",
            "{file}:2: level '9' is not on the ladder: write '% level: L' with L from 1 to 7",
        ),
        ("syntax.lp", "{file}:4:1: error: syntax error, unexpected EOF"),
        (
            "shows.lp",
            "{file}: an answer set shows foo(1), which is not an output atom: show only "
            "conclude(star|blank,R,C), premise_unit(row(R)|column(C)|region(K)), "
            "premise_cell(R,C), technique(NAME)",
        ),
        (
            "offboard.lp",
            "{file}: an answer set shows conclude(blank,9,1), which is no cell of the 5x5 board",
        ),
        ("kind.lp", "{file}: an answer set shows conclude(maybe,1,1), which is not an output atom"),
        ("unit.lp", "{file}: an answer set shows premise_unit(region(z)), which is not an output"),
        (
            "names.lp",
            "{file}: an answer set names the technique 2 ways (a, b): show one technique(NAME)",
        ),
    ],
)
def test_a_bad_technique_is_one_line_and_exit_2(run, files: dict, name: str, message: str) -> None:
    for command in ("hint", "explain"):
        result = run(command, files["board.txt"], "--technique", files[name])
        assert result.exit_code == 2 and result.stdout == ""
        [line] = result.stderr.splitlines()
        assert line.startswith("starbattle-asp: error: " + message.format(file=files[name]))


def test_a_conclusion_about_a_blocked_cell_is_refused(run, files: dict, tmp_path: Path) -> None:
    board = tmp_path / "blocked.txt"
    board.write_text(BOARD + "\n#....\n.....\n.....\n.....\n.....\n")
    result = run("hint", str(board), "--technique", files["blocked.lp"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"starbattle-asp: error: {files['blocked.lp']}: an answer set shows conclude(blank,1,1), "
        "which is a blocked cell: conclude only about cells in a region\n"
    )


def test_conclusions_about_decided_cells_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "again.lp"
    path.write_text(
        "% Again\n% level: 1\nconclude(blank,R,C) :- decided_blank(R,C).\nconclude(blank,1,1).\n"
    )
    [program] = hint_programs([str(path), str(path)])  # the same file once
    assert program.deductions(read_board(BOARD), [], [(1, 5)]) == [
        Deduction("again", frozenset(), frozenset(), frozenset(), frozenset({(1, 1)}))
    ]


def test_the_readme_shows_this_technique() -> None:
    assert PAIR.format(level=2) in (ROOT / "README.md").read_text()


def test_a_missing_technique_file_is_named(run, files: dict) -> None:
    result = run("hint", files["board.txt"], "--technique", "nowhere.lp")
    assert result.exit_code == 2
    assert result.stderr == "starbattle-asp: error: no such technique file: nowhere.lp\n"


def test_encodings_lists_the_hint_programs_with_level_and_title(run) -> None:
    lines = run("encodings").stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("hint programs ("))
    listed = [line.split(maxsplit=3) for line in lines[start + 1 :]]
    programs = shipped_hint_programs()
    in_order = [technique.name for technique in TECHNIQUES if technique.name in programs]
    assert [(name, int(level)) for name, _, level, _ in listed] == [
        (name, programs[name].level) for name in in_order
    ]
    assert all(title == programs[name].title for name, _, _, title in listed)
    assert listed[0][3] == (
        "Around a star: no two stars touch, so the undecided cells around a star are empty."
    )
