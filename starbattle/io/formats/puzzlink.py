"""puzz.link / pzprjs URLs: `https://puzz.link/p?starbattle/<cols>/<rows>/<S>/<walls>`.

The walls are base-32 digits (0-9a-v), 5 bits each, most significant first: the
(cols-1)*rows walls right of cells, bit r*(cols-1)+c, padded to whole digits; then the
cols*(rows-1) walls below cells, bit r*cols+c, likewise. Missing trailing digits mean no wall.
Also read: hosts pzv.jp/p.html? and pzprxs.vercel.app/p?, `starbattle_edit` or
`starbattle_play`, a `type=player&` or `type=editor&` prefix, a trailing slash, or the bare
`starbattle/...` part.
"""

from __future__ import annotations

import re

from starbattle.errors import FormatError
from starbattle.io.formats.walls import regions_from_walls, wall_grids
from starbattle.limits import MAX_SIZE, whole_number
from starbattle.model.board import Board

DIGITS = "0123456789abcdefghijklmnopqrstuv"
HOST = "https://puzz.link/p?"
_URL = re.compile(
    r"""\s*(?:(?:https?://)?(?:puzz\.link/p|pzv\.jp/p\.html|pzprxs\.vercel\.app/p)\?)?
    (?:type=(?:player|editor)&)?
    starbattle(?:_edit|_play)?/(?P<rest>[^\s]*?)/?\s*\Z""",
    re.VERBOSE,
)


def looks_like_url(text: str) -> bool:
    """Whether text is a puzz.link-style Star Battle URL (or its bare `starbattle/...` part)."""
    return _URL.match(text) is not None


def _bits(digits: str, count: int, offset: int, name: str | None) -> list[bool]:
    """`count` wall bits from base-32 digits (missing digits are zeros)."""
    bits: list[bool] = []
    for position, digit in enumerate(digits):
        value = DIGITS.find(digit)
        if value < 0:
            raise FormatError(
                f"{digit!r} at position {offset + position + 1} of the walls is not a "
                "base-32 digit (0-9, a-v)",
                file=name,
            )
        bits += [bool(value >> shift & 1) for shift in (4, 3, 2, 1, 0)]
    return (bits + [False] * count)[:count]


def read(text: str, *, name: str | None = None, stars: int | None = None) -> Board:
    """Read a Star Battle board from a puzz.link URL."""
    match = _URL.match(text)
    if match is None:
        raise FormatError(
            "not a puzz.link Star Battle URL (expected "
            "https://puzz.link/p?starbattle/COLS/ROWS/STARS/WALLS)",
            file=name,
        )
    parts = match["rest"].split("/")
    if len(parts) == 3:  # no walls at all
        parts.append("")
    numbers = [whole_number(part) for part in parts[:3]]
    if len(parts) != 4 or None in numbers:
        raise FormatError(
            f"a puzz.link Star Battle URL ends in COLS/ROWS/STARS/WALLS, not {match['rest']!r}",
            file=name,
        )
    cols, rows, given = (number or 0 for number in numbers)
    if cols != rows:
        raise FormatError(
            f"the URL describes a {cols}x{rows} board (columns first); "
            "a Star Battle board is square",
            file=name,
        )
    if not 1 <= rows <= MAX_SIZE:
        raise FormatError(f"the URL's board size {rows} is not from 1 to {MAX_SIZE}", file=name)
    right_count, below_count = (cols - 1) * rows, cols * (rows - 1)
    right_digits = -(-right_count // 5)
    walls = parts[3]
    if len(walls) > right_digits + -(-below_count // 5):
        raise FormatError(
            f"the walls part has {len(walls)} digits; a {cols}x{rows} board "
            f"needs at most {right_digits + -(-below_count // 5)}",
            file=name,
        )
    right = _bits(walls[:right_digits], right_count, 0, name)
    below = _bits(walls[right_digits:], below_count, right_digits, name)
    regions = regions_from_walls(
        rows, cols, lambda r, c: right[r * (cols - 1) + c], lambda r, c: below[r * cols + c]
    )
    return Board.from_rows(regions, stars if stars is not None else given, name=name)


def _digits(bits: list[bool]) -> str:
    """Bits as base-32 digits, zero-padded at the end to whole digits."""
    bits = bits + [False] * (-len(bits) % 5)
    return "".join(
        DIGITS[sum(bit << (4 - k) for k, bit in enumerate(bits[i : i + 5]))]
        for i in range(0, len(bits), 5)
    )


def write(board: Board) -> str:
    """Write a board as a canonical puzz.link URL."""
    right, below = wall_grids(board, "puzz.link URL")
    n = board.size
    right_bits = [right[r][c] for r in range(n) for c in range(n - 1)]
    below_bits = [below[r][c] for r in range(n - 1) for c in range(n)]
    return f"{HOST}starbattle/{n}/{n}/{board.stars}/{_digits(right_bits)}{_digits(below_bits)}\n"
