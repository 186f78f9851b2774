"""A state's containers: those of its narrower bands are the first ones, however asked."""

from __future__ import annotations

import pytest
from crafted import APPLIES, view_of

from starbattle.logic.containers import SQUEEZE_LINES, Container, containers

CASES = [case for technique in ("band-tiling", "composite-tiling") for case in APPLIES[technique]]


def _said(found: list[Container]) -> list[tuple]:
    """The containers as values (each is compared as an object)."""
    return [(c.mask, c.need, c.lines, c.others, c.way) for c in found]


@pytest.mark.parametrize("case", CASES)
def test_the_containers_of_narrow_bands_are_the_first_whichever_is_asked_first(
    case: tuple,
) -> None:
    regions, marks = case[0], case[1]
    every = _said(containers(view_of(regions, marks)))
    for lines in (1, 2, SQUEEZE_LINES, 6):
        first = [c for c in every if len(c[2]) <= lines]
        assert every[: len(first)] == first
        narrow_first = view_of(regions, marks)
        assert _said(containers(narrow_first, lines)) == first
        assert _said(containers(narrow_first)) == every
        assert _said(containers(narrow_first, lines)) == first


@pytest.mark.parametrize("case", CASES)
def test_a_containers_cells_are_its_bands_and_units_undecided_cells(case: tuple) -> None:
    view = view_of(case[0], case[1])
    for container in containers(view):
        band = frozenset().union(*(view.open[u] for u in container.lines))
        others = frozenset().union(*(view.open[u] for u in container.others))
        expected = {"band": band, "inside": band - others, "outside": others - band}
        assert container.cells == expected[container.way]
        assert container.mask == sum(1 << i for i in container.cells)
