"""Compare programs (encodings, variants) on the same boards: time, search effort, agreement."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from starbattle.board import Board


@dataclass(frozen=True)
class Program:
    """A program to compare: the default rules, or an encoding file, plus variants."""

    label: str
    encoding: str | None = None
    variants: tuple[str, ...] = ()


@dataclass
class ProgramRun:
    """How one program did on every board: seconds, search effort, and each board's count."""

    program: Program
    seconds: list[float] = field(default_factory=list)
    finished: int = 0
    choices: int = 0
    conflicts: int = 0
    counts: dict[str, int | None] = field(default_factory=dict)
    """Each board's solutions found (capped as asked), None when the time limit ended it."""

    def record(self) -> dict[str, Any]:
        """The row as a JSON Lines record."""
        return {
            "type": "encoding",
            "program": self.program.label,
            "puzzles": len(self.seconds),
            "finished": self.finished,
            "median_seconds": round(statistics.median(self.seconds), 6),
            "worst_seconds": round(max(self.seconds), 6),
            "total_seconds": round(sum(self.seconds), 6),
            "choices": self.choices,
            "conflicts": self.conflicts,
        }


def programs(encodings: tuple[str, ...], variants: tuple[str, ...]) -> list[Program]:
    """The programs to compare: the encodings named, then the default with each variant.

    'default' names the shipped program; with nothing named: the default and `plain`.
    """
    if not encodings and not variants:
        return [Program("default"), Program("default -w plain", variants=("plain",))]
    chosen = [
        Program("default") if name == "default" else Program(name, encoding=name)
        for name in encodings
    ]
    if variants and not any(program.label == "default" for program in chosen):
        chosen.insert(0, Program("default"))
    return chosen + [Program(f"default -w {name}", variants=(name,)) for name in variants]


def compare(
    runs: list[ProgramRun],
    boards: list[tuple[str, Board]],
    models: int = 2,
    timeout: float | None = None,
) -> Iterator[str]:
    """Run every program on every board, board by board; yield each board's id when done.

    `models` caps the solutions looked for (0 = count them all, inside clasp).
    """
    from starbattle.solver import Solver

    for identifier, board in boards:
        for run in runs:
            started = time.perf_counter()
            solver = Solver(board, encoding=run.program.encoding, variants=run.program.variants)
            if models == 0:
                search = solver.count(timeout)
            else:
                for _ in solver.solutions(models, timeout):
                    pass
                search = solver.last
            run.seconds.append(time.perf_counter() - started)
            complete = search.exhausted or (models > 0 and search.found >= models)
            run.finished += complete
            run.counts[identifier] = search.found if complete else None
            stats = solver.stats
            run.choices += stats.choices
            run.conflicts += stats.conflicts
        yield identifier


def disagreements(runs: list[ProgramRun]) -> dict[str, dict[str, int]]:
    """The boards on which finished programs found different counts, with those counts."""
    found: dict[str, dict[str, int]] = {}
    for identifier in runs[0].counts:
        counts = {
            run.program.label: count
            for run in runs
            if (count := run.counts[identifier]) is not None
        }
        if len(set(counts.values())) > 1:
            found[identifier] = counts
    return found


def table(runs: list[ProgramRun]) -> list[str]:
    """The comparison as aligned text lines, one row per program."""
    width = max(len("program"), *(len(run.program.label) for run in runs))
    lines = [
        f"{'program'.ljust(width)}  finished     median      worst      total  "
        "   choices   conflicts"
    ]
    for run in runs:
        lines.append(
            f"{run.program.label.ljust(width)}  {run.finished:>4}/{len(run.seconds):<4} "
            f"{statistics.median(run.seconds) * 1000:>8.1f} ms {max(run.seconds):>8.3f} s "
            f"{sum(run.seconds):>8.2f} s {run.choices:>10} {run.conflicts:>11}"
        )
    return lines
