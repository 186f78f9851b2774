"""The starbattle-asp command line: parse, call the library, print, choose the exit code."""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from starbattle import __version__, pictures, report
from starbattle.board import Board, Solution, king_capacity
from starbattle.check import check as check_answer
from starbattle.encodings import base_files, default_program, shipped_variants
from starbattle.errors import StarBattleError, UsageError
from starbattle.facts import star_facts
from starbattle.files import write_atomic
from starbattle.formats import (
    PICTURES,
    READERS,
    WRITERS,
    pzprv3,
    read_boards,
    read_source,
    read_text,
    write_board,
)
from starbattle.formats.answer import read_marks
from starbattle.formats.json_board import board_json
from starbattle.limits import MAX_SIZE
from starbattle.render import render_marks, render_text, star_marks

if TYPE_CHECKING:
    from starbattle.solver import Solver

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
SEVERITY = (0, 1, 3, EXIT_ERROR)
"""Exit codes from best to worst, for a collection's overall code."""
SOLVE_FORMATS = ("text", "json", "lp", "pzprv3", *PICTURES)


class DefaultSolveGroup(click.Group):
    """A group where `starbattle-asp FILE` means `starbattle-asp solve FILE`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Insert `solve` before the first argument that is not a group option or command."""
        first = 0
        while first < len(args) and args[first] == "--debug":
            first += 1
        rest = args[first:]
        if rest and rest[0] not in self.commands and rest[0] not in ("--help", "-h", "--version"):
            args = [*args[:first], "solve", *rest]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Turn library errors into one line and exit 2; never show a traceback by accident."""
        try:
            return super().invoke(ctx)
        except StarBattleError as error:
            click.echo(f"starbattle-asp: error: {error}", err=True)
            ctx.exit(EXIT_ERROR)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(EXIT_BROKEN_PIPE)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as error:  # an internal error: one line, the traceback on --debug
            if ctx.obj and ctx.obj.get("debug"):
                traceback.print_exc()
            click.echo(
                f"starbattle-asp: internal error: {type(error).__name__}: {error} "
                "(please report it with the command you ran; --debug shows the traceback)",
                err=True,
            )
            ctx.exit(70)


@click.group(cls=DefaultSolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="starbattle-asp")
@click.option("--debug", is_flag=True, help="Show the traceback of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Solve, count and check Star Battle puzzles with clingo.

    `starbattle-asp FILE` is short for `starbattle-asp solve FILE`.
    """
    ctx.obj = {"debug": debug}


def load_boards(
    path: str, stars: int | None, input_format: str | None, givens: bool
) -> list[tuple[str, Board | StarBattleError]]:
    """Read the board or collection named on the command line.

    That is a file, '-' (standard input), or a puzz.link URL, pzprv3 URL or SBN line given
    as the argument itself.
    """
    text, name = read_source(path)
    return read_boards(text, name=name, stars=stars, fmt=input_format, givens=givens)


def load_board(path: str, stars: int | None, input_format: str | None, givens: bool) -> Board:
    """Read exactly one board; a collection is refused, an unreadable board raised."""
    entries = load_boards(path, stars, input_format, givens)
    if len(entries) > 1:
        raise UsageError(f"{path} holds {len(entries)} puzzles; this command takes one")
    board = entries[0][1]
    if isinstance(board, StarBattleError):
        raise board
    return board


def board_options(command: Any) -> Any:
    """The options every command that reads a board shares."""
    for option in reversed(
        [
            click.option(
                "-s",
                "--stars",
                type=click.IntRange(min=1),
                help="Stars per row, column and region (overrides the file's).",
            ),
            click.option(
                "--from",
                "input_format",
                type=click.Choice(list(READERS)),
                help="Input format (default: recognised from the content).",
            ),
            click.option(
                "--givens",
                is_flag=True,
                help="Read a pzprv3 file's answer marks as givens (# star, + blank).",
            ),
        ]
    ):
        command = option(command)
    return command


def program_options(command: Any) -> Any:
    """The options that choose and configure the ASP program."""
    for option in reversed(
        [
            click.option(
                "-e",
                "--encoding",
                type=click.Path(dir_okay=False),
                help="Replace the default program with this file.",
            ),
            click.option(
                "-w",
                "--with",
                "variants",
                multiple=True,
                metavar="NAME|FILE",
                help="Add a rule variant (repeatable); see `starbattle-asp encodings`.",
            ),
            click.option(
                "-c",
                "--const",
                "constants",
                multiple=True,
                metavar="NAME=VALUE",
                help="Pass a constant to clingo (repeatable).",
            ),
            click.option(
                "-t",
                "--threads",
                type=click.IntRange(1, 64),
                default=1,
                show_default=True,
                help="clingo solver threads.",
            ),
            click.option(
                "--timeout",
                type=click.FloatRange(min=0, min_open=True),
                help="Stop searching after this many seconds (per puzzle).",
            ),
            click.option("--stats", is_flag=True, help="Print clingo statistics to stderr."),
        ]
    ):
        command = option(command)
    return command


def picture_paths(output: str, models: int) -> Callable[[int], Path]:
    """Name the picture of solution k: OUTPUT itself for one, else NAME-k.EXT."""
    path = Path(output)
    if models == 1:
        return lambda index: path
    return lambda index: path.with_name(f"{path.stem}-{index}{path.suffix}")


@cli.command()
@click.argument("file")
@board_options
@program_options
@click.option(
    "-n",
    "--models",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="How many solutions to print (0 = every solution, streamed as found).",
)
@click.option(
    "--count", "count_only", is_flag=True, help="Count every solution without printing them."
)
@click.option(
    "--unique",
    "require_unique",
    is_flag=True,
    help="Exit 1 unless the board has exactly one solution.",
)
@click.option(
    "-f",
    "--format",
    "output_format",
    type=click.Choice(SOLVE_FORMATS),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write the output (or each picture: NAME-1.svg, NAME-2.svg, ... when "
    "-n is not 1) to this file instead of standard output.",
)
@click.option(
    "--fixed",
    "fixed_only",
    is_flag=True,
    help="Show the cells every solution agrees on (star or empty) and how many are open.",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw stars as * (text output).")
@click.pass_context
def solve(
    ctx: click.Context,
    file: str,
    stars: int | None,
    input_format: str | None,
    givens: bool,
    encoding: str | None,
    variants: tuple[str, ...],
    constants: tuple[str, ...],
    threads: int,
    timeout: float | None,
    stats: bool,
    models: int,
    count_only: bool,
    require_unique: bool,
    output_format: str,
    output: str | None,
    fixed_only: bool,
    ascii_only: bool,
) -> None:
    """Solve FILE (a board, a collection of boards, or - for standard input).

    Prints the first solution and says whether the board is unique; when it is not, shows a
    second solution and where the two differ; when there is none, says why.
    """
    from starbattle.solver import Solver  # imports clingo: only when solving

    entries = load_boards(file, stars, input_format, givens)
    collection = len(entries) > 1
    if count_only and fixed_only:
        raise UsageError("--count and --fixed are two different questions: ask one")
    if output_format in PICTURES and (collection or count_only or fixed_only):
        raise UsageError("pictures are drawn for one board's solutions: solve one board")
    if output_format == "png" and not output:
        raise UsageError("-f png writes a binary picture: name the file with -o FILE.png")
    if output_format == "svg" and not output and models != 1:
        raise UsageError("several SVG pictures need file names: add -o FILE.svg")
    sink = Sink(output if output_format not in PICTURES else None)
    codes = []
    try:
        for identifier, board in entries:
            if isinstance(board, StarBattleError):
                click.echo(f"starbattle-asp: error: {board}", err=True)
                codes.append(EXIT_ERROR)
                continue
            if collection and output_format == "text":
                sink.line(f"== {identifier} ==")
            run = Run(
                board,
                identifier if collection else None,
                sink,
                output_format,
                ascii_only or not (sys.stdout.encoding or "").lower().startswith("utf"),
                picture_paths(output, models) if output else None,
                explain=encoding is None and not variants,
                second=ctx.get_parameter_source("models") == ParameterSource.DEFAULT,
            )
            solver = Solver(
                board,
                encoding=encoding,
                variants=variants,
                constants=constants,
                threads=threads,
                defer_interrupts=True,
            )
            for message in solver.messages:
                click.echo(f"starbattle-asp: clingo: {message}", err=True)
            if count_only:
                codes.append(run.count(solver, timeout, require_unique))
            elif fixed_only:
                codes.append(run.fixed(solver, timeout))
            else:
                codes.append(run.solutions(solver, models, timeout, require_unique))
            if stats:
                click.echo(solver.stats.line(), err=True)
    except KeyboardInterrupt:
        sink.close()
        sys.exit(EXIT_INTERRUPTED)
    sink.close()
    sys.exit(max(codes, key=SEVERITY.index))


class Sink:
    """Where output lines go: standard output as they come, or a file written atomically."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lines: list[str] = []

    def line(self, text: str) -> None:
        """Print (or keep) one line, at once."""
        if self.path is None:
            click.echo(text)
            sys.stdout.flush()
        else:
            self.lines.append(text)

    def close(self) -> None:
        """Write the kept lines to the file, if any (also after an interrupt: whole lines)."""
        if self.path is not None:
            write_atomic(self.path, "".join(f"{line}\n" for line in self.lines))


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
            click.echo(f"interrupted after counting {solver.last.found} solution(s)", err=True)
            raise
        if self.format == "json":
            self.sink.line(self.record(report.summary_record(search, search.found)))
        else:
            self.sink.line(report.count_text(search, timeout))
        return report.exit_code(search, require_unique)

    def show(self, index: int, solution: Solution) -> None:
        """Print (or draw) one solution."""
        if self.format == "json":
            self.sink.line(self.record(report.solution_record(index, solution)))
        elif self.format == "lp":
            self.sink.line(star_facts(solution.stars))
        elif self.format == "pzprv3":
            self.sink.line(
                ("\n" if index > 1 else "") + pzprv3.write(self.board, solution).rstrip("\n")
            )
        elif self.format in PICTURES:
            render = pictures.render_svg if self.format == "svg" else pictures.render_png
            picture = render(self.board, solution)
            if self.picture_path is None:
                self.sink.line(str(picture).rstrip("\n"))
            else:
                write_atomic(self.picture_path(index), picture)
                click.echo(f"wrote {self.picture_path(index)}")
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
            render = pictures.render_svg if self.format == "svg" else pictures.render_png
            picture = render(self.board, highlight=explanation.cells)
            if self.picture_path is None:
                self.sink.line(str(picture).rstrip("\n"))
            else:
                write_atomic(self.picture_path(1), picture)
                click.echo(f"wrote {self.picture_path(1)} (the cells of the reason outlined)")
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
            click.echo(f"interrupted after {shown} solution(s)", err=True)
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


@cli.command()
@click.argument("file")
@click.option(
    "--to", "output_format", type=click.Choice(WRITERS), required=True, help="The format to write."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write to this file (written whole or not at all).",
)
@board_options
def convert(
    file: str,
    output_format: str,
    output: str | None,
    stars: int | None,
    input_format: str | None,
    givens: bool,
) -> None:
    """Convert the board in FILE to another format."""
    written = write_board(load_board(file, stars, input_format, givens), output_format)
    if output:
        write_atomic(output, written)
    elif isinstance(written, bytes):
        raise UsageError(f"--to {output_format} writes a binary file: name it with -o FILE")
    else:
        click.echo(written, nl=False)


@cli.command()
@click.argument("file")
@click.argument("answer", required=False)
@board_options
@click.option(
    "--against-solution",
    is_flag=True,
    help="For a unique puzzle, also name the first mark the solution contradicts.",
)
def check(
    file: str,
    answer: str | None,
    stars: int | None,
    input_format: str | None,
    givens: bool,
    against_solution: bool,
) -> None:
    """Check ANSWER (a grid, star(R,C) facts, JSON or pzprv3) against FILE's board.

    A grid with stars (*), cells marked empty (x or +) and undecided cells (.) is a partial
    answer: broken rules are named, then whether the marks can still become a solution and,
    if not, which marks conflict. Without ANSWER, FILE must be a pzprv3 file: its own marks
    are checked.
    """
    board = load_board(file, stars, input_format, givens)
    source = answer or file
    if answer is None and not pzprv3.looks_like_pzprv3(read_text(file)):
        raise UsageError("give an ANSWER to check (only a pzprv3 file carries its own answer)")
    name = "<stdin>" if source == "-" else source
    placed, blanks = read_marks(read_text(source), board.size, name=name)
    if blanks is None:
        violations = check_answer(board, placed)
        if not violations:
            click.echo(
                f"valid: {len(placed)} stars; every row, column and region holds "
                f"{board.stars} and no two stars touch"
            )
            sys.exit(0)
        click.echo(f"invalid: {len(violations)} problem(s)")
        for violation in violations:
            click.echo(f"  {violation.message}")
        sys.exit(1)
    from starbattle.insight import check_partial

    report_ = check_partial(board, placed, blanks, against_solution=against_solution)
    click.echo(f"partial answer: {len(placed)} stars, {len(blanks)} cells marked empty")
    for violation in report_.violations:
        click.echo(f"  {violation.message}")
    if report_.extendable:
        click.echo("the marks can still become a solution")
    else:
        marks = ", ".join(f"{kind} at ({r},{c})" for kind, (r, c) in report_.conflict)
        click.echo(f"the marks cannot become a solution: these cannot all hold: {marks}")
    if report_.first_wrong is not None:
        kind, (r, c) = report_.first_wrong
        truth = "empty" if kind == "star" else "a star"
        click.echo(f"first wrong mark: ({r},{c}) is marked {kind} but is {truth} in the solution")
    sys.exit(0 if report_.extendable and not report_.violations else 1)


GENERATE_FORMATS = ("txt", "lp", "json", "url", "sbn", "pzprv3")
ONE_LINE_FORMATS = ("json", "url", "sbn")


@cli.command()
@click.option(
    "-N",
    "--size",
    type=click.IntRange(1, MAX_SIZE),
    required=True,
    help="Board size N (N x N, N regions).",
)
@click.option(
    "-s",
    "--stars",
    type=click.IntRange(min=1),
    required=True,
    help="Stars per row, column and region.",
)
@click.option(
    "-k",
    "--count",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="How many different puzzles.",
)
@click.option(
    "--seed", default="0", show_default=True, help="Same seed, same version: same puzzles."
)
@click.option(
    "--min-region", type=click.IntRange(min=1), help="Smallest region size allowed (default 2S+1)."
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    help="Give up when one puzzle takes longer than this many seconds.",
)
@click.option(
    "-f",
    "--format",
    "output_format",
    type=click.Choice(GENERATE_FORMATS),
    default="txt",
    show_default=True,
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    help="A file (one-line formats, or one puzzle) or a directory (one file per puzzle).",
)
def generate(
    size: int,
    stars: int,
    count: int,
    seed: str,
    min_region: int | None,
    timeout: float | None,
    output_format: str,
    output: str | None,
) -> None:
    """Generate puzzles with exactly one solution, reproducibly from a seed."""
    from starbattle.generate import generate as make_puzzles

    if size >= 2 and stars > king_capacity(size):
        raise UsageError(
            f"{stars} stars per row cannot fit a {size}x{size} board: at most "
            f"{king_capacity(size)} (two adjacent rows hold at most {-(-size // 2)} stars "
            "without touching)"
        )
    folder = Path(output) if output and Path(output).is_dir() else None
    if count > 1 and output_format not in ONE_LINE_FORMATS and folder is None:
        raise UsageError(
            f"several puzzles in {output_format} need a directory: -o DIR "
            "(or use json, url or sbn, one puzzle a line)"
        )
    puzzles = make_puzzles(size, stars, count, seed, min_region=min_region, timeout=timeout)
    lines: list[str] = []
    with click.progressbar(
        length=count, label="generating", file=sys.stderr, hidden=not sys.stderr.isatty()
    ) as progress:
        try:
            for index, puzzle in enumerate(puzzles, start=1):
                text = generated_text(puzzle, output_format, size, stars, seed, index)
                if folder is not None:
                    name = f"starbattle-{size}x{size}-{stars}star-{seed}-{index}.{output_format}"
                    write_atomic(folder / name, text)
                elif output:
                    lines.append(text)
                else:
                    click.echo(text, nl=False)
                progress.update(1)
        finally:
            if lines and output:
                write_atomic(output, "".join(lines))


def generated_text(
    puzzle: Any, output_format: str, size: int, stars: int, seed: str, index: int
) -> str:
    """One generated puzzle in an output format."""
    if output_format == "json":
        record = {
            **board_json(puzzle.board),
            "solution": puzzle.solution.grid(),
            "seed": puzzle.seed,
            "seconds": round(puzzle.seconds, 3),
        }
        return json.dumps(record) + "\n"
    text = write_board(puzzle.board, output_format)
    if output_format == "lp":
        command = f"starbattle-asp generate --size {size} --stars {stars} --seed {seed}"
        return (
            f"% generated by: {command} (puzzle {index}, attempt seed "
            f"{puzzle.seed}, {puzzle.seconds:.1f} s)\n{text}"
        )
    return str(text)


@cli.command("encodings")
def list_encodings() -> None:
    """List the default program and the rule variants with their purpose."""
    program = default_program()
    click.echo(f"default program: {program}")
    for path in base_files():
        click.echo(f"  {path.relative_to(program.parent)}")
    click.echo("variants (add with -w NAME):")
    variants = shipped_variants()
    width = max(len(name) for name in variants)
    for name, variant in variants.items():
        replaces = f" [replaces {' '.join(variant.replaces)}]" if variant.replaces else ""
        click.echo(f"  {name.ljust(width)}  {variant.purpose}{replaces}")


def main() -> None:
    """Entry point of the console script."""
    cli(prog_name="starbattle-asp")
