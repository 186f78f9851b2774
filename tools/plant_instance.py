"""Make a Star Battle board around a planted solution, then reshape regions towards one solution.

Used once to make the project's own shipped instances (the seed and command are in each
instance's header). Plants a random valid placement of S stars per row and column, grows one
connected blob per star, merges neighbouring blobs into N regions of S stars, then moves
star-free cells between neighbouring regions (the planted solution stays valid) while the
solution count (capped) does not grow, until it is 1 or the tries run out.

    python tools/plant_instance.py SIZE STARS SEED [TRIES]   (prints the board as a picture)
"""

from __future__ import annotations

import random
import sys

from starbattle import Board, Solver, write_board

NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def plant(size: int, stars: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random placement of S stars per row and column with no two touching."""
    regions = [[str(r) for _ in range(size)] for r in range(size)]
    board = Board.from_rows(regions, stars)
    randomly = ("--rand-freq=1", f"--seed={rng.randrange(1 << 30)}")
    solution = next(Solver(board, clingo_args=randomly).solutions(1))
    return [(r - 1, c - 1) for r, c in solution.stars]


def grow(size: int, seeds: list[tuple[int, int]], rng: random.Random) -> list[list[int]]:
    """Grow one connected blob per seed until every cell belongs to one."""
    owner = [[-1] * size for _ in range(size)]
    frontier = []
    for index, (r, c) in enumerate(seeds):
        owner[r][c] = index
        frontier.append((r, c))
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


def merge(owner: list[list[int]], blobs: int, stars: int, rng: random.Random) -> list[list[int]]:
    """Merge neighbouring one-star blobs into groups of `stars`; raise ValueError when stuck."""
    size = len(owner)
    group = list(range(blobs))
    counts = {index: 1 for index in range(blobs)}
    while any(count < stars for count in counts.values()):
        short = [g for g in counts if counts[g] < stars]
        small = min(short, key=lambda g: (counts[g], rng.random()))
        partners = {
            group[owner[r + dr][c + dc]]
            for r in range(size)
            for c in range(size)
            if group[owner[r][c]] == small
            for dr, dc in NEIGHBOURS
            if 0 <= r + dr < size and 0 <= c + dc < size
        }
        partners = [g for g in partners if g != small and counts[g] + counts[small] <= stars]
        if not partners:
            raise ValueError("stuck")
        other = rng.choice(sorted(partners))
        counts[small] += counts.pop(other)
        group = [small if g == other else g for g in group]
    names = {g: index for index, g in enumerate(sorted(counts))}
    return [[names[group[owner[r][c]]] for c in range(size)] for r in range(size)]


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


def count(regions: list[list[int]], stars: int, cap: int = 200) -> int:
    """Solutions of the board, counted up to `cap`."""
    return sum(1 for _ in Solver(Board.from_rows(regions, stars)).solutions(cap))


def reshape(
    regions: list[list[int]],
    planted: set[tuple[int, int]],
    stars: int,
    rng: random.Random,
    tries: int,
) -> tuple[list[list[int]], int]:
    """Move star-free cells between neighbouring regions while the count does not grow."""
    size = len(regions)
    best = count(regions, stars)
    for _ in range(tries):
        if best == 1:
            break
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
        rest = {(i, j) for i in range(size) for j in range(size) if regions[i][j] == old} - {(r, c)}
        if not connected(rest):
            continue
        regions[r][c] = new
        tally = count(regions, stars)
        if tally <= best:
            best = tally
        else:
            regions[r][c] = old
    return regions, best


def main() -> None:
    """Print a board made from the command line's size, stars, seed and tries."""
    size, stars, seed = (int(arg) for arg in sys.argv[1:4])
    tries = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    rng = random.Random(seed)
    while True:
        planted = plant(size, stars, rng)
        try:
            regions = merge(grow(size, planted, rng), len(planted), stars, rng)
            break
        except ValueError:
            continue
    regions, solutions = reshape(regions, set(planted), stars, rng, tries)
    sys.stdout.write(write_board(Board.from_rows(regions, stars), "txt"))
    print(f"solutions: {solutions}", file=sys.stderr)


if __name__ == "__main__":
    main()
