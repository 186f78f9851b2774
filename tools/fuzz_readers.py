"""Fuzz every board reader and write the counts down.

    python tools/fuzz_readers.py [INPUTS_PER_READER] [SEED]   (defaults: 100000, 1)

Inputs: half are mutations of valid boards in every format (1 to 4 random edits: dropped,
duplicated or swapped lines and characters, truncation, odd characters, huge numbers), a
quarter random printable text, a quarter random code points. A reader passes when every
input gives a Board or a StarBattleError. Results go to benchmarks/fuzz-results.md.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
import traceback
import warnings
from collections import Counter
from pathlib import Path

from starbattle import StarBattleError, read_board, write_board
from starbattle.formats import READERS, TEXT_WRITERS, parse_board
from starbattle.formats.answer import read_answer
from starbattle.fuzzing import mutate

ROOT = Path(__file__).resolve().parent.parent
PRINTABLE = "".join(chr(c) for c in range(32, 127)) + "\n\n\n"


def seeds() -> dict[str, list[str]]:
    """Every shipped instance in every text format that can hold it, by format."""
    texts: dict[str, list[str]] = {fmt: [] for fmt in TEXT_WRITERS}
    for path in sorted((ROOT / "instances").glob("*.lp")):
        board = read_board(str(path))
        for fmt in TEXT_WRITERS:
            with contextlib.suppress(StarBattleError):  # e.g. givens have no place in a URL
                texts[fmt].append(write_board(board, fmt))
    return texts


def random_input(rng: random.Random, valid: list[str]) -> str:
    """One fuzz input."""
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


def main() -> None:
    """Run the fuzzer and write benchmarks/fuzz-results.md."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    by_format = seeds()
    every = [text for texts in by_format.values() for text in texts]
    readers = {
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
    text = "\n".join(
        [
            "# Fuzzing the readers",
            "",
            f"`python tools/fuzz_readers.py {count} {seed}`: mutations start from the "
            f"{len(every)} valid texts (every instance in every format that holds it; each "
            "format's reader from its own, auto-detection and answers from all), "
            f"{time.perf_counter() - started:.0f} s in all. "
            "'board' and 'error' (a StarBattleError with a message) are the two allowed "
            "outcomes; 'crash' is any other exception.",
            "",
            "| reader | inputs | board | error | crash | time |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            "Crashes:" if problems else "No crashes.",
            *problems,
            "",
        ]
    )
    (ROOT / "benchmarks" / "fuzz-results.md").write_text(text)
    print(text)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
