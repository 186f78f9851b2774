"""How one board's search is shown: solutions, summaries and explanations, line by line."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from starbattle import report
from starbattle.batch import Outcome, verdict
from starbattle.board import Board, Solution
from starbattle.errors import BoardError, StarBattleError
from starbattle.facts import star_facts
from starbattle.files import write_atomic
from starbattle.formats import PICTURES, pzprv3, read_record
from starbattle.render import render_marks, render_text, star_marks

if TYPE_CHECKING:
    from starbattle.solver import Solver


def picture_paths(output: str, models: int) -> Callable[[int], Path]:
    """Name the picture of solution k: OUTPUT itself for one, else NAME-k.EXT."""
    path = Path(output)
    if models == 1:
        return lambda index: path
    return lambda index: path.with_name(f"{path.stem}-{index}{path.suffix}")


class Sink:
    """Where output lines go: standard output as they come, or a file written atomically."""

    FLUSH_SECONDS = 0.05
    """Lines to a pipe or file are flushed at least this often (to a terminal: each line)."""

    def __init__(self, path: str | None, before_line: Callable[[], None] | None = None) -> None:
        self.path = path
        self.lines: list[str] = []
        self.before_line = before_line
        """Called before a line goes to the terminal (e.g. to clear a progress bar)."""
        self.interactive = path is None and sys.stdout.isatty()
        self.flushed = time.perf_counter()

    def line(self, text: str) -> None:
        """Print (or keep) one line: shown at once on a terminal, within 50 ms on a pipe."""
        if self.path is None:
            if self.before_line is not None:
                self.before_line()
            sys.stdout.write(text + "\n")
            now = time.perf_counter()
            if self.interactive or now - self.flushed >= self.FLUSH_SECONDS:
                sys.stdout.flush()
                self.flushed = now
        else:
            self.lines.append(text)

    def note(self, text: str) -> None:
        """Print a message for people (warnings, interruptions) to standard error."""
        if self.before_line is not None:
            self.before_line()
        if self.path is None:
            sys.stdout.flush()  # what came before the message is shown before it
        click.echo(text, err=True)

    def close(self) -> None:
        """Write the kept lines to the file, if any (also after an interrupt: whole lines)."""
        if self.path is None:
            sys.stdout.flush()
        else:
            write_atomic(self.path, "".join(f"{line}\n" for line in self.lines))


class Collector(Sink):
    """A sink that keeps every line and message, for a worker process to hand back."""

    def __init__(self) -> None:
        super().__init__(None)
        self.notes: list[str] = []

    def line(self, text: str) -> None:
        """Keep an output line."""
        self.lines.append(text)

    def note(self, text: str) -> None:
        """Keep a message for standard error."""
        self.notes.append(text)

    def close(self) -> None:
        """Nothing to write: the lines are handed back."""


class Run:
    """Prints one board's search in the chosen format."""

    def __init__(
        self,
        board: Board,
        identifier: str | None,
        sink: Sink,
        output_format: str,
        ascii_only: bool,
        picture_path: Callable[[int], Path] | None,
        explain: bool = False,
        second: bool = False,
    ) -> None:
        self.board, self.identifier, self.sink = board, identifier, sink
        self.format, self.ascii_only, self.picture_path = output_format, ascii_only, picture_path
        self.explain = explain
        """Say why when there is no solution (the default rules only)."""
        self.second = second
        """Show a second solution and the differences when the board is not unique."""

    def record(self, record: dict[str, Any]) -> str:
        """A JSON Lines record, carrying the puzzle's id in a collection."""
        if self.identifier is not None:
            record = {"id": self.identifier, **record}
        return json.dumps(record)

    def count(self, solver: Solver, timeout: float | None, require_unique: bool) -> int:
        """Count the solutions and print the count."""
        try:
            search = solver.count(timeout)
        except KeyboardInterrupt:
            self.sink.note(f"interrupted after counting {solver.last.found} solution(s)")
            raise
        if self.format == "json":
            self.sink.line(self.record(report.summary_record(search, search.found)))
        else:
            self.sink.line(report.count_text(search, timeout))
        return report.exit_code(search, require_unique)

    def show(self, index: int, solution: Solution) -> None:
        """Print (or draw) one solution."""
        if self.format == "json":
            self.sink.line(report.solution_line(index, solution, self.identifier))
        elif self.format == "lp":
            self.sink.line(star_facts(solution.stars))
        elif self.format == "pzprv3":
            self.sink.line(
                ("\n" if index > 1 else "") + pzprv3.write(self.board, solution).rstrip("\n")
            )
        elif self.format in PICTURES:
            from starbattle import pictures  # drawing only when asked for

            render = pictures.render_svg if self.format == "svg" else pictures.render_png
            picture = render(self.board, solution)
            if self.picture_path is None:
                self.sink.line(str(picture).rstrip("\n"))
            else:
                write_atomic(self.picture_path(index), picture)
                self.sink.line(f"wrote {self.picture_path(index)}")
        else:
            if index > 1:
                self.sink.line("")
            self.sink.line(f"solution {index}:")
            self.sink.line(render_text(self.board, solution, ascii_only=self.ascii_only))

    def difference(self, first: Solution, another: Solution) -> None:
        """Show a second solution and the cells where it differs from the first."""
        cells = sorted(set(first.stars) ^ set(another.stars))
        if self.format == "json":
            record = {
                "type": "difference",
                "stars": [list(c) for c in another.stars],
                "cells": [list(c) for c in cells],
            }
            self.sink.line(self.record(record))
        elif self.format == "text":
            self.sink.line("")
            self.sink.line("another solution:")
            self.sink.line(render_text(self.board, another, ascii_only=self.ascii_only))
            self.sink.line("")
            self.sink.line(f"the two differ in {len(cells)} cells (X):")
            self.sink.line(render_marks(self.board, dict.fromkeys(cells, "X"), "."))

    def why(self) -> None:
        """Say why the board has no solution (and draw the cells involved)."""
        from starbattle.insight import why_unsat

        explanation = why_unsat(self.board)
        if explanation is None:
            return
        if self.format == "json":
            record = {
                "type": "why",
                "units": list(explanation.names),
                "sentence": explanation.sentence,
                "cells": [list(c) for c in sorted(explanation.cells)],
            }
            self.sink.line(self.record(record))
        elif self.format in PICTURES:
            from starbattle import pictures  # drawing only when asked for

            render = pictures.render_svg if self.format == "svg" else pictures.render_png
            picture = render(self.board, highlight=explanation.cells)
            if self.picture_path is None:
                self.sink.line(str(picture).rstrip("\n"))
            else:
                write_atomic(self.picture_path(1), picture)
                self.sink.line(f"wrote {self.picture_path(1)} (the cells of the reason outlined)")
        elif self.format == "text":
            self.sink.line(f"why: {explanation.sentence}")
            self.sink.line(
                f"  ({', '.join(explanation.names)}; drop any one and a solution exists)"
            )
            self.sink.line(render_marks(self.board, dict.fromkeys(explanation.cells, "!"), "."))
        else:
            self.sink.line(f"% why: {explanation.sentence}")

    def fixed(self, solver: Solver, timeout: float | None) -> int:
        """Show the cells every solution agrees on."""
        from starbattle.insight import fixed_by

        fixed = fixed_by(solver, timeout)
        if fixed is None:
            self.sink.line(
                self.record({"type": "fixed", "solutions": 0})
                if self.format == "json"
                else "no solution"
            )
            return 1
        if self.format == "json":
            self.sink.line(
                self.record(
                    {
                        "type": "fixed",
                        "stars": [list(c) for c in sorted(fixed.stars)],
                        "blanks": [list(c) for c in sorted(fixed.blanks)],
                        "open": len(fixed.open),
                        "complete": not solver.last.timed_out,
                    }
                )
            )
        else:
            star, empty = star_marks(self.ascii_only)
            marks = {**dict.fromkeys(fixed.stars, star), **dict.fromkeys(fixed.blanks, empty)}
            self.sink.line(render_marks(self.board, marks, "?"))
            incomplete = " (time limit reached: not final)" if solver.last.timed_out else ""
            self.sink.line(
                f"{fixed.summary()}: {star} star in every solution, {empty} empty in "
                f"every solution, ? open{incomplete}"
            )
        return 0

    def solutions(
        self, solver: Solver, models: int, timeout: float | None, require_unique: bool
    ) -> int:
        """Print up to `models` solutions as they are found, then the summary."""
        shown, first, another = 0, None, None
        try:
            for solution in solver.solutions(0 if models == 0 else models + 1, timeout):
                if models and shown == models:
                    another = solution
                    continue
                shown += 1
                first = first or solution
                self.show(shown, solution)
        except KeyboardInterrupt:
            self.sink.note(f"interrupted after {shown} solution(s)")
            raise
        search = solver.last
        if first is not None and another is not None and self.second:
            self.difference(first, another)
        if shown == 0 and search.exhausted and self.explain:
            self.why()
        if self.format == "json":
            self.sink.line(self.record(report.summary_record(search, shown)))
        elif self.format == "svg" and self.picture_path is None:
            pass  # standard output holds the picture alone
        else:
            prefix = {"lp": "% ", "pzprv3": "\n# "}.get(self.format, "\n" if shown else "")
            self.sink.line(prefix + report.summary_text(search, shown, timeout))
        return report.exit_code(search, require_unique)


@dataclass(frozen=True)
class SolveSettings:
    """What `solve` was asked, the same for every puzzle of a run (sent to worker processes)."""

    stars: int | None = None
    input_format: str | None = None
    givens: bool = False
    encoding: str | None = None
    variants: tuple[str, ...] = ()
    constants: tuple[str, ...] = ()
    threads: int = 1
    timeout: float | None = None
    stats: bool = False
    models: int = 1
    count_only: bool = False
    require_unique: bool = False
    output_format: str = "text"
    output: str | None = None
    fixed_only: bool = False
    ascii_only: bool = False
    second: bool = True
    """Show a second solution and the differences when a board is not unique."""
    collection: bool = False
    """Several puzzles: each one's lines carry its id."""


def solve_one(settings: SolveSettings, sink: Sink, identifier: str, text: str) -> tuple[int, str]:
    """Read one record, solve it and show the result; return the exit code and the verdict.

    A board that cannot be read or solved as given is reported and the run goes on; a
    program error (the same for every board) is raised.
    """
    from starbattle.solver import Solver  # imports clingo: only when solving

    board = read_record(
        identifier,
        text,
        stars=settings.stars,
        fmt=settings.input_format,
        givens=settings.givens,
    )
    if settings.collection and settings.output_format == "text":
        sink.line(f"== {identifier} ==")
    if isinstance(board, StarBattleError):
        sink.note(f"starbattle-asp: error: {board}")
        return report.EXIT_ERROR, verdict(None, report.EXIT_ERROR)
    run = Run(
        board,
        identifier if settings.collection else None,
        sink,
        settings.output_format,
        settings.ascii_only,
        picture_paths(settings.output, settings.models) if settings.output else None,
        explain=settings.encoding is None and not settings.variants,
        second=settings.second,
    )
    try:
        solver = Solver(
            board,
            encoding=settings.encoding,
            variants=settings.variants,
            constants=settings.constants,
            threads=settings.threads,
            defer_interrupts=True,
        )
    except BoardError as error:  # e.g. more stars than the board can hold
        sink.note(f"starbattle-asp: error: {error}")
        return report.EXIT_ERROR, verdict(None, report.EXIT_ERROR)
    for message in solver.messages:
        sink.note(f"starbattle-asp: clingo: {message}")
    if settings.count_only:
        code = run.count(solver, settings.timeout, settings.require_unique)
    elif settings.fixed_only:
        code = run.fixed(solver, settings.timeout)
    else:
        code = run.solutions(solver, settings.models, settings.timeout, settings.require_unique)
    if settings.stats:
        sink.note(solver.stats.line())
    return code, verdict(None if settings.fixed_only else solver.last, code)


def solve_record(settings: SolveSettings, record: tuple[str, str]) -> Outcome:
    """solve_one for a worker process: the output comes back in the Outcome."""
    sink = Collector()
    code, verdict_ = solve_one(settings, sink, *record)
    return Outcome(record[0], sink.lines, sink.notes, code, verdict_)


class Progress:
    """A one-line progress bar on standard error, redrawn at most ten times a second."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.started = self.drawn_at = time.perf_counter()
        self.visible = False

    def advance(self) -> None:
        """One more puzzle is done."""
        self.done += 1
        now = time.perf_counter()
        if now - self.drawn_at >= 0.1 or self.done == self.total:
            self.drawn_at = now
            rate = self.done / max(now - self.started, 1e-9)
            left = (self.total - self.done) / rate
            filled = 30 * self.done // self.total
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} puzzles, "
                f"{rate:.0f}/s, {left:.0f} s left\x1b[K"
            )
            sys.stderr.flush()
            self.visible = True

    def clear(self) -> None:
        """Erase the bar (before a line is printed, and at the end)."""
        if self.visible:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.visible = False
