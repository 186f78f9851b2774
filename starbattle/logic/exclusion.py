"""Level 5: exclusion against a container (a star that would leave a band or area too little room).

Level 4's argument with a container (starbattle.logic.containers) as the starved unit: a star
at X takes X and its neighbours and, under pressure, fills the units that need just that
star, emptying their other cells. If the cells a container has left then fit in fewer 2x2
blocks than the stars it still needs, X is empty. This covers finned counts, pressured
exclusion against a squeezed band, and kissing Ls.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, NamedTuple

from starbattle.logic.containers import Container, containers
from starbattle.logic.grid import Found, View, and_filled, bits, gathered
from starbattle.logic.sentences import (
    SENTENCE_LIMIT,
    filling,
    star_at,
    starving,
    units_text,
    within,
)
from starbattle.logic.tallies import Tally, screen, tallies
from starbattle.words import owned, plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic
    from starbattle.logic.minimise import Budget


class Squeezed(NamedTuple):
    """A star at x (filling `full`) would leave a container room for `most` of its `need`."""

    x: int
    container: Container
    full: tuple[int, ...]
    need: int
    most: int


def container_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would leave some container too little room.

    One argument, one step: the cells that starve the same container are one step, whatever
    units each fills besides it.
    """
    grid, found = view.grid, []
    budget = logic.container_budget(view, "container-exclusion")
    open_masks = view.open_masks
    # Per container, cells no two of which share a 2x2 block (need + 4 of them at most): a
    # star's 3x3 neighbourhood holds 4 such cells at most, so a container with need + 4 keeps
    # room for its stars unless units fill; and while `need` of them lie outside what a star
    # takes, it keeps room too.
    tight = sorted(
        (
            (c.mask.bit_count() - 4 * (c.need - 1), c.mask, c, grid.scattered(c.mask, c.need + 4))
            for c in containers(view)
        ),
        key=_slack,
    )
    near = [entry for entry in tight if entry[3].bit_count() < entry[2].need + 4]
    for x in sorted(set(grid.cells) - view.stars - view.blanks - view.seen_star):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        for pressure in ([], filled) if filled else ([],):
            effect = grid.reach[x]
            for unit in pressure:
                effect |= open_masks[unit]
            candidates = tight if pressure else near  # sorted by their slack
            reach = candidates[: bisect_right(candidates, effect.bit_count(), key=_slack)]
            squeezed = _starved(view, x, pressure, effect, reach, budget)
            if squeezed is not None:
                found.append(squeezed)
                break
    return [_excluded(view, group) for group in gathered(found, lambda s: s.container)]


def _slack(entry: tuple[int, int, Container, int]) -> int:
    """A container's undecided cells beyond what its stars but one could fill in 2x2 blocks."""
    return entry[0]


def _starved(
    view: View,
    x: int,
    filled: list[int],
    effect: int,
    reach: list[tuple[int, int, Container, int]],
    budget: Budget,
) -> Squeezed | None:
    """How a star at x (filling `filled`) leaves one of the containers too little room (if so)."""
    grid = view.grid
    for _, mask, container, scattered in reach:
        if not mask & effect:
            continue
        need = container.need - (mask >> x & 1)
        left = mask & ~effect
        if (
            need <= 0
            or left.bit_count() > 4 * (need - 1)
            or (scattered & ~effect).bit_count() >= need
            or grid.spread(left, need) >= need
        ):
            continue
        room = frozenset(bits(mask & ~effect))
        cover = grid.cover(room, need - 1)
        if not budget.spend(mask.bit_count() * grid.searched(room, need - 1)):
            return None
        if cover is None:
            continue
        full = tuple(u for u in filled if grid.sets[u] & container.cells - {x})
        return Squeezed(x, container, full, need, len(cover) if room else 0)
    return None


def _excluded(view: View, group: list[Squeezed]) -> Found:
    """The step: a star at any of the cells would leave the container too little room."""
    grid, first = view.grid, group[0]
    container, xs = first.container, [squeezed.x for squeezed in group]
    at, so = star_at(grid, xs)
    fulls = [squeezed.full for squeezed in group]
    fill = filling(grid, xs, fulls)
    alike = {(s.x in container.cells, s.need, s.most) for s in group}
    if len(alike) > 1:
        then = f"{at} would {fill}leave too little room for them"
    else:
        [(inside, need, most)] = alike
        space = f"room for at most {plural(most, 'star')}" if most else "no room"
        if inside:
            then = f"{at} would be one of them and {fill}leave {space} for the other {need}"
        else:
            then = f"{at} would {fill}leave {space} for them"
    text = f"{container.told(view)}; {then}, so {so}"
    if len(text) > SENTENCE_LIMIT:
        area = (container.name(view), container.single(view))
        rooms = [(s.need, s.most) for s in group]
        general = owned("its" if container.single(view) else "their", container.need, "star")
        text = starving(grid, xs, fulls, area, rooms, general)
    units = and_filled(container.units, fulls)
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("container-exclusion", units, cells, frozenset(), frozenset(xs), text)


class Miscount(NamedTuple):
    """A star at x (filling `full`) would leave a band's count impossible.

    The units meeting it would put (most, least) stars into it, missing the `need` it would
    have.
    """

    x: int
    tally: Tally
    full: tuple[int, ...]
    need: int
    bounds: tuple[int, int]


def _counted_on(miscount: Miscount) -> tuple[tuple[int, ...], frozenset[int]]:
    """What the argument rests on: the band and the units meeting it.

    The units each star fills are said per cell: on a 1-star board every star fills a row
    and a column of its own, and the cells that miscount a band alike are one argument.
    """
    return miscount.tally.lines, miscount.tally.meeting


def counting_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would leave a band's count impossible by 2x2 room.

    A band's stars come from the units of one kind meeting it, each putting in at most what
    its cells left inside have room for and at least what its cells left outside cannot
    hold (capacity counting); if after a star at X (filling, under pressure, the units that
    need just that star) these bounds cannot add up to what the band needs, X is empty.
    A lone star is first screened against every band at once (starbattle.logic.tallies).
    """
    grid = view.grid
    budget = logic.container_budget(view, "counting-exclusion")
    found = [tally for tally in tallies(view) if budget.spend(len(tally.meeting))]
    stars = []  # each cell's lone star, then the star filling the units needing just it
    for x in sorted(set(grid.cells) - view.stars - view.blanks - view.seen_star):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        stars += [(x, []), (x, filled)] if filled else [(x, [])]
    miscounts, done = [], None
    for (x, filled), (suspects, rest) in zip(stars, screen(view, len(found), stars), strict=True):
        if budget.left < 0:
            break
        if x == done:
            continue
        star = Star.at(view, x, filled)
        miscount = _first_broken(view, star, [(found[k], work) for k, work in suspects], budget)
        if miscount is not None:
            miscounts.append(miscount)
            done = x
        else:
            budget.spend(rest)
    return [_miscounted_step(view, group) for group in gathered(miscounts, _counted_on)]


class Star(NamedTuple):
    """A star at x, filling under pressure the units `filled`, and what it takes."""

    x: int
    filled: list[int]
    gone: dict[int, tuple[int, int]]
    """Of each unit it touches: the undecided cells it takes and those the unit keeps, as
    bit masks."""
    touched: int
    """The units it touches, as a bit mask."""

    @classmethod
    def at(cls, view: View, x: int, filled: list[int]) -> Star:
        """The star at x taking its 3x3 square and the undecided cells of `filled`."""
        taken = {x, *view.grid.around[x]}.union(*(view.open[u] for u in filled))
        mask, masks = sum(1 << i for i in taken), view.open_masks
        units = {u for i in taken for u in view.grid.units_of[i]}
        gone = {u: (masks[u] & mask, masks[u] & ~mask) for u in units}
        return cls(x, filled, gone, sum(1 << u for u in units))


def _first_broken(
    view: View, star: Star, suspects: list[tuple[Tally, int]], budget: Budget
) -> Miscount | None:
    """How the star breaks the first of its screened tallies (if so), each after its work."""
    for tally, work in suspects:
        if not budget.spend(work):
            return None
        miscount = miscounted(view, star, tally)
        if miscount is not None:
            return miscount
    return None


def miscounted(view: View, star: Star, tally: Tally) -> Miscount | None:
    """How the star breaks the tally's count, if it does: rough bounds first, then exact ones.

    Taking a cell lowers a part's room by one 2x2 block at most, so bounds that cannot break
    the count even so spare the exact ones (a cover search each). A unit needing one star at
    most has room for it where it keeps a cell: exact at once.
    """
    grid, x, filled, affected = view.grid, star.x, star.filled, tally.units & star.touched
    band, need = tally.mask, tally.need - (tally.mask >> x & 1)
    # a star alone takes a 3x3 square: at most `span` blocks of a part (`steady`)
    span = len(grid.cells) if filled else tally.span  # filled units: no such bound
    lowest, highest, rough = tally.most, tally.least, []
    while affected:
        u = (affected & -affected).bit_length() - 1
        affected &= affected - 1
        (inside, outside), (had_most, had_least) = tally.caps[u], tally.bounds[u]
        left = 0 if u in filled else view.need[u] - (grid.masks[u] >> x & 1)
        lost, kept = star.gone[u]
        if left > 1:
            inside -= min(span, (lost & band).bit_count())
            outside -= min(span, (lost & ~band).bit_count())
            rough.append((left, kept, min(left, inside), max(0, left - outside)))
            lowest += rough[-1][2] - had_most
            highest += rough[-1][3] - had_least
        elif left == 1:
            lowest += bool(kept & band) - had_most
            highest += (not kept & ~band) - had_least
        else:
            lowest, highest = lowest - had_most, highest - had_least
    if lowest >= need >= highest:  # no new bounds of these units can break the count
        return None
    most, least, capacity = lowest, highest, grid.capacity  # exact but for the rough units'
    for left, kept, rough_most, rough_least in rough:
        if most >= need >= least:  # each exact unit only raises most and lowers least: it holds
            return None
        most += min(left, capacity(kept & band, left + 1)) - rough_most
        least += max(0, left - capacity(kept & ~band, left + 1)) - rough_least
    if most < need or least > need:
        full = tuple(u for u in filled if u not in tally.lines and u not in tally.meeting)
        return Miscount(x, tally, full, need, (most, least))
    return None


def _miscounted_step(view: View, group: list[Miscount]) -> Found:
    """The step: a star at any of the cells would leave a band's count impossible."""
    grid, first = view.grid, group[0]
    tally, fulls = first.tally, [miscount.full for miscount in group]
    xs = [miscount.x for miscount in group]
    at, so = star_at(grid, xs)
    band, meeting = units_text(grid, tally.lines), tuple(sorted(tally.meeting))
    counted_meeting = f"the {len(meeting)} {grid.kinds[meeting[0]]}s meeting {band}"
    others = units_text(grid, meeting)
    if len(others) > SENTENCE_LIMIT // 4:
        others = counted_meeting
    fill = filling(grid, xs, fulls)
    verb = "need" if len(tally.lines) > 1 else "needs"
    alike = {(m.need, m.bounds[0] < m.need, m.bounds[m.bounds[0] >= m.need]) for m in group}
    need, short, bound = min(alike)  # each cell's band need, and the bound that misses it
    if short:
        room = f"room to put at most {plural(bound, 'star')}" if bound else "no room to put a star"
        text = (
            f"{at} would {fill}leave {others} {room} into {band} (counting 2x2 blocks), but "
            f"{band} {verb} {need} more, so {so}"
        )
    else:
        text = (
            f"{at} would {fill}leave {others} so little room outside {band} "
            f"(counting 2x2 blocks) that {'they put' if len(meeting) > 1 else 'it puts'} at "
            f"least {plural(bound, 'star')} "
            f"into it, but {band} {verb} {f'only {need}' if need else 'no'} more, so {so}"
        )
    plural_band = len(tally.lines) > 1
    generally = [
        f"{star_at(grid, xs, counted)[0]} would {filling(grid, xs, fulls, brief)}leave {who} "
        f"unable to give {whom} the stars {'they need' if plural_band else 'it needs'} "
        f"(counting 2x2 blocks), so {so}"
        for counted, brief, who, whom in (
            (False, False, others, band),
            (True, False, others, band),
            (True, True, others, band),
            (True, True, counted_meeting, "them" if plural_band else "it"),  # the shortest
        )
    ]
    text = within([text, *generally] if len(alike) == 1 else generally)
    units = and_filled([*tally.lines, *meeting], fulls)
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("counting-exclusion", units, cells, frozenset(), frozenset(xs), text)
