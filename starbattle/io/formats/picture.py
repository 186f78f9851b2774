"""Picture text: N lines of N region labels, an optional `stars: S` header, an optional marks block.

Labels are single non-space characters (spaces between them allowed), or, when a line splits
into exactly N whitespace-separated words, those words (e.g. an integer matrix). After a blank
line an optional second block of the same shape marks cells: `*` a given star, `x` a given
blank, `#` a blocked cell (its label in the first block is then ignored), `.` nothing.
"""

from __future__ import annotations

import re

from starbattle.errors import FormatError
from starbattle.limits import whole_number
from starbattle.model.board import Board, Cell
from starbattle.model.units import region_names
from starbattle.words import plural

_HEADER = re.compile(r"\s*stars?\s*[:=]\s*(?P<value>\S*)\s*\Z", re.IGNORECASE)
MARK_STAR, MARK_BLANK, MARK_BLOCKED, MARK_NONE = "*", "x", "#", "."


def _blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Group numbered non-blank lines into blocks separated by blank lines."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            current.append((number, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _cells(line: str, size: int, number: int, row: int, name: str | None) -> list[str]:
    """Split one picture line into `size` labels, or fail with the line's location."""
    words = line.split()
    if len(words) == size > 1:
        return words
    chars = "".join(words)
    if len(chars) == size:
        return list(chars)
    raise FormatError(
        f"row {row} has {plural(len(chars), 'cell')} but the picture has {plural(size, 'row')}: "
        "a board is square, one character (or one word) per cell",
        file=name,
        line=number,
        column=1,
    )


def read(text: str, *, name: str | None = None, stars: int | None = None) -> Board:
    """Read a picture board."""
    lines = text.splitlines()
    header_stars: int | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        header = _HEADER.match(line)
        if header:
            value = header.group("value")
            count = whole_number(value)
            if count is None or count < 1:
                raise FormatError(
                    f"'{line.strip()[:30]}': the star count must be a whole number of at least 1",
                    file=name,
                    line=number,
                    column=1,
                )
            header_stars = count
            lines[number - 1] = ""
        break
    blocks = _blocks(lines)
    if not blocks:
        raise FormatError("the picture has no rows", file=name)
    if len(blocks) > 2:
        number = blocks[2][0][0]
        raise FormatError(
            "a picture has at most two blocks (regions, then marks) separated by a blank line",
            file=name,
            line=number,
            column=1,
        )
    rows = blocks[0]
    size = len(rows)
    regions: list[list[str | None]] = [
        list(_cells(line, size, number, index, name))
        for index, (number, line) in enumerate(rows, start=1)
    ]
    given_stars: set[Cell] = set()
    given_blanks: set[Cell] = set()
    if len(blocks) == 2:
        if len(blocks[1]) != size:
            raise FormatError(
                f"the marks block has {len(blocks[1])} rows but the board has {size}",
                file=name,
                line=blocks[1][0][0],
                column=1,
            )
        for r, (number, line) in enumerate(blocks[1], start=1):
            for c, mark in enumerate(_cells(line, size, number, r, name), start=1):
                if mark == MARK_STAR:
                    given_stars.add((r, c))
                elif mark.lower() == MARK_BLANK:
                    given_blanks.add((r, c))
                elif mark == MARK_BLOCKED:
                    regions[r - 1][c - 1] = None
                elif mark != MARK_NONE:
                    raise FormatError(
                        f"unknown mark {mark!r} in row {r}: use * (star), x (blank), "
                        "# (blocked) or . (nothing)",
                        file=name,
                        line=number,
                        column=line.find(mark) + 1,
                    )
    count = stars if stars is not None else header_stars
    if count is None:
        raise FormatError(
            "the picture does not say how many stars: add a first line 'stars: S' "
            "or pass --stars S",
            file=name,
        )
    return Board.from_rows(
        regions, count, given_stars=given_stars, given_blanks=given_blanks, name=name
    )


def write(board: Board) -> str:
    """Write a board as a picture with a `stars:` header and, when needed, a marks block."""
    shown = region_names(board)
    width = max(len(label) for label in shown.values())
    separator = "" if width == 1 else " "
    lines = [f"stars: {board.stars}"]
    for row in board.regions:
        lines.append(
            separator.join(
                (MARK_BLOCKED if label is None else shown[label]).rjust(width) for label in row
            )
        )
    if board.blocked or board.given_stars or board.given_blanks:
        lines.append("")
        for r in range(1, board.size + 1):
            marks = []
            for c in range(1, board.size + 1):
                if (r, c) in board.given_stars:
                    marks.append(MARK_STAR)
                elif (r, c) in board.given_blanks:
                    marks.append(MARK_BLANK)
                elif board.regions[r - 1][c - 1] is None:
                    marks.append(MARK_BLOCKED)
                else:
                    marks.append(MARK_NONE)
            lines.append(separator.join(mark.rjust(width) for mark in marks))
    return "\n".join(lines) + "\n"
