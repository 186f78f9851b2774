"""A state's containers: those of its narrower bands are the first ones, however asked."""

from __future__ import annotations

import pytest
from crafted import APPLIES, view_of

from starbattle.logic.containers import SQUEEZE_LINES, Container, containers
from starbattle.logic.grid import View

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


EMPTY_5X5 = ("BBAAC/EBBAC/EEDDC/EEDDD/EEEDD", "...../...../...../...../.....")


def _outside_row_1(regions: str, marks: str) -> tuple[View, Container]:
    """A state's container of the columns meeting row 1, outside it (units 5-9 are columns)."""
    view = view_of(regions, marks)
    [container] = [
        c for c in containers(view) if c.way == "outside" and c.lines == (0,) and c.others[0] < 10
    ]
    return view, container


def test_every_crossing_line_outside_a_band_is_named_as_the_other_lines() -> None:
    view, container = _outside_row_1(*EMPTY_5X5)
    assert container.rest(view) == (1, 2, 3, 4)
    assert container.name(view) == "rows 2-5"
    assert container.holds(view) == "rows 2-5 need"
    assert container.told(view) == (
        "columns 1-5 need 5 stars and row 1 needs 1 star, so rows 2-5 hold 4 stars"
    )


def test_crossing_lines_that_leave_one_out_are_named_outside_the_band() -> None:
    view, container = _outside_row_1(EMPTY_5X5[0], "x..../...../...../...../.....")
    assert container.others == (6, 7, 8, 9)  # column 1 has no undecided cell in row 1
    assert container.rest(view) == ()
    assert container.name(view) == "columns 2-5 outside row 1"
    assert container.holds(view) == "columns 2-5 outside row 1 need"
