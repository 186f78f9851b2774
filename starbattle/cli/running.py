"""How a command runs below its options: boards in, puzzles through a formatter, exit codes."""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from starbattle.asp import guard
from starbattle.errors import ClusterError, StarBattleError, UsageError
from starbattle.exits import Exit
from starbattle.io.formatters.base import Formatter, printable
from starbattle.io.inputs import ImageOptions, Record, read_input, records
from starbattle.io.output import Output, Progress, Status
from starbattle.model.board import Board
from starbattle.model.values import Outcome, Tally
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import State


def one_board(
    argument: str,
    stars: int | None = None,
    input_format: str | None = None,
    givens: bool = False,
    size: int | None = None,
    debug_image: str | None = None,
    *,
    marks: bool = False,
) -> tuple[Board, Record, ImageOptions]:
    """The one board an argument names (a collection is refused), its record, image options."""
    found = records(argument, fmt=input_format)
    if len(found) > 1:
        raise UsageError(f"{argument} holds {len(found)} puzzles; this command takes one")
    seen = ImageOptions(size, marks, debug_image)
    board = found[0].board(stars=stars, fmt=input_format, givens=givens, seen=seen)
    if found[0].image is not None:
        for note in found[0].reading(stars, seen).notes:  # how the image was read
            Output().note(f"starbattle-asp: {note}")
    return board, found[0], seen


def readable_boards(
    files: Iterable[str], output: Output, stars: int | None, input_format: str | None,
    givens: bool, size: int | None, debug_image: str | None,
) -> tuple[list[tuple[str, Board]], int]:  # fmt: skip
    """Every board of the files with its id; one that cannot be read is said and skipped."""
    boards, unreadable = [], 0
    seen = ImageOptions(size, False, debug_image)
    for file in files:
        for record in records(file, fmt=input_format):
            try:
                read = record.board(stars=stars, fmt=input_format, givens=givens, seen=seen)
            except StarBattleError as error:
                output.note(f"starbattle-asp: error: {printable(str(error))} (skipped)")
                unreadable += 1
            else:
                boards.append((record.identifier, read))
    return boards, unreadable


def collection_of(
    files: Iterable[str], input_format: str | None, bar: bool | None
) -> tuple[list[Record], bool, bool]:
    """The records of every file, whether they are several, and whether to draw a bar."""
    found = [record for file in files for record in records(file, fmt=input_format)]
    collection = len(found) > 1
    return found, collection, collection and sys.stderr.isatty() if bar is None else bar


def fresh_seed() -> str:
    """A new seed for `generate` when none is given: 8 hex digits from the system's entropy."""
    import secrets

    return secrets.token_hex(4)


def write_puzzles(
    made: Iterator[tuple[Any, str | None]], writer: Any, count: int, status: Status | None = None
) -> None:
    """Write generated puzzles as they come, their notes on stderr, with a progress bar.

    While a grade is searched for, the search's `status` line stands for the bar.
    """
    with progress_bar(count, "puzzles made", None if status is None else False) as progress:
        shown = status or progress
        writer.output.before_line = shown.clear if shown is not None else None
        try:
            with closing(made) as puzzles:  # closing it stops the workers' or cluster's work
                for puzzle, note in puzzles:
                    if note:
                        writer.output.note(note)
                    writer.add(puzzle)
                    if progress is not None:
                        progress.advance()
        finally:
            if status is not None:
                status.clear()
            writer.close()


def serve_page(file: str | None, host: str, port: int, open_browser: bool) -> None:
    """Serve the web page until Ctrl-C, saying where; it starts with FILE's board, if any."""
    from starbattle.io.inputs import write_board
    from starbattle.web.server import serve

    start = None
    if file is not None:
        board, record, _ = one_board(file)
        start = record.text if record.image is None else str(write_board(board, "json"))
    output = Output()

    def ready(url: str) -> None:
        """Say where the page is."""
        output.line(f"serving {url} (Ctrl-C stops)")
        output.flush()

    serve(host, port, start_board=start, open_browser=open_browser, ready=ready)


def one_text(argument: str) -> Record:
    """The text of an argument that is no board (an answer): a file, '-', or the text itself."""
    text, name = read_input(argument)
    if isinstance(text, bytes):
        raise UsageError(
            f"{argument} is an image: give the image as the board and add --marks to read "
            "the marks drawn on it"
        )
    return Record(name or "<argument>", text, name)


def state_of(
    board: Board,
    record: Record,
    seen: ImageOptions,
    argument: str | None,
    stars: int | None,
    givens: bool = False,
) -> State:
    """The marks so far: from STATE, drawn on an image (--marks), or saved in a pzprv3 file.

    A pzprv3 file's marks are read as `check` reads them (said on stderr), unless --givens
    made them givens.
    """
    from starbattle.logic.ladder import State
    from starbattle.run.service import read_state

    if argument is None and seen.marks and record.image is not None:
        drawn = record.reading(stars, seen)
        return State.of(drawn.marked_stars, drawn.marked_blanks)
    if argument is None and record.carries_answer and not givens:
        saved = read_state(board, record.text, record.name)
        if saved.stars or saved.blanks:
            Output().note(
                f"starbattle-asp: {printable(record.identifier)}: starting from its saved marks "
                f"({plural(len(saved.stars), 'star')}, {len(saved.blanks)} marked empty; "
                "--givens reads them as givens instead)"
            )
        return saved
    marks = None if argument is None else one_text(argument)
    return read_state(board, marks and marks.text, marks and marks.name)


@contextmanager
def closing_if(results: Any) -> Iterator[Any]:
    """Iterate results, closing them at the end if they can be closed (a cluster's run)."""
    if hasattr(results, "close"):
        with closing(results) as inner:
            yield inner
    else:
        yield results


@contextmanager
def progress_bar(total: int, unit: str = "puzzles", shown: bool | None = None) -> Iterator[Any]:
    """A progress bar on stderr (by default when it is a terminal), cleared at the end."""
    bar = Progress(total, unit) if (sys.stderr.isatty() if shown is None else shown) else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.clear()


def runner(
    jobs: int, cluster: str | None, chunk: int | None = None, apart: bool = False
) -> Callable[[Callable[[Any], Any], list[Any]], Any]:
    """How to map work over items: here, in `jobs` processes, or on a Dask cluster.

    `apart`: even one job runs in a worker process (a time limit that passes while clingo
    grounds, which ends the process, then costs only its puzzle).
    """
    if cluster is not None:
        from starbattle.run.cluster import run_on_cluster

        return lambda work, items: run_on_cluster(work, items, cluster, chunk=chunk)
    if jobs > 1 or apart:
        from starbattle.run.batch import run_all

        return lambda work, items: run_all(work, items, jobs, apart=apart)
    return map


def run_puzzles(
    work: Callable[[Record], Any],
    found: list[Record],
    show: Formatter,
    jobs: int,
    bar: bool,
    cluster: str | None = None,
    timeout: float | None = None,
) -> int:
    """Run `work` on every record (streamed with one job), show its items, return the exit code.

    A puzzle's lines are printed whole and counted with it; on Ctrl-C, or a cluster lost
    mid-run, the overall summary of what was done is printed and the error raised again. A
    collection with a time limit runs in worker processes (`runner`'s `apart`).
    """
    tally = Tally()
    apart = len(found) > 1 and timeout is not None
    local = jobs == 1 and cluster is None and not apart
    runs = runner(jobs, cluster, apart=apart)(work, found)
    # In this process a signal stops the running search, which then says how far it got; a
    # wait for worker processes or a cluster is ended at once (and cancels what is left).
    here = guard.holding() if local else nullcontext()
    with progress_bar(len(found), shown=bar) as progress, here, closing_if(runs) as results:
        show.output.before_line = progress.clear if progress is not None else None
        try:
            for record, items in zip(found, results, strict=False):
                show.start(record.identifier)
                for item in items:
                    with guard.holding():  # a record is printed whole, its count with it
                        show.show(item)
                        if isinstance(item, Outcome):
                            tally.add(item)
                            if progress is not None:
                                progress.advance()
                guard.checkpoint()
        except KeyboardInterrupt:
            if show.collection:
                show.output.note(f"interrupted after {tally.puzzles} of {len(found)} puzzles")
                show.show(tally)
            show.output.close()
            raise
        except ClusterError:
            if tally.puzzles:  # a cluster lost mid-run: what finished stands, summed up
                show.show(tally)
                show.output.close()
            else:
                show.output.abort()
            raise
        except BaseException:
            show.output.abort()  # a failed run leaves the -o file as it was
            raise
    if show.collection:
        show.show(tally)
    show.output.close()
    return tally.code


def show_items(show: Formatter, items: Iterable[Any]) -> int:
    """Show one board's items as they come, each whole; the exit code of the last that has one.

    On Ctrl-C what was shown stays (whole records), and KeyboardInterrupt goes on.
    """
    code = 0
    try:
        for item in items:
            with guard.holding():
                show.show(item)
            code = getattr(item, "code", code)
            guard.checkpoint()
        guard.checkpoint()  # a signal kept while nothing could raise it (see `handled`)
    finally:
        show.output.close()
    return code


def failure(error: BaseException, *, debug: bool = False) -> int:
    """Say what stopped a command in one line on stderr (if anything), and its exit code."""
    if isinstance(error, StarBattleError):
        sys.stderr.write(f"starbattle-asp: error: {printable(str(error))}\n")
        return error.exit_code
    if isinstance(error, BrokenPipeError):  # the reader went away (e.g. `| head`): stop quietly
        if sys.stdout is not None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return Exit.BROKEN_PIPE
    if isinstance(error, KeyboardInterrupt):
        return 128 + (guard.received_signal() or signal.SIGINT)
    if not isinstance(error, Exception):  # SystemExit and the like: not ours to judge
        raise error
    if debug:
        traceback.print_exception(error)
    sys.stderr.write(
        f"starbattle-asp: internal error: {type(error).__name__}: {printable(str(error))} "
        "(please report it with the command you ran; --debug shows the traceback)\n"
    )
    return Exit.INTERNAL


def describe_encodings() -> list[str]:
    """The default program's files, the variants and the hint programs with their purpose."""
    from starbattle.asp.encodings import base_files, default_program, shipped_variants
    from starbattle.logic.programs import STATE_PROGRAM, shipped_hint_programs
    from starbattle.logic.registry import TECHNIQUES

    program = default_program()
    lines = [f"default program: {program}"]
    lines += [f"  {path.relative_to(program.parent)}" for path in base_files()]
    lines.append("variants (add with -w NAME):")
    variants = shipped_variants()
    width = max(len(name) for name in variants)
    for name, variant in variants.items():
        replaces = f" [replaces {' '.join(variant.replaces)}]" if variant.replaces else ""
        lines.append(f"  {name.ljust(width)}  {variant.purpose}{replaces}")
    lines.append(
        f"hint programs ({program.parent / 'hints'}, each run with {STATE_PROGRAM}; "
        "add your own with hint --technique FILE):"
    )
    programs = shipped_hint_programs()
    shipped = [technique for technique in TECHNIQUES if technique.program is not None]
    width = max(len(technique.name) for technique in shipped)
    for technique in shipped:
        title = programs[technique.name].title
        lines.append(f"  {technique.name.ljust(width)}  level {technique.level}  {title}")
    return lines
