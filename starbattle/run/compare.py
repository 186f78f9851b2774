"""Compare programs (encodings, variants) on the same boards: time, search effort, agreement."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from contextlib import closing

from starbattle.model.board import Board
from starbattle.model.values import Measured, Program, ProgramRun


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


def measure(task: tuple[Program, Board, int, float | None]) -> Measured:
    """Run one program on one board (grounding included), looking for `models` solutions."""
    from starbattle.asp.solver import Solver

    program, board, models, timeout = task
    started = time.perf_counter()
    solver = Solver(
        board, encoding=program.encoding, variants=program.variants, ground_timeout=timeout
    )
    left = None if timeout is None else max(0.001, timeout - (time.perf_counter() - started))
    if models == 0:
        search = solver.count(left)
    else:
        for _ in solver.solutions(models, left):
            pass
        search = solver.last
    seconds = time.perf_counter() - started
    complete = search.exhausted or (models > 0 and search.found >= models)
    stats = solver.stats
    return Measured(seconds, search.found if complete else None, stats.choices, stats.conflicts)


def _unfinished(task: tuple[Program, Board, int, float | None], code: int | None) -> Measured:
    """A run whose worker process ended (the time limit passed while grounding): unfinished."""
    return Measured(task[3] or 0.0, None)


def compare(
    runs: list[ProgramRun],
    boards: list[tuple[str, Board]],
    models: int = 2,
    timeout: float | None = None,
) -> Iterator[str]:
    """Run every program on every board, board by board; yield each board's id when done.

    `models` caps the solutions looked for (0 = count them all, inside clasp). With a time
    limit the runs take place in a worker process, so that one whose grounding outlasts it
    (clingo cannot stop grounding: the process ends) is only unfinished.
    """
    from starbattle.run.batch import run_all

    tasks = [(run.program, board, models, timeout) for _, board in boards for run in runs]
    results = run_all(measure, tasks, lost=_unfinished, chunk=1, apart=timeout is not None)
    with closing(results):
        for identifier, _ in boards:
            for run in runs:
                measured = next(results)
                run.seconds.append(measured.seconds)
                run.finished += measured.found is not None
                run.counts[identifier] = measured.found
                run.choices += measured.choices
                run.conflicts += measured.conflicts
            yield identifier


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
