"""Level 5: tiling cascade (a star forcing 2x2 tilings whose stars force more, which clash).

Tiling exclusion (starbattle.logic.clash) one round further. A star at X takes X and its
neighbours (under pressure, the units it fills too) and leaves some units in as many 2x2
blocks as the stars they still need: one star each, so some cells become stars and others
empty. Those marks, with the neighbours of their stars and the other cells of the units
their stars fill, leave further units in as many 2x2 blocks as they need (a unit left with
as many cells as stars is one block per cell): one star each again. If the two rounds of
tilings together break a rule (a cell both ways, stars touching, a unit given too many
stars or left too little room), X is empty. What the StarBattleLab 9x9 experts' trials
were after tiling exclusion (benchmarks/RESULTS.md, logic-cascade): a star, the tilings it
forces, the tilings those force, and the clash.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from starbattle.logic.clash import (
    Clash,
    Tiling,
    broken,
    broken_said,
    filled_by,
    fills,
    first_round,
    leaving,
    reaches,
    refuted,
    tiled,
    tiles_said,
)
from starbattle.logic.grid import Found, View, and_filled, gathered
from starbattle.logic.sentences import filling, star_at, units_phrase, within

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic


class Cascade(NamedTuple):
    """How a star at x forces tilings (`first`) whose marks force more (`then`) that clash."""

    first: tuple[Tiling, ...]
    """The first round's tilings the second round or the broken rule rests on."""
    then: tuple[Tiling, ...]
    """The second round's tilings the broken rule rests on."""
    clash: Clash
    filled: tuple[int, ...] = ()
    """The units the first round's stars fill whose other cells the second round needs."""


def tiling_cascade(logic: Logic, view: View) -> list[Found]:
    """Every undecided cell whose star would force two rounds of tilings that break a rule.

    A lone star first, then the star filling the units that need just it; only where the
    first round alone breaks no rule (else it is tiling exclusion's step).
    """
    found = refuted(logic, view, "tiling-cascade", 2, _cascade)
    return [_step(view, group) for group in gathered(found, _rests_on)]


def _cascade(view: View, x: int, filled: list[int]) -> Cascade | None:
    """How a star at x (the `filled` units full) forces two rounds of tilings that clash.

    None when the first round breaks a rule alone (tiling exclusion's), or the two do not.
    """
    grid, full = view.grid, tuple(filled)
    _, first, after, alone = first_round(view, x, filled)
    if after is None or alone is not None:
        return None
    stars = frozenset().union(*(t.stars for t in first))
    marked = stars.union(*(t.blanks for t in first), *(grid.around[i] for i in stars))
    completed = filled_by(after, {u for i in stars for u in grid.units_of[i]}, stars, marked)
    marked = marked.union(*completed.values())
    undecided = frozenset().union(*after.open)
    then = tuple(tiled(after, marked & undecided, set(stars)))
    clash = broken(after, x, full, [*first, *then]) if then else None
    if clash is None:
        return None
    used = [t for t in clash.tilings if t in then]
    rest = frozenset().union(*(after.open[t.unit] for t in used))
    filled = tuple(f for f, others in completed.items() if others & rest)
    needed = [
        t for t in first if t in clash.tilings or reaches(grid, t, rest) or fills(grid, t, filled)
    ]
    return Cascade(tuple(needed), tuple(used), clash, filled)


def _rests_on(cascade: Cascade) -> tuple[int, ...]:
    """What the argument rests on: the rounds' tilings' units, the units filled, the broken one.

    The units the tilings' stars fill count where the argument needs their other cells; the
    units each star at X fills are said per cell (as in tiling exclusion).
    """
    clash = cascade.clash
    tilings = (*cascade.first, *cascade.then)
    broken_on = [] if clash.unit is None else [clash.unit]
    filled = [*cascade.filled, *clash.filled]
    return tuple(dict.fromkeys([*(t.unit for t in tilings), *filled, *broken_on]))


def _step(view: View, group: list[Cascade]) -> Found:
    """The step: a star at any of the cells would force tilings in turn that break a rule."""
    grid, first = view.grid, group[0]
    xs, fulls = [cascade.clash.x for cascade in group], [c.clash.full for c in group]
    units = and_filled(_rests_on(first), fulls)
    said = {(tiles_said(view, c.first), tiles_said(view, c.then)) for c in group}
    rules = {broken_said(view, c.clash) for c in group}
    firsts = units_phrase(grid, dict.fromkeys(t.unit for t in first.first))
    thens = units_phrase(grid, dict.fromkeys(t.unit for t in first.then))
    lefts = leaving(grid, [c.clash for c in group])
    betweens = {c.filled for c in group}
    between = next(iter(betweens)) if len(betweens) == 1 else ()
    filling_them = f", filling {units_phrase(grid, between)}," if between else ","
    texts = []
    for counted, brief in ((False, False), (True, False), (True, True)):
        at, so = star_at(grid, xs, counted)
        fill = filling(grid, xs, fulls, brief)
        tiles = f"tile {firsts} by 2x2 blocks, one star each{filling_them} and so {thens}"
        briefly = f"tile {firsts} by 2x2 blocks, one star each, and so {thens}"
        if len(said) == len(rules) == 1:
            [(once, twice)] = said
            texts.append(
                f"{at} would {fill}leave {once}{filling_them} and then {twice}: "
                f"{min(rules)}, so {so}"
            )
        if len(rules) == 1:
            texts.append(f"{at} would {fill}{tiles}: {min(rules)}, so {so}")
        texts.extend(f"{at} would {fill}{tiles}, leaving {left}, so {so}" for left in lefts)
    if {c.clash.kind for c in group} == {"both"} and len({c.clash.cells for c in group}) == 1:
        where = grid.where(first.clash.cells[0])
        texts.append(f"{at} would {fill}{tiles}, which disagree on {where}, so {so}")
    texts.append(f"{at} would {fill}{tiles}, which break a rule, so {so}")
    if between:
        texts.append(f"{at} would {fill}{briefly}, which break a rule, so {so}")
    texts.append(f"{at} would {fill}force two rounds of 2x2 tilings that break a rule, so {so}")
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("tiling-cascade", units, cells, frozenset(), frozenset(xs), within(texts))
