"""Text pictures of boards and solutions (Norvig-style: regions and marks side by side)."""

from __future__ import annotations

from starbattle.board import Board, Cell, Solution
from starbattle.formats.picture import picture_labels

GAP = "    "


def star_marks(ascii_only: bool) -> tuple[str, str]:
    """The (star, empty) marks to draw with."""
    return ("*", ".") if ascii_only else ("★", "·")


def render_marks(board: Board, marks: dict[Cell, str] | None, empty: str) -> str:
    """The board's regions, and beside them a mark for every cell (`empty` where none)."""
    shown = picture_labels(board)
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
    marks = None if solution is None else dict.fromkeys(solution.stars, star)
    return render_marks(board, marks, empty)
