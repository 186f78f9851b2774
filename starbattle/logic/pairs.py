"""Level 5: pair enumeration (two units that need one star each, placed together).

Two rows, columns or regions that each need one more star and have few undecided cells
between them: list every way to place both stars (one star in a cell of both serves both)
that breaks no rule at once (no two stars touching, no unit given more stars than it
needs) and leaves every unit room for the stars it still needs. A cell that every such way
rules out (it touches one of the stars, or shares a unit they fill) is empty. The catalogue's
k-tuple enumeration (row 23) over two units instead of one: the case analysis a strong
player makes on two small regions, as in LinkedIn's Queens ("whichever cell region A
takes, region B then has only column 1 left").
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import star_at, units_text, within
from starbattle.words import joined

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic

WAYS = 30
"""The most ways to place the two stars a step asks a person to go through (the product of
the two units' undecided cells, before the rules rule some out)."""


class Placing(NamedTuple):
    """A way to place two units' stars: what it rules out, or the units that rule it out."""

    stars: frozenset[int]
    rules_out: int
    """The undecided cells it rules out, as a bit mask (0 when it breaks a rule)."""
    fills: tuple[int, ...]
    """The units it fills (those that rule cells out), or the units whose rules it breaks."""
    valid: bool


def pair_enumeration(logic: Logic, view: View) -> list[Found]:
    """Every pair of one-star units whose ways to place both rule out the same cells.

    One argument, one step: the cells every way rules out, for the two units together. It
    rests on the two units, the units whose rules rule ways out and those the ways fill
    that take the cells.
    """
    grid = view.grid
    open_masks = undecided_masks(view)
    undecided = open_masks[-1]
    wanting = [u for u in range(len(grid.units)) if view.need[u] == 1 and view.open[u]]
    found = []
    for pair in combinations(wanting, 2):
        if len(view.open[pair[0]]) * len(view.open[pair[1]]) > WAYS:
            continue
        placings = _placings(view, pair, open_masks)
        valid = [placing for placing in placings if placing.valid]
        common = undecided if valid else 0  # no valid way: the marks break the rules (level 0)
        for placing in valid:
            common &= placing.rules_out
        if common:
            blanks = [i for i in grid.cells if common >> i & 1]
            used = {u for placing in placings if not placing.valid for u in placing.fills}
            for placing in valid:  # a unit it fills, for each cell not next to a star
                for i in blanks:
                    if not any(grid.reach[star] >> i & 1 for star in placing.stars):
                        used.add(next(u for u in placing.fills if grid.masks[u] >> i & 1))
            units = (*pair, *sorted(used - set(pair)))
            found.append(_step(view, units, len(valid), blanks))
    return found


def _placings(view: View, units: tuple[int, int], open_masks: list[int]) -> list[Placing]:
    """Every way to place the two units' stars, and whether it breaks a rule or leaves room."""
    first, second = units
    ways = {frozenset({a, b}) for a in view.open[first] for b in view.open[second]}
    return [placing(view, stars, open_masks) for stars in sorted(ways, key=sorted)]


def undecided_masks(view: View) -> list[int]:
    """Each unit's undecided cells as a bit mask, then every undecided cell."""
    decided = sum(1 << i for i in view.stars | view.blanks)
    undecided = sum(1 << i for i in view.grid.cells) & ~decided
    return [*(mask & ~decided for mask in view.grid.masks), undecided]


def placing(
    view: View, stars: frozenset[int], open_masks: list[int], units: frozenset[int] | None = None
) -> Placing:
    """What some stars rule out, or the units whose rules they break or starve (`Placing`).

    `open_masks`: each unit's undecided cells as a bit mask, then every undecided cell.
    `units`: the only units whose rules count (None: every unit), besides stars apart.
    """
    grid = view.grid
    placed = sum(1 << i for i in stars)
    if any(grid.reach[i] & placed & ~(1 << i) for i in stars):
        return Placing(stars, 0, (), False)  # two stars touch
    counts: dict[int, int] = {}
    for i in stars:
        for u in grid.units_of[i]:
            if units is None or u in units:
                counts[u] = counts.get(u, 0) + 1
    over = [u for u, count in counts.items() if count > view.need[u]]
    if over:
        return Placing(stars, 0, (over[0],), False)  # a unit given more stars than it needs
    fills = tuple(u for u, count in counts.items() if count == view.need[u])
    rules_out = 0
    for i in stars:
        rules_out |= grid.reach[i]
    for u in fills:
        rules_out |= open_masks[u]
    rules_out &= ~placed
    for u, mask in enumerate(open_masks[:-1]):
        if units is not None and u not in units:
            continue
        if (mask & ~rules_out & ~placed).bit_count() < view.need[u] - counts.get(u, 0):
            taking = tuple(f for f in fills if open_masks[f] & mask & ~placed)
            return Placing(stars, 0, (u, *taking), False)  # a unit left too few cells
    return Placing(stars, rules_out & open_masks[-1], fills, True)


def _step(view: View, units: tuple[int, ...], ways: int, blanks: list[int]) -> Found:
    """The step: every way to place both units' stars (the first two units) rules the cells out."""
    grid = view.grid
    both = joined([units_text(grid, [u]) for u in units[:2]])
    more = " more" if any(view.has[u] for u in units[:2]) else ""
    _, so = star_at(grid, blanks)
    every = f"each of the {ways} ways" if ways > 1 else "the only way"
    ruled = f"these {len(blanks)} cells"
    if len(blanks) <= 4:
        ruled = joined([grid.where(i) for i in blanks])
    text = within(
        [
            f"{both} need one{more} star each; {every} to place both (stars "
            f"apart, every unit keeping room) rules out {ruled}, next to a star or in a unit it "
            f"fills, so {so}",
            f"{both} need one{more} star each; {every} to place both rules out {ruled}, so {so}",
        ]
    )
    cells = tuple(sorted({*blanks, *view.marks_in(units)}))
    return Found("pair-enumeration", units, cells, frozenset(), frozenset(blanks), text)
