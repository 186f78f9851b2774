"""Words the techniques share: units and outcomes in cell numbers, said as people say them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from starbattle.logic.grid import Grid, View
from starbattle.model.units import KINDS
from starbattle.words import joined, listing, numbered, plural

SENTENCE_LIMIT = 200
"""The longest sentence a step says; longer ones say less (e.g. 'these 9 units')."""


def units_text(grid: Grid, units: Iterable[int]) -> str:
    """'rows 3-4', 'rows 1-4 and 7', 'regions B and F': units of one kind, runs of lines ranges.

    Regions called by words: 'the red and blue regions'.
    """
    units = sorted(units)
    kind = grid.kinds[units[0]]
    labels = [grid.labels[u] for u in units]
    if kind == "region" and grid.worded:
        return f"the {joined(labels)} region{'s' if len(labels) > 1 else ''}"
    if kind == "region":
        return listing(kind, labels)
    return numbered(kind, [int(label) for label in labels])


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


def within(texts: Iterable[str]) -> str:
    """The first of these ways to say a step within SENTENCE_LIMIT (else the last)."""
    text = ""
    for text in texts:
        if len(text) <= SENTENCE_LIMIT:
            break
    return text


def star_at(grid: Grid, cells: Sequence[int], counted: bool = False) -> tuple[str, str]:
    """'a star at (1,1) or (1,2)' and 'they are empty' ('(1,1) is empty' for one cell).

    The cells a step's one argument empties, said together (one argument, one step); many
    cells, or three or more `counted`, are 'any of these 9 cells' (two are named: shorter).
    """
    where = joined([grid.where(i) for i in cells], "or")
    if (len(cells) > 2 and counted) or (len(cells) > 1 and len(where) > SENTENCE_LIMIT // 4):
        where = f"any of these {len(cells)} cells"
    so = f"{grid.where(cells[0])} is empty" if len(cells) == 1 else "they are empty"
    return f"a star at {where}", so


def filling(
    grid: Grid, cells: Sequence[int], fulls: Iterable[Sequence[int]], short: bool = False
) -> str:
    """'fill row 1 and ': what a star at each of the cells would fill under pressure.

    When the cells fill different units: 'fill those of row 4 and column 1 it lies in and '
    (a star fills each unit it lies in that needs just that star; so when every cell lies in
    every unit filled, the units are named plainly); `short`: 'fill its units that need just
    that star and '; '' when none.
    """
    alike = {tuple(full) for full in fulls}
    every = sorted({u for full in alike for u in full})
    if not every:
        return ""
    if short:
        return "fill its units that need just that star and "
    if len(alike) == 1 or all(set(cells) <= grid.sets[u] for u in every):
        return f"fill {units_phrase(grid, every)} and "
    if len(every) == 1:
        return f"fill {grid.names[every[0]]} if it lies in it and "
    return f"fill those of {units_phrase(grid, every)} it lies in and "


def starving(
    grid: Grid,
    cells: Sequence[int],
    fulls: Iterable[Sequence[int]],
    area: tuple[str, bool],
    rooms: Iterable[tuple[int, int]],
    general: str,
    shapes: str = "",
) -> str:
    """Cells whose star would leave an area too little room, said together.

    'a star at (1,1) or (1,2) would fill row 1 and leave region A no room, but it needs 1,
    so they are empty'. `fulls` are what each star would fill under pressure, `area` the
    area's name and whether it is one thing ('it needs'), `rooms` each cell's (stars the
    area would need, room it would have); when they differ, it is said generally: too
    little room for `general`. `shapes` tells how the room is counted ('a pressured T').
    """
    name, single = area
    fulls = list(fulls)
    aside = f" ({shapes})" if shapes else ""
    if len(alike := set(rooms)) == 1:
        [(need, room)] = alike
        space = f"room for at most {plural(room, 'star')}" if room else "no room"
        left = f"{space}{aside}, but {'it needs' if single else 'they need'} {need}"
    else:  # some inside the area, some outside: a star of its own or not
        left = f"too little room{aside} for {general}"
    said = []
    for counted, short in ((False, False), (True, False), (True, True)):
        at, so = star_at(grid, cells, counted)
        said.append(f"{at} would {filling(grid, cells, fulls, short)}leave {name} {left}, so {so}")
    return within(said)
