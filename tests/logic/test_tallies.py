"""The band tallies' screens never drop a band an argument would use."""

from __future__ import annotations

import pytest
from crafted import APPLIES, DOES_NOT_APPLY, board_of, stars_of, state_of

from starbattle.logic.counting import _followed
from starbattle.logic.exclusion import Star, miscounted
from starbattle.logic.grid import View
from starbattle.logic.ladder import Logic
from starbattle.logic.tallies import pinning, screen, tallies

STATES = [
    (technique, case[0], case[1])
    for technique in ("counting-exclusion", "container-exclusion", "capacity-counting")
    for case in APPLIES[technique] + DOES_NOT_APPLY[technique]
]


def _view(regions: list[str] | str, marks: list[str] | str) -> View:
    """The view of a crafted state (its rows as a list, or joined by slashes)."""
    regions, marks = (
        part.split("/") if isinstance(part, str) else part for part in (regions, marks)
    )
    logic = Logic(board_of(regions, stars_of(regions)))
    return View(logic.grid, *logic.numbers(state_of(marks)))


def _stars(view: View) -> list[tuple[int, list[int]]]:
    """Each undecided cell's lone star, then its star filling the units needing just it."""
    stars: list[tuple[int, list[int]]] = []
    for x in sorted(set(view.grid.cells) - view.stars - view.blanks):
        filled = [u for u in view.grid.units_of[x] if view.need[u] == 1]
        stars += [(x, []), (x, filled)] if filled else [(x, [])]
    return stars


@pytest.mark.parametrize(("technique", "regions", "marks"), STATES)
def test_screen_keeps_every_pair_a_star_breaks(
    technique: str, regions: list[str] | str, marks: list[str] | str
) -> None:
    view = _view(regions, marks)
    found = tallies(view)
    stars = _stars(view)
    for (x, filled), (suspects, rest) in zip(stars, screen(view, len(found), stars), strict=True):
        star = Star.at(view, x, filled)
        kept = {k for k, _ in suspects}
        for k, tally in enumerate(found):
            broken = miscounted(view, star, tally)
            if tally.steady and not filled:  # the screen skips it: no lone star breaks it
                assert broken is None and k not in kept
            elif broken is not None:
                assert k in kept, (technique, x, filled, tally.lines)
        work = sum(
            (tally.units & star.touched).bit_count()
            for tally in found
            if filled or not tally.steady
        )
        assert sum(w for _, w in suspects) + rest == work


def test_screen_leaves_few_pairs_and_finds_the_crafted_steps() -> None:
    pairs = suspected = breaking = 0
    for regions, marks, *_ in APPLIES["counting-exclusion"]:
        view = _view(regions, marks)
        found = tallies(view)
        stars = _stars(view)
        for (x, filled), (suspects, _) in zip(stars, screen(view, len(found), stars), strict=True):
            star = Star.at(view, x, filled)
            pairs += len(found)
            suspected += len(suspects)
            breaking += any(miscounted(view, star, found[k]) for k, _ in suspects)
    assert breaking >= len(APPLIES["counting-exclusion"])
    assert suspected < pairs / 10


@pytest.mark.parametrize(("technique", "regions", "marks"), STATES)
def test_pinning_keeps_every_band_capacity_counting_counts(
    technique: str, regions: list[str] | str, marks: list[str] | str
) -> None:
    view = _view(regions, marks)
    for tally, pins in zip(tallies(view), pinning(view), strict=True):
        cells = frozenset().union(*(view.open[u] for u in tally.lines))
        counted = _followed(view, tally.lines, tuple(sorted(tally.meeting)), cells)
        assert pins or counted is None, (technique, tally.lines, sorted(tally.meeting))


def test_pinning_leaves_few_bands_and_the_crafted_ones() -> None:
    bands = pinned = counted = 0
    for regions, marks, *_ in APPLIES["capacity-counting"]:
        view = _view(regions, marks)
        for tally, pins in zip(tallies(view), pinning(view), strict=True):
            cells = frozenset().union(*(view.open[u] for u in tally.lines))
            bands, pinned = bands + 1, pinned + bool(pins)
            counted += _followed(view, tally.lines, tuple(sorted(tally.meeting)), cells) is not None
    assert counted >= len(APPLIES["capacity-counting"])
    assert pinned < bands / 2
