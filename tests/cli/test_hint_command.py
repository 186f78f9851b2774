"""The hint and explain commands: what each disclosure level says, JSON records, exit codes."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

from helpers import BIG, CHAIN_BOARD, CHAIN_MARKS, GIVEN, INSTANCES, PZPRJS, SEVERAL, TEN, start

from starbattle.io.inputs import read_board
from starbattle.logic.ladder import explain
from starbattle.web.api import marks_grid


def test_hint_discloses_technique_then_where_then_the_whole_step(run) -> None:
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


def test_a_wrong_mark_is_named_before_anything_else(run, tmp_path: Path) -> None:
    state = tmp_path / "marks.txt"
    state.write_text("*" + "." * 9 + "\n" + ("." * 10 + "\n") * 9)  # (1,1) is empty in truth
    step = json.loads(run("hint", TEN, str(state), "-f", "json").stdout)
    assert step["level"] == 0 and [1, 1] in step["premises"]["cells"]


def test_explain_walks_to_the_end_and_sums_up(run) -> None:
    result = run("explain", TEN)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("  1. [3 2x2-blocks] Region 4 needs 2 stars")
    assert lines[-1].startswith("solved by logic in ")
    records = [json.loads(line) for line in run("explain", TEN, "-f", "json").stdout.splitlines()]
    assert records[-1]["type"] == "explain" and records[-1]["solved"] is True
    assert records[-1]["steps"] == len(records) - 1
    assert all(record["type"] == "step" for record in records[:-1])


def test_hint_picture_outlines_the_premises(run, tmp_path: Path) -> None:
    target = tmp_path / "hint.svg"
    result = run("hint", TEN, "-f", "svg", "-o", str(target))
    assert result.exit_code == 0 and "wrote" in result.stderr
    assert target.read_text().startswith("<svg") or "<svg" in target.read_text()


def test_e29_ctrl_c_during_explain_exits_130_with_the_steps_so_far_whole() -> None:
    """explain streams its steps; Ctrl-C (SIGINT) stops the clingo proofs of level 7 too."""
    child = start(["explain", BIG])
    assert child.stdout is not None
    first = child.stdout.readline()  # printed as found, long before the trace ends
    assert first.startswith("  1. [")
    child.send_signal(signal.SIGINT)
    rest, errors = child.communicate(timeout=60)
    assert child.returncode == 130, errors
    assert "Traceback" not in errors and "terminate" not in errors
    lines = [first, *rest.splitlines(keepends=True)]
    assert all(re.match(r" *\d+\. \[\d [a-z0-9-]+\] .+\n\Z", line) for line in lines), lines[-1]


def test_hint_explain_and_grade_keep_a_time_limit(run) -> None:
    hint = run("hint", str(INSTANCES / "generated-25x25-6star.lp"), "--timeout", "0.001")
    assert hint.exit_code == 3
    assert hint.stderr == (
        "starbattle-asp: warning: the time limit was reached before a step was found\n"
    )
    explained = run("explain", BIG, "--timeout", "1", "-f", "json")
    assert explained.exit_code == 3
    summary = json.loads(explained.stdout.splitlines()[-1])
    assert summary["type"] == "explain" and summary["complete"] is False
    assert summary["steps"] == len(explained.stdout.splitlines()) - 1
    graded = run("grade", BIG, "--timeout", "0.001", "-f", "json")
    assert graded.exit_code == 3
    assert json.loads(graded.stdout)["reason"] == "no grade: the time limit was reached first"


def test_a_technique_that_grounds_forever_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    endless = tmp_path / "endless.lp"
    endless.write_text("% Endless: grounds for ever.\n%\n% level: 1\np(0). p(X+1) :- p(X).\n")
    child = start(["hint", PZPRJS, "--technique", str(endless), "--timeout", "1"])
    out, errors = child.communicate(timeout=60)
    assert child.returncode == 3 and out == ""
    assert errors == "starbattle-asp: the time limit was reached while grounding the program\n"


def test_a_technique_with_answer_sets_beyond_count_is_refused(run, tmp_path: Path) -> None:
    wide = tmp_path / "wide.lp"
    wide.write_text(
        "% Wide: any premise cells.\n%\n% level: 1\n{ premise_cell(R,C) : R = 1..6, C = 1..6 }.\n"
    )
    result = run("hint", PZPRJS, "--technique", str(wide))
    assert result.exit_code == 2
    assert "more than 10,000 answer sets on this board" in result.stderr


def test_hint_records_say_solved_and_stuck(run, tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("....*\n.*...\n...*.\n*....\n..*..\n")  # the solution, as marks
    solved = run("hint", GIVEN, str(answer), "-f", "json")
    assert solved.exit_code == 0 and json.loads(solved.stdout) == {"type": "solved"}
    board = read_board(SEVERAL)
    end = explain(board).state  # where logic gets stuck: the solutions differ in the rest
    marks = tmp_path / "end.txt"
    marks.write_text(marks_grid(board.size, sorted(end.stars), sorted(end.blanks)))
    stuck = run("hint", SEVERAL, str(marks), "-f", "json")
    assert stuck.exit_code == 1 and json.loads(stuck.stdout) == {"type": "stuck", "complete": True}


def test_hint_and_explain_warn_first_when_the_board_has_several_solutions(run) -> None:
    warning = (
        "starbattle-asp: warning: the board has more than one solution: steps decide only what "
        "every solution shares, so logic alone cannot finish it\n"
    )
    assert run("hint", SEVERAL).stderr == warning
    explained = run("explain", SEVERAL)
    assert explained.exit_code == 1 and explained.stderr == warning
    assert explained.stdout.splitlines()[-1].startswith("stuck after ")


def test_hint_starts_from_a_pzprv3_files_saved_marks(run, tmp_path: Path) -> None:
    saved = tmp_path / "saved.txt"
    text = run("convert", GIVEN, "--to", "pzprv3").stdout  # the board, no marks yet
    marks = "# . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"  # (1,1): a wrong star
    saved.write_text(text.rstrip("\n").rsplit("\n", 5)[0] + "\n" + marks)
    result = run("hint", str(saved), "-f", "json")
    assert "starting from its saved marks (1 star, 0 marked empty" in result.stderr
    step = json.loads(result.stdout)
    assert step["technique"] == "mistake" and step["conclusions"]["blanks"] == [[1, 1]]
    as_givens = run("hint", str(saved), "--givens")
    assert as_givens.exit_code == 2 and "no solution" in as_givens.stderr


def test_marks_that_contradict_a_given_are_refused(run, tmp_path: Path) -> None:
    marks = tmp_path / "marks.txt"
    marks.write_text("....x\n.....\n.....\n.....\n.....\n")
    said = "starbattle-asp: error: {}: (1,5) is marked empty but the board gives it as a star: "
    for command in ("hint", "explain", "check"):
        result = run(command, GIVEN, str(marks), *(["--partial"] if command == "check" else []))
        assert result.exit_code == 2, command
        assert result.stderr == said.format(marks) + "remove that mark\n", command


def test_explain_with_the_grade_exits_0_when_logic_solves_the_board(run) -> None:
    result = run("explain", TEN, "--grade", "-f", "json")
    assert result.exit_code == 0
    *_, explained, graded = (json.loads(line) for line in result.stdout.splitlines())
    assert explained["solved"] is True and graded["type"] == "grade"


def test_a_level_in_other_digits_is_refused(run, tmp_path: Path) -> None:
    arabic = tmp_path / "arabic.lp"
    arabic.write_text("% Arabic: a level in Arabic-Indic digits.\n%\n% level: \u0663\n")
    result = run("hint", GIVEN, "--technique", str(arabic))
    assert result.exit_code == 2 and "is not on the ladder" in result.stderr


def test_a_trial_shows_its_chain_as_numbered_lines_and_in_its_record(run, tmp_path: Path) -> None:
    board, marks = tmp_path / "board.txt", tmp_path / "marks.txt"
    board.write_text(CHAIN_BOARD)
    marks.write_text(CHAIN_MARKS)
    text = run("hint", str(board), str(marks), "--ascii")
    assert text.exit_code == 0
    assert text.stdout.splitlines()[:8] == [
        "hint: level 6, assumption-chain",
        "look at: row 2, column 1, region D, region F, region J",
        "If (7,4) were a star, then after 3 steps region D would have too little room for its "
        "stars, so (7,4) is empty",
        "  1. Suppose (7,4) is a star; the cells around it are empty",
        "  2. Region J needs 2 stars and its undecided cells fit in 2 2x2 blocks, one star each, "
        "so (8,2) and (10,1) are stars and (7,1), (8,1) and (9,1) are empty",
        "  3. Region F needs 2 stars and its undecided cells fit in 2 2x2 blocks, one star each, "
        "so (6,1) is a star and (5,2) and (6,2) are empty; column 1 then has its 2 stars, so its "
        "other cells are empty",
        "  4. Row 2 needs 2 stars and has just 2 undecided cells, so they are all stars; the cells "
        "around (2,5) are empty",
        "  5. Region D needs 2 stars but its undecided cells fit in 1 2x2 block, which holds one "
        "star: a contradiction",
    ]
    explained = run("explain", str(board), str(marks)).stdout.splitlines()
    assert explained[:3] == [
        "  1. [6 assumption-chain] If (7,4) were a star, then after 3 steps region D would have "
        "too little room for its stars, so (7,4) is empty",
        "       1. Suppose (7,4) is a star; the cells around it are empty",
        "       2. Region J needs 2 stars and its undecided cells fit in 2 2x2 blocks, one star "
        "each, so (8,2) and (10,1) are stars and (7,1), (8,1) and (9,1) are empty",
    ]
    record = json.loads(run("hint", str(board), str(marks), "-f", "json").stdout)
    assert [link["technique"] for link in record["chain"]] == [
        *("suppose", "2x2-blocks", "2x2-blocks", "forced-fill", "broken-rule"),
    ]
    assert record["chain"][0] == {
        "type": "step",
        "index": 1,
        "technique": "suppose",
        "level": 6,
        "premises": {"units": [], "cells": [[7, 4]]},
        "conclusions": {
            "stars": [[7, 4]],
            "blanks": [[6, 3], [6, 4], [6, 5], [8, 3], [8, 4], [8, 5]],
        },
        "sentence": "Suppose (7,4) is a star; the cells around it are empty",
    }
    assert record["chain"][-1] == {
        "type": "step",
        "index": 5,
        "technique": "broken-rule",
        "level": 0,
        "premises": {
            "units": ["region D"],
            "cells": [
                *([2, 2], [2, 3], [2, 4], [2, 5], [3, 1], [3, 4], [3, 5], [4, 1], [4, 5]),
                *([5, 2], [6, 1], [6, 2]),
            ],
        },
        "conclusions": {"stars": [], "blanks": []},
        "sentence": "Region D needs 2 stars but its undecided cells fit in 1 2x2 block, which "
        "holds one star: a contradiction",
    }
    where = json.loads(
        run("hint", str(board), str(marks), "--disclose", "where", "-f", "json").stdout
    )
    assert "chain" not in where and "sentence" not in where
