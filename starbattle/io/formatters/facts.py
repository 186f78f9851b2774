"""Solutions as facts: clingo's star(R,C) atoms, or puzz.link's pzprv3 files."""

from __future__ import annotations

from starbattle.asp.facts import star_facts
from starbattle.io.formats import pzprv3
from starbattle.io.formatters.base import Formatter, Piece, shows, summary_text
from starbattle.io.formatters.text import fixed_lines, graded_line, overall_text
from starbattle.model.setter import Suggested, Suggestion
from starbattle.model.steps import Explained, Graded, Hint
from starbattle.model.values import (
    AnswerCheck,
    BoardVerdict,
    Comparison,
    Difference,
    FixedCells,
    Found,
    Generated,
    Outcome,
    PartialAnswerCheck,
    Summary,
    Tally,
    Why,
)

SAID_ELSEWHERE = frozenset(
    {
        Difference,
        Outcome,
        AnswerCheck,
        PartialAnswerCheck,
        Hint,
        Explained,
        Generated,
        Comparison,
        BoardVerdict,
        Suggestion,
        Suggested,
    }
)
"""What these formats leave to text and JSON (solve -f lp|pzprv3 shows solutions)."""


class FactsFormatter(Formatter, partial=True):
    """What the facts formats share: the reason and fixed cells as comments, the overall."""

    comment = "% "
    silent = SAID_ELSEWHERE

    @shows(Why)
    def why(self, why: Why) -> list[Piece]:
        """Why there is no solution, as a comment."""
        return [f"{self.comment}why: {why.explanation.sentence}"]

    @shows(FixedCells)
    def fixed(self, fixed: FixedCells) -> list[Piece]:
        """Fixed cells, as the text format says them."""
        return fixed_lines(fixed, self.ascii_only)

    @shows(Graded)
    def graded(self, graded: Graded) -> list[Piece]:
        """The grade, as a comment."""
        return [f"{self.comment}{graded_line(graded)}"]

    @shows(Tally)
    def overall(self, tally: Tally) -> list[Piece]:
        """A collection's overall summary, as a comment after a blank line."""
        return ["", overall_text(tally, self.comment)]


class LpFormatter(FactsFormatter):
    """Solutions as star(R,C). facts; the rest as % comments."""

    name = "lp"

    @shows(Found)
    def found(self, found: Found) -> list[Piece]:
        """A solution's stars as facts on one line."""
        return [star_facts(found.solution.stars)]

    @shows(Summary)
    def summary(self, summary: Summary) -> list[Piece]:
        """The summary as a comment (a count as a bare line, as it always was)."""
        if summary.interrupted:
            return []
        return [("" if summary.counted else "% ") + summary_text(summary)]


class Pzprv3Formatter(FactsFormatter):
    """Each solution as a puzz.link pzprv3 file with the solution as its marks."""

    name = "pzprv3"
    comment = "# "

    @shows(Found)
    def found(self, found: Found) -> list[Piece]:
        """A pzprv3 file of the solved board."""
        text = pzprv3.write(found.solution.board, found.solution).rstrip("\n")
        return [("\n" if found.index > 1 else "") + text]

    @shows(Summary)
    def summary(self, summary: Summary) -> list[Piece]:
        """The summary after a blank line, as a comment."""
        if summary.interrupted:
            return []
        return [("" if summary.counted else "\n# ") + summary_text(summary)]
