"""The regions of a puzzle being generated: a partition of the grid and the moves on it.

Runs of planted stars claim cells, the rest grow onto them, compaction shortens the
borders, small regions fill up, and repair moves cells until one solution is left (see
`starbattle.logic.generate` for the method and its measurements).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

from starbattle.asp.rivals import Rivals
from starbattle.limits import time_left
from starbattle.model.board import NEIGHBOURS, Cell, pieces

Grid = list[list[int]]
"""A region label per cell, by row (0-based); -1 for a cell no region holds yet."""


class Regions:
    """A partition of the grid into regions, with each region's cells kept up to date."""

    def __init__(self, grid: Grid, kept: frozenset[int] = frozenset()) -> None:
        self.grid = grid
        self.size = len(grid)
        self.kept = kept
        """Regions that neither gain nor lose cells."""
        self.cells: dict[int, set[Cell]] = {}
        for r, row in enumerate(grid):
            for c, label in enumerate(row):
                self.cells.setdefault(label, set()).add((r, c))
        self.around = [
            [
                [
                    (r + dr, c + dc)
                    for dr, dc in NEIGHBOURS
                    if 0 <= r + dr < self.size and 0 <= c + dc < self.size
                ]
                for c in range(self.size)
            ]
            for r in range(self.size)
        ]
        """The orthogonal neighbours of each cell."""

    def neighbours(self, r: int, c: int) -> list[int]:
        """The regions (r, c) may move to: orthogonally next to it, not its own, not kept.

        None when its own region is kept.
        """
        grid = self.grid
        own = grid[r][c]
        if own in self.kept:
            return []
        labels = {grid[i][j] for i, j in self.around[r][c]}
        labels.discard(own)
        return sorted(labels - self.kept if self.kept else labels)

    def move(self, cell: Cell, label: int) -> int:
        """Give a cell to a region; return the region it left."""
        r, c = cell
        old = self.grid[r][c]
        self.grid[r][c] = label
        self.cells[old].discard(cell)
        self.cells[label].add(cell)
        return old

    def still_connected(self, label: int, cell: Cell) -> bool:
        """Whether a connected region that has just given up `cell` is connected (not empty)."""
        r, c = cell
        touching = sum(self.grid[i][j] == label for i, j in self.around[r][c])
        return touching == 1 or (touching > 1 and connected(self.cells[label]))

    def border(self, cells: Iterable[Cell]) -> int:
        """How many neighbour pairs around these cells lie in different regions."""
        grid = self.grid
        return sum(grid[i][j] != grid[r][c] for r, c in cells for i, j in self.around[r][c])


def connected(cells: set[Cell]) -> bool:
    """Whether a non-empty set of cells is 4-connected."""
    return len(pieces(cells)) == 1


def claim(size: int, stars: int, planted: list[Cell]) -> Grid:
    """Cut the planted stars into runs of S stars, each with a connected set of cells.

    The stars are walked row by row in snake order; cells outside every run stay -1. A run
    claims the row cells between its consecutive stars and, where it turns into the
    next row, an L-shaped link through cells beyond that turn's outermost stars, which no
    other run uses.
    """
    rows = [sorted(c for r, c in planted if r == row) for row in range(size)]
    walk = [(r, c) for r in range(size) for c in (rows[r] if r % 2 == 0 else rows[r][::-1])]
    owner = [[-1] * size for _ in range(size)]
    for index in range(0, len(walk), stars):
        run = walk[index : index + stars]
        r, c = run[0]
        owner[r][c] = index // stars
        for (r1, c1), (r2, c2) in itertools.pairwise(run):
            span = range(min(c1, c2), max(c1, c2) + 1)
            if r1 == r2:
                cells = [(r1, c) for c in span]
            elif (c2 > c1) == (r1 % 2 == 0):  # along row r1 beyond its last star, then down
                cells = [(r1, c) for c in span] + [(r2, c2)]
            else:  # down, then along row r2 beyond its first star
                cells = [(r1, c1)] + [(r2, c) for c in span]
            for r, c in cells:
                owner[r][c] = index // stars
    return owner


def lines(owner: Grid, stars: int) -> frozenset[int]:
    """The claimed runs that are as small as their stars allow: 2S - 1 cells of one row.

    None at one star: a run is then its star's cell alone, and a region of one cell is a
    given star, not a puzzle.
    """
    if stars < 2:
        return frozenset()
    runs: dict[int, list[Cell]] = {}
    for r, row in enumerate(owner):
        for c, label in enumerate(row):
            if label >= 0:
                runs.setdefault(label, []).append((r, c))
    return frozenset(
        label
        for label, cells in runs.items()
        if len(cells) == 2 * stars - 1 and len({r for r, _ in cells}) == 1
    )


def grow(owner: Grid, rng: random.Random, kept: frozenset[int] = frozenset()) -> Grid:
    """Give every unclaimed cell to a neighbouring region (not a kept one), at random."""
    size = len(owner)
    frontier = [
        (r, c)
        for r in range(size)
        for c in range(size)
        if owner[r][c] >= 0 and owner[r][c] not in kept
    ]
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


def fill(regions: Regions, planted: set[Cell], rng: random.Random, min_region: int) -> bool:
    """Let each region smaller than `min_region` take cells from larger neighbouring regions.

    A star-free cell on its border moves in while the region it leaves stays connected and
    above the minimum. Without this a third of the attempts at 25x25 6-star end after their
    compaction (measured: 11 of 30 attempts). It runs after compaction and draws no random
    number while every region has the minimum, so a seed that made a puzzle before makes the
    same one. Whether every region then has the minimum.
    """
    for label in sorted(set(regions.cells) - regions.kept):
        while len(regions.cells[label]) < min_region:
            donors = sorted(
                (i, j)
                for r, c in regions.cells[label]
                for i, j in regions.around[r][c]
                if regions.grid[i][j] not in (label, *regions.kept)
                and (i, j) not in planted
                and len(regions.cells[regions.grid[i][j]]) > min_region
            )
            for cell in rng.sample(donors, len(donors)):
                old = regions.move(cell, label)
                if regions.still_connected(old, cell):
                    break
                regions.move(cell, old)
            else:  # no neighbour can give a cell: the attempt ends
                break
    return all(
        len(regions.cells[label]) >= min_region for label in set(regions.cells) - regions.kept
    )


def compact(
    regions: Regions,
    planted: set[Cell],
    rng: random.Random,
    moves: int,
    min_region: int,
    deadline: float | None = None,
) -> None:
    """Shorten the region borders, keeping regions connected and their planted stars.

    Moves star-free cells, and swaps two star cells, between neighbouring regions.
    """
    size = regions.size
    for move in range(moves):
        if move % 256 == 0:
            time_left(deadline)
        r, c = rng.randrange(size), rng.randrange(size)
        others = regions.neighbours(r, c)
        if not others:
            continue
        old, new = regions.grid[r][c], rng.choice(others)
        changed = [(r, c)]
        if (r, c) in planted:  # swap with a star of the other region that touches ours
            partners = sorted(
                cell for cell in regions.cells[new] & planted if old in regions.neighbours(*cell)
            )
            if not partners:
                continue
            changed.append(rng.choice(partners))
        elif len(regions.cells[old]) <= min_region:
            continue
        before = regions.border(changed)  # the only pairs that change (stars never touch)
        for cell, label in zip(changed, (new, old), strict=False):
            regions.move(cell, label)
        if regions.border(changed) > before or not (
            connected(regions.cells[old]) and connected(regions.cells[new])
            if len(changed) == 2
            else regions.still_connected(old, (r, c))  # its new region touches it
        ):
            for cell, label in zip(changed, (old, new), strict=False):
                regions.move(cell, label)


def open_cells(
    rivals: Rivals, regions: Regions, limit: int | None, deadline: float | None
) -> set[Cell] | None:
    """Cells that are a star in some solution but not in all (0-based); None past `limit`."""
    numbered = [[label + 1 for label in row] for row in regions.grid]
    found = rivals.open_cells(numbered, limit, time_left(deadline))
    return None if found is None else {(r - 1, c - 1) for r, c in found}


def repair(
    regions: Regions,
    planted: set[Cell],
    stars: int,
    rng: random.Random,
    patience: int,
    min_region: int,
    deadline: float | None,
) -> bool:
    """Move cells until the board has one solution.

    False when `patience` tries in a row make no progress (a plateau: another seed does
    better than waiting); raises TimeLimitReached when the deadline passes.
    """
    rivals = Rivals(stars, [(r + 1, c + 1) for r, c in planted])
    undecided = open_cells(rivals, regions, None, deadline) or set()
    size = regions.size
    stale = 0
    while undecided and stale < patience:
        stale += 1
        r, c = rng.choice(sorted(undecided - planted))
        if rng.random() < 0.5:  # or a cell near it, so that region borders can reach it
            r = min(size - 1, max(0, r + rng.randint(-2, 2)))
            c = min(size - 1, max(0, c + rng.randint(-2, 2)))
            if (r, c) in planted:
                continue
        targets = regions.neighbours(r, c)
        old = regions.grid[r][c]
        if not targets or len(regions.cells[old]) <= min_region:
            continue
        regions.move((r, c), rng.choice(targets))
        tally = (  # None when no better: the region came apart, or more cells are open
            open_cells(rivals, regions, len(undecided), deadline)
            if regions.still_connected(old, (r, c))
            else None
        )
        if tally is not None:
            stale = 0 if len(tally) < len(undecided) else stale
            undecided = tally
        else:
            regions.move((r, c), old)
    return not undecided
