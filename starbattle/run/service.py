"""The service: the one place that combines reading input, clingo and the hint ladder.

The command line and the web page call these functions and show what they yield, values of
`starbattle.model` (no printing, no click, no HTTP). `solve_puzzle` reads one record and
yields what it finds as it finds it (solutions stream): `Found`, `Difference`, `Why`,
`FixedCells`, `Summary` and `Message` items, and last an `Outcome` with the verdict and exit
code. `hint_items`, `explain_items` (a step as soon as it is found), `grade_puzzle`,
`check_answer` and `check_marks` answer the other questions; `grade_of` and
`generated_puzzles` grade and make puzzles.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, NamedTuple

from starbattle.errors import BoardError, FormatError
from starbattle.exits import Exit, Verdict
from starbattle.model.board import Board, Cell
from starbattle.model.steps import Explained, Graded, Hint, State, Step, Trace
from starbattle.model.values import (
    AnswerCheck,
    Difference,
    FixedCells,
    Found,
    Generated,
    Message,
    Outcome,
    PartialAnswerCheck,
    Search,
    Summary,
    Why,
)
from starbattle.words import plural

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from starbattle.asp.solver import Solver
    from starbattle.io.inputs import Record
    from starbattle.logic.graded import Asked
    from starbattle.logic.ladder import Logic
    from starbattle.model.setter import Suggested, Suggestion
    from starbattle.model.values import BoardVerdict


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
    assume_unique: bool = False
    """Let the hint techniques assume the puzzle has one solution (--assume-unique)."""

    @property
    def default_rules(self) -> bool:
        """Whether the shipped rules are used (explanations need them)."""
        return self.encoding is None and not self.variants


def read_state(board: Board, text: str | None, name: str | None) -> State:
    """The marks of a partial answer (what `check` reads) as a hint engine state."""
    from starbattle.io.formats.answer import read_marks

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


def hint_items(
    board: Board,
    state: State,
    disclose: str = "full",
    techniques: tuple[str, ...] = (),
    timeout: float | None = None,
    assume_unique: bool = False,
) -> Iterator[Message | Hint]:
    """A warning when the board has several solutions, then the next step from the marks.

    `techniques`: files of hint programs to add to the ladder (encodings/hints/ shows how).
    Past `timeout` seconds a warning says so and the Hint is incomplete (no step).
    `assume_unique`: techniques may assume the puzzle has one solution (their steps say so).
    """
    from starbattle.limits import TimeLimitReached, deadline_after
    from starbattle.logic.ladder import Logic
    from starbattle.logic.programs import hint_programs

    logic = Logic(
        board,
        hint_programs(techniques),
        deadline=deadline_after(timeout),
        assume_unique=assume_unique,
    )
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
    assume_unique: bool = False,
) -> Iterator[Hint | Explained | Graded | Message]:
    """Every step from a state to the end of the trace as found, its summary, the grade.

    `techniques`: files of hint programs to add to the ladder (not to the grade's). When
    `timeout` seconds pass first, a message says so and the summary is marked incomplete
    (the grade is then not asked). `assume_unique`: techniques may assume the puzzle has
    one solution (their steps say so; the grade too).
    """
    from starbattle.limits import TimeLimitReached, deadline_after
    from starbattle.logic.ladder import Logic
    from starbattle.logic.programs import hint_programs

    deadline = deadline_after(timeout)
    logic = Logic(board, hint_programs(techniques), deadline=deadline, assume_unique=assume_unique)
    steps: list[Step] = []
    marks = state
    try:
        yield from _several(logic)
        for step in logic.steps(state):
            steps.append(step)
            yield Hint(board, marks, step, len(steps), in_trace=True)
            marks = marks.after(step)
    except TimeLimitReached:
        yield Message(f"the time limit was reached after {plural(len(steps), 'step')}", "warning")
        yield Explained(board, Trace(tuple(steps), False, marks, complete=False))
        return
    yield Explained(board, Trace(tuple(steps), logic.solved(marks), marks))
    if with_grade:
        left = None if deadline is None else deadline - time.perf_counter()
        yield grade_of(board, left, in_summary=True, assume_unique=assume_unique)


def grade_of(
    board: Board,
    timeout: float | None = None,
    *,
    in_summary: bool = False,
    assume_unique: bool = False,
) -> Graded:
    """The board's grade (`in_summary`: said after another command's summary, --grade).

    Raises TimeLimitReached when `timeout` seconds pass first.
    """
    from starbattle.logic.grade import grade

    return Graded(board, grade(board, timeout, assume_unique=assume_unique), in_summary)


def generated_puzzles(
    size: int,
    stars: int,
    count: int = 1,
    seed: int | str = 0,
    asked: Asked | None = None,
    *,
    timeout: float | None = None,
    progress: Callable[[str], object] | None = None,
    **options: Any,
) -> Iterator[tuple[Generated, str | None]]:
    """`count` puzzles, each with a note on its grade and how many were made when one was asked.

    With a grade asked, `timeout` bounds the whole run (else each puzzle, as in `generate`)
    and `progress` hears how the search goes (see `starbattle.logic.graded.generate_graded`).
    """
    from starbattle.limits import deadline_after
    from starbattle.logic.generate import generate
    from starbattle.logic.graded import generate_graded

    if asked is None or not asked.graded:
        made = generate(size, stars, count, seed, timeout=timeout, **options)
        yield from ((puzzle, None) for puzzle in made)
        return
    deadline = deadline_after(timeout)
    for index in range(1, count + 1):
        found = generate_graded(size, stars, f"{seed}/{index}", asked, timeout=timeout,
                                deadline=deadline, progress=progress, **options)  # fmt: skip
        made = f"{plural(found.tried, 'puzzle')} made"
        note = f"puzzle {index}: {found.grade.tier}, score {found.grade.score:g} ({made})"
        yield found.puzzle, note


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
        yield Outcome(record.identifier, Verdict.ERROR, Exit.ERROR)
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
        graded = grade_of(board, request.timeout, in_summary=True)
        tier = graded.grade.tier
        yield graded
    yield Outcome(record.identifier, verdict, code, tier)


Settled = Generator[Item, None, tuple[Verdict, Exit]]
"""A question's items, then its verdict and exit code."""


def summary_of(search: Search, shown: int, timeout: float | None, counted: bool) -> Summary:
    """The summary of a finished search."""
    return Summary(
        search.found, shown, search.exhausted, search.timed_out, search.seconds, timeout, counted
    )


def _count(solver: Solver, request: SolveRequest) -> Settled:
    """--count: every solution counted inside clasp."""
    try:
        search = solver.count(request.search_timeout)
    except KeyboardInterrupt:
        yield Message(f"interrupted after counting {solver.last.found} solution(s)", "interrupted")
        raise
    summary = summary_of(search, search.found, request.timeout, counted=True)
    yield summary
    return summary.verdict, summary.exit_code(request.require_unique)


def _fixed(solver: Solver, request: SolveRequest) -> Settled:
    """--fixed: the cells every solution agrees on."""
    from starbattle.logic.insight import fixed_by

    fixed = fixed_by(solver, request.search_timeout)
    complete = fixed is None or fixed.complete
    yield FixedCells(solver.board, fixed, complete)
    if fixed is None:
        return Verdict.NO_SOLUTION, Exit.NONE
    return (Verdict.SOLVED, Exit.FOUND) if complete else (Verdict.UNDECIDED, Exit.TIMEOUT)


def _solutions(solver: Solver, board: Board, request: SolveRequest) -> Settled:
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
        yield Message(f"interrupted after {shown} solution(s)", "interrupted")
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
    summary = summary_of(search, shown, request.timeout, counted=False)
    yield summary
    return summary.verdict, summary.exit_code(request.require_unique)


def solve_all(request: SolveRequest, record: Record) -> list[Item]:
    """Every item of one puzzle's run, collected (for worker processes and the web page)."""
    return list(solve_puzzle(request, record))


def grade_puzzle(request: SolveRequest, record: Record) -> list[Item]:
    """Read one record and grade it: a Graded item and an Outcome (an unreadable board: an error).

    The verdict is 'unique' for a graded puzzle, else 'no solution' or 'not unique' (exit 1).
    """
    from starbattle.logic.grade import TIMED_OUT

    try:
        board = record.board(stars=request.stars, fmt=request.input_format, givens=request.givens)
    except (FormatError, BoardError) as error:  # this record's problem: report it, go on
        error_outcome = Outcome(record.identifier, Verdict.ERROR, Exit.ERROR)
        return [Message(str(error), "error"), error_outcome]
    graded = grade_of(board, request.timeout, assume_unique=request.assume_unique)
    if graded.grade.reason == TIMED_OUT:
        verdict, code = Verdict.UNDECIDED, Exit.TIMEOUT
    elif graded.grade.tier is None:
        none = graded.grade.features.get("solutions") == 0
        verdict, code = (Verdict.NO_SOLUTION if none else Verdict.NOT_UNIQUE), Exit.NONE
    else:
        verdict, code = Verdict.UNIQUE, Exit.FOUND
    return [graded, Outcome(record.identifier, verdict, code, graded.grade.tier)]


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


def live_verdict(
    read: Callable[[], Board],
    *,
    fixed: bool = False,
    graded: bool = True,
    timeout: float | None = None,
) -> BoardVerdict:
    """The verdict on a board being drawn, read by `read` (any number of regions is judged).

    Region problems, else 0, 1 or 2+ solutions with why none, where two differ, the grade
    (unless not `graded`); `fixed`: the cells every solution agrees on too. Within `timeout`
    seconds.
    """
    from starbattle.logic.verdict import drawn, verdict

    return verdict(drawn(read), fixed=fixed, graded=graded, timeout=timeout)


def suggest_items(
    board: Board,
    *,
    max_moves: int = 2,
    tier: str | None = None,
    most: int = 10,
    split: bool = False,
    timeout: float | None = None,
) -> Iterator[Message | Suggestion | Suggested]:
    """Warnings about the board, then each suggestion as it is proved, then the summary.

    See `starbattle.logic.suggest.suggest`.
    """
    from starbattle.logic.suggest import suggest
    from starbattle.model.units import region_names

    for label, count in board.split_regions().items():
        yield Message(
            f"region {region_names(board)[label]} is in {count} separate pieces: no cell moves "
            "out of it (the live verdict says more)",
            "warning",
        )
    yield from suggest(
        board, max_moves=max_moves, tier=tier, most=most, split=split, timeout=timeout
    )
