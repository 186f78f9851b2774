"""Hint ladder benchmark: soundness, honest premises, lowest level, coverage and latency.

    python benchmarks/logic.py [--limit K] [--no-audit] [--sizes 10x2,14x3]

Every unique puzzle of ../shared/corpus/real-puzzles.jsonl and the StarBattleLab "expert"
puzzles of difficulty.jsonl is explained from the empty state with levels 0-6; every step is
audited (`Logic.audit`: agrees with the solution, clingo finds no solution of the rules and
marks where a conclusion fails, nor of the premise units and marks alone, and no lower level
applied). Puzzles that level 6 leaves stuck are finished with level 7. `--limit K` keeps the
first K puzzles of each size and star count (and of the expert set); `--no-audit` times only.
The section between the logic markers of benchmarks/RESULTS.md is replaced.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_section

from starbattle import Board
from starbattle.logic import Logic, State

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@dataclass
class Group:
    """What one group of puzzles (a size and star count, or a named set) measured."""

    puzzles: int = 0
    solved: int = 0
    """Solved with levels 0-6."""
    solved_with_core: int = 0
    steps: int = 0
    over_budget: int = 0
    problems: list[str] = field(default_factory=list)
    step_seconds: list[float] = field(default_factory=list)
    trace_seconds: list[float] = field(default_factory=list)
    levels: dict[int, int] = field(default_factory=lambda: defaultdict(int))


def load(limit: int | None, sizes: set[str] | None) -> list[tuple[str, str, Board]]:
    """(group, id, board) for every puzzle measured, in corpus order."""
    chosen: list[tuple[str, str, Board]] = []
    taken: dict[str, int] = defaultdict(int)
    for name, keep in (
        ("real-puzzles.jsonl", lambda r: r.get("solution_count") == 1),
        (
            "difficulty.jsonl",
            lambda r: r["label"] == "expert" and r["label_scale"].startswith("StarBattleLab"),
        ),
    ):
        for line in (CORPUS / name).read_text().splitlines():
            record = json.loads(line)
            size = f"{record['n']}x{record['stars']}"
            if not keep(record) or (sizes and size not in sizes):
                continue
            group = f"expert {size}" if name.startswith("difficulty") else size
            if record["id"].startswith("kd-"):
                group = f"KrazyDad {size}"
            if limit is not None and taken[group] >= limit:
                continue
            taken[group] += 1
            rows = [list(row) for row in record["regions"]]
            chosen.append((group, record["id"], Board.from_rows(rows, record["stars"])))
    return chosen


def run(task: tuple[str, Board, bool, float]) -> tuple[str, Group]:
    """Explain one board step by step with levels 0-6, timing and auditing each step.

    A board left stuck is finished with level 7; a trace stops when it takes more than the
    budget of seconds (and counts as not solved).
    """
    name, board, audit, budget = task
    group, logic, state = Group(puzzles=1), Logic(board), State()
    started = time.perf_counter()
    for max_level in (6, 7):
        while time.perf_counter() - started < budget:
            before = time.perf_counter()
            step = logic.next_step(state, max_level=max_level)
            if max_level == 6:
                group.step_seconds.append(time.perf_counter() - before)
            if step is None:
                break
            group.steps += max_level == 6
            group.levels[step.level] += 1
            if audit:
                group.problems += [f"{board.name}: {p}" for p in logic.audit(state, step)]
            state = state.after(step)
        else:
            group.over_budget += 1
            if max_level == 6:
                group.trace_seconds.append(sum(group.step_seconds))
            break
        if max_level == 6:
            group.trace_seconds.append(sum(group.step_seconds))  # next_step alone, no audit
            group.solved = int(logic.solved(state))
    group.solved_with_core = int(logic.solved(state))
    return name, group


def merge(into: Group, other: Group) -> None:
    """Add one puzzle's measurements to its group."""
    for name in ("puzzles", "solved", "solved_with_core", "steps", "over_budget"):
        setattr(into, name, getattr(into, name) + getattr(other, name))
    into.problems += other.problems
    into.step_seconds += other.step_seconds
    into.trace_seconds += other.trace_seconds
    for level, count in other.levels.items():
        into.levels[level] += count


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def table(groups: dict[str, Group], audit: bool) -> str:
    """The results as Markdown tables."""
    lines = [
        "| puzzles | n | solved by levels 0-6 | share | with level 7 | steps | "
        + ("problems | " if audit else "")
        + "levels 1/2/3/4/5/6/7 |",
        "|---|---:|---:|---:|---:|---:|" + ("---:|" if audit else "") + "---|",
    ]
    order = sorted(groups, key=lambda g: (len(g.split()), *map(int, g.split()[-1].split("x")), g))
    for name in order:
        g = groups[name]
        levels = "/".join(str(g.levels.get(level, 0)) for level in range(1, 8))
        lines.append(
            f"| {name} | {g.puzzles} | {g.solved} | {100 * g.solved / g.puzzles:.1f}% | "
            f"{100 * g.solved_with_core / g.puzzles:.1f}% | {g.steps} | "
            + (f"{len(g.problems)} | " if audit else "")
            + f"{levels} |"
        )
    lines += [
        "",
        "| puzzles | next_step p50 | next_step p95 | next_step max | trace p50 | trace p95 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in order:
        g = groups[name]
        lines.append(
            f"| {name} | {1000 * percentile(g.step_seconds, 0.5):.1f} ms | "
            f"{1000 * percentile(g.step_seconds, 0.95):.1f} ms | "
            f"{1000 * max(g.step_seconds):.0f} ms | "
            f"{percentile(g.trace_seconds, 0.5):.2f} s | "
            f"{percentile(g.trace_seconds, 0.95):.2f} s |"
        )
    return "\n".join(lines)


def main() -> None:
    """Run the benchmark and write its section of RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="at most K puzzles per size and star count")
    parser.add_argument("--no-audit", action="store_true", help="time only, no checks")
    parser.add_argument("--sizes", help="only these sizes, e.g. 10x2,14x3")
    parser.add_argument("--no-write", action="store_true", help="print, leave RESULTS.md alone")
    parser.add_argument("--budget", type=float, default=120, help="seconds per puzzle (120)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes (1)")
    options = parser.parse_args()
    audit = not options.no_audit
    sizes = set(options.sizes.split(",")) if options.sizes else None
    puzzles = load(options.limit, sizes)
    groups: dict[str, Group] = defaultdict(Group)
    started = time.perf_counter()
    tasks = [
        (name, Board(board.regions, board.stars, name=identifier), audit, options.budget)
        for name, identifier, board in puzzles
    ]
    with multiprocessing.Pool(options.jobs) as pool:
        for index, (name, group) in enumerate(pool.imap(run, tasks), start=1):
            merge(groups[name], group)
            print(f"\r{index}/{len(puzzles)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    problems = [p for g in groups.values() for p in g.problems]
    text = table(groups, audit)
    sample = f"first {options.limit} puzzles per group" if options.limit else "every puzzle"
    section = (
        "<!-- logic: begin -->\n## Hint ladder (`benchmarks/logic.py`)\n\n"
        f"{sample}{' of sizes ' + options.sizes if sizes else ''}; "
        f"{'every step audited' if audit else 'not audited'}; "
        f"{len(problems)} unsound, dishonest or not-lowest steps; at most "
        f"{options.budget:.0f} s per puzzle ({sum(g.over_budget for g in groups.values())} "
        f"puzzles stopped there, counted as not solved); {options.jobs} process(es); "
        f"{time.perf_counter() - started:.0f} s in all.\n\n{text}\n<!-- logic: end -->"
    )
    print(section)
    for problem in problems[:20]:
        print(problem, file=sys.stderr)
    if not options.no_write:
        write_section("<!-- logic: begin -->", "<!-- logic: end -->", section)


if __name__ == "__main__":
    main()
