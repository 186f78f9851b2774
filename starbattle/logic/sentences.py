"""Words the techniques share: units and outcomes in cell numbers, said as people say them."""

from __future__ import annotations

from collections.abc import Iterable

from starbattle.logic.grid import Grid, View
from starbattle.model.units import KINDS
from starbattle.words import joined, listing, plural

SENTENCE_LIMIT = 200
"""The longest sentence a step says; longer ones say less (e.g. 'these 9 units')."""


def units_text(grid: Grid, units: Iterable[int]) -> str:
    """'rows 3-4', 'regions B and F', 'column 2': units of one kind, consecutive lines a range.

    Regions called by words: 'the red and blue regions'.
    """
    units = sorted(units)
    kind = grid.kinds[units[0]]
    labels = [grid.labels[u] for u in units]
    if kind == "region" and grid.worded:
        return f"the {joined(labels)} region{'s' if len(labels) > 1 else ''}"
    numbers = [int(label) for label in labels] if kind != "region" else []
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{kind}s {numbers[0]}-{numbers[-1]}"
    return listing(kind, labels)


def units_phrase(grid: Grid, units: Iterable[int]) -> str:
    """'rows 1-2, column 4 and region B' (or 'these 9 units' when that is too long)."""
    units = sorted(units)
    if not units:
        return "the marks"
    kinds = [[u for u in units if grid.kinds[u] == kind] for kind in KINDS]
    text = joined([units_text(grid, group) for group in kinds if group])
    return text if len(text) <= SENTENCE_LIMIT // 2 else f"these {len(units)} units"


def outcome(grid: Grid, stars: Iterable[int], blanks: Iterable[int]) -> str:
    """'(3,4) is a star', '(1,2) and (1,3) are empty', '5 cells are empty', joined by 'and'."""
    parts = []
    said = ((sorted(stars), "a star", "stars"), (sorted(blanks), "empty", "empty"))
    for cells, one, many in said:
        if len(cells) == 1:
            parts.append(f"{grid.where(cells[0])} is {one}")
        elif 1 < len(cells) <= 3:
            parts.append(f"{joined([grid.where(i) for i in cells])} are {many}")
        elif cells:
            parts.append(f"{len(cells)} cells are {many}")
    return " and ".join(parts)


def needed(view: View, unit: int) -> str:
    """'1 star', '2 more stars': the stars a unit still needs (more when it has some)."""
    return plural(view.need[unit], "more star" if view.has[unit] else "star")
