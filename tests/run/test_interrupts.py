"""How the command line takes a signal where Python cannot raise it."""

from __future__ import annotations

import gc
import os
import signal
import sys

import pytest

from starbattle.asp import guard
from starbattle.run.interrupts import handled


class RaisesWhenCollected:
    """An object whose collection runs while SIGINT's handler raises (as clingo's Control)."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # Python runs the handler between bytecodes, here
            pass


def test_a_signal_during_a_finaliser_is_not_printed_and_raises_at_the_checkpoint(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)  # Python's: it prints
    with handled():
        cycle = RaisesWhenCollected()
        cycle.me = cycle  # type: ignore[attr-defined]
        del cycle
        gc.collect()  # the KeyboardInterrupt raised in __del__ is unraisable
        assert guard.received_signal() == signal.SIGINT
        with pytest.raises(KeyboardInterrupt):
            guard.checkpoint()
    assert capfd.readouterr().err == ""
