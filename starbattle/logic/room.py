"""Level 4: too little room (a star that would leave a unit too little room for its stars)."""

from __future__ import annotations

from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import units_phrase
from starbattle.words import plural


def too_little_room(view: View) -> list[Found]:
    """A cell whose star would leave some unit too little room for its stars is empty.

    Exclusion when the cells around that star alone do it, pressured exclusion when the
    units it would fill (those needing just that star) are needed too.
    """
    grid, found = view.grid, []
    decided = sum(1 << i for i in view.stars | view.blanks)
    open_masks = [mask & ~decided for mask in grid.masks]
    for x in sorted(set(grid.cells) - view.stars - view.blanks):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        step = _starved(view, x, [], open_masks) or (
            _starved(view, x, filled, open_masks) if filled else None
        )
        if step is not None:
            found.append(step)
    return found


def _starved(view: View, x: int, filled: list[int], open_masks: list[int]) -> Found | None:
    """The step if a star at x, with the `filled` units full, leaves a unit too little room.

    Cells are bit masks here first (a unit's room must shrink to at most 4 cells per
    star it can still hold) so that most cell and unit pairs are ruled out at once.
    """
    grid = view.grid
    effect, taken = grid.reach[x], {x, *grid.around[x]}
    touched = set(grid.near[x])
    for unit in filled:
        effect |= open_masks[unit]
        taken |= view.open[unit]
        touched.update(u for i in view.open[unit] for u in grid.units_of[i])
    for unit in sorted(touched):
        need = view.need[unit] - (x in grid.sets[unit])
        if need <= 0 or (open_masks[unit] & ~effect).bit_count() > 4 * (need - 1):
            continue
        room = view.open[unit] - taken
        cover = grid.cover(room, need - 1)
        if cover is None:
            continue
        full = tuple(u for u in filled if u != unit and grid.sets[u] & view.open[unit])
        space = f"room for at most {plural(len(cover), 'star')}" if room else "no room"
        fill = f"fill {units_phrase(grid, full)} and " if full else ""
        text = (
            f"a star at {grid.where(x)} would {fill}leave {grid.names[unit]} {space}, "
            f"but it needs {need}, so {grid.where(x)} is empty"
        )
        units = (unit, *full)
        cells = tuple(sorted({x, *view.marks_in(units)}))
        return Found("too-little-room", units, cells, frozenset(), frozenset({x}), text)
    return None
