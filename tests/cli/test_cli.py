"""The command line: exit codes, output shapes, stdin, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import BAD_BOARDS, INSTANCES, PZPRJS, ROOT, SIX, TWO, start

from starbattle import Board, BoardError, Solver, check, read_board
from starbattle.cli.main import cli
from starbattle.io import records as record_writer
from starbattle.io.formatters.jsonl import JsonFormatter
from starbattle.io.output import Output
from starbattle.model.values import Found


def test_default_command_solves_and_says_unique(run) -> None:
    result = run(PZPRJS)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "solution 1:"
    assert lines[1] == "a a a b b b    · ★ · · · ·"
    assert lines[-1].startswith("1 solution, unique (")


def test_ascii_output(run) -> None:
    result = run("solve", PZPRJS, "--ascii")
    assert "a a a b b b    . * . . . ." in result.output


def test_not_unique_by_default_shows_one_and_says_so(run) -> None:
    result = run(TWO)
    assert result.exit_code == 0
    assert result.output.count("solution ") == 1
    assert "not unique: 2 or more solutions" in result.output


def test_unique_flag_exit_codes(run) -> None:
    assert run(PZPRJS, "--unique").exit_code == 0
    assert run(TWO, "--unique").exit_code == 1


def test_json_lines_shape(run) -> None:
    result = run(TWO, "-n", "0", "-f", "json")
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.output.splitlines()]
    board = read_board(TWO)
    assert [r["type"] for r in records] == ["solution", "solution", "summary"]
    for index, record in enumerate(records[:2], start=1):
        assert set(record) == {"type", "index", "stars", "grid"}
        assert record["index"] == index
        assert check(board, [tuple(cell) for cell in record["stars"]]) == []
        assert len(record["grid"]) == 5 and all(len(row) == 5 for row in record["grid"])
    summary = records[-1]
    assert set(summary) == {"type", "solutions", "complete", "unique", "seconds"}
    assert (summary["solutions"], summary["complete"], summary["unique"]) == (2, True, False)


@pytest.mark.parametrize("identifier", [None, 'odd "id" \\ é'])
@pytest.mark.parametrize("path", [TWO, str(INSTANCES / "generated-10x10-2star.lp")])
def test_solution_lines_are_exactly_what_json_dumps_writes(
    identifier: str | None, path: str
) -> None:
    board = read_board(path)
    solution = next(iter(Solver(board).solutions(1)))
    record = {"type": "solution", "index": 7, "stars": [list(c) for c in solution.stars]}
    record["grid"] = solution.grid()
    if identifier is not None:
        record = {"id": identifier, **record}
    show = JsonFormatter(Output(), collection=identifier is not None)
    show.begin(identifier or "")
    assert show.format(Found(7, solution)) == [json.dumps(record)]  # the fast path...
    made = {key: value for key, value in record.items() if key != "id"}
    assert record_writer.record(Found(7, solution)) == made  # ...writes the record writer's record


def test_n_limits_and_reports_more(run) -> None:
    records = [json.loads(line) for line in run(TWO, "-n", "1", "-f", "json").output.splitlines()]
    assert len(records) == 2
    # the summary counts what was found: the second solution too (issue 29)
    assert records[-1] == {**records[-1], "solutions": 2, "complete": False, "unique": False}


def test_count(run) -> None:
    result = run(TWO, "--count")
    assert result.exit_code == 0 and result.output.startswith("2 solutions, not unique")
    summary = json.loads(run(TWO, "--count", "-f", "json").output)
    assert (summary["solutions"], summary["complete"]) == (2, True)


def test_lp_output_is_facts(run) -> None:
    result = run(PZPRJS, "-f", "lp")
    lines = result.output.splitlines()
    assert lines[0] == "star(1,2). star(2,4). star(3,6). star(4,3). star(5,5). star(6,1)."
    assert lines[-1].startswith("% 1 solution, unique")


def test_no_solution_exits_1(run) -> None:
    result = run(PZPRJS, "-w", "torus")
    assert result.exit_code == 1
    assert result.output.startswith("no solution")


def test_too_many_stars_for_the_king_rule_exits_2(run) -> None:
    result = CliRunner().invoke(cli, [PZPRJS, "-s", "2"])
    assert result.exit_code == 2
    assert "2 stars per row cannot fit a 6x6 board" in result.stderr
    assert "at most 1 per row" in result.stderr
    # the bound belongs to the king rule: with orthogonal touching the board is solved
    counted = run(PZPRJS, "-s", "2", "-w", "orthogonal", "--count")
    assert counted.exit_code == 0 and counted.output.startswith("5 solutions, not unique")


def test_stdin(run) -> None:
    result = run(
        "-",
        stdin="stars: 1\n"
        + "\n".join(["AAABBB", "ABBBCC", "ADDEEC", "FFDDEC", "FEEEEC", "FCCCCC"]),
    )
    assert result.exit_code == 0 and "unique" in result.output


def test_timeout_before_any_answer_exits_3(run, tmp_path: Path) -> None:
    # pigeonhole: 11 stars, 10 holes; clasp needs far longer than the limit to refute it
    hard = tmp_path / "pigeons.lp"
    hard.write_text(
        "p(1..11). h(1..10). 1 { in(P,H) : h(H) } 1 :- p(P).\n"
        ":- h(H), 2 { in(P,H) : p(P) }.\n{ star(R,C) : region(R,C,_) }.\n"
        "#show star/2.\n"
    )
    result = run(PZPRJS, "-e", str(hard), "--timeout", "0.3")
    assert result.exit_code == 3
    assert "time limit of 0.3 s reached after 0 solutions" in result.output


def test_stats_go_to_stderr() -> None:
    result = CliRunner().invoke(cli, [PZPRJS, "--stats"])
    assert result.exit_code == 0
    assert "rules" in result.stderr and "conflicts" in result.stderr
    assert "stats:" not in result.stdout


def test_with_variant_and_constant(run) -> None:
    assert run(PZPRJS, "-w", "orthogonal", "--count").output.startswith("22 solutions")
    assert run(PZPRJS, "-w", "torus", "--count").output.startswith("no solution")
    hard = str(INSTANCES / "generated-17x17-4star.lp")  # 4 stars: bands.lp applies
    with_bands = run(hard, "--count", "--stats")
    without = run(hard, "--count", "--stats", "-c", "bands_from=5")  # the constant matters
    assert with_bands.output.startswith("1 solution") and without.output.startswith("1 solution")
    assert with_bands.stderr != without.stderr


def test_threads(run) -> None:
    result = run(TWO, "-t", "2", "-n", "0", "-f", "json")
    assert json.loads(result.output.splitlines()[-1])["solutions"] == 2


@pytest.mark.parametrize("content,fmt,message", [*BAD_BOARDS, ("\x00\xff\xfe", None, "not UTF-8")])
def test_bad_input_one_line_exit_2(
    tmp_path: Path, content: str, fmt: str | None, message: str
) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(content.encode("latin-1"))
    result = CliRunner().invoke(cli, [str(path), *(["--from", fmt] if fmt else [])])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"starbattle-asp: error: {path}")
    assert re.search(message, result.stderr)


@pytest.mark.parametrize(
    "args,message",
    [
        (["missing.lp"], "missing.lp: no such file"),
        ([PZPRJS, "-w", "nosuch"], "unknown variant 'nosuch'"),
        ([PZPRJS, "-c", "Bad"], "must look like NAME=VALUE"),
        ([PZPRJS, "-e", "nosuch.lp"], "no such encoding file"),
        ([PZPRJS, "-e", "/dev/null"], "not a file of rules: /dev/null"),
        ([PZPRJS, "--from", "xyz"], "Invalid value for '--from'"),
        ([PZPRJS, "-n", "-1"], "Invalid value for '-n'"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_broken_encoding_is_reported_with_location(tmp_path: Path) -> None:
    broken = tmp_path / "broken.lp"
    broken.write_text("{ star(R,C) : region(R,C,_) }.\n:- star(R,C) star(R,C+1).\n")
    result = CliRunner().invoke(cli, [PZPRJS, "-e", str(broken)])
    assert result.exit_code == 2
    assert f"{broken}:2:" in result.stderr and "syntax error" in result.stderr


def test_encoding_without_stars_is_reported(tmp_path: Path) -> None:
    empty = tmp_path / "nostar.lp"
    empty.write_text("a.\n")
    result = CliRunner().invoke(cli, [PZPRJS, "-e", str(empty)])
    assert result.exit_code == 2 and "no star/2 atoms" in result.stderr


def test_replacing_variant_with_own_encoding_is_refused() -> None:
    program = str(ROOT / "encodings" / "starbattle.lp")
    result = CliRunner().invoke(cli, [PZPRJS, "-e", program, "-w", "orthogonal"])
    assert result.exit_code == 2 and "replaces base/notouch.lp" in result.stderr


def test_convert_round_trip(run, tmp_path: Path) -> None:
    for fmt in ("txt", "json", "lp"):
        out = tmp_path / f"board.{fmt}"
        assert run("convert", PZPRJS, "--to", fmt, "-o", str(out)).exit_code == 0
        assert run(str(out), "--count").output.startswith("1 solution, unique")
    assert run("convert", PZPRJS, "--to", "txt").output.splitlines()[1] == "aaabbb"


def test_check_valid_and_invalid(run, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(".*....\n...*..\n.....*\n..*...\n....*.\n*.....\n")
    result = run("check", PZPRJS, str(good))
    assert result.exit_code == 0 and result.output.startswith("valid: 6 stars")
    bad = tmp_path / "bad.txt"
    bad.write_text("**....\n......\n.....*\n..*...\n....*.\n*.....\n")
    result = run("check", PZPRJS, str(bad))
    assert result.exit_code == 1
    assert "stars touch: (1,1) and (1,2)" in result.output
    assert "too many stars in row 1: 2 stars, needs 1" in result.output
    assert "too few stars in row 2: 0 stars, needs 1" in result.output
    assert "too many stars in region a: 2 stars, needs 1" in result.output


def test_check_reads_solve_json_output(run, tmp_path: Path) -> None:
    answer = tmp_path / "answer.jsonl"
    answer.write_text(run(PZPRJS, "-f", "json").output)
    assert run("check", PZPRJS, str(answer)).exit_code == 0


def test_encodings_lists_variants(run) -> None:
    result = run("encodings")
    assert result.exit_code == 0
    for name in ("notouch-windows", "orthogonal", "torus", "base/notouch.lp"):
        assert name in result.output


def test_library_raises_for_cli_to_format() -> None:
    with pytest.raises(BoardError, match="square"):
        Board.from_rows(["AB"], 1)


def installed_script() -> str | None:
    """The console script installed beside this Python, if any."""
    script = Path(sys.executable).parent / "starbattle-asp"
    return str(script) if script.exists() else None


@pytest.mark.skipif(installed_script() is None, reason="starbattle-asp is not installed here")
@pytest.mark.slow
def test_installed_script_runs_outside_the_checkout(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": ""}
    for args in (["--version"], ["encodings"], [PZPRJS, "--count"]):
        done = subprocess.run(
            [installed_script(), *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            check=False,
        )
        assert done.returncode == 0, done.stderr


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "starbattle", PZPRJS, "-f", "json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout.splitlines()[-1])["unique"] is True


def many_solutions_board(tmp_path: Path) -> str:
    """A 12x12 1-star board whose regions are its rows: millions of solutions."""
    path = tmp_path / "rows12.txt"
    path.write_text("stars: 1\n" + "\n".join("ABCDEFGHIJKL"[r] * 12 for r in range(12)) + "\n")
    return str(path)


def test_ctrl_c_keeps_printed_lines_complete(tmp_path: Path) -> None:
    child = start([many_solutions_board(tmp_path), "-n", "0", "-f", "json"])
    assert child.stdout is not None
    first = child.stdout.readline()
    child.send_signal(signal.SIGINT)
    # read on through the same file object: readline() may have buffered more lines
    assert child.stderr is not None
    rest, errors = child.stdout.read(), child.stderr.read()
    assert child.wait(timeout=60) == 130
    *records, summary = [json.loads(line) for line in [first, *rest.splitlines()]]
    assert all(record["type"] == "solution" for record in records)
    assert summary["type"] == "summary" and summary["interrupted"] is True
    assert summary["solutions"] == len(records) and summary["complete"] is False
    assert f"interrupted after {len(records)} solution(s)" in errors
    assert "Traceback" not in errors


def test_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    child = start([many_solutions_board(tmp_path), "-n", "0", "-f", "lp"])
    assert child.stdout is not None and child.stderr is not None
    child.stdout.readline()
    child.stdout.close()
    assert child.wait(timeout=60) == 141
    assert child.stderr.read() == ""


def cli_in(folder: Path, *args: str, **options: object) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user does, in a folder of their own."""
    return subprocess.run(
        [sys.executable, "-m", "starbattle", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        **options,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        (["-e", "rules/mine.lp"], "1 solution, unique"),
        (["-w", "rules/knight.lp", "--count"], "1 solution, unique"),
        (["-e", "../checkout/encodings/starbattle.lp"], "1 solution, unique"),
    ],
    ids=["-e", "-w FILE", "-e ../"],
)
def test_e29_own_programs_by_relative_paths_from_any_folder(
    tmp_path: Path, option: list[str], expected: str
) -> None:
    (tmp_path / "checkout").symlink_to(ROOT)
    home = tmp_path / "work"
    (home / "rules").mkdir(parents=True)
    files = ("domain", "choose", "rows", "columns", "regions", "notouch", "givens", "show")
    program = "".join((ROOT / "encodings" / "base" / f"{f}.lp").read_text() for f in files)
    (home / "rules" / "mine.lp").write_text(program)
    (home / "rules" / "knight.lp").write_text(":- star(R,C), R > 6.  % excludes nothing\n")
    (home / "board.lp").write_text(Path(PZPRJS).read_text())
    result = cli_in(home, "board.lp", *option)
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout


def test_e29_bench_and_technique_take_relative_paths(tmp_path: Path) -> None:
    files = ("domain", "choose", "rows", "columns", "regions", "notouch", "givens", "show")
    program = "".join((ROOT / "encodings" / "base" / f"{f}.lp").read_text() for f in files)
    (tmp_path / "mine.lp").write_text(program)
    (tmp_path / "board.lp").write_text(Path(PZPRJS).read_text())
    (tmp_path / "empty.lp").write_text("% Empty: concludes nothing.\n%\n% level: 2\n")
    bench = cli_in(tmp_path, "bench", "-e", "default", "-e", "mine.lp", "board.lp")
    assert bench.returncode == 0 and "agree" in bench.stdout, bench.stderr
    hint = cli_in(tmp_path, "hint", "board.lp", "--technique", "empty.lp")
    assert hint.returncode == 0 and hint.stdout.startswith("hint: level"), hint.stderr


def test_debug_is_taken_anywhere_on_the_line(run) -> None:
    assert run(PZPRJS, "--debug").exit_code == 0
    assert run("hint", PZPRJS, "--debug").exit_code == 0
    assert run("--debug", "check", PZPRJS, "-", stdin="*").exit_code == 2


def test_writes_are_said_the_same_way_by_every_command(run, tmp_path: Path) -> None:
    said = {
        "solve": cli_in(tmp_path, PZPRJS, "-f", "json", "-o", "one.json"),
        "picture": cli_in(tmp_path, TWO, "-n", "0", "-f", "svg", "-o", "two.svg"),
        "convert": cli_in(tmp_path, "convert", PZPRJS, "--to", "url", "-o", "board.url"),
        "generate": cli_in(
            tmp_path,
            "generate",
            "-N",
            "6",
            "-s",
            "1",
            "-k",
            "2",
            "--seed",
            "1",
            "-o",
            "made/",
            "-f",
            "lp",
        ),
    }
    assert {name: run.stderr for name, run in said.items()} == {
        "solve": "wrote one.json\n",
        "picture": "wrote 2 files to ./\n",
        "convert": "wrote board.url\n",
        "generate": "wrote 2 files to made/\n",
    }
    assert (tmp_path / "board.url").read_text().startswith("https://puzz.link/p?starbattle/6/6/1/")


def test_help_to_a_full_disk_is_one_line_exit_2() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "starbattle", "--help"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr == (
        "starbattle-asp: error: cannot write standard output: no space left on device\n"
    )


def test_e5_a_disk_that_fills_part_way_is_an_error_not_a_short_file(tmp_path: Path) -> None:
    """A file size limit makes the kernel write part of the picture, as a nearly full disk does
    (CPython's buffered writer took that short write as success: exit 0, a cut file)."""
    import resource

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    for fmt in ("svg", "lp"):
        with open(tmp_path / f"board.{fmt}", "w") as target:
            result = subprocess.run(
                [sys.executable, "-m", "starbattle", "convert",
                 str(INSTANCES / "generated-25x25-6star.lp"), "--to", fmt],
                stdout=target, stderr=subprocess.PIPE, text=True, check=False,
                preexec_fn=small_files,
            )  # fmt: skip
        assert result.returncode == 2, fmt
        assert (
            result.stderr == "starbattle-asp: error: cannot write standard output: file too large\n"
        )


BEFORE_OUR_CODE = {
    ("starbattle/__init__.py", "<module>"),
    ("starbattle/cli/__init__.py", "<module>"),
    ("starbattle/cli/entry.py", "<module>"),
}
"""Frames a Ctrl-C can stop before `main` can catch it: the packages' and the entry module's
own loading (builtins and definitions only: none imports a module of ours)."""


def test_a_ctrl_c_as_the_program_starts_is_never_a_traceback_of_ours() -> None:
    """Ctrl-C at any moment of the start: exit 130 (or death by the signal) and no traceback
    through our code. Python's own start (site, runpy, the console script's import of the
    packages and of the entry module, before any line of ours runs) may still print one: not
    ours to fix, so a traceback may name only those first lines."""
    script = str(Path(sys.executable).with_name("starbattle-asp"))
    for delay in (0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.15):
        child = subprocess.Popen(
            [script, PZPRJS],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        errors = child.communicate(timeout=60)[1]
        ours = re.findall(r'File "[^"]*/(starbattle/[^"]*)", line \d+, in (\S+)', errors)
        assert all(frame in BEFORE_OUR_CODE for frame in ours), (delay, errors)
        if "Traceback" not in errors:
            assert child.returncode in (0, 130, -signal.SIGINT), (delay, errors)


def test_fixed_refuses_a_program_that_shows_no_stars(run, tmp_path: Path) -> None:
    files = ("domain", "choose", "rows", "columns", "regions", "notouch", "givens")
    program = "".join((ROOT / "encodings" / "base" / f"{f}.lp").read_text() for f in files)
    (tmp_path / "hidden.lp").write_text(program + "#show.\n")
    result = run(PZPRJS, "-e", str(tmp_path / "hidden.lp"), "--fixed")
    assert result.exit_code == 2
    assert "show no star/2 atoms" in result.stderr and "36 of 36" not in result.output


def test_given_stars_are_drawn_apart_from_the_stars_found(run) -> None:
    lines = run(str(INSTANCES / "norvig-5x5-given.lp")).output.splitlines()
    assert lines[1] == "a b c c c    · · · · ☆"
    assert lines[2] == "a b d d c    · ★ · · ·"
    ascii_lines = run(str(INSTANCES / "norvig-5x5-given.lp"), "--ascii").output.splitlines()
    assert ascii_lines[1] == "a b c c c    . . . . @"


def test_a_region_that_only_blocked_cells_split_is_whole(run) -> None:
    result = run(str(INSTANCES / "cspuz-6x6-blocked.lp"))
    assert result.exit_code == 0 and result.stderr == ""
    split = run("-", stdin="stars: 1\nABBBBA\nCCCCCC\nDDDDDD\nEEEEEE\nFFFFFF\nFFFFFF\n")
    assert "region A is in 2 separate pieces" in split.stderr


def test_check_says_dots_are_empty_only_for_a_grid_and_names_regions_in_order(
    run,
    tmp_path: Path,
) -> None:
    grid, json_answer = tmp_path / "grid.txt", tmp_path / "answer.json"
    grid.write_text("*.....\n" + "......\n" * 5)
    json_answer.write_text("[[1, 1]]")
    from_grid = run("check", PZPRJS, str(grid)).output
    from_json = run("check", PZPRJS, str(json_answer)).output
    assert "(read as a complete answer: '.' is empty; --partial: undecided)" in from_grid
    assert "'.' is empty" not in from_json
    named = [line.split("region ")[1].split(":")[0] for line in from_json.splitlines()
             if "in region" in line]  # fmt: skip
    assert named == ["b", "c", "d", "e", "f"]
    board = tmp_path / "backwards.txt"  # regions first met F, E, ..., A: named A, ..., E
    board.write_text("stars: 1\n" + "\n".join(letter * 6 for letter in "FEDCBA") + "\n")
    backwards = run("check", str(board), str(json_answer)).output
    regions = [line.split("region ")[1].split(":")[0] for line in backwards.splitlines()
               if "in region" in line]  # fmt: skip
    assert regions == ["A", "B", "C", "D", "E"]


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


@pytest.mark.parametrize("mode", ["--count", "--fixed"])
def test_pictures_with_count_or_fixed_name_the_conflict(run, mode: str) -> None:
    result = run(PZPRJS, mode, "-f", "svg")
    assert result.exit_code == 2
    assert f"-f svg draws solutions of one board, not {mode}" in result.stderr


def test_check_partial_reads_dots_as_undecided(run, tmp_path: Path) -> None:
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
        "partial answer: 1 star, 0 cells marked empty\nthe marks can still become a solution\n"
    )
    as_json = json.loads(
        run("check", str(board), str(stars_only), "--partial", "-f", "json").stdout
    )
    assert as_json["type"] == "partial" and as_json["extendable"] is True


def test_a_region_in_two_pieces_is_warned_about_and_still_solved(run, tmp_path: Path) -> None:
    board = tmp_path / "split.txt"
    board.write_text("stars: 1\nFCCCCF\nAABBDD\nAABBDD\nEEEEEE\nEEEEEE\nEEEEEE\n")
    result = run(str(board))
    assert "warning: " in result.stderr and "region F is in 2 separate pieces" in result.stderr
    assert "why: Regions C and F lie entirely in row 1" in result.stdout


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
def test_odd_option_values_are_usage_errors(run, args: list[str], message: str) -> None:
    result = run(PZPRJS, *args)
    assert result.exit_code == 2 and message in result.stderr
    assert "internal error" not in result.stderr
