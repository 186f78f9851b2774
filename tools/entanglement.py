"""Make the entanglement table: cells no star can take, given one or two stars, by board size.

    python tools/entanglement.py [--sizes 10x2,9x2] [--output FILE]
    (default FILE: encodings/hints/tables/entanglement.lp)

How it was made (the file it writes says so too): for each size n x n with s stars, every
placement of stars on the bare board is listed, brute force: s stars in each row and each
column, no two touching, regions ignored (10x10 2-star: 146,510 placements; 9x9 2-star: 664).
Every solution of every puzzle of that size is one of them. For each star, and each pair of
stars, that lie together in some placement, a cell that holds a star in none of the
placements holding them can never be a star beside them, whatever the regions. Those cells
are written as facts entangled(N,S,R1,C1,R2,C2,R,C) (a single star has R2,C2 = R1,C1), less
the marks a person gets without the table: the cells around the stars, the rest of a row or
column they fill, and (for a pair) what either star gives alone. Nothing is fitted to puzzles.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from itertools import combinations, pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "encodings" / "hints" / "tables" / "entanglement.lp"


def placements(n: int, s: int) -> Iterator[int]:
    """Every placement of stars on a bare n x n board, as a bit mask of cells r*n + c."""
    rows = [
        sum(1 << c for c in chosen)
        for chosen in combinations(range(n), s)
        if all(b - a >= 2 for a, b in pairwise(chosen))
    ]

    def extend(r: int, previous: int, columns: list[int], mask: int) -> Iterator[int]:
        if r == n:
            yield mask
            return
        later = n - r - 1
        for row in rows:
            if previous & (row | row << 1 | row >> 1):
                continue
            counts = [count + (row >> c & 1) for c, count in enumerate(columns)]
            if any(count > s or s - count > (later + 1) // 2 for count in counts):
                continue
            yield from extend(r + 1, row, counts, mask | row << (r * n))

    yield from extend(0, 0, [0] * n, 0)


def around(n: int, i: int) -> int:
    """A cell and the cells touching it, as a bit mask."""
    r, c = divmod(i, n)
    return sum(
        1 << ((r + dr) * n + c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if 0 <= r + dr < n and 0 <= c + dc < n
    )


def table(n: int, s: int) -> tuple[int, dict[tuple[int, int], int]]:
    """How many placements there are, and the marks of each star (a, a) and pair (a, b)."""
    full = (1 << (n * n)) - 1
    seen: dict[tuple[int, int], int] = {}
    count = 0
    for mask in placements(n, s):
        count += 1
        stars = [i for i in range(n * n) if mask >> i & 1]
        for a in stars:
            seen[a, a] = seen.get((a, a), 0) | mask
        for a, b in combinations(stars, 2):
            seen[a, b] = seen.get((a, b), 0) | mask
    row = [sum(1 << (r * n + c) for c in range(n)) for r in range(n)]
    column = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
    marks: dict[tuple[int, int], int] = {}
    for (a, b), union in seen.items():
        known = around(n, a) | around(n, b)
        if a != b:
            known |= (full & ~seen[a, a]) | (full & ~seen[b, b])
            if s == 2 and a // n == b // n:
                known |= row[a // n]
            if s == 2 and a % n == b % n:
                known |= column[a % n]
        found = full & ~union & ~known
        if found:
            marks[a, b] = found
    return count, marks


def write(sizes: list[tuple[int, int]], output: Path) -> None:
    """Write the table of these sizes as ASP facts, with the header that says how it was made."""
    lines, counts = [], []
    for n, s in sizes:
        count, marks = table(n, s)
        counts.append(f"{n}x{n} {s}-star: {count:,} placements, {len(marks)} patterns")
        for (a, b), found in sorted(marks.items()):
            (r1, c1), (r2, c2) = divmod(a, n), divmod(b, n)
            for i in range(n * n):
                if found >> i & 1:
                    r, c = divmod(i, n)
                    lines.append(
                        f"entangled({n},{s},{r1 + 1},{c1 + 1},{r2 + 1},{c2 + 1},{r + 1},{c + 1})."
                    )
    header = [
        "% Entanglement: cells no star can take beside one or two stars, by board size.",
        "%",
        "% Made by tools/entanglement.py (do not edit): every placement of stars on the bare",
        "% board (s per row and column, none touching, regions ignored) listed by brute force;",
        "% a cell is listed for a star (R2,C2 = R1,C1) or a pair of stars when no placement",
        "% holding them has a star there, less the cells around them, the rest of a line they",
        "% fill and what either star gives alone. Sizes:",
        *(f"% {count}." for count in counts),
        "% Reads   nothing",
        "% Defines entangled/8: entangled(N,S,R1,C1,R2,C2,R,C), on an N x N board with S stars,",
        "%         stars at (R1,C1) and (R2,C2) leave no star at (R,C)",
        "% Run     python -m clingo encodings/hints/tables/entanglement.lp",
        "",
        "% Define",
    ]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join([*header, *lines, ""]))
    print("; ".join(counts), f"-> {output}")


def main() -> None:
    """Parse the sizes and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10x2,9x2", help="board sizes and stars (10x2,9x2)")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="the facts file to write")
    options = parser.parse_args()
    sizes = [tuple(map(int, size.split("x"))) for size in options.sizes.split(",")]
    write([(n, s) for n, s in sizes], options.output)


if __name__ == "__main__":
    main()
