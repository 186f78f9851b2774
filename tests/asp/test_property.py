"""Property: on random small boards the solver finds exactly the brute-force solutions."""

from __future__ import annotations

import random

import pytest
from helpers import brute_force, random_board, solution_sets
from hypothesis import given, settings
from hypothesis import strategies as st

from starbattle import BoardError, Solver, check


@settings(max_examples=120, deadline=None)
@given(
    size=st.integers(min_value=1, max_value=8),
    stars=st.integers(min_value=1, max_value=2),
    seed=st.integers(min_value=0, max_value=2**32),
)
@pytest.mark.slow
def test_solver_equals_brute_force(size: int, stars: int, seed: int) -> None:
    board = random_board(random.Random(seed), size, stars)
    try:
        solver = Solver(board)
    except BoardError:  # refused by the counting bound: then there is indeed no solution
        assert brute_force(board) == set()
        return
    solutions = list(solver.solutions(0))
    assert solution_sets(solutions) == brute_force(board)
    assert len(solutions) == len(solution_sets(solutions))
    for solution in solutions:
        assert check(board, solution.stars) == []


@settings(max_examples=60, deadline=None)
@given(size=st.integers(min_value=3, max_value=6), seed=st.integers(min_value=0, max_value=2**32))
def test_count_equals_enumeration(size: int, seed: int) -> None:
    board = random_board(random.Random(seed), size, 1)
    solver = Solver(board)
    assert solver.count().found == len(list(solver.solutions(0)))
