"""Ctrl-C, SIGTERM and time limits around clingo's calls: the one module that touches signals.

clingo runs in the caller's thread (its async mode makes every model cross threads and fight
for the GIL, ~2x slower). Python runs a signal handler only between bytecodes, so it cannot
stop clingo while clingo runs, and a KeyboardInterrupt raised inside a clingo callback aborts
the process. So, while a clingo call runs, the C-level handler writes the signal to a wakeup
fd, a watcher thread reads it and interrupts the running Control, and KeyboardInterrupt is
raised once clingo has returned.

Library callers get this only for the length of each clingo call: a suspended generator of
solutions holds no handler, and Ctrl-C between calls is Python's own. The command line opts
into `handled()` for its whole run: Ctrl-C and SIGTERM then stop any running search at once
and raise KeyboardInterrupt (the CLI exits 130 or 143), except inside `holding()` blocks,
where they wait for the block's end, so a printed record is never cut and a puzzle's lines
and its count go together.

Grounding is the exception: clingo cannot interrupt it, and a program can ground forever
(`p(0). p(X+1) :- p(X).`). So under `handled()`, and in worker processes, `grounding()`
ends the whole process when the time limit passes or a signal arrives while clingo grounds:
standard output is flushed (it holds whole lines only: nothing else runs meanwhile), one
line goes to standard error, and the exit code is 3, 130 or 143 as for a search. Library
callers keep their process: for them grounding has no time limit and Ctrl-C waits for it.
"""

from __future__ import annotations

import _thread
import contextlib
import heapq
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from starbattle.exits import Exit


class Interruptible(Protocol):
    """What can be stopped from another thread (a clingo Control)."""

    def interrupt(self) -> None: ...  # noqa: D102


class Signals:
    """The process's signal state: what runs, what arrived, who handles it."""

    def __init__(self) -> None:
        self.running: set[Interruptible] = set()
        """The clingo calls in progress, stopped when a signal arrives."""
        self.received: int | None = None
        """The signal (SIGINT or SIGTERM) that arrived under `handled()`."""
        self.handled = False
        """True inside `handled()`."""
        self.holding = 0
        """How many `holding()` blocks are open: signals wait for their end."""
        self.writer: int | None = None
        """The pipe's end that the wakeup fd writes to (a pipe: socket costs ~8 ms to import)."""
        self.worker = False
        """True in a worker process (see ignore_in_worker)."""
        self.grounding = False
        """True while clingo grounds inside `grounding()` with the process's ending armed."""
        self.lock = threading.Lock()
        """Taken to end the process, and to leave `grounding()`: never both."""
        self.cleanups: dict[int, Callable[[], object]] = {}
        """What must be undone if the process is ended (e.g. temporary files removed)."""

    def watch(self) -> int:
        """Start the watcher thread once; return the fd the wakeup fd writes to."""
        if self.writer is None:
            reader, self.writer = os.pipe()
            os.set_blocking(self.writer, False)
            _thread.start_new_thread(self._watch, (reader,))
        return self.writer

    def _watch(self, reader: int) -> None:
        """Interrupt what runs whenever SIGINT or SIGTERM arrives."""
        while data := os.read(reader, 64):
            if signal.SIGINT in data or signal.SIGTERM in data:
                for control in list(self.running):
                    control.interrupt()
                number = signal.SIGTERM if signal.SIGTERM in data else signal.SIGINT
                self.end_grounding(128 + number, "interrupted while grounding the program")

    def end_grounding(self, code: int, why: str) -> None:
        """End the process if clingo is still grounding (a thread's work: main is in clingo)."""
        with self.lock:
            if not self.grounding:
                return
            for cleanup in list(self.cleanups.values()):
                with contextlib.suppress(Exception):
                    cleanup()
            with contextlib.suppress(Exception):  # a closed or full stdout: nothing to save
                sys.stdout.flush()
            if not self.worker:  # a worker's parent says it, naming the puzzle
                with contextlib.suppress(Exception):
                    sys.stderr.write(f"starbattle-asp: {why}\n")
                    sys.stderr.flush()
            os._exit(code)

    def note(self, signum: int, frame: object) -> None:
        """Python's part of a signal: raise now, unless clingo runs or output is held."""
        self.received = signum
        if not (self.running or self.holding):
            raise KeyboardInterrupt


signals = Signals()
STOPPING = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run."""


def received_signal() -> int | None:
    """The signal that stopped the run (SIGINT or SIGTERM), if one did."""
    return signals.received


def checkpoint() -> None:
    """Raise KeyboardInterrupt if a signal arrived while it had to wait."""
    if signals.received is not None and signals.handled:
        raise KeyboardInterrupt


class _Holding:
    """The context manager of `holding()` (a class: it runs once per solution printed)."""

    __slots__ = ()

    def __enter__(self) -> None:
        signals.holding += 1

    def __exit__(self, *exc_info: object) -> None:
        signals.holding -= 1


_HOLDING = _Holding()


def holding() -> _Holding:
    """Signals that arrive inside the block wait for the next clingo call or `checkpoint()`.

    So a record is printed whole, and a search stopped between two solutions still says how
    many it found.
    """
    return _HOLDING


class _Deadline:
    """A callback due at a time, unless cancelled first."""

    __slots__ = ("active", "callback", "when")

    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self.when, self.callback, self.active = when, callback, True


class _Deadlines:
    """Every time limit of the process, watched by one thread.

    A `threading.Timer` per query starts a thread per query: ~1 ms of wall time on a loaded
    machine, as much as a small puzzle's whole search. Threads here start with `_thread`,
    whose start does not wait for the new thread to run (0.05 ms against 0.2-1.5 ms). A
    callback runs under the lock that `cancel` takes, so none runs after its `cancel` has
    returned.
    """

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # the watcher does not survive fork

    def _reset(self) -> None:
        """No deadlines and no watcher (at start, and in a forked child)."""
        self._due = threading.Condition()
        self._heap: list[tuple[float, int, _Deadline]] = []
        self._order = itertools.count()
        self._watching_until = float("inf")
        self._watching = False

    def add(self, seconds: float, callback: Callable[[], object]) -> _Deadline:
        """Run `callback` in `seconds`, unless cancelled first."""
        deadline = _Deadline(time.monotonic() + seconds, callback)
        with self._due:
            heap = self._heap
            while heap and not heap[0][2].active:  # cancelled ones come first: drop them
                heapq.heappop(heap)
            heapq.heappush(heap, (deadline.when, next(self._order), deadline))
            if not self._watching:
                self._watching = True
                _thread.start_new_thread(self._watch, ())
            elif deadline.when < self._watching_until:
                self._due.notify()
        return deadline

    def cancel(self, deadline: _Deadline) -> None:
        """Forget a deadline; its callback has run or never will."""
        with self._due:
            deadline.active = False

    def _watch(self) -> None:
        """Run the callbacks whose time has come; sleep until the next one."""
        heap = self._heap
        with self._due:
            while True:
                now = time.monotonic()
                while heap and (heap[0][0] <= now or not heap[0][2].active):
                    deadline = heapq.heappop(heap)[2]
                    if deadline.active:
                        deadline.active = False
                        deadline.callback()
                self._watching_until = heap[0][0] if heap else float("inf")
                self._due.wait(self._watching_until - now if heap else None)


_deadlines = _Deadlines()


class Guard:
    """One query's time limit, and Ctrl-C during its clingo calls."""

    def __init__(self, control: Interruptible, timeout: float | None) -> None:
        self._control = control
        self._timeout = timeout
        self._deadline: _Deadline | None = None
        self.timed_out = False
        """True once the time limit passed (the search was then stopped)."""

    def _expire(self) -> None:
        """The time limit passed: stop the search."""
        self.timed_out = True
        self._control.interrupt()

    def __enter__(self) -> Guard:
        if self._timeout is not None:
            self._deadline = _deadlines.add(self._timeout, self._expire)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._deadline is not None:
            _deadlines.cancel(self._deadline)

    def clingo(self) -> _ClingoCall:
        """Around one clingo call: a signal stops it, and KeyboardInterrupt follows its return."""
        return _ClingoCall(self._control)


class _ClingoCall:
    """The context manager of `Guard.clingo()` (a class: it runs once per model)."""

    __slots__ = ("control", "own")

    def __init__(self, control: Interruptible) -> None:
        self.control = control
        self.own: _Caught | None = None

    def __enter__(self) -> None:
        checkpoint()
        self.own = _catch() if not signals.handled else None
        signals.running.add(self.control)

    def __exit__(self, kind: type[BaseException] | None, *exc_info: object) -> None:
        signals.running.discard(self.control)
        own = self.own
        if own is not None:
            _release(own)
        if kind is not None:  # the call failed: its exception goes on
            return
        if own is not None and own.received:
            raise KeyboardInterrupt
        checkpoint()


class _Caught:
    """A library caller's temporary handler for one clingo call."""

    def __init__(self, previous_fd: int) -> None:
        self.previous_fd = previous_fd
        self.received = False

    def note(self, signum: int, frame: object) -> None:
        """Ctrl-C while clingo ran: the watcher has stopped it; raise after it returns."""
        self.received = True


def _catch() -> _Caught | None:
    """Take over Ctrl-C for one clingo call, if this is the main thread with Python's default."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        return None
    previous_fd = signal.set_wakeup_fd(signals.watch(), warn_on_full_buffer=False)
    if previous_fd != -1:  # someone else's wakeup fd: give it back and do without
        signal.set_wakeup_fd(previous_fd)
        return None
    caught = _Caught(previous_fd)
    signal.signal(signal.SIGINT, caught.note)
    return caught


def _release(caught: _Caught) -> None:
    """Give Ctrl-C back to Python after a clingo call."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.set_wakeup_fd(caught.previous_fd)


@contextmanager
def undone_if_ended(cleanup: Callable[[], object]) -> Iterator[None]:
    """Run `cleanup` if the process is ended inside the block (see `grounding()`)."""
    key = id(cleanup)
    signals.cleanups[key] = cleanup
    try:
        yield
    finally:
        signals.cleanups.pop(key, None)


@contextmanager
def grounding(timeout: float | None) -> Iterator[None]:
    """Around clingo's ground(), which cannot be interrupted: see the module's docstring.

    Under `handled()` or in a worker, the process ends when grounding outlasts `timeout`
    seconds (exit 3) or, under `handled()`, when Ctrl-C or SIGTERM arrives (130, 143).
    """
    if not (signals.handled or signals.worker):
        yield
        return
    deadline = None
    signals.grounding = True
    if timeout is not None:
        why = "the time limit was reached while grounding the program"
        deadline = _deadlines.add(timeout, lambda: signals.end_grounding(Exit.TIMEOUT, why))
    try:
        yield
    finally:
        with signals.lock:
            signals.grounding = False
        if deadline is not None:
            _deadlines.cancel(deadline)
