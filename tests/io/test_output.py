"""Standard output: a full disk or a closed stdout is one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import TWO


def test_a_full_disk_or_a_closed_stdout_is_one_line_exit_2() -> None:
    full = (
        subprocess.run(
            [sys.executable, "-m", "starbattle", TWO, "-n", "0"],
            stdout=open("/dev/full", "w"),  # noqa: SIM115 (the child owns it)
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        if Path("/dev/full").exists()
        else None
    )
    if full is not None:
        assert full.returncode == 2
        assert (
            full.stderr
            == "starbattle-asp: error: cannot write standard output: no space left on device\n"
        )
    closed = subprocess.run(
        [sys.executable, "-m", "starbattle", TWO],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert closed.returncode == 2
    assert "cannot write standard output: it is closed" in closed.stderr
