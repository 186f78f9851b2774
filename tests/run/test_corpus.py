"""Real puzzles: counts (capped at 2) and unique solutions agree with the corpus."""

from __future__ import annotations

import pytest
from helpers import corpus_board, corpus_sample, needs_corpus

from starbattle import Solver, check


@needs_corpus
def test_corpus_sample_covers_every_size_and_star_count() -> None:
    from helpers import corpus

    sample = corpus_sample()
    assert len(sample) >= 300
    assert {(r["n"], r["stars"]) for r in sample} == {(r["n"], r["stars"]) for r in corpus()}
    assert sum(r["solution_count"] == 2 for r in sample) >= 30


@needs_corpus
@pytest.mark.slow
def test_corpus_sample_counts_and_solutions() -> None:
    wrong = []
    for record in corpus_sample():
        board = corpus_board(record)
        solutions = list(Solver(board).solutions(2))
        for solution in solutions:
            assert check(board, solution.stars) == [], record["id"]
        if len(solutions) != record["solution_count"]:
            wrong.append((record["id"], len(solutions), record["solution_count"]))
        elif len(solutions) == 1:
            known = record.get("solution") or record.get("solver_solution")
            if known and solutions[0].grid() != known:
                wrong.append((record["id"], "solution differs"))
    assert wrong == []
