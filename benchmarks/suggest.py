"""The setter's suggestions on real puzzles made ambiguous by one random single-cell move.

    python benchmarks/suggest.py [--cases 200] [--sizes 10x2 14x3] [-j 2] [--write]

Each case takes a real unique puzzle of ../shared/corpus/real-puzzles.jsonl (every puzzle
of the size and star count, in a seeded shuffled order, each used once while they last),
moves one random cell to a random neighbouring region (keeping every region connected and
non-empty) until the board has two or more solutions, and times `suggest` (no grades) until
its first suggestion, within the target's time limit (2 s at 10x10 2 stars, 10 s at 14x14 3
stars). Every suggestion is re-verified unique by an independent count (a fresh Solver on
its own grounding, counting every solution). `--write` replaces the suggest section of
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_section

from starbattle import Board
from starbattle.asp.solver import Solver
from starbattle.logic.regions import Regions
from starbattle.logic.suggest import suggest
from starbattle.model.setter import Suggestion

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
LIMITS = {(10, 2): 2.0, (14, 3): 10.0}
"""The targets' time limit per case (seconds), by size and star count."""
TARGETS = {(10, 2): 0.95, (14, 3): 0.90}
"""The share of cases that must find a fix within the limit."""
SEED = 33


def unique_puzzles(size: int, stars: int) -> list[dict]:
    """The corpus's unique puzzles of a size and star count, in a seeded shuffled order."""
    with (CORPUS / "real-puzzles.jsonl").open() as lines:
        found = [json.loads(line) for line in lines]
    chosen = [
        p for p in found if (p["n"], p["stars"]) == (size, stars) and p["solution_count"] == 1
    ]
    random.Random(SEED).shuffle(chosen)
    return chosen


def ambiguous(puzzle: dict, rng: random.Random) -> tuple[Board, tuple] | None:
    """The puzzle after one random legal single-cell move that leaves 2+ solutions."""
    board = Board.from_rows([list(row) for row in puzzle["regions"]], puzzle["stars"])
    labels = board.region_labels
    grid = [[labels.index(label) + 1 for label in row] for row in board.regions]
    regions = Regions(grid)
    moves = [
        ((r, c), target)
        for r in range(regions.size)
        for c in range(regions.size)
        for target in regions.neighbours(r, c)
    ]
    rng.shuffle(moves)
    for (r, c), target in moves:
        own = regions.grid[r][c]
        if len(regions.cells[own]) <= 1:
            continue
        regions.move((r, c), target)
        whole = regions.still_connected(own, (r, c))
        rows = [[labels[n - 1] for n in row] for row in regions.grid]
        regions.move((r, c), own)
        if not whole:
            continue
        moved = Board.from_rows(rows, board.stars)
        if len(list(Solver(moved, clingo_args=("--seed=0",)).solutions(2))) == 2:
            return moved, ((r + 1, c + 1), labels[own - 1], labels[target - 1])
    return None


def independent_count(board: Board) -> int:
    """Every solution of a board counted on a grounding of its own (no shared state)."""
    return Solver(board, clingo_args=("--seed=1",)).count().found


def run_case(arguments: tuple[int, int, int, dict]) -> dict:
    """One case: make the puzzle ambiguous, time suggest's first fix, re-verify it."""
    size, stars, index, puzzle = arguments
    rng = random.Random(f"{SEED}/{size}/{index}")
    made = ambiguous(puzzle, rng)
    if made is None:
        return {"id": puzzle["id"], "skipped": True}
    board, move = made
    limit = LIMITS[(size, stars)]
    started = time.perf_counter()
    first, summary = None, None
    for item in suggest(board, most=1, graded=False, timeout=limit):
        if isinstance(item, Suggestion):
            first = item
            seconds = time.perf_counter() - started
        else:
            summary = item
    total = time.perf_counter() - started
    verified = first is not None and independent_count(first.fixed) == 1
    return {
        "id": puzzle["id"],
        "move": [list(move[0]), move[1], move[2]],
        "found": first is not None,
        "seconds": seconds if first is not None else total,
        "moves": 0 if first is None else len(first.moves),
        "tried": summary.tried if summary is not None else 0,
        "verified": verified,
    }


def measure(size: int, stars: int, cases: int, jobs: int) -> dict:
    """Run the cases of one size and star count; their results and summary."""
    puzzles = unique_puzzles(size, stars)
    work = [(size, stars, index, puzzles[index % len(puzzles)]) for index in range(2 * cases)]
    results = []
    with Pool(jobs) as pool:
        for result in pool.imap(run_case, work):
            if not result.get("skipped"):
                results.append(result)
            if len(results) == cases:
                break
    times = sorted(r["seconds"] for r in results if r["found"])
    found = sum(r["found"] for r in results)
    return {
        "size": size,
        "stars": stars,
        "puzzles": len(puzzles),
        "cases": len(results),
        "found": found,
        "verified": sum(r["verified"] for r in results),
        "rate": found / len(results),
        "median": statistics.median(times) if times else None,
        "p95": times[int(0.95 * (len(times) - 1))] if times else None,
        "worst": times[-1] if times else None,
        "tried": statistics.median(r["tried"] for r in results),
        "pairs": sum(r["moves"] == 2 for r in results),
        "misses": [r for r in results if not r["found"]][:5],
    }


def report(measured: list[dict], jobs: int) -> str:
    """The RESULTS.md section."""
    load = os.getloadavg()[0]
    lines = [
        "<!-- suggest: begin -->",
        "## Suggestions (`python benchmarks/suggest.py --write`)",
        "",
        "Real unique puzzles of `../shared/corpus/real-puzzles.jsonl` (seeded shuffle, each "
        "used once while they last) made ambiguous by one random single-cell move that keeps "
        "every region connected; `suggest` (no grades) timed to its first suggestion, every "
        "suggestion re-verified unique by an independent count (a fresh Solver on its own "
        f"grounding). {jobs} processes on the shared 2-core machine, load {load:.1f} at the end.",
        "",
        "| board | puzzles | cases | fix found | target | verified unique | median | p95 | worst "
        "| boards tried (median) | pairs |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in measured:
        key = (m["size"], m["stars"])
        lines.append(
            f"| {m['size']}x{m['size']} {m['stars']}★ | {m['puzzles']} | {m['cases']} | "
            f"{m['found']} ({m['rate']:.1%}) | ≥ {TARGETS[key]:.0%} within {LIMITS[key]:g} s | "
            f"{m['verified']} of {m['found']} | {m['median']:.3f} s | {m['p95']:.3f} s | "
            f"{m['worst']:.3f} s | {m['tried']:g} | {m['pairs']} |"
        )
    lines.append("<!-- suggest: end -->")
    return "\n".join(lines)


def main() -> None:
    """Parse the arguments, measure, print (and write) the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--sizes", nargs="+", default=["10x2", "14x3"])
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    options = parser.parse_args()
    measured = []
    for name in options.sizes:
        size, stars = (int(part) for part in name.split("x"))
        measured.append(measure(size, stars, options.cases, options.jobs))
        print(json.dumps(measured[-1]), flush=True)
    section = report(measured, options.jobs)
    print(section)
    if options.write:
        write_section("<!-- suggest: begin -->", "<!-- suggest: end -->", section)


if __name__ == "__main__":
    main()
