"""Level 4: too little room (a star that would leave a unit too little room for its stars)."""

from __future__ import annotations

from typing import NamedTuple

from starbattle.logic.grid import Found, View, and_filled, bits, gathered
from starbattle.logic.sentences import needed, starving


class Starved(NamedTuple):
    """A star at x would leave a unit room for at most `room` of the `need` stars it needs.

    (`need` counts the stars the unit needs besides x's own.)
    """

    x: int
    unit: int
    full: tuple[int, ...]
    """The units the star would fill that hold cells of the unit (pressured exclusion)."""
    need: int
    room: int


def too_little_room(view: View) -> list[Found]:
    """Cells whose star would leave some unit too little room for its stars are empty.

    Exclusion when the cells around that star alone do it, pressured exclusion when the
    units it would fill (those needing just that star) are needed too. One argument, one
    step: the cells that starve the same unit are one step, whatever units each fills (on a
    1-star board every star fills its own row and column).
    """
    grid, found, open_masks = view.grid, [], view.open_masks
    for x in sorted(set(grid.cells) - view.stars - view.blanks - view.seen_star):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        starved = _starved(view, x, [], open_masks) or (
            _starved(view, x, filled, open_masks) if filled else None
        )
        if starved is not None:
            found.append(starved)
    return [_step(view, group) for group in gathered(found, lambda s: s.unit)]


def _starved(view: View, x: int, filled: list[int], open_masks: list[int]) -> Starved | None:
    """How a star at x, with the `filled` units full, leaves a unit too little room (if so).

    Cells are bit masks here (a unit's room must shrink to at most 4 cells per star it can
    still hold before a cover is looked for) so that most cell and unit pairs are ruled
    out at once. With View.changed known and no filled unit changed, the units left as
    they were starve no more than they did there, so only the changed ones are looked at.
    """
    grid, effect, changed = view.grid, view.grid.reach[x], view.changed
    for unit in filled:
        effect |= open_masks[unit]
    units = [u for u, mask in enumerate(grid.masks) if mask & effect] if filled else grid.near[x]
    if changed is not None and not changed.intersection(filled):
        units = [u for u in units if u in changed]
    for unit in units:
        need = view.need[unit] - (x in grid.sets[unit])
        room = open_masks[unit] & ~effect
        if need <= 0 or room.bit_count() > 4 * (need - 1) or grid.capacity(room, need) == need:
            continue
        cover = grid.cover(frozenset(bits(room)), need - 1)
        assert cover is not None
        full = tuple(u for u in filled if u != unit and grid.sets[u] & view.open[unit])
        return Starved(x, unit, full, need, len(cover))
    return None


def _step(view: View, group: list[Starved]) -> Found:
    """One step for the cells that starve one unit alike."""
    grid, first = view.grid, group[0]
    xs = [starved.x for starved in group]
    rooms = [(starved.need, starved.room) for starved in group]
    area = (grid.names[first.unit], True)
    fulls = [starved.full for starved in group]
    text = starving(grid, xs, fulls, area, rooms, needed(view, first.unit))
    units = and_filled([first.unit], fulls)
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("too-little-room", units, cells, frozenset(), frozenset(xs), text)
