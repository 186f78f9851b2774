"""Deletion-based minimising of what cannot all hold: the one minimiser of cores and marks."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, TypeVar

from starbattle.asp.facts import UNIT_NOTOUCH
from starbattle.limits import time_left

if TYPE_CHECKING:
    from starbattle.asp.solver import Rule, Solver

NO_TOUCH: Rule = (UNIT_NOTOUCH, ())
"""The no-touch rule as the explanation program switches it."""

Item = TypeVar("Item")


class Budget:
    """Work a search may still do (ASSUMPTION_WORK, CORE_PROOFS per step) before a deadline."""

    def __init__(self, left: int, deadline: float | None = None) -> None:
        self.left, self.deadline = left, deadline

    def spend(self, work: int) -> bool:
        """Take work from the budget; False once it is overspent.

        TimeLimitReached once the deadline (perf_counter seconds, None: no limit) is past:
        every search the ladder budgets keeps the caller's time limit.
        """
        time_left(self.deadline)
        self.left -= work
        return self.left >= 0


def minimise(
    items: list[Item],
    conflict: Callable[[list[Item]], Collection[Item] | None],
    proofs: Budget | None = None,
) -> list[Item]:
    """Drop the items in turn, keeping out each one without which the rest still conflict.

    `conflict(trial)` is None when the trial items can all hold, else those of them that
    still conflict (a smaller core may drop more items at once). One call per item still
    needed, in the items' order, while `proofs` last (one proof each).
    """
    needed = list(items)
    for item in items:
        if item not in needed:
            continue
        if proofs is not None and not proofs.spend(1):
            break
        trial = [other for other in needed if other != item]
        smaller = conflict(trial)
        if smaller is not None:
            kept = set(smaller)
            needed = [other for other in trial if other in kept]
    return needed


def smaller_core(
    solver: Solver,
    core: Iterable[Rule],
    every: list[Rule],
    always: tuple[Rule, ...] = (),
    deadline: float | None = None,
    *,
    literals: Iterable[int] = (),
    conflicts: int | None = None,
    proofs: Budget | None = None,
) -> list[Rule]:
    """A core's units less those it can do without, in the core's order (see `minimise`).

    Units in `always` stay on throughout and are never dropped; the other units of `every`
    are off unless tried. `literals` hold in every proof; `conflicts` cuts each proof short
    (a proof cut short keeps its unit: the core stays sound, only larger). Raises
    TimeLimitReached when the perf_counter `deadline` passes.
    """
    literals = list(literals)

    def conflict(trial: list[Rule]) -> list[Rule] | None:
        """The units of a core among the trial units, or None when they can all hold."""
        off = [unit for unit in every if unit not in trial and unit not in always]
        on = [*trial, *always]
        return solver.core(on, off, time_left(deadline), literals=literals, conflicts=conflicts)

    return minimise([unit for unit in core if unit not in always], conflict, proofs)
