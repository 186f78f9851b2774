"""Board formats: recognise an input's format by its content and read or write it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from starbattle.board import Board
from starbattle.errors import FormatError, StarBattleError, UsageError
from starbattle.formats import asp, json_board, picture, puzzlink, pzprv3, sbn

READERS: dict[str, Callable[..., Board]] = {
    "lp": asp.read,
    "txt": picture.read,
    "json": json_board.read,
    "url": puzzlink.read,
    "pzprv3": pzprv3.read,
    "sbn": sbn.read,
}
TEXT_WRITERS: dict[str, Callable[[Board], str]] = {
    "lp": asp.write,
    "txt": picture.write,
    "json": json_board.write,
    "url": puzzlink.write,
    "pzprv3": pzprv3.write,
    "sbn": sbn.write,
}
PICTURES = ("svg", "png")
WRITERS = (*TEXT_WRITERS, *PICTURES)
EXTENSIONS = {".lp": "lp", ".json": "json", ".jsonl": "json", ".txt": "txt", ".sbn": "sbn"}

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""Inputs larger than this are refused before reading (no real board comes close)."""


def detect(text: str, name: str | None = None) -> str:
    """Name the format of a board text (content first, the file's extension as a hint)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise FormatError(
            "the input is empty: expected a board (ASP facts, a picture, JSON, "
            "a puzz.link URL, a pzprv3 file or SBN)",
            file=name,
        )
    lines = [line.strip() for line in stripped.splitlines() if line.strip()]
    if stripped[0] in "[{":
        return "json"
    if pzprv3.looks_like_pzprv3(stripped):
        return "pzprv3"
    if len(lines) == 1 and puzzlink.looks_like_url(lines[0]):
        return "url"
    if stripped.startswith(("http://", "https://")):
        raise FormatError(f"not a puzz.link Star Battle URL: {lines[0][:60]!r}", file=name)
    if all(sbn.looks_like_sbn(line) for line in lines):
        return "sbn"
    if asp.looks_like_facts(stripped):
        return "lp"
    hinted = EXTENSIONS.get(Path(name).suffix.lower()) if name else None
    return hinted if hinted in ("lp", "json", "sbn") else "txt"


def parse_board(
    text: str,
    *,
    name: str | None = None,
    stars: int | None = None,
    fmt: str | None = None,
    givens: bool = False,
) -> Board:
    """Read a board from text in any known format; `stars` overrides or supplies S.

    `givens` reads the answer block of a pzprv3 file as given stars and blanks.
    """
    if fmt is not None and fmt not in READERS:
        raise UsageError(f"unknown input format {fmt!r}: choose one of {', '.join(READERS)}")
    fmt = fmt or detect(text, name)
    if givens:
        if fmt != "pzprv3":
            raise UsageError(
                f"--givens reads the answer block of a pzprv3 file; this input "
                f"is {fmt}, whose givens are read anyway"
            )
        return pzprv3.read(text, name=name, stars=stars, givens=True)
    return READERS[fmt](text, name=name, stars=stars)


def split_collection(text: str, name: str | None = None) -> list[tuple[str, str]] | None:
    """The records of a collection (several SBN lines, or JSON Lines), each with its id.

    An id is the record's own "id" (JSON Lines), else NAME:LINE. None when the text is a
    single board.
    """
    lines = [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    where = name or "<input>"
    if len(lines) > 1 and all(sbn.looks_like_sbn(line) for _, line in lines):
        return [(f"{where}:{number}", line) for number, line in lines]
    if len(lines) > 1 and all(line.startswith("{") and line.endswith("}") for _, line in lines):
        records = []
        for number, line in lines:
            try:
                identifier = json_board.load_json(line, None).get("id")
            except (FormatError, AttributeError):
                identifier = None
            records.append((str(identifier) if identifier else f"{where}:{number}", line))
        return records
    return None


def board_records(
    text: str, name: str | None = None, *, fmt: str | None = None
) -> list[tuple[str, str]]:
    """The boards of an input as (id, text) pairs, not yet parsed: one, or a collection's."""
    records = split_collection(text, name) if fmt in (None, "sbn", "json") else None
    return records if records is not None else [(name or "<input>", text)]


def read_record(
    identifier: str,
    text: str,
    *,
    stars: int | None = None,
    fmt: str | None = None,
    givens: bool = False,
) -> Board | StarBattleError:
    """One record's board, or the error that stops it being read (so nothing else is lost)."""
    try:
        return parse_board(text, name=identifier, stars=stars, fmt=fmt, givens=givens)
    except StarBattleError as error:
        return error


def read_boards(
    text: str,
    *,
    name: str | None = None,
    stars: int | None = None,
    fmt: str | None = None,
    givens: bool = False,
) -> list[tuple[str, Board | StarBattleError]]:
    """Every board of an input with its id: one for a single board, many for a collection.

    In a collection a record that cannot be read stands as its error; a single board's error
    is raised.
    """
    records = board_records(text, name=name, fmt=fmt)
    if len(records) == 1:
        return [(records[0][0], parse_board(text, name=name, stars=stars, fmt=fmt, givens=givens))]
    return [
        (identifier, read_record(identifier, record, stars=stars, fmt=fmt, givens=givens))
        for identifier, record in records
    ]


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


def is_board_text(source: str) -> bool:
    """Whether a command-line style argument is a board itself rather than a file name."""
    return (
        "\n" in source
        or source.lstrip().startswith(("{", "["))
        or puzzlink.looks_like_url(source)
        or pzprv3.looks_like_pzprv3(source)
        or sbn.looks_like_sbn(source)
    )


def read_source(source: str) -> tuple[str, str]:
    """The text and name of an input.

    The input is a file path, '-' (standard input), or a board given as the argument
    itself (a URL, an SBN line, or text holding a newline).
    """
    if source != "-" and not Path(source).exists() and is_board_text(source):
        return source, "<argument>"
    return read_text(source), "<stdin>" if source == "-" else source


def read_board(source: str, *, stars: int | None = None, fmt: str | None = None) -> Board:
    """Read a board from a file path, '-' (standard input), or the text of a board itself."""
    text, name = read_source(source)
    return parse_board(text, name=None if name == "<argument>" else name, stars=stars, fmt=fmt)


def write_board(board: Board, fmt: str) -> str | bytes:
    """Write a board in a format of WRITERS (PNG as bytes, every other as text)."""
    from starbattle import pictures

    if fmt == "svg":
        return pictures.render_svg(board)
    if fmt == "png":
        return pictures.render_png(board)
    if fmt not in TEXT_WRITERS:
        raise UsageError(f"unknown output format {fmt!r}: choose one of {', '.join(WRITERS)}")
    return TEXT_WRITERS[fmt](board)
