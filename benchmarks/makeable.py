"""Which boards the generator makes in time: one puzzle per size 5-25 and star count.

    python benchmarks/makeable.py [--seconds 40] [--seed makeable]

Each size and star count the king rule allows (at most ceil(N/2) // 2 stars a line) gets
one `generate` within the time limit. The table goes between the makeable markers of
benchmarks/RESULTS.md, and the boards made within half the limit are printed as the
MAKEABLE table of starbattle/logic/offer.py: what the page offers to make (its own limit is
60 s; half of 40 s leaves room for a slower seed or a busier machine).
"""

from __future__ import annotations

import argparse
import os
import time

from results import write_section  # benchmarks/ is the script's folder: on sys.path

from starbattle.errors import UsageError
from starbattle.logic.generate import generate
from starbattle.model.board import king_capacity

BEGIN, END = "<!-- makeable: begin -->", "<!-- makeable: end -->"


def made_in(size: int, stars: int, seconds: float, seed: str) -> float | str:
    """Seconds to make one puzzle, or why none was made."""
    started = time.perf_counter()
    try:
        next(generate(size, stars, 1, seed, timeout=seconds))
    except UsageError as error:
        return "impossible" if "no " in str(error)[:4] else f"none in {seconds:g} s"
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--seed", default="makeable")
    options = parser.parse_args()
    rows, kept = [], {}
    for size in range(5, 26):
        for stars in range(1, king_capacity(size) + 1):
            result = made_in(size, stars, options.seconds, options.seed)
            shown = f"{result:.1f} s" if isinstance(result, float) else result
            print(size, stars, shown, flush=True)
            rows.append(f"| {size}x{size} | {stars} | {shown} |")
            if isinstance(result, float) and result <= options.seconds / 2:
                kept.setdefault(size, []).append(stars)
    table = "\n".join(["| board | stars | one puzzle made in |", "|---|---|---|", *rows])
    section = f"""{BEGIN}
## Boards the generator makes in time (`python benchmarks/makeable.py`)

One puzzle per size and star count (seed "{options.seed}", limit {options.seconds:g} s), load
average {os.getloadavg()[0]:.1f} at the end (2 shared cores). The page offers to make the boards
made within {options.seconds / 2:g} s (`offer.MAKEABLE`); low star counts on large boards
make no unique puzzle in time.

{table}
{END}"""
    write_section(BEGIN, END, section)
    print("MAKEABLE =", {size: tuple(stars) for size, stars in kept.items()})


if __name__ == "__main__":
    main()
