"""The live verdict on a board being drawn: its regions, then its solutions, in one value.

What is wrong with the regions comes first, each problem in words with its cells (the
number of regions, a region in pieces, a region too small for its stars); only a board
whose regions are right is solved: no solution and why, a second solution and where the two
differ, or the one solution's grade with its hardest technique.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from starbattle.asp.solver import Solver
from starbattle.errors import BoardError
from starbattle.limits import TimeLimitReached, deadline_after, time_left
from starbattle.logic.grade import EFFORTS, TIMED_OUT
from starbattle.logic.grade import grade as grade_board
from starbattle.logic.insight import fixed_by, why_unsat
from starbattle.model.board import Board, Cell, RegionCountError, pieces
from starbattle.model.setter import RegionProblem
from starbattle.model.steps import Grade
from starbattle.model.units import Unit
from starbattle.model.values import BoardVerdict, Difference
from starbattle.words import plural

GRADES: OrderedDict[Board, Grade] = OrderedDict()
"""The grades of the boards judged last in this process, most recent last: an edit undone,
redone or taken back is graded at once (a 14x14 3-star grade takes 0.2-0.5 s, the rest of a
verdict a few milliseconds; benchmarks/RESULTS.md, live verdict)."""
GRADES_KEPT = 256
WHY_SECONDS = 1.0
"""The longest the verdict looks for why a board has no solution: a smallest set of rules that
cannot all hold takes 0.03 s at 10x10, but up to 18 s at 14x14 3 stars, where it can be 35
rules long and of no help to a setter (then the verdict says no solution, without the why)."""


def remembered_grade(board: Board, timeout: float | None) -> Grade:
    """The board's grade, from GRADES when it was graded lately (a time limit is not kept)."""
    grade = GRADES.get(board)
    if grade is None:
        grade = grade_board(board, timeout)
        if grade.reason == TIMED_OUT:
            return grade
        GRADES[board] = grade
        while len(GRADES) > GRADES_KEPT:
            GRADES.popitem(last=False)
    GRADES.move_to_end(board)
    return grade


def drawn(read: Callable[[], Board]) -> Board:
    """The board of a reading that may have the wrong number of regions (a board being drawn).

    `read` is a board-making call, e.g. `lambda: parse_board(text)`; a RegionCountError gives
    the board it carries.
    """
    try:
        return read()
    except RegionCountError as error:
        return error.board


def holds(cells: list[Cell], stars: int) -> bool:
    """Whether `stars` stars fit in these cells with no two touching (a search, first fit)."""

    def fit(start: int, chosen: list[Cell]) -> bool:
        """Whether the stars still to place fit in cells[start:] beside `chosen`."""
        if len(chosen) == stars:
            return True
        for index in range(start, len(cells) - (stars - len(chosen)) + 1):
            r, c = cells[index]
            if all(max(abs(r - i), abs(c - j)) > 1 for i, j in chosen):
                chosen.append((r, c))
                if fit(index + 1, chosen):
                    return True
                chosen.pop()
        return False

    return fit(0, [])


def region_problems(board: Board) -> tuple[RegionProblem, ...]:
    """What is wrong with a board's regions, one problem a message: count, pieces, room."""
    cells = board.region_cells()
    names = {label: Unit("region", label).name(board) for label in cells}
    problems = []
    count, size = len(cells), board.size
    if count != size:
        by_size = sorted(cells, key=lambda label: len(cells[label]))
        if count < size:
            label = by_size[-1]
            advice = f"split a region in two, e.g. {names[label]} ({len(cells[label])} cells)"
        else:
            label = by_size[0]
            advice = f"join a region to a neighbour, e.g. {names[label]}"
        problems.append(
            RegionProblem(
                "count",
                f"the board has {plural(count, 'region')}; a {size}x{size} board needs "
                f"{size}: {advice}",
                tuple(cells[label]),
            )
        )
    for label, count_of_pieces in board.split_regions().items():
        parts = sorted(pieces(cells[label]), key=len, reverse=True)
        stray = sorted(cell for part in parts[1:] for cell in part)
        problems.append(
            RegionProblem(
                "split",
                f"{names[label]} is in {count_of_pieces} separate pieces: join them, or "
                "give the smaller pieces to other regions",
                tuple(stray),
            )
        )
    for label, region in cells.items():
        if not holds(region, board.stars):
            problems.append(
                RegionProblem(
                    "small",
                    f"{names[label]} ({plural(len(region), 'cell')}) cannot hold "
                    f"{plural(board.stars, 'star')} without two touching: give it more cells",
                    tuple(region),
                )
            )
    return tuple(problems)


def verdict(
    board: Board, *, fixed: bool = False, graded: bool = True, timeout: float | None = None
) -> BoardVerdict:
    """The verdict on a board: its region problems, else its solutions and what follows.

    `fixed`: add the cells every solution agrees on; `graded`: grade a unique board. Past
    `timeout` seconds the verdict holds what was settled (solutions None if not even that).
    """
    started = time.perf_counter()
    problems = region_problems(board)
    if problems:
        return BoardVerdict(board, problems, seconds=time.perf_counter() - started)
    deadline = deadline_after(timeout)
    try:
        solver = Solver(board, ground_timeout=time_left(deadline))
    except BoardError as error:  # the star count cannot fit the size at all
        problem = RegionProblem("stars", error.message, ())
        return BoardVerdict(board, (problem,), seconds=time.perf_counter() - started)
    found = list(solver.solutions(2, time_left(deadline)))
    if solver.last.timed_out:
        return BoardVerdict(board, (), seconds=time.perf_counter() - started)
    result = BoardVerdict(board, (), min(len(found), 2))
    try:
        if len(found) == 2:
            result = result._replace(difference=Difference(*found))
        elif not found:
            left = time_left(deadline)
            why = why_unsat(board, WHY_SECONDS if left is None else min(WHY_SECONDS, left))
            result = result._replace(why=why)
        elif graded:
            grade = remembered_grade(board, time_left(deadline))
            hardest = EFFORTS[grade.features["effort"]] if grade.tier is not None else None
            result = result._replace(grade=grade, hardest=hardest)
        if fixed and found:
            result = result._replace(fixed=fixed_by(solver, time_left(deadline)))
    except TimeLimitReached:
        pass  # what was settled stands
    return result._replace(seconds=time.perf_counter() - started)
