"""One grounding per board shape against one per board: CPU ms per puzzle, by size.

    python benchmarks/shapes.py [PUZZLES_PER_SIZE]   (default 300)

For each StarBattleLab file (and the corpus's larger sizes), the first puzzles are solved
twice over (prove unique: two models asked), alternating the two ways twice, once with every
board grounded on its own and once on a grounding shared by the boards of its size, star
count and program (region membership switched by external atoms). Process CPU time, so that
a busy machine inflates both sides alike. The section between the shapes markers of
benchmarks/RESULTS.md is replaced; `starbattle.asp.solver.SHARED_LARGEST` is chosen from it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from results import write_section  # benchmarks/ is the script's folder: on sys.path

from starbattle.asp import solver
from starbattle.asp.shapes import SHAPES
from starbattle.io.inputs import parse_board

BEGIN, END = "<!-- shapes: begin -->", "<!-- shapes: end -->"
SBL = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "starbattlelab"
LARGEST = 17
"""Larger boards are left out: at 17x17 the shared grounding is already 6x slower (one 21x21
board took minutes on it)."""


def per_puzzle(boards: list, shared: bool) -> float:
    """CPU milliseconds per puzzle to solve and prove each board unique."""
    solver.shares_grounding = lambda size, stars: shared
    SHAPES.clear()
    started = time.process_time()
    for board in boards:
        assert len(list(solver.Solver(board).solutions(2))) == 1
    return (time.process_time() - started) / len(boards) * 1000


def main() -> None:
    """Measure every size and write the table."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    chosen = solver.shares_grounding
    rows = []
    for path in sorted(SBL.glob("*.sbn")):
        if int(path.stem[:2]) > LARGEST:
            continue
        lines = path.read_text().split()[:count]
        boards = [parse_board(line) for line in lines]
        alone = [per_puzzle(boards, False) for _ in range(2)]
        shared = [per_puzzle(boards, True) for _ in range(2)]
        ratio = statistics.mean(alone) / statistics.mean(shared)
        size = boards[0].size
        rows.append(
            f"| {path.stem} | {len(boards)} | {statistics.mean(alone):.2f} | "
            f"{statistics.mean(shared):.2f} | {ratio:.2f}x | "
            f"{'shared' if chosen(size, boards[0].stars) else 'per board'} |"
        )
        print(rows[-1], flush=True)
    solver.shares_grounding = chosen
    section = "\n".join(
        [
            BEGIN,
            "## One grounding per shape (`python benchmarks/shapes.py`)",
            "",
            "CPU ms per puzzle, solve and prove unique, the first puzzles of each StarBattleLab "
            f"file up to {LARGEST}x{LARGEST}; mean of two alternating runs of each way.",
            "",
            "| file | puzzles | per board | shared | speed-up | chosen |",
            "|---|---|---|---|---|---|",
            *rows,
            END,
        ]
    )
    write_section(BEGIN, END, section)


if __name__ == "__main__":
    main()
