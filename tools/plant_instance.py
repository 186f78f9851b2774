"""Make a Star Battle board around a planted solution, then reshape regions towards one solution.

Used to make the project's own shipped instances (the command is in each instance's
header). Plants a random valid placement of S stars per row and column, cuts it into N
connected regions of S stars each (see claim), grows them over the board, then moves
star-free cells (half the time one where a rival solution has a star) into neighbouring
regions (the planted
solution stays valid) while the solution count (capped at CAP) does not grow, until it is 1
or the tries run out. The same arguments and clingo version give the same board.

    python tools/plant_instance.py SIZE STARS SEED [TRIES [CAP]]   (prints a picture)
"""

from __future__ import annotations

import itertools
import random
import sys

from starbattle import Board, Solver, write_board

NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def plant(size: int, stars: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random placement of S stars per row and column with no two touching."""
    regions = [[str(r) for _ in range(size)] for r in range(size)]
    board = Board.from_rows(regions, stars)
    randomly = ("--rand-freq=0.05", "--sign-def=rnd", f"--seed={rng.randrange(1 << 30)}")
    solution = next(Solver(board, clingo_args=randomly).solutions(1))
    return [(r - 1, c - 1) for r, c in solution.stars]


def claim(size: int, stars: int, planted: list[tuple[int, int]]) -> list[list[int]]:
    """Cut the planted stars, walked row by row in snake order, into runs of S stars, and
    claim for each run a connected set of cells holding exactly its stars (-1: unclaimed).

    A run claims the row cells between its consecutive stars and, where it turns into the
    next row, an L-shaped link through cells beyond that turn's outermost stars, which no
    other run uses.
    """
    rows = [sorted(c for r, c in planted if r == row) for row in range(size)]
    walk = [(r, c) for r in range(size) for c in (rows[r] if r % 2 == 0 else rows[r][::-1])]
    owner = [[-1] * size for _ in range(size)]
    for index in range(0, len(walk), stars):
        run = walk[index : index + stars]
        for (r1, c1), (r2, c2) in itertools.pairwise(run):
            if r1 == r2:
                cells = [(r1, c) for c in range(min(c1, c2), max(c1, c2) + 1)]
            elif (c2 > c1) == (r1 % 2 == 0):  # go along row r1 beyond its last star, then down
                cells = [(r1, c) for c in range(min(c1, c2), max(c1, c2) + 1)] + [(r2, c2)]
            else:  # go down, then along row r2 beyond its first star
                cells = [(r1, c1)] + [(r2, c) for c in range(min(c1, c2), max(c1, c2) + 1)]
            for r, c in cells:
                owner[r][c] = index // stars
        r, c = run[0]
        owner[r][c] = index // stars
    return owner


def grow(owner: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Give every unclaimed cell to a neighbouring region, growing the regions at random."""
    size = len(owner)
    frontier = [(r, c) for r in range(size) for c in range(size) if owner[r][c] >= 0]
    while frontier:
        r, c = frontier.pop(rng.randrange(len(frontier)))
        free = [
            (r + dr, c + dc)
            for dr, dc in NEIGHBOURS
            if 0 <= r + dr < size and 0 <= c + dc < size and owner[r + dr][c + dc] < 0
        ]
        if free:
            nr, nc = rng.choice(free)
            owner[nr][nc] = owner[r][c]
            frontier += [(r, c), (nr, nc)]
    return owner


def connected(cells: set[tuple[int, int]]) -> bool:
    """Whether a set of cells is 4-connected."""
    if not cells:
        return False
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in NEIGHBOURS:
            if (r + dr, c + dc) in cells and (r + dr, c + dc) not in seen:
                seen.add((r + dr, c + dc))
                stack.append((r + dr, c + dc))
    return len(seen) == len(cells)


def other_solutions(regions: list[list[int]], stars: int, cap: int) -> list[set[tuple[int, int]]]:
    """Up to `cap` solutions of the board, as sets of 0-based cells."""
    solver = Solver(Board.from_rows(regions, stars))
    return [{(r - 1, c - 1) for r, c in found.stars} for found in solver.solutions(cap)]


def reshape(
    regions: list[list[int]],
    planted: set[tuple[int, int]],
    stars: int,
    rng: random.Random,
    tries: int,
    cap: int,
) -> tuple[list[list[int]], int]:
    """Move star-free cells into neighbouring regions, keeping each move that does not
    raise the (capped) solution count; half the moves take a cell where a rival has a star."""
    size = len(regions)
    solutions = other_solutions(regions, stars, cap)
    for attempt in range(tries):
        if len(solutions) == 1:
            break
        if attempt % 50 == 0:
            print(f"try {attempt}: {len(solutions)} solutions", file=sys.stderr, flush=True)
        if rng.random() < 0.5:  # a cell where a rival solution has a star
            rival = rng.choice([found for found in solutions if found != planted])
            r, c = rng.choice(sorted(rival - planted))
        else:  # any star-free cell, to leave plateaus
            r, c = rng.randrange(size), rng.randrange(size)
            if (r, c) in planted:
                continue
        targets = sorted(
            {
                regions[r + dr][c + dc]
                for dr, dc in NEIGHBOURS
                if 0 <= r + dr < size and 0 <= c + dc < size
            }
            - {regions[r][c]}
        )
        if not targets:
            continue
        old, new = regions[r][c], rng.choice(targets)
        rest = {(i, j) for i in range(size) for j in range(size) if regions[i][j] == old}
        if not connected(rest - {(r, c)}):
            continue
        regions[r][c] = new
        tally = other_solutions(regions, stars, cap)
        if len(tally) <= len(solutions):
            solutions = tally
        else:
            regions[r][c] = old
    return regions, len(solutions)


def main() -> None:
    """Print a board made from the command line's size, stars, seed and tries."""
    size, stars, seed = (int(arg) for arg in sys.argv[1:4])
    tries = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    cap = int(sys.argv[5]) if len(sys.argv) > 5 else 50
    rng = random.Random(seed)
    planted = plant(size, stars, rng)
    regions = grow(claim(size, stars, planted), rng)
    regions, solutions = reshape(regions, set(planted), stars, rng, tries, cap)
    sys.stdout.write(write_board(Board.from_rows(regions, stars), "txt"))
    print(f"solutions: {solutions}", file=sys.stderr)


if __name__ == "__main__":
    main()
