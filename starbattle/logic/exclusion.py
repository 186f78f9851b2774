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
from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.sentences import SENTENCE_LIMIT, units_phrase, units_text
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Budget, Logic


def container_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would leave some container too little room."""
    grid, found = view.grid, []
    budget = logic.container_budget(view, "container-exclusion")
    decided = sum(1 << i for i in view.stars | view.blanks)
    open_masks = [mask & ~decided for mask in grid.masks]
    tight = sorted(
        (
            (len(c.cells) - 4 * (c.need - 1), sum(1 << i for i in c.cells), c)
            for c in containers(view)
        ),
        key=lambda entry: entry[0],
    )
    # A star's 3x3 neighbourhood holds at most 4 cells no two of which share a 2x2 block, so
    # a container with need + 4 such cells keeps room for its stars unless units fill.
    near = [
        entry for entry in tight if grid.spread(entry[1], entry[2].need + 4) < entry[2].need + 4
    ]
    slacks = [entry[0] for entry in near], [entry[0] for entry in tight]
    for x in sorted(set(grid.cells) - view.stars - view.blanks):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        for pressure in ([], filled) if filled else ([],):
            effect = grid.reach[x]
            for unit in pressure:
                effect |= open_masks[unit]
            candidates, slack = (tight, slacks[1]) if pressure else (near, slacks[0])
            reach = candidates[: bisect_right(slack, effect.bit_count())]
            step = _starved(view, x, pressure, effect, reach, budget)
            if step is not None:
                found.append(step)
                break
    return found


def _starved(
    view: View,
    x: int,
    filled: list[int],
    effect: int,
    reach: list[tuple[int, int, Container]],
    budget: Budget,
) -> Found | None:
    """The step if a star at x (filling `filled`) leaves one of the containers too little room."""
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
        return _excluded(view, x, container, full, need, len(cover) if room else 0)
    return None


def _excluded(
    view: View, x: int, container: Container, full: tuple[int, ...], need: int, most: int
) -> Found:
    """The step: a star at x would leave the container room for `most` stars of `need`."""
    grid, where = view.grid, view.grid.where(x)
    space = f"room for at most {plural(most, 'star')}" if most else "no room"
    fill = f"fill {units_phrase(grid, full)} and " if full else ""
    if x in container.cells:
        then = (
            f"a star at {where} would be one of them and {fill}leave {space} for the other {need}"
        )
    else:
        then = f"a star at {where} would {fill}leave {space} for them"
    text = f"{container.told(view)}; {then}, so {where} is empty"
    if len(text) > SENTENCE_LIMIT:
        text = (
            f"a star at {where} would {fill}leave {container.name(view)} {space}, but "
            f"{'it needs' if container.single else 'they need'} "
            f"{need}, so {where} is empty"
        )
    units = (*container.units, *(u for u in full if u not in container.units))
    cells = tuple(sorted({x, *view.marks_in(units)}))
    return Found("container-exclusion", units, cells, frozenset(), frozenset({x}), text)


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


def counting_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would leave a band's count impossible by 2x2 room.

    A band's stars come from the units of one kind meeting it, each putting in at most what
    its cells left inside have room for and at least what its cells left outside cannot
    hold (capacity counting); if after a star at X (filling, under pressure, the units that
    need just that star) these bounds cannot add up to what the band needs, X is empty.
    """
    grid, found = view.grid, []
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
            tallies.append(Tally(lines, meeting, cells, need, bounds, most, least, mask, caps))
    for x in sorted(set(grid.cells) - view.stars - view.blanks):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        for pressure in ([], filled) if filled else ([],):
            taken = {x, *grid.around[x]}.union(*(view.open[u] for u in pressure))
            taken_mask = sum(1 << i for i in taken) & ~decided
            gone = {u: open_masks[u] & taken_mask for i in taken for u in grid.units_of[i]}
            step = _miscounted(view, x, pressure, (taken, taken_mask), gone, tallies, budget)
            if step is not None:
                found.append(step)
                break
    return found


def _caps(grid: Grid, need: int, cells: frozenset[int], band: frozenset[int]) -> tuple[int, int]:
    """The stars a unit's cells inside and outside a band can hold: their fewest 2x2 blocks."""
    if need <= 0:
        return 0, 0
    return grid.capacity(cells & band, need + 1), grid.capacity(cells - band, need + 1)


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
    gone: dict[int, int],
    tallies: list[Tally],
    budget: Budget,
) -> Found | None:
    """The step if a star at x leaves some band's bounds unable to add up to its need.

    `taken` holds the cells the star takes (and as a bit mask, the undecided ones), `gone`
    those of each unit it touches. Taking a cell lowers a part's room by one 2x2 block at
    most, so bounds that cannot break the count even so spare the exact ones (a cover search
    each): first for the band as a whole (the units of one kind share no cell), then per unit.
    """
    grid, (cells_taken, taken_mask) = view.grid, taken
    needs = {u: 0 if u in filled else view.need[u] - (x in grid.sets[u]) for u in gone}
    for tally in tallies:
        affected = tally.meeting & gone.keys()
        if not affected:
            continue
        if not budget.spend(len(affected)):
            return None
        need = tally.need - (x in tally.cells)
        most, least = tally.most, tally.least
        inside = (taken_mask & tally.mask).bit_count()
        lowest = most - inside - 1 - sum(tally.bounds[u][0] for u in filled if u in affected)
        if lowest >= need >= least + taken_mask.bit_count() - inside:
            continue
        lowest, highest = most, least
        for u in affected:
            (inside, outside), (had_most, had_least) = tally.caps[u], tally.bounds[u]
            left = needs[u]
            if left > 0:
                lost = (gone[u] & tally.mask).bit_count()
                lowest += min(left, inside - lost) - had_most
                highest += max(0, left - outside + gone[u].bit_count() - lost) - had_least
            else:
                lowest, highest = lowest - had_most, highest - had_least
        if lowest >= need >= highest:  # no new bounds of these units can break the count
            continue
        for u in affected:
            cells = view.open[u] - cells_taken
            new = _from_caps(needs[u], *_caps(grid, needs[u], cells, tally.cells))
            most += new[0] - tally.bounds[u][0]
            least += new[1] - tally.bounds[u][1]
        if most < need or least > need:
            return _miscounted_step(view, x, filled, tally, need, (most, least))
    return None


def _miscounted_step(
    view: View, x: int, filled: list[int], tally: Tally, need: int, bounds: tuple[int, int]
) -> Found:
    """The step: a star at x would leave the units meeting a band unable to give it `need`."""
    grid, where = view.grid, view.grid.where(x)
    band, meeting = units_text(grid, tally.lines), tuple(sorted(tally.meeting))
    others = units_text(grid, meeting)
    if len(others) > SENTENCE_LIMIT // 4:
        others = f"the {len(meeting)} {grid.kinds[meeting[0]]}s meeting {band}"
    full = tuple(u for u in filled if u not in tally.lines and u not in tally.meeting)
    fill = f"fill {units_phrase(grid, full)} and " if full else ""
    most, least = bounds
    verb = "need" if len(tally.lines) > 1 else "needs"
    if most < need:
        text = (
            f"a star at {where} would {fill}leave {others} room to put at most "
            f"{plural(most, 'star')} into {band} (counting 2x2 blocks), but {band} {verb} "
            f"{need} more, so {where} is empty"
        )
    else:
        text = (
            f"a star at {where} would {fill}leave {others} so little room outside {band} "
            f"(counting 2x2 blocks) that they put at least {plural(least, 'star')} into it, "
            f"but {band} {verb} only {need} more, so {where} is empty"
        )
    units = (*tally.lines, *meeting, *full)
    cells = tuple(sorted({x, *view.marks_in(units)}))
    return Found("counting-exclusion", units, cells, frozenset(), frozenset({x}), text)
