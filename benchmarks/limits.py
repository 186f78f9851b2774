"""Measure what large boards cost, to set MAX_SIZE, and how closely time limits are kept.

    python benchmarks/limits.py [SIZES...]        (default: 25 50 75 100 150 200)
    python benchmarks/limits.py --time-limits [--repeat K] [SIZES...]   (default: 10 50 100)

Costs: each case runs in its own process (peak memory is the process's maximum resident
set): a board whose regions are its rows (1 star; many solutions) and a board of N connected
regions cut around a planted solution with S = N // 10 stars (starbattle.logic.regions's claim
and grow, no reshaping). Every search has a 60 s limit.

Time limits: solve (every solution of the rows board; grounding included, as the command
line does it: Solver(ground_timeout=T), then the search gets what is left), a partial
answer's check and the fixed cells (of the planted board), generate (N x N, N // 10
stars), and grounding an endless -e program under the command line's signal handling (a
child process, which ends itself at the limit). Each case runs K times (default 3) for
limits of 1 s and 3 s. Overshoot: how long after the limit the call returned (or the
process ended); a call that finished before its limit has none.

Each part replaces its own section of benchmarks/limits.md.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from results import write_section  # benchmarks/ is the script's folder: on sys.path

from starbattle import Board

ROOT = Path(__file__).resolve().parent.parent
LIMITS_MD = ROOT / "benchmarks" / "limits.md"
CASE = r"""
import json, random, resource, sys, time
from starbattle import Board, Solver, write_board
from starbattle.io.inputs import parse_board
size, kind = {size}, {kind!r}
began = time.perf_counter()
if kind == "rows":
    board = Board.from_rows([[str(r)] * size for r in range(size)], 1)
else:
    from starbattle.logic.regions import claim, grow
    rng = random.Random(1)
    stars = max(1, size // 10)
    rows = Board.from_rows([[str(r)] * size for r in range(size)], stars)
    randomly = ("--rand-freq=0.05", "--sign-def=rnd", "--seed=1")
    found = list(Solver(rows, clingo_args=randomly).solutions(1, timeout=60))
    if not found:
        print(json.dumps({{"failed": "no star placement found in 60 s"}}))
        sys.exit(0)
    planted = [(r - 1, c - 1) for r, c in found[0].stars]
    board = Board.from_rows(grow(claim(size, stars, planted), rng), stars)
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


ENDLESS = "p(0). p(X+1) :- p(X).\n"
RUN = """
import sys, time
from starbattle.run import interrupts
from starbattle import read_board
from starbattle.logic.generate import GenerateTimeout, generate
from starbattle.logic.insight import check_partial, fixed_cells
from starbattle.asp.solver import Solver
case, source, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
board = None if case == "generate" else read_board(sys.argv[4] if case == "ground" else source)


def solve():
    started = time.perf_counter()
    solver = Solver(board, ground_timeout=limit)
    for _ in solver.solutions(0, max(0.0, limit - (time.perf_counter() - started))):
        pass
    return solver.last.timed_out


def made():
    try:
        next(generate(int(source), max(1, int(source) // 10), seed="limits", timeout=limit))
    except GenerateTimeout:
        return True
    return False


CASES = {
    "solve": solve,
    "partial": lambda: not check_partial(board, [], [], against_solution=True,
                                         timeout=limit).complete,
    "fixed": lambda: not fixed_cells(board, timeout=limit).complete,
    "generate": made,
    "ground": lambda: Solver(board, encoding=source, ground_timeout=limit) and False,
}
with interrupts.handled():
    print(time.time(), flush=True)
    limited = CASES[case]()
    print(time.time(), int(limited), flush=True)
"""
SIZES_FOR_LIMITS = (10, 50, 100)
NAMES = {
    "solve": "solve -n 0 (rows board, 1★), grounding included",
    "partial": "check of a partial answer (planted board)",
    "fixed": "--fixed (planted board)",
    "generate": "generate N x N, N // 10 ★",
    "ground": "grounding an endless -e program",
}
Run = tuple[float, bool]
"""Seconds a call took, and whether its time limit stopped it."""


def planted_board(size: int) -> Board:
    """N regions cut around a random planted solution with N // 10 stars (many solutions)."""
    import random

    from starbattle.logic.generate import plant
    from starbattle.logic.regions import claim, grow

    rng = random.Random(1)
    stars = max(1, size // 10)
    cells = plant(size, stars, rng)
    assert cells is not None
    return Board.from_rows(grow(claim(size, stars, cells), rng), stars)


def run_once(case: str, source: str, limit: float, board: str) -> Run:
    """One call in a child process under the command line's signal handling."""
    child = subprocess.Popen(
        [sys.executable, "-c", RUN, case, source, str(limit), board],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    began = float(child.stdout.readline())  # after imports and reading the board
    end = child.stdout.readline().split()
    child.wait()
    if end:
        return float(end[0]) - began, end[1] == "1"
    assert child.returncode == 3, f"{case} {source} {limit}: exit {child.returncode}"
    return time.time() - began, True  # ended while grounding (guard.grounding)


def time_limits(sizes: list[int], repeat: int) -> list[str]:
    """Rows of the time-limit table."""
    import tempfile

    from starbattle import write_board

    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "endless.lp").write_text(ENDLESS)
        small = str(ROOT / "instances" / "pzprjs-6x6-1star.lp")
        for size in sizes:
            boards = {
                "rows": Board.from_rows([[str(r)] * size for r in range(size)], 1),
                "planted": planted_board(size),
            }
            for name, board in boards.items():
                (folder / f"{name}.lp").write_text(str(write_board(board, "lp")))
            sources = {
                "solve": str(folder / "rows.lp"),
                "partial": str(folder / "planted.lp"),
                "fixed": str(folder / "planted.lp"),
                "generate": str(size),
            }
            if size == min(sizes):
                sources["ground"] = str(folder / "endless.lp")
            for limit in (1.0, 3.0):
                for case, source in sources.items():
                    runs = [run_once(case, source, limit, small) for _ in range(repeat)]
                    rows.append(row(size, NAMES[case], limit, runs))
                    print(rows[-1], flush=True)
    return rows


def row(size: int, name: str, limit: float, runs: list[Run]) -> str:
    """One table row: how often the limit stopped the call, and how late."""
    over = [max(0.0, seconds - limit) for seconds, limited in runs if limited]
    allowed = max(0.5, 0.1 * limit)
    verdict = "ok" if all(late <= allowed for late in over) else "**too late**"
    late = (
        f"{statistics.median(over) * 1000:.0f} ms | {max(over) * 1000:.0f} ms"
        if over
        else "n/a | n/a"
    )
    return (
        f"| {size}x{size} | {name} | {limit:g} s | {len(over)}/{len(runs)} | "
        f"{statistics.median(s for s, _ in runs):.2f} s | {late} | {verdict} |"
    )


def main() -> None:
    """Run the chosen part and write its section of benchmarks/limits.md."""
    arguments = sys.argv[1:]
    if "--time-limits" not in arguments:
        costs(arguments)
        return
    arguments.remove("--time-limits")
    repeat = 3
    if "--repeat" in arguments:
        at = arguments.index("--repeat")
        repeat = int(arguments[at + 1])
        del arguments[at : at + 2]
    sizes = [int(arg) for arg in arguments] or list(SIZES_FOR_LIMITS)
    rows = time_limits(sizes, repeat)
    command = f"python benchmarks/limits.py --time-limits --repeat {repeat} " + " ".join(
        map(str, sizes)
    )
    section(
        "time-limits",
        [
            "## How closely time limits are kept",
            "",
            f"`{command}` on the shared 2-core machine. Target: overshoot ≤ 0.5 s or 10 % of "
            "the limit, whichever is larger. 'limit hit' counts the runs the limit stopped "
            "(the others finished first: nothing to overshoot); 'took' is the median wall "
            "time of a call. Each call runs in a child process under the command line's "
            "signal handling (`interrupts.handled()`), timed from after its imports and "
            "reading its board to its return, or to the process's end when it is ended "
            "while grounding (exit 3). The endless program is grounded with a 6x6 board.",
            "",
            "| board | call | limit | limit hit | took | overshoot, median | worst | |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ],
    )


def section(name: str, lines: list[str]) -> None:
    """Replace one part's section of benchmarks/limits.md, and print it."""
    begin, end = f"<!-- {name}: begin -->", f"<!-- {name}: end -->"
    text = "\n".join([begin, *lines, end])
    write_section(begin, end, text, LIMITS_MD, "Large boards and time limits")
    print(text)


def costs(arguments: list[str]) -> None:
    """Run every large-board case and write its section of benchmarks/limits.md."""
    sizes = [int(arg) for arg in arguments] or [25, 50, 75, 100, 150, 200]
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
    section(
        "costs",
        [
            "## Large boards: what they cost",
            "",
            "`python benchmarks/limits.py " + " ".join(map(str, sizes)) + "` on the 2-core "
            "development machine. First two solutions (proof of uniqueness or not), 60 s limit.",
            "",
            "| size | board | lp file | read | ground | solve (2 models) | peak memory |",
            "|---|---|---|---|---|---|---|",
            *rows,
            "",
            "### How closely a search's --timeout is kept",
            "",
            "A search that finds no model (a pigeonhole program: 12 pigeons, 11 holes) with a "
            "time limit T; the search stops at T plus the overshoot below (5 runs each).",
            "",
            "| T | overshoot, median | worst |",
            "|---|---|---|",
            *overshoot,
        ],
    )


if __name__ == "__main__":
    main()
