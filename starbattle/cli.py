"""The starbattle-asp command line: parse, call the library, print, choose the exit code."""

from __future__ import annotations

import json
import os
import signal
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from starbattle import __version__
from starbattle.batch import Outcome, Tally, run_all
from starbattle.board import Board, king_capacity
from starbattle.errors import StarBattleError, UsageError
from starbattle.files import write_atomic
from starbattle.formats import (
    PICTURES,
    READERS,
    WRITERS,
    board_records,
    pzprv3,
    read_boards,
    read_record,
    read_source,
    read_text,
    write_board,
)
from starbattle.limits import MAX_SIZE
from starbattle.output import Progress, Sink, SolveSettings, solve_one, solve_record
from starbattle.report import EXIT_ERROR

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


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
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
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Solve the puzzles of a collection in this many processes.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr (default: for several puzzles, when stderr is a terminal).",
)
@click.pass_context
def solve(
    ctx: click.Context,
    files: tuple[str, ...],
    jobs: int,
    progress: bool | None,
    **options: Any,
) -> None:
    """Solve each FILE: a board, a collection of boards (JSON Lines, SBN lines), or - (stdin).

    Prints the first solution and says whether the board is unique; when it is not, shows a
    second solution and where the two differ; when there is none, says why. With several
    puzzles each gets a summary with its id, and an overall summary ends the output.
    """
    records = [
        record
        for file in files
        for record in board_records(*read_source(file), fmt=options["input_format"])
    ]
    collection = len(records) > 1
    output_format, output = options["output_format"], options["output"]
    if options["count_only"] and options["fixed_only"]:
        raise UsageError("--count and --fixed are two different questions: ask one")
    if output_format in PICTURES and (collection or options["count_only"] or options["fixed_only"]):
        raise UsageError("pictures are drawn for one board's solutions: solve one board")
    if output_format == "png" and not output:
        raise UsageError("-f png writes a binary picture: name the file with -o FILE.png")
    if output_format == "svg" and not output and options["models"] != 1:
        raise UsageError("several SVG pictures need file names: add -o FILE.svg")
    settings = SolveSettings(
        **{**options, "ascii_only": options["ascii_only"] or not utf8_terminal()},
        second=ctx.get_parameter_source("models") == ParameterSource.DEFAULT,
        collection=collection,
    )
    if progress is None:
        progress = collection and sys.stderr.isatty()
    bar = Progress(len(records)) if progress else None
    sink = Sink(
        output if output_format not in PICTURES else None,
        before_line=bar.clear if bar is not None else None,
    )
    tally, codes = Tally(), []
    try:
        if jobs == 1:
            outcomes: Iterator[Outcome] = (
                Outcome(record[0], [], [], *solve_one(settings, sink, *record))
                for record in records
            )
        else:
            outcomes = run_all(partial(solve_record, settings), records, jobs)
        for outcome in outcomes:
            with held_interrupts():  # a puzzle's lines and its count go together
                shown(outcome, sink)
                tally.add(outcome.identifier, outcome.verdict)
                codes.append(outcome.code)
                if bar is not None:
                    bar.advance()
    except KeyboardInterrupt:
        if collection:
            sink.note(f"interrupted after {tally.puzzles} of {len(records)} puzzles")
            sink.line(overall_line(tally, output_format))
        sink.close()
        sys.exit(EXIT_INTERRUPTED)
    finally:
        if bar is not None:
            bar.clear()
    if collection:
        sink.line(overall_line(tally, output_format))
    sink.close()
    sys.exit(max(codes, key=SEVERITY.index))


def utf8_terminal() -> bool:
    """Whether standard output can show Unicode stars."""
    return (sys.stdout.encoding or "").lower().startswith("utf")


def shown(outcome: Outcome, sink: Sink) -> None:
    """Print the lines and messages a worker kept (none when the puzzle printed its own)."""
    for line in outcome.lines:
        sink.line(line)
    for note in outcome.notes:
        sink.note(note)


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Hold Ctrl-C back until the block is done (where signal masks exist), then deliver it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def overall_line(tally: Tally, output_format: str) -> str:
    """The overall summary of a collection in the output format."""
    if output_format == "json":
        return json.dumps(tally.record())
    prefix = {"lp": "% ", "pzprv3": "# "}.get(output_format, "")
    text = tally.text()
    if tally.not_unique:
        listed = ", ".join(tally.not_unique[:10])
        more = f" and {len(tally.not_unique) - 10} more" if len(tally.not_unique) > 10 else ""
        text += f"; not unique: {listed}{more}"
    return f"\n{prefix}{text}"


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
    from starbattle.check import check as check_answer
    from starbattle.formats.answer import read_marks

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
        from starbattle.formats.json_board import board_json

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


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@board_options
@click.option(
    "-e",
    "--encoding",
    "encodings",
    multiple=True,
    metavar="FILE|default",
    help="A program to compare: a file, or 'default' for the shipped one (repeatable).",
)
@click.option(
    "-w",
    "--with",
    "variants",
    multiple=True,
    metavar="NAME|FILE",
    help="Compare the default program with this variant added (repeatable).",
)
@click.option(
    "-n",
    "--models",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Solutions to look for on each board (2 proves uniqueness; 0 counts them all).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    help="Stop a program's search on a board after this many seconds.",
)
@click.option(
    "-f",
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def bench(
    files: tuple[str, ...],
    stars: int | None,
    input_format: str | None,
    givens: bool,
    encodings: tuple[str, ...],
    variants: tuple[str, ...],
    models: int,
    timeout: float | None,
    output_format: str,
) -> None:
    """Compare encodings on the boards of FILE...: time, choices, conflicts, agreement.

    With no -e or -w, compares the default program with the variant `plain`. Exits 1 when
    two programs that finished a board disagree on its number of solutions.
    """
    from starbattle.compare import ProgramRun, compare, disagreements, programs, table

    boards, unreadable = [], 0
    for file in files:
        for identifier, text in board_records(*read_source(file), fmt=input_format):
            board = read_record(identifier, text, stars=stars, fmt=input_format, givens=givens)
            if isinstance(board, StarBattleError):
                click.echo(f"starbattle-asp: error: {board} (skipped)", err=True)
                unreadable += 1
            else:
                boards.append((identifier, board))
    if not boards:
        raise UsageError("no board could be read: nothing to compare")
    runs = [ProgramRun(program) for program in programs(encodings, variants)]
    bar = Progress(len(boards)) if sys.stderr.isatty() else None
    try:
        for _ in compare(runs, boards, models, timeout):
            if bar is not None:
                bar.advance()
    finally:
        if bar is not None:
            bar.clear()
    differing = disagreements(runs)
    if output_format == "json":
        for run in runs:
            click.echo(json.dumps(run.record()))
        click.echo(json.dumps({"type": "agreement", "disagree": differing}))
    else:
        for line in table(runs):
            click.echo(line)
        if differing:
            click.echo(f"counts DISAGREE on {len(differing)} of {len(boards)} boards:")
            for identifier, counts in list(differing.items())[:20]:
                click.echo(f"  {identifier}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        else:
            click.echo(f"all programs agree on the counts of all {len(boards)} boards")
    sys.exit(1 if differing else EXIT_ERROR if unreadable else 0)


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
        replaces = f" [replaces {' '.join(variant.replaces)}]" if variant.replaces else ""
        click.echo(f"  {name.ljust(width)}  {variant.purpose}{replaces}")


def main() -> None:
    """Entry point of the console script."""
    cli(prog_name="starbattle-asp")
