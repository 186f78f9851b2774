"""The README is a test: every command it shows runs, as people type it, from a copy of the
checkout, and does what the README says (exit code, and the output where it shows one).

The commands are read from the README's `sh` code blocks and from its inline code that
starts with `starbattle-asp` or `python`. The files the examples name but do not ship
(`board.txt`, `marks.txt`, `two-cells.lp`, ...) are made first; `two-cells.lp` is the
README's own program. A command the README shows that this test does not run must be in
NOT_RUN with the reason, and an entry there that the README no longer shows fails too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar, NamedTuple

import pytest

from starbattle.asp.solver import Solver
from starbattle.io.inputs import read_board, write_board
from starbattle.model.checker import check

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SCREENSHOT = ROOT.parent / "shared" / "corpus" / "screenshots" / "queens_emmett_test1.png"

BOARD = """stars: 2
DAAAAAABBB
DACCCAAEBB
DDCCEEEEEE
DDDCCFEFFE
DDFFFFEFEE
DDFGGFFFFH
JDFHGGGHHH
JHHHHHHHJH
JJHIIIIIJJ
JJJJJJJJJJ
"""
"""board.txt: a 10x10 2-star puzzle made by `starbattle-asp generate`, solved by logic."""
MARKS = """xxx*xxx*xx
xxxxx*xxx*
.x*xxxx.xx
.xxx*x.xx.
...xxx.x.x
.x.x.xxx.x
x..x...xxx
x.xxxxx.x.
xxx*x..xxx
..xxxxxx*x
"""
"""marks.txt: board.txt after 35 steps of its trace, where the README's two-cells program is
the first technique that applies."""


COLLECTION = (
    "pzprjs-6x6-1star",
    "cspuz-6x6-1star",
    "generated-8x8-1star",
    "generated-10x10-2star",
    "generated-14x14-3star",
)
"""The shipped unique puzzles that puzzles.jsonl and puzzles.sbn hold."""


class Expect(NamedTuple):
    """What a command must do: its exit code and lines (or parts of lines) it must print."""

    code: int = 0
    prints: tuple[str, ...] = ()


EXPECTED = {
    "starbattle-asp instances/norvig-5x5-1star.lp": Expect(0, ("not unique: 2 or more",)),
    "starbattle-asp instances/planted-10x10-2star-several.lp --count": Expect(0, ("17 solutions",)),
    "starbattle-asp instances/planted-10x10-2star-several.lp -w knight.lp --count": Expect(
        1, ("no solution",)
    ),
    "starbattle-asp grade board.txt": Expect(0, ("hard (score ", "needs counting steps")),
    "starbattle-asp instances/crafted-6x6-no-solution.lp": Expect(1),
    "python -m clingo encodings/starbattle.lp instances/pzprjs-6x6-1star.lp 0": Expect(
        0, ("Answer: 1", "SATISFIABLE", "Models       : 1")
    ),
    "python -m clingo encodings/base/{domain,choose,rows,columns,regions,givens,show}.lp "
    "encodings/variants/orthogonal.lp instances/pzprjs-6x6-1star.lp 0": Expect(
        0, ("Models       : 22",)
    ),
    "echo 'marked_star(1,2).' | python -m clingo encodings/hints/state.lp "
    "encodings/hints/full-unit.lp instances/pzprjs-6x6-1star.lp - 0 --project": Expect(
        0, ("conclude(blank,1,1)", "premise_unit(row(1))")
    ),
}
"""Commands whose exit code is not 0, or whose output the README states."""

NOT_RUN = {
    "pip install '.[test]' && pytest": "the quick start's test command: it runs this suite",
    "pytest": "the test suite itself",
    'pytest -m "not slow"': "the test suite itself",
    "pytest -n 0": "the test suite itself, in one process",
    "bash .ci/run": "the CI script: it runs this suite",
    "pip install '.[image]'": "an install: the test extra holds what it adds",
    "pip install '.[cluster]'": "an install: the test extra holds what it adds",
    "pip install '.[bench]'": "an install of benchmark tools (CP-SAT), not needed here",
    "pip install .": "an install: CI installs the package before the suite",
    "python benchmarks/sbn_decode.py": "a benchmark: minutes of CPU, results in its file",
    "python benchmarks/generate.py": "a benchmark: minutes of CPU, results in RESULTS.md",
    "python benchmarks/tier_reach.py": "a benchmark: minutes of CPU, results in RESULTS.md",
    "python benchmarks/suggest.py": "a benchmark: minutes of CPU, results in RESULTS.md",
    "python benchmarks/verdict.py": "a benchmark: minutes of CPU, results in RESULTS.md",
    "python tools/fuzz_readers.py": "a fuzzer: 800,000 inputs, results in its file",
    "python tools/screenshots.py": "the README's pictures: a browser plays (tests/web does too)",
    "python benchmarks/makeable.py": "a benchmark: minutes of CPU, results in RESULTS.md",
    "starbattle-asp FILE": "a synopsis, FILE a placeholder",
    "starbattle-asp solve FILE": "a synopsis, FILE a placeholder",
    "starbattle-asp bench FILE...": "a synopsis, FILE a placeholder",
    "starbattle-asp serve [FILE|URL] [--host 127.0.0.1] [--port 8000] [--open]": "a synopsis",
    "starbattle-asp -n 0": "a fragment of a sentence (the option, no board)",
    "starbattle-asp generate": "the command's name in a sentence",
    "python -m clingo": "the way to run clingo, in a sentence",
}
"""README commands this test does not run, and why."""

SERVICES = {"dask scheduler", "dask worker", "starbattle-asp serve"}
"""Commands that run until stopped: started in the background, checked, then stopped."""


def _logical_lines(block: str) -> Iterator[tuple[str, list[str]]]:
    """The commands of an sh block with the output lines shown after each (`# ...` lines).

    A line ending in a backslash goes on in the next; so does one with a quote left open.
    A `#` after a space, outside quotes, starts a comment.
    """
    lines = block.splitlines()
    index = 0
    while index < len(lines):
        if not lines[index].strip() or lines[index].lstrip().startswith("#"):
            index += 1
            continue
        command, quoted = "", False
        while True:
            code, quoted = _code(lines[index], quoted)
            index += 1
            if quoted:
                command += code + "\n"
            elif code.endswith("\\"):
                command += code.removesuffix("\\").rstrip() + " "
            else:
                command += code
                break
            if index < len(lines) and not quoted:
                lines[index] = lines[index].strip()
        shown = []
        while index < len(lines) and lines[index].startswith("# "):
            shown += [part.strip() for part in lines[index][2:].split(" / ")]
            index += 1
        yield " ".join(command.split(" ")).strip(), shown


def _code(line: str, quoted: bool) -> tuple[str, bool]:
    """A line without its comment, and whether a single quote is still open at its end."""
    for position, char in enumerate(line):
        if char == "'":
            quoted = not quoted
        elif char == "#" and not quoted and line[position - 1 : position] in (" ", "\t"):
            return line[:position].rstrip(), quoted
    return line.rstrip(), quoted


def readme_commands() -> list[tuple[str, list[str]]]:
    """Every command the README shows, in order, with the output lines it shows for it."""
    text = README.read_text()
    found = []
    for language, block in re.findall(r"```(\w*)\n(.*?)```", text, re.DOTALL):
        if language == "sh":
            found += list(_logical_lines(block))
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    for span in re.findall(r"`([^`\n]+)`", prose):
        if re.match(r"(starbattle-asp|python|pip|pytest|bash) ", span + " ") and " " in span:
            found.append((span, []))
    found += [(span, []) for span in re.findall(r"`(pytest)`", prose)]
    return list(dict.fromkeys((command, tuple(shown)) for command, shown in found).keys())


def readme_blocks() -> dict[str, str]:
    """The README's example outputs, by the command that prints them (see its text)."""
    text = README.read_text()
    blocks = {}
    shown = r"`([^`]+)` prints:\n\n( *)```\w*\n(.*?)\n\2```"
    for command, indent, block in re.findall(shown, text, re.DOTALL):
        blocks[command] = "".join(line.removeprefix(indent) + "\n" for line in block.split("\n"))
    return blocks


def masked(text: str) -> str:
    """Output with its timings masked."""
    text = re.sub(r"\d+\.\d+ s\)", "T s)", text)
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout with the files the README's examples name."""
    return make_checkout(tmp_path_factory.mktemp("readme") / "starbattle-asp")


def make_checkout(copy: Path) -> Path:
    """Copy the checkout to `copy` and make the files the README's examples name there."""
    shutil.copytree(
        ROOT, copy, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", ".venv")
    )
    (copy / "board.txt").write_text(BOARD)
    (copy / "marks.txt").write_text(MARKS)
    board = read_board(BOARD)
    [solution] = Solver(board).solutions(2)
    assert check(board, solution.stars) == []
    (copy / "answer.txt").write_text("\n".join(solution.grid()) + "\n")
    solved = write_board(board, "pzprv3")
    answer = "\n".join(" ".join("#" if ch == "*" else "+" for ch in row) for row in solution.grid())
    saved = str(solved).rstrip("\n").rsplit("\n", 10)[0]
    (copy / "saved-from-puzzlink.txt").write_text(f"{saved}\n{answer}\n")
    few = "\n".join(
        " ".join("#" if ch == "*" and r < 2 else "." for ch in row)
        for r, row in enumerate(solution.grid())
    )
    (copy / "saved.txt").write_text(f"{saved}\n{few}\n")
    program = "".join(
        (copy / "encodings" / "base" / f"{name}.lp").read_text()
        for name in ("domain", "choose", "rows", "columns", "regions", "notouch", "givens", "show")
    )
    (copy / "my-rules.lp").write_text(program)
    (copy / "mine.lp").write_text(program)
    two_cells = re.search(r"```prolog\n(% Two cells:.*?)```", README.read_text(), re.DOTALL)
    assert two_cells, "the README shows the two-cells program"
    (copy / "two-cells.lp").write_text(two_cells[1])
    unique = [read_board(str(copy / "instances" / f"{name}.lp")) for name in COLLECTION]
    (copy / "puzzles.jsonl").write_text(
        "".join(str(write_board(b, "json")).replace("\n", "") + "\n" for b in unique)
    )
    (copy / "puzzles.sbn").write_text("".join(str(write_board(b, "sbn")) for b in unique))
    shutil.copy(copy / "instances" / "pzprjs-6x6-1star.lp", copy / "a.lp")
    shutil.copy(copy / "instances" / "pzprjs-6x6-1star.lp", copy / "board.lp")
    (copy / "b.txt").write_text(str(write_board(read_board(BOARD), "txt")))
    if SCREENSHOT.is_file():
        shutil.copy(SCREENSHOT, copy / "screenshot.png")
    return copy


def environment() -> dict[str, str]:
    """The environment of a user's shell: this Python's scripts first, no real browser."""
    scripts = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}",
        "BROWSER": "true",  # `serve --open` runs `true URL` instead of a browser
        "PYTHONIOENCODING": "utf-8",
    }


def run(command: str, where: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a command line in bash, as a user types it."""
    return subprocess.run(
        ["bash", "-c", command],
        cwd=where,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _parameters() -> list[pytest.param]:  # type: ignore[valid-type]
    """One test per README command that is run, slow ones marked."""
    slow = ("generate -N 25", "generate -N 17", "generate -N 14", "--cluster", "dask ")
    return [
        pytest.param(
            command,
            shown,
            id=command[:80],
            marks=[pytest.mark.slow] if any(word in command for word in slow) else [],
        )
        for command, shown in readme_commands()
        if _runnable(command) not in NOT_RUN
    ]


def _runnable(command: str) -> str:
    """The part of a README command that this test runs (after an install, the rest)."""
    return command.removeprefix("pip install . && ")


def test_every_readme_command_is_run_or_said_why_not() -> None:
    commands = [command for command, _ in readme_commands()]
    assert len(commands) > 100
    stale = [command for command in NOT_RUN if command not in commands]
    assert stale == [], "NOT_RUN names commands the README no longer shows"
    stale = [command for command in EXPECTED if command not in commands]
    assert stale == [], "EXPECTED names commands the README no longer shows"


class _Cluster:
    """The scheduler's address once `dask scheduler` has started, and what runs in the back."""

    address: ClassVar[str | None] = None
    processes: ClassVar[list[subprocess.Popen[str]]] = []


def _start_service(command: str, where: Path) -> None:
    """Start a command that runs until stopped; check it came up, and what it serves."""
    if command.startswith("dask worker"):
        assert _Cluster.address, "dask scheduler ran first"
        command = command.replace("tcp://HOST:8786", _Cluster.address)
    process = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=where,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    started = time.monotonic()
    while time.monotonic() - started < 60:
        line = process.stdout.readline()
        assert line, f"{command} ended: exit {process.wait()}"
        if command == "dask scheduler" and "Scheduler at:" in line:
            _Cluster.address = line.split("Scheduler at:")[1].strip()
            break
        if command.startswith("dask worker") and "Registered to:" in line:
            break
        if "serving http://" in line:
            url = line.split("serving ")[1].split()[0]
            with urllib.request.urlopen(url, timeout=30) as page:
                assert page.status == 200 and b"<html" in page.read().lower()
            with urllib.request.urlopen(f"{url}api/start", timeout=30) as start:
                assert json.load(start)["board"]  # the puzzle it was started with
            process.send_signal(signal.SIGINT)
            assert process.wait(30) == 130
            return
    _Cluster.processes.append(process)


@pytest.fixture(scope="module", autouse=True)
def stop_services() -> Iterator[None]:
    """Stop the cluster's processes at the end."""
    yield
    for process in _Cluster.processes:
        process.terminate()
        process.wait(30)


@pytest.mark.parametrize(("command", "shown"), _parameters())
def test_readme_command(checkout: Path, command: str, shown: tuple[str, ...]) -> None:
    runnable = _runnable(command)
    if "screenshot.png" in runnable and not (checkout / "screenshot.png").exists():
        pytest.skip("../shared/corpus/screenshots is absent")
    if any(runnable.startswith(service) for service in SERVICES):
        _start_service(runnable, checkout)
        return
    if _Cluster.address is not None:
        runnable = runnable.replace("tcp://HOST:8786", _Cluster.address)
    elif "tcp://HOST" in runnable:
        pytest.skip("needs the README's dask scheduler (its test did not run)")
    result = run(runnable, checkout)
    expect = EXPECTED.get(command, Expect())
    said = f"{command}\nstdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-2000:]}"
    assert result.returncode == expect.code, said
    assert "Traceback" not in result.stderr, said
    for part in (*expect.prints, *shown):
        assert part in result.stdout, f"{part!r} not printed by {said}"
    printed = readme_blocks().get(runnable)
    if printed is not None:
        assert masked(result.stdout) == masked(printed), said
    written = re.search(r"(?:-o |> )(\S+)", runnable)
    if written:
        target = checkout / written[1]
        if target.suffix in (".png", ".svg") and "-n 0" in runnable:
            target = target.with_name(f"{target.stem}-1{target.suffix}")
        assert target.exists() and (target.is_dir() or target.stat().st_size), said


def python_blocks() -> list[str]:
    """The README's Python examples."""
    blocks = re.findall(r"```(\w*)\n(.*?)```", README.read_text(), re.DOTALL)
    return [block for language, block in blocks if language == "python"]


@pytest.mark.parametrize("block", python_blocks())
def test_readme_python(checkout: Path, block: str) -> None:
    script = checkout / "snippet.py"
    script.write_text(block)
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for comment in re.findall(r"^print\(.*\)\s+# prints (.+)$", block, re.MULTILINE):
        assert comment in result.stdout.splitlines(), (comment, result.stdout)
