"""A state's containers: those of its narrower bands are the first ones, however asked."""

from __future__ import annotations

import pytest
from crafted import APPLIES, view_of

from starbattle.logic.containers import SQUEEZE_LINES, containers

CASES = [case for technique in ("band-tiling", "composite-tiling") for case in APPLIES[technique]]


@pytest.mark.parametrize("case", CASES)
def test_the_containers_of_narrow_bands_are_the_first_whichever_is_asked_first(
    case: tuple,
) -> None:
    regions, marks = case[0], case[1]
    every = containers(view_of(regions, marks))
    for lines in (1, 2, SQUEEZE_LINES, 6):
        first = [c for c in every if len(c.lines) <= lines]
        assert every[: len(first)] == first
        narrow_first = view_of(regions, marks)
        assert containers(narrow_first, lines) == first
        assert containers(narrow_first) == every
        assert containers(narrow_first, lines) == first
