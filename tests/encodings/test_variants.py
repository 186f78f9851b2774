"""Variants: notouch-windows, plain equal the default; orthogonal, torus match brute force."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import (
    INSTANCES,
    brute_force,
    corpus_board,
    corpus_sample,
    needs_corpus,
    random_board,
    solution_sets,
)

from starbattle import Board, Solver, read_board

ALL = sorted(INSTANCES.glob("*.lp"))


def solutions_with(board: Board, *variants: str) -> set:
    """Every solution of a board with the variants added."""
    return solution_sets(Solver(board, variants=variants).solutions(0))


SAME_RULES = ("notouch-windows", "plain")
"""Variants that restate the default rules (another formulation, or without implied ones)."""


@pytest.mark.parametrize("variant", SAME_RULES)
@pytest.mark.parametrize("path", ALL, ids=[path.stem for path in ALL])
def test_same_rules_variant_matches_default_on_instances(path: Path, variant: str) -> None:
    board = read_board(str(path))
    assert solutions_with(board, variant) == solutions_with(board)


@needs_corpus
@pytest.mark.parametrize("variant", SAME_RULES)
@pytest.mark.slow
def test_same_rules_variant_matches_default_on_a_corpus_sample(variant: str) -> None:
    for record in corpus_sample(per_group=3)[:60]:
        board = corpus_board(record)
        base = {s.stars for s in Solver(board).solutions(3)}
        other = {s.stars for s in Solver(board, variants=(variant,)).solutions(3)}
        if len(base) < 3:  # complete enumerations must agree exactly
            assert other == base, record["id"]
        else:
            assert len(other) == 3, record["id"]


@pytest.mark.slow
def test_bands_from_one_star_keeps_every_solution_of_random_boards() -> None:
    rng = random.Random(4)
    for _ in range(40):
        size = rng.randint(5, 9)
        board = random_board(rng, size, 2 if size >= 8 else 1)
        with_bands = solution_sets(Solver(board, constants=("bands_from=1",)).solutions(0))
        assert solutions_with(board, "plain") == with_bands, board.regions


@pytest.mark.parametrize(
    "variant,sizes,two_stars_from",
    [("orthogonal", (4, 6), 5), ("torus", (4, 8), 7)],  # where brute force stays quick
)
@pytest.mark.slow
def test_variant_matches_brute_force_on_random_boards(
    variant: str, sizes: tuple[int, int], two_stars_from: int
) -> None:
    rng = random.Random(2026)
    for _ in range(25):
        size = rng.randint(*sizes)
        stars = 2 if size >= two_stars_from and rng.random() < 0.5 else 1
        board = random_board(rng, size, stars)
        assert solutions_with(board, variant) == brute_force(board, variant), board.regions


def test_variant_by_file_path(tmp_path: Path) -> None:
    extra = tmp_path / "corner.lp"
    extra.write_text(":- not star(1,1).\n")
    board = read_board(str(INSTANCES / "norvig-5x5-1star.lp"))
    every = solutions_with(board)
    assert solutions_with(board, str(extra)) == {s for s in every if (1, 1) in s}


def test_variant_header_without_a_colon_names_its_purpose(tmp_path: Path) -> None:
    from starbattle.asp.encodings import resolve_variant

    headed = tmp_path / "corner.lp"
    headed.write_text("% Variant corner\n:- not star(1,1).\n")
    assert resolve_variant(str(headed)).purpose == "Variant corner"
    headed.write_text("% Variant corner: a star in the top left corner\n:- not star(1,1).\n")
    assert resolve_variant(str(headed)).purpose == "a star in the top left corner"
