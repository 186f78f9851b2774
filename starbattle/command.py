"""How a command runs below its options: boards in, puzzles through a formatter, exit codes."""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from starbattle import interrupts
from starbattle.board import Board
from starbattle.errors import StarBattleError, UsageError
from starbattle.formats import Record, read_input, records
from starbattle.formatters import Formatter, printable
from starbattle.output import Progress
from starbattle.results import EXIT_ERROR, EXIT_INTERNAL, SEVERITY, Outcome

EXIT_BROKEN_PIPE = 141


def one_board(
    argument: str, stars: int | None, input_format: str | None, givens: bool
) -> tuple[Board, Record]:
    """The one board an argument names (a collection is refused), and its record."""
    found = records(argument, fmt=input_format)
    if len(found) > 1:
        raise UsageError(f"{argument} holds {len(found)} puzzles; this command takes one")
    return found[0].board(stars=stars, fmt=input_format, givens=givens), found[0]


def one_text(argument: str) -> Record:
    """The text of an argument that is no board (an answer): a file, '-', or the text itself."""
    text, name = read_input(argument)
    return Record(name or "<argument>", text, name)


@contextmanager
def progress_bar(total: int, unit: str = "puzzles", shown: bool | None = None) -> Iterator[Any]:
    """A progress bar on stderr (by default when it is a terminal), cleared at the end."""
    bar = Progress(total, unit) if (sys.stderr.isatty() if shown is None else shown) else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.clear()


def run_puzzles(
    work: Callable[[Record], Any], found: list[Record], show: Formatter, jobs: int, bar: bool
) -> int:
    """Run `work` on every record (streamed with one job), show its items, return the exit code.

    A puzzle's lines are printed whole and counted with it; on Ctrl-C the overall summary of
    what was done is printed and KeyboardInterrupt raised again.
    """
    from starbattle.batch import Tally, run_all

    tally, codes = Tally(), [0]
    runs = (work(record) for record in found) if jobs == 1 else run_all(work, found, jobs)
    # In this process a signal stops the running search, which then says how far it got; a
    # wait for worker processes is ended at once.
    here = interrupts.holding() if jobs == 1 else nullcontext()
    with progress_bar(len(found), shown=bar) as progress, here:
        show.output.before_line = progress.clear if progress is not None else None
        try:
            for record, items in zip(found, runs, strict=False):
                show.begin(record.identifier)
                for item in items:
                    with interrupts.holding():  # a record is printed whole, its count with it
                        show.show(item)
                        if isinstance(item, Outcome):
                            tally.add(item.identifier, item.verdict, item.tier)
                            codes.append(item.code)
                            if progress is not None:
                                progress.advance()
                interrupts.checkpoint()
        except KeyboardInterrupt:
            if show.collection:
                show.output.note(f"interrupted after {tally.puzzles} of {len(found)} puzzles")
                show.overall(tally)
            show.output.close()
            raise
    if show.collection:
        show.overall(tally)
    show.output.close()
    return max(codes, key=SEVERITY.index)


def failure(error: BaseException, *, debug: bool = False) -> int:
    """Say what stopped a command in one line on stderr (if anything), and its exit code."""
    if isinstance(error, StarBattleError):
        sys.stderr.write(f"starbattle-asp: error: {printable(str(error))}\n")
        return EXIT_ERROR
    if isinstance(error, BrokenPipeError):  # the reader went away (e.g. `| head`): stop quietly
        if sys.stdout is not None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    if isinstance(error, KeyboardInterrupt):
        return 128 + (interrupts.received_signal() or signal.SIGINT)
    if not isinstance(error, Exception):  # SystemExit and the like: not ours to judge
        raise error
    if debug:
        traceback.print_exception(error)
    sys.stderr.write(
        f"starbattle-asp: internal error: {type(error).__name__}: {printable(str(error))} "
        "(please report it with the command you ran; --debug shows the traceback)\n"
    )
    return EXIT_INTERNAL
