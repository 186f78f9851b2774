"""Which tiers the generator reaches at each size: grade many generated puzzles per size.

    python benchmarks/tier_reach.py [PUZZLES_PER_SIZE] [-j JOBS] [--sizes 8x1 10x2 ...]
                                                      (default 60, 2 jobs, every size)

Each size makes PUZZLES_PER_SIZE puzzles (seeds "reach/1", ...), as `generate --tier` makes
them: plain, and with `keep_lines` (what `--tier easy` turns on) from 2 stars up. Every puzzle
is graded; the table of tiers seen per size goes between the tier-reach markers of
benchmarks/RESULTS.md, and the sizes' reachable tiers replace the REACHABLE table of
starbattle/logic/grade.py (`generate --tier` refuses at once a tier no puzzle of that size reached).
`--sizes` measures only those sizes (SIZExSTARS) and keeps the other sizes' rows and tiers.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from functools import partial
from pathlib import Path

from results import RESULTS, write_section  # benchmarks/ is the script's folder: on sys.path

import starbattle.logic.grade as grade_module
from starbattle.logic.generate import GenerateTimeout, generate
from starbattle.logic.grade import grade
from starbattle.model.steps import TIERS
from starbattle.run.batch import run_all

BEGIN, END = "<!-- tier-reach: begin -->", "<!-- tier-reach: end -->"
CASES = [(5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1), (11, 1), (12, 1), (8, 2), (9, 2), (10, 2),
         (11, 2), (12, 2), (13, 3), (14, 3), (15, 3)]  # fmt: skip


def tier_of(case: tuple[int, int, bool], index: int) -> str | None:
    """The tier of one generated puzzle of a size (None: the generator made none)."""
    size, stars, keep_lines = case
    seed = f"reach/{'lines' if keep_lines else 'plain'}/{index}"
    try:
        made = next(generate(size, stars, 1, seed, keep_lines=keep_lines, timeout=60))
    except GenerateTimeout:
        return None
    return grade(made.board).tier


def known_rows() -> dict[tuple[int, int], list[str]]:
    """The table rows of each size now in benchmarks/RESULTS.md (those `--sizes` keeps)."""
    text = RESULTS.read_text()
    section = text[text.index(BEGIN) : text.index(END)] if BEGIN in text else ""
    rows: dict[tuple[int, int], list[str]] = {}
    for line in section.splitlines():
        if match := re.match(r"\| (\d+)x\d+ \| (\d+) \|", line):
            rows.setdefault((int(match[1]), int(match[2])), []).append(line)
    return rows


def main() -> None:
    """Grade generated puzzles of every size; write the table and print REACHABLE."""
    parser = argparse.ArgumentParser()
    parser.add_argument("puzzles", type=int, nargs="?", default=60)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--sizes", nargs="+", default=[], help="e.g. 8x1 10x2 (default: all)")
    arguments = parser.parse_args()
    asked = {tuple(map(int, size.split("x"))) for size in arguments.sizes}
    kept = {case: lines for case, lines in known_rows().items() if asked and case not in asked}
    rows = ["| size | stars | made as | " + " | ".join(TIERS) + " | seconds |", "|---" * 9 + "|"]
    reachable: dict[tuple[int, int], list[str]] = {}
    for size, stars in CASES:
        if (size, stars) in kept:
            rows += kept[(size, stars)]
            reachable[(size, stars)] = list(grade_module.REACHABLE[(size, stars)])
            continue
        seen: Counter[str] = Counter()
        for keep_lines in (False, True) if stars > 1 else (False,):
            started = time.perf_counter()
            work = partial(tier_of, (size, stars, keep_lines))
            tiers = Counter(run_all(work, list(range(1, arguments.puzzles + 1)), arguments.jobs))
            seconds = time.perf_counter() - started
            seen.update(tier for tier in tiers.elements() if tier is not None)
            counts = " | ".join(str(tiers[tier]) for tier in TIERS)
            shape = "kept lines" if keep_lines else "plain"
            failed = f" ({tiers[None]} not made)" if tiers[None] else ""
            rows.append(f"| {size}x{size} | {stars} | {shape}{failed} | {counts} | {seconds:.0f} |")
            print(rows[-1], flush=True)
        reachable[(size, stars)] = [tier for tier in TIERS if seen[tier]]
    lead = (
        "## Tiers the generator reaches (`python benchmarks/tier_reach.py`)\n\n"
        f"Tiers of generated puzzles, {arguments.puzzles} per size and way of making them "
        "(`generate --tier` refuses at once a tier that no puzzle of its size reached: "
        "`grade.REACHABLE`)"
        + (
            f"; {', '.join(arguments.sizes)} measured again with `--sizes`, the other rows "
            "kept from the run before:"
            if asked
            else ":"
        )
    )
    write_section(BEGIN, END, "\n".join([BEGIN, lead, "", *rows, END]))
    table = ""
    for (size, stars), tiers in reachable.items():  # as ruff formats it: double quotes
        said = ", ".join(f'"{tier}"' for tier in tiers) + ("," if len(tiers) == 1 else "")
        table += f"    ({size}, {stars}): ({said}),\n"
    print(f"REACHABLE = {{\n{table}}}")
    path = Path(grade_module.__file__)
    text = re.sub(
        r"(REACHABLE: dict\[tuple\[int, int\], tuple\[str, \.\.\.\]\] = \{\n).*?\n\}",
        lambda match: match.group(1) + table.rstrip("\n") + "\n}",
        path.read_text(),
        count=1,
        flags=re.S,
    )
    path.write_text(text)


if __name__ == "__main__":
    main()
