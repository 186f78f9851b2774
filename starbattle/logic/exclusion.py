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

from starbattle.logic.containers import Container, bands, containers
from starbattle.logic.grid import Found, Grid, View, gathered
from starbattle.logic.sentences import (
    SENTENCE_LIMIT,
    filling,
    star_at,
    starving,
    units_text,
    within,
)
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Budget, Logic


class Squeezed(NamedTuple):
    """A star at x (filling `full`) would leave a container room for `most` of its `need`."""

    x: int
    container: Container
    full: tuple[int, ...]
    need: int
    most: int


def container_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would leave some container too little room.

    One argument, one step: the cells that starve the same container alike (filling the
    same units) are one step.
    """
    grid, found = view.grid, []
    budget = logic.container_budget(view, "container-exclusion")
    decided = sum(1 << i for i in view.stars | view.blanks)
    open_masks = [mask & ~decided for mask in grid.masks]
    tight = sorted(
        (
            (len(c.cells) - 4 * (c.need - 1), sum(1 << i for i in c.cells), c)
            for c in containers(view)
        ),
        key=_slack,
    )
    # A star's 3x3 neighbourhood holds at most 4 cells no two of which share a 2x2 block, so
    # a container with need + 4 such cells keeps room for its stars unless units fill.
    near = [
        entry for entry in tight if grid.spread(entry[1], entry[2].need + 4) < entry[2].need + 4
    ]
    for x in sorted(set(grid.cells) - view.stars - view.blanks):
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
    return [_excluded(view, group) for group in gathered(found, _rests_on)]


def _slack(entry: tuple[int, int, Container]) -> int:
    """A container's undecided cells beyond what its stars but one could fill in 2x2 blocks."""
    return entry[0]


def _starved(
    view: View,
    x: int,
    filled: list[int],
    effect: int,
    reach: list[tuple[int, int, Container]],
    budget: Budget,
) -> Squeezed | None:
    """How a star at x (filling `filled`) leaves one of the containers too little room (if so)."""
    grid = view.grid
    for _, mask, container in reach:
        if not mask & effect:
            continue
        need = container.need - (x in container.cells)
        left = mask & ~effect
        if need <= 0 or left.bit_count() > 4 * (need - 1) or grid.spread(left, need) >= need:
            continue
        if not budget.spend(len(container.cells)):
            return None
        room = frozenset(i for i in container.cells if not effect >> i & 1)
        cover = grid.cover(room, need - 1)
        if cover is None:
            continue
        full = tuple(u for u in filled if grid.sets[u] & container.cells - {x})
        return Squeezed(x, container, full, need, len(cover) if room else 0)
    return None


def _rests_on(squeezed: Squeezed) -> tuple[Container, tuple[int, ...]]:
    """What the argument rests on: the container and the units it fills besides its own."""
    container = squeezed.container
    return container, tuple(u for u in squeezed.full if u not in container.units)


def _excluded(view: View, group: list[Squeezed]) -> Found:
    """The step: a star at any of the cells would leave the container too little room."""
    grid, first = view.grid, group[0]
    container, more = _rests_on(first)
    xs = [squeezed.x for squeezed in group]
    at, so = star_at(grid, xs)
    fulls = [squeezed.full for squeezed in group]
    fill = filling(grid, fulls)
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
        area = (container.name(view), container.single)
        rooms = [(s.need, s.most) for s in group]
        general = f"{'its' if container.single else 'their'} {plural(container.need, 'star')}"
        text = starving(grid, xs, fulls, area, rooms, general)
    units = (*container.units, *more)
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("container-exclusion", units, cells, frozenset(), frozenset(xs), text)


SPAN = {"row": 2, "column": 2, "region": 4}
"""The 2x2 blocks a 3x3 square's cells in one unit of a kind can span at most."""


class Tally(NamedTuple):
    """A band, the units of one kind meeting it, and their bounds on its stars by 2x2 room."""

    lines: tuple[int, ...]
    meeting: frozenset[int]
    cells: frozenset[int]
    need: int
    bounds: dict[int, tuple[int, int]]
    """Each meeting unit's (most, least) stars in the band."""
    most: int
    least: int
    """Their sums."""
    mask: int
    """The band's undecided cells, as a bit mask."""
    caps: dict[int, tuple[int, int]]
    """Each meeting unit's room (`_caps`) inside and outside the band."""
    units: int
    """The meeting units, as a bit mask."""
    span: int
    """The 2x2 blocks a star's 3x3 square can span in one of them (`_steady`)."""
    steady: bool
    """No star can break its count unless it fills units (`_steady`)."""


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


def _counted_on(miscount: Miscount) -> tuple[tuple[int, ...], frozenset[int], tuple[int, ...]]:
    """What the argument rests on: the band, the units meeting it and the units filled."""
    return miscount.tally.lines, miscount.tally.meeting, miscount.full


def counting_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would leave a band's count impossible by 2x2 room.

    A band's stars come from the units of one kind meeting it, each putting in at most what
    its cells left inside have room for and at least what its cells left outside cannot
    hold (capacity counting); if after a star at X (filling, under pressure, the units that
    need just that star) these bounds cannot add up to what the band needs, X is empty.
    """
    grid = view.grid
    budget = logic.container_budget(view, "counting-exclusion")
    decided = sum(1 << i for i in view.stars | view.blanks)
    open_masks = [mask & ~decided for mask in grid.masks]
    tallies = []
    for lines, others in bands(view):
        cells = frozenset().union(*(view.open[u] for u in lines))
        need = sum(view.need[u] for u in lines)
        for group in others:
            meeting = frozenset(u for u in group if view.open[u] & cells)
            if not meeting or not budget.spend(len(meeting)):
                continue
            caps = {u: _caps(grid, view.need[u], view.open[u], cells) for u in meeting}
            bounds = {u: _from_caps(view.need[u], *caps[u]) for u in meeting}
            most, least = (sum(bound[k] for bound in bounds.values()) for k in (0, 1))
            mask = sum(1 << i for i in cells)
            span = SPAN[grid.kinds[min(meeting)]]
            steady = _steady(view, (meeting, span), bounds, caps, (most - need, need - least))
            units = sum(1 << u for u in meeting)
            tallies.append(
                Tally(
                    lines,
                    meeting,
                    cells,
                    need,
                    bounds,
                    most,
                    least,
                    mask,
                    caps,
                    units,
                    span,
                    steady,
                )
            )
    unsteady = [tally for tally in tallies if not tally.steady]
    miscounts = []
    for x in sorted(set(grid.cells) - view.stars - view.blanks):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        for pressure in ([], filled) if filled else ([],):
            taken = {x, *grid.around[x]}.union(*(view.open[u] for u in pressure))
            taken_mask = sum(1 << i for i in taken) & ~decided
            gone = {
                u: (open_masks[u] & taken_mask, open_masks[u] & ~taken_mask)
                for i in taken
                for u in grid.units_of[i]
            }
            miscount = _miscounted(
                view,
                x,
                pressure,
                (taken, taken_mask),
                gone,
                tallies if pressure else unsteady,
                budget,
            )
            if miscount is not None:
                miscounts.append(miscount)
                break
    return [_miscounted_step(view, group) for group in gathered(miscounts, _counted_on)]


def _caps(grid: Grid, need: int, cells: frozenset[int], band: frozenset[int]) -> tuple[int, int]:
    """The stars a unit's cells inside and outside a band can hold: their fewest 2x2 blocks."""
    if need <= 0:
        return 0, 0
    return grid.capacity(cells & band, need + 1), grid.capacity(cells - band, need + 1)


def _steady(
    view: View,
    meeting_span: tuple[frozenset[int], int],
    bounds: dict[int, tuple[int, int]],
    caps: dict[int, tuple[int, int]],
    slack: tuple[int, int],
) -> bool:
    """Whether no star that fills no unit can break a band's count, by its (most, least) slack.

    The star takes a 3x3 square: taking cells lowers a part's room by at most the 2x2
    blocks they span, 2 of a line's 3 adjacent cells and 4 of a region's (9 cells in all),
    and its own unit needs one star less. So the meeting units' bounds move by at most so
    much; a band whose slack on both sides is that large keeps its count.
    """
    grid, need, (meeting, span) = view.grid, view.need, meeting_span
    most_units = 9 if grid.kinds[min(meeting)] == "region" else 3
    drops = sorted((min(bounds[u][0], span) for u in meeting), reverse=True)
    rises = sorted(
        (min(need[u], span - max(0, caps[u][1] - need[u])) for u in meeting), reverse=True
    )
    drop = 1 + min(9, sum(drops[:most_units]))
    rise = min(9, sum(rises[:most_units]))
    return slack[0] >= drop and slack[1] - 1 >= rise


def _from_caps(need: int, inside: int, outside: int) -> tuple[int, int]:
    """A unit's (most, least) stars in a band, from the room of its cells inside and outside."""
    if need <= 0:
        return 0, 0
    return min(need, inside), max(0, need - outside)


def _miscounted(
    view: View,
    x: int,
    filled: list[int],
    taken: tuple[set[int], int],
    gone: dict[int, tuple[int, int]],
    tallies: list[Tally],
    budget: Budget,
) -> Miscount | None:
    """How a star at x leaves some band's bounds unable to add up to its need (if so).

    `taken` holds the cells the star takes (and as a bit mask, the undecided ones), `gone`
    the undecided cells it takes from each unit it touches and those the unit keeps, as bit
    masks. Taking a cell lowers a part's room by one 2x2 block at most, so bounds that cannot
    break the count even so spare the exact ones (a cover search each): first for the band as
    a whole (the units of one kind share no cell), then per unit. A unit needing one star at
    most has room for it where it keeps a cell: exact at once.
    """
    grid, (cells_taken, taken_mask) = view.grid, taken
    needs = {u: 0 if u in filled else view.need[u] - (x in grid.sets[u]) for u in gone}
    touched, spread = sum(1 << u for u in gone), taken_mask.bit_count()
    for tally in tallies:
        affected = tally.units & touched
        if not affected:
            continue
        if not budget.spend(affected.bit_count()):
            return None
        band = tally.mask
        need = tally.need - (band >> x & 1)
        inside = (taken_mask & band).bit_count()
        lowest = tally.most - inside - 1
        if filled:
            lowest -= sum(tally.bounds[u][0] for u in filled if affected >> u & 1)
        if lowest >= need >= tally.least + spread - inside:
            continue
        # a star alone takes a 3x3 square: at most `span` blocks of a part (`_steady`)
        span = len(grid.cells) if filled else tally.span  # filled units: no such bound
        lowest, highest, rough = tally.most, tally.least, []
        while affected:
            u = (affected & -affected).bit_length() - 1
            affected &= affected - 1
            (inside, outside), (had_most, had_least) = tally.caps[u], tally.bounds[u]
            left, (lost, kept) = needs[u], gone[u]
            if left > 1:
                inside -= min(span, (lost & band).bit_count())
                outside -= min(span, (lost & ~band).bit_count())
                rough.append((u, min(left, inside), max(0, left - outside)))
                lowest += rough[-1][1] - had_most
                highest += rough[-1][2] - had_least
            elif left == 1:
                lowest += bool(kept & band) - had_most
                highest += (not kept & ~band) - had_least
            else:
                lowest, highest = lowest - had_most, highest - had_least
        if lowest >= need >= highest:  # no new bounds of these units can break the count
            continue
        most, least = lowest, highest  # exact but for the rough units'
        for u, rough_most, rough_least in rough:
            cells = view.open[u] - cells_taken
            new = _from_caps(needs[u], *_caps(grid, needs[u], cells, tally.cells))
            most += new[0] - rough_most
            least += new[1] - rough_least
        if most < need or least > need:
            full = tuple(u for u in filled if u not in tally.lines and u not in tally.meeting)
            return Miscount(x, tally, full, need, (most, least))
    return None


def _miscounted_step(view: View, group: list[Miscount]) -> Found:
    """The step: a star at any of the cells would leave a band's count impossible."""
    grid, first = view.grid, group[0]
    tally, full = first.tally, first.full
    xs = [miscount.x for miscount in group]
    at, so = star_at(grid, xs)
    band, meeting = units_text(grid, tally.lines), tuple(sorted(tally.meeting))
    others = units_text(grid, meeting)
    if len(others) > SENTENCE_LIMIT // 4:
        others = f"the {len(meeting)} {grid.kinds[meeting[0]]}s meeting {band}"
    fill = filling(grid, [full])
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
    generally = [
        f"{star_at(grid, xs, counted)[0]} would {filling(grid, [full], brief)}leave {others} "
        f"unable to give {band} the stars {'they need' if len(tally.lines) > 1 else 'it needs'} "
        f"(counting 2x2 blocks), so {so}"
        for counted, brief in ((False, False), (True, False), (True, True))
    ]
    text = within([text, *generally] if len(alike) == 1 else generally)
    units = (*tally.lines, *meeting, *full)
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("counting-exclusion", units, cells, frozenset(), frozenset(xs), text)
