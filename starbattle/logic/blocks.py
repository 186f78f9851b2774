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
        if need <= 0 or len(cells) <= need:
            continue
        cover = grid.cover(cells, need)
        if cover is None or len(cover) != need:
            continue
        counts: dict[int, int] = {}
        for block in cover:
            for i in block & cells:
                counts[i] = counts.get(i, 0) + 1
        blanks = {i for i, k in counts.items() if k > 1}
        stars: set[int] = set()
        while True:  # one argument: the cover followed until it concludes nothing more
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
                break
        if not stars and not blanks:
            continue
        fit = "one 2x2 block" if need == 1 else f"{need} 2x2 blocks, one star each"
        text = (
            f"{grid.names[unit]} needs {needed(view, unit)} and its undecided cells fit in "
            f"{fit}, so {outcome(grid, stars, blanks)}"
        )
        marks = view.marks_in((unit,))
        found.append(Found("2x2-blocks", (unit,), marks, frozenset(stars), frozenset(blanks), text))
    return found
