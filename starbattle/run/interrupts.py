"""How a process takes Ctrl-C and SIGTERM: the command line, its worker processes, Dask's.

The machinery that stops clingo when a signal arrives is `starbattle.asp.guard`'s; here each
kind of process sets it up its own way.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starbattle.asp.guard import STOPPING, signals


@contextmanager
def handled() -> Iterator[None]:
    """For the command line: signals stop searches and raise, but wait for `holding()` ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous_fd = signal.set_wakeup_fd(signals.watch(), warn_on_full_buffer=False)
    previous = {number: signal.signal(number, signals.note) for number in STOPPING}
    previous_hook = sys.unraisablehook
    signals.handled, signals.received = True, None

    def unraisable(raised: Any) -> None:
        """Leave unprinted a signal's KeyboardInterrupt where it cannot be raised (a `__del__`).

        The signal stays `received`, for the next clingo call or checkpoint to raise.
        """
        if not issubclass(raised.exc_type, KeyboardInterrupt):
            previous_hook(raised)

    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        signals.handled = False
        sys.unraisablehook = previous_hook
        for number, handler in previous.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(previous_fd)


def ignore_in_worker() -> None:
    """Worker processes leave Ctrl-C to the parent (which stops them all) and die on SIGTERM.

    A worker ends itself with exit code 3 when a time limit passes while clingo grounds.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    signals.worker = True


@contextmanager
def ignored_by_new_processes() -> Iterator[None]:
    """Processes started inside the block ignore Ctrl-C (SIG_IGN survives exec): it stays here.

    For a Dask LocalCluster, whose workers are spawned, not forked with an initializer. A
    Ctrl-C pressed during the block is lost; outside the main thread nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if before is None else before)
