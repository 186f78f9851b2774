"""Band enumeration's premises: as few units as stop the ways, each of them needed."""

from __future__ import annotations

import re

import pytest
from crafted import APPLIES, board_of, stars_of, state_of

from starbattle.logic.bands import WAYS, _ways
from starbattle.logic.grid import View
from starbattle.logic.ladder import Logic
from starbattle.logic.minimise import Budget
from starbattle.logic.pairs import undecided_masks


@pytest.mark.parametrize("case", APPLIES["band-enumeration"], ids=lambda case: case[5][:24])
def test_every_premise_unit_of_a_band_enumeration_is_needed(case: tuple) -> None:
    regions, grid = case[0], case[1]
    logic = Logic(board_of(regions, stars_of(regions)))
    state = state_of(grid)
    [step] = logic.deductions(state, "band-enumeration")
    view = View(logic.grid, *logic.numbers(state))
    number = {unit: i for i, unit in enumerate(logic.grid.units)}
    units = frozenset(number[unit] for unit in step.units)
    first, last = map(int, re.search(r"(?:rows|columns) (\d+)-(\d+)", step.sentence).groups())
    band = tuple(number[unit] for unit in step.units[: last - first + 1])  # its lines first
    cells = [(r - 1) * logic.grid.n + c - 1 for r, c in step.blanks]
    masks, budget = undecided_masks(view), Budget(10**9)

    def refuted(kept: frozenset[int]) -> bool:
        """Whether every concluded cell's star leaves the band no way, listing WAYS at most."""
        for cell in cells:
            tried, full, _ = _ways(view, band, cell, masks, budget, kept)  # type: ignore[misc]
            if full or tried > WAYS:
                return False
        return True

    assert refuted(units)
    assert all(not refuted(units - {unit}) for unit in units - set(band))
