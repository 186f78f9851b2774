"""Level 5: exclusion against a container (a star that would leave a band or area too little room).

Level 4's argument with a container (starbattle.logic.containers) as the starved unit: a star
at X takes X and its neighbours and, under pressure, fills the units that need just that
star, emptying their other cells. If the cells a container has left then fit in fewer 2x2
blocks than the stars it still needs, X is empty. This covers finned counts, pressured
exclusion against a squeezed band, and kissing Ls.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from starbattle.logic.containers import Container, containers
from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import SENTENCE_LIMIT, units_phrase
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
    slack = [entry[0] for entry in tight]
    for x in sorted(set(grid.cells) - view.stars - view.blanks):
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        for pressure in ([], filled) if filled else ([],):
            effect = grid.reach[x]
            for unit in pressure:
                effect |= open_masks[unit]
            reach = tight[: bisect_right(slack, effect.bit_count())]
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
        if need <= 0 or (mask & ~effect).bit_count() > 4 * (need - 1):
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
