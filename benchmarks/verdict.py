"""The live verdict's latency, server side, over edit sequences replayed from real puzzles.

    python benchmarks/verdict.py [--puzzles 60] [--walls 4] [--sizes 10x2 14x3]
                                 [--cold] [--no-grade] [--write]

For each real unique puzzle of ../shared/corpus/real-puzzles.jsonl of the size and star
count (a seeded sample of `--puzzles`; 0: all), `--walls` walls between two regions are
taken at random and replayed as edits, each followed by its undo: the wall removed (the two
regions become one: the board has N-1 regions), then restored (the puzzle again); and the
wall's first cell given to the region on the other side (a single-cell move: 0, 1 or 2+
solutions), then given back. Each verdict is what a server worker runs for the page's
request, `web.api.answered("verdict", {"board": JSON})`, timed from the request's JSON to
its records, in one process (no worker pool, no HTTP). The process remembers the grades of
the boards it judged lately (`logic.verdict.GRADES`), as a server worker does; `--cold`
forgets them before every verdict; `--no-grade` asks verdicts without the grade (the page
then asks the `grade` command apart). `--write` replaces the verdict section of
benchmarks/RESULTS.md (its warm, cold or no-grade part).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_section

from starbattle.logic.verdict import GRADES
from starbattle.web import api

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
TARGETS = {(10, 2): 0.150, (14, 3): 0.400}
"""The p95 latency each size and star count must stay under (seconds)."""
SEED = 33


def walls(rows: list[str]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every pair of neighbouring cells (0-based) in different regions."""
    size = len(rows)
    return [
        ((r, c), (r + dr, c + dc))
        for r in range(size)
        for c in range(size)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < size and c + dc < size and rows[r][c] != rows[r + dr][c + dc]
    ]


def edits(puzzle: dict, rng: random.Random, count: int) -> list[tuple[str, list[str]]]:
    """The edit sequence of a puzzle: each edit then its undo, with the kind of each."""
    rows = puzzle["regions"]
    sequence = []
    for (r, c), (i, j) in rng.sample(walls(rows), count):
        mine, theirs = rows[r][c], rows[i][j]
        merged = [row.replace(theirs, mine) for row in rows]
        moved = [list(row) for row in rows]
        moved[r][c] = theirs
        sequence += [("wall removed", merged), ("undo", rows)]
        if sum(row.count(mine) for row in rows) > 1:
            sequence += [("cell moved", ["".join(row) for row in moved]), ("undo", rows)]
    return sequence


def timed(rows: list[str], stars: int, graded: bool) -> tuple[float, float, dict]:
    """One verdict request's seconds (wall and CPU) and its record."""
    payload = {"board": json.dumps({"stars": stars, "regions": rows}), "grade": graded}
    started, cpu = time.perf_counter(), time.process_time()
    status, answer = api.answered("verdict", payload)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert status == 200, answer
    return seconds, cpu, answer["records"][0]


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(size: int, stars: int, puzzles: int, count: int, cold: bool, graded: bool) -> dict:
    """Replay the edit sequences of one size and star count; latencies by kind of edit."""
    with (CORPUS / "real-puzzles.jsonl").open() as lines:
        found = [json.loads(line) for line in lines]
    chosen = [
        p for p in found if (p["n"], p["stars"]) == (size, stars) and p["solution_count"] == 1
    ]
    rng = random.Random(SEED)
    rng.shuffle(chosen)
    chosen = chosen[:puzzles] if puzzles else chosen
    times: dict[str, list[float]] = {}
    outcomes: dict[str, int] = {}
    cpus: list[float] = []
    slowest: list[tuple[float, str, str, str]] = []
    for puzzle in chosen:
        for kind, rows in edits(puzzle, rng, count):
            if cold:
                GRADES.clear()
            seconds, cpu, verdict = timed(rows, stars, graded)
            times.setdefault(kind, []).append(seconds)
            cpus.append(cpu)
            said = "problems" if verdict["problems"] else f"{verdict['solutions']} solutions"
            slowest = sorted([*slowest, (seconds, kind, said, puzzle["id"])], reverse=True)[:5]
            outcomes[f"{kind}: {said}"] = outcomes.get(f"{kind}: {said}", 0) + 1
    every = [t for kinds in times.values() for t in kinds]
    return {
        "size": size,
        "stars": stars,
        "puzzles": len(chosen),
        "verdicts": len(every),
        "median": statistics.median(every),
        "p95": percentile(every, 0.95),
        "worst": max(every),
        "cpu_median": statistics.median(cpus),
        "cpu_p95": percentile(cpus, 0.95),
        "slowest": slowest,
        "kinds": {
            kind: (len(t), statistics.median(t), percentile(t, 0.95)) for kind, t in times.items()
        },
        "outcomes": outcomes,
    }


def report(measured: list[dict], half: str) -> str:
    """The RESULTS.md section of one way of measuring (warm, cold or no-grade)."""
    load = os.getloadavg()[0]
    how = {
        "cold": "every grade computed anew (`--cold`)",
        "warm": "grades of boards judged lately remembered, as in a server worker",
        "no-grade": "verdicts without the grade (`--no-grade`; the page asks `grade` apart)",
    }[half]
    lines = [
        f"<!-- verdict-{half}: begin -->",
        f"### Live verdict, {half}: {how}",
        "",
        "Edit sequences replayed from real unique puzzles of "
        "`../shared/corpus/real-puzzles.jsonl` (seeded sample): walls between two regions "
        "removed (the two regions merge) and restored, and a wall's cell moved across it and "
        "back; each verdict timed as a server worker runs it "
        '(`web.api.answered("verdict", ...)`: JSON in, records out), in one '
        f"process on the shared 2-core machine (load {load:.1f} at the end: the wall times "
        "count the other work on it; a verdict's CPU time is what it takes alone).",
        "",
        "| board | puzzles | verdicts | median | p95 | target p95 | worst | CPU median | CPU p95 "
        "| slowest |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in measured:
        _, kind, said, identifier = m["slowest"][0]
        lines.append(
            f"| {m['size']}x{m['size']} {m['stars']}★ | {m['puzzles']} | {m['verdicts']} | "
            f"{m['median'] * 1000:.0f} ms | {m['p95'] * 1000:.0f} ms | "
            f"≤ {TARGETS[(m['size'], m['stars'])] * 1000:.0f} ms | {m['worst'] * 1000:.0f} ms | "
            f"{m['cpu_median'] * 1000:.0f} ms | {m['cpu_p95'] * 1000:.0f} ms | "
            f"{identifier}, {kind}: {said} |"
        )
    lines += ["", "| board | edit | verdicts | median | p95 |", "|---|---|---|---|---|"]
    for m in measured:
        for kind, (n, median, p95) in m["kinds"].items():
            lines.append(
                f"| {m['size']}x{m['size']} {m['stars']}★ | {kind} | {n} | "
                f"{median * 1000:.0f} ms | {p95 * 1000:.0f} ms |"
            )
    lines.append(f"<!-- verdict-{half}: end -->")
    return "\n".join(lines)


def main() -> None:
    """Parse the arguments, measure, print (and write) the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=int, default=60)
    parser.add_argument("--walls", type=int, default=4)
    parser.add_argument("--sizes", nargs="+", default=["10x2", "14x3"])
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--no-grade", dest="graded", action="store_false")
    parser.add_argument("--write", action="store_true")
    options = parser.parse_args()
    measured = []
    for name in options.sizes:
        size, stars = (int(part) for part in name.split("x"))
        measured.append(
            measure(size, stars, options.puzzles, options.walls, options.cold, options.graded)
        )
        print(json.dumps(measured[-1]), flush=True)
    half = "no-grade" if not options.graded else "cold" if options.cold else "warm"
    section = report(measured, half)
    print(section)
    if options.write:
        write_section(f"<!-- verdict-{half}: begin -->", f"<!-- verdict-{half}: end -->", section)


if __name__ == "__main__":
    main()
