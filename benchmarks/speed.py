"""Speed suite: starbattle-asp against CP-SAT (and a pure-Python search), side by side in one run.

    pip install '.[bench]'
    python benchmarks/speed.py [--quick] [--sbl] [--python] [--make-large]

Sets: ../shared/corpus samples/bench-sample.jsonl, samples/hard.jsonl, all of
real-puzzles.jsonl, generated large boards (benchmarks/data/large-boards.jsonl: five each of
25x25 5★, 30x30 6★, 40x40 8★, a planted solution and regions grown at random, many solutions;
stored, so that every run and every program meets the same boards; `--make-large` makes them
again) and many-solution boards (regions = rows). Modes: first solution, uniqueness (2
solutions), count all. Every solution any solver returns is checked by starbattle.model.checker
(independent of clingo); every count is compared across the solvers that finished. Then the
end-to-end targets (JSON enumeration, --count, cold start) and, with --sbl, the whole
StarBattleLab collection through the CLI with 2 jobs.
The section between the speed markers of benchmarks/RESULTS.md is replaced.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import clingo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baselines import cpsat_solutions, python_solutions
from results import write_section

from starbattle import Board, Solver, __version__, check
from starbattle.asp.solver import auto_threads
from starbattle.io.inputs import parse_board
from starbattle.logic.generate import plant
from starbattle.logic.regions import claim, grow

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
LARGE = ROOT / "benchmarks" / "data" / "large-boards.jsonl"
LARGE_SETS = ((25, 5), (30, 6), (40, 8))
BEGIN, END = "<!-- speed: begin -->", "<!-- speed: end -->"
MODES = {"first": 1, "unique": 2, "count": 0}
Stars = frozenset[tuple[int, int]]
SolverFunction = Callable[[Board, int, float], Iterator[Stars]]


def asp(variants: tuple[str, ...] = (), threads: int | None = None) -> SolverFunction:
    """Our solver (default program, or with variants) as a baseline-shaped function.

    Threads as the command line chooses them for a lone puzzle unless given.
    """

    def solutions(board: Board, limit: int, timeout: float) -> Iterator[Stars]:
        solver = Solver(board, variants=variants, threads=threads or auto_threads(board))
        for solution in solver.solutions(limit, timeout):
            yield frozenset(solution.stars)
        if solver.last.timed_out:
            raise TimeoutError

    return solutions


def asp_count(board: Board, timeout: float, variants: tuple[str, ...] = ()) -> tuple[int, bool]:
    """Count inside clasp (no per-model Python work): (count, complete)."""
    search = Solver(board, variants=variants).count(timeout)
    return search.found, search.exhausted


SOLVERS: dict[str, SolverFunction] = {
    "asp": asp(),
    "asp-plain": asp(("plain",)),
    "asp-t2": asp(threads=2),
    "cpsat-1": lambda board, limit, timeout: cpsat_solutions(board, limit, timeout, 1),
    "cpsat": lambda board, limit, timeout: cpsat_solutions(board, limit, timeout, 0),
    "python": python_solutions,
}


@dataclass
class Result:
    """One solver on one puzzle in one mode."""

    seconds: float
    found: int
    complete: bool


@dataclass
class Table:
    """Results of several solvers on one set in one mode, keyed by solver then puzzle id."""

    title: str
    mode: str
    results: dict[str, dict[str, Result]] = field(default_factory=dict)
    disagreements: list[str] = field(default_factory=list)


def run_one(name: str, board: Board, mode: str, timeout: float) -> Result:
    """Run one solver; check every solution it returns."""
    limit = MODES[mode]
    started = time.perf_counter()
    if mode == "count" and name.startswith("asp"):
        found, complete = asp_count(board, timeout, ("plain",) if name == "asp-plain" else ())
        return Result(time.perf_counter() - started, found, complete)
    found, complete, seen = 0, True, set()
    try:
        for stars in SOLVERS[name](board, limit, timeout):
            found += 1
            problems = check(board, sorted(stars))
            assert not problems and stars not in seen, (name, problems)
            seen.add(stars)
    except TimeoutError:
        complete = False
    seconds = time.perf_counter() - started
    return Result(seconds, found, complete or (limit > 0 and found >= limit))


AGAIN_PUZZLES, AGAIN_RUNS = 5, 5
"""The slowest puzzles of a set run again, and how often, for a worst case that is not one
run's luck (2 clasp threads race, so one run of a puzzle can take twice its median)."""


def slowest_again(table: Table, boards: dict[str, Board]) -> tuple[str, float]:
    """The slowest of a set's AGAIN_PUZZLES slowest puzzles by its median of AGAIN_RUNS runs."""
    slowest = sorted(table.results["asp"].items(), key=lambda item: -item[1].seconds)
    medians = {
        identifier: statistics.median(
            run_one("asp", boards[identifier], table.mode, 10.0).seconds for _ in range(AGAIN_RUNS)
        )
        for identifier, _ in slowest[:AGAIN_PUZZLES]
    }
    return max(medians.items(), key=lambda item: item[1])


def run_set(
    title: str, boards: list[tuple[str, Board]], mode: str, solvers: list[str], timeout: float
) -> Table:
    """Every solver on every board of a set; counts compared across finished solvers."""
    table = Table(title, mode, {name: {} for name in solvers})
    for identifier, board in boards:
        for name in solvers:
            table.results[name][identifier] = run_one(name, board, mode, timeout)
        finished = {
            name: table.results[name][identifier].found
            for name in solvers
            if table.results[name][identifier].complete
        }
        if len(set(finished.values())) > 1:
            table.disagreements.append(f"{identifier}: {finished}")
    print(f"  {title} / {mode}: done", file=sys.stderr, flush=True)
    return table


def markdown(table: Table, timeout: float) -> list[str]:
    """A set's results as a Markdown table, with the ratio of each total to ours."""
    lines = [
        f"### {table.title}: {table.mode} ({len(next(iter(table.results.values())))} puzzles, "
        f"{timeout:g} s limit each)",
        "",
        "| solver | finished | median | worst | total | total vs asp |",
        "|---|---|---|---|---|---|",
    ]
    ours = sum(r.seconds for r in table.results["asp"].values())
    for name, results in table.results.items():
        times = [r.seconds for r in results.values()]
        finished = sum(r.complete for r in results.values())
        total = sum(times)
        lines.append(
            f"| {name} | {finished}/{len(times)} | {statistics.median(times) * 1000:.1f} ms | "
            f"{max(times):.3f} s | {total:.2f} s | {total / ours:.2f}x |"
        )
    agree = (
        "all finished solvers agree on every count"
        if not table.disagreements
        else ("**counts disagree**: " + "; ".join(table.disagreements[:5]))
    )
    return [*lines, "", agree, ""]


def corpus(name: str, path: Path | None = None) -> list[tuple[str, Board]]:
    """A JSON Lines file (of the shared corpus, or `path`) as (id, board) pairs."""
    path = path or CORPUS / name
    return [
        (json.loads(line)["id"], parse_board(line, name=name, fmt="json"))
        for line in path.read_text().splitlines()
        if line.strip()
    ]


def large_board(size: int, stars: int, seed: str) -> Board:
    """A board with a planted solution and regions grown at random (usually many solutions)."""
    rng = random.Random(seed)
    planted = plant(size, stars, rng)
    assert planted is not None
    return Board.from_rows(grow(claim(size, stars, planted), rng), stars)


def make_large() -> None:
    """Write the stored large boards: five of each size, from fixed seeds."""
    from starbattle.io.formats.json_board import board_json

    lines = [
        json.dumps(
            {"id": f"{n}x{n} {s}★ #{k}", **board_json(large_board(n, s, f"bench-{n}-{s}-{k}"))},
            ensure_ascii=False,
        )
        for n, s in LARGE_SETS
        for k in range(1, 6)
    ]
    LARGE.write_text("\n".join(lines) + "\n")


def rows_board(size: int, stars: int) -> Board:
    """The board whose regions are its rows (many solutions: 47,622 for 9x9 1★)."""
    return Board.from_rows([[str(r)] * size for r in range(size)], stars)


def median_run(command: list[str], repeats: int) -> float:
    """Median wall seconds of a command (output discarded)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def piped_run(command: list[str], repeats: int) -> float:
    """Median wall seconds of a command whose standard output Python reads through a pipe."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as run:
            assert run.stdout is not None
            lines = sum(1 for _ in run.stdout)
        times.append(time.perf_counter() - started)
        assert lines > 1, command
    return statistics.median(times)


def end_to_end(repeats: int) -> list[str]:
    """CLI timings: enumeration as JSON Lines through a pipe, --count, cold start (medians)."""
    entry = str(Path(sys.executable).with_name("starbattle-asp"))
    with tempfile.TemporaryDirectory() as folder:
        rows9 = Path(folder) / "rows9.txt"
        rows9.write_text("stars: 1\n" + "\n".join(chr(65 + r) * 9 for r in range(9)) + "\n")
        enumerate_all = piped_run([entry, str(rows9), "-n", "0", "-f", "json"], repeats)
        count_all = median_run([entry, str(rows9), "--count"], repeats)
    instance = str(ROOT / "instances" / "generated-10x10-2star.lp")
    cold = median_run([entry, instance], 4 * repeats + 1)
    floor = median_run([sys.executable, "-c", "import clingo, click"], 4 * repeats + 1)
    return [
        f"| all 47,622 solutions of 9x9 1★ rows as JSON Lines through a pipe read by Python | "
        f"{enumerate_all:.2f} s | ≤ 1 s |",
        f"| `--count` of the same board, end to end | {count_all:.2f} s | ≤ 0.2 s |",
        f'| `starbattle-asp` solving a 10x10 2★ from a cold start / `python -c "import clingo, '
        f'click"` | {cold:.3f} s / {floor:.3f} s = {cold / floor:.2f}x | ≤ 1.3x |',
    ]


def sbl_check() -> list[str]:
    """Every StarBattleLab puzzle through the CLI with 2 jobs: wall time, anything not unique."""
    files = sorted(str(path) for path in (CORPUS / "starbattlelab").glob("*.sbn"))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "starbattle", *files, "-j", "2", "-f", "json", "--no-progress"],
        check=False,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    records = [json.loads(line) for line in done.stdout.splitlines()]
    overall = records[-1]
    odd = [r["id"] for r in records if r["type"] == "summary" and r["unique"] is not True]
    return [
        f"| all {overall['puzzles']:,} StarBattleLab puzzles, solve + prove unique, "
        f"`-j 2` | {seconds / 60:.1f} min ({overall['unique']:,} unique; not unique or "
        f"undecided: {', '.join(odd) or 'none'}) | ≤ 4 min |",
    ]


def main() -> None:
    """Run the suite and write its section of RESULTS.md."""
    if "--make-large" in sys.argv:
        make_large()
        return
    quick, sbl = "--quick" in sys.argv, "--sbl" in sys.argv
    started = time.perf_counter()
    everyone = [name for name in SOLVERS if name not in ("python", "asp-t2")]
    if "--python" in sys.argv:  # the pure-Python search: minutes of time-outs on the hard sets
        everyone.append("python")
    sample, hard = corpus("samples/bench-sample.jsonl"), corpus("samples/hard.jsonl")
    real = corpus("real-puzzles.jsonl")
    large = corpus("large-boards.jsonl", LARGE)
    rows = [
        (f"rows {n}x{n} {s}★", rows_board(n, s))
        for n, s in ((5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (8, 2), (9, 2))
    ]
    plan = [
        ("bench-sample", sample, "first", everyone, 10.0),
        ("bench-sample", sample, "unique", everyone, 10.0),
        ("hard", hard, "unique", everyone, 10.0),
        ("generated large", large, "first", [*everyone, "asp-t2"], 30.0),
        ("generated large", large, "unique", [*everyone, "asp-t2"], 30.0),
        ("regions = rows", rows, "count", ["asp", "cpsat-1"], 30.0),
    ]
    if not quick:
        plan.append(("real corpus", real, "unique", ["asp", "asp-plain", "cpsat-1"], 10.0))
    tables = [
        (run_set(title, boards, mode, solvers, limit), limit)
        for title, boards, mode, solvers, limit in plan
    ]
    by_key = {(t.title, t.mode): t for t, _ in tables}
    targets = ["| target | measured | goal |", "|---|---|---|"]
    real_results = by_key.get(("real corpus", "unique")) or by_key[("hard", "unique")]
    real_boards = dict(real) if ("real corpus", "unique") in by_key else dict(hard)
    big = [
        r.seconds
        for identifier, r in real_results.results["asp"].items()
        if real_boards[identifier].size == 21
    ]
    worst_id, worst = max(real_results.results["asp"].items(), key=lambda item: item[1].seconds)
    again_id, again = slowest_again(real_results, real_boards)
    targets.append(
        f"| real 21x21 5★ ({len(big)}), solve + prove unique | "
        f"median {statistics.median(big):.3f} s, worst {max(big):.3f} s | median ≤ 0.1 s |"
    )
    targets.append(
        f"| slowest real puzzle ({real_results.title}) | {worst_id} {worst.seconds:.3f} s "
        "| ≤ 0.5 s |"
    )
    targets.append(
        f"| slowest real puzzle, median of {AGAIN_RUNS} more runs of the {AGAIN_PUZZLES} slowest "
        f"| {again_id} {again:.3f} s | ≤ 0.5 s |"
    )
    for title, mode, label, goal in (
        ("real corpus", "unique", "whole real corpus, solve + prove unique", "≥ 10x faster"),
        ("generated large", "first", "generated large boards, first solution", ""),
    ):
        table = by_key.get((title, mode))
        if table is None:
            continue
        ours = sum(r.seconds for r in table.results["asp"].values())
        theirs = sum(r.seconds for r in table.results["cpsat-1"].values())
        targets.append(
            f"| {label}: CP-SAT 1 worker / asp (total time) | {theirs:.2f} s / {ours:.2f} s = "
            f"{theirs / ours:.1f}x | {goal} |"
        )
    for mode in ("first", "unique"):
        table = by_key[("generated large", mode)].results
        for n, s in LARGE_SETS[1:]:
            chosen = f"{n}x{n} {s}★"
            totals = {  # each solver's seconds over the stored boards of this size
                name: sum(r.seconds for i, r in table[name].items() if i.startswith(chosen))
                for name in ("asp", "asp-t2", "cpsat")
            }
            ours = {name: totals[name] for name in ("asp", "asp-t2")}
            best = min(ours, key=ours.__getitem__)
            theirs = totals["cpsat"]
            targets.append(
                f"| generated {chosen} (5 boards, total), {mode}: our best on 2 cores ({best}) / "
                f"CP-SAT default workers | {ours[best]:.3f} s / {theirs:.3f} s = "
                f"{ours[best] / theirs:.2f} | < 1 |"
            )
    targets += end_to_end(3 if quick else 5)
    if sbl:
        targets += sbl_check()
    cores = len(__import__("os").sched_getaffinity(0))
    from ortools import __version__ as ortools_version

    section = "\n".join(
        [
            BEGIN,
            "## Speed",
            "",
            f"`python benchmarks/speed.py{' --quick' if quick else ''}{' --sbl' if sbl else ''}"
            f"{' --python' if '--python' in sys.argv else ''}`: "
            f"starbattle-asp {__version__}, clingo {clingo.__version__}, OR-Tools "
            f"{ortools_version}, Python {platform.python_version()}, {cores} cores; "
            f"{time.perf_counter() - started:.0f} s in all. Wall seconds per puzzle, end to end "
            "(building the model or grounding included). `asp` is the default program with the "
            "command line's threads (2 from 4 stars up on 2 cores, else 1), "
            "`asp-plain` the variant without the implied band and box counts, `asp-t2` clasp with "
            "2 threads (its portfolio), `cpsat-1` CP-SAT with one "
            "worker, `cpsat` with its default workers, `python` the pure-Python propagation "
            "search of benchmarks/baselines.py. A run that reaches the limit counts its time.",
            "",
            "### Targets",
            "",
            *targets,
            "",
            *(line for table, limit in tables for line in markdown(table, limit)),
            END,
        ]
    )
    write_section(BEGIN, END, section)
    print("\n".join(targets))


if __name__ == "__main__":
    main()
