"""What a question about a puzzle found, as values: no printing, no clingo, no HTTP.

The service (`starbattle.run.service`) yields these as it finds them; a formatter
(`starbattle.io.formatters`) shows them and the record writer (`starbattle.io.records`)
turns them into DESIGN.md's JSON records. The hint engine's values are in `steps`.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import NamedTuple

from starbattle.exits import Exit, Verdict, worst
from starbattle.model.board import Board, Cell, Solution
from starbattle.model.checker import Violation
from starbattle.model.setter import RegionProblem, Suggested, Suggestion
from starbattle.model.steps import TIERS, Explained, Grade, Graded, Hint

Rule = tuple[str, tuple[object, ...]]
"""A switchable rule of the explanation program, in plain values: ("row", (3,)),
("region", ("b",)), ("notouch", ()), ("given_star", (1, 2))."""


class Found(NamedTuple):
    """One solution, the index-th shown."""

    index: int
    solution: Solution


class Difference(NamedTuple):
    """A second solution of a board that is not unique, and where it differs from the first."""

    first: Solution
    another: Solution

    @property
    def cells(self) -> list[Cell]:
        """The cells that hold a star in one solution but not in the other."""
        return sorted(set(self.first.stars) ^ set(self.another.stars))


class Explanation(NamedTuple):
    """A smallest set of rules that cannot all hold, said in words."""

    rules: tuple[Rule, ...]
    """Row, column and region quotas, the no-touch rule and givens; dropping any one of
    them leaves a board with a solution."""
    names: tuple[str, ...]
    """The rules for people: 'row 3', 'region B', 'given star (1,2)', 'no-touch rule'."""
    sentence: str
    cells: frozenset[Cell]
    """The cells of those rules, to highlight."""


class Why(NamedTuple):
    """Why a board has no solution: a smallest set of rules that cannot all hold."""

    board: Board
    explanation: Explanation


class Fixed(NamedTuple):
    """Cells decided alike by every solution."""

    size: int
    stars: frozenset[Cell]
    """Cells that hold a star in every solution."""
    blanks: frozenset[Cell]
    """Cells that are empty in every solution (blocked cells included)."""
    complete: bool = True
    """False when the time limit ran out first: `stars` and `blanks` then hold only what was
    proved (possibly nothing), and `open` also holds cells that are not decided yet."""

    @property
    def open(self) -> frozenset[Cell]:
        """Cells that some solutions fill and others leave empty (or not yet decided)."""
        every = {(r, c) for r in range(1, self.size + 1) for c in range(1, self.size + 1)}
        return frozenset(every - self.stars - self.blanks)


class FixedCells(NamedTuple):
    """The cells every solution agrees on (None: no solution)."""

    board: Board
    fixed: Fixed | None
    complete: bool
    """False when a time limit cut the search: the cells are then not final."""


class Summary(NamedTuple):
    """How a board's search ended: solutions found and shown, uniqueness, time."""

    found: int
    shown: int
    exhausted: bool
    """The whole search space was explored: `found` is every solution."""
    timed_out: bool
    seconds: float
    timeout: float | None = None
    counted: bool = False
    """From --count: every solution counted, none shown."""
    interrupted: bool = False
    """Ctrl-C stopped the search (said on stderr; JSON Lines also get the record)."""

    @property
    def unique(self) -> bool | None:
        """True/False when the search settles uniqueness, None when it stopped too early."""
        if self.found >= 2:
            return False
        if self.exhausted:
            return self.found == 1
        return None

    def exit_code(self, require_unique: bool) -> Exit:
        """FOUND (and unique when required), NONE (or not unique), TIMEOUT undecided."""
        if self.found == 0:
            return Exit.TIMEOUT if self.timed_out else Exit.NONE
        if require_unique:
            unique = self.unique
            return Exit.TIMEOUT if unique is None else Exit.FOUND if unique else Exit.NONE
        return Exit.FOUND

    @property
    def verdict(self) -> Verdict:
        """What the search settled about the puzzle."""
        if self.found == 0:
            return Verdict.NO_SOLUTION if self.exhausted else Verdict.UNDECIDED
        unique = self.unique
        if unique is None:
            return Verdict.UNDECIDED
        return Verdict.UNIQUE if unique else Verdict.NOT_UNIQUE


class Stats(NamedTuple):
    """What clingo reports about one program and its last search."""

    rules: int = 0
    atoms: int = 0
    choices: int = 0
    conflicts: int = 0
    ground_seconds: float = 0.0
    solve_seconds: float = 0.0

    def line(self) -> str:
        """The statistics as one line for stderr."""
        return (
            f"stats: {self.rules} rules, {self.atoms} atoms, {self.choices} choices, "
            f"{self.conflicts} conflicts, ground {self.ground_seconds:.3f} s, "
            f"solve {self.solve_seconds:.3f} s"
        )


class Search:
    """How the last enumeration or count ended."""

    __slots__ = ("exhausted", "found", "seconds", "timed_out")

    def __init__(
        self,
        found: int = 0,
        exhausted: bool = False,
        timed_out: bool = False,
        seconds: float = 0.0,
    ) -> None:
        self.found = found
        self.exhausted = exhausted
        """True when the whole search space was explored: `found` is then every solution."""
        self.timed_out = timed_out
        self.seconds = seconds


class Message(NamedTuple):
    """A message for people (standard error), not part of the answer."""

    text: str
    kind: str = "info"
    """'error' (this puzzle could not be solved), 'warning', 'note' (how the input was read),
    'clingo' (clingo's), 'interrupted' (how far a search got; said only of a lone puzzle)
    or 'info'."""


class Outcome(NamedTuple):
    """The end of one puzzle's run: its id, verdict and exit code."""

    identifier: str
    verdict: Verdict
    code: Exit
    tier: str | None = None
    """The puzzle's difficulty tier, when it was graded."""


class AnswerCheck(NamedTuple):
    """A complete answer checked against the rules."""

    board: Board
    stars: tuple[Cell, ...]
    violations: tuple[Violation, ...]
    grid: bool = False
    """The answer was a grid of stars and dots, its dots read as empty cells."""

    @property
    def code(self) -> Exit:
        """FOUND valid, NONE invalid."""
        return Exit.NONE if self.violations else Exit.FOUND


class PartialCheck(NamedTuple):
    """What a partial answer (stars, cells marked empty, the rest undecided) amounts to."""

    violations: tuple[Violation, ...]
    """Rules the marks already break."""
    extendable: bool | None
    """Whether some solution agrees with every mark; None when the time limit came first."""
    conflict: tuple[tuple[str, Cell], ...]
    """When not extendable: a smallest set of marks ('star' or 'blank', cell) that cannot
    all hold together; dropping any one of them leaves marks that some solution keeps.
    When the time limit cut the shrinking short: a set that cannot all hold, not smallest."""
    first_wrong: tuple[str, Cell] | None
    """With a unique solution and `against_solution`: the first mark, in reading order,
    that the solution contradicts (None also when the time limit came first)."""
    complete: bool = True
    """False when the time limit ran out before every question above was answered."""


class PartialAnswerCheck(NamedTuple):
    """Marks (stars, cells marked empty) checked: broken rules and whether they can finish."""

    board: Board
    stars: int
    blanks: int
    partial: PartialCheck

    @property
    def code(self) -> Exit:
        """FOUND: no rule broken and the marks can finish; NONE otherwise; TIMEOUT first."""
        if self.partial.violations:
            return Exit.NONE
        if self.partial.extendable is None:
            return Exit.TIMEOUT
        return Exit.FOUND if self.partial.extendable else Exit.NONE


class Tally:
    """A collection's overall summary: how many puzzles ended with each verdict, and its code."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.verdicts: Counter[Verdict] = Counter()
        self.not_unique: list[str] = []
        """Ids of the puzzles found to have two or more solutions, in input order."""
        self.tiers: Counter[str] = Counter()
        """How many graded puzzles fell in each difficulty tier."""
        self.codes: list[int] = []

    def add(self, outcome: Outcome) -> None:
        """Count one puzzle's outcome: its verdict, its tier when graded, its exit code."""
        self.verdicts[outcome.verdict] += 1
        if outcome.verdict is Verdict.NOT_UNIQUE:
            self.not_unique.append(outcome.identifier)
        if outcome.tier is not None:
            self.tiers[outcome.tier] += 1
        self.codes.append(outcome.code)

    @property
    def code(self) -> Exit:
        """The run's exit code: the worst of its puzzles' (ERROR > TIMEOUT > NONE > FOUND)."""
        return worst(self.codes)

    def tier_counts(self) -> dict[str, int]:
        """The graded puzzles per tier, easiest first (empty when none was graded)."""
        return {tier: self.tiers[tier] for tier in TIERS} if self.tiers else {}

    @property
    def puzzles(self) -> int:
        """How many puzzles were counted."""
        return sum(self.verdicts.values())

    @property
    def seconds(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.started


class BoardVerdict(NamedTuple):
    """A board being drawn, judged at once: its regions, its solutions, and what follows."""

    board: Board
    problems: tuple[RegionProblem, ...]
    """What is wrong with the regions (then nothing is solved)."""
    solutions: int | None = None
    """0, 1, or 2 for two or more; None with problems, or when the time limit came first."""
    difference: Difference | None = None
    """With two or more: the first two solutions and where they differ."""
    why: Explanation | None = None
    """With none: a smallest set of rules that cannot all hold."""
    fixed: Fixed | None = None
    """The cells every solution agrees on, when asked for."""
    grade: Grade | None = None
    """With exactly one: the grade."""
    hardest: str | None = None
    """With a grade: the hardest kind of step its trace needed (an effort of the grade)."""
    seconds: float = 0.0

    @property
    def code(self) -> Exit:
        """FOUND exactly one solution, NONE problems or not one, TIMEOUT undecided."""
        if self.problems:
            return Exit.NONE
        if self.solutions is None:
            return Exit.TIMEOUT
        return Exit.FOUND if self.solutions == 1 else Exit.NONE


class Generated(NamedTuple):
    """One generated puzzle with its solution, the seed that made it and the time taken."""

    board: Board
    solution: Solution
    seed: str
    seconds: float


class Makeable(NamedTuple):
    """A board the generator makes: size, stars, and the tiers it may be asked for."""

    size: int
    stars: int
    tiers: tuple[str, ...]


class Daily(NamedTuple):
    """The puzzle of a date and a tier (the same on every machine), with its grade."""

    day: str
    tier: str
    puzzle: Generated
    score: float


class Program(NamedTuple):
    """A program to compare: the default rules, or an encoding file, plus variants."""

    label: str
    encoding: str | None = None
    variants: tuple[str, ...] = ()


class ProgramRun:
    """How one program did on every board: seconds, search effort, and each board's count."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.seconds: list[float] = []
        self.finished = 0
        self.choices = 0
        self.conflicts = 0
        self.counts: dict[str, int | None] = {}
        """Each board's solutions found (capped as asked), None when the time limit ended it."""

    @property
    def median(self) -> float:
        """The median seconds per board."""
        ordered = sorted(self.seconds)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


class Measured(NamedTuple):
    """One program on one board: seconds, solutions found (None: unfinished), search effort."""

    seconds: float
    found: int | None
    choices: int = 0
    conflicts: int = 0


class Comparison(NamedTuple):
    """Programs compared on the same boards: each program's run, and where counts differ."""

    runs: list[ProgramRun]
    boards: int

    @property
    def disagreements(self) -> dict[str, dict[str, int]]:
        """The boards on which finished programs found different counts, with those counts."""
        found: dict[str, dict[str, int]] = {}
        for identifier in self.runs[0].counts:
            counts = {
                run.program.label: count
                for run in self.runs
                if (count := run.counts[identifier]) is not None
            }
            if len(set(counts.values())) > 1:
                found[identifier] = counts
        return found


RESULTS = (
    Found,
    Difference,
    Why,
    FixedCells,
    Summary,
    Message,
    Outcome,
    AnswerCheck,
    PartialAnswerCheck,
    Hint,
    Explained,
    Graded,
    Tally,
    Generated,
    Comparison,
    BoardVerdict,
    Suggestion,
    Suggested,
)
"""Every value a command shows: the record writer and each formatter must know them all."""
