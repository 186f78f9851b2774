"""Ctrl-C, SIGTERM and time limits while clingo grounds, on the command line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ENDLESS, PZPRJS, SLACK, start

from starbattle.exits import Exit

GROUND_WITH_LIMIT = """
import sys
from starbattle.run import interrupts
from starbattle import read_board
from starbattle.io.files import open_output
from starbattle.asp.solver import Solver
print("a whole line before", end="\\n")
with interrupts.handled(), open_output(sys.argv[3]) as output:
    output.write("a line for the -o file\\n")
    Solver(read_board(sys.argv[1]), encoding=sys.argv[2], ground_timeout=1.0)
print("not reached")
"""


def wait_until_grounding(pid: int, megabytes: int = 150, seconds: float = 30.0) -> None:
    """Wait until a child grounding ENDLESS has grown past `megabytes` (it is grounding then)."""
    deadline = time.monotonic() + seconds
    status = Path(f"/proc/{pid}/status")
    while time.monotonic() < deadline:
        rss = next(
            (line for line in status.read_text().splitlines() if line.startswith("VmRSS")), ""
        )
        if rss and int(rss.split()[1]) > megabytes * 1024:
            return
        time.sleep(0.05)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_d18_a_signal_stops_grounding(tmp_path: Path, signum: int, code: int) -> None:
    program = tmp_path / "endless.lp"
    program.write_text(ENDLESS)
    child = start([PZPRJS, "-e", str(program)])
    wait_until_grounding(child.pid)
    child.send_signal(signum)
    try:
        out, errors = child.communicate(timeout=20)  # grounding used to ignore it
    finally:
        child.kill()
    assert child.returncode == code and out == ""
    assert errors == "starbattle-asp: interrupted while grounding the program\n"


def test_d18_time_limit_covers_grounding_on_the_command_line(tmp_path: Path) -> None:
    program = tmp_path / "endless.lp"
    program.write_text(ENDLESS)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", GROUND_WITH_LIMIT, PZPRJS, str(program), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert time.perf_counter() - started < 1 + SLACK + 1  # + starting Python
    assert done.returncode == Exit.TIMEOUT and done.stdout == "a whole line before\n"
    assert done.stderr == "starbattle-asp: the time limit was reached while grounding the program\n"
    assert list(tmp_path.iterdir()) == [program]  # the -o file's temporary file is removed


@pytest.mark.slow
def test_sigterm_stops_a_parallel_run_cleanly(tmp_path: Path) -> None:
    boards = tmp_path / "many.jsonl"
    line = json.dumps({"stars": 1, "regions": [str(r) * 9 for r in range(9)]})
    boards.write_text("\n".join([line] * 40) + "\n")
    child = start([str(boards), "-n", "0", "-f", "json", "-j", "2"], own_group=True)
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.send_signal(signal.SIGTERM)
    rest, errors = child.stdout.read(), child.stderr.read()
    assert child.wait(timeout=60) == 143
    records_ = [json.loads(text) for text in [first, *rest.splitlines()]]
    assert records_[-1]["type"] == "overall"
    assert "Traceback" not in errors and errors.count("\n") <= 2
