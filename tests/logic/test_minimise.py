"""The one deletion-based minimiser, of marks and of cores, within a budget of proofs."""

from __future__ import annotations

from starbattle.asp.encodings import encodings_dir
from starbattle.asp.solver import Rule, Solver
from starbattle.logic.minimise import NO_TOUCH, Budget, minimise, smaller_core
from starbattle.model.board import Board


def test_what_the_conflict_does_not_need_is_dropped_in_order() -> None:
    asked: list[list[int]] = []

    def conflict(trial: list[int]) -> list[int] | None:
        asked.append(trial)
        return trial if {2, 4} <= set(trial) else None

    assert minimise([1, 2, 3, 4, 5], conflict) == [2, 4]
    assert asked == [[2, 3, 4, 5], [3, 4, 5], [2, 4, 5], [2, 5], [2, 4]]


def test_a_smaller_conflict_drops_several_items_at_once() -> None:
    asked: list[list[int]] = []

    def conflict(trial: list[int]) -> list[int] | None:
        asked.append(trial)
        return [4] if 4 in trial else None

    assert minimise([1, 2, 3, 4], conflict) == [4]
    assert asked == [[2, 3, 4], []]


def test_the_minimising_stops_when_the_proofs_are_spent() -> None:
    proofs = Budget(2)
    assert minimise([1, 2, 3, 4], lambda trial: trial, proofs) == [3, 4]
    assert proofs.left < 0


def test_a_core_keeps_the_rules_always_on_out_of_its_units() -> None:
    regions = ["ABCCC", "ABDDC", "ABDDE", "AEEEE", "AEEEE"]
    board = Board.from_rows(regions, 1, given_stars=frozenset({(2, 2), (3, 3)}))
    solver = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
    every = solver.units()
    core = solver.core(every)
    assert core is not None and NO_TOUCH in core
    touching: list[Rule] = [("given_star", (2, 2)), ("given_star", (3, 3))]
    assert smaller_core(solver, core, every, (NO_TOUCH,)) == touching
    assert sorted(smaller_core(solver, core, every)) == sorted([*touching, NO_TOUCH])
