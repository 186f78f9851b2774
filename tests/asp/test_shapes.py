"""One grounding per board shape: the same answers as a grounding per board."""

from __future__ import annotations

import json

import pytest
from helpers import CORPUS, needs_corpus

from starbattle import Board, Solver, check
from starbattle.asp import solver
from starbattle.asp.shapes import SEEN, SHAPES
from starbattle.io.inputs import parse_board


def corpus_boards(size: int, stars: int, count: int) -> list[Board]:
    """The first `count` real puzzles of one size and star count."""
    found = []
    for line in (CORPUS / "real-puzzles.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["n"] == size and record["stars"] == stars:
            found.append(parse_board(line, fmt="json"))
        if len(found) == count:
            break
    return found


def answers(boards: list[Board], shared: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    """Each board's first two solutions and count, solved one after the other."""
    monkeypatch.setattr(solver, "shares_grounding", lambda size, stars: shared)
    SHAPES.clear()
    SEEN.clear()
    found = []
    for board in boards:
        solutions = [sorted(s.stars) for s in Solver(board).solutions(2)]
        assert all(check(board, stars) == [] for stars in solutions)
        found.append((solutions, Solver(board).count().found))
    return found


@needs_corpus
@pytest.mark.parametrize(("size", "stars"), [(6, 1), (9, 2)])
def test_a_shared_grounding_answers_as_one_per_board(
    size: int, stars: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    boards = corpus_boards(size, stars, 8)
    several = Board.from_rows([[str(r)] * size for r in range(size)], stars)  # regions = rows
    boards.insert(4, several)  # a board with many solutions between unique ones
    alone, shared = answers(boards, False, monkeypatch), answers(boards, True, monkeypatch)
    assert shared == alone
    assert len(alone[4][0]) == 2 and alone[4][1] > 2
    assert SHAPES  # the shared grounding was used


@needs_corpus
def test_a_collection_that_mixes_shapes_keeps_every_shared_grounding() -> None:
    SHAPES.clear()
    SEEN.clear()
    shapes = [(n, 1) for n in range(5, 12)] + [(9, 2)]
    boards = [board for n, s in shapes for board in corpus_boards(n, s, 2)]
    for board in boards[0::2] + boards[1::2]:  # every shape, then every shape again
        found = list(Solver(board).solutions(2))
        assert found and all(check(board, solution.stars) == [] for solution in found)
    assert len(SHAPES) == len(shapes)  # none ground anew: each second board shared
    assert [key[3:5] for key in SHAPES] == shapes
