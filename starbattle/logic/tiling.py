"""Level 5: containers in 2x2 blocks (band tiling, the squeeze; composite shapes).

A container (starbattle.logic.containers) that holds k stars in undecided cells that fit in
exactly k 2x2 blocks has one star in each block, as a unit does at level 3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starbattle.logic.blocks import fit, one_star_each
from starbattle.logic.containers import SQUEEZE_LINES, Container, containers
from starbattle.logic.grid import Found, View
from starbattle.logic.sentences import outcome, units_text, within
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic


def band_tiling(logic: Logic, view: View) -> list[Found]:
    """2 to 4 adjacent lines needing k stars whose undecided cells fit in k 2x2 blocks."""
    return _tiled(logic, view, "band-tiling", ("band",), SQUEEZE_LINES)


def composite_tiling(logic: Logic, view: View) -> list[Found]:
    """A band without the units inside it, or the units meeting it outside it, in k blocks."""
    return _tiled(logic, view, "composite-tiling", ("inside", "outside"))


def _tiled(
    logic: Logic, view: View, technique: str, ways: tuple[str, ...], most_lines: int | None = None
) -> list[Found]:
    """Every container of these ways (of bands of `most_lines` at most) in exactly k blocks."""
    grid, found = view.grid, []
    budget = logic.container_budget(view, technique)
    for container in containers(view, most_lines):
        if container.way not in ways or container.mask.bit_count() > 4 * container.need:
            continue
        if grid.spread(container.mask, container.need + 1) > container.need:
            continue  # more cells than its stars no two of which share a block: no search
        if not budget.spend(container.mask.bit_count()):
            break
        cover = grid.cover(container.cells, container.need)
        if cover is None or len(cover) != container.need:
            continue
        stars, blanks = one_star_each(view, container.cells, cover)
        if stars or blanks:
            found.append(tiled_step(view, technique, container, stars, blanks))
    return found


def tiled_step(
    view: View,
    technique: str,
    container: Container,
    stars: frozenset[int],
    blanks: frozenset[int],
) -> Found:
    """The step of a container whose stars fit in as many 2x2 blocks as it holds."""
    grid = view.grid
    told = container.told(view)
    where = "their undecided cells" if container.way == "band" else "those"
    so = outcome(grid, stars, blanks)
    then = f"{where} fit in {fit(container.need)}, so {so}"
    texts = [f"{told} and {then}" if container.way == "band" else f"{told}; {then}"]
    held = f"{plural(container.need, 'star')} in {fit(container.need)}"
    if container.way == "inside":
        lines, others = units_text(grid, container.lines), units_text(grid, container.others)
        texts.append(f"the rest of {lines}, without {others}, holds {held}, so {so}")
    texts.append(f"{container.holds(view)} {held}, so {so}")
    units = container.units
    return Found(technique, units, view.marks_in(units), stars, blanks, within(texts))
