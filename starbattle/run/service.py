"""What a question about one puzzle found, as values: no printing, no click, no HTTP.

`solve_puzzle` reads one record and yields what it finds as it finds it (solutions stream):
`Found`, `Difference`, `Why`, `FixedCells`, `Summary` and `Message` items, and last an
`Outcome` with the verdict and exit code. The command line hands the items to a formatter;
a worker process or the web page collects them (`solve_all`).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from starbattle.errors import BoardError, FormatError
from starbattle.model.board import Board, Cell, Solution

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator

    from starbattle.asp.solver import Search, Solver
    from starbattle.io.inputs import Record
    from starbattle.logic.grade import Grade
    from starbattle.logic.insight import Explanation, Fixed, PartialCheck
    from starbattle.logic.ladder import Logic, State, Step, Trace

EXIT_FOUND = 0
EXIT_NONE = 1
"""No solution; with --unique: not exactly one; check: the answer is wrong."""
EXIT_ERROR = 2
"""Unreadable input, a board that cannot be solved as given, or bad usage."""
EXIT_TIMEOUT = 3
EXIT_INTERNAL = 70
SEVERITY = (EXIT_FOUND, EXIT_NONE, EXIT_TIMEOUT, EXIT_ERROR)
"""Exit codes from best to worst, for a collection's overall code."""

VERDICTS = ("unique", "not unique", "solved", "no solution", "undecided", "error")
"""What one puzzle's run settled: 'solved' when a solution was found and uniqueness was not
asked (--fixed), 'undecided' when a time limit (or -n) stopped the search before it could
tell."""


class SolveRequest(NamedTuple):
    """What `solve` asks of every puzzle of a run (sent to worker processes as it is)."""

    stars: int | None = None
    input_format: str | None = None
    givens: bool = False
    encoding: str | None = None
    variants: tuple[str, ...] = ()
    constants: tuple[str, ...] = ()
    threads: int | None = None
    """Solver threads; None: `solver.auto_threads` of each board."""
    timeout: float | None = None
    stats: bool = False
    size: int | None = None
    """An image's board size, when it should not be read from the image."""
    debug_image: str | None = None
    """Write what was read from an image to this PNG."""
    models: int = 1
    count_only: bool = False
    require_unique: bool = False
    fixed_only: bool = False
    second: bool = True
    """Look for a second solution and show how it differs, when the board is not unique."""
    search_timeout: float | None = None
    """What the time limit leaves for searching once the board is grounded (set per board)."""
    with_grade: bool = False
    """Grade the puzzle after its summary (--grade)."""

    @property
    def default_rules(self) -> bool:
        """Whether the shipped rules are used (explanations need them)."""
        return self.encoding is None and not self.variants


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


class Why(NamedTuple):
    """Why a board has no solution: a smallest set of rules that cannot all hold."""

    board: Board
    explanation: Explanation


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

    @classmethod
    def of(cls, search: Search, shown: int, timeout: float | None, counted: bool) -> Summary:
        """The summary of a finished search."""
        return cls(
            search.found,
            shown,
            search.exhausted,
            search.timed_out,
            search.seconds,
            timeout,
            counted,
        )

    @property
    def unique(self) -> bool | None:
        """True/False when the search settles uniqueness, None when it stopped too early."""
        if self.found >= 2:
            return False
        if self.exhausted:
            return self.found == 1
        return None

    def record(self) -> dict[str, Any]:
        """The closing JSON Lines record."""
        record = {
            "type": "summary",
            "solutions": self.found,
            "complete": self.exhausted,
            "unique": self.unique,
            "seconds": round(self.seconds, 6),
        }
        return record | {"interrupted": True} if self.interrupted else record

    def exit_code(self, require_unique: bool) -> int:
        """0 found (and unique when required), 1 none (or not unique), 3 timed out undecided."""
        if self.found == 0:
            return EXIT_TIMEOUT if self.timed_out else EXIT_NONE
        if require_unique:
            unique = self.unique
            return EXIT_TIMEOUT if unique is None else EXIT_FOUND if unique else EXIT_NONE
        return EXIT_FOUND

    @property
    def verdict(self) -> str:
        """What the search settled about the puzzle (one of VERDICTS)."""
        if self.found == 0:
            return "no solution" if self.exhausted else "undecided"
        unique = self.unique
        return "undecided" if unique is None else "unique" if unique else "not unique"


class Message(NamedTuple):
    """A message for people (standard error), not part of the answer."""

    text: str
    kind: str = "info"
    """'error' (this puzzle could not be solved), 'warning', 'note' (how the input was read),
    'clingo' (clingo's) or 'info'."""


class Outcome(NamedTuple):
    """The end of one puzzle's run: its id, verdict and exit code."""

    identifier: str
    verdict: str
    code: int
    tier: str | None = None
    """The puzzle's difficulty tier, when it was graded."""


class AnswerCheck(NamedTuple):
    """A complete answer checked against the rules."""

    board: Board
    stars: tuple[Cell, ...]
    violations: tuple[Any, ...]
    grid: bool = False
    """The answer was a grid of stars and dots, its dots read as empty cells."""

    @property
    def code(self) -> int:
        """0 valid, 1 invalid."""
        return EXIT_NONE if self.violations else EXIT_FOUND


class PartialAnswerCheck(NamedTuple):
    """Marks (stars, cells marked empty) checked: broken rules and whether they can finish."""

    board: Board
    stars: int
    blanks: int
    partial: PartialCheck

    @property
    def code(self) -> int:
        """0 marks that break no rule and can still finish, 1 otherwise, 3 time limit first."""
        if self.partial.violations:
            return EXIT_NONE
        if self.partial.extendable is None:
            return EXIT_TIMEOUT
        return EXIT_FOUND if self.partial.extendable else EXIT_NONE


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
    def code(self) -> int:
        """0 a step (or the marks are solved), 1 no step applies, 3 the time limit came first."""
        if not self.complete:
            return EXIT_TIMEOUT
        return EXIT_FOUND if self.step is not None or self.solved else EXIT_NONE


class Explained(NamedTuple):
    """A whole trace's end: solved by logic or stuck, steps per level, the hardest level."""

    board: Board
    trace: Trace

    @property
    def code(self) -> int:
        """0 solved by logic, 1 stuck, 3 stopped by the time limit."""
        if not self.trace.complete:
            return EXIT_TIMEOUT
        return EXIT_FOUND if self.trace.solved else EXIT_NONE


class Graded(NamedTuple):
    """A puzzle's difficulty: tier, score and features, or why it has none."""

    board: Board
    grade: Grade
    in_summary: bool = False
    """Asked of another command (--grade): said after that command's summary."""


class Tally:
    """The overall summary of a collection: how many puzzles ended with each verdict."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.verdicts: Counter[str] = Counter()
        self.not_unique: list[str] = []
        """Ids of the puzzles found to have two or more solutions, in input order."""
        self.tiers: Counter[str] = Counter()
        """How many graded puzzles fell in each difficulty tier."""

    def add(self, identifier: str, verdict_: str, tier: str | None = None) -> None:
        """Count one puzzle's verdict (and its tier, when graded)."""
        self.verdicts[verdict_] += 1
        if verdict_ == "not unique":
            self.not_unique.append(identifier)
        if tier is not None:
            self.tiers[tier] += 1

    def tier_counts(self) -> dict[str, int]:
        """The graded puzzles per tier, easiest first (empty when none was graded)."""
        if not self.tiers:
            return {}
        from starbattle.logic.grade import TIERS

        return {tier: self.tiers[tier] for tier in TIERS}

    @property
    def puzzles(self) -> int:
        """How many puzzles were counted."""
        return sum(self.verdicts.values())

    def record(self) -> dict[str, Any]:
        """The overall summary as a JSON Lines record."""
        return {
            "type": "overall",
            "puzzles": self.puzzles,
            **{name.replace(" ", "_"): self.verdicts[name] for name in VERDICTS},
            **({"tiers": self.tier_counts()} if self.tiers else {}),
            "seconds": round(time.perf_counter() - self.started, 3),
        }

    def text(self) -> str:
        """The overall summary as one line."""
        parts = [f"{self.verdicts[name]} {name}" for name in VERDICTS if self.verdicts[name]]
        tiers = ", ".join(f"{n} {tier}" for tier, n in self.tier_counts().items() if n)
        seconds = time.perf_counter() - self.started
        graded = f"; tiers: {tiers}" if tiers else ""
        return f"{self.puzzles} puzzles: {', '.join(parts) or 'none'}{graded} ({seconds:.1f} s)"


DISCLOSURES = ("technique", "where", "full")


def read_state(board: Board, text: str | None, name: str | None) -> State:
    """The marks of a partial answer (what `check` reads) as a hint engine state."""
    from starbattle.io.formats.answer import read_marks
    from starbattle.logic.ladder import State

    if text is None:
        return State()
    stars, blanks = read_marks(text, board.size, name=name, partial=True)
    check_against_givens(board, stars, blanks or (), name)
    return State.of(stars, blanks or ())


def check_against_givens(
    board: Board, stars: Iterable[Cell], blanks: Iterable[Cell], name: str | None
) -> None:
    """Refuse marks that contradict the board's given stars and blanks (a BoardError)."""
    for (r, c), mark, given in sorted(
        [
            *((cell, "a star", "empty") for cell in set(stars) & board.given_blanks),
            *((cell, "empty", "a star") for cell in set(blanks) & board.given_stars),
        ]
    ):
        raise BoardError(
            f"({r},{c}) is marked {mark} but the board gives it as {given}: remove that mark",
            file=name,
        )


def hint(
    board: Board,
    state: State,
    disclose: str = "full",
    techniques: tuple[str, ...] = (),
    timeout: float | None = None,
) -> Hint:
    """The next logical step on a board from a state of marks.

    `techniques`: files of hint programs to add to the ladder (encodings/hints/ shows how).
    Raises TimeLimitReached when `timeout` seconds pass first.
    """
    return next(item for item in hint_items(board, state, disclose, techniques, timeout)
                if isinstance(item, Hint))  # fmt: skip


def hint_items(
    board: Board,
    state: State,
    disclose: str = "full",
    techniques: tuple[str, ...] = (),
    timeout: float | None = None,
) -> Iterator[Message | Hint]:
    """A warning when the board has several solutions, then the next step (`hint`)."""
    from starbattle.limits import TimeLimitReached, deadline_after
    from starbattle.logic.ladder import Logic
    from starbattle.logic.programs import hint_programs

    logic = Logic(board, hint_programs(techniques), deadline=deadline_after(timeout))
    try:
        yield from _several(logic)
        done = logic.solved(state, stars_only=True)
        yield Hint(board, state, None if done else logic.next_step(state), disclose=disclose)
    except TimeLimitReached:
        yield Message("the time limit was reached before a step was found", "warning")
        yield Hint(board, state, None, disclose=disclose, complete=False)


def _several(logic: Logic) -> Iterator[Message]:
    """A warning that the board has more than one solution (none is a BoardError later)."""
    if len(logic.solutions) > 1:
        yield Message(
            "the board has more than one solution: steps decide only what every solution "
            "shares, so logic alone cannot finish it",
            "warning",
        )


def explain_items(
    board: Board,
    state: State,
    with_grade: bool = False,
    techniques: tuple[str, ...] = (),
    timeout: float | None = None,
) -> Iterator[Hint | Explained | Graded | Message]:
    """Every step from a state to the end of the trace as found, its summary, the grade.

    `techniques`: files of hint programs to add to the ladder (not to the grade's). When
    `timeout` seconds pass first, a message says so and the summary is marked incomplete
    (the grade is then not asked).
    """
    from starbattle.limits import TimeLimitReached, deadline_after
    from starbattle.logic.ladder import Logic, Trace
    from starbattle.logic.programs import hint_programs

    deadline = deadline_after(timeout)
    logic = Logic(board, hint_programs(techniques), deadline=deadline)
    steps: list[Step] = []
    marks = state
    try:
        yield from _several(logic)
        for step in logic.steps(state):
            steps.append(step)
            yield Hint(board, marks, step, len(steps), in_trace=True)
            marks = marks.after(step)
    except TimeLimitReached:
        yield Message(f"the time limit was reached after {len(steps)} steps", "warning")
        yield Explained(board, Trace(tuple(steps), False, marks, complete=False))
        return
    yield Explained(board, Trace(tuple(steps), logic.solved(marks), marks))
    if with_grade:
        yield summary_grade(board, None if deadline is None else deadline - time.perf_counter())


def summary_grade(board: Board, timeout: float | None = None) -> Graded:
    """The board's grade, to be said after another command's summary (--grade).

    Raises TimeLimitReached when `timeout` seconds pass first.
    """
    from starbattle.logic.grade import grade

    return Graded(board, grade(board, timeout), in_summary=True)


Item = Found | Difference | Why | FixedCells | Summary | Message | Outcome | Graded


def solve_puzzle(request: SolveRequest, record: Record) -> Iterator[Item]:
    """Read one record and answer the request, yielding items as found; an Outcome ends them.

    A board that cannot be read or solved as given is reported (a Message and an 'error'
    Outcome) and the caller goes on; a program error (the same for every board) is raised.
    On Ctrl-C a Message says how far the search got, then KeyboardInterrupt is raised.
    """
    from starbattle.asp.solver import Solver, auto_threads  # imports clingo: only when solving
    from starbattle.io.inputs import ImageOptions
    from starbattle.model.units import region_names

    try:
        several = request.models != 1 or request.count_only or request.fixed_only
        seen = ImageOptions(request.size, False, request.debug_image, unique=not several)
        board = record.board(
            stars=request.stars, fmt=request.input_format, givens=request.givens, seen=seen
        )
        started = time.perf_counter()
        solver = Solver(
            board,
            encoding=request.encoding,
            variants=request.variants,
            constants=request.constants,
            threads=request.threads or auto_threads(board),
            ground_timeout=request.timeout,  # the time limit covers grounding too
        )
        if request.timeout is not None:  # what grounding left of it is the search's
            left = max(0.001, request.timeout - (time.perf_counter() - started))
            request = request._replace(search_timeout=left)
    except (FormatError, BoardError) as error:  # this record's problem: report it, go on
        yield Message(str(error), "error")
        yield Outcome(record.identifier, "error", EXIT_ERROR)
        return
    if record.image is not None:
        for note in record.reading(request.stars, seen).notes:
            yield Message(note, "note")
    for label, count in board.split_regions().items():
        yield Message(
            f"{record.identifier}: region {region_names(board)[label]} is in {count} separate "
            "pieces; it is solved as one region (is a label used twice by mistake?)",
            "warning",
        )
    for message in solver.messages:
        yield Message(message, "clingo")
    if request.count_only:
        verdict, code = yield from _count(solver, request)
    elif request.fixed_only:
        verdict, code = yield from _fixed(solver, request)
    else:
        verdict, code = yield from _solutions(solver, board, request)
    if request.stats:
        yield Message(solver.stats.line())
    tier = None
    if request.with_grade:
        graded = summary_grade(board, request.timeout)
        tier = graded.grade.tier
        yield graded
    yield Outcome(record.identifier, verdict, code, tier)


def _count(solver: Solver, request: SolveRequest) -> Generator[Item, None, tuple[str, int]]:
    """--count: every solution counted inside clasp."""
    try:
        search = solver.count(request.search_timeout)
    except KeyboardInterrupt:
        yield Message(f"interrupted after counting {solver.last.found} solution(s)")
        raise
    summary = Summary.of(search, search.found, request.timeout, counted=True)
    yield summary
    return summary.verdict, summary.exit_code(request.require_unique)


def _fixed(solver: Solver, request: SolveRequest) -> Generator[Item, None, tuple[str, int]]:
    """--fixed: the cells every solution agrees on."""
    from starbattle.logic.insight import fixed_by

    fixed = fixed_by(solver, request.search_timeout)
    complete = fixed is None or fixed.complete
    yield FixedCells(solver.board, fixed, complete)
    if fixed is None:
        return "no solution", EXIT_NONE
    return ("solved", EXIT_FOUND) if complete else ("undecided", EXIT_TIMEOUT)


def _solutions(
    solver: Solver, board: Board, request: SolveRequest
) -> Generator[Item, None, tuple[str, int]]:
    """Up to `models` solutions as they are found, a second one, why none, then the summary."""
    models = request.models
    shown, first, another = 0, None, None
    try:
        limit = 0 if models == 0 else models + 1
        for solution in solver.solutions(limit, request.search_timeout):
            if models and shown == models:
                another = solution
                continue
            shown += 1
            first = first or solution
            yield Found(shown, solution)
    except KeyboardInterrupt:
        yield Message(f"interrupted after {shown} solution(s)")
        yield Summary(shown, shown, False, False, solver.last.seconds, request.timeout, False, True)
        raise
    search = solver.last
    if first is not None and another is not None and request.second:
        yield Difference(first, another)
    if shown == 0 and search.exhausted and request.default_rules:
        from starbattle.logic.insight import why_unsat

        explanation = why_unsat(board)
        if explanation is not None:
            yield Why(board, explanation)
    summary = Summary.of(search, shown, request.timeout, counted=False)
    yield summary
    return summary.verdict, summary.exit_code(request.require_unique)


def solve_all(request: SolveRequest, record: Record) -> list[Item]:
    """Every item of one puzzle's run, collected (for worker processes and the web page)."""
    return list(solve_puzzle(request, record))


def grade_puzzle(request: SolveRequest, record: Record) -> list[Item]:
    """Read one record and grade it: a Graded item and an Outcome (an unreadable board: an error).

    The verdict is 'unique' for a graded puzzle, else 'no solution' or 'not unique' (exit 1).
    """
    from starbattle.logic.grade import TIMED_OUT, grade

    try:
        board = record.board(stars=request.stars, fmt=request.input_format, givens=request.givens)
    except (FormatError, BoardError) as error:  # this record's problem: report it, go on
        return [Message(str(error), "error"), Outcome(record.identifier, "error", EXIT_ERROR)]
    graded = grade(board, request.timeout)
    if graded.reason == TIMED_OUT:
        return [Graded(board, graded), Outcome(record.identifier, "undecided", EXIT_TIMEOUT)]
    if graded.tier is None:
        verdict = "no solution" if graded.features.get("solutions") == 0 else "not unique"
        return [Graded(board, graded), Outcome(record.identifier, verdict, EXIT_NONE)]
    return [Graded(board, graded), Outcome(record.identifier, "unique", EXIT_FOUND, graded.tier)]


def check_answer(
    board: Board,
    text: str,
    *,
    name: str | None,
    partial: bool,
    against_solution: bool,
    timeout: float | None = None,
) -> AnswerCheck | PartialAnswerCheck:
    """Check an answer's text against a board: a complete answer, or marks of a partial one."""
    from starbattle.io.formats.answer import is_grid, read_marks

    stars, blanks = read_marks(text, board.size, name=name, partial=partial)
    checked = check_marks(
        board, stars, blanks, against_solution=against_solution, timeout=timeout, name=name
    )
    if isinstance(checked, AnswerCheck) and is_grid(text):
        return checked._replace(grid=True)
    return checked


def check_marks(
    board: Board,
    stars: Iterable[Cell],
    blanks: Iterable[Cell] | None,
    *,
    against_solution: bool = False,
    timeout: float | None = None,
    name: str | None = None,
) -> AnswerCheck | PartialAnswerCheck:
    """Check stars (a complete answer, `blanks` None) or marks (stars and cells marked empty).

    Marks that contradict the board's givens are a BoardError naming `name` (the marks' file).
    """
    from starbattle.model.checker import check

    stars = sorted(stars)
    if blanks is None:
        return AnswerCheck(board, tuple(stars), tuple(check(board, stars)))
    from starbattle.logic.insight import check_partial

    blanks = sorted(blanks)
    check_against_givens(board, stars, blanks, name)
    checked = check_partial(
        board, stars, blanks, against_solution=against_solution, timeout=timeout
    )
    return PartialAnswerCheck(board, len(stars), len(blanks), checked)
