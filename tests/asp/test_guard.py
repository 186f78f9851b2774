"""The process's one watcher of time limits (guard._Deadlines)."""

from __future__ import annotations

import multiprocessing
import threading

from helpers import PZPRJS

from starbattle import read_board
from starbattle.asp.guard import _deadlines
from starbattle.asp.solver import Solver


def test_deadlines_run_in_time_order_and_cancelled_ones_never() -> None:
    """Callbacks run when due, earliest first; one cancelled before its time never runs."""
    ran: list[str] = []
    done = threading.Event()
    _deadlines.add(0.2, lambda: (ran.append("late"), done.set()))
    cancelled = _deadlines.add(0.05, lambda: ran.append("cancelled"))
    _deadlines.add(0.1, lambda: ran.append("early"))
    _deadlines.cancel(cancelled)
    assert done.wait(5)
    assert ran == ["early", "late"]


def _fires_in_child(_: int) -> bool:
    """Whether a deadline added in this (forked) process runs."""
    fired = threading.Event()
    _deadlines.add(0.01, fired.set)
    return fired.wait(5)


def test_a_forked_worker_gets_its_own_watcher() -> None:
    """The watcher thread does not survive fork: the child starts its own."""
    started = threading.Event()
    _deadlines.add(0.0, started.set)  # the parent's watcher runs before the fork
    assert started.wait(5)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map(_fires_in_child, [0]) == [True]


def test_d18_library_grounding_is_never_ended() -> None:
    solver = Solver(read_board(PZPRJS), ground_timeout=1e-9)  # not under handled(): no effect
    assert solver.count().found == 1
