"""The generator's moves on a partition: each keeps regions connected and their planted stars."""

from __future__ import annotations

import random

from helpers import INSTANCES

from starbattle import Board, Solver, read_board
from starbattle.logic.regions import Regions, claim, compact, connected, fill, grow, lines, repair
from starbattle.model.board import Cell


def planted(name: str) -> list[Cell]:
    """The solution of a shipped instance, 0-based: a valid placement to cut regions around."""
    (solution,) = Solver(read_board(str(INSTANCES / name))).solutions(1)
    return [(r - 1, c - 1) for r, c in solution.stars]


def regions_hold(grid: list[list[int]], stars: list[Cell], count: int) -> bool:
    """Whether every region (cells labelled 0 and up) is connected and holds `count` stars."""
    cells: dict[int, set[Cell]] = {}
    for r, row in enumerate(grid):
        for c, label in enumerate(row):
            if label >= 0:
                cells.setdefault(label, set()).add((r, c))
    return all(connected(group) and len(group & set(stars)) == count for group in cells.values())


def test_claimed_runs_hold_their_stars_and_grown_regions_cover_the_board() -> None:
    stars = planted("generated-10x10-2star.lp")
    owner = claim(10, 2, stars)
    assert {label for row in owner for label in row} == {-1, *range(10)}
    assert regions_hold(owner, stars, 2)
    grown = grow(owner, random.Random(1))
    assert all(label >= 0 for row in grown for label in row)
    assert regions_hold(grown, stars, 2)


def test_compact_shortens_borders_and_fill_brings_regions_to_the_minimum() -> None:
    stars = planted("generated-10x10-2star.lp")
    rng = random.Random(3)
    regions = Regions(grow(claim(10, 2, stars), rng))
    everywhere = [(r, c) for r in range(10) for c in range(10)]
    before = regions.border(everywhere)
    compact(regions, set(stars), rng, 5000, 5)
    assert regions.border(everywhere) <= before
    assert fill(regions, set(stars), rng, 5)
    assert min(len(cells) for cells in regions.cells.values()) >= 5
    assert regions_hold(regions.grid, stars, 2)


def test_lines_are_the_runs_of_one_row_as_short_as_their_stars_allow() -> None:
    owner = [
        [0, 0, 0, -1, 1],
        [-1, -1, -1, 1, 1],
    ]
    assert lines(owner, 2) == {0}
    assert lines(owner, 1) == frozenset()


def test_a_repaired_board_has_the_planted_stars_as_its_one_solution() -> None:
    stars = planted("generated-8x8-1star.lp")
    for seed in range(20):  # a seed may end on a plateau (repair says False): the next is tried
        rng = random.Random(seed)
        regions = Regions(grow(claim(8, 1, stars), rng))
        compact(regions, set(stars), rng, 5000, 3)
        if fill(regions, set(stars), rng, 3) and repair(regions, set(stars), 1, rng, 150, 3, None):
            break
    else:
        raise AssertionError("no seed of 20 repaired the board")
    assert regions_hold(regions.grid, stars, 1)
    (solution,) = Solver(Board.from_rows(regions.grid, 1)).solutions(0)
    assert sorted(solution.stars) == sorted((r + 1, c + 1) for r, c in stars)
