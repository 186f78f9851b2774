"""Every step's sentence, chains' steps included, on real puzzles' traces: a capital first,
one cell notation, (r,c) inside the board, units named as the board shows them."""

from __future__ import annotations

import re

from crafted import APPLIES, CHAINS, board_of, stars_of, state_of
from helpers import corpus, corpus_board, needs_corpus

from starbattle.logic.ladder import Logic
from starbattle.logic.sentences import units_text
from starbattle.model.board import Board
from starbattle.model.steps import State, Step
from starbattle.model.units import Unit, units_of
from starbattle.words import noun, owned, plural

CELL = re.compile(r"\((\d+),(\d+)\)")
OTHER_NOTATIONS = re.compile(r"\(\d+, \d+\)|\[\d+, ?\d+\]|\br\d+c\d+\b|\brow \d+,? col(umn)? \d+")
ONE_COUNTED = re.compile(r"\b(its|their) 1 star\b|\b1 (more )?stars\b")
"""'its 1 star', 'their 1 star', '1 stars': one star said as a count where words say it."""


def assert_said_well(board: Board, step: Step) -> None:
    """One step's sentence (and its chain's)."""
    names = {unit.name(board) for unit in units_of(board)}
    for link in (step, *step.chain):
        text = link.sentence
        assert text[0].isupper() and len(text) <= 200, text
        assert not OTHER_NOTATIONS.search(text), text
        assert not ONE_COUNTED.search(text), text
        for r, c in CELL.findall(text):
            assert 1 <= int(r) <= board.size and 1 <= int(c) <= board.size, text
        for name in re.findall(r"\bregion [A-Za-z0-9]+\b", text):
            assert name in names, text


@needs_corpus
def test_sentences_of_real_traces() -> None:
    records = [r for r in corpus() if r["solution_count"] == 1]
    chosen = [r for r in records if r["id"].startswith(("kd-", "lq-", "sbl-", "mo-"))]
    picked = {}
    for record in chosen:
        picked.setdefault((record["n"], record["stars"]), record)
    checked = 0
    for record in sorted(picked.values(), key=lambda r: r["n"])[:10]:
        board = corpus_board(record)
        logic, state = Logic(board), State()
        for step in logic.steps(state, max_level=6):
            assert_said_well(board, step)
            checked += 1
    assert checked > 300


def test_sentences_of_trials_chains() -> None:
    """The containers leave few trials in those traces: the crafted trials' states, whose
    chains are those of generated puzzles' traces."""
    steps = 0
    for technique in ("assumption", "assumption-chain"):
        for regions, marks, *_ in (*APPLIES[technique], *CHAINS[technique]):
            board = board_of(regions, stars_of(regions))
            [step] = Logic(board).deductions(state_of(marks), technique)[:1]
            assert len(step.chain) >= 2  # the assumption and the rule it breaks, at least
            steps += len(step.chain) - 2
            assert_said_well(board, step)
    assert steps >= 20


def test_sentences_name_colour_regions_by_their_words() -> None:
    board = Board.from_rows(
        ["AAB", "ACB", "CCB"], 1, words={"A": "red", "B": "light blue", "C": "green"}
    )
    logic = Logic(board)
    assert Unit("region", "B").name(board) == "the light blue region"
    assert [logic.grid.names[u] for u in logic.grid.regions] == [
        "the red region",
        "the light blue region",
        "the green region",
    ]
    assert units_text(logic.grid, logic.grid.regions[:2]) == "the red and light blue regions"


def test_one_star_is_said_as_a_star_and_its_star() -> None:
    said = [noun(1, "star"), noun(0, "star"), plural(1, "more star"), plural(2, "star")]
    assert said == ["star", "stars", "1 more star", "2 stars"]
    assert [owned("its", 1, "star"), owned("their", 3, "star")] == ["its star", "their 3 stars"]
