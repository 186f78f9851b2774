"""A Dask LocalCluster of 2 workers against the -j 2 process pool, on the same work function.

    python benchmarks/cluster.py [--limit N] [--repeat R] [--chunks 16,64,256]

Solves the StarBattleLab 10x10 2★ file (40,038 puzzles; `--limit` takes the first N) as
`solve FILE -j 2` does (each record through `results.solve_all`), once with
`batch.run_all(work, items, 2)` and once per chunk size with
`cluster.run_on_cluster(work, items, "local:2")`, runs interleaved R times. Wall time
includes starting the workers (the LocalCluster's start is also timed alone). Every run's
output lines, timings blanked, must equal the pool's. The section between the cluster
markers of RESULTS.md is replaced.
"""

from __future__ import annotations

import argparse
import platform
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import distributed
from results import write_section  # benchmarks/ is the script's folder: on sys.path

from starbattle import __version__
from starbattle.io.formatters.text import TextFormatter
from starbattle.io.inputs import Record, records
from starbattle.io.output import Output
from starbattle.run.batch import chunk_size, run_all
from starbattle.run.cluster import connect, run_on_cluster
from starbattle.run.service import Item, SolveRequest, solve_all

BEGIN, END = "<!-- cluster: begin -->", "<!-- cluster: end -->"
FILE = Path(__file__).resolve().parents[1] / "../shared/corpus/starbattlelab/10x10-2star.sbn"
POOL = "-j 2 pool"
SECONDS = re.compile(r"\([0-9.]+ s\)")
Runner = Callable[[Callable[[Record], list[Item]], list[Record]], Iterator[list[Item]]]


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children (the workers)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(runner: Runner, found: list[Record]) -> tuple[float, float, list[str]]:
    """Wall and CPU seconds to run every record and show its items; the lines, untimed."""
    output = Output("kept")  # lines kept in output.kept; never closed, so nothing is written
    show = TextFormatter(output, collection=True)
    started, cpu = time.perf_counter(), cpu_seconds()
    for record, items in zip(found, runner(partial(solve_all, SolveRequest()), found), strict=True):
        show.start(record.identifier)
        for item in items:
            show.show(item)
    wall, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    return wall, cpu, [SECONDS.sub("(t)", line) for line in output.kept]


def startup_seconds() -> float:
    """Seconds to start (and stop) a LocalCluster of 2 workers with nothing to do."""
    started = time.perf_counter()
    with connect("local:2"):
        ready = time.perf_counter()
    return ready - started


def main() -> None:
    """Time the pool and the cluster, check they agree, and write the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved runs of each mode")
    parser.add_argument("--chunks", default="auto", help="cluster chunk sizes, e.g. 16,64,256")
    options = parser.parse_args()
    found = records(str(FILE))[: options.limit]
    chunks = [
        chunk_size(len(found), 2) if size == "auto" else int(size)
        for size in options.chunks.split(",")
    ]
    modes: dict[str, Runner] = {POOL: partial(run_all, jobs=2)}
    for size in chunks:
        modes[f"local:2, chunk {size}"] = partial(run_on_cluster, address="local:2", chunk=size)
    walls: dict[str, list[float]] = {name: [] for name in modes}
    cpus: dict[str, list[float]] = {name: [] for name in modes}
    expected: list[str] | None = None
    starts = []
    for _ in range(options.repeat):
        starts.append(startup_seconds())
        for name, runner in modes.items():
            wall, cpu, output = timed(runner, found)
            expected = expected or output
            assert output == expected, f"{name}: output differs from the pool's"
            walls[name].append(wall)
            cpus[name].append(cpu)
            print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    pool_wall, pool_cpu = statistics.median(walls[POOL]), statistics.median(cpus[POOL])
    start = statistics.median(starts)
    rows = []
    for name in modes:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        steady = wall - (start if name != POOL else 0)
        rows.append(
            f"| {name} | {wall:.1f} s | {max(walls[name]):.1f} s | "
            f"{1000 * wall / len(found):.2f} ms | {100 * (wall / pool_wall - 1):+.1f}% | "
            f"{100 * (steady / pool_wall - 1):+.1f}% | {1000 * cpu / len(found):.2f} ms | "
            f"{100 * (cpu / pool_cpu - 1):+.1f}% |"
        )
    section = "\n".join(
        [
            BEGIN,
            "## Collections on a Dask cluster",
            "",
            f"`python benchmarks/cluster.py {' '.join(sys.argv[1:])}`: starbattle-asp "
            f"{__version__}, distributed {distributed.__version__}, Python "
            f"{platform.python_version()}, 2 cores shared with other work. {len(found)} "
            f"puzzles of `starbattlelab/{FILE.name}` solved as `solve FILE -j 2` does "
            f"(`results.solve_all`, text), {options.repeat} interleaved run(s) of each mode; "
            "wall time from the call to the last outcome consumed, worker start included; "
            "CPU: this process and its workers (user + system), which other work on the "
            f"machine disturbs less. A LocalCluster of 2 workers takes {start:.1f} s to start "
            "(median); 'steady' leaves that out. Every run's output equals the pool's, "
            "timings blanked.",
            "",
            "| mode | wall (median) | wall (slowest) | wall per puzzle | overhead | steady "
            "overhead | CPU per puzzle | CPU overhead |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            END,
        ]
    )
    write_section(BEGIN, END, section)
    print(section)


if __name__ == "__main__":
    main()
