"""Level 0: a mark that breaks a rule or that the solution contradicts, the first one to fix."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starbattle.errors import BoardError
from starbattle.logic.grid import Found, View
from starbattle.logic.minimise import minimise
from starbattle.model.checker import check

if TYPE_CHECKING:
    from starbattle.logic.ladder import Logic


def mistakes(logic: Logic, view: View) -> list[Found]:
    """Marks that break a rule or that the solution contradicts; the first one to fix."""
    grid, stars, blanks = logic.grid, view.stars, view.blanks
    solutions = logic.solutions
    if not solutions:
        raise BoardError(
            "the board has no solution, so there are no hints: check it with 'solve'",
            file=logic.board.name,
        )
    if len(solutions) == 1:
        truth = solutions[0]
        wrong = sorted([*(stars - truth), *(blanks & truth)])
    else:
        wrong = _conflict(logic, stars, blanks)
    if not wrong:
        return []
    violations = check(logic.board, [grid.cell(i) for i in stars], [grid.cell(i) for i in blanks])
    n = grid.n
    for violation in violations:
        involved = [(r - 1) * n + c - 1 for r, c in violation.cells]
        if violation.unit is not None:
            involved = list(grid.members[grid.number[violation.unit]])
        culprit = next((i for i in wrong if i in involved), None)
        if culprit is not None:
            return [_mistake(view, culprit, f"{violation.message}; ")]
    return [_mistake(view, wrong[0], "")]


def _mistake(view: View, culprit: int, why: str) -> Found:
    """The step that corrects one wrong mark."""
    place = view.grid.where(culprit)
    if culprit in view.stars:
        text = f"{why}the star at {place} is wrong: the solution leaves it empty"
        return Found("mistake", (), (culprit,), frozenset(), frozenset({culprit}), text)
    text = f"{why}the cell {place} is marked empty but holds a star in the solution"
    return Found("mistake", (), (culprit,), frozenset({culprit}), frozenset(), text)


def _conflict(logic: Logic, stars: frozenset[int], blanks: frozenset[int]) -> list[int]:
    """With several solutions: the last of a smallest set of marks that cannot all hold."""
    on = logic.rules()

    def conflict(marks: list[int]) -> list[int] | None:
        """The marks if they cannot all hold under every rule, else None."""
        literals = logic.assume([i for i in marks if i in stars], [i for i in marks if i in blanks])
        core = logic.checker.core(on, (), logic.left(), literals=literals)
        return None if core is None else marks

    every = [*sorted(stars), *sorted(blanks)]
    if conflict(every) is None:
        return []
    return minimise(every, conflict)[-1:]
