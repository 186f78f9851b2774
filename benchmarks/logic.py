"""Hint ladder benchmark: coverage, latency, and an audit of soundness, premises and level.

    python benchmarks/logic.py [-j 2] [--sizes 10x2,14x3] [--limit K] [--audit K] [--seed S]
                               [--part dev|held] [--assume-unique]

Every puzzle of ../shared/corpus/real-puzzles.jsonl (grouped by size and star count, the
KrazyDad `kd-*` ones and masonomara's 14x14 `mo-*` ones apart, boards with several solutions
apart), the StarBattleLab "expert" puzzles of difficulty.jsonl and its 10x10 "hard" ones,
and the StarBattleLab collection of ../shared/corpus/starbattlelab (`--sbn K` lines of each
file, shuffled by the seed; 0 leaves them out) and the large unique puzzles of our generator
in benchmarks/data/generated-unique.sbn (`--groups generated`: "generated 21x5", "25x6") is
explained from the empty state with the whole ladder (levels 0-7). A puzzle counts as solved
with no trial and no core when no step of its trace is an `assumption`, `assumption-chain`
or `unsat-core` step. A table counts per group those puzzles, the share of trial and core
steps and of the cells they decide, and the length of the trials' chains (steps between the
assumed mark and the broken rule).

Only `next_step` is timed; a trace's time is the sum of its steps (trials' shortest-chain
search included). Then the
first `--audit K` puzzles of each group (in an order shuffled by `--seed`) have every step
audited by `Logic.audit`, untimed (with `--sound`, every step of the others is checked for
soundness alone, the first part below): agrees with the solution, clingo finds no solution of the
rules and marks where a conclusion fails (sound), nor of the premise units and marks alone
(honest), and no lower level applied (lowest). `--limit K` keeps K puzzles per group (the
same shuffled order). The section between the logic markers of benchmarks/RESULTS.md is
replaced unless `--no-write`; with `--latency` only the latency table is written, into its
own block at the end of that section (run it after the coverage run, with the machine's
load average beside it).

`--part` keeps one part of the StarBattleLab experts: `held` (the 40% whose id's SHA-256 is
0 or 1 modulo 5, never looked at while building techniques) or `dev` (the rest).
`--assume-unique` lets the ladder assume one solution (uniqueness: by a thread, at sea).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import RESULTS, write_section

from starbattle import Board
from starbattle.io.formats import sbn
from starbattle.logic.ladder import Logic
from starbattle.logic.trial import FOLLOWABLE
from starbattle.model.steps import State, Step
from starbattle.words import plural

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
GENERATED = Path(__file__).resolve().parent / "data" / "generated-unique.sbn"
"""Large unique puzzles of our generator (StarBattleLab's recent 21x21 and 25x25 ones are
not in the corpus): `starbattle-asp generate -N 21 -s 5 -k 8 --seed 11 -f sbn` and `-N 25
-s 6 -k 3 --seed 7`, stored so that every run meets the same boards."""


@dataclass
class Group:
    """What one group of puzzles (a size and star count, or a named set) measured."""

    puzzles: int = 0
    solved: int = 0
    """Solved without level 7."""
    solved_with_core: int = 0
    clean: int = 0
    """Solved with no trial and no core step (no assumption, assumption-chain, unsat-core)."""
    trials: int = 0
    """Steps that are trials or cores."""
    stopped: int = 0
    """Traces stopped by the benchmark's per-puzzle time budget (counted as not solved)."""
    steps: int = 0
    audited: int = 0
    audited_steps: int = 0
    sound_steps: int = 0
    """Steps checked for soundness alone (those of the puzzles not audited in full)."""
    problems: list[str] = field(default_factory=list)
    step_seconds: list[float] = field(default_factory=list)
    step_cpu: list[float] = field(default_factory=list)
    """Each `next_step`'s CPU seconds (others' load on a shared machine left out)."""
    trace_seconds: list[float] = field(default_factory=list)
    trace_cpu: list[float] = field(default_factory=list)
    """Each trace's CPU seconds (the machine is shared: wall time counts others' load too)."""
    levels: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    chains: list[int] = field(default_factory=list)
    """The chain length of every trial step (level 6)."""
    cells: int = 0
    """Cells decided by its steps."""
    trial_cells: int = 0
    """Cells decided by its trial and core steps."""
    needing: list[str] = field(default_factory=list)
    """The puzzles that needed trials or cores: name, how many, each trial's chain length."""


TRIALS = ("assumption", "assumption-chain", "unsat-core")
"""The techniques that are trials or cores, not named techniques a person applies."""


def group_of(record: dict, labelled: bool) -> str | None:
    """The group a corpus record is counted in (None: not measured)."""
    size = f"{record['n']}x{record['stars']}"
    if labelled:
        tier = record["label"]
        if not record["label_scale"].startswith("StarBattleLab collection"):
            return None
        return f"{tier} {size}" if tier == "expert" or (tier, size) == ("hard", "10x2") else None
    if record.get("solution_count") != 1:
        return "not unique"
    if record["id"].startswith("mo-") and size == "14x3":
        return f"masonomara {size}"
    return f"KrazyDad {size}" if record["id"].startswith("kd-") else size


def held_out(identifier: str) -> bool:
    """Whether an expert puzzle is in the held-out part (40%, by its id's SHA-256)."""
    return int(hashlib.sha256(identifier.encode()).hexdigest(), 16) % 5 < 2


def load(
    sizes: set[str] | None,
    sbn_lines: int,
    seed: int,
    part: str | None = None,
    generated: bool = False,
) -> dict[str, list[tuple[str, Board]]]:
    """(id, board) of every puzzle measured, by group, in corpus order (of the experts, one
    part if asked; our generator's only if asked, so that earlier commands measure what
    they did)."""
    groups: dict[str, list[tuple[str, Board]]] = defaultdict(list)
    for name in ("real-puzzles.jsonl", "difficulty.jsonl"):
        for line in (CORPUS / name).read_text().splitlines():
            record = json.loads(line)
            group = group_of(record, name.startswith("difficulty"))
            if group is None or (sizes and f"{record['n']}x{record['stars']}" not in sizes):
                continue
            if group.startswith("expert") and part and held_out(record["id"]) != (part == "held"):
                continue
            rows = [list(row) for row in record["regions"]]
            board = Board.from_rows(rows, record["stars"], name=record["id"])
            groups[group].append((record["id"], board))
    for number, line in enumerate(GENERATED.read_text().splitlines() if generated else (), 1):
        board = sbn.read(line, name=f"{GENERATED.name}:{number}")
        size = f"{board.size}x{board.stars}"
        if not sizes or size in sizes:
            groups[f"generated {size}"].append((board.name or "", board))
    for path in sorted((CORPUS / "starbattlelab").glob("*.sbn")) if sbn_lines else ():
        n, stars = (str(int(x)) for x in re.findall(r"\d+", path.name)[1:])
        if sizes and f"{n}x{stars}" not in sizes:
            continue
        lines = list(enumerate(path.read_text().splitlines(), start=1))
        random.Random(f"{seed} {path.name}").shuffle(lines)
        for number, line in sorted(lines[:sbn_lines]):
            name = f"{path.name}:{number}"
            groups[f"StarBattleLab {n}x{stars}"].append((name, sbn.read(line, name=name)))
    return groups


def run(task: tuple[str, Board, bool, float, bool, bool]) -> tuple[str, Group]:
    """Explain one board with levels 0-7, timing each `next_step`; then audit it if asked.

    A puzzle not audited in full has every step checked for soundness when `sound` is set.
    """
    name, board, audit, budget, sound, unique = task
    group, logic, state = Group(puzzles=1), Logic(board, assume_unique=unique), State()
    taken: list[tuple[State, Step]] = []
    cpu = time.process_time()
    while sum(group.step_seconds) < budget:
        before, before_cpu = time.perf_counter(), time.process_time()
        step = logic.next_step(state)
        group.step_seconds.append(time.perf_counter() - before)
        group.step_cpu.append(time.process_time() - before_cpu)
        if step is None:
            break
        taken.append((state, step))
        group.levels[step.level] += 1
        decided = len(step.stars) + len(step.blanks)
        group.trials += step.technique in TRIALS
        group.cells += decided
        group.trial_cells += decided if step.technique in TRIALS else 0
        if step.technique in TRIALS[:2]:
            group.chains.append(step.chain_length)
        state = state.after(step)
    else:
        group.stopped = 1
    group.steps = len(taken)
    group.trace_seconds.append(sum(group.step_seconds))
    group.trace_cpu.append(time.process_time() - cpu)
    solved = not group.stopped and logic.solved(state)
    group.solved_with_core = int(solved)
    group.solved = int(solved and not group.levels.get(7))
    group.clean = int(solved and not group.trials)
    if group.trials:
        chains = f"; chains {', '.join(map(str, group.chains))}" if group.chains else ""
        group.needing.append(f"{board.name}: {plural(group.trials, 'trial or core step')}{chains}")
    if audit:
        group.audited, group.audited_steps = 1, len(taken)
        for before, step in taken:
            group.problems += [f"{board.name}: {p}" for p in logic.audit(before, step)]
    elif sound:
        group.sound_steps = len(taken)
        for before, step in taken:
            problems = logic.audit(before, step, sound_only=True)
            group.problems += [f"{board.name}: {p}" for p in problems]
    return name, group


def merge(into: Group, other: Group) -> None:
    """Add one puzzle's measurements to its group."""
    for name in (
        *("puzzles", "solved", "solved_with_core", "clean", "trials", "stopped", "steps"),
        *("cells", "trial_cells"),
    ):
        setattr(into, name, getattr(into, name) + getattr(other, name))
    into.audited += other.audited
    into.chains += other.chains
    into.audited_steps += other.audited_steps
    into.sound_steps += other.sound_steps
    into.problems += other.problems
    into.needing += other.needing
    into.step_seconds += other.step_seconds
    into.step_cpu += other.step_cpu
    into.trace_seconds += other.trace_seconds
    into.trace_cpu += other.trace_cpu
    for level, count in other.levels.items():
        into.levels[level] += count


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def order(name: str) -> tuple:
    """Groups by size and star count, named sets after plain ones of their size."""
    words = name.split()
    if words[-1] == "unique":
        return (99, 0, 1, name)
    size, stars = map(int, words[-1].split("x"))
    return (size, stars, len(words), name)


def share(
    groups: dict[str, Group], chosen: list[str], with_core: bool = False, field: str = "solved"
) -> str:
    """'k of n (x%)' solved over some groups, with or without level 7 (or as `field` says)."""
    field = "solved_with_core" if with_core else field
    solved = sum(getattr(groups[g], field) for g in chosen)
    total = sum(groups[g].puzzles for g in chosen)
    return f"{solved} of {total} ({100 * solved / max(total, 1):.1f}%)"


def latency(groups: dict[str, Group]) -> list[str]:
    """The latency table, in Markdown lines."""
    lines = [
        "| puzzles | n | next_step p50 | next_step p95 | next_step CPU p95 | next_step max | "
        "trace p50 | trace p95 | trace CPU p50 | trace CPU p95 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in sorted(groups, key=order):
        g = groups[name]
        lines.append(
            f"| {name} | {g.puzzles} | {1000 * percentile(g.step_seconds, 0.5):.1f} ms | "
            f"{1000 * percentile(g.step_seconds, 0.95):.1f} ms | "
            f"{1000 * percentile(g.step_cpu, 0.95):.1f} ms | "
            f"{1000 * max(g.step_seconds):.0f} ms | "
            f"{percentile(g.trace_seconds, 0.5):.2f} s | "
            f"{percentile(g.trace_seconds, 0.95):.2f} s | {percentile(g.trace_cpu, 0.5):.2f} s | "
            f"{percentile(g.trace_cpu, 0.95):.2f} s |"
        )
    return lines


def trials(groups: dict[str, Group]) -> list[str]:
    """The trials and cores table (issue 31), in Markdown lines."""
    lines = [
        "| puzzles | n | solved with no trial or core | trial and core steps | cells they "
        "decide | chain length median | max | chains over 6 steps |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in sorted(groups, key=order):
        g = groups[name]
        over = sum(length > FOLLOWABLE for length in g.chains)
        lines.append(
            f"| {name} | {g.puzzles} | {g.clean} ({100 * g.clean / g.puzzles:.0f}%) | "
            f"{g.trials} of {g.steps} ({100 * g.trials / max(g.steps, 1):.1f}%) | "
            f"{100 * g.trial_cells / max(g.cells, 1):.1f}% | "
            f"{percentile(g.chains, 0.5):.0f} | {max(g.chains, default=0)} | "
            f"{over} ({100 * over / max(len(g.chains), 1):.0f}%) |"
        )
    return lines


def tables(groups: dict[str, Group]) -> str:
    """The coverage and audit, trials (no trial or core: their own table) and latency tables."""
    names = sorted(groups, key=order)
    lines = [
        "| puzzles | n | solved without level 7 | share | with level 7 | stopped | steps | "
        "levels 1/2/3/4/5/6/7 | audited puzzles (steps) | other steps checked sound | problems |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for name in names:
        g = groups[name]
        levels = "/".join(str(g.levels.get(level, 0)) for level in range(1, 8))
        lines.append(
            f"| {name} | {g.puzzles} | {g.solved} | {100 * g.solved / g.puzzles:.1f}% | "
            f"{100 * g.solved_with_core / g.puzzles:.1f}% | {g.stopped} | {g.steps} | {levels} | "
            f"{g.audited} ({g.audited_steps}) | {g.sound_steps} | {len(g.problems)} |"
        )
    lines += ["", *trials(groups), "", *latency(groups)]
    return "\n".join(lines)


def schedule(
    groups: dict[str, list[tuple[str, Board]]], options: argparse.Namespace
) -> list[tuple[str, Board, bool, float]]:
    """The tasks, each group shuffled by the seed and taken in turns (audited ones first).

    Taking groups in turns makes the puzzles done at any moment a seeded sample of every
    group, so that a run stopped early (Ctrl-C) still reports on all of them.
    """
    queues = []
    for name, puzzles in groups.items():
        random.Random(f"{options.seed} {name}").shuffle(puzzles)
        queues.append(
            [
                (name, board, index < options.audit, options.budget, options.sound, options.unique)
                for index, (_, board) in enumerate(puzzles[: options.limit])
            ]
        )
    depth = max(map(len, queues), default=0)
    return [queue[turn] for turn in range(depth) for queue in queues if turn < len(queue)]


def summary(groups: dict[str, Group], problems: list[str], heading: str) -> str:
    """The shares the issue asks for, then the tables."""
    unique = [g for g in groups if g != "not unique" and not g.startswith("expert")]
    return (
        f"{heading} Audit (sound, honest premises, lowest level), and soundness of every other "
        f"step if checked: {len(problems)} problems.\n\n"
        f"- KrazyDad without level 7: {share(groups, [g for g in groups if 'KrazyDad' in g])}\n"
        f"- StarBattleLab expert without level 7: "
        f"{share(groups, [g for g in groups if g.startswith('expert')])}\n"
        f"- Unique puzzles without level 7: {share(groups, unique)}; with level 7: "
        f"{share(groups, unique, with_core=True)}; with no trial and no core step: "
        f"{share(groups, unique, field='clean')}\n\n{tables(groups)}"
    )


def write(text: str, block: str | None) -> None:
    """Write the logic section, keeping its blocks; or write one block at the section's end."""
    begin, end = "<!-- logic: begin -->", "<!-- logic: end -->"
    current = RESULTS.read_text()
    if block is None:
        old = current[current.index(begin) : current.index(end)] if begin in current else ""
        kept = "".join(re.findall(r"(<!-- logic-[\w-]+: begin -->.*?: end -->\n)", old, re.S))
        write_section(begin, end, f"{begin}\n{text}\n{kept}{end}")
        return
    block = block.removeprefix("logic-")  # "corpus" and "logic-corpus" name one block
    block_begin, block_end = f"<!-- logic-{block}: begin -->", f"<!-- logic-{block}: end -->"
    if block_begin not in current:  # its place: the end of the logic section
        write_section(end, end, f"{block_begin}\n{block_end}\n{end}")
    write_section(block_begin, block_end, f"{block_begin}\n{text}\n{block_end}")


def main() -> None:
    """Run the benchmark and write its section of RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="only these sizes, e.g. 10x2,14x3")
    parser.add_argument("--groups", help="only groups whose names hold one of these words")
    parser.add_argument("--limit", type=int, help="at most K puzzles per group")
    parser.add_argument("--audit", type=int, default=0, help="audit K puzzles per group (0)")
    parser.add_argument("--seed", type=int, default=1, help="shuffles each group (1)")
    parser.add_argument(
        "--sbn", type=int, default=100, help="lines of each StarBattleLab .sbn file (100)"
    )
    parser.add_argument("--budget", type=float, default=600, help="seconds per puzzle (600)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes (1)")
    parser.add_argument("--no-write", action="store_true", help="print, leave RESULTS.md alone")
    parser.add_argument("--block", help="write into this block of the logic section")
    parser.add_argument("--latency", action="store_true", help="only the latency table")
    parser.add_argument(
        "--sound", action="store_true", help="check every step of the other puzzles for soundness"
    )
    parser.add_argument(
        "--trials", action="store_true", help="list the puzzles that needed trials or cores"
    )
    parser.add_argument("--part", choices=("dev", "held"), help="one part of the experts")
    parser.add_argument(
        "--assume-unique", dest="unique", action="store_true", help="let steps assume one solution"
    )
    options = parser.parse_args()
    sizes = set(options.sizes.split(",")) if options.sizes else None
    asked = options.groups is not None and "generated" in options.groups
    puzzles = load(sizes, options.sbn, options.seed, options.part, generated=asked)
    if options.groups:
        words = options.groups.split(",")
        puzzles = {g: p for g, p in puzzles.items() if any(word in g for word in words)}
    tasks = schedule(puzzles, options)
    groups: dict[str, Group] = defaultdict(Group)
    started, done = time.perf_counter(), 0
    with multiprocessing.Pool(options.jobs) as pool:
        signal.signal(signal.SIGTERM, signal.default_int_handler)  # here, not in the workers
        try:
            for done, (name, group) in enumerate(pool.imap_unordered(run, tasks), start=1):
                merge(groups[name], group)
                print(f"\r{done}/{len(tasks)}", end="", file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the tables of the puzzles done so far
            pool.terminate()
    print(file=sys.stderr)
    problems = [p for g in groups.values() for p in g.problems]
    chosen = (
        f"{'every puzzle' if options.limit is None else f'{options.limit} puzzles per group'}"
        f"{' of sizes ' + options.sizes if sizes else ''}"
        f"{' of groups ' + options.groups if options.groups else ''}"
        f"{f' ({options.part} part of the experts)' if options.part else ''}"
        f"{' assuming one solution' if options.unique else ''}"
        + (f" (stopped after {done} of {len(tasks)}, groups in turns)" if done < len(tasks) else "")
    )
    heading = (
        f"{chosen}; {options.jobs} process(es) at niceness {os.nice(0)}, "
        f"{time.perf_counter() - started:.0f} s in all, load average "
        f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end; at most "
        f"{options.budget:.0f} s of `next_step` per puzzle; {options.audit} puzzles per group "
        f"audited (shuffled with seed {options.seed})"
        + ("; every step of the others checked sound." if options.sound else ".")
    )
    if options.latency:
        text = f"### Latency\n\n{heading}\n\n" + "\n".join(latency(groups))
    else:
        text = summary(groups, problems, heading)
        if options.block is None:
            text = f"## Hint ladder (`benchmarks/logic.py`)\n\n{text}"
    print(text)
    for name in sorted(groups, key=order) if options.trials else ():
        if groups[name].needing:
            print(f"\n{name}, needing trials or cores:", *sorted(groups[name].needing), sep="\n- ")
    for problem in problems[:20]:
        print(problem, file=sys.stderr)
    if not options.no_write:
        write(text, options.block or ("latency" if options.latency else None))


if __name__ == "__main__":
    main()
