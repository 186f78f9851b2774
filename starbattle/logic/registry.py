"""The hint techniques, one row each: name, level, effort, ASP program, plain name, function.

The ladder runs the rows in order, a level's techniques together and the lowest level first;
the grade reads their effort classes; the command line's help, its `encodings` listing and
the tests read them too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from starbattle.logic.assumption import assumption
from starbattle.logic.bands import band_enumeration
from starbattle.logic.basic import around_star, forced_fill, full_unit
from starbattle.logic.blocks import blocks
from starbattle.logic.cascade import tiling_cascade
from starbattle.logic.clash import tiling_exclusion
from starbattle.logic.confinement import confinement
from starbattle.logic.core import unsat_core
from starbattle.logic.counting import capacity_counting
from starbattle.logic.differentials import set_differentials
from starbattle.logic.entanglement import entanglement
from starbattle.logic.enumeration import unit_enumeration
from starbattle.logic.exclusion import container_exclusion, counting_exclusion
from starbattle.logic.grid import Found, View
from starbattle.logic.mistakes import mistakes
from starbattle.logic.pairs import pair_enumeration
from starbattle.logic.rooks import rooks
from starbattle.logic.room import too_little_room
from starbattle.logic.shapes import shapes
from starbattle.logic.tiling import band_tiling, composite_tiling
from starbattle.logic.uniqueness import uniqueness
from starbattle.model.units import Unit
from starbattle.words import joined

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic

Apply = Callable[["Logic", View], Iterable[Found]]
"""A technique's function: every deduction it makes from a state, in cell numbers."""
Effort = Callable[[tuple[Unit, ...]], str]
"""A technique's effort class (one of EFFORTS) for a step's premise units."""

EFFORTS = (
    "basic",
    "region",
    "exclusion",
    "counting",
    "advanced",
    "assumption",
    "assumption-chain",
    "machine",
)
"""How hard a step is for a person, easiest first: the grade's order of the ladder's steps,
measured against StarBattleLab's tiers (benchmarks/RESULTS.md). Basic: levels 0-2; region:
2x2 blocks of a region, a region inside a row or column; exclusion: 2x2 blocks of a row or
column, too little room left by a star's neighbours alone or in a region; counting: the
other steps of level 4, confinement and band tiling (2x2 blocks of two lines, as level 3
has them of one); advanced: the costly techniques of level 5 (the other containers, set
differentials, a star forcing tilings in one round or two, the M and T, n-rooks,
entanglement, unit, pair and band enumeration); then level 6 by technique; machine: level
7, and a trial whose chain is too long to follow (the grade's `effort`). The grade's tiers
are made of these classes (starbattle/logic/grade.py): a new technique takes its place in
them by its class."""


class Technique(NamedTuple):
    """One technique of the ladder."""

    name: str
    level: int
    effort: Effort
    program: str | None
    """Its ASP program's file in encodings/hints/ (None: no program states it)."""
    plain: str
    """Its name for people."""
    apply: Apply
    """Its function (level 6's makes the steps of both of its techniques)."""
    exact: bool = False
    """Its program makes exactly the function's deductions (else more, or the same split
    finer: its header says how)."""
    costly: bool = False
    """It runs only when the techniques before it on its level found nothing, alone (the
    containers within the ladder's CONTAINER_WORK); level 6's chains leave it out."""
    assumes: str | None = None
    """What it takes for granted beyond the rules ('unique': the puzzle has one solution);
    such a technique runs only when asked for (Logic's `assume_unique`)."""


def _always(effort: str) -> Effort:
    """The effort class of a technique whatever its units."""
    return lambda units: effort


def _blocks_effort(units: tuple[Unit, ...]) -> str:
    """2x2 blocks of a region ask less of a person than those of a row or column."""
    return "region" if any(unit.kind == "region" for unit in units) else "exclusion"


def _room_effort(units: tuple[Unit, ...]) -> str:
    """Too little room left by a star's neighbours alone, or in a region, is an exclusion."""
    return "exclusion" if len(units) == 1 or units[0].kind == "region" else "counting"


def _confinement_effort(units: tuple[Unit, ...]) -> str:
    """A region inside rows or columns asks less than other confinements."""
    regions = sum(unit.kind == "region" for unit in units)
    return "region" if regions == 1 and units[0].kind == "region" else "counting"


def _on_view(technique: Callable[[View], Iterable[Found]]) -> Apply:
    """A technique that reads the state alone, called as the ladder calls every technique."""
    return lambda logic, view: technique(view)


TECHNIQUES = (
    Technique("mistake", 0, _always("basic"), None, "a mistake in the marks", mistakes),
    Technique(
        "around-star",
        1,
        _always("basic"),
        "around-star.lp",
        "around a star",
        _on_view(around_star),
        exact=True,
    ),
    Technique(
        "full-unit",
        1,
        _always("basic"),
        "full-unit.lp",
        "a full unit",
        _on_view(full_unit),
        exact=True,
    ),
    Technique(
        "forced-fill",
        2,
        _always("basic"),
        "forced-fill.lp",
        "forced fill",
        _on_view(forced_fill),
        exact=True,
    ),
    Technique(
        "2x2-blocks", 3, _blocks_effort, "2x2-blocks.lp", "two-by-two blocks", _on_view(blocks)
    ),
    Technique(
        "too-little-room",
        4,
        _room_effort,
        "too-little-room.lp",
        "a star would leave too little room",
        _on_view(too_little_room),
    ),
    Technique(
        "confinement",
        5,
        _confinement_effort,
        "confinement.lp",
        "confinement",
        _on_view(confinement),
        exact=True,
    ),
    # Containers (issue 31): bands of lines and the units meeting them, as units
    Technique(
        "band-tiling",
        5,
        _always("counting"),
        "band-tiling.lp",
        "a squeeze of lines into 2x2 blocks",
        band_tiling,
        costly=True,
    ),
    Technique(
        "composite-tiling",
        5,
        _always("advanced"),
        "composite-tiling.lp",
        "a counted area in 2x2 blocks",
        composite_tiling,
        costly=True,
    ),
    Technique(
        "capacity-counting",
        5,
        _always("advanced"),
        "capacity-counting.lp",
        "counting with 2x2 room",
        capacity_counting,
        costly=True,
    ),
    Technique(
        "container-exclusion",
        5,
        _always("advanced"),
        "container-exclusion.lp",
        "a star would leave a band or area too little room",
        container_exclusion,
        costly=True,
    ),
    Technique(
        "counting-exclusion",
        5,
        _always("advanced"),
        "counting-exclusion.lp",
        "a star would leave a band too few stars by counting",
        counting_exclusion,
        costly=True,
    ),
    Technique(
        "set-differentials",
        5,
        _always("advanced"),
        "set-differentials.lp",
        "lines (a band, or rows and columns) less some regions (set differentials)",
        set_differentials,
        costly=True,
    ),
    # A star forcing 2x2 tilings that break a rule (issue 31: the StarBattleLab experts'
    # short trials): level 4's exclusion followed one argument further, after the containers
    Technique(
        "tiling-exclusion",
        5,
        _always("advanced"),
        "tiling-exclusion.lp",
        "a star would force 2x2 tilings that break a rule",
        tiling_exclusion,
        costly=True,
    ),
    Technique(
        "tiling-cascade",
        5,
        _always("advanced"),
        "tiling-cascade.lp",
        "a star would force 2x2 tilings that force more, which break a rule",
        tiling_cascade,
        costly=True,
    ),
    # The catalogue's 10x10-specific techniques (issue 31), harder for a person than the
    # containers: tried after them, each alone, easiest first
    Technique(
        "m-and-t",
        5,
        _always("advanced"),
        "m-and-t.lp",
        "an M or a pressured T",
        _on_view(shapes),
        costly=True,
    ),
    Technique(
        "n-rooks",
        5,
        _always("advanced"),
        "n-rooks.lp",
        "n-rooks",
        _on_view(rooks),
        costly=True,
    ),
    Technique(
        "entanglement",
        5,
        _always("advanced"),
        "entanglement.lp",
        "entanglement",
        _on_view(entanglement),
        costly=True,
    ),
    # A unit's placements listed (issue 31): a bounded case split, the nearest to level 6's
    # trials, so tried last on its level, where the 2x2 relaxations above have nothing
    Technique(
        "unit-enumeration",
        5,
        _always("advanced"),
        "unit-enumeration.lp",
        "a unit's placements listed",
        unit_enumeration,
        costly=True,
    ),
    Technique(
        "pair-enumeration",
        5,
        _always("advanced"),
        "pair-enumeration.lp",
        "two units' last stars placed together",
        pair_enumeration,
        costly=True,
    ),
    # Bands of 2-4 lines (issue 31: 1-star boards of every size with no trial): the widest
    # case split of the level, so tried last
    Technique(
        "band-enumeration",
        5,
        _always("advanced"),
        "band-enumeration.lp",
        "a band's last stars placed together",
        band_enumeration,
        costly=True,
    ),
    Technique(
        "uniqueness",
        6,
        _always("assumption"),
        "uniqueness.lp",
        "one solution assumed (by a thread, at sea)",
        _on_view(uniqueness),
        assumes="unique",
    ),
    Technique("assumption", 6, _always("assumption"), None, "one assumption", assumption),
    Technique(
        "assumption-chain",
        6,
        _always("assumption-chain"),
        None,
        "an assumption chain",
        assumption,
    ),
    Technique("unsat-core", 7, _always("machine"), None, "an unsatisfiable core", unsat_core),
)
"""Every technique, in the ladder's order."""

BY_NAME = {technique.name: technique for technique in TECHNIQUES}
"""Every technique by its name."""
LEVELS = {
    level: joined([t.plain for t in TECHNIQUES if t.level == level], "or")
    for level in dict.fromkeys(t.level for t in TECHNIQUES)
}
"""The ladder's levels, lowest first, with what each covers."""
FUNCTIONS = {
    level: tuple(dict.fromkeys(t.apply for t in TECHNIQUES if t.level == level and not t.costly))
    for level in LEVELS
}
"""The functions of each level's techniques that run together, each once, in the ladder's order."""
COSTLY = {
    level: tuple(dict.fromkeys(t.apply for t in TECHNIQUES if t.level == level and t.costly))
    for level in LEVELS
}
"""The functions of each level's costly techniques, each run alone after the others, in order."""
ASSUMING = frozenset(t.apply for t in TECHNIQUES if t.assumes is not None)
"""The functions of the techniques that take something for granted (run only when asked)."""
