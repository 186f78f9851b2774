"""One grounding for many boards that differ only in a few cells' regions (externals switched).

The generator's repair (`asp.rivals`) and the setter's suggestions (`logic.suggest`) try
board after board, each a few cells away from the last. A cell's candidate regions (its own
and those of the cells within `reach` steps) are external atoms of one grounding; a board is
loaded by switching the atoms of the cells that changed, and a board outside the candidates
is grounded anew around its own regions. clasp keeps what it learnt between boards (the
externals are assumptions to it), which is what makes a query after a small change cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import clingo

from starbattle.asp.encodings import add_program
from starbattle.asp.facts import REGION, switched_facts
from starbattle.asp.fastpath import star_reader
from starbattle.asp.guard import Guard, grounding
from starbattle.limits import TimeLimitReached
from starbattle.model.board import Cell

Numbered = Sequence[Sequence[int]]
"""A board's regions numbered 1..N, by row (0: a blocked cell, in no region)."""


class SwitchedRegions:
    """A program grounded once for boards of numbered regions; each board switched on."""

    def __init__(
        self,
        files: Sequence[str],
        arguments: Sequence[str],
        stars: int,
        facts: str = "",
        reach: int = 1,
    ) -> None:
        """Nothing grounded yet: the first board grounds.

        `facts`: what every board shares besides its regions (planted stars, givens).
        `reach`: how many steps away a cell's candidate regions are taken from.
        """
        self._files, self._arguments = list(files), list(arguments)
        self._stars, self._facts, self._reach = stars, facts, reach
        self.control: clingo.Control | None = None
        self._literals: dict[tuple[int, int, int], int] = {}
        self._externals: set[tuple[int, int, int]] = set()
        """The region(R,C,K) atoms of the grounding."""
        self._on: dict[Cell, int] = {}
        """The region number switched on at each cell."""
        self.groundings = 0
        """How many times a board was grounded (the first, and those outside the candidates)."""

    def _candidates(self, regions: Numbered) -> dict[Cell, list[int]]:
        """Each playable cell's own region and the regions within `reach` steps of it."""
        size, reach = len(regions), self._reach
        return {
            (r + 1, c + 1): sorted(
                {
                    regions[i][j]
                    for i in range(max(0, r - reach), min(size, r + reach + 1))
                    for j in range(max(0, c - reach), min(size, c + reach + 1))
                    if abs(i - r) + abs(j - c) <= reach and regions[i][j] > 0
                }
            )
            for r in range(size)
            for c in range(size)
            if regions[r][c] > 0
        }

    def _ground(self, regions: Numbered, timeout: float | None) -> clingo.Control:
        """Ground the program with each cell's candidate regions as externals."""
        candidates = self._candidates(regions)
        control = clingo.Control(self._arguments)
        with grounding(timeout):
            add_program(control, self._files)
            facts = switched_facts(len(regions), self._stars, candidates) + self._facts
            control.add("base", [], facts)
            control.ground([("base", [])])
        self.control, self._on, self._literals = control, {}, {}
        self._externals = {(r, c, k) for (r, c), numbers in candidates.items() for k in numbers}
        self.groundings += 1
        return control

    def _literal(self, control: clingo.Control, atom: tuple[int, int, int]) -> int:
        """The solver literal of a region(R,C,K) external (looked up once, when first needed)."""
        literal = self._literals.get(atom)
        if literal is None:
            found = control.symbolic_atoms[
                clingo.Function(REGION, [clingo.Number(n) for n in atom])
            ]
            literal = self._literals[atom] = found.literal
        return literal

    def load(self, regions: Numbered, timeout: float | None = None) -> clingo.Control:
        """Switch to a board (only the cells that changed), or ground it when it lies outside."""
        board = {
            (r, c, region)
            for r, row in enumerate(regions, start=1)
            for c, region in enumerate(row, start=1)
            if region > 0
        }
        control = self.control
        wanted = {(r, c, region) for r, c, region in board if self._on.get((r, c)) != region}
        if control is None or not wanted <= self._externals:
            control, wanted = self._ground(regions, timeout), board
        assign = control.assign_external
        for r, c, region in wanted:
            was = self._on.get((r, c))
            if was is not None:
                assign(self._literal(control, (r, c, was)), False)
            assign(self._literal(control, (r, c, region)), True)
            self._on[(r, c)] = region
        return control

    def solutions(
        self, regions: Numbered, limit: int, timeout: float | None = None
    ) -> tuple[list[list[Cell]], bool]:
        """Up to `limit` solutions' star cells (the program shows star/2), and if that is all.

        Raises TimeLimitReached when `timeout` seconds pass first.
        """
        control = self.load(regions, timeout)
        control.configuration.solve.models = limit
        read = star_reader(len(regions))
        found: list[list[Cell]] = []
        with Guard(control, timeout) as guard, guard.clingo():
            result = control.solve(on_model=lambda model: found.append(read(model)))
        if guard.timed_out and not result.exhausted and len(found) < limit:
            raise TimeLimitReached
        return found, bool(result.exhausted)
