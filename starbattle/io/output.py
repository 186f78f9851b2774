"""Where formatted output goes: standard output, an -o file written whole, pictures, stderr.

The one place that writes: formatters hand it lines, files and messages. Lines to a
terminal are shown at once, to a pipe or file flushed at least every 50 ms; an -o file is
written atomically when the run ends (also after Ctrl-C: whole lines only).
"""

from __future__ import annotations

import errno
import io
import os
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from starbattle.errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path


class Note(NamedTuple):
    """A line for people, on standard error."""

    text: str


class Document(NamedTuple):
    """A whole file (a picture): written to `path`, or to standard output without one."""

    data: str | bytes
    path: Path | None
    what: str = ""
    """What the file shows, said with it."""


Piece = str | Note | Document
"""A formatter's output: a line (standard output), a note or a document."""


def stream_error(error: OSError, what: str = "standard output") -> UsageError | OSError:
    """A failed write to a stream as a one-line error (a closed pipe stays BrokenPipeError).

    Standard output then points to /dev/null, so that Python's own flush at exit does not
    fail again with a traceback.
    """
    if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
        return error
    if what == "standard output" and sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    reason = os.strerror(error.errno).lower() if error.errno else str(error)
    return UsageError(f"cannot write {what}: {reason}")


def stdout() -> TextIO:
    """Standard output, or a one-line error when the process was started with it closed."""
    if sys.stdout is None:
        raise UsageError("cannot write standard output: it is closed (start with 1>FILE)")
    return sys.stdout


class _WholeWrites(io.RawIOBase):
    """A file descriptor whose writes write every byte or raise.

    CPython's buffered writer takes a short write (the disk filled up part way) as success
    and drops the rest: a nearly full disk lost the end of the output and exited 0.
    """

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    def writable(self) -> bool:
        """It is for writing."""
        return True

    def fileno(self) -> int:
        """The file descriptor written to."""
        return self.descriptor

    def write(self, data: Any) -> int:
        """Write all of the data (os.write again after a short write, which then fails)."""
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            done += os.write(self.descriptor, view[done:])
        return done


def whole_standard_output() -> None:
    """Make standard output write every byte or fail (for the command line's process)."""
    current = sys.stdout
    try:
        descriptor = current.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or not a file (a test's capture)
        return
    current.flush()
    buffered = io.BufferedWriter(_WholeWrites(descriptor))
    sys.stdout = io.TextIOWrapper(
        buffered,
        encoding=current.encoding,
        errors=current.errors,
        line_buffering=current.line_buffering,
    )


def utf8_output() -> bool:
    """Whether standard output can show Unicode stars."""
    return sys.stdout is not None and (sys.stdout.encoding or "").lower().startswith("utf")


class Output:
    """Output lines, picture files and messages of one command run."""

    FLUSH_SECONDS = 0.05
    """Lines to a pipe or file are flushed at least this often (to a terminal: each line)."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        """The -o file, or None for standard output."""
        self._file: ExitStack | None = None
        """The -o file being written (a temporary file, renamed into place by close())."""
        self._stream: TextIO | None = None
        self.before_line: Callable[[], None] | None = None
        """Called before anything goes to the terminal (e.g. to clear a progress bar)."""
        self.interactive = path is None and sys.stdout is not None and sys.stdout.isatty()
        self.flushed = time.perf_counter()
        self.written: list[tuple[str, str]] = []
        """Files written so far and what each shows: said on stderr when the run closes."""
        self._closed = False

    def line(self, text: str) -> None:
        """Print one line (to the -o file: streamed into its temporary file)."""
        if self.path is not None:
            if self._stream is None:
                from starbattle.io.files import open_output

                self._file = ExitStack()
                self._stream = self._file.enter_context(open_output(self.path))
            self._stream.write(text + "\n")
            return
        if self.before_line is not None:
            self.before_line()
        try:
            out = stdout()
            out.write(text + "\n")
            now = time.perf_counter()
            if self.interactive or now - self.flushed >= self.FLUSH_SECONDS:
                out.flush()
                self.flushed = now
        except OSError as error:
            raise stream_error(error) from None

    def note(self, text: str) -> None:
        """Print a message for people (warnings, errors, interruptions) to standard error."""
        if self.before_line is not None:
            self.before_line()
        if self.path is None:
            self.flush()  # what came before the message is shown before it
        try:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        except OSError as error:
            raise stream_error(error, "standard error") from None

    def write(self, data: str | bytes, path: str | Path | None = None, what: str = "") -> None:
        """Write a whole document: to `path`, else to the -o file, else to standard output.

        `what`: what a written file shows, for the note that says it was written.
        """
        target = path or self.path
        if target is not None:
            from starbattle.io.files import write_atomic

            write_atomic(target, data)
            self.written.append((str(target), what))
            return
        if isinstance(data, bytes):
            raise UsageError("this output is binary (a PNG picture): name the file with -o FILE")
        try:
            out = stdout()
            out.write(data)
            out.flush()  # a full disk is said now, not lost in Python's flush at exit
        except OSError as error:
            raise stream_error(error) from None

    def put(self, pieces: list[Piece]) -> None:
        """Write a formatter's pieces: lines, notes (stderr) and documents (their files)."""
        for piece in pieces:
            if isinstance(piece, str):
                self.line(piece)
            elif isinstance(piece, Note):
                self.note(piece.text)
            elif piece.path is None:
                self.line(str(piece.data).rstrip("\n"))
            else:
                self.write(piece.data, piece.path, piece.what)

    def flush(self) -> None:
        """Show what was printed so far."""
        try:
            stdout().flush()
        except OSError as error:
            raise stream_error(error) from None

    @property
    def wrote(self) -> bool:
        """Whether any line went to the -o file."""
        return self._stream is not None

    def close(self) -> None:
        """Put the -o file in place (whole lines; also after Ctrl-C), or flush standard output.

        Then say on stderr which files were written. Closing again does nothing more.
        """
        if self.path is None:
            self.flush()
        elif self._closed:
            return
        elif self._file is not None:
            self._file.close()
            self.written.append((self.path, ""))
        elif not self.written:  # a run that printed nothing still leaves its (empty) file
            self.write("")
        self._closed = self.path is not None
        self._say_written()

    def _say_written(self) -> None:
        """One line for the files written: `wrote FILE`, or `wrote N files to FOLDER/`."""
        if not self.written:
            return
        if len(self.written) == 1:
            path, what = self.written[0]
            self.note(f"wrote {path}{what}")
        else:
            folders = {os.path.dirname(path) or "." for path, _ in self.written}
            where = folders.pop() if len(folders) == 1 else "several folders"
            self.note(f"wrote {len(self.written)} files to {where.rstrip(os.sep)}{os.sep}")
        self.written = []

    def abort(self) -> None:
        """Leave the -o file as it was (a run that failed): its temporary file goes."""
        if self._file is not None:
            self._file.__exit__(RuntimeError, RuntimeError("aborted"), None)


class Progress:
    """A one-line progress bar on standard error, redrawn at most ten times a second."""

    def __init__(self, total: int, unit: str = "puzzles") -> None:
        self.total = total
        self.unit = unit
        self.done = 0
        self.started = self.drawn_at = time.perf_counter()
        self.visible = False

    def advance(self) -> None:
        """One more is done."""
        self.done += 1
        now = time.perf_counter()
        if now - self.drawn_at >= 0.1 or self.done == self.total:
            self.drawn_at = now
            rate = self.done / max(now - self.started, 1e-9)
            left = (self.total - self.done) / rate
            filled = 30 * self.done // self.total
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} {self.unit}, "
                f"{rate:.1f}/s, {left:.0f} s left\x1b[K"
            )
            sys.stderr.flush()
            self.visible = True

    def clear(self) -> None:
        """Erase the bar (before a line is printed, and at the end)."""
        if self.visible:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.visible = False


class Status:
    """A line on standard error saying how a long search goes.

    Redrawn in place on a terminal, else printed at most every QUIET_SECONDS.
    """

    QUIET_SECONDS = 10.0

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.said_at = time.perf_counter()
        self.visible = False

    def say(self, text: str) -> None:
        """Show the search's state now (on a terminal) or when it has been quiet a while."""
        now = time.perf_counter()
        if self.terminal:
            sys.stderr.write(f"\r{text}\x1b[K")
            self.visible = True
        elif now - self.said_at >= self.QUIET_SECONDS:
            sys.stderr.write(f"starbattle-asp: {text}\n")
            self.said_at = now
        else:
            return
        sys.stderr.flush()

    def clear(self) -> None:
        """Erase the line (before anything else is printed, and at the end)."""
        if self.visible:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.visible = False
