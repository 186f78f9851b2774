"""The band tallies' screens never drop a band an argument would use."""

from __future__ import annotations

import pytest
from crafted import APPLIES, DOES_NOT_APPLY, view_of

from starbattle.logic.counting import _decides, _followed
from starbattle.logic.exclusion import Star, miscounted
from starbattle.logic.grid import View
from starbattle.logic.tallies import pinned, screen, tallies

STATES = [
    (technique, case[0], case[1])
    for technique in ("counting-exclusion", "container-exclusion", "capacity-counting")
    for case in APPLIES[technique] + DOES_NOT_APPLY[technique]
]


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
    view = view_of(regions, marks)
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
        view = view_of(regions, marks)
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
    view = view_of(regions, marks)
    for tally, pins in zip(tallies(view), pinned(view)[0].any(axis=1), strict=True):
        cells = frozenset().union(*(view.open[u] for u in tally.lines))
        counted = _followed(view, tally.lines, tuple(sorted(tally.meeting)), cells)
        assert pins or counted is None, (technique, tally.lines, sorted(tally.meeting))


@pytest.mark.parametrize(("technique", "regions", "marks"), STATES)
def test_a_band_is_counted_exactly_when_a_pinned_share_decides_cells(
    technique: str, regions: list[str] | str, marks: list[str] | str
) -> None:
    view = view_of(regions, marks)
    pins, least, most = pinned(view)
    for k, tally in enumerate(tallies(view)):
        cells = frozenset().union(*(view.open[u] for u in tally.lines))
        counted = _followed(view, tally.lines, tuple(sorted(tally.meeting)), cells)
        shares = [(u, (int(least[k, u]), int(most[k, u]))) for u in range(len(view.need))]
        decides = [_decides(view, tally, u, share) for u, share in shares if pins[k, u]]
        assert any(decides) == (counted is not None), (technique, tally.lines)


def test_pinning_leaves_few_bands_and_the_crafted_ones() -> None:
    bands = pinning = counted = 0
    for regions, marks, *_ in APPLIES["capacity-counting"]:
        view = view_of(regions, marks)
        for tally, pins in zip(tallies(view), pinned(view)[0].any(axis=1), strict=True):
            cells = frozenset().union(*(view.open[u] for u in tally.lines))
            bands, pinning = bands + 1, pinning + bool(pins)
            counted += _followed(view, tally.lines, tuple(sorted(tally.meeting)), cells) is not None
    assert counted >= len(APPLIES["capacity-counting"])
    assert pinning < bands / 2
