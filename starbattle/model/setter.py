"""The setter's values: a board being drawn judged at once, and region edits that fix it."""

from __future__ import annotations

from typing import NamedTuple

from starbattle.exits import Exit
from starbattle.model.board import Board, Cell
from starbattle.model.steps import Grade


class RegionProblem(NamedTuple):
    """What keeps drawn regions from making a board: one problem, its words and its cells."""

    kind: str
    """'count' (not N regions), 'split' (a region in pieces), 'small' (no room for S stars) or
    'stars' (S stars per row cannot fit the board at all)."""
    message: str
    cells: tuple[Cell, ...]
    """The cells to look at: the region to split or join, the stray pieces, the small region."""


class Move(NamedTuple):
    """One cell given from its region to a neighbouring one (regions by their labels)."""

    cell: Cell
    source: str
    target: str


class Suggestion(NamedTuple):
    """Region edits that give a board the solutions asked, proved by the solver."""

    index: int
    board: Board
    """The board as it was."""
    moves: tuple[Move, ...]
    fixed: Board
    """The board after the moves."""
    solutions: int
    """The solutions of the fixed board: 1, or 2 for two or more."""
    changed: int
    """How many cell walls the moves draw or erase (fewer: a smaller change of the picture)."""
    grade: Grade | None = None
    """The fixed board's grade, when it was asked for (and it is unique)."""


class Suggested(NamedTuple):
    """How a search for suggestions ended: the board's solutions before, what was found."""

    board: Board
    before: int | None
    """The board's solutions before any move: 0, 1, or 2 for two or more (None: undecided)."""
    found: int
    tried: int
    """Boards tried (each one proved or refuted by the solver)."""
    complete: bool
    """False when the time limit (or the number asked for) ended the search first."""
    seconds: float
    tier: str | None = None
    timeout: float | None = None

    @property
    def code(self) -> Exit:
        """FOUND a suggestion (or nothing to fix), NONE none exists, TIMEOUT none in time."""
        if self.found or (self.before == 1 and self.tier is None):
            return Exit.FOUND
        return Exit.NONE if self.complete else Exit.TIMEOUT
