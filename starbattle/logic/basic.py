"""Levels 1 and 2: around a star, full units, forced fill."""

from __future__ import annotations

from collections.abc import Iterator

from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import needed
from starbattle.words import owned


def around(view: View, i: int) -> Found | None:
    """The star at i empties its undecided neighbours (None: it has none)."""
    grid = view.grid
    near = frozenset(j for j in grid.around[i] if j not in view.stars and j not in view.blanks)
    if not near:
        return None
    text = f"no two stars touch, so the cells around the star at {grid.where(i)} are empty"
    return Found("around-star", (), (i,), frozenset(), near, text)


def filled(view: View, unit: int) -> Found | None:
    """A unit with all its stars empties its undecided cells (None: it has none, or room)."""
    grid = view.grid
    if view.need[unit] != 0 or not view.open[unit]:
        return None
    held = owned("its", grid.quota, "star")
    text = f"{grid.names[unit]} has {held}, so its other cells are empty"
    cells = tuple(i for i in grid.members[unit] if i in view.stars)
    return Found("full-unit", (unit,), cells, frozenset(), frozenset(view.open[unit]), text)


def forced(view: View, unit: int) -> Found | None:
    """A unit with as many undecided cells as stars it needs: they are stars (else None)."""
    grid, need, cells = view.grid, view.need[unit], view.open[unit]
    if not 0 < need == len(cells):
        return None
    if need == 1:
        then = f"{grid.where(min(cells))} is its only undecided cell, so it is a star"
    else:
        then = f"has just {need} undecided cells, so they are all stars"
    text = f"{grid.names[unit]} needs {needed(view, unit)} and {then}"
    return Found(
        "forced-fill", (unit,), view.marks_in((unit,)), frozenset(cells), frozenset(), text
    )


def around_star(view: View) -> Iterator[Found]:
    """The undecided neighbours of a star are empty."""
    for i in sorted(view.stars):
        if (found := around(view, i)) is not None:
            yield found


def full_unit(view: View) -> Iterator[Found]:
    """A unit with all its stars has its other cells empty."""
    for unit in range(len(view.need)):
        if (found := filled(view, unit)) is not None:
            yield found


def forced_fill(view: View) -> list[Found]:
    """A unit whose undecided cells are exactly as many as the stars it still needs."""
    return [found for unit in range(len(view.need)) if (found := forced(view, unit)) is not None]
