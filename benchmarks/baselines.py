"""Other solvers, written by us for comparison only: CP-SAT and a pure-Python search.

Each `*_solutions(board, limit, timeout)` yields up to `limit` solutions (0 = all) as sets of
1-based (row, column) cells, and returns normally when the search is complete; it raises
TimeoutError when the time limit ends the search first. Not part of the package: install
the `bench` extra (ortools) to run them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from starbattle import Board

Cell = tuple[int, int]
Stars = frozenset[Cell]


def units(board: Board) -> list[list[Cell]]:
    """Rows, columns and regions, each as its list of star-able cells."""
    size = board.size
    open_cells = {(r, c) for r in range(1, size + 1) for c in range(1, size + 1)}
    open_cells -= set(board.blocked)
    rows = [
        [(r, c) for c in range(1, size + 1) if (r, c) in open_cells] for r in range(1, size + 1)
    ]
    columns = [
        [(r, c) for r in range(1, size + 1) if (r, c) in open_cells] for c in range(1, size + 1)
    ]
    return rows + columns + [list(cells) for cells in board.region_cells().values()]


def windows(board: Board) -> list[list[Cell]]:
    """Every 2x2 window of the board: at most one star each (the no-touch rule)."""
    size = board.size
    return [
        [(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
        for r in range(1, size)
        for c in range(1, size)
    ]


def cpsat_solutions(board: Board, limit: int, timeout: float, workers: int = 1) -> Iterator[Stars]:
    """Solutions from OR-Tools CP-SAT with the linear model (sum = S per unit, AMO per window).

    One worker enumerates in a single search (stopped after `limit`); several workers
    re-solve with each solution forbidden (CP-SAT enumerates with one worker only).
    """
    from ortools.sat.python import cp_model

    deadline = time.perf_counter() + timeout
    model = cp_model.CpModel()
    star = {
        cell: model.new_bool_var(f"s{cell[0]}_{cell[1]}")
        for unit in units(board)[: board.size]
        for cell in unit
    }
    for unit in units(board):
        model.add(sum(star[cell] for cell in unit) == board.stars)
    for window in windows(board):
        model.add_at_most_one(star[cell] for cell in window if cell in star)
    for cell in board.given_stars:
        model.add(star[cell] == 1)
    for cell in board.given_blanks:
        model.add(star[cell] == 0)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if workers == 1:
        found: list[Stars] = []

        class Collect(cp_model.CpSolverSolutionCallback):
            """Keep each solution; stop at the limit."""

            def on_solution_callback(self) -> None:
                found.append(frozenset(c for c, v in star.items() if self.boolean_value(v)))
                if limit and len(found) >= limit:
                    self.stop_search()

        solver.parameters.enumerate_all_solutions = True
        solver.parameters.max_time_in_seconds = timeout
        status = solver.solve(model, Collect())
        yield from found
        if status == cp_model.UNKNOWN or (
            status == cp_model.FEASIBLE and not (limit and len(found) >= limit)
        ):
            raise TimeoutError
        return
    count = 0
    while not limit or count < limit:
        solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.001)
        status = solver.solve(model)
        if status == cp_model.UNKNOWN:
            raise TimeoutError
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return
        stars = frozenset(c for c, v in star.items() if solver.boolean_value(v))
        count += 1
        yield stars
        model.add_bool_or([star[c].Not() for c in stars])


def python_solutions(board: Board, limit: int, timeout: float) -> Iterator[Stars]:
    """Solutions from a pure-Python search: unit propagation, then branch on the tightest unit.

    Propagation: a unit with S stars empties its other cells; a unit whose open cells are
    exactly the stars it still needs gets them all; a star empties its 8 neighbours.
    """
    deadline = time.perf_counter() + timeout
    all_units = units(board)
    size, need = board.size, board.stars
    cell_units: dict[Cell, list[int]] = {}
    for index, unit in enumerate(all_units):
        for cell in unit:
            cell_units.setdefault(cell, []).append(index)
    around = {
        (r, c): [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 1 <= r + dr <= size and 1 <= c + dc <= size
        ]
        for r, c in cell_units
    }
    found = 0

    def propagate(stars: set[Cell], open_cells: set[Cell]) -> bool:
        """Apply the rules until nothing changes; False on a contradiction."""
        changed = True
        while changed:
            changed = False
            for unit in all_units:
                placed = sum(cell in stars for cell in unit)
                candidates = [cell for cell in unit if cell in open_cells]
                if placed > need or placed + len(candidates) < need:
                    return False
                if candidates and placed == need:
                    open_cells.difference_update(candidates)
                    changed = True
                elif candidates and placed + len(candidates) == need:
                    for cell in candidates:
                        if cell not in open_cells:
                            return False  # emptied by a neighbour placed just before
                        open_cells.discard(cell)
                        stars.add(cell)
                        for other in around[cell]:
                            if other in stars:
                                return False
                            open_cells.discard(other)
                    changed = True
        return True

    def search(stars: set[Cell], open_cells: set[Cell]) -> Iterator[Stars]:
        """Depth-first search below one state."""
        nonlocal found
        if time.perf_counter() > deadline:
            raise TimeoutError
        if not propagate(stars, open_cells):
            return
        if not open_cells:
            found += 1
            yield frozenset(stars)
            return
        tightest = min(
            (unit for unit in all_units if any(cell in open_cells for cell in unit)),
            key=lambda unit: sum(cell in open_cells for cell in unit),
        )
        cell = next(cell for cell in tightest if cell in open_cells)
        with_star = (stars | {cell}, open_cells - {cell} - set(around[cell]))
        if not any(other in stars for other in around[cell]):
            yield from search(*with_star)
        if limit and found >= limit:
            return
        yield from search(set(stars), open_cells - {cell})

    stars = set(board.given_stars)
    open_cells = set(cell_units) - stars - set(board.given_blanks)
    for cell in board.given_stars:
        open_cells -= set(around[cell])
    for solution in search(stars, open_cells):
        yield solution
        if limit and found >= limit:
            return
