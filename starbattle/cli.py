"""The starbattle-asp command line: parse, call the library, print, choose the exit code."""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from starbattle import __version__
from starbattle.board import Board
from starbattle.errors import StarBattleError
from starbattle.formats import READERS, WRITERS, parse_board, read_text

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
OUTPUT_FORMATS = ("text", "json", "lp")


class DefaultSolveGroup(click.Group):
    """A group where `starbattle-asp FILE` means `starbattle-asp solve FILE`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Insert `solve` when the first argument is not a command or a group option."""
        if (
            args
            and args[0] not in self.commands
            and args[0] not in ("--help", "-h", "--version", "--debug")
        ):
            args = ["solve", *args]
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


def load_board(path: str, stars: int | None, input_format: str | None) -> Board:
    """Read the board named on the command line ('-' = standard input)."""
    name = "<stdin>" if path == "-" else path
    return parse_board(read_text(path), name=name, stars=stars, fmt=input_format)


def board_options(command: Any) -> Any:
    """The options every command that reads a board shares."""
    command = click.option(
        "-s",
        "--stars",
        type=click.IntRange(min=1),
        help="Stars per row, column and region (overrides the file's).",
    )(command)
    return click.option(
        "--from",
        "input_format",
        type=click.Choice(list(READERS)),
        help="Input format (default: recognised from the content).",
    )(command)


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
                help="Stop searching after this many seconds.",
            ),
            click.option("--stats", is_flag=True, help="Print clingo statistics to stderr."),
        ]
    ):
        command = option(command)
    return command


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
    type=click.Choice(OUTPUT_FORMATS),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw stars as * (text output).")
def solve(
    file: str,
    stars: int | None,
    input_format: str | None,
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
    ascii_only: bool,
) -> None:
    """Solve FILE (a path or - for standard input) and say whether the board is unique."""
    from starbattle import report
    from starbattle.facts import star_facts
    from starbattle.render import render_text
    from starbattle.solver import Solver

    board = load_board(file, stars, input_format)
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
        try:
            search = solver.count(timeout)
        except KeyboardInterrupt:
            click.echo(f"interrupted after counting {solver.last.found} solution(s)", err=True)
            sys.exit(EXIT_INTERRUPTED)
        if output_format == "json":
            record = report.summary_record(search, search.found)
            click.echo(json.dumps(record))
        else:
            click.echo(report.count_text(search, timeout))
        finish(solver, stats, report.exit_code(search, require_unique))
    ascii_only = ascii_only or not (sys.stdout.encoding or "").lower().startswith("utf")
    shown = 0
    try:
        for solution in solver.solutions(0 if models == 0 else models + 1, timeout):
            if models and shown == models:
                continue
            shown += 1
            if output_format == "json":
                click.echo(json.dumps(report.solution_record(shown, solution)))
            elif output_format == "lp":
                click.echo(star_facts(solution.stars))
            else:
                if shown > 1:
                    click.echo()
                click.echo(f"solution {shown}:")
                click.echo(render_text(board, solution, ascii_only=ascii_only))
            sys.stdout.flush()
    except KeyboardInterrupt:
        click.echo(f"interrupted after {shown} solution(s)", err=True)
        sys.exit(EXIT_INTERRUPTED)
    search = solver.last
    if output_format == "json":
        click.echo(json.dumps(report.summary_record(search, shown)))
    else:
        prefix = "% " if output_format == "lp" else ("" if not shown else "\n")
        click.echo(prefix + report.summary_text(search, shown, timeout))
    finish(solver, stats, report.exit_code(search, require_unique))


def finish(solver: Any, stats: bool, code: int) -> None:
    """Print statistics when asked and exit with the code."""
    if stats:
        click.echo(solver.stats.line(), err=True)
    sys.exit(code)


@cli.command()
@click.argument("file")
@click.option(
    "--to",
    "output_format",
    type=click.Choice(list(WRITERS)),
    required=True,
    help="The format to write.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file.")
@board_options
def convert(
    file: str, output_format: str, output: str | None, stars: int | None, input_format: str | None
) -> None:
    """Convert the board in FILE to another format."""
    from starbattle.formats import write_board

    text = write_board(load_board(file, stars, input_format), output_format)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@cli.command()
@click.argument("file")
@click.argument("answer")
@board_options
def check(file: str, answer: str, stars: int | None, input_format: str | None) -> None:
    """Check ANSWER (stars as a * / . grid, star(R,C) facts or JSON) against the board."""
    from starbattle.check import check as check_answer
    from starbattle.formats.answer import read_answer

    board = load_board(file, stars, input_format)
    name = "<stdin>" if answer == "-" else answer
    placed = read_answer(read_text(answer), board.size, name=name)
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


@cli.command("encodings")
def list_encodings() -> None:
    """List the default program and the rule variants with their purpose."""
    from starbattle.encodings import base_files, default_program, shipped_variants

    program = default_program()
    click.echo(f"default program: {program}")
    for path in base_files():
        click.echo(f"  {path.relative_to(program.parent)}")
    click.echo("variants (add with -w NAME):")
    variants = shipped_variants()
    width = max(len(name) for name in variants)
    for name, variant in variants.items():
        replaces = f" [replaces {variant.replaces}]" if variant.replaces else ""
        click.echo(f"  {name.ljust(width)}  {variant.purpose}{replaces}")


def main() -> None:
    """Entry point of the console script."""
    cli(prog_name="starbattle-asp")
