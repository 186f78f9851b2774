"""Difficulty calibration: grade features of the labelled corpus, fitted weights, agreement.

    python benchmarks/grade.py extract [-j 2] [--cache /tmp/grade-features.jsonl]
    python benchmarks/grade.py fit [--cache ...] [--write]

`extract` grades every puzzle of ../shared/corpus/difficulty.jsonl (in a fixed shuffled
order, so a partial cache is a random sample) and appends each one's raw features and
grading time to the cache; run again, it skips what the cache holds. `fit` splits the cached
puzzles into a fitting half and a held-out half (seed 14, stratified by label scale), fits
the score's weights on the fitting half's StarBattleLab tiers (least squares on the label
rank, then a search for the cut points), and reports on the held-out half per label scale
Spearman's rho with a bootstrap 95% interval, and per tier the score distribution. `--write`
replaces the section between the grade markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from starbattle import Board
from starbattle.grade import features

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
SEED = 14
CAP = 30
"""Seconds a puzzle may take to grade in the benchmark (the rest are counted as over it)."""


def labelled() -> list[dict]:
    """The labelled puzzles, in the fixed shuffled order."""
    with open(CORPUS / "difficulty.jsonl") as lines:
        puzzles = [json.loads(line) for line in lines]
    random.Random(SEED).shuffle(puzzles)
    return puzzles


class Overtime(Exception):
    """A puzzle took longer than the cap."""


def overtime(signum: int, frame: object) -> None:
    """The alarm's handler."""
    raise Overtime


def measure(puzzle: dict, cap: int = CAP) -> dict:
    """One puzzle's raw features and the seconds grading took (None past `cap` seconds)."""
    started = time.perf_counter()
    signal.signal(signal.SIGALRM, overtime)
    signal.alarm(cap)
    try:
        raw = features(Board.from_rows(puzzle["regions"], puzzle["stars"]))
    except Overtime:
        raw = None
    finally:
        signal.alarm(0)
    return {"id": puzzle["id"], "raw": raw, "seconds": time.perf_counter() - started}


def extract(cache: Path, jobs: int) -> None:
    """Grade every labelled puzzle not yet in the cache, appending as each one finishes."""
    done = {json.loads(line)["id"] for line in cache.open()} if cache.is_file() else set()
    todo = [p for p in labelled() if p["id"] not in done]
    started = time.perf_counter()
    with Pool(jobs) as pool, cache.open("a") as out:
        for k, row in enumerate(pool.imap_unordered(measure, todo), start=1):
            out.write(json.dumps(row) + "\n")
            out.flush()
            if k % 50 == 0:
                print(f"{k}/{len(todo)} in {time.perf_counter() - started:.0f} s", flush=True)
    print(f"{len(todo)} graded with -j {jobs} in {time.perf_counter() - started:.0f} s")


def main() -> None:
    """Run the asked step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("extract", "fit"))
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/grade-features.jsonl"))
    parser.add_argument("--write", action="store_true")
    arguments = parser.parse_args()
    if arguments.step == "extract":
        extract(arguments.cache, arguments.jobs)


if __name__ == "__main__":
    main()
