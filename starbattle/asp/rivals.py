"""Where the solutions of a board being repaired differ from the stars planted in it."""

from __future__ import annotations

import os
from collections.abc import Sequence

import clingo

from starbattle.asp.encodings import add_program, encodings_folder
from starbattle.asp.facts import DIFFERS, REGION, rival_facts
from starbattle.asp.fastpath import star_reader
from starbattle.asp.guard import Guard, grounding
from starbattle.asp.solver import program_files
from starbattle.limits import TimeLimitReached, deadline_after, time_left
from starbattle.model.board import NEIGHBOURS, Cell


class Rivals:
    """The generator's repair queries: how far a board's solutions stray from a planted one.

    Boards of numbered regions are switched on one grounding by external atoms; a cell's
    atoms cover its own region and its neighbours' (where a repair move can take it), and
    a board outside them is grounded anew around its own regions (measured against one
    grounding per board and against every region at every cell: benchmarks/RESULTS.md).
    """

    def __init__(self, stars: int, planted: list[Cell]) -> None:
        """Nothing grounded yet: the first board grounds."""
        self._stars = stars
        self._planted = sorted(planted)
        self._control: clingo.Control | None = None
        self._literals: dict[tuple[int, int, int], int] = {}
        self._externals: set[tuple[int, int, int]] = set()
        """The region(R,C,K) atoms of the grounding: each cell's region and its neighbours'."""
        self._on: dict[Cell, int] = {}
        """The region number switched on at each cell."""

    def _ground(self, regions: Sequence[Sequence[int]], timeout: float | None) -> clingo.Control:
        """Ground the default program with each cell's region and its neighbours' as externals."""
        size = len(regions)
        candidates = {
            (r + 1, c + 1): sorted(
                {regions[r][c]}
                | {
                    regions[r + dr][c + dc]
                    for dr, dc in NEIGHBOURS
                    if 0 <= r + dr < size and 0 <= c + dc < size
                }
            )
            for r in range(size)
            for c in range(size)
        }
        control = clingo.Control(["--warn=none", "--enum-mode=brave"])
        files = [
            *(
                p
                for p in program_files(None, (), self._stars, ())
                if os.path.basename(p) != "show.lp"
            ),
            os.path.join(encodings_folder(), "repair", "differs.lp"),
        ]  # show.lp shows the stars: shown here are the differences
        with grounding(timeout):
            add_program(control, files)
            control.add("base", [], rival_facts(size, self._stars, self._planted, candidates))
            control.ground([("base", [])])
        self._control, self._on, self._literals = control, {}, {}
        self._externals = {(r, c, k) for (r, c), regions in candidates.items() for k in regions}
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

    def _load(self, regions: Sequence[Sequence[int]], timeout: float | None) -> clingo.Control:
        """Switch to a board of regions numbered 1..N (the cells that changed), or ground it."""
        board = {
            (r, c, region)
            for r, row in enumerate(regions, start=1)
            for c, region in enumerate(row, start=1)
        }
        control = self._control
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

    def open_cells(
        self,
        regions: Sequence[Sequence[int]],
        limit: int | None = None,
        timeout: float | None = None,
    ) -> frozenset[Cell] | None:
        """Cells that are a star in some solution but not in all, for regions numbered 1..N.

        Found by one brave enumeration of where solutions differ from the planted one (the
        planted stars must be a solution); None as soon as more than `limit` are found.
        Raises TimeLimitReached when `timeout` seconds pass first.
        """
        deadline = deadline_after(timeout)
        control = self._load(regions, timeout)
        read = star_reader(len(regions), DIFFERS)
        found: list[Cell] = []

        def keep(model: clingo.Model) -> bool:
            """Keep the brave consequences so far; stop once they pass the limit."""
            found[:] = read(model)
            return limit is None or len(found) <= limit

        with Guard(control, time_left(deadline)) as guard, guard.clingo():
            result = control.solve(on_model=keep)
        if guard.timed_out and not result.exhausted:
            raise TimeLimitReached
        return None if limit is not None and len(found) > limit else frozenset(found)
