"""Level 5: band enumeration (a star that leaves a band of 2-4 lines no way to place theirs).

Pair enumeration lists the ways to place two units' last stars; a player stuck on a large
1-star board does the same along a band: two to four adjacent rows (or columns) that each
need one more star. With a star put at a cell X, the band's stars are placed line by line,
each joining the stars before it (X's among them) only when together they keep the rules
and leave every unit room for the stars it still needs (pair enumeration's measure: stars
apart, no unit given more than it needs, enough undecided cells left in each). When no
way reaches the band's last line, X is empty. The partial ways listed for X are at most
WAYS (a list a person can check). This decides every cell that each way of the band rules
out (a star there makes every way break a rule), and more: cells that leave a unit too
little room only together with the band's stars. Band enumeration runs last on level 5,
within the ladder's CONTAINER_WORK.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, NamedTuple

from starbattle.logic.grid import Found, View
from starbattle.logic.pairs import Placing, placing, undecided_masks
from starbattle.logic.sentences import star_at, units_text, within
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Budget, Logic

WAYS = 30
"""The most partial ways a person lists to see that a star leaves a band no way: a page of
notes, as many as pair enumeration's ways (the three 1-star puzzles of benchmarks/RESULTS.md
`logic-bands` that still take a trial would need 31, 37 and 95)."""
WIDEST = 4
"""The most lines in a band (the fewest is two)."""
PRODUCT = 20_000
"""The most ways to pick a cell of each of a band's lines (their undecided cells
multiplied): a bound on the work, not on what a person lists (with a star put down, most
ways break a rule at once), that keeps the hint program's grounding finite and a step to
a second or two on 18x18 (two stuck 11x11 states need 13310)."""
SAMPLE = 32
"""The band's ways (no star added) listed first: a cell that one of them keeps the rules
with has a way, and is spared the search."""


class Refuted(NamedTuple):
    """A cell whose star leaves a band no way, the partial ways listed, the units stopping them."""

    cell: int
    ways: int
    cut: frozenset[int]


def band_enumeration(logic: Logic, view: View) -> list[Found]:
    """The first band of 2-4 adjacent lines needing one star each that empties cells.

    Narrowest first, rows before columns. One argument, one step: every cell whose star
    leaves the band no way, resting on its lines and the units that stop the ways. One band
    is enough for a hint, and the first keeps the step cheap (a band of 18x18 has thousands
    of ways).
    """
    budget = logic.container_budget(view, "band-enumeration")
    masks = undecided_masks(view)
    cells = [i for i in view.grid.cells if masks[-1] >> i & 1 and i not in view.seen_star]
    for band in _bands(view):
        refuted = _refuted(view, band, cells, masks, budget)
        if refuted is None:
            break
        if refuted:
            return [_step(view, band, *_fewest(view, band, refuted, masks, budget))]
    return []


def _fewest(
    view: View, band: tuple[int, ...], refuted: list[Refuted], masks: list[int], budget: Budget
) -> tuple[list[Refuted], frozenset[int]]:
    """The refutations again on as few units as do (the step's premises), and those units.

    A way is stopped by the first unit found whose rule it breaks, which may be one of many;
    so each unit of those found goes in turn (the last first) while every cell still has no
    way, listing at most WAYS, with the rules of the units left alone. A spent budget keeps
    the units left so far (they all do).
    """
    kept = frozenset(band).union(*(r.cut for r in refuted))
    for unit in sorted(kept - set(band), reverse=True):
        fewer, again = kept - {unit}, []
        for cell in (r.cell for r in refuted):
            listed = _ways(view, band, cell, masks, budget, fewer)
            if listed is None:
                return refuted, kept
            tried, full, cut = listed
            if full or tried > WAYS:
                break
            again.append(Refuted(cell, tried, frozenset(cut)))
        else:
            kept, refuted = fewer, again
    return refuted, kept


def _bands(view: View) -> list[tuple[int, ...]]:
    """Every run of 2-4 adjacent lines needing a star each, at most PRODUCT ways; narrow first."""
    grid = view.grid
    bands = []
    for width in range(2, WIDEST + 1):
        for lines in (grid.rows, grid.columns):
            for start in range(len(lines) - width + 1):
                band = tuple(lines[start : start + width])
                wanting = all(view.need[u] == 1 and view.open[u] for u in band)
                if wanting and prod(len(view.open[u]) for u in band) <= PRODUCT:
                    bands.append(band)
    return bands


def _refuted(
    view: View, band: tuple[int, ...], cells: list[int], masks: list[int], budget: Budget
) -> list[Refuted] | None:
    """The cells whose star leaves a band no way in at most WAYS partial ways (None: no budget).

    The band's ways with no star added, listed first, spare most cells the search: a cell
    some way keeps the rules with has a way.
    """
    ways = _ways(view, band, None, masks, budget)
    if ways is None:
        return None
    found = []
    for x in cells:
        if any(
            not way.rules_out >> x & 1 and placing(view, way.stars | {x}, masks).valid
            for way in ways[1]
        ):
            continue
        listed = _ways(view, band, x, masks, budget)
        if listed is None:
            return None
        tried, full, cut = listed
        if not full and tried <= WAYS:
            found.append(Refuted(x, tried, frozenset(cut)))
    return found


def _ways(
    view: View,
    band: tuple[int, ...],
    star: int | None,
    masks: list[int],
    budget: Budget,
    units: frozenset[int] | None = None,
) -> tuple[int, list[Placing], set[int]] | None:
    """A band's partial ways with a star added: how many, the full ones, the units stopping some.

    Hand-written: depth-first, line by line (a line holding the added star takes that one),
    a star joining those before it when together they keep the rules and leave every unit
    room (`placing`); the units that stop one are remembered. With a star added, it stops at
    the first full way (the star has a way) or after more than WAYS partial ways; None when
    the budget runs out. `units`: the only units whose rules count (None: every unit).
    """
    grid = view.grid
    start = () if star is None else (star,)
    lines = [[star] if star in grid.sets[line] else sorted(view.open[line]) for line in band]
    tried, full, cut = 0, [], set()
    stack = [start]
    while stack:
        chosen = stack.pop()
        depth = len(chosen) - len(start)
        if not budget.spend(len(lines[depth])):
            return None
        grown = []
        for x in lines[depth]:
            way = placing(view, frozenset((*chosen, x)), masks, units)
            if not way.valid:
                cut.update(way.fills)
                continue
            tried += 1
            if depth + 1 < len(band):
                grown.append((*chosen, x))
            elif star is None:
                full.append(way)
                if len(full) == SAMPLE:
                    return tried, full, cut
            else:
                return tried, [way], cut
            if star is not None and tried > WAYS:
                return tried, full, cut
        stack.extend(reversed(grown))
    return tried, full, cut


def _step(
    view: View, band: tuple[int, ...], refuted: list[Refuted], premises: frozenset[int]
) -> Found:
    """The step: a star at any of the cells leaves the band no way, so they are empty."""
    grid = view.grid
    blanks = sorted({r.cell for r in refuted})
    units = (*band, *sorted(premises - set(band)))
    lines = units_text(grid, band)
    more = " more" if any(view.has[u] for u in band) else ""
    most = max(r.ways for r in refuted)
    upto = "at most " if len(blanks) > 1 else ""
    kind = grid.kinds[band[0]]
    tried = f"{kind} by {kind}, {upto}{plural(most, 'star')} tried"
    if not most:
        tried = f"none fits in {units_text(grid, band[:1])}"
    said = []
    for counted in (False, True):
        at, so = star_at(grid, blanks, counted)
        said.append(
            f"{at} would leave {lines} (one{more} star each) no way to place their stars apart, "
            f"every unit keeping room ({tried}), so {so}"
        )
    said.append(f"{at} would leave {lines} no way to place their stars, so {so}")
    cells = tuple(sorted({*blanks, *view.marks_in(units)}))
    return Found("band-enumeration", units, cells, frozenset(), frozenset(blanks), within(said))
