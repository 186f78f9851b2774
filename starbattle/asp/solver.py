"""Run clingo on a board: ground once, then enumerate, count or prove uniqueness.

Also the files of the Solver's program (the implied counts left out where they cannot
apply), and one run of a program for every answer set it shows (`shown_answer_sets`).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import clingo

from starbattle.asp.encodings import (
    add_program,
    compose,
    constant_options,
    default_files,
    encodings_folder,
    program_error,
)
from starbattle.asp.facts import ACTIVE, KING_RULE, STAR, board_facts, star_cell
from starbattle.asp.fastpath import models, solve_yielding, star_reader
from starbattle.asp.guard import Guard, grounding
from starbattle.errors import EncodingError, UsageError
from starbattle.limits import TimeLimitReached, deadline_after, time_left
from starbattle.model.board import Board, Cell, Solution, check_king_capacity
from starbattle.model.values import Search, Stats

if TYPE_CHECKING:
    from starbattle.asp.shapes import Shape

Term = int | str | tuple[str, tuple["Term", ...]]
"""A clingo term as plain values: 3, "a", ("row", (3,))."""
Rule = tuple[str, tuple[Term, ...]]
"""A switchable rule of the explanation program, e.g. ("row", (3,)) or ("notouch", ()); also
any atom read back as plain values, e.g. ("conclude", ("star", 3, 4))."""


@lru_cache(maxsize=64)
def program_files(
    encoding: str | None, variants: tuple[str, ...], stars: int, constants: tuple[str, ...]
) -> tuple[str, ...]:
    """The files of a composed program (resolved once per program and star count).

    The implied counts (base/bands.lp, base/boxes.lp) are left out of the shipped program at
    star counts their constants rule out: their gates inside the program would still cost
    gringo ~0.5 ms per grounding.
    """
    if encoding is not None:
        return tuple(str(path) for path in compose(encoding, variants))
    files = tuple(map(str, compose(None, variants))) if variants else default_files()
    given = dict(c.split("=", 1) for c in constants if "=" in c)
    base = os.path.join(encodings_folder(), "base")
    for name, (least, most) in IMPLIED.items():
        low, high = (_constant(given, bound) for bound in (least, most))
        if not low <= stars <= high:
            files = tuple(path for path in files if path != os.path.join(base, name))
    return files


def _constant(given: dict[str, str], bound: tuple[str, int | None]) -> float:
    """A star-count bound: its -c constant when given as an integer, else its default."""
    name, default = bound
    value = given.get(name, "")
    if value.lstrip("-").isascii() and value.lstrip("-").isdigit():
        return int(value)
    return math.inf if default is None else default


BANDS_FROM = 4
"""The default of bands.lp's `#const bands_from`: the star count its counts start at."""
IMPLIED: dict[str, tuple[tuple[str, int | None], tuple[str, int | None]]] = {
    "bands.lp": (("bands_from", BANDS_FROM), ("", None)),
    "boxes.lp": (("boxes_from", 3), ("boxes_upto", 5)),
}
"""The implied-count files of base/ with the star counts they apply to: (least, most), each a
constant's name and its default (as `#const` in the file; None: no bound)."""


AUTO_THREADS_FROM = 4
"""The star count from which a lone puzzle is solved by clasp's portfolio of 2 threads: real
21x21 5-star puzzles, solve and prove unique, median 0.107 -> 0.078 s and worst 0.67 ->
0.39 s on 2 cores; below 4 stars the second thread's start costs about what it saves.

Threads race each other (clasp's compete mode) for one solution, and split the search space
when it must be exhausted (2 or more solutions asked, or a count): the 29 real puzzles of 4
stars and more, 5 runs each, prove unique: sum of medians 1.57 -> 1.33 s and the slowest
(sbl-0384) 0.59 -> 0.40 s; counted: 1.83 -> 1.43 s; the first solution is found faster by
racing (sum of medians 0.72 against 0.91 s)."""


def auto_threads(board: Board) -> int:
    """The solver threads for one puzzle: 2 from AUTO_THREADS_FROM stars on 2 or more cores."""
    return 2 if board.stars >= AUTO_THREADS_FROM and _cores() >= 2 else 1


def _cores() -> int:
    """The cores this process may run on (all of the machine's where that cannot be asked)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


SHARED_LARGEST = {1: 11}
"""By star count, the largest board solved on one grounding per (size, stars, program), the
region membership switched per board by external atoms; 9 for star counts not listed.
Measured (CPU ms per puzzle, solve and prove unique; benchmarks/shapes.py): one star, shared
against per board: 8x8 1.9 / 6.1, 10x10 5.0 / 7.7, 11x11 7.2 / 8.5; two stars: 9x9 6.4 / 7.4,
10x10 8.8 / 7.4. Larger boards propagate better on their own grounding."""


def shares_grounding(size: int, stars: int) -> bool:
    """Whether boards of this size and star count are solved on a shared grounding."""
    return size <= SHARED_LARGEST.get(stars, 9)


def _unit(symbol: clingo.Symbol) -> Rule:
    """The rule of an active(U) atom's argument (any function symbol as its name and terms)."""
    return symbol.name, tuple(_term(argument) for argument in symbol.arguments)


def _term(symbol: clingo.Symbol) -> Term:
    """A symbol as plain values: a number, a string or constant's text, or (name, terms)."""
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    return _unit(symbol) if symbol.arguments else str(symbol)


MAX_ANSWER_SETS = 10_000
"""The most answer sets `shown_answer_sets` keeps: a hint program that makes more (a choice
rule left open) is refused rather than left to fill the memory."""


def _reader(seen: dict[int, bool | None] | None) -> Callable[[clingo.Model], None] | None:
    """What reads the values of `seen`'s literals in a model (None when none are wanted)."""
    if not seen:
        return None

    def read(model: clingo.Model) -> None:
        """Set each literal's value in the model."""
        for literal in seen:
            seen[literal] = model.is_true(literal)

    return read


def shown_answer_sets(
    files: Sequence[str], facts: str, timeout: float | None = None
) -> list[frozenset[Term]]:
    """Every answer set of a program on facts, as its shown atoms in plain values (`_term`).

    Projected on the shown atoms: answer sets that show the same atoms are one. Raises
    TimeLimitReached when `timeout` seconds pass first (grounding, which clingo cannot
    interrupt, ends the process instead under the command line: guard.grounding), and
    an EncodingError past MAX_ANSWER_SETS.
    """
    deadline = deadline_after(timeout)
    messages: list[str] = []
    control = clingo.Control(
        ["0", "--project"],
        logger=lambda _code, message: messages.append(" ".join(message.split())),
        message_limit=100,
    )
    try:
        with grounding(timeout):
            add_program(control, files)
            control.add("base", [], facts)
            control.ground([("base", [])])
    except RuntimeError as error:
        raise program_error(messages, error, files) from None
    found: list[frozenset[Term]] = []

    def keep(model: clingo.Model) -> bool:
        """Keep one answer set's shown atoms; stop past MAX_ANSWER_SETS."""
        found.append(frozenset(_term(symbol) for symbol in model.symbols(shown=True)))
        return len(found) <= MAX_ANSWER_SETS

    with Guard(control, time_left(deadline)) as guard, guard.clingo():
        result = control.solve(on_model=keep)
    if len(found) > MAX_ANSWER_SETS:
        raise EncodingError(
            f"the program has more than {MAX_ANSWER_SETS:,} answer sets on this board: a hint "
            "program's answer sets are its deductions; leave fewer choices open",
            file=files[-1],
        )
    if guard.timed_out and not result.exhausted:
        raise TimeLimitReached
    return found


class Solver:
    """A board grounded once with a program; each query reuses the grounding.

    A plain class, as is its `Search`: a dataclass costs ~2 ms of every cold start to create
    (4 million instructions each, measured with callgrind).
    """

    def __init__(
        self,
        board: Board,
        encoding: str | None = None,
        variants: tuple[str, ...] = (),
        constants: tuple[str, ...] = (),
        threads: int = 1,
        clingo_args: tuple[str, ...] = (),
        parts: tuple[str, ...] = (),
        ground_timeout: float | None = None,
    ) -> None:
        self.board = board
        self.encoding = encoding
        self.variants = variants
        self.constants = constants
        self.threads = threads
        self.clingo_args = clingo_args
        """Extra clingo command-line options, e.g. ("--configuration=crafty",)."""
        self.parts = parts
        """Program parts (`#program NAME.` without parameters) grounded beside base."""
        self.ground_timeout = ground_timeout
        """A time limit for grounding, which clingo cannot interrupt: only the command line
        and its workers keep it, by ending the process (guard.grounding)."""
        self.messages: list[str] = []
        """clingo's warnings about the program (e.g. atoms that occur in no rule head)."""
        self.last = Search()
        """How the last query ended."""
        self.ground_seconds = 0.0
        self._ground_once()

    def _ground_once(self) -> None:
        """Load the program and the board's facts, and ground them (or reuse a grounding)."""
        files = program_files(self.encoding, self.variants, self.board.stars, self.constants)
        arguments = ["--warn=all", *self.clingo_args]
        if self.threads < 1:
            raise UsageError(f"threads must be at least 1, not {self.threads}")
        if self.threads > 1:
            arguments.append(f"--parallel-mode={self.threads}")
        arguments += constant_options(self.constants)
        self._files, self._arguments = files, arguments
        self._shape: Shape | None = None
        if (
            self.encoding is None
            and not self.clingo_args
            and shares_grounding(self.board.size, self.board.stars)
        ):
            from starbattle.asp.shapes import shared_grounding  # only boards that may share

            key = (files, tuple(arguments), self.parts, self.board.size, self.board.stars)
            self._shape = shared_grounding(
                (*key, threading.get_ident()),
                self,
                self.board,
                lambda options, facts: self._ground(files, [*arguments, *options], facts),
                self.messages,
            )
        if self._shape is None:
            self._control = self._ground(files, arguments, board_facts(self.board))
        else:
            self._control = self._shape.control
            self.messages.extend(self._shape.messages)
        king_rule = self._control.symbolic_atoms[clingo.Function(KING_RULE)]
        if king_rule is not None and king_rule.is_fact:  # the program says stars never touch
            check_king_capacity(self.board)
        self._stars = star_reader(self.board.size)
        self._shows_stars = self.encoding is None  # the shipped program does; check others once
        self._units: dict[Rule, int] = {
            _unit(atom.symbol.arguments[0]): atom.literal
            for atom in self._control.symbolic_atoms.by_signature(ACTIVE, 1)
        }

    def _ground(self, files: Sequence[str], arguments: list[str], facts: str) -> clingo.Control:
        """A Control with the program and facts loaded and grounded."""
        control = clingo.Control(arguments, logger=self._log, message_limit=100)
        started = time.perf_counter()
        try:
            with grounding(self.ground_timeout):
                add_program(control, files)
                control.add("base", [], facts)
                control.ground([("base", []), *((part, []) for part in self.parts)])
        except RuntimeError as error:
            raise program_error(self.messages, error, files) from None
        self.ground_seconds = time.perf_counter() - started
        return control

    def _claim(self) -> None:
        """Switch the shared grounding to this board, if another board had it."""
        shape = self._shape
        if shape is not None and shape.owner is not self:
            if shape.busy:  # another board's query is open: ground this one alone
                self._go_private()
            else:
                shape.load(self, self.board)

    def _go_private(self) -> None:
        """Ground this board on its own from now on (its searches then never share history)."""
        self._shape = None
        self._control = self._ground(self._files, self._arguments, board_facts(self.board))

    def units(self) -> list[Rule]:
        """The rule units a program can switch off (its active/1 externals), in order."""
        return list(self._units)

    def core(
        self,
        on: Iterable[Rule],
        off: Iterable[Rule] = (),
        timeout: float | None = None,
        *,
        literals: Iterable[int] = (),
        conflicts: int | None = None,
        seen: dict[int, bool | None] | None = None,
    ) -> list[Rule] | None:
        """Solve with the units `on` and without `off`: None when there is a solution.

        Otherwise return the units of an unsatisfiable core: a subset of `on`, not
        necessarily minimal. Units in neither list are left free; `literals` (e.g. from
        `star_literals`) are assumed too and may be part of the reason. None also when the
        search stops after `conflicts` conflicts (a limit that gives the same answer on
        every run). Raises TimeLimitReached when `timeout` seconds pass first. `seen`:
        literals whose values in the solution found are wanted (each set to its value; left
        as they were when no solution was found).
        """
        self._claim()
        units = self._units
        for literal in units.values():  # [true] fixes an external; free it for assumptions
            self._control.assign_external(literal, None)
        assumptions = [units[unit] for unit in on] + [-units[unit] for unit in off]
        assumptions += literals
        core: list[int] = []
        self._ask(1, conflicts)
        with Guard(self._control, timeout) as guard, guard.clingo():
            result = self._control.solve(
                assumptions=assumptions, on_core=core.extend, on_model=_reader(seen)
            )
        if guard.timed_out and result.unknown:
            raise TimeLimitReached
        if not result.unsatisfiable:
            return None
        chosen = set(core)
        return [unit for unit, literal in units.items() if literal in chosen]

    def star_literals(self) -> dict[Cell, int]:
        """The solver literal of every star(R,C) atom, to assume cells are stars or empty."""
        return {
            star_cell(atom.symbol): atom.literal
            for atom in self._control.symbolic_atoms.by_signature(STAR, 2)
        }

    def _log(self, code: clingo.MessageCode, message: str) -> None:
        """Keep clingo's messages (warnings, or the reason of a failure), one line each."""
        self.messages.append(" ".join(message.split()))

    def _star_cells(self, limit: int, timeout: float | None) -> Iterator[list[Cell]]:
        """Yield the star cells of each model as clingo finds it (the one model loop)."""
        if next(iter(self._control.symbolic_atoms.by_signature(STAR, 2)), None) is None:
            raise EncodingError("the program defines no star/2 atoms: it must choose star(R,C)")
        self._claim()
        self._ask(limit)
        stars_of = self._stars
        search = self.last = Search()
        started = time.perf_counter()
        if self._shape is not None:
            self._shape.busy = True
        try:
            with Guard(self._control, timeout) as guard, solve_yielding(self._control) as handle:
                found = models(handle)
                while True:
                    with guard.clingo():
                        model = next(found, None)
                        stars = None if model is None else stars_of(model)
                    if stars is None:
                        break
                    search.found += 1
                    yield stars
                with guard.clingo():
                    search.exhausted = handle.get().exhausted
                search.timed_out = guard.timed_out and not search.exhausted
        finally:
            search.seconds = time.perf_counter() - started
            if self._shape is not None:
                self._shape.busy = False

    def _ask(self, limit: int, conflicts: int | None = None) -> None:
        """Set the next search's models (0: all), its conflict limit, how 2+ threads share it.

        The threads race for one solution. Asking 2 solutions or all of them (or a count)
        ends only when the search space is exhausted, for a unique puzzle a proof that no
        other solution exists; the threads then split that space (see AUTO_THREADS_FROM).
        """
        settings = self._control.configuration.solve
        settings.models = limit
        settings.solve_limit = "umax" if conflicts is None else str(conflicts)
        if self.threads > 1:
            mode = "compete" if limit == 1 else "split"
            settings.parallel_mode = f"{self.threads},{mode}"

    def solutions(self, limit: int = 0, timeout: float | None = None) -> Iterator[Solution]:
        """Yield solutions as clingo finds them: at most `limit` (0 = all), within `timeout` s.

        Which solutions come first must not depend on the boards solved before: a shared
        grounding answers only when a board has at most one solution (the common question:
        is it unique?); otherwise the board is grounded on its own and asked again.
        """
        if self._shape is not None and 0 < limit <= 2:
            found = list(self._star_cells(2, timeout))
            if len(found) < 2:
                yield from (self._solution(stars) for stars in found)
                return
        if self._shape is not None:
            self._go_private()
        for stars in self._star_cells(limit, timeout):
            if not stars:
                raise EncodingError(
                    "the program's answer sets show no star/2 atoms: add '#show star/2.'"
                )
            yield self._solution(stars)

    def _solution(self, stars: list[Cell]) -> Solution:
        """A solution of this board from its star cells."""
        return Solution.from_cells(self.board.size, stars, self.board)

    def consequences(self, kind: str, timeout: float | None = None) -> frozenset[Cell] | None:
        """Cells that are a star in some solution (kind 'brave') or in every one ('cautious').

        None when the board has no solution; after a time limit (`last.timed_out`) the set
        is only an approximation from the solutions seen.
        """
        if kind not in ("brave", "cautious"):
            raise UsageError(f"consequences are 'brave' or 'cautious', not {kind!r}")
        self._check_shown(timeout)
        settings = self._control.configuration.solve
        settings.enum_mode = kind
        try:
            last = None
            for last in self._star_cells(0, timeout):  # noqa: B007 (only the last one counts)
                pass
        finally:
            settings.enum_mode = "auto"
        return None if last is None else frozenset(last)

    def _check_shown(self, timeout: float | None) -> None:
        """Read a user program's first solution once, to refuse one that shows no stars.

        As `solutions` does: a count or consequences never read the atoms themselves.
        """
        if not self._shows_stars:
            next(self.solutions(1, timeout), None)
            self._shows_stars = True

    def count(self, timeout: float | None = None) -> Search:
        """Count every solution inside clasp, converting none of them to Python."""
        self._check_shown(timeout)
        self._claim()
        self._ask(0)
        search = self.last = Search()
        started = time.perf_counter()
        try:
            with Guard(self._control, timeout) as guard:
                with guard.clingo():
                    search.exhausted = self._control.solve().exhausted
                search.timed_out = guard.timed_out and not search.exhausted
        finally:
            search.seconds = time.perf_counter() - started
            search.found = int(self._control.statistics["summary"]["models"]["enumerated"])
        return search

    @property
    def stats(self) -> Stats:
        """The statistics of the program and of the last search (read when asked: ~1 ms)."""
        statistics = self._control.statistics
        if not statistics:
            return Stats(ground_seconds=self.ground_seconds)
        return Stats(
            rules=int(statistics["problem"]["lp"]["rules"]),
            atoms=int(statistics["problem"]["lp"]["atoms"]),
            choices=int(statistics["solving"]["solvers"]["choices"]),
            conflicts=int(statistics["solving"]["solvers"]["conflicts"]),
            ground_seconds=self.ground_seconds,
            solve_seconds=float(statistics["summary"]["times"]["solve"]),
        )


def solve(board: Board, models: int = 1, **options: object) -> Iterator[Solution]:
    """Yield up to `models` solutions of a board (0 = every one), as they are found."""
    yield from Solver(board, **options).solutions(models)  # type: ignore[arg-type]


def count(board: Board, **options: object) -> int:
    """The number of solutions of a board."""
    return Solver(board, **options).count().found  # type: ignore[arg-type]


def is_unique(board: Board, **options: object) -> bool:
    """Whether a board has exactly one solution."""
    return sum(1 for _ in solve(board, 2, **options)) == 1
