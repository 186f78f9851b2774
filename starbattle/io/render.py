"""Text pictures of boards and solutions (Norvig-style: regions and marks side by side)."""

from __future__ import annotations

from collections.abc import Iterable

from starbattle.model.board import Board, Cell, Solution
from starbattle.model.units import region_names

GAP = "    "


def star_marks(ascii_only: bool) -> tuple[str, str]:
    """The (star, empty) marks to draw with."""
    return ("*", ".") if ascii_only else ("★", "·")


def given_mark(ascii_only: bool) -> str:
    """The mark of a star the board gives (drawn apart from the stars found)."""
    return "@" if ascii_only else "☆"


def render_marks(board: Board, marks: dict[Cell, str] | None, empty: str) -> str:
    """The board's regions, and beside them a mark for every cell (`empty` where none)."""
    shown = region_names(board)
    width = max(len(label) for label in shown.values())
    lines = []
    for r, row in enumerate(board.regions, start=1):
        left = " ".join(("#" if label is None else shown[label]).rjust(width) for label in row)
        if marks is None:
            lines.append(left)
            continue
        right = " ".join(
            "#" if label is None else marks.get((r, c), empty) for c, label in enumerate(row, 1)
        )
        lines.append(left + GAP + right)
    return "\n".join(lines)


def render_text(board: Board, solution: Solution | None = None, *, ascii_only: bool = False) -> str:
    """The board's regions, and beside them the solution's stars when one is given."""
    star, empty = star_marks(ascii_only)
    marks = None
    if solution is not None:
        marks = dict.fromkeys(solution.stars, star)
        marks |= dict.fromkeys(board.given_stars & set(solution.stars), given_mark(ascii_only))
    return render_marks(board, marks, empty)


def unit_cells(board: Board, name: str) -> list[Cell]:
    """The cells of a unit named as people read it: 'row 3', 'region B', 'the red region'."""
    worded = {f"the {word} region": label for label, word in board.words.items()}
    if name in worded:
        return board.region_cells()[worded[name]]
    kind, _, which = name.partition(" ")
    n = range(1, board.size + 1)
    if kind == "row":
        return [(int(which), c) for c in n]
    if kind == "column":
        return [(r, int(which)) for r in n]
    labels = {shown: label for label, shown in region_names(board).items()}
    return board.region_cells().get(labels.get(which, which), []) if kind == "region" else []


def render_step(
    board: Board,
    stars: Iterable[Cell],
    blanks: Iterable[Cell],
    *,
    premises: Iterable[Cell] = (),
    new_stars: Iterable[Cell] = (),
    new_blanks: Iterable[Cell] = (),
    ascii_only: bool = False,
) -> str:
    """The board beside the marks so far, a step's premise cells (?) and its conclusions."""
    star, empty = star_marks(ascii_only)
    marks = dict.fromkeys(premises, "?")
    marks |= dict.fromkeys(blanks, "x") | dict.fromkeys(stars, star)
    marks |= dict.fromkeys(board.given_stars, given_mark(ascii_only))
    marks |= dict.fromkeys(new_blanks, "X") | dict.fromkeys(new_stars, "O" if ascii_only else "◎")
    return render_marks(board, marks, empty)
