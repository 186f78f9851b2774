"""Fuzz every board reader, and the command line's options and encodings; write the counts down.

    python tools/fuzz_readers.py [--readers N] [--cli N] [--seed S] [--jobs J] [--exec]
    (defaults: 100000 inputs per reader, 10000 command lines, seed 1, 2 at a time)

Readers: half the inputs are mutations of valid boards in every format (1 to 4 random edits:
dropped, duplicated or swapped lines and characters, truncation, odd characters, huge
numbers), a quarter random printable text, a quarter random code points. A reader passes
when every input gives a Board or a StarBattleError.

Command line: random command lines of solve, check, convert, bench and generate with valid,
odd and hostile values of --timeout, -c, -n, -t, -j, --stars, -e, -w, -f, -o and generate's
-N, -s, -k, --seed, --min-region and --timeout; the -e files come from a catalogue (the
shipped program, mutations of it, syntax errors, wrong star/2 atoms, bytes that are not
UTF-8, endless grounding, ...). Each runs the installed CLI's entry point (`starbattle.cli.main
:main`, what the `starbattle-asp` script runs) in a child process forked from this one, which
has imported it once (`--exec` starts `starbattle-asp` itself instead: ~10x slower), with a
wall limit of LIMIT seconds. A command line fails when it prints a traceback, exits 70, or
dies of a signal; one still running at the limit is killed and counted apart.

Each part writes its own section of benchmarks/fuzz-results.md (--readers 0 or --cli 0
skips a part and keeps its section).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "io"), str(ROOT / "benchmarks")]

from fuzzing import mutate  # noqa: E402 (tests/io/: test code, not part of the package)
from results import write_section  # noqa: E402

from starbattle import StarBattleError, read_board, solve, write_board  # noqa: E402
from starbattle.io.formats.answer import read_answer  # noqa: E402
from starbattle.io.inputs import READERS, TEXT_WRITERS, parse_board  # noqa: E402

RESULTS = ROOT / "benchmarks" / "fuzz-results.md"
TITLE = "Fuzzing the readers and the command line"
PRINTABLE = "".join(chr(c) for c in range(32, 127)) + "\n\n\n"
LIMIT = 10.0
EXCEPTION = re.compile(r"[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b")


def seeds() -> dict[str, list[str]]:
    """Every shipped instance in every text format that can hold it, by format."""
    texts: dict[str, list[str]] = {fmt: [] for fmt in TEXT_WRITERS}
    for path in sorted((ROOT / "instances").glob("*.lp")):
        board = read_board(str(path))
        for fmt in TEXT_WRITERS:
            with contextlib.suppress(StarBattleError):  # e.g. givens have no place in a URL
                texts[fmt].append(str(write_board(board, fmt)))
    return texts


def random_input(rng: random.Random, valid: list[str]) -> str:
    """One fuzz input for a reader."""
    kind = rng.random()
    if kind < 0.5:
        return mutate(rng.choice(valid), rng, rng.randint(1, 4))
    length = rng.randint(0, 200)
    if kind < 0.75:
        return "".join(rng.choice(PRINTABLE) for _ in range(length))
    return (
        "".join(chr(rng.randrange(0x110000)) for _ in range(length))
        .encode("utf-8", "replace")
        .decode("utf-8", "replace")
    )


def fuzz_readers(count: int, seed: int) -> str:
    """Fuzz every reader with `count` inputs; the results section."""
    by_format = seeds()
    every = [text for texts in by_format.values() for text in texts]
    readers: dict[str, Callable[[str], object]] = {
        name: (lambda text, reader=reader: reader(text, name="fuzz"))
        for name, reader in READERS.items()
    }
    readers["auto-detect"] = lambda text: parse_board(text, name="fuzz")
    readers["answer"] = lambda text: read_answer(text, 10, name="fuzz")
    rows, problems = [], []
    warnings.simplefilter("ignore")
    started = time.perf_counter()
    for name, read in readers.items():
        rng = random.Random(f"{seed}-{name}")
        valid = by_format.get(name, every)
        tally: Counter[str] = Counter()
        begun = time.perf_counter()
        for _ in range(count):
            text = random_input(rng, valid)
            try:
                read(text)
                tally["board"] += 1
            except StarBattleError:
                tally["error"] += 1
            except Exception as error:  # a bug: record it
                tally["crash"] += 1
                if tally["crash"] <= 3:
                    problems.append(
                        f"- {name}: {type(error).__name__}: {error} on {text[:80]!r}"
                        f"\n```\n{traceback.format_exc(limit=3)}```"
                    )
        rows.append(
            f"| {name} | {count} | {tally['board']} | {tally['error']} | "
            f"{tally['crash']} | {time.perf_counter() - begun:.1f} s |"
        )
    return "\n".join(
        [
            "## Readers",
            "",
            f"`python tools/fuzz_readers.py --readers {count} --cli 0 --seed {seed}`: mutations "
            f"start from the {len(every)} valid texts (every instance in every format that "
            "holds it; each format's reader from its own, auto-detection and answers from "
            f"all), {time.perf_counter() - started:.0f} s in all. 'board' and 'error' (a "
            "StarBattleError with a message) are the two allowed outcomes; 'crash' is any "
            "other exception.",
            "",
            "| reader | inputs | board | error | crash | time |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            "Crashes:" if problems else "No crashes.",
            *problems,
        ]
    )


# Values of each option: valid ones, edge cases and hostile ones.
TIMEOUTS = ["0.5", "1", "2", "0.001", "0", "-1", "inf", "1e30", "nan", "x", "", "1e-300", "1_0"]
CONSTANTS = ["n=3", "x=1).", "x=1..3", "x=f(X)", "=", "n=", "N=3", 'n="s"', "n=#inf", "a b=1"]
CONSTANTS += ["n=3\n", "n=99999999999", "n=-1", "_=1", "n=3;m=4", "n=a:-b"]
MODELS = ["0", "1", "2", "3", "-1", "18446744073709551615", "1e3", "x", "9" * 30, ""]
THREADS = ["1", "2", "4", "0", "-1", "64", "65", "100000", "x", "2,competition"]
JOBS = ["1", "2", "3", "0", "-1", "256", "257", "x"]
STARS = ["1", "2", "3", "0", "-1", "6", "99999", "x", "1e9", "9" * 30]
VARIANTS = ["plain", "torus", "orthogonal", "notouch-windows", "nope", "", "torus,plain"]
SOLVE_FORMATS = ["text", "json", "lp", "pzprv3", "svg", "png", "csv"]
SIZES = ["1", "2", "3", "4", "5", "6", "7", "8", "10", "12", "0", "-1", "200", "201", "x", "1e3"]
GENERATE_STARS = ["1", "1", "2", "2", "3", "0", "-1", "99", "x"]
COUNTS = ["1", "1", "2", "3", "0", "-1", "x", "100"]
MIN_REGIONS = ["1", "3", "5", "100", "0", "-1", "x"]
GENERATE_FORMATS = ["txt", "lp", "json", "url", "sbn", "pzprv3", "svg"]
SEED_PARTS = ["0", "42", "abc", "a/b", "é★", "\n", "\r", "\t", "\x00", "\x1b[31m", "\u2028"]
SEED_PARTS += ["\u202e", " ", "%", "-", "--help", "9" * 400, "x" * 5000]

PROGRAMS = {
    "syntax.lp": "star(R,C :- region(R,C,_).\n",
    "unsafe.lp": "star(R,C) :- X > 1.\n",
    "nostar.lp": "a :- b.\n",
    "noshow.lp": "{ star(R,C) : region(R,C,_) }.\n#show.\n",
    "offboard.lp": "star(0,0). star(99,99).\n#show star/2.\n",
    "symbolic.lp": "star(a,b).\n#show star/2.\n",
    "hugeint.lp": "star(2147483647,1). star(1,-2147483648).\n",
    "strings.lp": 'star("x","y").\n',
    "onestar.lp": "star(1,1).\n",
    "endless.lp": "p(0). p(X+1) :- p(X).\n",
    "empty.lp": "",
    "include-missing.lp": '#include "nowhere.lp".\n',
    "include-self.lp": '#include "include-self.lp".\nstar(1,1).\n',
    "theory.lp": "&diff { x } <= 1.\n",
    "const.lp": "#const n = 2.\nstar(n,1).\n",
    "external.lp": "#external star(1,1).\n#show star/2.\n",
    "choose-only.lp": "{ star(R,C) : region(R,C,_) }.\n#show star/2.\n",
    "pigeons.lp": "p(1..9). h(1..8). 1 { in(P,H) : h(H) } 1 :- p(P).\n"
    ":- h(H), 2 { in(P,H) : p(P) }.\n{ star(R,C) : region(R,C,_) }.\n#show star/2.\n",
}
BYTES = {"latin1.lp": b"caf\xe9(1).\nstar(1,1).\n", "binary.lp": bytes(range(256)) * 4}


@dataclass
class Catalogue:
    """The files the command lines name, made in a scratch folder."""

    folder: Path
    boards: list[str]
    answers: list[str]
    programs: list[str]
    default_program: str


def catalogue(folder: Path) -> Catalogue:
    """Write boards, answers and programs into the folder."""
    instances = sorted(str(path) for path in (ROOT / "instances").glob("*.lp"))
    small = [path for path in instances if "25x25" not in path and "21x21" not in path]
    unique = read_board(str(ROOT / "instances" / "pzprjs-6x6-1star.lp"))
    (folder / "collection.jsonl").write_text(
        "".join(
            json.dumps({"id": f"p{k}", **json.loads(str(write_board(read_board(path), "json")))})
            + "\n"
            for k, path in enumerate(small[:5])
        )
        + "{not json\n"
    )
    (folder / "board.txt").write_text(str(write_board(unique, "txt")))
    (folder / "empty.txt").write_text("")
    (folder / "nosolution.txt").write_text("stars: 1\nAAB\nAAB\nCCC\n")
    boards = [*small, *(str(folder / name) for name in ("collection.jsonl", "board.txt"))]
    boards += [str(folder / "empty.txt"), str(folder / "nosolution.txt"), str(folder), "-"]
    boards += [str(folder / "missing.txt"), str(write_board(unique, "url")).strip()]
    (solution,) = solve(unique, 1)
    grid = [["*" if (r, c) in solution.stars else "x" for c in range(1, 7)] for r in range(1, 7)]
    (folder / "solution.txt").write_text("".join("".join(row) + "\n" for row in grid))
    grid[0] = ["*" if mark == "x" else "x" for mark in grid[0]]  # a wrong first row
    (folder / "wrong.txt").write_text("".join("".join(row) + "\n" for row in grid))
    partial = [["." if r > 1 else mark for mark in row] for r, row in enumerate(grid)]
    (folder / "partial.txt").write_text("".join("".join(row) + "\n" for row in partial))
    answers = [str(folder / name) for name in ("solution.txt", "wrong.txt", "partial.txt")]
    answers += [str(folder / "board.txt")]
    answers += [str(folder / "missing.txt")]
    for name, text in PROGRAMS.items():
        (folder / name).write_text(text)
    for name, data in BYTES.items():
        (folder / name).write_bytes(data)
    default = str(ROOT / "encodings" / "starbattle.lp")
    programs = [default, str(ROOT / "encodings" / "base" / "choose.lp")]
    programs += [str(folder / name) for name in [*PROGRAMS, *BYTES]]
    programs += [str(folder / "missing.lp"), str(folder)]
    return Catalogue(folder, boards, answers, programs, default)


def whole_program() -> str:
    """The shipped default program as one text (its #includes inlined)."""
    folder = ROOT / "encodings"
    lines = (folder / "starbattle.lp").read_text().splitlines()
    return "\n".join(
        (folder / line.split('"')[1]).read_text() if line.startswith("#include") else line
        for line in lines
    )


def program(rng: random.Random, files: Catalogue, number: int) -> str:
    """An -e file: from the catalogue, or a fresh mutation of the default program."""
    if rng.random() < 0.25:
        path = files.folder / f"mutant-{number}.lp"
        path.write_text(mutate(whole_program(), rng, rng.randint(1, 3)))
        return str(path)
    return rng.choice(files.programs)


def maybe(rng: random.Random, chance: float, option: str, values: list[str]) -> list[str]:
    """[option, value] with this chance, else []."""
    return [option, rng.choice(values)] if rng.random() < chance else []


def solve_line(rng: random.Random, files: Catalogue, number: int) -> list[str]:
    """A random solve command line."""
    args = ["solve"] if rng.random() < 0.5 else []
    args += rng.sample(files.boards, k=rng.choice([1, 1, 1, 2, 3]))
    args += maybe(rng, 0.5, "--timeout", TIMEOUTS)
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        args += ["-c", rng.choice(CONSTANTS)]
    args += maybe(rng, 0.3, "-n", MODELS)
    args += maybe(rng, 0.2, "-t", THREADS)
    args += maybe(rng, 0.25, "-j", JOBS)
    args += maybe(rng, 0.25, "--stars", STARS)
    if rng.random() < 0.35:
        args += ["-e", program(rng, files, number)]
    args += maybe(rng, 0.15, "-w", [*VARIANTS, *files.programs[:3]])
    args += rng.choice([[], [], [], [], ["--count"], ["--unique"], ["--fixed"], ["--stats"]])
    args += maybe(rng, 0.25, "-f", SOLVE_FORMATS)
    args += maybe(rng, 0.1, "-o", [f"out-{number}", f"out-{number}.png", "."])
    return args


def check_line(rng: random.Random, files: Catalogue, number: int) -> list[str]:
    """A random check command line."""
    args = ["check", rng.choice(files.boards[:-1]), rng.choice(files.answers)]
    args += maybe(rng, 0.3, "--stars", STARS)
    args += ["--against-solution"] if rng.random() < 0.3 else []
    args += maybe(rng, 0.3, "--timeout", TIMEOUTS)
    return args


def convert_line(rng: random.Random, files: Catalogue, number: int) -> list[str]:
    """A random convert command line."""
    args = ["convert", rng.choice(files.boards), "--to", rng.choice([*GENERATE_FORMATS, "png"])]
    args += maybe(rng, 0.3, "--stars", STARS)
    args += maybe(rng, 0.3, "-o", [f"out-{number}", "."])
    return args


def bench_line(rng: random.Random, files: Catalogue, number: int) -> list[str]:
    """A random bench command line."""
    args = ["bench", *rng.sample(files.boards[:8], k=rng.choice([1, 2]))]
    for _ in range(rng.choice([0, 1, 2])):
        args += ["-e", rng.choice(["default", program(rng, files, number)])]
    args += maybe(rng, 0.3, "-w", VARIANTS)
    args += maybe(rng, 0.3, "-n", MODELS)
    args += maybe(rng, 0.5, "--timeout", TIMEOUTS)
    args += maybe(rng, 0.3, "-f", ["text", "json", "lp"])
    return args


def generate_line(rng: random.Random, files: Catalogue, number: int) -> list[str]:
    """A random generate command line."""
    args = ["generate", "-N", rng.choice(SIZES), "-s", rng.choice(GENERATE_STARS)]
    args += maybe(rng, 0.4, "-k", COUNTS)
    if rng.random() < 0.6:
        args += ["--seed", "".join(rng.choice(SEED_PARTS) for _ in range(rng.randint(1, 3)))]
    args += maybe(rng, 0.2, "--min-region", MIN_REGIONS)
    args += maybe(rng, 0.6, "--timeout", TIMEOUTS)
    args += maybe(rng, 0.3, "-f", GENERATE_FORMATS)
    args += maybe(rng, 0.2, "-o", [f"out-{number}", "."])
    return args


COMMANDS = {
    "solve": (0.5, solve_line),
    "check": (0.12, check_line),
    "convert": (0.08, convert_line),
    "bench": (0.1, bench_line),
    "generate": (0.2, generate_line),
}


@dataclass
class Case:
    """One command line and how it ended."""

    command: str
    args: list[str]
    stdin: bytes
    code: int | None = None
    errors: str = ""
    seconds: float = 0.0

    def verdict(self) -> str:
        """'pass', or what went wrong."""
        if self.code is None:
            return "over limit"
        if self.code < 0:
            return f"signal {signal.Signals(-self.code).name}"
        if "Traceback (most recent call last)" in self.errors:
            return "traceback"
        if self.code == 70:
            return "exit 70"
        return "pass"

    def shell(self, scratch: str) -> str:
        """The command line as one could paste it from the checkout (stdin a redirection)."""
        args = [arg.replace(f"{ROOT}/", "").replace(scratch, "scratch") for arg in self.args]
        line = shlex.join(["starbattle-asp", *args])
        return f"{line} < board.txt" if self.stdin else line

    def what(self) -> str:
        """The line of stderr that says what went wrong (a traceback's exception line)."""
        lines = self.errors.strip().splitlines() or ["(nothing on stderr)"]
        if self.verdict() == "traceback":
            lines = [line for line in lines if EXCEPTION.match(line)] or lines
        return lines[-1][:200]


def run_in_fork(args: list[str], source: Path, errors: Path, folder: Path) -> int:
    """Fork a child that runs the CLI's main on these arguments; its pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:  # the child: never returns
        os.setsid()  # its own group, so that a hung case is killed with its workers
        signal.signal(signal.SIGINT, signal.default_int_handler)
        with open(source, "rb") as given, open(errors, "wb") as stderr:
            os.dup2(given.fileno(), 0)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            os.dup2(stderr.fileno(), 2)
        os.chdir(folder)
        sys.argv = ["starbattle-asp", *args]
        from starbattle.cli.main import main

        main()
        code = 0
    except SystemExit as end:
        code = end.code if isinstance(end.code, int) else 0 if end.code is None else 1
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def run_cases(cases: list[Case], folder: Path, jobs: int, use_exec: bool) -> None:
    """Run every case, `jobs` at a time, each within LIMIT seconds."""
    running: dict[int, tuple[Case, int, float]] = {}
    for number, case in enumerate(cases):
        while len(running) >= jobs:
            time.sleep(0.002)
            collect(running, folder)
        source, errors = folder / f".stdin-{number}", folder / f".stderr-{number}"
        source.write_bytes(case.stdin)
        if use_exec:
            with open(source, "rb") as given, open(errors, "wb") as stderr:
                pid = subprocess.Popen(
                    ["starbattle-asp", *case.args],
                    stdin=given,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    cwd=folder,
                    start_new_session=True,
                ).pid
        else:
            pid = run_in_fork(case.args, source, errors, folder)
        running[pid] = (case, number, time.perf_counter())
    while running:
        time.sleep(0.002)
        collect(running, folder)


def collect(running: dict[int, tuple[Case, int, float]], folder: Path) -> None:
    """Record the cases that ended, and kill those past the limit (with their workers)."""
    for pid, (case, number, started) in list(running.items()):
        waited, status = os.waitpid(pid, os.WNOHANG)
        if not waited and time.perf_counter() - started < LIMIT:
            continue
        with contextlib.suppress(ProcessLookupError):  # a hung case, or workers left behind
            os.killpg(pid, signal.SIGKILL)
        if waited:
            case.code = os.waitstatus_to_exitcode(status)
        else:
            os.waitpid(pid, 0)
        case.seconds = time.perf_counter() - started
        case.errors = (folder / f".stderr-{number}").read_text(errors="replace")[-4000:]
        (folder / f".stderr-{number}").unlink()
        (folder / f".stdin-{number}").unlink()
        del running[pid]


def make_cases(count: int, seed: int, files: Catalogue) -> list[Case]:
    """`count` random command lines."""
    rng = random.Random(f"{seed}-cli")
    names = list(COMMANDS)
    weights = [COMMANDS[name][0] for name in names]
    cases = []
    board = str(write_board(read_board(str(ROOT / "instances" / "norvig-5x5-1star.lp")), "txt"))
    for number in range(count):
        name = rng.choices(names, weights)[0]
        args = COMMANDS[name][1](rng, files, number)
        cases.append(Case(name, args, board.encode() if "-" in args else b""))
    return cases


def fuzz_cli(count: int, seed: int, jobs: int, use_exec: bool) -> str:
    """Run `count` random command lines; the results section."""
    import starbattle.cli.main  # noqa: F401 (imported once, before the children are forked)

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fuzz-cli-") as scratch:
        files = catalogue(Path(scratch))
        cases = make_cases(count, seed, files)
        run_cases(cases, Path(scratch), jobs, use_exec)
        folder = str(Path(scratch).resolve())
    by_command: dict[str, Counter[str]] = {name: Counter() for name in COMMANDS}
    codes: dict[str, Counter[int | None]] = {name: Counter() for name in COMMANDS}
    examples: dict[tuple[str, str], list[Case]] = {}
    for case in cases:
        verdict = case.verdict()
        by_command[case.command][verdict] += 1
        codes[case.command][case.code] += 1
        if verdict != "pass":
            examples.setdefault((case.command, verdict), []).append(case)
    kinds = ["pass", "traceback", "exit 70", "over limit"]
    kinds += sorted({v for tally in by_command.values() for v in tally} - set(kinds))
    rows = [
        f"| {name} | {sum(tally.values())} | "
        + " | ".join(str(tally[kind]) for kind in kinds)
        + f" | {', '.join(f'{code}: {n}' for code, n in sorted(codes[name].items(), key=str))} |"
        for name, tally in by_command.items()
    ]
    total = Counter[str]()
    for tally in by_command.values():
        total.update(tally)
    shown = []
    for (command, verdict), failed in sorted(examples.items()):
        shown.append(f"- {command}, {verdict}: {len(failed)}, e.g.")
        for case in failed[:3]:
            shown.append(f"  - `{case.shell(folder)[:300]}` → {case.what()}")
    mode = "a fresh `starbattle-asp` each (--exec)" if use_exec else "forked children"
    return "\n".join(
        [
            "## Command line: options and encodings",
            "",
            f"`python tools/fuzz_readers.py --readers 0 --cli {count} --seed {seed} --jobs "
            f"{jobs}{' --exec' if use_exec else ''}`: {count} command lines run in {mode}, "
            f"{jobs} at a time, {LIMIT:g} s wall limit each, "
            f"{time.perf_counter() - started:.0f} s in all. "
            f"**{total['traceback']} tracebacks, {total['exit 70']} exit 70**, "
            f"{sum(n for kind, n in total.items() if kind.startswith('signal'))} killed by a "
            f"signal, {total['over limit']} still running at the limit.",
            "",
            f"| command | runs | {' | '.join(kinds)} | exit codes |",
            f"|---|---|{'---|' * len(kinds)}---|",
            *rows,
            "",
            "What did not pass (first examples of each):" if shown else "Every run passed.",
            "",
            *shown,
        ]
    )


def main() -> None:
    """Run the fuzzers and write benchmarks/fuzz-results.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readers", type=int, default=100_000, help="inputs per reader")
    parser.add_argument("--cli", type=int, default=10_000, help="command lines")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="command lines run at a time")
    parser.add_argument("--exec", action="store_true", help="start starbattle-asp for each")
    options = parser.parse_args()
    failed = False
    for part, count, run in (
        ("readers", options.readers, lambda: fuzz_readers(options.readers, options.seed)),
        (
            "cli",
            options.cli,
            lambda: fuzz_cli(options.cli, options.seed, options.jobs, options.exec),
        ),
    ):
        if count:
            section = run()
            print(section, flush=True)
            failed |= "Crashes:" in section or "What did not pass" in section
            begin, end = f"<!-- {part}: begin -->", f"<!-- {part}: end -->"
            write_section(begin, end, f"{begin}\n{section}\n{end}", RESULTS, TITLE)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
