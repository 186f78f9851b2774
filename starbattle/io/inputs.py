"""Board formats: recognise an input's format by its content and read or write it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from starbattle.errors import FormatError, StarBattleError, UsageError
from starbattle.io.formats import asp, json_board, picture, puzzlink, pzprv3, sbn
from starbattle.model.board import Board

if TYPE_CHECKING:
    from starbattle.io.image.read import ImageReading


PICTURE_STARTS = {
    b"\x89PNG\r\n\x1a\n": "PNG",
    b"\xff\xd8\xff": "JPEG",
    b"GIF87a": "GIF",
    b"GIF89a": "GIF",
    b"II*\x00": "TIFF",
    b"MM\x00*": "TIFF",
}
"""The first bytes of picture files, and the kind of picture they start."""
HEIF_BRANDS = {b"heic": "HEIC", b"heix": "HEIC", b"mif1": "HEIF", b"avif": "AVIF"}
"""The brands of an ISO media file (bytes 8-12, after 'ftyp') that are pictures."""


def picture_kind(data: bytes) -> str | None:
    """The kind of picture the bytes start like (PNG, JPEG, WebP, GIF, BMP, TIFF, ...), or None.

    Only the first bytes are looked at (the image reader itself loads late); a BMP is told by
    its zero reserved bytes, which no text holds.
    """
    for start, kind in PICTURE_STARTS.items():
        if data.startswith(start):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[:2] == b"BM" and data[6:10] == bytes(4):
        return "BMP"
    if data[4:8] == b"ftyp":
        return HEIF_BRANDS.get(data[8:12])
    return None


READ_PICTURES = ("PNG", "JPEG", "WebP")
"""The kinds of picture a board is read from; the others are named and refused."""


def a_picture(kind: str | None) -> str:
    """'a PNG picture', 'an SVG picture' (a kind of picture with its article), or 'a picture'."""
    if kind is None:
        return "a picture"
    return f"{'an' if kind in ('AVIF', 'HEIF', 'SVG') else 'a'} {kind} picture"


def unread_picture(kind: str, name: str | None) -> FormatError:
    """The error for a picture of a kind no board is read from (GIF, BMP, TIFF, SVG, ...)."""
    return FormatError(
        f"{a_picture(kind)}; screenshots are read from PNG, JPEG or WebP: save it as PNG",
        file=name,
    )


def looks_like_image(data: bytes) -> bool:
    """Whether bytes start like a picture file: a screenshot to read, or one to refuse by name."""
    return picture_kind(data) is not None


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
INPUT_FORMATS = (*READERS, "image")
"""What --from may name: the text readers, and image (a screenshot or photo)."""
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
    if stripped.startswith("<") and "<svg" in stripped[:2000]:
        raise unread_picture("SVG", name)
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
    hinted = EXTENSIONS.get(os.path.splitext(name)[1].lower()) if name else None
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


class Record(NamedTuple):
    """One puzzle of an input, not yet parsed: its id, its text, and where it came from."""

    identifier: str
    """The record's own id (JSON Lines), else NAME:LINE in a collection, else NAME."""
    text: str
    name: str | None
    """The input's name for messages (a file, <stdin>), None for a board given as text."""
    error: StarBattleError | None = None
    """Why this line of a collection is no record at all (it is reported, the rest solved)."""
    image: bytes | None = None
    """The bytes of a picture, when the input is one (PNG, JPEG, WebP are read, others named)."""

    @property
    def carries_answer(self) -> bool:
        """Whether the record holds its own answer marks (a pzprv3 file)."""
        return pzprv3.looks_like_pzprv3(self.text.lstrip("\ufeff \t\r\n"))

    def board(
        self,
        *,
        stars: int | None = None,
        fmt: str | None = None,
        givens: bool = False,
        seen: ImageOptions | None = None,
    ) -> Board:
        """Parse the record's board (raising the error of a line that is no record)."""
        if self.error is not None:
            raise self.error
        if self.image is not None and fmt not in (None, "image"):
            raise UsageError(
                f"--from {fmt} reads a board written as text, but this file is "
                f"{a_picture(picture_kind(self.image))}: leave out --from {fmt}",
                file=self.name,
            )
        if self.image is not None or fmt == "image":
            return self.reading(stars, seen or ImageOptions()).board
        return parse_board(self.text, name=self.name, stars=stars, fmt=fmt, givens=givens)

    def reading(self, stars: int | None, seen: ImageOptions) -> ImageReading:
        """What the record's image shows (read once per image and options)."""
        if self.image is None:
            raise UsageError(f"{self.name or 'the input'} is not an image (PNG, JPEG or WebP)")
        return _read_image(self.image, self.name, stars, seen)


class ImageOptions(NamedTuple):
    """How to read a board from an image: its size if known, drawn marks, a debug picture."""

    size: int | None = None
    marks: bool = False
    debug: str | None = None
    """A PNG file to write with what was read (the grid and the regions outlined)."""
    unique: bool = True
    """Refuse a board with several solutions (False when every solution is asked for)."""


@lru_cache(maxsize=4)
def _read_image(
    data: bytes, name: str | None, stars: int | None, seen: ImageOptions
) -> ImageReading:
    """Read a board from image bytes (cached: a command asks for the board and the notes)."""
    from starbattle.io.image.read import read_image

    return read_image(
        data,
        name=name,
        stars=stars,
        size=seen.size,
        marks=seen.marks,
        debug_path=seen.debug,
        unique=seen.unique,
    )


COMMENT = ("#", "%", "//")
"""Lines of a collection that are comments, skipped."""


def _collection(text: str, name: str | None, fmt: str | None) -> list[Record] | None:
    """The records of a collection (SBN lines or JSON Lines), each with its id; None for one board.

    A text is a collection when at least two of its lines are records and most of its other
    lines are comments; a line that is neither (a truncated record, a stray word) stands as an
    error record, so that the good records are still solved.
    """
    if fmt not in (None, "sbn", "json"):
        return None
    lines = [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith(COMMENT)
    ]
    where = name or "<input>"
    sbn_lines = sum(1 for _, line in lines if sbn.looks_like_sbn(line))
    json_lines = sum(1 for _, line in lines if line.startswith("{") and line.endswith("}"))
    kind = "sbn" if sbn_lines >= json_lines else "json"
    found = max(sbn_lines, json_lines)
    if found < 2 or found * 2 < len(lines) or (fmt is not None and fmt != kind):
        return None
    records = []
    for number, line in lines:
        identifier = f"{where}:{number}"
        if not (sbn.looks_like_sbn(line) if kind == "sbn" else line[0] + line[-1] == "{}"):
            what = "an SBN line" if kind == "sbn" else "a JSON record"
            error = FormatError(f"not {what}: {line[:40]!r}", file=where, line=number)
            records.append(Record(identifier, line, where, error))
            continue
        if kind == "json":
            try:
                own = json_board.load_json(line, None).get("id")
            except (FormatError, AttributeError):
                own = None
            identifier = str(own) if own else identifier
        records.append(Record(identifier, line, identifier))
    return records


def _is_file(argument: str) -> bool:
    """Whether an argument names an existing file (a board given as text is none)."""
    try:
        return os.path.exists(argument)
    except (OSError, ValueError):  # too long for a file name, or a NUL byte: text, not a path
        return False


def is_board_text(source: str) -> bool:
    """Whether a command-line style argument is a board itself rather than a file name."""
    return (
        "\n" in source
        or source.lstrip().startswith(("{", "["))
        or puzzlink.looks_like_url(source)
        or pzprv3.looks_like_pzprv3(source)
        or sbn.looks_like_sbn(source)
    )


def read_input(argument: str) -> tuple[str | bytes, str | None]:
    """The text of a command-line argument (an image's bytes), and its name for messages.

    The argument is a file path, '-' (standard input), or a board given as the argument
    itself (a URL, an SBN line, a JSON board, or text holding a newline: its name is None).
    """
    if argument == "-":
        return read_text(argument), "<stdin>"
    if not _is_file(argument) and is_board_text(argument):
        return argument, None
    return read_text(argument), argument


def records(argument: str, *, fmt: str | None = None) -> list[Record]:
    """The one input path: an argument (file, '-', URL, SBN line, board text, image) as records."""
    text, name = read_input(argument)
    if isinstance(text, bytes):
        return [Record(name or "<argument>", "", name, image=text)]
    return _collection(text, name, fmt) or [Record(name or "<argument>", text, name)]


def read_text(path: str) -> str | bytes:
    """Read an input file ('-' for standard input) as text (an image as bytes).

    Huge files and other binary files are refused.
    """
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
    if looks_like_image(data):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FormatError(
            f"not UTF-8 text (byte {error.start}): save the board as UTF-8", file=path
        ) from None


def read_board(source: str, *, stars: int | None = None, fmt: str | None = None) -> Board:
    """Read a board from a file path (a board file or an image), '-', or a board's text."""
    found = records(source, fmt=fmt)
    if len(found) > 1:
        raise UsageError(f"{found[0].name} holds {len(found)} puzzles; read one at a time")
    return found[0].board(stars=stars, fmt=fmt)


WRITTEN_EXTENSIONS = {**EXTENSIONS, ".svg": "svg", ".png": "png", ".pzprv3": "pzprv3"}
"""The board format a file's extension asks for when a board is written."""


def format_for(path: str, record: Record, fmt: str | None = None) -> str:
    """The format to write a board to `path` in: its extension's, else the input's own.

    `fmt`: the input's format as given (--from); an image's board is written as JSON.
    """
    by_extension = WRITTEN_EXTENSIONS.get(os.path.splitext(path)[1].lower())
    if by_extension is not None:
        return by_extension
    if record.image is not None or fmt == "image":
        return "json"
    return fmt or detect(record.text, record.name)


def write_board(board: Board, fmt: str) -> str | bytes:
    """Write a board in a format of WRITERS (PNG as bytes, every other as text)."""
    from starbattle.io import pictures

    if fmt == "svg":
        return pictures.render_svg(board)
    if fmt == "png":
        return pictures.render_png(board)
    if fmt not in TEXT_WRITERS:
        raise UsageError(f"unknown output format {fmt!r}: choose one of {', '.join(WRITERS)}")
    return TEXT_WRITERS[fmt](board)
