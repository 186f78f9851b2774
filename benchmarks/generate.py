"""Time the generator: median seconds per puzzle by size, written to benchmarks/RESULTS.md.

    python benchmarks/generate.py [PUZZLES_PER_SIZE] [NxS ...]   (default 5, every size)

NxS (e.g. 14x3 21x5) runs only those sizes.

Each size runs twice: every attempt in this process, then raced by two processes (the same
puzzles). A puzzle's time counts every attempt it took (seeds that hit a plateau included). Each
puzzle is re-checked by counting inside the generator; here it is also checked to have N
connected regions. The section between the generate markers of RESULTS.md is replaced.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import sys
import time

import clingo
from results import write_section  # benchmarks/ is the script's folder: on sys.path

from starbattle import __version__
from starbattle.logic.generate import generate
from starbattle.logic.regions import connected
from starbattle.run.batch import racing

BEGIN, END = "<!-- generate: begin -->", "<!-- generate: end -->"
CASES = [
    (6, 1),
    (7, 1),
    (8, 1),
    (9, 1),
    (10, 1),
    (11, 1),
    (10, 2),
    (14, 3),
    (17, 4),
    (21, 5),
    (25, 6),
]
TARGETS = {(14, 3): "≤ 2 s", (21, 5): "≤ 5 s", (25, 6): "≤ 30 s"}
"""Median seconds per size; and at every size no puzzle over 4x its size's median."""
RACES = (1, 2)
"""Processes that make each puzzle's attempts (`generate(race=...)`): 1, and 2 on 2 cores."""


def cpu_seconds() -> float:
    """CPU seconds of this process and of its ended children (the processes of a race)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    """Generate puzzles of every size, in one process and raced by two, and write the table."""
    per_size = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    chosen = {tuple(int(n) for n in case.split("x")) for case in sys.argv[2:]}
    rows, started, load = [], time.perf_counter(), os.getloadavg()[0]
    for size, stars in CASES:
        if chosen and (size, stars) not in chosen:
            continue
        made = {}
        for race in RACES:
            times, cpu = [], []
            clock = cpu_seconds()
            racer = racing(race) if race > 1 else None
            for puzzle in generate(size, stars, per_size, seed="bench", race=racer):
                cpu.append(cpu_seconds() - clock)
                clock = cpu_seconds()
                cells = puzzle.board.region_cells()
                assert len(cells) == size and all(
                    connected({(r - 1, c - 1) for r, c in group}) for group in cells.values()
                )
                times.append(puzzle.seconds)
                made.setdefault(race, []).append(puzzle.board)
            median = statistics.median(times)
            rows.append(
                f"| {size}x{size} {stars}★ | {race} | {per_size} | {median:.2f} s | "
                f"{min(times):.2f} s | {max(times):.2f} s | {max(times) / median:.1f}x | "
                f"{statistics.median(cpu):.2f} s | {max(cpu):.2f} s | "
                f"{TARGETS.get((size, stars), '')} |"
            )
            print(rows[-1], flush=True)
        assert all(boards == made[1] for boards in made.values())  # a race changes nothing
    section = "\n".join(
        [
            BEGIN,
            "## Generator",
            "",
            f"`python benchmarks/generate.py {' '.join(sys.argv[1:]) or per_size}`: starbattle-asp "
            f"{__version__}, clingo "
            f"{clingo.__version__}, Python {platform.python_version()}, 2 cores; "
            f"{time.perf_counter() - started:.0f} s in all. Seconds per puzzle, every attempt "
            "included; each puzzle unique (consequences, then a count) with N connected regions "
            f"of at least 2S+1 cells. Load average {load:.1f} at the start (2 shared cores): "
            "CPU seconds (this process and the processes of a race) beside wall seconds. "
            "Processes: 1, every attempt made here in turn; 2, two processes take a puzzle's "
            "attempts in turn and the first success in order is kept (`generate -j 2` for "
            "one puzzle), the same puzzles.",
            "",
            "| board | processes | puzzles | median | fastest | slowest | slowest / median | "
            "CPU median | CPU slowest | target (median; slowest ≤ 4x) |",
            "|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            "Method and reasoning: see the docstring of `starbattle/logic/generate.py` and the "
            "README.",
            END,
        ]
    )
    write_section(BEGIN, END, section)
    print(section)


if __name__ == "__main__":
    main()
