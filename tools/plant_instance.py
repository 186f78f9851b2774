"""Make a Star Battle board around a planted solution, then reshape regions towards one solution.

Used to make the project's own shipped instances (the command is in each instance's
header). Plants a random valid placement of S stars per row and column, cuts it into N
connected regions of S stars each (see claim), grows them over the board, makes them
compact (see compact), then moves
star-free cells at or near cells that are a star in a rival solution into neighbouring
regions (the planted solution stays valid) while the open cells (a star in some solution
but not in all, from clingo's brave and cautious consequences) do not grow, until none is
left (one solution) or the tries run out. The same arguments and clingo version give the
same board.

    python tools/plant_instance.py SIZE STARS SEED [TRIES]   (prints a picture)
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


def border(regions: list[list[int]], r: int, c: int, label: int) -> int:
    """How many of a cell's neighbours would lie in another region if it had `label`."""
    size = len(regions)
    return sum(
        1
        for dr, dc in NEIGHBOURS
        if 0 <= r + dr < size and 0 <= c + dc < size and regions[r + dr][c + dc] != label
    )


def compact(
    regions: list[list[int]], planted: set[tuple[int, int]], rng: random.Random, moves: int
) -> list[list[int]]:
    """Shorten the region borders: move star-free cells, and swap two star cells, across
    borders when that keeps regions connected and the borders no longer (each region keeps
    its number of planted stars)."""
    size = len(regions)

    def cells_of(label: int) -> set[tuple[int, int]]:
        return {(i, j) for i in range(size) for j in range(size) if regions[i][j] == label}

    def cost(cells: list[tuple[int, int]]) -> int:
        return sum(border(regions, r, c, regions[r][c]) for r, c in cells)

    for _ in range(moves):
        r, c = rng.randrange(size), rng.randrange(size)
        old = regions[r][c]
        others = sorted(
            {
                regions[r + dr][c + dc]
                for dr, dc in NEIGHBOURS
                if 0 <= r + dr < size and 0 <= c + dc < size
            }
            - {old}
        )
        if not others:
            continue
        new = rng.choice(others)
        changed = [(r, c)]
        if (r, c) in planted:  # swap with a star of the other region that touches ours
            partners = sorted(
                (i, j)
                for i, j in cells_of(new) & planted
                if any(
                    0 <= i + di < size and 0 <= j + dj < size and regions[i + di][j + dj] == old
                    for di, dj in NEIGHBOURS
                )
            )
            if not partners:
                continue
            changed.append(rng.choice(partners))
        around = {
            (i + di, j + dj)
            for i, j in changed
            for di, dj in (*NEIGHBOURS, (0, 0))
            if 0 <= i + di < size and 0 <= j + dj < size
        }
        before = cost(sorted(around))
        labels = [new, old][: len(changed)]
        for (i, j), label in zip(changed, labels, strict=True):
            regions[i][j] = label
        if cost(sorted(around)) > before or not (
            connected(cells_of(old)) and connected(cells_of(new))
        ):
            for (i, j), label in zip(changed, [old, new][: len(changed)], strict=True):
                regions[i][j] = label
    return regions


def open_cells(regions: list[list[int]], stars: int) -> set[tuple[int, int]]:
    """Cells that are a star in some solution but not in all: empty when unique."""
    solver = Solver(Board.from_rows(regions, stars))
    brave, cautious = solver.consequences("brave"), solver.consequences("cautious")
    return {(r - 1, c - 1) for r, c in (brave or set()) - (cautious or set())}


def reshape(
    regions: list[list[int]],
    planted: set[tuple[int, int]],
    stars: int,
    rng: random.Random,
    tries: int,
) -> list[list[int]]:
    """Move star-free cells into neighbouring regions, keeping each move that does not grow
    the set of open cells; half the moves take an open cell (a rival solution's star), half
    a cell within two steps of one."""
    size = len(regions)
    undecided = open_cells(regions, stars)
    for attempt in range(tries):
        if not undecided:
            break
        if attempt % 50 == 0:
            print(f"try {attempt}: {len(undecided)} open cells", file=sys.stderr, flush=True)
        r, c = rng.choice(sorted(undecided - planted))
        if rng.random() < 0.5:  # or a cell near it, so that region borders can reach it
            r = min(size - 1, max(0, r + rng.randint(-2, 2)))
            c = min(size - 1, max(0, c + rng.randint(-2, 2)))
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
        tally = open_cells(regions, stars)
        if len(tally) <= len(undecided):
            undecided = tally
        else:
            regions[r][c] = old
    return regions


def main() -> None:
    """Print a board made from the command line's size, stars, seed and tries."""
    size, stars, seed = (int(arg) for arg in sys.argv[1:4])
    tries = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    rng = random.Random(seed)
    planted = plant(size, stars, rng)
    regions = compact(grow(claim(size, stars, planted), rng), set(planted), rng, 40 * size**3)
    board = Board.from_rows(reshape(regions, set(planted), stars, rng, tries), stars)
    sys.stdout.write(write_board(board, "txt"))
    solutions = sum(1 for _ in Solver(board).solutions(50))
    print(f"solutions: {solutions}{'+' if solutions == 50 else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
