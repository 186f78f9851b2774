"""Suggestions: every one, applied, has exactly the solutions it claims (a fresh count)."""

from __future__ import annotations

import json
import random

import pytest
from helpers import CORPUS, INSTANCES, PZPRJS, TWO, needs_corpus

from starbattle import Board, read_board
from starbattle.asp.solver import Solver
from starbattle.errors import BoardError, UsageError
from starbattle.exits import Exit
from starbattle.logic.suggest import suggest
from starbattle.model.board import NEIGHBOURS, pieces
from starbattle.model.setter import Suggested, Suggestion

SEVERAL = str(INSTANCES / "planted-10x10-2star-several.lp")
NONE = str(INSTANCES / "crafted-6x6-no-solution.lp")


def applied(board: Board, suggestion: Suggestion) -> Board:
    """The board with the suggestion's moves made here, each checked to be a legal move."""
    rows = [list(row) for row in board.regions]
    for move in suggestion.moves:
        r, c = move.cell
        assert rows[r - 1][c - 1] == move.source
        near = {
            rows[r - 1 + dr][c - 1 + dc]
            for dr, dc in NEIGHBOURS
            if 0 <= r - 1 + dr < board.size and 0 <= c - 1 + dc < board.size
        }
        assert move.target in near and move.target != move.source
        rows[r - 1][c - 1] = move.target
    return Board.from_rows(
        rows, board.stars, given_stars=board.given_stars, given_blanks=board.given_blanks
    )


def fresh_count(board: Board) -> int:
    """Solutions counted again on a grounding of the board's own, capped at 2."""
    return len(list(Solver(board, clingo_args=("--seed=3",)).solutions(2)))


def checked(board: Board, split: bool = False, **options: object) -> list[Suggestion]:
    """Every suggestion for a board, each applied and counted again; regions stay whole."""
    items = list(suggest(board, split=split, **options))  # type: ignore[arg-type]
    *found, summary = items
    assert isinstance(summary, Suggested) and summary.found == len(found)
    for suggestion in found:
        fixed = applied(board, suggestion)
        assert fixed == suggestion.fixed
        assert fresh_count(fixed) == suggestion.solutions
        if not split:
            cells = fixed.region_cells()
            assert all(len(pieces(region)) == 1 for region in cells.values())
    return found


@pytest.mark.parametrize("path", [TWO, SEVERAL, NONE])
def test_every_suggestion_gives_the_solutions_it_claims(path: str) -> None:
    found = checked(read_board(path), most=0, graded=False)
    assert found
    changed = [s.changed for s in found if s.solutions == 1]
    assert changed == sorted(changed)


def test_several_solutions_get_unique_boards_fewest_moves_first() -> None:
    found = checked(read_board(TWO), most=0, graded=False)
    assert all(s.solutions == 1 and len(s.moves) == 1 for s in found)
    *_, summary = suggest(read_board(TWO), most=0, graded=False)
    assert summary.before == 2 and summary.complete and summary.code is Exit.FOUND


def test_pairs_only_when_no_single_move_works() -> None:
    board = read_board(SEVERAL)
    *_, summary = suggest(board, max_moves=1)
    assert (summary.found, summary.complete, summary.code) == (0, True, Exit.NONE)
    found = checked(board, most=2, graded=False)
    assert [len(s.moves) for s in found] == [2, 2]


def test_no_solution_gets_exactly_one_first() -> None:
    found = checked(read_board(NONE), most=0, graded=False)
    assert [s.solutions for s in found] == sorted(s.solutions for s in found)
    assert found[0].solutions == 1


def test_a_unique_board_needs_nothing_unless_a_tier_is_asked() -> None:
    board = read_board(PZPRJS)
    (summary,) = suggest(board)
    assert (summary.before, summary.found, summary.code) == (1, 0, Exit.FOUND)
    first = next(suggest(board, tier="hard", most=1))
    assert isinstance(first, Suggestion) and first.grade is not None
    assert first.grade.tier == "hard" and fresh_count(applied(board, first)) == 1


def test_split_allows_moves_that_cut_a_region() -> None:
    found = checked(read_board(TWO), split=True, most=0, graded=False, max_moves=1)
    cut = [s for s in found if any(len(pieces(r)) > 1 for r in s.fixed.region_cells().values())]
    assert len(found) >= len(checked(read_board(TWO), most=0, graded=False, max_moves=1))
    assert all(fresh_count(s.fixed) == 1 for s in cut)


def test_givens_and_blocked_cells_stay() -> None:
    two = read_board(TWO)
    rows = [list(row) for row in two.regions]
    rows[4][4] = None  # Norvig's board with a blocked corner and a given blank: still two
    board = Board.from_rows(rows, 1, given_blanks=[(4, 5)])
    assert fresh_count(board) == 2
    found = checked(board, most=0, graded=False, max_moves=1)
    assert found
    for suggestion in found:
        assert suggestion.fixed.blocked == board.blocked
        assert suggestion.fixed.given_blanks == board.given_blanks
        assert all(move.cell not in board.blocked for move in suggestion.moves)


def test_time_limit_and_bad_options() -> None:
    *_, summary = suggest(read_board(SEVERAL), timeout=0.01)
    assert not summary.complete and summary.code is Exit.TIMEOUT
    with pytest.raises(UsageError, match="--max-moves must be 1 or 2"):
        list(suggest(read_board(TWO), max_moves=3))
    with pytest.raises(UsageError, match="unknown tier 'harder'"):
        list(suggest(read_board(TWO), tier="harder"))


@needs_corpus
def test_real_puzzles_made_ambiguous_are_fixed_and_proved() -> None:
    """A sample of real 8x8 1-star and 10x10 2-star puzzles, one random cell moved."""
    lines = (CORPUS / "real-puzzles.jsonl").read_text().splitlines()
    puzzles = [json.loads(line) for line in lines]
    rng = random.Random(33)
    chosen = [p for p in puzzles if p["solution_count"] == 1 and (p["n"], p["stars"]) in
              ((8, 1), (10, 2))]  # fmt: skip
    tested = 0
    for puzzle in rng.sample(chosen, len(chosen)):
        if tested == 6:
            break
        board = Board.from_rows([list(row) for row in puzzle["regions"]], puzzle["stars"])
        for _ in range(20):
            rows = [list(row) for row in board.regions]
            r, c = rng.randrange(board.size), rng.randrange(board.size)
            near = [
                rows[r + dr][c + dc]
                for dr, dc in NEIGHBOURS
                if 0 <= r + dr < board.size and 0 <= c + dc < board.size
            ]
            rows[r][c] = rng.choice(near)
            try:
                moved = Board.from_rows(rows, board.stars)
            except BoardError:  # the move emptied a region
                continue
            if not moved.split_regions() and fresh_count(moved) == 2:
                found = checked(moved, most=3, graded=False)
                assert found and all(s.solutions == 1 for s in found)
                tested += 1
                break
    assert tested == 6
