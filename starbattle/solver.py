"""Run clingo on a board: ground once, then enumerate, count or prove uniqueness.

The only module that imports clingo.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import clingo

from starbattle.board import Board, Cell, Solution
from starbattle.encodings import compose
from starbattle.errors import EncodingError, UsageError
from starbattle.facts import STAR, board_facts, star_cell

_CONSTANT = re.compile(r"[a-z_][A-Za-z0-9_']*=\S+\Z")
_POLL_SECONDS = 0.05
"""How often a waiting search wakes up to honour Ctrl-C and time limits."""


@dataclass
class Stats:
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


@dataclass
class Search:
    """How the last enumeration or count ended."""

    found: int = 0
    exhausted: bool = False
    """True when the whole search space was explored: `found` is then every solution."""
    timed_out: bool = False
    seconds: float = 0.0


@dataclass
class Solver:
    """A board grounded once with a program; each query reuses the grounding."""

    board: Board
    encoding: str | None = None
    variants: tuple[str, ...] = ()
    constants: tuple[str, ...] = ()
    threads: int = 1
    clingo_args: tuple[str, ...] = ()
    """Extra clingo command-line options, e.g. ("--configuration=crafty",)."""
    messages: list[str] = field(default_factory=list)
    """clingo's warnings about the program (e.g. atoms that occur in no rule head)."""
    last: Search = field(default_factory=Search)
    stats: Stats = field(default_factory=Stats)

    def __post_init__(self) -> None:
        """Load the program and the board's facts, and ground them."""
        files = compose(self.encoding, self.variants)
        arguments = ["--warn=all", *self.clingo_args]
        if self.threads < 1:
            raise UsageError(f"threads must be at least 1, not {self.threads}")
        if self.threads > 1:
            arguments.append(f"--parallel-mode={self.threads}")
        for constant in self.constants:
            if not _CONSTANT.match(constant):
                raise UsageError(f"constant {constant!r} must look like NAME=VALUE, e.g. n=3")
            arguments += ["-c", constant]
        self._control = clingo.Control(arguments, logger=self._log, message_limit=100)
        started = time.perf_counter()
        try:
            for path in files:
                self._control.load(str(path))
            self._control.add("base", [], board_facts(self.board))
            self._control.ground([("base", [])])
        except RuntimeError as error:
            raise self._program_error(error, files) from None
        self.stats.ground_seconds = time.perf_counter() - started
        self._cells: dict[clingo.Symbol, Cell] = {
            atom.symbol: star_cell(atom.symbol)
            for atom in self._control.symbolic_atoms.by_signature(STAR, 2)
        }

    def _log(self, code: clingo.MessageCode, message: str) -> None:
        """Keep clingo's messages: errors become EncodingError, the rest warnings."""
        self.messages.append(" ".join(message.split()))

    def _program_error(self, error: RuntimeError, files: list) -> EncodingError:
        """Turn clingo's failure into an EncodingError naming its first message and place."""
        detail = next((m for m in self.messages if "error" in m), None) or str(error)
        match = re.match(
            r"(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+)(-[\d:]+)?: (?P<rest>.*)", detail
        )
        if match:
            return EncodingError(
                match["rest"],
                file=match["file"],
                line=int(match["line"]),
                column=int(match["column"]),
            )
        names = ", ".join(str(path) for path in files)
        return EncodingError(f"clingo could not ground the program ({names}): {detail}")

    def _wait(self, handle: clingo.SolveHandle, deadline: float | None) -> bool:
        """Wait for the handle's next result; False when the deadline passed first."""
        while not handle.wait(_POLL_SECONDS):
            if deadline is not None and time.perf_counter() >= deadline:
                return False
        return True

    def _solution(self, model: clingo.Model) -> Solution:
        """Convert a model to a Solution through the precomputed symbol -> cell table."""
        cells = self._cells
        stars = [cells[symbol] for symbol in model.symbols(shown=True) if symbol in cells]
        if not stars:
            raise EncodingError(
                "the program's answer sets show no star/2 atoms: add '#show star/2.'"
            )
        return Solution.from_cells(self.board.size, stars)

    def solutions(self, limit: int = 0, timeout: float | None = None) -> Iterator[Solution]:
        """Yield solutions as clingo finds them: at most `limit` (0 = all), within `timeout` s."""
        if not self._cells:
            raise EncodingError("the program defines no star/2 atoms: it must choose star(R,C)")
        self._control.configuration.solve.models = limit
        started = time.perf_counter()
        deadline = None if timeout is None else started + timeout
        search = self.last = Search()
        with self._control.solve(yield_=True, async_=True) as handle:
            try:
                while True:
                    handle.resume()
                    if not self._wait(handle, deadline):
                        search.timed_out = True
                        handle.cancel()
                        break
                    model = handle.model()
                    if model is None:
                        search.exhausted = handle.get().exhausted
                        break
                    solution = self._solution(model)
                    search.found += 1
                    yield solution
            finally:
                search.seconds = time.perf_counter() - started
                handle.cancel()
                self._record_stats()

    def count(self, timeout: float | None = None) -> Search:
        """Count every solution inside clasp, converting none of them to Python."""
        self._control.configuration.solve.models = 0
        started = time.perf_counter()
        deadline = None if timeout is None else started + timeout
        search = self.last = Search()
        with self._control.solve(async_=True) as handle:
            try:
                if self._wait(handle, deadline):
                    search.exhausted = handle.get().exhausted
                else:
                    search.timed_out = True
                    handle.cancel()
            finally:
                handle.cancel()
                search.seconds = time.perf_counter() - started
                search.found = int(self._control.statistics["summary"]["models"]["enumerated"])
                self._record_stats()
        return search

    def _record_stats(self) -> None:
        """Copy the statistics of the program and of the last search."""
        statistics = self._control.statistics
        if not statistics:
            return
        self.stats.rules = int(statistics["problem"]["lp"]["rules"])
        self.stats.atoms = int(statistics["problem"]["lp"]["atoms"])
        self.stats.choices = int(statistics["solving"]["solvers"]["choices"])
        self.stats.conflicts = int(statistics["solving"]["solvers"]["conflicts"])
        self.stats.solve_seconds = float(statistics["summary"]["times"]["solve"])


def solve(board: Board, models: int = 1, **options: object) -> Iterator[Solution]:
    """Yield up to `models` solutions of a board (0 = every one), as they are found."""
    yield from Solver(board, **options).solutions(models)  # type: ignore[arg-type]


def count(board: Board, **options: object) -> int:
    """The number of solutions of a board."""
    return Solver(board, **options).count().found  # type: ignore[arg-type]


def is_unique(board: Board, **options: object) -> bool:
    """Whether a board has exactly one solution."""
    return sum(1 for _ in solve(board, 2, **options)) == 1
