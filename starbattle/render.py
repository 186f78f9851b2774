"""Text pictures of boards and solutions (Norvig-style: regions and stars side by side)."""

from __future__ import annotations

from starbattle.board import Board, Solution
from starbattle.formats.picture import picture_labels

GAP = "    "


def star_marks(ascii_only: bool) -> tuple[str, str]:
    """The (star, empty) marks to draw with."""
    return ("*", ".") if ascii_only else ("★", "·")


def render_text(board: Board, solution: Solution | None = None, *, ascii_only: bool = False) -> str:
    """The board's regions, and beside them the solution's stars when one is given."""
    shown = picture_labels(board)
    width = max(len(label) for label in shown.values())
    star, empty = star_marks(ascii_only)
    grid = solution.grid(star, empty) if solution else None
    lines = []
    for r, row in enumerate(board.regions):
        left = " ".join(("#" if label is None else shown[label]).rjust(width) for label in row)
        if grid is None:
            lines.append(left)
        else:
            right = " ".join("#" if label is None else grid[r][c] for c, label in enumerate(row))
            lines.append(left + GAP + right)
    return "\n".join(lines)
