"""Level 5: counting with 2x2 room (each unit's share of a band, bounded by its room).

A band of lines needs some stars, and only the other units meeting it (the regions, or the
perpendicular lines) can put them there. Each puts at most what its cells inside the band
have room for (the fewest 2x2 blocks covering them, and no more than it needs) and at least
what its cells outside have no room for. When the others' bounds pin a unit's share, its
cells inside (a share of 0) or outside (its whole need) are empty, and a share equal to a
part's room fills that part one star per block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from starbattle.logic.blocks import one_star_each
from starbattle.logic.grid import Found, Grid, View, bits, remember
from starbattle.logic.sentences import SENTENCE_LIMIT, outcome, units_text
from starbattle.logic.tallies import Tally, pinned, tallies
from starbattle.words import joined, plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic


Share = tuple[int, int]
"""The least and the most stars a unit puts into a band."""


def capacity_counting(logic: Logic, view: View) -> list[Found]:
    """Every band whose units' 2x2 room pins some unit's share of it, followed to a fixpoint.

    The first round's bounds of every band come at once (starbattle.logic.tallies); only
    a band where a share they pin decides cells is counted here.
    """
    found = []
    budget = logic.container_budget(view, "capacity-counting")
    pins, least, most = pinned(view)
    for k, tally in enumerate(tallies(view)):
        if not budget.spend(sum(len(view.open[u]) for u in tally.meeting)):
            continue
        units = np.flatnonzero(pins[k]).tolist()
        if any(_decides(view, tally, u, (int(least[k, u]), int(most[k, u]))) for u in units):
            lines, meeting = tally.lines, tuple(sorted(tally.meeting))
            cells = frozenset().union(*(view.open[u] for u in lines))
            counted = _followed(view, lines, meeting, cells)
            if counted is not None:
                found.append(_counted(view, lines, meeting, *counted))
    return found


def _decides(view: View, tally: Tally, unit: int, share: Share) -> bool:
    """Whether a unit's share of a band in the first round decides cells (as `_pinned`).

    On bit masks and the board's remembered tilings (`_tiling`): asked of every pinned unit
    of every band, and most decide nothing.
    """
    need, (least, most), room = view.need[unit], share, tally.caps[unit]
    inside = view.open_masks[unit] & tally.mask
    outside = view.open_masks[unit] ^ inside
    if most == 0 or (least == need and outside):
        return True
    for part, held, space in ((inside, least, room[0]), (outside, need - most, room[1])):
        if 0 < held == space:
            stars, blanks = _tiling(view.grid, part, held)
            if stars or blanks - view.stars - view.blanks:
                return True
    return False


def _tiling(grid: Grid, part: int, held: int) -> tuple[frozenset[int], frozenset[int]]:
    """What undecided cells (a bit mask) decide holding one star per block of their cover.

    Whatever the other marks (the decided cells it would empty are kept), remembered per
    board (`remember`).
    """
    tilings: dict = grid.memo.setdefault("tilings", {})  # type: ignore[assignment]
    found = tilings.get((part, held))
    if found is None:
        cells = frozenset(bits(part))
        cover = grid.cover(cells, held)
        bare = View(grid, frozenset(), frozenset())
        tiled = one_star_each(bare, cells, cover) if cover else (frozenset(),) * 2
        found = remember(tilings, (part, held), tiled)
    return found


def _followed(
    view: View, lines: tuple[int, ...], meeting: tuple[int, ...], cells: frozenset[int]
) -> tuple[frozenset[int], frozenset[int], dict[int, Share]] | None:
    """What the units meeting a band decide by their room, and the shares pinned (or None).

    One argument, followed to its fixpoint: what it decides is marked and the same units are
    counted again until nothing changes (a part emptied or filled leaves another unit less
    room). A share is of the band's stars from the state before the first round.
    """
    grid, now = view.grid, view
    stars: frozenset[int] = frozenset()
    blanks: frozenset[int] = frozenset()
    shares: dict[int, Share] = {}
    band = sum(1 << i for i in cells)
    while True:
        pinned = _round(now, lines, meeting, (cells, band))
        more_stars = frozenset().union(*(p[0] for p in pinned.values())) - stars
        more_blanks = frozenset().union(*(p[1] for p in pinned.values())) - blanks - more_stars
        if not more_stars and not more_blanks:
            break
        for u, (_, _, (least, most)) in pinned.items():
            got = len(stars & grid.sets[u] & cells)
            was = shares.get(u, (0, view.need[u]))
            shares[u] = (max(was[0], least + got), min(was[1], most + got))
        stars, blanks = stars | more_stars, blanks | more_blanks
        now = View(grid, view.stars | stars, view.blanks | blanks)
    return (stars, blanks - stars, shares) if stars or blanks else None


def _round(
    view: View,
    lines: tuple[int, ...],
    meeting: tuple[int, ...],
    band: tuple[frozenset[int], int],
) -> dict[int, tuple[frozenset[int], frozenset[int], Share]]:
    """What each unit meeting a band decides by the others' room, with its share: one count.

    The band's cells come as a set and as a bit mask. Empty when the bounds cannot add up
    to the band's need (a contradiction, left for the state check).
    """
    grid, masks, (cells, mask) = view.grid, view.open_masks, band
    need = sum(view.need[u] for u in lines)
    meeting = tuple(u for u in meeting if view.need[u] > 0 and masks[u] & mask)
    room = {
        u: [grid.capacity(part, view.need[u] + 1) for part in (masks[u] & mask, masks[u] & ~mask)]
        for u in meeting
    }
    most = {u: min(view.need[u], room[u][0]) for u in meeting}
    least = {u: max(0, view.need[u] - room[u][1]) for u in meeting}
    high, low = sum(most.values()), sum(least.values())
    if need <= 0 or high < need or low > need:
        return {}
    decided = {}
    for u in meeting:
        share = (
            max(least[u], need - (high - most[u])),
            min(most[u], need - (low - least[u])),
        )
        if not _may_pin(view.need[u], room[u], share, masks[u] & ~mask):
            continue
        parts = (view.open[u] & cells, view.open[u] - cells)
        pinned = _pinned(view, u, parts, room[u], share)
        if pinned is not None:
            decided[u] = (*pinned, share)
    return decided


def _may_pin(need: int, room: list[int], share: Share, outside: int) -> bool:
    """Whether a unit's share of a band may decide cells (`_pinned` decides none otherwise).

    None of the band (its cells inside are some), its whole need with cells outside, or
    as many stars as a part's room: the tests `_pinned` makes, on numbers alone.
    """
    least, most = share
    return (
        most == 0
        or (least == need and outside != 0)
        or 0 < least == room[0]
        or 0 < need - most == room[1]
    )


def _pinned(
    view: View,
    unit: int,
    parts: tuple[frozenset[int], frozenset[int]],
    room: list[int],
    share: Share,
) -> tuple[frozenset[int], frozenset[int]] | None:
    """What a unit's bounded share of a band decides (or None)."""
    grid, (inside, outside), (least, most) = view.grid, parts, share
    need = view.need[unit]
    stars: set[int] = set()
    blanks: set[int] = set()
    if most == 0:
        blanks |= inside
    if least == need:
        blanks |= outside
    for part, held, space in ((inside, least, room[0]), (outside, need - most, room[1])):
        if 0 < held == space:
            cover = grid.cover(part, held)
            if cover is not None:
                more_stars, more_blanks = one_star_each(view, part, cover)
                stars |= more_stars
                blanks |= more_blanks
    if not (stars - view.stars) and not blanks:
        return None
    return frozenset(stars), frozenset(blanks)


def _said(grid: Grid, units: list[int], shares: dict[int, Share]) -> str:
    """'region F puts none there, region G 1 star and column 3 at least 1 star'."""
    said = []
    for unit in units:
        (least, most), name = shares[unit], grid.names[unit]
        if least == most:
            amount = "none" if most == 0 else plural(most, "star")
        else:
            amount = (
                f"at least {plural(least, 'star')}" if least else f"at most {plural(most, 'star')}"
            )
        said.append(f"{name} puts {amount} there" if not said else f"{name} {amount}")
    return joined(said)


def _counted(
    view: View,
    lines: tuple[int, ...],
    meeting: tuple[int, ...],
    stars: frozenset[int],
    blanks: frozenset[int],
    shares: dict[int, Share],
) -> Found:
    """The step: the units meeting a band, counted by their 2x2 room."""
    grid, need = view.grid, sum(view.need[u] for u in lines)
    said = _said(grid, [u for u in meeting if u in shares], shares)
    band, others = units_text(grid, lines), units_text(grid, meeting)
    more = "more " if any(view.has[u] for u in lines) else ""
    verb, them = ("need", "them") if len(lines) > 1 else ("needs", "it")
    text = (
        f"{band} {verb} {plural(need, more + 'star')}, which only {others} can hold; counting "
        f"the 2x2 blocks each has room for inside and outside {band}, {said}, so "
        f"{outcome(grid, stars, blanks)}"
    )
    if len(text) > SENTENCE_LIMIT:
        text = (
            f"{band} {verb} {plural(need, more + 'star')}; counting the 2x2 blocks of the "
            f"{len(meeting)} {grid.kinds[meeting[0]]}s meeting {them}, {said}, so "
            f"{outcome(grid, stars, blanks)}"
        )
    if len(text) > SENTENCE_LIMIT:
        text = (
            f"{band} {verb} {plural(need, more + 'star')}; counting the 2x2 blocks the "
            f"{grid.kinds[meeting[0]]}s meeting {band} have room for, "
            f"{outcome(grid, stars, blanks)}"
        )
    units = (*lines, *meeting)
    return Found("capacity-counting", units, view.marks_in(units), stars, blanks, text)
