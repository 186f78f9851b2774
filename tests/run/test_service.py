"""The service: what a question about one puzzle finds, as values."""

from __future__ import annotations

from helpers import TWO

from starbattle.exits import Exit, Verdict
from starbattle.io.inputs import records
from starbattle.model.values import Found, Outcome, Summary
from starbattle.run.service import SolveRequest, solve_all


def test_the_result_layer_is_values() -> None:
    items = solve_all(SolveRequest(), records(TWO)[0])
    kinds = [type(item).__name__ for item in items]
    assert kinds == ["Found", "Difference", "Summary", "Outcome"]
    assert isinstance(items[0], Found) and items[0].index == 1
    summary = items[2]
    assert isinstance(summary, Summary) and summary.found == 2 and summary.unique is False
    assert items[-1] == Outcome(TWO, Verdict.NOT_UNIQUE, Exit.FOUND)
