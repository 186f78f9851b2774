"""Star Battle Notation (StarBattleLab): `AA2W...`, one puzzle per line.

Two characters of size (`55`..`99` for 5-9, `AA`..`PP` for 10-25), one digit of stars, a
flag (`W` plain; `e`: player annotations follow the walls), then the walls as a big-endian
bit string in the alphabet 0-9A-Za-z-_ (6 bits a character), left-padded with zeros. Its last
2n(n-1) bits are the n(n-1) walls right of cells, row-major (bit r(n-1)+c), then the n(n-1)
walls below cells, column-major (bit c(n-1)+r).
"""

from __future__ import annotations

import re
import warnings

from starbattle.errors import FormatError
from starbattle.io.formats.walls import regions_from_walls, wall_grids
from starbattle.model.board import Board

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
SIZES = {**{str(n) * 2: n for n in range(5, 10)}, **{chr(55 + n) * 2: n for n in range(10, 26)}}
_LINE = re.compile(r"(?P<size>[5-9A-P]{2})(?P<stars>\d)(?P<flag>[We])(?P<data>[0-9A-Za-z_-]*)\Z")


def looks_like_sbn(line: str) -> bool:
    """Whether a line looks like Star Battle Notation."""
    match = _LINE.match(line.strip())
    return match is not None and match["size"] in SIZES


def read(text: str, *, name: str | None = None, stars: int | None = None) -> Board:
    """Read one SBN line (surrounding white space allowed)."""
    line = text.strip()
    match = _LINE.match(line)
    if match is None or match["size"] not in SIZES:
        raise FormatError(
            f"not Star Battle Notation: {line[:40]!r} (expected e.g. 551W7kxqe40: size code "
            "55..99 or AA..PP, a star digit, W or e, then the walls)",
            file=name,
        )
    n = SIZES[match["size"]]
    count = 2 * n * (n - 1)
    width = -(-count // 6)
    data = match["data"]
    if len(data) < width or (match["flag"] == "W" and len(data) > width):
        raise FormatError(
            f"the walls of a {n}x{n} board take {width} characters, not {len(data)}", file=name
        )
    if match["flag"] == "e" and len(data) > width:
        warnings.warn(
            f"{name or 'SBN'}: ignored {len(data) - width} characters of player annotations",
            stacklevel=2,
        )
    value = 0
    for char in data[:width]:
        value = value * 64 + ALPHABET.index(char)
    bits = [bool(value >> (count - 1 - k) & 1) for k in range(count)]
    if value >> count:
        raise FormatError("the walls have bits set in their zero padding", file=name)
    half = n * (n - 1)
    regions = regions_from_walls(
        n, n, lambda r, c: bits[r * (n - 1) + c], lambda r, c: bits[half + c * (n - 1) + r]
    )
    return Board.from_rows(regions, stars if stars is not None else int(match["stars"]), name=name)


def write(board: Board) -> str:
    """Write a board as one SBN line."""
    n = board.size
    code = next((key for key, size in SIZES.items() if size == n), None)
    if code is None or board.stars > 9:
        raise FormatError(
            f"SBN describes boards of 5x5 to 25x25 with at most 9 stars, not "
            f"{n}x{n} with {board.stars}: write this board in another format"
        )
    right, below = wall_grids(board, "SBN")
    bits = [right[r][c] for r in range(n) for c in range(n - 1)]
    bits += [below[r][c] for c in range(n) for r in range(n - 1)]
    value = sum(bit << (len(bits) - 1 - k) for k, bit in enumerate(bits))
    width = -(-len(bits) // 6)
    chars = [ALPHABET[value >> (6 * (width - 1 - k)) & 63] for k in range(width)]
    return f"{code}{board.stars}W{''.join(chars)}\n"
