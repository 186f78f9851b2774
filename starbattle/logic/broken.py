"""The rule a trial breaks: which rule, whether marks still break it, and how it is said."""

from __future__ import annotations

from typing import NamedTuple

from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.sentences import needed, units_text
from starbattle.words import noun, plural

BROKEN = "broken-rule"
"""The technique of a chain's last step (the rule it breaks)."""


class Broken(NamedTuple):
    """The rule a trial breaks: stars touch, a unit's stars or room, a cell both ways."""

    kind: str
    """'touch', 'too-many', 'no-room', 'cramped' (fewer 2x2 blocks than stars) or 'both'."""
    units: tuple[int, ...]
    """The unit whose rule breaks; for 'cramped' a unit, 2-3 adjacent lines (a squeeze) or
    two neighbouring regions; none for 'touch' and 'both'."""
    cells: tuple[int, ...]
    rests_on: frozenset[int]

    def holds(self, grid: Grid, stars: set[int], blanks: set[int]) -> bool:
        """Whether these marks break the rule."""
        if self.kind == "touch":
            return all(i in stars for i in self.cells)
        if self.kind == "both":
            return self.cells[0] in stars and self.cells[0] in blanks
        cells = frozenset().union(*(grid.sets[u] for u in self.units))
        need = grid.quota * len(self.units) - len(cells & stars)
        left = cells - stars - blanks
        if self.kind == "cramped":
            return need > 0 and grid.cover(left, need - 1) is not None
        return need < 0 if self.kind == "too-many" else len(left) < need

    def found(self, view: View) -> Found:
        """The chain's last step: the rule broken, said as the marks show it."""
        grid, units = view.grid, self.units
        if self.kind == "touch":
            a, b = self.cells
            text = f"the stars at {grid.where(a)} and {grid.where(b)} touch: a contradiction"
        elif self.kind == "both":
            where = grid.where(self.cells[0])
            text = f"cell {where} would be both a star and empty: a contradiction"
        elif self.kind == "too-many":
            [unit] = units
            stars = plural(view.has[unit], "star")
            text = f"{grid.names[unit]} has {stars}, more than {grid.quota}: a contradiction"
        elif self.kind == "no-room":
            [unit] = units
            left = len(view.open[unit])
            room = f"only {plural(left, 'undecided cell')}" if left else "no undecided cell"
            wants = f"{grid.names[unit]} needs {needed(view, unit)}"
            text = f"{wants} but has {room} left: a contradiction"
        else:
            need = sum(view.need[u] for u in units)
            open_cells = frozenset().union(*(view.open[u] for u in units))
            blocks = len(grid.cover(open_cells, need - 1) or ())
            hold = "which holds one star" if blocks == 1 else "one star each"
            if len(units) == 1:
                wants, its = f"needs {needed(view, units[0])}", "its"
            else:
                more = "more star" if any(view.has[u] for u in units) else "star"
                wants, its = f"need {plural(need, more)}", "their"
            text = (
                f"{units_text(grid, units)} {wants} but {its} undecided cells fit in "
                f"{plural(blocks, '2x2 block')}, {hold}: a contradiction"
            )
        cells = view.marks_in(units) if units else self.cells
        return Found(BROKEN, units, tuple(sorted(cells)), frozenset(), frozenset(), text, 0)

    def outcome(self, grid: Grid) -> str:
        """The rule broken as the conclusion of the assumption ('region C would have ...')."""
        if self.kind == "touch":
            a, b = self.cells
            return f"the stars at {grid.where(a)} and {grid.where(b)} would touch"
        if self.kind == "both":
            return f"{grid.where(self.cells[0])} would have to be both a star and empty"
        name, one = units_text(grid, self.units), len(self.units) == 1
        if self.kind == "too-many":
            return f"{name} would have too many stars"
        stars = f"{'its' if one else 'their'} {noun(grid.quota * len(self.units), 'star')}"
        if self.kind == "no-room":
            return f"{name} would have no room for {stars}"
        return f"{name} would have too little room for {stars}"
