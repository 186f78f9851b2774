"""Board formats: recognise an input's format by its content and read or write it."""

from __future__ import annotations

import sys
from pathlib import Path

from starbattle.board import Board
from starbattle.errors import FormatError, UsageError
from starbattle.formats import asp, json_board, picture

READERS = {"lp": asp.read, "txt": picture.read, "json": json_board.read}
WRITERS = {"lp": asp.write, "txt": picture.write, "json": json_board.write}
EXTENSIONS = {".lp": "lp", ".json": "json", ".jsonl": "json", ".txt": "txt"}

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""Inputs larger than this are refused before reading (no real board comes close)."""


def detect(text: str, name: str | None = None) -> str:
    """Name the format of a board text: 'lp', 'json' or 'txt' (content first, extension as hint)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise FormatError(
            "the input is empty: expected a board (ASP facts, a picture or JSON)", file=name
        )
    if stripped[0] in "[{":
        return "json"
    if stripped.startswith(("http://", "https://", "pzprv3", "puzz.link", "pzv.jp")):
        raise FormatError(
            "puzz.link URLs and pzprv3 files are not readable yet: convert the board to "
            "a picture, ASP facts or JSON",
            file=name,
        )
    if asp.looks_like_facts(stripped):
        return "lp"
    hinted = EXTENSIONS.get(Path(name).suffix.lower()) if name else None
    return hinted if hinted in ("lp", "json") else "txt"


def parse_board(
    text: str, *, name: str | None = None, stars: int | None = None, fmt: str | None = None
) -> Board:
    """Read a board from text in any known format; `stars` overrides or supplies S."""
    if fmt is not None and fmt not in READERS:
        raise UsageError(f"unknown input format {fmt!r}: choose one of {', '.join(READERS)}")
    return READERS[fmt or detect(text, name)](text, name=name, stars=stars)


def read_text(path: str) -> str:
    """Read an input file ('-' for standard input) as text, refusing huge or binary files."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise FormatError("no such file", file=path) from None
    except IsADirectoryError:
        raise FormatError("is a directory, not a board file", file=path) from None
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", file=path) from None
    if len(data) > MAX_INPUT_BYTES:
        raise FormatError(
            f"the file is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB: not a board",
            file=path,
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FormatError(
            f"not UTF-8 text (byte {error.start}): save the board as UTF-8", file=path
        ) from None


def read_board(source: str, *, stars: int | None = None, fmt: str | None = None) -> Board:
    """Read a board from a file path, '-' (standard input), or the text of a board itself."""
    looks_like_text = "\n" in source or source.lstrip().startswith(("{", "["))
    if source == "-" or not looks_like_text:
        name = "<stdin>" if source == "-" else source
        return parse_board(read_text(source), name=name, stars=stars, fmt=fmt)
    return parse_board(source, stars=stars, fmt=fmt)


def write_board(board: Board, fmt: str) -> str:
    """Write a board in a format named by WRITERS."""
    if fmt not in WRITERS:
        raise UsageError(f"unknown output format {fmt!r}: choose one of {', '.join(WRITERS)}")
    return WRITERS[fmt](board)
