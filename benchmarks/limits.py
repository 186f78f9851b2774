"""Measure what large boards cost (peak memory, grounding, first solution), to set MAX_SIZE.

    python benchmarks/limits.py [SIZES...]   (default: 25 50 75 100 150 200)

Each case runs in its own process (peak memory is the process's maximum resident set): a
board whose regions are its rows (1 star; many solutions) and a board of N connected regions
cut around a planted solution with S = N // 10 stars (starbattle.generate's claim and
grow, no reshaping). Every search has a 60 s limit. Results go to benchmarks/limits.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = r"""
import json, random, resource, sys, time
from starbattle import Board, Solver, write_board
from starbattle.formats import parse_board
size, kind = {size}, {kind!r}
began = time.perf_counter()
if kind == "rows":
    board = Board.from_rows([[str(r)] * size for r in range(size)], 1)
else:
    from starbattle import generate as plant
    rng = random.Random(1)
    stars = max(1, size // 10)
    rows = Board.from_rows([[str(r)] * size for r in range(size)], stars)
    randomly = ("--rand-freq=0.05", "--sign-def=rnd", "--seed=1")
    found = list(Solver(rows, clingo_args=randomly).solutions(1, timeout=60))
    if not found:
        print(json.dumps({{"failed": "no star placement found in 60 s"}}))
        sys.exit(0)
    planted = [(r - 1, c - 1) for r, c in found[0].stars]
    board = Board.from_rows(plant.grow(plant.claim(size, stars, planted), rng), stars)
made = time.perf_counter() - began
text = write_board(board, "lp")
began = time.perf_counter()
board = parse_board(text)
read = time.perf_counter() - began
solver = Solver(board)
found = list(solver.solutions(2, timeout=60))
print(json.dumps({{"stars": board.stars, "lp_bytes": len(text), "read": read,
    "ground": solver.stats.ground_seconds, "rules": solver.stats.rules,
    "solve": solver.last.seconds, "found": len(found), "timed_out": solver.last.timed_out,
    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


PIGEONS = """p(1..12). h(1..11). 1 { in(P,H) : h(H) } 1 :- p(P).
:- h(H), 2 { in(P,H) : p(P) }.
{ star(R,C) : region(R,C,_) }.
#show star/2.
"""


def timeout_overshoot() -> list[str]:
    """How far past the limit a model-less search stops, for a few limits."""
    import statistics
    import tempfile

    from starbattle import Solver, read_board

    board = read_board(str(ROOT / "instances" / "pzprjs-6x6-1star.lp"))
    with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as program:
        program.write(PIGEONS)
    rows = []
    for limit in (0.2, 1.0, 3.0):
        late = []
        for _ in range(5):
            solver = Solver(board, encoding=program.name)
            list(solver.solutions(1, timeout=limit))
            late.append(solver.last.seconds - limit)
        rows.append(
            f"| {limit:g} s | {statistics.median(late) * 1000:.0f} ms | {max(late) * 1000:.0f} ms |"
        )
    Path(program.name).unlink()
    return rows


def main() -> None:
    """Run every case and write benchmarks/limits.md."""
    sizes = [int(arg) for arg in sys.argv[1:]] or [25, 50, 75, 100, 150, 200]
    rows = []
    for size in sizes:
        for kind in ("rows", "planted"):
            code = CASE.format(size=size, kind=kind)
            done = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
            if done.returncode != 0:
                rows.append(f"| {size} | {kind} | failed: {done.stderr.strip()[-100:]} | | | | | |")
                continue
            r = json.loads(done.stdout)
            if "failed" in r:
                rows.append(f"| {size}x{size} | {kind} | {r['failed']} | | | | |")
                continue
            status = "timed out" if r["timed_out"] else f"{r['found']} found"
            rows.append(
                f"| {size}x{size} | {kind}, {r['stars']}★ | {r['lp_bytes'] // 1024} KiB "
                f"| {r['read']:.2f} s | {r['ground']:.2f} s ({r['rules']} rules) | "
                f"{r['solve']:.2f} s, {status} | {r['peak_mib']:.0f} MiB |"
            )
            print(rows[-1], flush=True)
    overshoot = timeout_overshoot()
    text = "\n".join(
        [
            "# Large boards: what they cost",
            "",
            "`python benchmarks/limits.py " + " ".join(map(str, sizes)) + "` on the 2-core "
            "development machine. First two solutions (proof of uniqueness or not), 60 s limit.",
            "",
            "| size | board | lp file | read | ground | solve (2 models) | peak memory |",
            "|---|---|---|---|---|---|---|",
            *rows,
            "",
            "## How closely --timeout is kept",
            "",
            "A search that finds no model (a pigeonhole program: 12 pigeons, 11 holes) with a "
            "time limit T; the search stops at T plus the overshoot below (5 runs each).",
            "",
            "| T | overshoot, median | worst |",
            "|---|---|---|",
            *overshoot,
            "",
        ]
    )
    (ROOT / "benchmarks" / "limits.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
