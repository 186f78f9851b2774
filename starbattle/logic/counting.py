"""Level 5: counting with 2x2 room (each unit's share of a band, bounded by its room).

A band of lines needs some stars, and only the other units meeting it (the regions, or the
perpendicular lines) can put them there. Each puts at most what its cells inside the band
have room for (the fewest 2x2 blocks covering them, and no more than it needs) and at least
what its cells outside have no room for. When the others' bounds pin a unit's share, its
cells inside (a share of 0) or outside (its whole need) are empty, and a share equal to a
part's room fills that part one star per block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starbattle.logic.blocks import one_star_each
from starbattle.logic.containers import bands
from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import SENTENCE_LIMIT, outcome, units_text
from starbattle.words import joined, plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic


def capacity_counting(logic: Logic, view: View) -> list[Found]:
    """Every band whose units' 2x2 room pins some unit's share of it."""
    grid, found = view.grid, []
    budget = logic.container_budget(view, "capacity-counting")
    for lines, others in bands(view):
        need = sum(view.need[u] for u in lines)
        cells = frozenset().union(*(view.open[u] for u in lines))
        for group in others:
            meeting = [u for u in group if view.open[u] & cells]
            if not meeting or not budget.spend(sum(len(view.open[u]) for u in meeting)):
                continue
            parts = {u: (view.open[u] & cells, view.open[u] - cells) for u in meeting}
            room = {
                u: [grid.capacity(part, view.need[u] + 1) for part in parts[u]] for u in meeting
            }
            most = {u: min(view.need[u], room[u][0]) for u in meeting}
            least = {u: max(0, view.need[u] - room[u][1]) for u in meeting}
            high, low = sum(most.values()), sum(least.values())
            if high < need or low > need:  # a contradiction, left for the state check
                continue
            stars: set[int] = set()
            blanks: set[int] = set()
            said = []
            for u in meeting:
                share = (
                    max(least[u], need - (high - most[u])),
                    min(most[u], need - (low - least[u])),
                )
                pinned = _pinned(view, u, parts[u], room[u], share)
                if pinned is not None:
                    stars |= pinned[0]
                    blanks |= pinned[1]
                    said.append(pinned[2])
            blanks -= stars
            if stars or blanks:
                found.append(_counted(view, lines, tuple(meeting), need, (stars, blanks), said))
    return found


def _pinned(
    view: View,
    unit: int,
    parts: tuple[frozenset[int], frozenset[int]],
    room: list[int],
    share: tuple[int, int],
) -> tuple[frozenset[int], frozenset[int], str] | None:
    """What a unit's bounded share of a band decides, and how to say its share (or None)."""
    grid, (inside, outside), (least, most) = view.grid, parts, share
    need, name = view.need[unit], grid.names[unit]
    stars: set[int] = set()
    blanks: set[int] = set()
    if most == 0:
        blanks |= inside
    if least == need:
        blanks |= outside
    for part, held, space in ((inside, least, room[0]), (outside, need - most, room[1])):
        if 0 < held == space:
            cover = grid.cover(part, held)
            if cover is not None:
                more_stars, more_blanks = one_star_each(view, part, cover)
                stars |= more_stars
                blanks |= more_blanks
    if not (stars - view.stars) and not blanks:
        return None
    if least == most:
        text = f"{name} {'none' if most == 0 else plural(most, 'star')}"
    elif least:
        text = f"{name} at least {least}"
    else:
        text = f"{name} at most {most}"
    return frozenset(stars), frozenset(blanks), text


def _counted(
    view: View,
    lines: tuple[int, ...],
    meeting: tuple[int, ...],
    need: int,
    decided: tuple[set[int], set[int]],
    said: list[str],
) -> Found:
    """The step: the units meeting a band, counted by their 2x2 room."""
    grid, (stars, blanks) = view.grid, decided
    band, others = units_text(grid, lines), units_text(grid, meeting)
    more = "more " if any(view.has[u] for u in lines) else ""
    verb = "need" if len(lines) > 1 else "needs"
    text = (
        f"{band} {verb} {plural(need, more + 'star')}, which only {others} can hold; by the "
        f"2x2 blocks each has room for inside and outside {band}, {joined(said)} go there, so "
        f"{outcome(grid, stars, blanks)}"
    )
    if len(text) > SENTENCE_LIMIT:
        text = (
            f"{band} {verb} {plural(need, more + 'star')}; by the 2x2 blocks the "
            f"{len(meeting)} {grid.kinds[meeting[0]]}s meeting {band} have room for, "
            f"{joined(said)} go there, so {outcome(grid, stars, blanks)}"
        )
    if len(text) > SENTENCE_LIMIT:
        text = (
            f"{band} {verb} {plural(need, more + 'star')}; counting the 2x2 blocks the "
            f"{grid.kinds[meeting[0]]}s meeting {band} have room for, "
            f"{outcome(grid, stars, blanks)}"
        )
    units = (*lines, *meeting)
    return Found(
        "capacity-counting", units, view.marks_in(units), frozenset(stars), frozenset(blanks), text
    )
