"""Level 5: set differentials (a band of lines and some regions meeting it, subtracted).

A band of 1 to 4 adjacent lines needs a stars and some regions meeting it (1 to 4) need b.
The cells they share count for both, so the rest of the band (outside the regions) holds
exactly a - b stars more than the regions' cells outside the band. When a > b the rest of
the band holds at least a - b; if its undecided cells fit in a - b 2x2 blocks it holds
exactly that many, one per block, and the regions have no star outside the band. When
b > a, the same with the sides swapped: the regions' cells outside the band fill their
b - a blocks and the rest of the band is empty. Confinement is the case a = b.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from starbattle.logic.blocks import fit, one_star_each
from starbattle.logic.containers import SQUEEZE_LINES, bands, need_verb, stars_needed
from starbattle.logic.grid import Found, View, bits
from starbattle.logic.sentences import outcome, units_text, within
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic

REGIONS = 4
"""The most regions subtracted from a band."""


def set_differentials(logic: Logic, view: View) -> list[Found]:
    """Every band of 1-4 lines and 1-4 regions meeting it whose differential decides cells.

    Smallest bands first; an outcome is said once, by the first argument that finds it.
    """
    masks, need, spread = view.open_masks, view.need, view.grid.spread
    found, seen = [], set()
    budget = logic.container_budget(view, "set-differentials")
    for lines, (regions, _) in bands(view):
        if len(lines) > SQUEEZE_LINES:
            continue
        band = 0
        for u in lines:
            band |= masks[u]
        wanted = sum(need[u] for u in lines)
        meeting = [u for u in regions if masks[u] & band]
        if not budget.spend(len(meeting) * band.bit_count()):
            break
        for size in range(1, min(REGIONS, len(meeting)) + 1):
            for chosen in combinations(meeting, size):
                union, more = 0, wanted
                for u in chosen:
                    union |= masks[u]
                    more -= need[u]
                full = band & ~union if more > 0 else union & ~band
                held = abs(more)  # a quick screen: the full side fits in `held` blocks at most
                if not held or full.bit_count() > 4 * held or spread(full, held + 1) > held:
                    continue
                step = _differential(view, lines, chosen, band)
                if step is not None and (step.stars, step.blanks) not in seen:
                    seen.add((step.stars, step.blanks))
                    found.append(step)
    return found


def _differential(
    view: View, lines: tuple[int, ...], regions: tuple[int, ...], band: int
) -> Found | None:
    """The step of a band less some regions, when one side's 2x2 room pins both (or None)."""
    grid, masks = view.grid, view.open_masks
    union = 0
    for u in regions:
        union |= masks[u]
    rest, strays = band & ~union, union & ~band
    more = sum(view.need[u] for u in lines) - sum(view.need[u] for u in regions)
    full, empty = (rest, strays) if more > 0 else (strays, rest)
    held = abs(more)
    if held == 0 or grid.capacity(full, held + 1) != held:
        return None
    cells = frozenset(bits(full))
    cover = grid.cover(cells, held)
    if cover is None:
        return None
    stars, blanks = one_star_each(view, cells, cover)
    blanks = (blanks | frozenset(bits(empty))) - stars
    if not stars and not blanks:
        return None
    units = (*lines, *regions)
    text = _said(view, lines, regions, more, outcome(grid, stars, blanks))
    return Found("set-differentials", units, view.marks_in(units), stars, blanks, text)


def _said(
    view: View, lines: tuple[int, ...], regions: tuple[int, ...], more: int, then: str
) -> str:
    """The step's sentence: the longest of three ways within SENTENCE_LIMIT.

    'Rows 6-9 need 8 stars and regions E and I need 4 stars, so the rest of rows 6-9 holds
    at least 4 stars; it fits in 4 2x2 blocks, one star each, so regions E and I have none
    outside rows 6-9: (5,4) is empty'.
    """
    grid = view.grid
    band, those = units_text(grid, lines), units_text(grid, regions)
    needs = stars_needed(view, lines), stars_needed(view, regions)
    held = plural(abs(more), "star")
    if more > 0:
        side, plural_side = f"the rest of {band}", False
        none = f"{those} {'have' if len(regions) > 1 else 'has'} none outside {band}"
    else:
        side, plural_side = f"{those} outside {band}", len(regions) > 1
        none = f"the rest of {band} is empty"
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
