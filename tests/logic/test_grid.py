"""The grid's 2x2 block bounds: the quick ones never pass the fewest blocks a search finds."""

from __future__ import annotations

import random

import pytest
from crafted import APPLIES, board_of, stars_of

from starbattle.logic import grid as grid_module
from starbattle.logic.grid import Grid, bits
from starbattle.logic.ladder import Logic
from starbattle.model.board import Board


def _fewest(grid: Grid, cells: frozenset[int]) -> int:
    """The fewest 2x2 blocks covering the cells, by the grid's exact search."""
    return next(k for k in range(len(cells) + 1) if grid.cover(cells, k) is not None)


def test_scattered_cells_share_no_block_and_bound_the_fewest_blocks_from_below() -> None:
    """Container exclusion and the tilings skip their search when `scattered` finds more
    cells than the blocks allowed: a cell too many, and a step would go missing."""
    board = Board.from_rows(["ABCDEFG"] * 7, 1)
    grid, rng, checked = Grid(board), random.Random(5), 0
    for _ in range(300):
        mask = sum(1 << i for i in rng.sample(range(49), rng.randint(1, 14)))
        cells = frozenset(bits(mask))
        picked = list(bits(grid.scattered(mask, 49)))
        assert set(picked) <= cells
        assert all(
            max(abs(a // 7 - b // 7), abs(a % 7 - b % 7)) >= 2
            for a in picked
            for b in picked
            if a < b
        )
        fewest = _fewest(grid, cells)
        assert grid.spread(mask, 49) == len(picked) <= fewest
        assert grid.least_blocks(cells) <= fewest
        assert grid.spread(mask, 2) == min(2, len(picked))
        checked += len(picked) == fewest
    assert checked > 50  # the bound is often exact on such sets, so it is tested where it is tight


def test_a_cover_search_stops_after_its_nodes_and_answers_alike_whatever_came_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A container's search cut short finds no cover (no argument, never a wrong one), a
    unit's (as many blocks as its stars) is never cut; each search remembers its cell sets
    for itself, so asking part of a question first changes nothing (one 25x25 6-star trace
    once filled 24 GB with every search's cell sets)."""
    board = Board.from_rows(["ABCDEFG"] * 7, 1)
    two = frozenset({0, 1, 7, 8, 40, 41, 47, 48})  # (1,1)-(2,2) and (6,6)-(7,7)
    assert Grid(board).cover(two, 2) == [frozenset({0, 1, 7, 8}), frozenset({40, 41, 47, 48})]
    monkeypatch.setattr(grid_module, "COVER_NODES", 1)
    fresh, asked = Grid(board), Grid(board)
    assert asked.cover(frozenset({40, 41, 47, 48}), 1) is not None
    assert fresh.cover(two, 2) is None is asked.cover(two, 2)
    assert fresh.capacity(sum(1 << i for i in two), 3) == 3  # no cover found: the most


def test_a_board_forgetting_its_remembered_answers_gives_the_same_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Covers, capacities, scattered cells, tally numbers and tilings are remembered up to
    REMEMBERED answers per board, then forgotten: every answer is the same whatever was asked
    before."""
    regions = APPLIES["capacity-counting"][0][0]
    regions = regions.split("/") if isinstance(regions, str) else regions
    board = board_of(regions, stars_of(regions))
    kept = Logic(board).explain()
    monkeypatch.setattr(grid_module, "REMEMBERED", 2)
    forgetting = Logic(board)
    assert forgetting.explain() == kept
    assert len(forgetting.grid._covers) <= 2 and len(forgetting.grid._scattered) <= 2
    assert kept.steps and any(step.level == 5 for step in kept.steps)
