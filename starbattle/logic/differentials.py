"""Level 5: set differentials (lines less some regions meeting them, subtracted).

Some lines need a stars and 1 to 4 regions meeting them need b. Counted line by line, a cell
where a chosen row meets a chosen column counts twice; counted region by region, once. So
the lines' cells, each counted as often as the lines hold it less once if a chosen region
holds it, hold exactly a - b stars more than the regions' cells on none of the lines. The
lines are one of two kinds:
- a band of 1 to 4 adjacent parallel lines (no cell counts twice): when a > b the rest of
  the band holds at least a - b; if its undecided cells fit in a - b 2x2 blocks it holds
  exactly that many, one per block, and the regions have no star outside the band. When
  b > a, the same with the sides swapped: the regions' cells outside the band fill their
  b - a blocks and the rest of the band is empty. Confinement is the case a = b.
- a mixed set of 2 to 4 rows and columns in which the regions lie (their undecided cells
  all on those lines), needing as many stars (a = b): the lines' cells outside the regions,
  and the regions' cells where a chosen row meets a chosen column, hold none.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, combinations
from typing import TYPE_CHECKING

from starbattle.logic.blocks import fit, one_star_each
from starbattle.logic.containers import SQUEEZE_LINES, bands, need_verb, stars_needed
from starbattle.logic.grid import Found, View, bits
from starbattle.logic.minimise import Budget
from starbattle.logic.sentences import outcome, units_text, within
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic

REGIONS = 4
"""The most regions subtracted from the lines."""
MIXED_LINES = 4
"""The most rows and columns together in a mixed set of lines."""

Sides = tuple[tuple[int, ...], tuple[int, ...]]
"""Some lines and some regions, by unit number."""


def set_differentials(logic: Logic, view: View) -> list[Found]:
    """Every set of lines (a band, or rows and columns) less 1-4 regions that decides cells.

    A band of 1-4 lines or a mixed set of 2-4 rows and columns. Bands first, smallest first,
    then mixed sets by their regions; an outcome is said once, by the first argument that
    finds it.
    """
    found: list[Found] = []
    seen: set[tuple[frozenset[int], frozenset[int]]] = set()
    budget = logic.container_budget(view, "set-differentials")
    for lines, regions in chain(_banded(view, budget), _mixed(view, budget)):
        step = _differential(view, lines, regions)
        if step is not None and (step.stars, step.blanks) not in seen:
            seen.add((step.stars, step.blanks))
            found.append(step)
    return found


def _banded(view: View, budget: Budget) -> Iterator[Sides]:
    """Each band of 1-4 adjacent lines and 1-4 regions meeting it that pass a quick screen.

    The screen: the side holding more fits in as many blocks as it holds more, by a bound.
    """
    masks, need, spread = view.open_masks, view.need, view.grid.spread
    for lines, (regions, _) in bands(view):
        if len(lines) > SQUEEZE_LINES:
            continue
        band = 0
        for u in lines:
            band |= masks[u]
        wanted = sum(need[u] for u in lines)
        meeting = [u for u in regions if masks[u] & band]
        if not budget.spend(len(meeting) * band.bit_count()):
            return
        for size in range(1, min(REGIONS, len(meeting)) + 1):
            for chosen in combinations(meeting, size):
                union, more = 0, wanted
                for u in chosen:
                    union |= masks[u]
                    more -= need[u]
                full = band & ~union if more > 0 else union & ~band
                held = abs(more)
                if held and full.bit_count() <= 4 * held and spread(full, held + 1) <= held:
                    yield lines, chosen


def _mixed(view: View, budget: Budget) -> Iterator[Sides]:
    """Each mixed set of 2-4 rows and columns and 1-4 regions inside it needing as many stars.

    Inside: the regions' undecided cells all lie on those lines. The regions are taken in
    order, each set grown only while its cells lie on at most MIXED_LINES lines (more regions
    only add cells): the ways to put a new region's cells on lines extend those of the set
    before it, branching on its first cell on none (its row or its column).
    """
    grid, masks, need, n = view.grid, view.open_masks, view.need, view.grid.n
    regions = [u for u in grid.regions if need[u] > 0 and masks[u]]

    def covers(left: int, lines: frozenset[int], found: set[frozenset[int]]) -> None:
        """Add to `found` each set of lines, `lines` and more, up to MIXED_LINES, holding `left`."""
        if not left:
            found.add(lines)
        elif len(lines) < MIXED_LINES and budget.spend(1):
            i = (left & -left).bit_length() - 1
            for u in (i // n, n + i % n):
                covers(left & ~masks[u], lines | {u}, found)

    def grow(
        start: int, chosen: tuple[int, ...], ways: set[frozenset[int]], wanted: int
    ) -> Iterator[Sides]:
        """The regions' sets from `start` on, with `chosen` before them on one of `ways`."""
        for k in range(start, len(regions)):
            u, placed = regions[k], set()
            for lines in ways:
                on = 0
                for v in lines:
                    on |= masks[v]
                covers(masks[u] & ~on, lines, placed)
            if budget.left < 0:
                return
            these, total = (*chosen, u), wanted + need[u]
            for lines in sorted(placed, key=sorted):
                mixed = min(lines) < n <= max(lines)
                if mixed and sum(need[v] for v in lines) == total:
                    yield tuple(sorted(lines)), these
            if placed and len(these) < REGIONS:
                yield from grow(k + 1, these, placed, total)

    yield from grow(0, (), {frozenset()}, 0)


def _differential(view: View, lines: tuple[int, ...], regions: tuple[int, ...]) -> Found | None:
    """The step of some lines less some regions, when one side's 2x2 room pins both (or None)."""
    grid, masks = view.grid, view.open_masks
    once = twice = union = 0
    for u in lines:
        twice |= once & masks[u]
        once |= masks[u]
    for u in regions:
        union |= masks[u]
    lines_side = (once & ~union) | (twice & union)  # counted once more for the lines
    strays = union & ~once
    more = sum(view.need[u] for u in lines) - sum(view.need[u] for u in regions)
    mixed = len({u < grid.n for u in lines}) == 2
    if more > 0 and not twice & ~union:
        full, empty = lines_side, strays
    elif more < 0 or (more == 0 and mixed):  # a mixed set: no stray fits in 0 blocks
        full, empty = strays, lines_side
    else:
        return None
    held = abs(more)
    if grid.capacity(full, held + 1) != held:
        return None
    cells = frozenset(bits(full))
    cover = grid.cover(cells, held)
    if cover is None:
        return None
    stars, blanks = one_star_each(view, cells, cover) if cells else (frozenset(), frozenset())
    blanks = (blanks | frozenset(bits(empty))) - stars
    if not stars and not blanks:
        return None
    units = (*lines, *regions)
    twice_said = bool(twice & union & empty)  # a region's cell the lines count twice
    text = _said(view, lines, regions, more, twice_said, outcome(grid, stars, blanks))
    return Found("set-differentials", units, view.marks_in(units), stars, blanks, text)


def _lines_text(view: View, lines: tuple[int, ...]) -> str:
    """'rows 6-9', 'rows 1 and 18 plus columns 1 and 18': the lines as the board names them."""
    n = view.grid.n
    kinds = [[u for u in lines if u < n], [u for u in lines if u >= n]]
    return " plus ".join(units_text(view.grid, group) for group in kinds if group)


def _said(
    view: View,
    lines: tuple[int, ...],
    regions: tuple[int, ...],
    more: int,
    twice: bool,
    then: str,
) -> str:
    """The step's sentence: the longest of three ways within SENTENCE_LIMIT.

    'Rows 6-9 need 8 stars and regions E and I need 4 stars, so the rest of rows 6-9 holds
    at least 4 stars; it fits in 4 2x2 blocks, one star each, so regions E and I have none
    outside rows 6-9: (5,4) is empty'. With mixed lines and as many stars on both sides:
    'Regions A and D need 2 stars and lie inside row 1 plus columns 1 and 8, which need
    as many, so the rest of those lines is empty: ...'. `twice` says why a cell where a chosen
    row meets a chosen column is empty too.
    """
    grid = view.grid
    band, those = _lines_text(view, lines), units_text(grid, regions)
    needs = stars_needed(view, lines), stars_needed(view, regions)
    rest = f"the rest of {band}"
    crossing = (
        ", and so are their cells where a row meets a column (counted twice)" if twice else ""
    )
    short = " (a cell on two of them counts twice)" if twice else ""
    if more == 0:
        lie = "lie" if len(regions) > 1 else "lies"
        return within(
            (
                f"{those} {need_verb(regions)} {needs[1]} and {lie} inside {band}, which "
                f"{need_verb(lines)} as many, so the rest of those lines is empty{crossing}: "
                f"{then}",
                f"{those} {lie} inside {band}, needing as many stars, so the rest of those "
                f"lines is empty{crossing}: {then}",
                f"{those} {lie} inside {band}, needing as many stars{short}: {then}",
            )
        )
    held = plural(abs(more), "star")
    if more > 0:
        side, plural_side = rest, False
        none = f"{those} {'have' if len(regions) > 1 else 'has'} none outside {band}"
    else:
        side, plural_side = f"{those} outside {band}", len(regions) > 1
        none = f"{rest} is empty{crossing}"
    holds, fits, it = ("hold", "fit", "they") if plural_side else ("holds", "fits", "it")
    room = f"{fit(abs(more))}, so {none}: {then}"
    return within(
        (
            f"{band} {need_verb(lines)} {needs[0]} and {those} {need_verb(regions)} {needs[1]}, "
            f"so {side} {holds} at least {held}; {it} {fits} in {room}",
            f"{band} {need_verb(lines)} {needs[0]}, {those} {needs[1]}: {side} {holds} at "
            f"least {held} and {fits} in {room}",
            f"{side} {holds} at least {held} and {fits} in {room}",
        )
    )
