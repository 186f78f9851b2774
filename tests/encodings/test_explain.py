"""The explanation program (explain.lp): guarded rules equal the base rules."""

from __future__ import annotations

import pytest
from helpers import INSTANCES, corpus, needs_corpus

from starbattle import read_board
from starbattle.asp.encodings import encodings_dir
from starbattle.asp.solver import Solver


def test_bands_only_under_the_king_rule_and_guarded_rules_equal_the_base() -> None:
    board = read_board(str(INSTANCES / "planted-10x10-2star-several.lp"))
    base = {frozenset(s.stars) for s in Solver(board).solutions(0)}
    guarded = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
    assert {frozenset(s.stars) for s in guarded.solutions(0)} == base and len(base) == 17


@needs_corpus
@pytest.mark.slow
def test_guarded_rules_give_the_base_rules_solutions_on_corpus_boards() -> None:
    from helpers import corpus_board

    sample = [r for r in corpus() if r["n"] <= 10][::150]
    assert len(sample) >= 15
    for record in sample:
        board = corpus_board(record)
        base = {frozenset(s.stars) for s in Solver(board).solutions(3)}
        guarded = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
        assert {frozenset(s.stars) for s in guarded.solutions(3)} == base, record["id"]
