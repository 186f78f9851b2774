"""Run clingo on a board: ground once, then enumerate, count or prove uniqueness.

The only module that imports clingo.
"""

from __future__ import annotations

import re
import signal
import socket
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import clingo
from clingo._internal import _c_call, _ffi, _handle_error, _lib  # see _shown_keys

from starbattle.board import Board, Cell, Solution, check_king_capacity
from starbattle.encodings import compose, king_rule_applies
from starbattle.errors import EncodingError, UsageError
from starbattle.facts import ACTIVE, STAR, board_facts, star_cell

_CONSTANT = re.compile(r"[a-z_][A-Za-z0-9_']*=\S+\Z")

Unit = tuple[str, tuple[int | str, ...]]
"""A switchable rule of the explanation program, e.g. ("row", (3,)) or ("notouch", ())."""


@lru_cache(maxsize=64)
def _program(encoding: str | None, variants: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """The files of a composed program and whether it holds the king rule (found once)."""
    files = compose(encoding, variants)
    return tuple(str(path) for path in files), king_rule_applies(files)


def _unit(symbol: clingo.Symbol) -> Unit:
    """The Unit of an active(U) atom's argument."""
    arguments = tuple(
        argument.number if argument.type == clingo.SymbolType.Number else str(argument)
        for argument in symbol.arguments
    )
    return symbol.name, arguments


class Interrupter:
    """Stops a running search from other threads: at a time limit, and on Ctrl-C.

    Solving runs in the caller's thread (clingo's async mode makes every model cross threads
    and fight for the GIL, ~2x slower), where Python cannot run its SIGINT handler until
    clingo returns, and where a KeyboardInterrupt raised inside one of clingo's callbacks
    aborts the process. So while a search runs, a watcher thread reads the signal wakeup fd
    and interrupts clingo, SIGINT itself only sets a flag, and KeyboardInterrupt is raised
    once clingo has returned (`returned`). This is done only in the main thread with Python's
    default SIGINT handler and a free wakeup fd; elsewhere Ctrl-C behaves as Python's does.
    """

    def __init__(self, control: clingo.Control, timeout: float | None, defer: bool) -> None:
        self._control = control
        self._defer = defer
        self._timer = None if timeout is None else threading.Timer(timeout, self._expire)
        self._writer: socket.socket | None = None
        self.timed_out = False
        self.interrupted = False
        self.running = False
        """True while clingo runs; Ctrl-C at other times raises at once unless deferred."""

    def _expire(self) -> None:
        """The time limit passed: stop the search."""
        self.timed_out = True
        self._control.interrupt()

    def _watch(self, reader: socket.socket) -> None:
        """Interrupt clingo whenever SIGINT arrives; end when the writer closes."""
        with reader:
            while data := reader.recv(64):
                if signal.SIGINT in data:
                    self.interrupted = True
                    self._control.interrupt()

    def _on_sigint(self, signum: int, frame: object) -> None:
        """Python's part of Ctrl-C: note it while clingo runs, else raise as usual.

        While clingo runs, the watcher has already stopped it; between models the caller's
        own code is running and gets its KeyboardInterrupt at once, unless it asked to have
        it deferred to the next model boundary.
        """
        if not (self.running or self._defer):
            raise KeyboardInterrupt
        self.interrupted = True

    def returned(self) -> None:
        """Call when clingo has returned: raise KeyboardInterrupt if Ctrl-C stopped it."""
        self.running = False
        if self.interrupted:
            self.interrupted = False
            raise KeyboardInterrupt

    def __enter__(self) -> Interrupter:
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            reader, writer = socket.socketpair()
            writer.setblocking(False)
            if signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False) == -1:
                self._writer = writer
                signal.signal(signal.SIGINT, self._on_sigint)
                threading.Thread(target=self._watch, args=(reader,), daemon=True).start()
            else:  # someone else's wakeup fd: give it back and do without the watcher
                signal.set_wakeup_fd(-1)
                reader.close()
                writer.close()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._writer is not None:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._writer.close()  # ends the watcher's recv
            self._writer = None


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
    defer_interrupts: bool = False
    """Deliver a Ctrl-C that comes between models at the next model boundary, so that the
    caller's handling of a solution (e.g. printing it) is never cut in half."""
    messages: list[str] = field(default_factory=list, init=False)
    """clingo's warnings about the program (e.g. atoms that occur in no rule head)."""
    last: Search = field(default_factory=Search, init=False)
    """How the last query ended."""
    ground_seconds: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        """Load the program and the board's facts, and ground them."""
        files, king_rule = _program(self.encoding, self.variants)
        if king_rule:
            check_king_capacity(self.board)
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
                self._control.load(path)
            self._control.add("base", [], board_facts(self.board))
            self._control.ground([("base", [])])
        except RuntimeError as error:
            raise self._program_error(error, files) from None
        self.ground_seconds = time.perf_counter() - started
        # The cell of each shown symbol, filled as models come, keyed by the symbol's integer
        # representation: hashing Symbol objects goes through cffi on every lookup and costs
        # ~4x more (clingo 5.x, pinned in pyproject.toml). None for symbols that are no star.
        self._cells: dict[int, Cell | None] = {}
        self._units: dict[Unit, int] = {
            _unit(atom.symbol.arguments[0]): atom.literal
            for atom in self._control.symbolic_atoms.by_signature(ACTIVE, 1)
        }

    def units(self) -> list[Unit]:
        """The rule units a program can switch off (its active/1 externals), in order."""
        return list(self._units)

    def core(self, on: Iterable[Unit], off: Iterable[Unit] = ()) -> list[Unit] | None:
        """Solve with the units `on` and without `off`: None when there is a solution.

        Otherwise return the units of an unsatisfiable core: a subset of `on`, not
        necessarily minimal. Units in neither list are left free.
        """
        literals = self._units
        for literal in literals.values():  # [true] fixes an external; free it for assumptions
            self._control.assign_external(literal, None)
        assumptions = [literals[unit] for unit in on] + [-literals[unit] for unit in off]
        core: list[int] = []
        self._control.configuration.solve.models = 1
        with Interrupter(self._control, None, self.defer_interrupts) as stop:
            stop.running = True
            result = self._control.solve(assumptions=assumptions, on_core=core.extend)
            stop.returned()
        if result.satisfiable:
            return None
        chosen = set(core)
        return [unit for unit, literal in literals.items() if literal in chosen]

    def _log(self, code: clingo.MessageCode, message: str) -> None:
        """Keep clingo's messages (warnings, or the reason of a failure), one line each."""
        self.messages.append(" ".join(message.split()))

    def _program_error(self, error: RuntimeError, files: Sequence[str]) -> EncodingError:
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
        names = ", ".join(files)
        return EncodingError(f"clingo could not ground the program ({names}): {detail}")

    def _star_cells(self, limit: int, timeout: float | None) -> Iterator[list[Cell]]:
        """Yield the star cells of each model as clingo finds it (the one model loop)."""
        if next(iter(self._control.symbolic_atoms.by_signature(STAR, 2)), None) is None:
            raise EncodingError("the program defines no star/2 atoms: it must choose star(R,C)")
        self._control.configuration.solve.models = limit
        cells = self._cells
        search = self.last = Search()
        started = time.perf_counter()
        try:
            with Interrupter(self._control, timeout, self.defer_interrupts) as stop:
                with self._control.solve(yield_=True) as handle:
                    models = iter(handle)
                    while not stop.interrupted:  # set by a deferred Ctrl-C
                        stop.running = True  # and so while the handle closes after a break
                        model = next(models, None)
                        if model is None or stop.interrupted:
                            break
                        stars = []
                        for key in _shown_keys(model):
                            if key in cells:
                                cell = cells[key]
                            else:
                                cell = cells[key] = _star_cell(clingo.Symbol(key))
                            if cell is not None:
                                stars.append(cell)
                        stop.running = False
                        search.found += 1
                        yield stars
                    search.exhausted = handle.get().exhausted
                    search.timed_out = stop.timed_out and not search.exhausted
                stop.returned()
        finally:
            search.seconds = time.perf_counter() - started

    def solutions(self, limit: int = 0, timeout: float | None = None) -> Iterator[Solution]:
        """Yield solutions as clingo finds them: at most `limit` (0 = all), within `timeout` s."""
        for stars in self._star_cells(limit, timeout):
            if not stars:
                raise EncodingError(
                    "the program's answer sets show no star/2 atoms: add '#show star/2.'"
                )
            yield Solution.from_cells(self.board.size, stars, self.board)

    def consequences(self, kind: str, timeout: float | None = None) -> frozenset[Cell] | None:
        """Cells that are a star in some solution (kind 'brave') or in every one ('cautious').

        None when the board has no solution; after a time limit (`last.timed_out`) the set
        is only an approximation from the solutions seen.
        """
        if kind not in ("brave", "cautious"):
            raise UsageError(f"consequences are 'brave' or 'cautious', not {kind!r}")
        settings = self._control.configuration.solve
        settings.enum_mode = kind
        try:
            last = None
            for last in self._star_cells(0, timeout):  # noqa: B007 (only the last one counts)
                pass
        finally:
            settings.enum_mode = "auto"
        return None if last is None else frozenset(last)

    def count(self, timeout: float | None = None) -> Search:
        """Count every solution inside clasp, converting none of them to Python."""
        self._control.configuration.solve.models = 0
        search = self.last = Search()
        started = time.perf_counter()
        try:
            with Interrupter(self._control, timeout, self.defer_interrupts) as stop:
                stop.running = True
                search.exhausted = self._control.solve().exhausted
                stop.returned()
                search.timed_out = stop.timed_out and not search.exhausted
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


def _shown_keys(model: clingo.Model) -> list[int]:
    """The integer representations of a model's shown symbols.

    What `model.symbols(shown=True)` does, without building a Symbol object per atom: a third
    of the time per model when enumerating (clingo 5.x internals, pinned in pyproject.toml).
    """
    shown = _lib.clingo_show_type_shown
    size = _c_call("size_t", _lib.clingo_model_symbols_size, model._rep, shown)
    symbols = _ffi.new("clingo_symbol_t[]", size)
    _handle_error(_lib.clingo_model_symbols(model._rep, shown, symbols, size))
    return list(symbols)


def _star_cell(symbol: clingo.Symbol) -> Cell | None:
    """The cell of a star(R,C) symbol; None for any other shown symbol."""
    if symbol.type != clingo.SymbolType.Function or symbol.name != STAR:
        return None
    return star_cell(symbol) if len(symbol.arguments) == 2 else None


def solve(board: Board, models: int = 1, **options: object) -> Iterator[Solution]:
    """Yield up to `models` solutions of a board (0 = every one), as they are found."""
    yield from Solver(board, **options).solutions(models)  # type: ignore[arg-type]


def count(board: Board, **options: object) -> int:
    """The number of solutions of a board."""
    return Solver(board, **options).count().found  # type: ignore[arg-type]


def is_unique(board: Board, **options: object) -> bool:
    """Whether a board has exactly one solution."""
    return sum(1 for _ in solve(board, 2, **options)) == 1


def star_literals(solver: Solver) -> dict[Cell, int]:
    """The solver literal of every star(R,C) atom, to assume cells are stars or empty."""
    return {
        star_cell(atom.symbol): atom.literal
        for atom in solver._control.symbolic_atoms.by_signature(STAR, 2)
    }


def core_assuming(
    solver: Solver, on: Iterable[Unit], off: Iterable[Unit], literals: Iterable[int]
) -> list[Unit] | None:
    """Like `Solver.core`, with extra literals assumed (e.g. from `star_literals`).

    None when there is a solution; else the units of `on` in an unsatisfiable core (the
    assumed literals may be part of the reason too).
    """
    control, units = solver._control, solver._units
    for literal in units.values():
        control.assign_external(literal, None)
    assumptions = [units[unit] for unit in on] + [-units[unit] for unit in off] + list(literals)
    core: list[int] = []
    control.configuration.solve.models = 1
    if control.solve(assumptions=assumptions, on_core=core.extend).satisfiable:
        return None
    chosen = set(core)
    return [unit for unit, literal in units.items() if literal in chosen]
