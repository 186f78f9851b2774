"""Where the solutions of a board being repaired differ from the stars planted in it."""

from __future__ import annotations

import os

import clingo

from starbattle.asp.encodings import encodings_folder
from starbattle.asp.facts import DIFFERS, planted_facts
from starbattle.asp.fastpath import star_reader
from starbattle.asp.guard import Guard
from starbattle.asp.solver import program_files
from starbattle.asp.switched import Numbered, SwitchedRegions
from starbattle.limits import TimeLimitReached, deadline_after, time_left
from starbattle.model.board import Cell


class Rivals:
    """The generator's repair queries: how far a board's solutions stray from a planted one.

    Boards of numbered regions are switched on one grounding by external atoms; a cell's
    atoms cover its own region and its neighbours' (where a repair move can take it), and
    a board outside them is grounded anew around its own regions (measured against one
    grounding per board and against every region at every cell: benchmarks/RESULTS.md).
    """

    def __init__(self, stars: int, planted: list[Cell]) -> None:
        """Nothing grounded yet: the first board grounds."""
        files = [
            *(p for p in program_files(None, (), stars, ()) if os.path.basename(p) != "show.lp"),
            os.path.join(encodings_folder(), "repair", "differs.lp"),
        ]  # show.lp shows the stars: shown here are the differences
        self._boards = SwitchedRegions(
            files, ["--warn=none", "--enum-mode=brave"], stars, planted_facts(sorted(planted))
        )

    def open_cells(
        self,
        regions: Numbered,
        limit: int | None = None,
        timeout: float | None = None,
    ) -> frozenset[Cell] | None:
        """Cells that are a star in some solution but not in all, for regions numbered 1..N.

        Found by one brave enumeration of where solutions differ from the planted one (the
        planted stars must be a solution); None as soon as more than `limit` are found.
        Raises TimeLimitReached when `timeout` seconds pass first.
        """
        deadline = deadline_after(timeout)
        control = self._boards.load(regions, timeout)
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
