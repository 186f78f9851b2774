"""Collections: many files, --jobs N (same answers as one process), ids, summaries, bench."""

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
from click.testing import CliRunner, Result
from helpers import INSTANCES, corpus, corpus_sample, needs_corpus, start

from starbattle import read_board
from starbattle.cli.main import cli
from starbattle.exits import Exit, Verdict
from starbattle.io import records
from starbattle.io.formatters.text import overall_text
from starbattle.model.checker import check
from starbattle.model.values import Outcome, Search, Tally
from starbattle.run.batch import chunk_size
from starbattle.run.service import summary_of

TWO = str(INSTANCES / "norvig-5x5-1star.lp")
UNIQUE = str(INSTANCES / "pzprjs-6x6-1star.lp")
SECONDS = re.compile(r'"seconds": [0-9.e-]+|\([0-9.]+ s\)')


def run(*args: str) -> Result:
    """Invoke the CLI in-process."""
    return CliRunner().invoke(cli, list(args))


def without_seconds(text: str) -> str:
    """Output with its timings blanked, for comparing two runs."""
    return SECONDS.sub("<t>", text)


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON Lines collection: corpus puzzles of every group, one bad line, one 4x4 2★."""
    path = tmp_path_factory.mktemp("batch") / "mixed.jsonl"
    lines = [json.dumps(record) for record in corpus_sample(per_group=1)[:30]]
    lines.insert(3, '{"id": "broken", "stars": 1, "regions": ["AB", "A"]}')
    lines.insert(7, '{"id": "crowded", "stars": 2, "regions": ["AABB", "AABB", "CCDD", "CCDD"]}')
    path.write_text("\n".join(lines) + "\n")
    return path


@needs_corpus
@pytest.mark.parametrize("mode", [(), ("--count",), ("-n", "0")])
@pytest.mark.slow
def test_jobs_give_the_same_output_as_one_process(collection: Path, mode: tuple[str, ...]) -> None:
    one = run(str(collection), "-f", "json", *mode)
    two = run(str(collection), "-f", "json", "-j", "2", *mode)
    assert one.exit_code == two.exit_code == 2  # the two unreadable boards
    assert without_seconds(one.stdout) == without_seconds(two.stdout)
    assert one.stderr == two.stderr
    assert "broken" in one.stderr and "crowded" in one.stderr
    records = [json.loads(line) for line in two.stdout.splitlines()]
    summaries = [r for r in records if r["type"] == "summary"]
    assert len(summaries) == 30 and all("id" in r for r in records[:-1])
    overall = records[-1]
    assert overall["type"] == "overall" and overall["puzzles"] == 32
    assert overall["error"] == 2
    assert overall["unique"] + overall["not_unique"] == 30
    assert overall["not_unique"] == sum(s["unique"] is False for s in summaries) > 0


@needs_corpus
@pytest.mark.slow
def test_every_solution_of_a_parallel_run_is_valid(collection: Path) -> None:
    result = run(str(collection), "-f", "json", "-j", "2", "-n", "3")
    boards = {
        json.loads(line)["id"]: line
        for line in collection.read_text().splitlines()
        if json.loads(line)["id"] not in ("broken", "crowded")
    }
    solutions = [
        json.loads(line)
        for line in result.stdout.splitlines()
        if json.loads(line)["type"] == "solution"
    ]
    assert len(solutions) >= 30
    for record in solutions:
        board = read_board(boards[record["id"]], fmt="json")
        assert check(board, [tuple(cell) for cell in record["stars"]]) == []


def test_many_files_are_one_collection_named_by_file() -> None:
    result = run(TWO, UNIQUE, "-j", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"== {TWO} ==" and f"== {UNIQUE} ==" in lines
    assert re.fullmatch(
        rf"2 puzzles: 1 unique, 1 not unique \([0-9.]+ s\); not unique: {re.escape(TWO)}",
        lines[-1],
    )


def test_progress_bar_only_when_asked_or_on_a_terminal() -> None:
    quiet = run(TWO, UNIQUE)
    assert "puzzles," not in quiet.stderr
    shown = run(TWO, UNIQUE, "--progress")
    assert "2/2 puzzles" in shown.stderr and shown.stderr.endswith("\r\x1b[K")
    assert "puzzles," not in shown.stdout


@needs_corpus
def test_a_time_limit_per_puzzle_leaves_it_undecided(tmp_path: Path) -> None:
    hardest = next(r for r in corpus() if r["id"] == "sbl-0384") | {"id": "hard"}  # ~20 s plain
    easy = {"id": "easy", "stars": 1, "regions": ["AABBB", "AABBB", "CCDDE", "CCDDE", "CCDDE"]}
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(hardest) + "\n" + json.dumps(easy) + "\n")
    result = run(str(path), "-f", "json", "--timeout", "0.5", "-j", "2", "-w", "plain")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0] == {
        "id": "hard",
        "type": "summary",
        "solutions": 0,
        "complete": False,
        "unique": None,
        "seconds": records[0]["seconds"],
    }
    overall = records[-1]
    assert overall["puzzles"] == 2 and overall["undecided"] == 1
    assert result.exit_code == 3


def test_verdicts_and_tally() -> None:
    def verdict(**search: object) -> tuple[Verdict, Exit]:
        summary = summary_of(Search(**search), 1, None, counted=False)
        return summary.verdict, summary.exit_code(require_unique=True)

    assert verdict(found=1, exhausted=True) == (Verdict.UNIQUE, Exit.FOUND)
    assert verdict(found=2) == (Verdict.NOT_UNIQUE, Exit.NONE)
    assert verdict(found=0, exhausted=True) == (Verdict.NO_SOLUTION, Exit.NONE)
    assert verdict(found=1, timed_out=True) == (Verdict.UNDECIDED, Exit.TIMEOUT)
    assert verdict(found=0, timed_out=True) == (Verdict.UNDECIDED, Exit.TIMEOUT)
    tally = Tally()
    for identifier, kind in (
        ("a", Verdict.UNIQUE),
        ("b", Verdict.NOT_UNIQUE),
        ("c", Verdict.UNIQUE),
    ):
        tally.add(Outcome(identifier, kind, Exit.FOUND if kind is Verdict.UNIQUE else Exit.NONE))
    assert tally.puzzles == 3 and tally.not_unique == ["b"] and tally.code == Exit.NONE
    overall = records.record(tally)
    assert overall is not None and overall["unique"] == 2 and overall["not_unique"] == 1
    assert overall_text(tally).startswith("3 puzzles: 2 unique, 1 not unique (")
    assert chunk_size(10, 2) == 1 and chunk_size(100_000, 2) == 64


def test_bench_compares_default_and_plain_by_default() -> None:
    result = run("bench", TWO, UNIQUE)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[1].startswith("default ") and lines[2].startswith("default -w plain ")
    assert " 2/2 " in lines[1] and lines[-1] == "all programs agree on the counts of all 2 boards"


def test_bench_catches_an_encoding_that_disagrees(tmp_path: Path) -> None:
    base = Path(__file__).resolve().parent.parent / "encodings" / "base"
    loose = tmp_path / "loose.lp"  # forgets the touching rule
    loose.write_text(
        "".join(
            f'#include "{base / name}.lp".\n'
            for name in ("domain", "choose", "rows", "columns", "regions", "show")
        )
    )
    result = run("bench", "-e", "default", "-e", str(loose), TWO, UNIQUE, "-n", "0")
    assert result.exit_code == 1
    assert "counts DISAGREE on 2 of 2 boards:" in result.stdout
    assert f"{TWO}: default 2, {loose} " in result.stdout
    as_json = run("bench", "-e", "default", "-e", str(loose), TWO, "-n", "0", "-f", "json")
    records = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert [r["program"] for r in records[:2]] == ["default", str(loose)]
    assert records[2]["disagree"][TWO]["default"] == 2


@needs_corpus
@pytest.mark.slow
def test_ctrl_c_stops_every_worker_and_keeps_lines_whole(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    records = [json.dumps(record) for record in corpus() if record["n"] <= 10]
    path.write_text("\n".join(records) + "\n")
    child = start([str(path), "-f", "json", "-j", "2"], own_group=True)
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    os.killpg(child.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C
    rest, errors = child.stdout.read(), child.stderr.read()
    assert child.wait(timeout=60) == 130
    lines = [json.loads(line) for line in [first, *rest.splitlines()]]
    overall = lines[-1]
    summaries = [line for line in lines if line["type"] == "summary"]
    assert overall["type"] == "overall" and overall["puzzles"] == len(summaries)
    assert 0 < len(summaries) < len(records)
    assert f"interrupted after {len(summaries)} of {len(records)} puzzles" in errors
    assert "Traceback" not in errors


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_on_a_collection_says_one_line_and_prints_whole_puzzles(
    tmp_path: Path, jobs: str
) -> None:
    """With any -j a collection prints each puzzle whole: the interrupted one says nothing."""
    rows = json.dumps({"stars": 1, "regions": [chr(65 + r) * 9 for r in range(9)]})
    path = tmp_path / "slow.jsonl"  # 47,622 solutions each: -n 0 takes a while per puzzle
    path.write_text("\n".join([json.dumps({"stars": 1, "regions": ["AB", "BA"]})] + [rows] * 4))
    child = start([str(path), "-n", "0", "-f", "json", "-j", jobs], own_group=True)
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()  # the first puzzle's error record... or its lines
    time.sleep(1.0)
    os.killpg(child.pid, signal.SIGINT)
    rest, errors = child.stdout.read(), child.stderr.read()
    assert child.wait(timeout=60) == 130
    records = [json.loads(line) for line in [first, *rest.splitlines()] if line.strip()]
    ids = [record["id"] for record in records if record["type"] == "summary"]
    for identifier in {record.get("id") for record in records} - {None}:
        assert identifier in ids  # every puzzle that printed anything printed its summary
    assert records[-1]["type"] == "overall"
    assert [line for line in errors.splitlines() if "interrupted" in line] == [
        f"interrupted after {records[-1]['puzzles']} of 5 puzzles"
    ]


def test_a_time_limit_while_grounding_costs_one_puzzle_and_is_said_once(tmp_path: Path) -> None:
    big = json.dumps({"id": "big", "stars": 1, "regions": [[r] * 200 for r in range(200)]})
    small = json.dumps({"id": "small", "stars": 1, "regions": ["AB", "BA"]})
    ok = json.dumps({"id": "ok", "stars": 1, "regions": read_board(UNIQUE).regions})
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([big, small, ok]) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "starbattle", str(path), "--timeout", "0.3", "-f", "json"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    said = [line for line in result.stderr.splitlines() if "grounding" in line]
    assert said == ["big: the time limit was reached while grounding the program"]
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[-1]["undecided"] == 1 and records[-1]["unique"] == 1
