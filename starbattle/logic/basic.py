"""Levels 1 and 2: around a star, full units, forced fill."""

from __future__ import annotations

from collections.abc import Iterator

from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import needed
from starbattle.words import plural


def around_star(view: View) -> Iterator[Found]:
    """The undecided neighbours of a star are empty."""
    grid = view.grid
    for i in sorted(view.stars):
        near = frozenset(j for j in grid.around[i] if j not in view.stars and j not in view.blanks)
        if near:
            text = f"no two stars touch, so the cells around the star at {grid.where(i)} are empty"
            yield Found("around-star", (), (i,), frozenset(), near, text)


def full_unit(view: View) -> Iterator[Found]:
    """A unit with all its stars has its other cells empty."""
    grid = view.grid
    for unit, need in enumerate(view.need):
        if need == 0 and view.open[unit]:
            text = (
                f"{grid.names[unit]} has its {plural(grid.quota, 'star')}, so its other cells "
                "are empty"
            )
            cells = tuple(i for i in grid.members[unit] if i in view.stars)
            yield Found("full-unit", (unit,), cells, frozenset(), frozenset(view.open[unit]), text)


def forced_fill(view: View) -> list[Found]:
    """A unit whose undecided cells are exactly as many as the stars it still needs."""
    grid, found = view.grid, []
    for unit, need in enumerate(view.need):
        cells = view.open[unit]
        if 0 < need == len(cells):
            if need == 1:
                only = grid.where(min(cells))
                then = f"{only} is its only undecided cell, so it is a star"
            else:
                then = f"has just {need} undecided cells, so they are all stars"
            text = f"{grid.names[unit]} needs {needed(view, unit)} and {then}"
            marks = view.marks_in((unit,))
            found.append(Found("forced-fill", (unit,), marks, frozenset(cells), frozenset(), text))
    return found
