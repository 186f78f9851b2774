"""Difficulty calibration: grade features of the labelled corpus, fitted weights, agreement.

    python benchmarks/grade.py extract [-j 2] [--cache /tmp/grade-trace.jsonl]
    python benchmarks/grade.py fit [--cache ...] [--write]
    python benchmarks/grade.py make [--tiers easy expert] [--seeds 5] [--attempts 200] [--write]
    python benchmarks/grade.py speed [--sample 200] [--write]

`extract` grades every puzzle of ../shared/corpus/difficulty.jsonl (fixed shuffled order: a
partial cache is a random sample) and appends each one's trace summary, search effort and
grading time to the cache (a new cache after the ladder changes); run again, it skips what the
cache holds. `fit` splits the cached puzzles into a fitting half and a held-out half (seed 14,
stratified by label scale), fits the weights on the fitting half's StarBattleLab tiers (least
squares on the label rank, then the cut points: benchmarks/grade_fit.py), and reports on the
held-out half rho per label scale and per size class, the tiers given per label, and other
sources' normal or easy puzzles graded above hard; and how rho varies over 20 random halves.
`--write` replaces the grade section of benchmarks/RESULTS.md and WEIGHTS and CUTS in
starbattle/logic/grade.py. `make` times `generate_graded` for 10x10 2-star puzzles
of each tier (`--write`: the grade-make section); `speed` times `grade` on labelled 10x10
2-star puzzles (`--write`: the grade-speed section).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from types import FrameType

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from grade_fit import (
    PACED,
    SEED,
    cross_validated,
    fit_cuts,
    fit_weights,
    random_halves,
    rho_with_interval,
)
from results import write_section

import starbattle.logic.grade as grade_module
from starbattle import Board
from starbattle.logic.grade import (
    canonical_board,
    grade,
    measure,
    rules,
    score_of,
    share,
    summarise,
    tier_of,
)
from starbattle.logic.graded import Asked, NoneAsAsked, generate_graded
from starbattle.logic.registry import EFFORTS
from starbattle.model.steps import TIERS

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
SORTER = "StarBattleLab collection"
"""The start of the label scale the weights are fitted on (StarBattleLab's four tiers)."""
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


def overtime(signum: int, frame: FrameType | None) -> None:
    """The alarm's handler: raise Overtime, or ask again soon while clingo calls back.

    An exception raised inside one of clingo's callbacks ends the process (std::terminate).
    """
    while frame is not None:
        if "clingo" in Path(frame.f_code.co_filename).parts:
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            return
        frame = frame.f_back
    raise Overtime


def timed(puzzle: dict, cap: int = CAP) -> dict:
    """One puzzle's trace summary and search facts (see `measure`) and the seconds they took.

    `measured` is None past `cap` seconds, the solution count when it is not 1.
    """
    started = time.perf_counter()
    signal.signal(signal.SIGALRM, overtime)
    signal.alarm(cap)
    try:
        measured = measure(canonical_board(Board.from_rows(puzzle["regions"], puzzle["stars"])))
    except Overtime:
        measured = None
    finally:
        signal.alarm(0)
    return {"id": puzzle["id"], "measured": measured, "seconds": time.perf_counter() - started}


def raw_features(row: dict) -> dict | None:
    """A cached row's raw features (None when over the cap or not unique)."""
    measured = row["measured"]
    return summarise(*measured) if isinstance(measured, list) else None


def extract(cache: Path, jobs: int) -> None:
    """Grade every labelled puzzle not yet in the cache, appending as each one finishes."""
    done = {json.loads(line)["id"] for line in cache.open()} if cache.is_file() else set()
    todo = [p for p in labelled() if p["id"] not in done]
    started = time.perf_counter()
    with Pool(jobs) as pool, cache.open("a") as out:
        for k, row in enumerate(pool.imap_unordered(timed, todo), start=1):
            out.write(json.dumps(row) + "\n")
            out.flush()
            if k % 50 == 0:
                print(f"{k}/{len(todo)} in {time.perf_counter() - started:.0f} s", flush=True)
    wall = time.perf_counter() - started
    print(f"{len(todo)} graded with -j {jobs} in {wall:.0f} s")
    if not done:  # a whole run: its wall time goes into the report
        wall_file(cache).write_text(f"{len(todo)} {jobs} {wall:.0f}\n")


def wall_file(cache: Path) -> Path:
    """Where `extract` notes how long a whole run took: puzzles, jobs, seconds."""
    return cache.with_suffix(".wall")


def scale_name(puzzle: dict) -> str:
    """A label scale's short name (the part of `label_scale` before its first parenthesis)."""
    return puzzle["label_scale"].split("(")[0].split(",")[0].strip()


def split(puzzles: list[dict]) -> tuple[list[dict], list[dict]]:
    """The fitting half and the held-out half: alternate puzzles of each scale (shuffled order)."""
    seen: Counter[str] = Counter()
    fit, held = [], []
    for puzzle in puzzles:
        (fit if seen[puzzle["label_scale"]] % 2 == 0 else held).append(puzzle)
        seen[puzzle["label_scale"]] += 1
    return fit, held


def spread(rhos: list[float]) -> str:
    """Rho over random halves: mean, standard deviation, least and most."""
    return f"{np.mean(rhos):.3f} ± {np.std(rhos):.3f} ({min(rhos):.3f} to {max(rhos):.3f})"


def gentle(puzzle: dict) -> bool:
    """Whether another source than StarBattleLab's tiers labels the puzzle normal or easy
    (no such puzzle may be graded above hard)."""
    return not puzzle["label_scale"].startswith(SORTER) and puzzle["label"] in ("normal", "easy")


def rho(group: list[dict], score: dict[str, float]) -> str:
    """Spearman's rho of a group's scores against its label ranks ('' with one label)."""
    if len({p["label_rank"] for p in group}) < 2:
        return ""
    ranks = [p["label_rank"] for p in group]
    return f"{spearmanr([score[p['id']] for p in group], ranks).statistic:.3f}"


def with_search(fitted: list[dict], held: list[dict], score: dict[str, float]) -> float:
    """Held-out rho of the score plus a fitted term of clingo's conflicts per row."""
    terms = {p["id"]: [1.0, score[p["id"]], math.log1p(p["raw"]["conflicts"] / p["raw"]["size"])]
             for p in fitted + held}  # fmt: skip
    y = np.array([p["label_rank"] for p in fitted], dtype=float)
    weights, *_ = np.linalg.lstsq(np.array([terms[p["id"]] for p in fitted]), y, rcond=None)
    values = np.array([terms[p["id"]] for p in held]) @ weights
    return float(spearmanr(values, [p["label_rank"] for p in held]).statistic)


def fit(cache: Path, write: bool) -> None:
    """Fit the weights on one half, report agreement on the other."""
    measured = {row["id"]: row for row in map(json.loads, cache.open())}
    puzzles = [
        {**p, **measured[p["id"]], "raw": raw_features(measured[p["id"]])}
        for p in labelled()
        if p["id"] in measured
    ]
    graded = [p for p in puzzles if p["raw"] is not None and p["raw"]["steps"]]
    over = [p for p in puzzles if p["measured"] is None]
    fitting, held = split(graded)
    sbl = [p for p in fitting if p["label_scale"].startswith(SORTER)]
    sbl_all = [p for p in graded if p["label_scale"].startswith(SORTER)]
    halves = random_halves(sbl_all)
    weights = fit_weights(sbl)
    score = {p["id"]: score_of(p["raw"], weights) for p in graded}
    cuts = fit_cuts(
        np.array([score[p["id"]] for p in sbl]),
        np.array([p["label_rank"] for p in sbl]),
        np.array([score[p["id"]] for p in fitting if gentle(p)]),
        weights["is_machine"],
    )
    tier = {p["id"]: tier_of(score[p["id"]], cuts) for p in graded}
    lines = [
        "<!-- grade: begin -->",
        "## Difficulty grade (`python benchmarks/grade.py fit --write`)",
        "",
        f"{len(puzzles)} of 1,909 labelled puzzles measured ({len(graded)} graded, "
        f"{len(over)} over the {CAP} s cap per puzzle, left out); fitted on "
        f"{len(sbl)} StarBattleLab-tier puzzles of the fitting half, reported on the held-out "
        f"half ({len(held)} puzzles). The score is the hardest effort class the trace needs and "
        "how much of it: the share of the board's cells its steps of that class decide, or for "
        f"{' and '.join(PACED)} the trace's steps per row, nothing else (no board size, no "
        "search effort). Weights: "
        + ", ".join(f"{k} {v:g}" for k, v in weights.items())
        + f"; cuts {', '.join(f'{c:g}' for c in cuts)}. Inside the fitting half, 5-fold "
        f"cross-validation (4 repeats) gives StarBattleLab rho {cross_validated(sbl):.3f}. "
        f"Over {len(halves['all'])} random halves of all {len(sbl_all)} graded StarBattleLab-tier "
        "puzzles (fitted on one, rho on the other; each size and label split evenly): "
        f"{spread(halves['all'])} (per size class: last column below).",
        "",
        "What each tier means (for each tier the hardest class reaches, the least share of the "
        "board's cells its steps must decide, or for region the least steps per row "
        "the whole trace must take):",
        "",
        "| hardest effort class | tiers by how much of it |",
        "|---|---|",
    ]
    for name, measure_, reached in rules(weights, cuts):
        said = ", ".join(
            t if not least
            else f"{t} from {100 * least:.1f}%" if measure_ == "share"
            else f"{t} from {least:.2f} steps per row"
            for t, least in reached
        )  # fmt: skip
        lines.append(f"| {name} | {said} |")
    lines += [
        "",
        "| label scale (held out) | puzzles | Spearman rho | 95% interval | rho, over-cap as "
        "hardest | labelled normal or easy, graded above hard |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    by_scale: dict[str, list[dict]] = {}
    for p in held:
        by_scale.setdefault(scale_name(p), []).append(p)
    over_held = split(over)[1]
    top = max(score.values()) + 1
    above = ("expert", "extreme")
    for name, group in sorted(by_scale.items(), key=lambda pair: -len(pair[1])):
        mild = [p for p in group if gentle(p)]
        high = f"{sum(tier[p['id']] in above for p in mild)} of {len(mild)}" if mild else ""
        if len({p["label_rank"] for p in group}) < 2:
            lines.append(f"| {name} | {len(group)} | one label only | | | {high} |")
            continue
        value, low, high_end = rho_with_interval(
            [score[p["id"]] for p in group], [p["label_rank"] for p in group]
        )
        capped = [p for p in over_held if scale_name(p) == name]
        with_over = spearmanr(
            [score[p["id"]] for p in group] + [top] * len(capped),
            [p["label_rank"] for p in group + capped],
        ).statistic
        lines.append(
            f"| {name} | {len(group)} | {value:.3f} | {low:.3f} to {high_end:.3f} | "
            f"{with_over:.3f} (+{len(capped)}) | {high} |"
        )
    searched = with_search(sbl, [p for p in held if p["label_scale"].startswith(SORTER)], score)
    mild_all = [p for p in graded if gentle(p)]
    lines += [
        "",
        f"For comparison, not in the grade: with clingo's conflicts per row (a machine's "
        f"search effort, not a person's) as a further term, held-out StarBattleLab rho "
        f"{searched:.3f}. Labelled normal or easy by another source and graded above hard, "
        f"fitting half included: {sum(tier[p['id']] in above for p in mild_all)} of "
        f"{len(mild_all)}.",
        "",
        "Spearman rho per size class (held out; a blank: one label only):",
        "",
        "| size | StarBattleLab tiers | legacy categories | masonomara packs | StarBattleLab, "
        "random halves |",
        "|---|---:|---:|---:|---:|",
    ]
    sources = ("StarBattleLab collection", "StarBattleLab legacy", "masonomara")
    for size in sorted({(p["n"], p["stars"]) for p in held}):
        cells = []
        for source in sources:
            group = [
                p
                for p in held
                if (p["n"], p["stars"]) == size and p["label_scale"].startswith(source)
            ]
            cells.append(f"{rho(group, score)} ({len(group)})" if group else "")
        name = f"{size[0]}x{size[0]} {size[1]}★"
        cells.append(spread(halves[name]) if name in halves else "")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "Held-out StarBattleLab-tier puzzles: score by label, and the tiers given:", ""]
    lines += ["| label | puzzles | p10 | median | p90 | " + " | ".join(TIERS) + " |"]
    lines += ["|---|---:|---:|---:|---:|" + "---:|" * len(TIERS)]
    held_sbl = [p for p in held if p["label_scale"].startswith(SORTER)]
    for rank in range(4):
        values = np.array([score[p["id"]] for p in held_sbl if p["label_rank"] == rank])
        tiers = Counter(tier_of(v, cuts) for v in values)
        p10, median, p90 = np.percentile(values, [10, 50, 90])
        label = next(p["label"] for p in held_sbl if p["label_rank"] == rank)
        lines.append(
            f"| {label} | {len(values)} | {p10:.2f} | {median:.2f} | {p90:.2f} | "
            + " | ".join(str(tiers[t]) for t in TIERS)
            + " |"
        )
    lines += ["", "Where grade and label disagree most (held out, StarBattleLab tiers):", ""]
    lines += ["| id | label | tier given | score | hardest class (share) | levels used (count) |"]
    lines += ["|---|---|---|---:|---|---|"]
    expected = {
        rank: np.median([score[p["id"]] for p in sbl if p["label_rank"] == rank])
        for rank in range(4)
    }
    worst = sorted(held_sbl, key=lambda p: -abs(score[p["id"]] - expected[p["label_rank"]]))
    for p in worst[:3]:
        raw = p["raw"]
        used = ", ".join(f"{k} ({raw[f'level_{k}']})" for k in range(1, 8) if raw[f"level_{k}"])
        lines.append(
            f"| {p['id']} | {p['label']} | {tier[p['id']]} | {score[p['id']]:.2f} | "
            f"{EFFORTS[raw['effort']]} ({100 * share(raw):.1f}%) | {used} |"
        )
    seconds = sorted(p["seconds"] for p in puzzles if (p["n"], p["stars"]) == (10, 2))
    wall = wall_file(cache).read_text().split() if wall_file(cache).is_file() else None
    lines += [
        "",
        f"Grading time, 10x10 2 stars ({len(seconds)} puzzles, "
        f"{f'-j {wall[1]}' if wall else 'by extract'} on the shared machine): "
        f"median {np.median(seconds):.2f} s, p95 {np.percentile(seconds, 95):.2f} s, "
        f"max {seconds[-1]:.1f} s. All {len(puzzles)}: {sum(p['seconds'] for p in puzzles):.0f} s "
        "of grading in all (each over-cap puzzle counted at the cap)"
        + (f"; {wall[0]} graded with -j {wall[1]} in {wall[2]} s wall time." if wall else "."),
        "<!-- grade: end -->",
    ]
    print("\n".join(lines))
    print(f"WEIGHTS = {weights}\nCUTS = {cuts}")
    if write:
        write_section("<!-- grade: begin -->", "<!-- grade: end -->", "\n".join(lines))
        write_weights(weights, cuts)


def write_weights(weights: dict[str, float], cuts: tuple[float, ...]) -> None:
    """Put fitted weights and cuts into starbattle/logic/grade.py in place of the old ones."""
    path = Path(grade_module.__file__)
    body = "".join(f'    "{name}": {value!r},\n' for name, value in weights.items())
    text = re.sub(
        r"WEIGHTS = \{\n.*?\n\}", f"WEIGHTS = {{\n{body}}}", path.read_text(), count=1, flags=re.S
    )
    text = re.sub(r"CUTS = \(.*?\)", f"CUTS = {cuts!r}", text, count=1)
    path.write_text(text)


def make(tiers: list[str], seeds: int, attempts: int, write: bool) -> None:
    """Time generating a 10x10 2-star puzzle of each tier from seeds 1..`seeds`; a table."""
    lines = [
        "<!-- grade-make: begin -->",
        "## Generating to a tier (`python benchmarks/grade.py make --write`), 10x10 2 stars",
        "",
        f"Load average at the start: {os.getloadavg()[0]:.1f} (2 shared cores). With `--tier "
        "easy` rows whose two stars lie two cells apart keep them as a 3-cell region.",
        "",
        "| tier | seed | puzzles made | seconds | CPU seconds | score |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    medians = []
    for tier in tiers:
        times, cpu = [], []
        for seed in range(1, seeds + 1):
            started, cpu_started = time.perf_counter(), time.process_time()
            try:
                found = generate_graded(10, 2, seed, Asked(tier, attempts=attempts))
                tried, score = str(found.tried), f"{found.grade.score:g}"
            except NoneAsAsked:
                tried, score = f"none in {attempts}", ""
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
            lines.append(
                f"| {tier} | {seed} | {tried} | {times[-1]:.1f} | {cpu[-1]:.1f} | {score} |"
            )
            print(lines[-1], flush=True)
        medians.append(f"{tier} {np.median(times):.1f} s ({np.median(cpu):.1f} s of CPU)")
    lines += ["", f"Median over {seeds} seeds: {', '.join(medians)}.", "<!-- grade-make: end -->"]
    print("\n".join(lines))
    if write:
        write_section("<!-- grade-make: begin -->", "<!-- grade-make: end -->", "\n".join(lines))


def speed(sample: int, write: bool) -> None:
    """Time `grade` on a seeded sample of the labelled 10x10 2-star puzzles, one at a time."""
    boards = [p for p in labelled() if (p["n"], p["stars"]) == (10, 2)]
    boards = random.Random(SEED).sample(boards, min(sample, len(boards)))
    load = os.getloadavg()[0]
    seconds = []
    for p in boards:
        started = time.perf_counter()
        grade(Board.from_rows(p["regions"], p["stars"]))
        seconds.append(time.perf_counter() - started)
    median, p95 = np.percentile(seconds, [50, 95])
    lines = [
        "<!-- grade-speed: begin -->",
        "## Grading time (`python benchmarks/grade.py speed --write`), 10x10 2 stars",
        "",
        f"{len(seconds)} labelled puzzles (seeded sample), graded one at a time in one process, "
        f"not niced: median {median:.2f} s, p95 {p95:.2f} s, max {max(seconds):.2f} s. Load "
        f"average {load:.1f} before, {os.getloadavg()[0]:.1f} after (2 shared cores).",
        "<!-- grade-speed: end -->",
    ]
    print("\n".join(lines))
    if write:
        write_section("<!-- grade-speed: begin -->", "<!-- grade-speed: end -->", "\n".join(lines))


def main() -> None:
    """Run the asked step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("extract", "fit", "make", "speed"))
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--tiers", nargs="+", default=["easy", "expert"])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--attempts", type=int, default=200)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/grade-trace.jsonl"))
    parser.add_argument("--write", action="store_true")
    arguments = parser.parse_args()
    if arguments.step == "extract":
        extract(arguments.cache, arguments.jobs)
    elif arguments.step == "fit":
        fit(arguments.cache, arguments.write)
    elif arguments.step == "make":
        make(arguments.tiers, arguments.seeds, arguments.attempts, arguments.write)
    else:
        speed(arguments.sample, arguments.write)


if __name__ == "__main__":
    main()
