"""Output files (`-o`): streamed, and replaced atomically when they are regular files.

`open_output(path)` is the one way to write an output file:

- a new path or a regular file: the output streams into a temporary file beside it, which
  replaces the file (with its permissions, and its owner where allowed) only when the `with`
  block ends without an error; on an error, Ctrl-C or any other exception the temporary file
  is removed and the old file is left as it was;
- a symlink: the same, done to the file the link finally points to; the link stays a link;
- a device, FIFO or socket (e.g. /dev/null, /dev/stdout, a named pipe): written directly,
  never replaced (opening a FIFO waits until something reads it);
- a file that is also an input of the same run: allowed and safe, as the input keeps its
  content until the run has succeeded (`convert board.txt --to txt -o board.txt` rewrites it
  in place; a failed run leaves it unchanged); other hard links to it keep the old content.

Failures (no such folder, no permission, disk full) are UsageErrors naming the path.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from starbattle.errors import UsageError


def _cannot_write(path: str | Path, error: OSError) -> UsageError:
    """The one-line error for a failed write."""
    return UsageError(f"cannot write {path}: {error.strerror or error}")


class _Sink(io.FileIO):
    """A file whose failed writes are UsageErrors naming the output (a closed pipe stays one)."""

    def __init__(self, descriptor: int, shown: str | Path) -> None:
        super().__init__(descriptor, "w")
        self.shown = shown

    def write(self, data: Any) -> int | None:
        """Write bytes; a failure names the output."""
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _cannot_write(self.shown, error) from None


def _stream(sink: _Sink, binary: bool, lines: bool) -> IO[Any]:
    """A buffered binary or UTF-8 text stream over a sink; flushed per line when asked."""
    buffered = io.BufferedWriter(sink)
    if binary:
        return buffered
    return io.TextIOWrapper(buffered, encoding="utf-8", newline="", line_buffering=lines)


def _new_mode() -> int:
    """The permissions of a new file: 0666 minus the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def open_output(path: str | Path, *, binary: bool = False) -> Iterator[IO[Any]]:
    """Open an output file for writing (UTF-8 text, or bytes with `binary`); see the module."""
    target = Path(os.path.realpath(path))
    try:
        status = target.stat()
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise _cannot_write(path, error) from None
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise UsageError(f"cannot write {path}: it is a folder; give a file name")
    if status is not None and not stat.S_ISREG(status.st_mode):
        with _direct(path, target, binary) as stream:
            yield stream
        return
    try:
        import tempfile  # ~5 ms: only when a file is written

        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{target.name[:200]}.", suffix=".tmp", dir=target.parent
        )
    except OSError as error:
        raise _cannot_write(path, error) from None
    from starbattle.asp.guard import undone_if_ended

    stream = _stream(_Sink(descriptor, path), binary, lines=False)
    try:
        with undone_if_ended(lambda: os.unlink(temporary)):  # a run ended while grounding
            yield stream
        stream.close()
    except BaseException:
        _discard(stream, temporary)
        raise
    try:
        os.chmod(temporary, _new_mode() if status is None else stat.S_IMODE(status.st_mode))
        if status is not None:
            with suppress(PermissionError):  # only root may give a file to another owner
                os.chown(temporary, status.st_uid, status.st_gid)
        os.replace(temporary, target)
    except BaseException as error:
        _discard(stream, temporary)
        if isinstance(error, OSError):
            raise _cannot_write(path, error) from None
        raise


def _discard(stream: IO[Any], temporary: str) -> None:
    """Close a stream whose output is dropped, and remove its temporary file."""
    with suppress(Exception):  # buffered data may fail to write again: it is dropped anyway
        stream.close()
    Path(temporary).unlink(missing_ok=True)


@contextmanager
def _direct(path: str | Path, target: Path, binary: bool) -> Iterator[IO[Any]]:
    """Write straight into a device, FIFO or socket, line by line for text."""
    try:
        descriptor = os.open(target, os.O_WRONLY)
    except OSError as error:
        raise _cannot_write(path, error) from None
    stream = _stream(_Sink(descriptor, path), binary, lines=True)
    try:
        yield stream
    except BaseException:
        with suppress(Exception):  # a full device or closed pipe would fail again on close
            stream.close()
        raise
    stream.close()


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write all of `data` to an output file at once (see open_output)."""
    with open_output(path, binary=isinstance(data, bytes)) as stream:
        stream.write(data)
