"""SVG and PNG pictures: one per solution (NAME-k.EXT with several), of the reason, of a hint."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starbattle.io.formatters.base import Formatter, shows
from starbattle.io.formatters.facts import SAID_ELSEWHERE
from starbattle.io.output import Document, Piece
from starbattle.model.board import Solution
from starbattle.model.steps import Graded, Hint
from starbattle.model.values import FixedCells, Found, Summary, Tally, Why

if TYPE_CHECKING:
    from pathlib import Path


class PictureFormatter(Formatter):
    """SVG pictures (PNG below): each a Document, to its file or to standard output."""

    name = "svg"
    silent = (SAID_ELSEWHERE - {Hint}) | {FixedCells, Graded, Tally}

    def picture_path(self, index: int) -> Path | None:
        """Where solution k's picture goes: -o FILE itself for one, else NAME-k.EXT."""
        if self.target is None:
            return None
        from pathlib import Path  # ~4 ms of a cold start: only for pictures

        path = Path(self.target)
        return path if self.models == 1 else path.with_name(f"{path.stem}-{index}{path.suffix}")

    def render(self, *args: Any, **options: Any) -> str | bytes:
        """Draw a board in this formatter's picture format."""
        from starbattle.io import pictures  # drawing only when asked for

        draw = pictures.render_svg if self.name == "svg" else pictures.render_png
        return draw(*args, **options)

    @shows(Found)
    def found(self, found: Found) -> list[Piece]:
        """The picture of a solution."""
        picture = self.render(found.solution.board, found.solution)
        return [Document(picture, self.picture_path(found.index))]

    @shows(Why)
    def why(self, why: Why) -> list[Piece]:
        """The board with the cells of the reason outlined."""
        picture = self.render(why.board, highlight=why.explanation.cells)
        return [Document(picture, self.picture_path(1), " (the cells of the reason outlined)")]

    @shows(Hint)
    def hint(self, hint: Hint) -> list[Piece]:
        """The board with the marks so far: premises hatched, conclusions in red."""
        from starbattle.io.pictures import Overlay

        board, step = hint.board, hint.step
        stars = sorted(set(hint.state.stars) | board.given_stars)
        solution = Solution.from_cells(board.size, stars, board)
        overlay = None if step is None else Overlay.of(board, hint.state, step)
        picture = self.render(board, solution, overlay=overlay)
        what = " (premises hatched, conclusions in red)"
        return [Document(picture, self.picture_path(1), what)]

    @shows(Summary)
    def summary(self, summary: Summary) -> list[Piece]:
        """The summary, unless standard output holds an SVG alone."""
        return super().summary(summary) if self.target is not None else []


class PngFormatter(PictureFormatter):
    """PNG pictures (Pillow)."""

    name = "png"
