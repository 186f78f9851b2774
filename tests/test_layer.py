"""The one input path, the result layer and its formatters, and the defects found on the way."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import INSTANCES, ROOT, corpus, needs_corpus, start

from starbattle import read_board
from starbattle.asp.encodings import encodings_dir
from starbattle.asp.solver import Solver
from starbattle.cli.main import cli
from starbattle.exits import Exit, Verdict
from starbattle.io.inputs import records
from starbattle.model.values import Found, Outcome, Summary
from starbattle.run.service import SolveRequest, solve_all

PZPRJS = str(INSTANCES / "pzprjs-6x6-1star.lp")
TWO = str(INSTANCES / "norvig-5x5-1star.lp")
SIX = "stars: 1\nAAABBB\nABBBCC\nADDEEC\nFFDDEC\nFEEEEC\nFCCCCC\n"


def run(*args: str) -> object:
    """Run the CLI in-process."""
    return CliRunner().invoke(cli, list(args))


def test_the_result_layer_is_values() -> None:
    items = solve_all(SolveRequest(), records(TWO)[0])
    kinds = [type(item).__name__ for item in items]
    assert kinds == ["Found", "Difference", "Summary", "Outcome"]
    assert isinstance(items[0], Found) and items[0].index == 1
    summary = items[2]
    assert isinstance(summary, Summary) and summary.found == 2 and summary.unique is False
    assert items[-1] == Outcome(TWO, Verdict.NOT_UNIQUE, Exit.FOUND)


def test_a_long_board_argument_is_text_not_a_file_name() -> None:
    record = (
        next(r for r in corpus() if r["n"] == 17) if (ROOT.parent / "shared").is_dir() else None
    )
    board = json.dumps(record) if record else json.dumps({"stars": 1, "regions": ["A" * 300]})
    assert len(board) > 255
    result = run(board)
    assert result.exit_code in (0, 2) and "internal error" not in result.stderr
    if record:
        assert result.exit_code == 0 and "1 solution, unique" in result.output
        assert read_board(board).size == 17
    long_name = run("a" * 300)
    assert long_name.exit_code == 2 and "cannot read: File name too long" in long_name.stderr


def test_collection_lines_that_are_no_record_are_reported_and_the_rest_solved(
    tmp_path: Path,
) -> None:
    good = json.dumps({"id": "six", "stars": 1, "regions": SIX.splitlines()[1:]})
    path = tmp_path / "mixed.jsonl"
    path.write_text(f"# a comment\n{good}\n{good[:30]}\n{good.replace('six', 'again')}\nstray\n")
    result = run(str(path), "-f", "json")
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record.get("id") for record in out if record["type"] == "summary"] == ["six", "again"]
    assert out[-1]["puzzles"] == 4 and out[-1]["unique"] == 2 and out[-1]["error"] == 2
    assert f"{path}:3: not a JSON record" in result.stderr
    assert f"{path}:5: not a JSON record: 'stray'" in result.stderr


def test_ids_are_escaped_in_text_output(tmp_path: Path) -> None:
    record = {"id": "evil\x1b[31m\nid", "stars": 1, "regions": SIX.splitlines()[1:]}
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps({**record, "id": "fine"}) + "\n")
    result = run(str(path))
    assert "== evil\\x1b[31m\\nid ==" in result.stdout and "\x1b" not in result.stdout


def test_generate_makes_the_output_directory(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles" / "new"
    result = run("generate", "-N", "6", "-s", "1", "-k", "2", "-o", f"{folder}/", "-f", "lp",
                 "--seed", "0")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in folder.iterdir()) == [
        "starbattle-6x6-1star-0-1.lp",
        "starbattle-6x6-1star-0-2.lp",
    ]


def test_count_with_a_program_that_shows_no_stars_is_refused(tmp_path: Path) -> None:
    program = tmp_path / "noshow.lp"
    program.write_text("p(1).\n#show p/1.\n")
    hidden = tmp_path / "hidden.lp"
    hidden.write_text("{ star(R,C) : region(R,C,_) }.\n#show.\n")
    assert "defines no star/2" in run(PZPRJS, "-e", str(program), "--count").stderr
    result = run(PZPRJS, "-e", str(hidden), "--count")
    assert result.exit_code == 2 and "show no star/2" in result.stderr


@pytest.mark.parametrize("mode", ["--count", "--fixed"])
def test_pictures_with_count_or_fixed_name_the_conflict(mode: str) -> None:
    result = run(PZPRJS, mode, "-f", "svg")
    assert result.exit_code == 2
    assert f"-f svg draws solutions of one board, not {mode}" in result.stderr


def test_generate_refuses_boards_that_cannot_exist_at_once() -> None:
    result = run("generate", "-N", "3", "-s", "1")
    assert result.exit_code == 2
    assert "no 3x3 grid holds 1 star(s) in every row and column" in result.stderr
    result = run("generate", "-N", "6", "-s", "1", "--min-region", "7")
    assert "6 regions of at least 7 cells cannot fit a 6x6 board" in result.stderr


def test_check_partial_reads_dots_as_undecided(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(SIX)
    stars_only = tmp_path / "marks.txt"
    stars_only.write_text(".*....\n......\n......\n......\n......\n......\n")
    complete = run("check", str(board), str(stars_only))
    assert complete.exit_code == 1 and complete.stdout.startswith("invalid: ")
    assert "(read as a complete answer: '.' is empty; --partial: undecided)" in complete.stdout
    partial = run("check", str(board), str(stars_only), "--partial")
    assert partial.exit_code == 0
    assert partial.stdout == (
        "partial answer: 1 stars, 0 cells marked empty\nthe marks can still become a solution\n"
    )
    as_json = json.loads(
        run("check", str(board), str(stars_only), "--partial", "-f", "json").stdout
    )
    assert as_json["type"] == "partial" and as_json["extendable"] is True


def test_a_region_in_two_pieces_is_warned_about_and_still_solved(tmp_path: Path) -> None:
    board = tmp_path / "split.txt"
    board.write_text("stars: 1\nFCCCCF\nAABBDD\nAABBDD\nEEEEEE\nEEEEEE\nEEEEEE\n")
    result = run(str(board))
    assert "warning: " in result.stderr and "region F is in 2 separate pieces" in result.stderr
    assert "why: regions C and F lie entirely in row 1" in result.stdout


def test_a_wrong_region_count_names_the_labels(tmp_path: Path) -> None:
    board = tmp_path / "colours.txt"
    board.write_text("red red gray\nred grey gray\nblue blue gray\n")
    result = run(str(board), "-s", "1")
    assert result.exit_code == 2
    assert "(labels: red, gray, grey, blue; the same region? gray and grey)" in result.stderr


def test_check_names_regions_as_solve_draws_them(tmp_path: Path) -> None:
    top, bottom = ["red", "red", "blue", "blue"], ["green", "green", "gold", "gold"]
    board = tmp_path / "words.json"
    board.write_text(json.dumps({"stars": 1, "regions": [top, top, bottom, bottom]}))
    answer = tmp_path / "answer.txt"
    answer.write_text("....\n....\n....\n....\n")
    result = run("check", str(board), str(answer))
    assert "region red" not in result.stdout and "too few stars in region A" in result.stdout


def test_bands_only_under_the_king_rule_and_guarded_rules_equal_the_base() -> None:
    board = read_board(str(INSTANCES / "planted-10x10-2star-several.lp"))
    base = {frozenset(s.stars) for s in Solver(board).solutions(0)}
    guarded = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
    assert {frozenset(s.stars) for s in guarded.solutions(0)} == base and len(base) == 17


@needs_corpus
@pytest.mark.slow
def test_guarded_rules_give_the_base_rules_solutions_on_corpus_boards() -> None:
    from helpers import corpus_board

    sample = [r for r in corpus() if r["n"] <= 10][::150]
    assert len(sample) >= 15
    for record in sample:
        board = corpus_board(record)
        base = {frozenset(s.stars) for s in Solver(board).solutions(3)}
        guarded = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
        assert {frozenset(s.stars) for s in guarded.solutions(3)} == base, record["id"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--timeout", "nan"], "nan is not a number of seconds"),
        (["--timeout", "inf"], "Invalid value for '--timeout'"),
        (["--timeout", "1e30"], "Invalid value for '--timeout'"),
        (["-n", "18446744073709551615"], "Invalid value for '-n'"),
        (["-c", "x=1)."], "must look like NAME=VALUE"),
        (["-c", "x=1..3"], "must look like NAME=VALUE"),
        (["-c", "x=f(X)"], "must look like NAME=VALUE"),
    ],
)
def test_odd_option_values_are_usage_errors(args: list[str], message: str) -> None:
    result = run(PZPRJS, *args)
    assert result.exit_code == 2 and message in result.stderr
    assert "internal error" not in result.stderr


@pytest.mark.slow
def test_sigterm_stops_a_parallel_run_cleanly(tmp_path: Path) -> None:
    boards = tmp_path / "many.jsonl"
    line = json.dumps({"stars": 1, "regions": [str(r) * 9 for r in range(9)]})
    boards.write_text("\n".join([line] * 40) + "\n")
    child = start([str(boards), "-n", "0", "-f", "json", "-j", "2"], own_group=True)
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.send_signal(signal.SIGTERM)
    rest, errors = child.stdout.read(), child.stderr.read()
    assert child.wait(timeout=60) == 143
    records_ = [json.loads(text) for text in [first, *rest.splitlines()]]
    assert records_[-1]["type"] == "overall"
    assert "Traceback" not in errors and errors.count("\n") <= 2


def test_help_of_every_command_has_an_example() -> None:
    for name, command in cli.commands.items():
        result = run(name, "--help")
        assert result.exit_code == 0 and (command.help or "").strip(), name
        if name != "encodings":
            assert "Example: starbattle-asp" in result.output, name


def test_a_full_disk_or_a_closed_stdout_is_one_line_exit_2() -> None:
    full = (
        subprocess.run(
            [sys.executable, "-m", "starbattle", TWO, "-n", "0"],
            stdout=open("/dev/full", "w"),  # noqa: SIM115 (the child owns it)
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        if Path("/dev/full").exists()
        else None
    )
    if full is not None:
        assert full.returncode == 2
        assert (
            full.stderr
            == "starbattle-asp: error: cannot write standard output: no space left on device\n"
        )
    closed = subprocess.run(
        [sys.executable, "-m", "starbattle", TWO],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert closed.returncode == 2
    assert "cannot write standard output: it is closed" in closed.stderr


@pytest.mark.slow
def test_cluster_option_prints_what_one_process_prints() -> None:
    pytest.importorskip("distributed")
    boards = [str(path) for path in sorted(INSTANCES.glob("*.lp"))[:5]]
    seconds = re.compile(r'"seconds": [0-9.e-]+')
    alone = run(*boards, "-f", "json")
    spread = run(*boards, "-f", "json", "--cluster", "local:2")
    assert spread.exit_code == alone.exit_code
    assert seconds.sub("", spread.stdout) == seconds.sub("", alone.stdout)
    making = ("generate", "-N", "6", "-s", "1", "-k", "3", "-f", "url", "--seed", "5")
    made = run(*making, "-j", "2")
    on_cluster = run(*making, "--cluster", "local:1")
    assert on_cluster.exit_code == 0 and on_cluster.stdout == made.stdout
    assert made.stdout == run(*making).stdout
