"""Level 5: tiling exclusion (a star that would force 2x2 tilings breaking a rule).

A star at X takes X and its neighbours and, under pressure, fills the units that need just
that star, emptying their other cells. A unit whose undecided cells left then fit in as many
2x2 blocks as the stars it still needs has one star in each block (level 3's argument, on
the state the star would leave). If those tilings, taken together, break a rule (one puts a
star where another leaves a cell empty, their stars touch, a unit gets too many stars, or a
unit is left too little room, the units their stars fill losing their other cells), X is
empty: one star and the tilings it forces at once, one argument (the catalogue's rows 7 and
14: pressure from star-containing 2x2 blocks; what the StarBattleLab experts' short trials
were, measured in benchmarks/RESULTS.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from starbattle.logic.blocks import one_star_each
from starbattle.logic.grid import Found, Grid, View, and_filled, gathered
from starbattle.logic.sentences import filling, star_at, units_phrase, within
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic


class Tiling(NamedTuple):
    """A unit's undecided cells left in as many 2x2 blocks as it needs stars: what follows."""

    unit: int
    blocks: int
    stars: frozenset[int]
    blanks: frozenset[int]


class Clash(NamedTuple):
    """How a star at x (filling `full`) forces tilings that break a rule."""

    x: int
    full: tuple[int, ...]
    tilings: tuple[Tiling, ...]
    """The tilings the broken rule rests on."""
    kind: str
    """'both' (a cell a star and empty), 'touch', 'too-many' or 'room' (too little)."""
    unit: int | None
    """The unit with too many stars or too little room."""
    cells: tuple[int, ...]
    """The cell both ways, the two stars that touch, or the unit's stars (too many)."""
    room: tuple[int, int, bool] = (0, 0, False)
    """The stars the unit would still need, the 2x2 blocks its room holds and whether it
    would hold stars already (too little room)."""
    filled: tuple[int, ...] = ()
    """The units the tilings' stars fill whose other cells the unit loses (too little room)."""


def tiling_exclusion(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would force tilings that break a rule.

    A lone star first, then the star filling the units that need just it (pressure). One
    argument, one step: the cells whose tilings break a rule on the same units are one step,
    whatever units each fills.
    """
    found = refuted(logic, view, "tiling-exclusion", 1, _clash)
    return [_step(view, group) for group in gathered(found, _rests_on)]


Refutation = TypeVar("Refutation")


def refuted(
    logic: Logic,
    view: View,
    technique: str,
    work: int,
    refute: Callable[[View, int, list[int]], Refutation | None],
) -> list[Refutation]:
    """What `refute` finds a star at each undecided cell would break, where it finds some.

    A lone star first, then the star filling the units that need just it (pressure); `work`
    per neighbour of the cell, within the technique's container budget.
    """
    grid, found = view.grid, []
    budget = logic.container_budget(view, technique)
    for x in sorted(set(grid.cells) - view.stars - view.blanks - view.seen_star):
        if not budget.spend(work * len(grid.near[x])):
            break
        filled = [u for u in grid.units_of[x] if view.need[u] == 1]
        refutation = refute(view, x, []) or (refute(view, x, filled) if filled else None)
        if refutation is not None:
            found.append(refutation)
    return found


class Round(NamedTuple):
    """What a star at x (filling units) forces in one round, and the rule that breaks (if any)."""

    taken: frozenset[int]
    """The undecided cells it takes (`taken_by`)."""
    tilings: tuple[Tiling, ...]
    """The tilings the taken cells force (`tiled`)."""
    after: View | None
    """The state the star leaves (None when nothing tiles)."""
    clash: Clash | None
    """The first rule the tilings break (`broken`)."""


def first_round(view: View, x: int, filled: list[int]) -> Round:
    """The tilings a star at x (the `filled` units full) forces, and the rule they break.

    Worked out once per state and star: the tiling cascade starts from tiling exclusion's.
    """
    rounds: dict[tuple[int, tuple[int, ...]], Round]
    rounds = view.memo.setdefault("first rounds", {})  # type: ignore[assignment]
    key = (x, tuple(filled))
    if key not in rounds:
        taken = taken_by(view, x, filled)
        tilings = tuple(tiled(view, taken, {x}))
        after = clash = None
        if tilings:
            after = View(view.grid, view.stars | {x}, view.blanks | (taken - {x}), view)
            clash = broken(after, x, key[1], list(tilings))
        rounds[key] = Round(taken, tilings, after, clash)
    return rounds[key]


def _clash(view: View, x: int, filled: list[int]) -> Clash | None:
    """How a star at x, with the `filled` units full, forces tilings that clash (if so).

    Only the units whose undecided cells the star takes can tile anew: the others' tilings
    are the state's, which level 3 has followed already.
    """
    return first_round(view, x, filled).clash


def taken_by(view: View, x: int, filled: list[int]) -> frozenset[int]:
    """The undecided cells a star at x takes: x, its neighbours, the filled units' others."""
    taken = {x, *view.grid.around[x]}.union(*(view.open[u] for u in filled))
    return frozenset(taken - view.stars - view.blanks)


def tiled(view: View, taken: frozenset[int], stars: set[int]) -> Iterator[Tiling]:
    """The tilings the taken cells force (`stars` stars, the others empty), one star each.

    The units they leave in as many 2x2 blocks as the stars they still need.
    """
    grid, after = view.grid, None  # the state the marks leave, made once a unit tiles
    for u in sorted({u for i in taken for u in grid.units_of[i]}):
        need = view.need[u] - len(stars & grid.sets[u])
        cells = view.open[u] - taken
        if need <= 0 or len(cells) < need or len(cells) > 4 * need:
            continue
        cover = grid.cover(cells, need)
        if cover is None or len(cover) != need:
            continue
        after = after or View(grid, view.stars | stars, view.blanks | (taken - stars), view)
        found_stars, blanks = one_star_each(after, cells, cover)
        if found_stars or blanks:
            yield Tiling(u, need, found_stars, blanks)


def broken(after: View, x: int, full: tuple[int, ...], tilings: list[Tiling]) -> Clash | None:
    """The first rule the tilings break together on the state a star at x leaves (if any)."""
    grid = after.grid
    for a in tilings:
        for b in tilings:
            both = sorted(a.stars & b.blanks)
            if both:
                return Clash(x, full, (a, b), "both", None, (both[0],))
    placed = {i: t for t in tilings for i in sorted(t.stars)}
    for i, t in placed.items():
        for j in grid.around[i]:
            if j in placed and i < j:
                pair = (t,) if placed[j] is t else (t, placed[j])
                return Clash(x, full, pair, "touch", None, (i, j))
    units = sorted({u for i in placed for u in grid.units_of[i]})
    for u in units:
        mine = [i for i in placed if i in grid.sets[u]]
        if len(mine) > after.need[u]:
            stars = tuple(sorted({*mine, *(grid.sets[u] & after.stars)}))
            used = tuple({placed[i].unit: placed[i] for i in mine}.values())
            return Clash(x, full, used, "too-many", u, stars)
    gone = set().union(*(t.blanks for t in tilings), *(grid.around[i] for i in placed), placed)
    completed = filled_by(after, units, placed, frozenset(gone))
    gone.update(*completed.values())
    for u in sorted({u for i in gone for u in grid.units_of[i]}):
        need = after.need[u] - sum(i in grid.sets[u] for i in placed)
        room = after.open[u] - gone
        cover = grid.cover(frozenset(room), need - 1) if need > 0 else None
        if cover is not None:
            cells = after.open[u]
            filled = tuple(f for f, others in completed.items() if others & cells)
            used = tuple(t for t in tilings if reaches(grid, t, cells) or fills(grid, t, filled))
            if not used:  # the star's own room argument: level 4's
                continue
            more = need < after.need[u] or after.has[u] > 0
            space = (need, len(cover) if room else 0, more)
            return Clash(x, full, used, "room", u, (), space, filled)
    return None


def filled_by(
    after: View, units: Iterable[int], stars: Iterable[int], gone: frozenset[int]
) -> dict[int, frozenset[int]]:
    """The units among these that the stars fill, each with the cells that empties anew.

    Their other cells are empty (level 1's full unit, followed within the argument); `gone`:
    the cells the tilings take already (their stars among them).
    """
    grid, stars = after.grid, frozenset(stars)
    return {
        u: after.open[u] - gone
        for u in sorted(units)
        if after.need[u] == len(stars & grid.sets[u]) and after.open[u] - gone
    }


def fills(grid: Grid, tiling: Tiling, units: Iterable[int]) -> bool:
    """Whether a tiling puts a star in one of these units."""
    return any(tiling.stars & grid.sets[u] for u in units)


def reaches(grid: Grid, tiling: Tiling, cells: frozenset[int]) -> bool:
    """Whether a tiling takes some of these cells: a star or an empty cell, or a neighbour."""
    return bool(
        (tiling.stars | tiling.blanks) & cells
        or any(j in cells for i in tiling.stars for j in grid.around[i])
    )


def _rests_on(clash: Clash) -> tuple[int, ...]:
    """What the argument rests on: the tilings' units, the units filled, the broken one.

    The units the tilings' stars fill count where the rule needs their other cells; the
    units each star at X fills are said per cell: on a 1-star board every star fills a row
    and a column of its own, and the cells whose tilings break a rule alike are one argument.
    """
    broken = [] if clash.unit is None else [clash.unit]
    return tuple(dict.fromkeys([*(t.unit for t in clash.tilings), *clash.filled, *broken]))


def tiles_said(view: View, tilings: tuple[Tiling, ...]) -> str:
    """'region G's undecided cells in 2 2x2 blocks and region I's in one, one star each'."""
    grid, (first, *rest) = view.grid, tilings
    blocks = "one 2x2 block" if first.blocks == 1 else f"{first.blocks} 2x2 blocks"
    tiled = f"{grid.names[first.unit]}'s undecided cells in {blocks}" + "".join(
        f" and {grid.names[t.unit]}'s in {'one' if t.blocks == 1 else t.blocks}" for t in rest
    )
    return tiled + (", one star each" if any(t.blocks > 1 for t in tilings) else "")


def leaving(grid: Grid, clashes: list[Clash]) -> list[str]:
    """'region F too little room': what every clash leaves one unit (none if they differ).

    First with the units the tilings fill that it needs, if any ('column 4 full and region F
    too little room'), then without them (shorter).
    """
    kinds = {(clash.kind, clash.unit, clash.filled) for clash in clashes}
    [(kind, unit, filled)] = kinds if len(kinds) == 1 else [("", None, ())]
    what = {"room": "too little room", "too-many": "too many stars"}.get(kind)
    if unit is None or what is None:
        return []
    left = f"{grid.names[unit]} {what}"
    return [f"{units_phrase(grid, filled)} full and {left}", left] if filled else [left]


def broken_said(view: View, clash: Clash) -> str:
    """The rule the tilings break: 'they put stars at (7,2) and (8,3), which touch'."""
    grid = view.grid
    if clash.kind == "both":
        [cell] = clash.cells
        a, b = clash.tilings
        return (
            f"{grid.names[a.unit]}'s blocks put a star at {grid.where(cell)}, which "
            f"{grid.names[b.unit]}'s leave empty"
        )
    if clash.kind == "touch":
        i, j = clash.cells
        return f"they put stars at {grid.where(i)} and {grid.where(j)}, which touch"
    assert clash.unit is not None
    name = grid.names[clash.unit]
    if clash.kind == "too-many":
        return f"that gives {name} {plural(len(clash.cells), 'star')}, more than {grid.quota}"
    need, most, more = clash.room
    stars = plural(need, "more star" if more else "star")
    space = f"room for at most {most} of the {stars}" if most else f"no room for the {stars}"
    completed = f"fills {units_phrase(grid, clash.filled)} and " if clash.filled else ""
    return f"that {completed}leaves {name} {space} it needs"


def _step(view: View, group: list[Clash]) -> Found:
    """The step: a star at any of the cells would force tilings that break a rule."""
    grid, first = view.grid, group[0]
    xs, fulls = [clash.x for clash in group], [clash.full for clash in group]
    units = and_filled(_rests_on(first), fulls)
    tiled = {tiles_said(view, clash.tilings) for clash in group}
    broken = {broken_said(view, clash) for clash in group}
    names = units_phrase(grid, units[: len(first.tilings)])
    need = "they need" if len(first.tilings) > 1 else "it needs"
    texts = []
    for counted, brief in ((False, False), (True, False), (True, True)):
        at, so = star_at(grid, xs, counted)
        fill = filling(grid, xs, fulls, brief)
        if len(tiled) == len(broken) == 1:
            texts.append(f"{at} would {fill}leave {min(tiled)}: {min(broken)}, so {so}")
        if len(broken) == 1:
            texts.append(
                f"{at} would {fill}tile {names} by 2x2 blocks, one star each: {min(broken)}, "
                f"so {so}"
            )
        texts.append(
            f"{at} would {fill}leave {names} in as many 2x2 blocks as {need} stars, one "
            f"star each, and those stars and the cells they empty would break a rule, so {so}"
        )
    for left in leaving(grid, group):
        texts.append(
            f"{at} would {fill}tile {names} by 2x2 blocks, one star each, leaving {left}, so {so}"
        )
    if {clash.kind for clash in group} == {"both"} and len({c.cells for c in group}) == 1:
        texts.append(
            f"{at} would {fill}tile {names} by 2x2 blocks, one star each, that disagree on "
            f"{grid.where(first.cells[0])}, so {so}"
        )
    texts.append(f"{at} would {fill}tile {names} by 2x2 blocks that break a rule, so {so}")
    texts.append(f"{at} would {fill}force 2x2 tilings that break a rule, so {so}")
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("tiling-exclusion", units, cells, frozenset(), frozenset(xs), within(texts))
