"""The options the commands share, each declared once, and the group that runs a command."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import click

from starbattle.cli.running import failure
from starbattle.io.inputs import INPUT_FORMATS
from starbattle.model.steps import TIERS

DEBUG = {"on": False}
"""--debug: show the traceback of internal errors."""


def options(*declared: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Apply several click options as one decorator, so that each is declared once."""

    def apply(command: Any) -> Any:
        for option in reversed(declared):
            command = option(command)
        return command

    return apply


stars_option = click.option(
    "-s", "--stars", type=click.IntRange(min=1), help="Stars per row, column and region."
)
board_options = options(
    stars_option,
    click.option("--from", "input_format", type=click.Choice(INPUT_FORMATS), help="Input format."),
    click.option("--givens", is_flag=True, help="Read a pzprv3 file's marks as givens."),
    click.option(
        "--size", type=click.IntRange(4, 25), help="An image's board size N (else read from it)."
    ),
    click.option(
        "--debug-image",
        type=click.Path(dir_okay=False),
        help="Write what was read from an image (grid, regions) to this PNG.",
    ),
)


def seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Refuse a time limit that is not a number (nan passes click's range check)."""
    if value is not None and value != value:
        raise click.BadParameter("nan is not a number of seconds", ctx, param)
    return value


marks_option = click.option(
    "--marks", is_flag=True, help="Read the stars and X marks drawn on an image as the marks."
)
timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=1e6),
    callback=seconds,
    help="Stop after this many seconds (per puzzle).",
)
program_options = options(
    click.option("-e", "--encoding", type=click.Path(dir_okay=False), help="Replace the program."),
    click.option(
        "-w", "--with", "variants", multiple=True, metavar="NAME|FILE", help="Add a rule variant."
    ),
    click.option(
        "-c", "--const", "constants", multiple=True, metavar="NAME=VALUE", help="A clingo constant."
    ),
    click.option(
        "-t",
        "--threads",
        type=click.IntRange(1, 64),
        help="Solver threads (default: 2 from 4 stars up on 2+ cores, else 1).",
    ),
    timeout_option,
    click.option("--stats", is_flag=True, help="Print clingo statistics to stderr."),
)
technique_option = click.option(
    "--technique",
    "techniques",
    multiple=True,
    metavar="FILE.lp",
    help="Add a hint program (headed '% level: L') to the ladder at level L (repeatable).",
)
assume_unique_option = click.option(
    "--assume-unique",
    is_flag=True,
    help="Let techniques assume the puzzle has one solution (by a thread, at sea); "
    "their steps say so.",
)
grade_option = click.option(
    "--grade", "with_grade", is_flag=True, help="Grade the puzzle's difficulty after the summary."
)
output_option = click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write to this file, whole or not at all.",
)
jobs_options = options(
    click.option("-j", "--jobs", type=click.IntRange(1, 256), default=1, help="Processes."),
    click.option(
        "--cluster",
        metavar="ADDRESS",
        help="Run on a Dask cluster: tcp://HOST:PORT, or local[:N] for N processes here.",
    ),
)
collection_options = options(
    jobs_options,
    click.option("--progress/--no-progress", default=None, help="Progress bar on stderr."),
)
suggest_options = options(
    click.option(
        "--max-moves",
        type=click.IntRange(1, 2),
        default=2,
        show_default=True,
        help="Moves per suggestion at most (pairs if no single move works).",
    ),
    click.option(
        "--tier",
        type=click.Choice(TIERS),
        help="Only edits that make a unique puzzle of this grade.",
    ),
    click.option(
        "-n",
        "--most",
        type=click.IntRange(min=0),
        default=5,
        show_default=True,
        help="Suggestions to print (0: every one of the fewest moves).",
    ),
    click.option("--split", is_flag=True, help="Allow moves that cut a region in pieces."),
)
"""suggest's choices: how many moves, towards which grade, how many shown, split regions."""


def format_option(choices: Iterable[str], default: str = "text") -> Callable[[Any], Any]:
    """The -f/--format option with a command's choices."""
    return click.option(
        "-f", "--format", "output_format", type=click.Choice(list(choices)), default=default,
        show_default=True, help="Output format.",
    )  # fmt: skip


class DefaultSolveGroup(click.Group):
    """A group where `starbattle-asp FILE` means `starbattle-asp solve FILE`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Take `--debug` from anywhere (before `--`); `FILE ...` means `solve FILE ...`."""
        end = args.index("--") if "--" in args else len(args)
        DEBUG["on"] = "--debug" in args[:end]
        if DEBUG["on"]:
            args = [arg for arg in args[:end] if arg != "--debug"] + args[end:]
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["solve", *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command and exit with its code; every failure is one line, never a traceback."""
        try:
            code = super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BaseException as error:
            code = failure(error, debug=DEBUG["on"])
        ctx.exit(code or 0)
