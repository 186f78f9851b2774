"""Collections: many files, --jobs N (same answers as one process), ids, summaries, bench."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import (
    ENDLESS,
    PZPRJS,
    ROOT,
    TWO,
    corpus,
    corpus_sample,
    needs_corpus,
    planted_board,
    start,
)

from starbattle import EncodingError, check, read_board, write_board
from starbattle.asp.solver import Solver
from starbattle.exits import Exit, Verdict
from starbattle.io import records
from starbattle.io.formatters.text import overall_text
from starbattle.model.values import Message, Outcome, Search, Tally
from starbattle.run.batch import chunk_size, run_all
from starbattle.run.service import summary_of

SECONDS = re.compile(r'"seconds": [0-9.e-]+|\([0-9.]+ s\)')


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
def test_jobs_give_the_same_output_as_one_process(
    run, collection: Path, mode: tuple[str, ...]
) -> None:
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
def test_every_solution_of_a_parallel_run_is_valid(run, collection: Path) -> None:
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


def test_many_files_are_one_collection_named_by_file(run) -> None:
    result = run(TWO, PZPRJS, "-j", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"== {TWO} ==" and f"== {PZPRJS} ==" in lines
    assert re.fullmatch(
        rf"2 puzzles: 1 unique, 1 not unique \([0-9.]+ s\); not unique: {re.escape(TWO)}",
        lines[-1],
    )


def test_progress_bar_only_when_asked_or_on_a_terminal(run) -> None:
    quiet = run(TWO, PZPRJS)
    assert "puzzles," not in quiet.stderr
    shown = run(TWO, PZPRJS, "--progress")
    assert "2/2 puzzles" in shown.stderr and shown.stderr.endswith("\r\x1b[K")
    assert "puzzles," not in shown.stdout


@needs_corpus
def test_a_time_limit_per_puzzle_leaves_it_undecided(run, tmp_path: Path) -> None:
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


def test_bench_compares_default_and_plain_by_default(run) -> None:
    result = run("bench", TWO, PZPRJS)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[1].startswith("default ") and lines[2].startswith("default -w plain ")
    assert " 2/2 " in lines[1] and lines[-1] == "all programs agree on the counts of all 2 boards"


def test_bench_catches_an_encoding_that_disagrees(run, tmp_path: Path) -> None:
    base = ROOT / "encodings" / "base"
    loose = tmp_path / "loose.lp"  # forgets the touching rule
    loose.write_text(
        "".join(
            f'#include "{base / name}.lp".\n'
            for name in ("domain", "choose", "rows", "columns", "regions", "show")
        )
    )
    result = run("bench", "-e", "default", "-e", str(loose), TWO, PZPRJS, "-n", "0")
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
    ok = json.dumps({"id": "ok", "stars": 1, "regions": read_board(PZPRJS).regions})
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


@dataclasses.dataclass(frozen=True)
class Item:
    """A stand-in for a Record: its id and text."""

    identifier: str
    text: str


def solve_or_die(item: Item) -> list[Message | Outcome]:
    """Work for run_all: an item named 'die' kills its own worker process."""
    if item.identifier == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    return [Message(item.text.upper()), Outcome(item.identifier, Verdict.UNIQUE, Exit.FOUND)]


def hang_alarm(signum: int, frame: object) -> None:
    """SIGALRM during a test: it hangs."""
    raise TimeoutError("hangs")


def test_d12_a_dead_worker_costs_only_its_puzzle() -> None:
    items = [Item(f"p{k}", f"board {k}") for k in range(40)]
    items[5] = items[23] = Item("die", "x")
    before = signal.signal(signal.SIGALRM, hang_alarm)
    signal.alarm(60)  # multiprocessing.Pool waited forever for the lost puzzle
    try:
        outcomes = list(run_all(solve_or_die, items, jobs=2))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert [result[-1].identifier for result in outcomes] == [item.identifier for item in items]
    for (message, outcome), item in zip(outcomes, items, strict=True):
        if item.identifier == "die":
            assert outcome == Outcome("die", Verdict.ERROR, Exit.ERROR)
            assert message.kind == "error"
            assert "die: the worker process died (killed by signal 9)" in message.text
        else:
            assert message == Message(item.text.upper()) and outcome.verdict is Verdict.UNIQUE


def children(pid: int) -> list[int]:
    """The process ids of a process's children (Linux)."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat_file.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat_file.parent.name))
    return found


@pytest.mark.slow
def test_d12_worker_killed_mid_run_the_run_finishes(tmp_path: Path) -> None:
    board = json.loads(str(write_board(planted_board(30, 3), "json")))  # counting takes minutes
    path = tmp_path / "slow.jsonl"
    path.write_text("".join(json.dumps({**board, "id": f"p{k}"}) + "\n" for k in range(8)))
    child = start([str(path), "--count", "--timeout", "1", "-j", "2", "-f", "json"])
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()  # the first puzzle is done: both workers are busy
    workers = children(child.pid)
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    watchdog = threading.Timer(60, child.kill)  # multiprocessing.Pool hung here forever
    watchdog.start()
    try:
        rest, errors = child.stdout.read(), child.stderr.read()
    finally:
        watchdog.cancel()
    assert child.wait() == Exit.ERROR
    records = [json.loads(line) for line in [first, *rest.splitlines()]]
    overall = records[-1]
    assert overall["puzzles"] == 8 and overall["error"] == 1 and overall["not_unique"] == 7
    assert len([r for r in records if r["type"] == "summary"]) == 7
    assert "the worker process died (killed by signal 9)" in errors and "Traceback" not in errors


def ground_endlessly_or_solve(item: Item) -> list[Message | Outcome]:
    """Work for run_all: an item named 'endless' grounds forever under a 0.5 s limit."""
    encoding = item.text if item.identifier == "endless" else None
    solver = Solver(read_board(PZPRJS), encoding=encoding, ground_timeout=0.5)
    verdict = Verdict.UNIQUE if solver.count().found == 1 else Verdict.ERROR
    return [Outcome(item.identifier, verdict, Exit.FOUND)]


def test_d18_worker_grounding_past_its_limit_leaves_the_puzzle_undecided(tmp_path: Path) -> None:
    program = tmp_path / "endless.lp"
    program.write_text(ENDLESS)
    items = [Item(f"p{k}", "") for k in range(6)]
    items[2] = Item("endless", str(program))
    results = list(run_all(ground_endlessly_or_solve, items, jobs=2))
    assert [result[-1] for result in results] == [
        Outcome("endless", Verdict.UNDECIDED, Exit.TIMEOUT)
        if item.identifier == "endless"
        else Outcome(item.identifier, Verdict.UNIQUE, Exit.FOUND)
        for item in items
    ]
    (message, _) = results[2]
    assert message == Message("endless: the time limit was reached while grounding the program")


def refuse(item: Item) -> list[Message | Outcome]:
    """Work for run_all that finds the program wrong (the same for every puzzle)."""
    raise EncodingError("no star/2 atoms", file="mine.lp", line=3, column=1)


def test_d12_an_error_in_a_worker_is_raised_as_itself() -> None:
    with pytest.raises(EncodingError, match=r"^mine\.lp:3:1: no star/2 atoms$"):
        list(run_all(refuse, [Item(f"p{k}", "") for k in range(4)], jobs=2))
