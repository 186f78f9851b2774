"""The hint engine's values: marks, steps, traces, hints and grades (no presentation)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from starbattle.exits import Exit
from starbattle.model.board import Board, Cell
from starbattle.model.units import Unit

DISCLOSURES = ("technique", "where", "full")
"""How much a hint says: the technique, where to look too, or the whole step."""
TIERS = ("easy", "medium", "hard", "expert", "extreme")
"""The named difficulty tiers, easiest first."""


class Step(NamedTuple):
    """One deduction: a technique at a level, what it rests on, what it concludes, in words."""

    technique: str
    level: int
    units: tuple[Unit, ...]
    """Premise units: rows, columns and regions."""
    cells: tuple[Cell, ...]
    """Premise cells: the marks it rests on (and an assumed cell, at levels 4 and 6)."""
    stars: tuple[Cell, ...]
    """Cells concluded to hold a star."""
    blanks: tuple[Cell, ...]
    """Cells concluded to be empty."""
    sentence: str
    available: int = 1
    """How many deductions this level offered at that point (1: a bottleneck)."""
    assumes: str | None = None
    """What the step takes for granted beyond the rules: 'unique' (the puzzle has one
    solution), or None."""
    chain: tuple[Step, ...] = ()
    """A trial's chain (levels 6): the assumed mark, each step that follows from it, and
    the rule they break, each a step from the marks before it and the chain's steps so far."""

    @property
    def chain_length(self) -> int:
        """The steps of a trial's chain between the assumed mark and the broken rule."""
        return max(len(self.chain) - 2, 0)

    def premise_cells(self, board: Board) -> frozenset[Cell]:
        """The cells it rests on: every cell of its premise units, and its premise cells."""
        return frozenset(self.cells) | {cell for unit in self.units for cell in unit.cells(board)}


class State(NamedTuple):
    """The marks so far: cells holding a star and cells marked empty."""

    stars: frozenset[Cell] = frozenset()
    blanks: frozenset[Cell] = frozenset()

    @classmethod
    def of(cls, stars: Iterable[Cell] = (), blanks: Iterable[Cell] = ()) -> State:
        """A state from any iterables of cells."""
        return cls(frozenset(stars), frozenset(blanks))

    def after(self, step: Step) -> State:
        """The state with a step's conclusions marked (a corrected mistake replaces its mark)."""
        stars, blanks = set(step.stars), set(step.blanks)
        return State((self.stars - blanks) | stars, (self.blanks - stars) | blanks)


class Trace(NamedTuple):
    """Steps from a state until the board is solved or no level applies."""

    steps: tuple[Step, ...]
    solved: bool
    state: State
    """Where the trace ended (the solution when solved)."""
    complete: bool = True
    """False when a time limit stopped the trace before it was solved or stuck."""

    @property
    def levels(self) -> dict[int, int]:
        """How many steps each level made, by level."""
        counts: dict[int, int] = {}
        for step in self.steps:
            counts[step.level] = counts.get(step.level, 0) + 1
        return dict(sorted(counts.items()))

    @property
    def hardest(self) -> int | None:
        """The highest level used (None without steps)."""
        return max((step.level for step in self.steps), default=None)


class Hint(NamedTuple):
    """The next logical step from a state of marks (None: no technique applies)."""

    board: Board
    state: State
    step: Step | None
    index: int = 1
    disclose: str = "full"
    """How much to say: 'technique', 'where' (its premises too) or 'full' (and conclusions)."""
    in_trace: bool = False
    """One step of a whole explanation (said in one line)."""
    complete: bool = True
    """False when the time limit came before a step was found."""

    @property
    def solved(self) -> bool:
        """No step is left because the marks already hold every star (and no mistake)."""
        stars = self.state.stars | self.board.given_stars
        full = len(stars) == self.board.size * self.board.stars
        return self.complete and self.step is None and full

    @property
    def code(self) -> Exit:
        """FOUND a step (or the marks are solved), NONE no step applies, TIMEOUT first."""
        if not self.complete:
            return Exit.TIMEOUT
        return Exit.FOUND if self.step is not None or self.solved else Exit.NONE


class Explained(NamedTuple):
    """A whole trace's end: solved by logic or stuck, steps per level, the hardest level."""

    board: Board
    trace: Trace

    @property
    def code(self) -> Exit:
        """FOUND solved by logic, NONE stuck, TIMEOUT stopped by the time limit."""
        if not self.trace.complete:
            return Exit.TIMEOUT
        return Exit.FOUND if self.trace.solved else Exit.NONE


class Grade(NamedTuple):
    """A board's difficulty: tier and score with their features, or why it has none."""

    tier: str | None
    score: float | None
    features: dict[str, int]
    reason: str | None = None
    """Why the board has no grade (no solution, more than one, a time limit), else None."""
    kind: str | None = None
    """The hardest kind of step a person needs (an effort class of the technique registry)."""


class Graded(NamedTuple):
    """A puzzle's difficulty: tier, score and features, or why it has none."""

    board: Board
    grade: Grade
    in_summary: bool = False
    """Asked of another command (--grade): said after that command's summary."""
