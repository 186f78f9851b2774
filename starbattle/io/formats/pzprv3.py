"""pzprv3 files saved by the puzz.link player: rooms, then an answer block.

Lines: `pzprv3` (or `pzprv3.1`), `starbattle`, rows, cols, stars, the number of rooms, then
`rows` lines of room ids separated by spaces, then `rows` lines of answer marks (`#` star,
`+` marked empty, `.` unknown); later lines (history) are ignored. `/` may stand for the line
break, as in URLs of the form `?pzprv3/starbattle/...`. The answer block is read as an answer
(`read_answer`) or, on request, as givens (`#` a given star, `+` a given blank).
"""

from __future__ import annotations

from starbattle.errors import FormatError
from starbattle.io.formats.walls import wall_grids
from starbattle.limits import MAX_SIZE, whole_number
from starbattle.model.board import Board, Cell, Solution

MARK_STAR, MARK_BLANK, MARK_UNKNOWN = "#", "+", "."


def looks_like_pzprv3(text: str) -> bool:
    """Whether text is a pzprv3 file (or a URL that embeds one)."""
    return text.lstrip().startswith("pzprv3") or "?pzprv3/" in text


def _lines(text: str) -> list[str]:
    """The file's lines, from the `pzprv3` line on, with `/` as a line break when inline.

    Trailing lines that are blank or only `/` are dropped: a file without answers may end so.
    """
    text = text[text.index("pzprv3") :] if "?pzprv3/" in text else text.lstrip()
    lines = text.splitlines()
    if len(lines) == 1:
        lines = text.strip().split("/")
    lines = [line.strip() for line in lines]
    while lines and not lines[-1].strip("/ \t"):
        lines.pop()
    return lines


def _parse(text: str, name: str | None) -> tuple[list[list[str]], int, list[list[str]]]:
    """Room ids, the star count and the answer marks of a pzprv3 text."""
    lines = _lines(text)

    def fail(message: str, line: int) -> FormatError:
        return FormatError(message, file=name, line=line, column=1)

    if not lines or not lines[0].startswith("pzprv3"):
        raise fail("a pzprv3 file starts with the line 'pzprv3'", 1)
    if len(lines) < 6 or lines[1] != "starbattle":
        found = lines[1] if len(lines) > 1 else "nothing"
        raise fail(f"this pzprv3 file is for {found!r}, not 'starbattle'", 2)
    header = [whole_number(value) for value in lines[2:6]]
    for offset, value in enumerate(header):
        if value is None:
            raise fail(
                "expected a whole number (rows, cols, stars, rooms), not "
                f"{lines[2 + offset][:20]!r}",
                3 + offset,
            )
    rows, cols, stars, _rooms = (value or 0 for value in header)
    if rows != cols:
        raise fail(f"the file describes a {rows}x{cols} board; a Star Battle board is square", 3)
    if not 1 <= rows <= MAX_SIZE:
        raise fail(f"the board size {rows} is not from 1 to {MAX_SIZE}", 3)
    blocks: list[list[list[str]]] = []
    for block in range(2):
        grid = []
        for row in range(rows):
            number = 7 + block * rows + row
            cells = lines[number - 1].split() if number <= len(lines) else []
            if len(cells) != cols:
                what = "room ids" if block == 0 else "answer marks"
                if block == 1 and not cells and number > len(lines):
                    grid = [[MARK_UNKNOWN] * cols for _ in range(rows)]  # no answer block
                    break
                raise fail(
                    f"row {row + 1} of the {what} has {len(cells)} entries, expected {cols}", number
                )
            grid.append(cells)
        blocks.append(grid)
    for r, marks in enumerate(blocks[1], start=1):
        for mark in marks:
            if mark not in (MARK_STAR, MARK_BLANK, MARK_UNKNOWN):
                raise fail(
                    f"unknown answer mark {mark!r} in row {r}: use # (star), "
                    "+ (empty) or . (unknown)",
                    6 + rows + r,
                )
    return blocks[0], stars, blocks[1]


def _marked(marks: list[list[str]], mark: str) -> set[Cell]:
    """The 1-based cells that carry a mark."""
    return {
        (r, c)
        for r, row in enumerate(marks, start=1)
        for c, value in enumerate(row, start=1)
        if value == mark
    }


def read(
    text: str, *, name: str | None = None, stars: int | None = None, givens: bool = False
) -> Board:
    """Read the board of a pzprv3 file; with `givens`, its answer marks become givens."""
    rooms, count, marks = _parse(text, name)
    return Board.from_rows(
        rooms,
        stars if stars is not None else count,
        given_stars=_marked(marks, MARK_STAR) if givens else (),
        given_blanks=_marked(marks, MARK_BLANK) if givens else (),
        name=name,
    )


def read_answer_stars(text: str, name: str | None = None) -> list[Cell]:
    """The stars (`#`) of a pzprv3 file's answer block."""
    return sorted(read_marks(text, name)[MARK_STAR])


def read_marks(text: str, name: str | None = None) -> dict[str, set[Cell]]:
    """The cells of a pzprv3 file's answer block by mark: star, blank and unknown."""
    marks = _parse(text, name)[2]
    return {mark: _marked(marks, mark) for mark in (MARK_STAR, MARK_BLANK, MARK_UNKNOWN)}


def write(board: Board, solution: Solution | None = None) -> str:
    """Write a board as a pzprv3 file; the answer block holds the solution, else the givens."""
    if board.blocked:
        raise FormatError(
            "the pzprv3 format has no place for blocked cells: write this board as lp, txt or json"
        )
    wall_grids(Board(board.regions, board.stars), "pzprv3")  # refuses disconnected regions
    rooms = {label: index for index, label in enumerate(board.region_labels)}
    n = board.size
    lines = ["pzprv3", "starbattle", str(n), str(n), str(board.stars), str(len(rooms))]
    lines += ["".join(f"{rooms[label]} " for label in row) for row in board.regions]
    if solution is not None:  # a solved board: every cell decided
        stars, blanks = set(solution.stars), None
    else:
        stars, blanks = set(board.given_stars), set(board.given_blanks)

    def mark(cell: Cell) -> str:
        if cell in stars:
            return MARK_STAR
        return MARK_BLANK if blanks is None or cell in blanks else MARK_UNKNOWN

    lines += ["".join(f"{mark((r, c))} " for c in range(1, n + 1)) for r in range(1, n + 1)]
    return "\n".join(lines) + "\n"
