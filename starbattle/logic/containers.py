"""Containers: areas of a known star count made of bands of lines and the units meeting them.

A band is 1 to N-1 adjacent rows (or columns); the other units are the regions, or the
columns (rows). Three kinds of container follow from the stars each still needs:
- the band itself (2 to 4 lines): its undecided cells hold the stars its lines need;
- the band without the other units lying inside it: the rest of the band holds the band's
  stars less theirs;
- the other units meeting the band, outside it: they hold their stars less the band's.
Every container is made once per state (View.memo) and shared by the techniques on them:
tiling, counting with 2x2 room, and exclusion.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property

from starbattle.logic.grid import View, bits
from starbattle.logic.sentences import SENTENCE_LIMIT, units_text
from starbattle.words import plural

SQUEEZE_LINES = 4
"""The most lines of a band taken as a container by itself (band tiling, the squeeze)."""
Band = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
"""A band's lines, and the groups of other units (`bands`)."""


@dataclass(frozen=True, eq=False)
class Container:
    """An area of undecided cells and the stars it holds, with the units that say so.

    Each is made once per state (`containers`), so one is itself alone (compared as an
    object); its set of cells is made when first asked (most are only screened by mask).
    """

    need: int
    lines: tuple[int, ...]
    """The band's lines."""
    others: tuple[int, ...]
    """The units lying inside the band ("inside") or meeting it ("outside"); none for "band"."""
    way: str
    """"band", "inside" (the band without the units inside it) or "outside" (the units
    meeting the band, outside it)."""
    mask: int
    """Its cells, as a bit mask."""

    @cached_property
    def cells(self) -> frozenset[int]:
        """Its cells."""
        return frozenset(bits(self.mask))

    @property
    def units(self) -> tuple[int, ...]:
        """The premise units: the band's lines, then the others."""
        return (*self.lines, *self.others)

    def told(self, view: View) -> str:
        """Why the area holds its stars: 'rows 3-4 need 4 stars', or the bookkeeping."""
        grid, lines = view.grid, units_text(view.grid, self.lines)
        band = f"{lines} {need_verb(self.lines)} {stars_needed(view, self.lines)}"
        if self.way == "band":
            return band
        others = units_text(grid, self.others)
        if len(others) > SENTENCE_LIMIT // 4:
            others = f"the {len(self.others)} {grid.kinds[self.others[0]]}s"
        held = plural(self.need, "star")
        them = "them" if len(self.lines) > 1 else "it"
        if self.way == "inside":
            return (
                f"{band} and {others} lying inside {them} {need_verb(self.others)} "
                f"{stars_needed(view, self.others)}, so the rest of {lines} holds {held}"
            )
        if self.rest(view):
            named = self.name(view)
            return (
                f"{others} {need_verb(self.others)} {stars_needed(view, self.others)} and "
                f"{band}, so {named} {'holds' if self.single(view) else 'hold'} {held}"
            )
        meet = "which meet" if len(self.others) > 1 else "which meets"
        their = "their" if len(self.others) > 1 else "its"
        return (
            f"{others}, {meet} {lines}, {need_verb(self.others)} "
            f"{stars_needed(view, self.others)} and {band}, so {their} cells outside {lines} "
            f"hold {held}"
        )

    def rest(self, view: View) -> tuple[int, ...]:
        """The band's kind's other lines, if it is every crossing line's undecided cells outside.

        That is when its units are every crossing line with undecided cells: its cells are
        then those lines' (none otherwise, and for the other ways).
        """
        n = view.grid.n
        if self.way != "outside" or view.grid.kinds[self.others[0]] == "region":
            return ()
        kind, crossing = (
            (range(n), range(n, 2 * n)) if self.lines[0] < n else (range(n, 2 * n), range(n))
        )
        if any(view.open_masks[u] for u in crossing if u not in self.others):
            return ()
        return tuple(u for u in kind if u not in self.lines)

    def name(self, view: View) -> str:
        """'rows 3-4', 'the rest of rows 3-5', 'region B outside rows 3-5', 'rows 1-2'."""
        grid, lines = view.grid, units_text(view.grid, self.lines)
        if self.way == "band":
            return lines
        if self.way == "inside":
            return f"the rest of {lines}"
        if rest := self.rest(view):
            return units_text(grid, rest)
        return f"{units_text(grid, self.others)} outside {lines}"

    def single(self, view: View) -> bool:
        """Whether its name is said as one thing ('the rest of rows 3-5', 'row 4')."""
        units = (self.rest(view) or self.others) if self.way == "outside" else self.lines
        return self.way == "inside" or len(units) == 1

    def holds(self, view: View) -> str:
        """'rows 3-4 need', 'the rest of rows 3-5 needs': the name and its verb."""
        return f"{self.name(view)} {'needs' if self.single(view) else 'need'}"


def need_verb(units: tuple[int, ...]) -> str:
    """'need' for several units, 'needs' for one."""
    return "need" if len(units) > 1 else "needs"


def stars_needed(view: View, units: tuple[int, ...]) -> str:
    """'4 stars', '3 more stars': the stars some units still need together."""
    total = sum(view.need[u] for u in units)
    return plural(total, "more star" if any(view.has[u] for u in units) else "star")


def bands(view: View) -> list[Band]:
    """Every band of 1 to N-1 adjacent lines that needs stars, smallest first, with the others.

    The others are the units that need stars: the regions, then the perpendicular lines.
    """
    grid, n = view.grid, view.grid.n
    wanted = [u for u in range(len(grid.units)) if view.need[u] > 0 and view.open[u]]
    regions = tuple(u for u in wanted if grid.kinds[u] == "region")
    across = {
        "row": tuple(u for u in wanted if grid.kinds[u] == "column"),
        "column": tuple(u for u in wanted if grid.kinds[u] == "row"),
    }
    every = [
        tuple(lines[start : start + size])
        for size in range(1, n)
        for lines in (grid.rows, grid.columns)
        for start in range(n - size + 1)
    ]
    return [
        (band, (regions, across[grid.kinds[band[0]]]))
        for band in every
        if sum(view.need[u] for u in band) > 0
    ]


def containers(view: View, most_lines: int | None = None) -> list[Container]:
    """Every container of the state, each area once (the first, smallest band's), cached.

    With `most_lines`, those of the bands of that many lines at most: the same first
    containers, the others not made (band tiling needs no more than SQUEEZE_LINES). Worked
    out on bit masks; an area's set of cells is made when a technique first asks for it.
    """
    if "containers" not in view.memo:
        view.memo["containers"] = _Made(bands(view))
    made: _Made = view.memo["containers"]  # type: ignore[assignment]
    last = len(made.bands)
    if most_lines is not None:
        last = bisect_right(made.bands, most_lines, key=_size)
    for lines, others in made.bands[made.done : last]:
        _add(view, lines, others, made)
    made.done = max(made.done, last)
    return made.found if last == len(made.bands) else made.found[: made.counted[last]]


@dataclass
class _Made:
    """The containers of a state made so far, band by band in `bands`' order."""

    bands: list[Band]
    found: list[Container] = field(default_factory=list)
    seen: set[tuple[int, int]] = field(default_factory=set)
    """The (mask, stars) of the areas made."""
    done: int = 0
    """The bands made."""
    counted: list[int] = field(default_factory=lambda: [0])
    """How many containers the first k bands made, for each k up to `done`."""


def _size(band: Band) -> int:
    """A band's number of lines."""
    return len(band[0])


def _add(
    view: View, lines: tuple[int, ...], others: tuple[tuple[int, ...], ...], made: _Made
) -> None:
    """The containers a band makes that no band before it made."""
    masks, needs, found, seen = view.open_masks, view.need, made.found, made.seen
    need, band = sum(needs[u] for u in lines), 0
    for u in lines:
        band |= masks[u]
    areas = [(band, need, (), "band")] if 2 <= len(lines) <= SQUEEZE_LINES else []
    for group in others:
        inside = tuple(u for u in group if not masks[u] & ~band)
        if inside:
            rest = band
            for u in inside:
                rest &= ~masks[u]
            areas.append((rest, need - sum(needs[u] for u in inside), inside, "inside"))
        meeting = tuple(u for u in group if masks[u] & band)
        if meeting:
            outside = 0
            for u in meeting:
                outside |= masks[u]
            held = sum(needs[u] for u in meeting) - need
            areas.append((outside & ~band, held, meeting, "outside"))
    for mask, held, units, way in areas:
        if not mask or held <= 0 or (mask, held) in seen:
            continue
        seen.add((mask, held))
        found.append(Container(held, lines, units, way, mask))
    made.counted.append(len(found))
