"""Independent rule checker in pure Python (no clingo): says which rule fails where."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from starbattle.model.board import Board, Cell
from starbattle.model.units import KINDS, Unit, region_names, units_of
from starbattle.words import plural


class Violation(NamedTuple):
    """One broken rule: its kind, the cells involved and a sentence for people."""

    rule: str
    """One of: outside, blocked, touch, row, column, region, given."""
    cells: tuple[Cell, ...]
    message: str
    code: str = ""
    """The puzz.link (pzprjs) name of the failure where it has one: starAround, bkStarGt,
    bkStarLt, lnStarNe."""
    unit: Unit | None = None
    """The row, column or region a quota violation is about."""


def _quota(
    board: Board, unit: Unit, stars: set[Cell], open_: set[Cell], need: int
) -> list[Violation]:
    """A violation when a unit holds too many stars, or too few to reach `need`.

    Too few means fewer even when every undecided (`open_`) cell of the unit is a star.
    """
    cells = unit.cells(board)
    inside = sorted(cell for cell in cells if cell in stars)
    room = sum(1 for cell in cells if cell in open_)
    if len(inside) <= need <= len(inside) + room:
        return []
    too_many = len(inside) > need
    verdict = "too many stars" if too_many else "too few stars"
    code = ("bkStarGt" if too_many else "bkStarLt") if unit.kind == "region" else "lnStarNe"
    left = f" and {room} undecided cells" if room and not too_many else ""
    message = f"{verdict} in {unit.name(board)}: {plural(len(inside), 'star')}{left}, needs {need}"
    return [Violation(unit.kind, tuple(inside) or tuple(cells), message, code, unit)]


def _name_order(name: str) -> tuple[int, int | str]:
    """Region names in the order people count them: 2 before 10, then letters A, B, ... a, b."""
    return (0, int(name)) if name.isascii() and name.isdigit() else (1, name)


def check(
    board: Board, stars: Iterable[Cell], blanks: Iterable[Cell] | None = None
) -> list[Violation]:
    """Every rule the stars break on the board (an empty list means a valid solution).

    With `blanks`, the answer is partial: cells neither star nor blank are undecided, and a
    unit is short of stars only when its undecided cells cannot make up the difference.
    """
    size, need = board.size, board.stars
    placed = set(stars)
    every = {(r, c) for r in range(1, size + 1) for c in range(1, size + 1)}
    open_ = set() if blanks is None else every - placed - set(blanks) - board.blocked
    violations: list[Violation] = []
    for cell in sorted(placed):
        r, c = cell
        if not (1 <= r <= size and 1 <= c <= size):
            message = f"star at ({r},{c}) lies outside the {size}x{size} board"
            violations.append(Violation("outside", (cell,), message))
        elif board.region_of(cell) is None:
            violations.append(Violation("blocked", (cell,), f"star on blocked cell ({r},{c})"))
    for r, c in sorted(placed):
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            other = (r + dr, c + dc)
            if other in placed:
                violations.append(
                    Violation(
                        "touch",
                        ((r, c), other),
                        f"stars touch: ({r},{c}) and ({other[0]},{other[1]})",
                        "starAround",
                    )
                )
    shown = region_names(board)  # regions in the order of the names solve draws them with
    for unit in sorted(
        units_of(board),
        key=lambda u: (KINDS.index(u.kind), _name_order(shown[str(u.key)] if u.kind == "region"
                                                         else str(u.key))),
    ):  # fmt: skip
        violations += _quota(board, unit, placed, open_, need)
    for r, c in sorted(board.given_stars - placed - open_):
        violations.append(Violation("given", ((r, c),), f"given star at ({r},{c}) has no star"))
    for r, c in sorted(board.given_blanks & placed):
        violations.append(Violation("given", ((r, c),), f"given blank at ({r},{c}) holds a star"))
    return violations
