"""Level 3: 2x2 blocks (two stars in a block of 2x2 cells would touch)."""

from __future__ import annotations

from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import needed, outcome


def blocks(view: View) -> list[Found]:
    """A unit needing k stars whose undecided cells fit in k 2x2 blocks: one star each.

    The cover is followed until it concludes nothing more: a block left with one undecided
    cell holds a star, and cells touching every undecided cell of a block are empty.
    """
    grid, found = view.grid, []
    for unit, need in enumerate(view.need):
        cells = view.open[unit]
        if need <= 0 or len(cells) <= need or not view.fresh(unit):
            continue
        cover = grid.cover(cells, need)
        if cover is None or len(cover) != need:
            continue
        stars, blanks = one_star_each(view, cells, cover)
        if not stars and not blanks:
            continue
        text = (
            f"{grid.names[unit]} needs {needed(view, unit)} and its undecided cells fit in "
            f"{fit(need)}, so {outcome(grid, stars, blanks)}"
        )
        marks = view.marks_in((unit,))
        found.append(Found("2x2-blocks", (unit,), marks, stars, blanks, text))
    return found


def fit(need: int) -> str:
    """'one 2x2 block', '3 2x2 blocks, one star each'."""
    return "one 2x2 block" if need == 1 else f"{need} 2x2 blocks, one star each"


def one_star_each(
    view: View, cells: frozenset[int], cover: list[frozenset[int]]
) -> tuple[frozenset[int], frozenset[int]]:
    """What follows when the undecided cells hold one star in each block of their cover.

    A cell in two blocks is empty (its star would count for both), a block's lone candidate
    is a star, and the undecided cells touching every candidate of a block are empty; one
    argument, so the cover is followed until it concludes nothing more.
    """
    grid = view.grid
    counts: dict[int, int] = {}
    for block in cover:
        for i in block & cells:
            counts[i] = counts.get(i, 0) + 1
    blanks = {i for i, k in counts.items() if k > 1}
    stars: set[int] = set()
    while True:
        before = len(stars) + len(blanks)
        for block in cover:
            candidates = (block & cells) - blanks
            if len(candidates) == 1:
                stars |= candidates
            if not candidates:  # a contradiction, left for the state check to name
                continue
            common = set.intersection(*(set(grid.around[i]) for i in candidates))
            blanks |= {j for j in common if j not in view.stars and j not in view.blanks}
        blanks -= stars
        if len(stars) + len(blanks) == before:
            return frozenset(stars), frozenset(blanks)
