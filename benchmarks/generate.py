"""Time the generator: median seconds per puzzle by size, written to benchmarks/RESULTS.md.

    python benchmarks/generate.py [PUZZLES_PER_SIZE] [NxS ...]   (default 5, every size)

NxS (e.g. 14x3 21x5) runs only those sizes.

A puzzle's time counts every attempt it took (seeds that hit a plateau included). Each
puzzle is re-checked by counting inside the generator; here it is also checked to have N
connected regions. The section between the generate markers of RESULTS.md is replaced.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

import clingo
from results import write_section  # benchmarks/ is the script's folder: on sys.path

from starbattle import __version__
from starbattle.generate import connected, generate

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


def main() -> None:
    """Generate puzzles of every size and write the table."""
    per_size = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    chosen = {tuple(int(n) for n in case.split("x")) for case in sys.argv[2:]}
    rows, started, load = [], time.perf_counter(), os.getloadavg()[0]
    for size, stars in CASES:
        if chosen and (size, stars) not in chosen:
            continue
        count = per_size
        times, cpu = [], []
        clock = time.process_time()
        for puzzle in generate(size, stars, count, seed="bench"):
            cpu.append(time.process_time() - clock)
            clock = time.process_time()
            cells = puzzle.board.region_cells()
            assert len(cells) == size and all(
                connected({(r - 1, c - 1) for r, c in group}) for group in cells.values()
            )
            times.append(puzzle.seconds)
        median = statistics.median(times)
        rows.append(
            f"| {size}x{size} {stars}★ | {count} | {median:.2f} s | {min(times):.2f} s | "
            f"{max(times):.2f} s | {max(times) / median:.1f}x | {statistics.median(cpu):.2f} s | "
            f"{max(cpu):.2f} s | {TARGETS.get((size, stars), '')} |"
        )
        print(rows[-1], flush=True)
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
            "CPU seconds (this process) beside wall seconds.",
            "",
            "| board | puzzles | median | fastest | slowest | slowest / median | CPU median | "
            "CPU slowest | target (median; slowest ≤ 4x) |",
            "|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            "Method and reasoning: see the docstring of `starbattle/generate.py` and the README.",
            END,
        ]
    )
    write_section(BEGIN, END, section)
    print(section)


if __name__ == "__main__":
    main()
