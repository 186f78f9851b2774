"""Readers and writers: real notations, located errors, round trips."""

from __future__ import annotations

import json
import random

import pytest
from helpers import BAD_BOARDS, INSTANCES, PZPRJS, random_board, same_partition
from hypothesis import given, settings
from hypothesis import strategies as st

from starbattle import Board, BoardError, FormatError, read_board, write_board
from starbattle.io.formats.answer import read_answer
from starbattle.io.inputs import detect, parse_board
from starbattle.logic.generate import canonical

PZPRJS_ROWS = ["AAABBB", "ABBBCC", "ADDEEC", "FFDDEC", "FEEEEC", "FCCCCC"]


def test_picture_with_spaces_and_punctuation_labels() -> None:
    text = "stars: 1\n" + "\n".join(
        " ".join(row.translate(str.maketrans("ABCDEF", "`.,;:'"))) for row in PZPRJS_ROWS
    )
    board = parse_board(text)
    assert board.region_labels == ("`", ".", ",", ";", ":", "'")
    assert same_partition(board, Board.from_rows(PZPRJS_ROWS, 1))


def test_picture_of_integer_words() -> None:
    text = "\n".join(" ".join(str(10 + "ABCDEF".index(ch)) for ch in row) for row in PZPRJS_ROWS)
    board = parse_board(text, stars=1)
    assert board.region_labels == ("10", "11", "12", "13", "14", "15")


def test_picture_marks_block() -> None:
    board = parse_board("stars: 1\nAB\nBA\n\n*x\n.#\n")
    assert board.given_stars == {(1, 1)}
    assert board.given_blanks == {(1, 2)}
    assert board.blocked == {(2, 2)}


def test_picture_header_accepts_variants_and_stars_option_overrides() -> None:
    assert parse_board("Stars = 2\n" + "\n".join(PZPRJS_ROWS)).stars == 2
    assert parse_board("stars: 2\n" + "\n".join(PZPRJS_ROWS), stars=1).stars == 1


@pytest.mark.parametrize(
    "document",
    [
        {"stars": 1, "regions": PZPRJS_ROWS},
        {"stars": 1, "regions": [list(row) for row in PZPRJS_ROWS]},
        {"stars": 1, "regions": [["ABCDEF".index(ch) for ch in row] for row in PZPRJS_ROWS]},
    ],
)
def test_json_row_shapes(document: dict) -> None:
    assert same_partition(parse_board(json.dumps(document)), Board.from_rows(PZPRJS_ROWS, 1))


def test_bare_json_matrix_needs_stars() -> None:
    matrix = json.dumps([["ABCDEF".index(ch) for ch in row] for row in PZPRJS_ROWS])
    assert parse_board(matrix, stars=1).size == 6
    with pytest.raises(FormatError, match="--stars"):
        parse_board(matrix)


def test_json_corpus_record_is_a_board() -> None:
    record = {
        "id": "x",
        "n": 6,
        "stars": 1,
        "regions": PZPRJS_ROWS,
        "solution": None,
        "solution_count": 1,
    }
    assert parse_board(json.dumps(record)).size == 6


def test_json_blocked_and_givens() -> None:
    board = parse_board(
        json.dumps(
            {
                "stars": 1,
                "regions": ["AB", "BA"],
                "blocked": [[2, 2]],
                "given_stars": [[1, 1]],
                "given_blanks": [[1, 2]],
            }
        )
    )
    assert board.blocked == {(2, 2)} and board.given_stars == {(1, 1)}


@pytest.mark.parametrize(
    "text,expected",
    [
        ("size(1). stars(1). region(1,1,a).", "lp"),
        ("% a comment\nsize(1).", "lp"),
        ('{"stars": 1}', "json"),
        ("[[1]]", "json"),
        ("AB\nBA", "txt"),
        ("a(b\n(ab", "txt"),
    ],
)
def test_detect(text: str, expected: str) -> None:
    assert detect(text) == expected


@pytest.mark.parametrize(
    "text,message,line,column",
    [
        ("size(2). stars(1).\nregion(1,1,a). regoin(1,2,a).", "did you mean region", 2, 16),
        ("size(2).\nstars(1).\nregion(X,1,a).", "variables", 3, 8),
        ("size(2). stars(1). region(1..2,1,a).", "ranges", 1, 28),
        ("size(2). stars(1). region(1;2,1,a).", "pooling", 1, 28),
        ("size(2). stars(1).\n:- star(1,1).", "rules", 2, 1),
        ("size(2). stars(1).\n{ star(1,1) }.", "choice", 2, 1),
        ("#script (python)\n#end.", "directives", 1, 1),
        ('#include "x.lp".', "directives", 1, 1),
        ("size(2). size(3).", "give one size", 1, 10),
        ("size(2). size(2).", "duplicate", 1, 10),
        ("size(2). stars(1). region(1,1,a) region(1,2,a).", "expected '.'", 1, 34),
        ('size(2). stars(1). region(1,1,"a").', "strings", 1, 31),
        ("size(2). stars(1). region(0,1,a).", "row must be", 1, 20),
        ("size(2). stars(1). region(1,1,a). blocked(1,1).", "contradicts", 1, 35),
        ("size(2). stars(1). given_star(3,1).", "row must be", 1, 20),
        ("size(0).", "size must be", 1, 1),
        ("size(2). stars(1). region(1,1,a", "ends where", 1, 31),
    ],
)
def test_lp_errors_are_located(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(FormatError, match=message) as caught:
        parse_board(text, name="bad.lp", fmt="lp")
    assert (caught.value.file, caught.value.line, caught.value.column) == ("bad.lp", line, column)


@pytest.mark.parametrize("text,fmt,message", BAD_BOARDS)
def test_bad_inputs_raise_typed_errors(text: str, fmt: str | None, message: str) -> None:
    with pytest.raises((FormatError, BoardError), match=message):
        parse_board(text, fmt=fmt)


def test_board_rejects_bad_givens() -> None:
    with pytest.raises(BoardError, match="outside"):
        Board.from_rows(["AB", "BA"], 1, given_stars=[(3, 1)])
    with pytest.raises(BoardError, match="both as a star and as a blank"):
        Board.from_rows(["AB", "BA"], 1, given_stars=[(1, 1)], given_blanks=[(1, 1)])
    with pytest.raises(BoardError, match="blocked"):
        Board.from_rows([["A", None], ["B", "A"]], 1, given_stars=[(1, 2)]).size  # noqa: B018


def test_disconnected_region_is_allowed() -> None:
    board = Board.from_rows(["ABA", "BCB", "CCC"], 1)
    assert len(board.region_cells()["A"]) == 2


@pytest.mark.parametrize("fmt", ["lp", "txt", "json"])
def test_instances_round_trip(fmt: str) -> None:
    for path in sorted(INSTANCES.glob("*.lp")):
        board = read_board(str(path))
        assert same_partition(parse_board(write_board(board, fmt)), board), path.name


@settings(max_examples=80, deadline=None)
@given(
    size=st.integers(1, 12),
    stars=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    fmt=st.sampled_from(["lp", "txt", "json"]),
    blocked=st.booleans(),
)
def test_random_boards_round_trip(
    size: int, stars: int, seed: int, fmt: str, blocked: bool
) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size, stars)
    rows = [list(row) for row in board.regions]
    if blocked and size > 1:
        cells = board.region_cells()
        big = [label for label, members in cells.items() if len(members) > 1]
        if big:
            r, c = rng.choice(cells[big[0]])
            rows[r - 1][c - 1] = None
    board = Board.from_rows(rows, stars, given_blanks={(1, 1)} if rows[0][0] else ())
    text = write_board(board, fmt)
    assert detect(text) == fmt
    assert same_partition(parse_board(text), board)


def test_many_regions_round_trip_as_words() -> None:
    rows = [[f"r{r}" for _ in range(70)] for r in range(70)]
    board = Board.from_rows(rows, 1)
    assert same_partition(parse_board(write_board(board, "txt")), board)


@pytest.mark.parametrize(
    "text",
    [
        "*..\n..*\n.*.",
        "* . .\n. . *\n. * .",
        "star(1,1). star(2,3). star(3,2).",
        "[[1,1],[2,3],[3,2]]",
        '{"stars": [[1,1],[2,3],[3,2]]}',
        '["*..", "..*", ".*."]',
        '{"type": "solution", "index": 1, "stars": [[1,1],[2,3],[3,2]], "grid": []}\n'
        '{"type": "summary", "solutions": 1}',
    ],
)
def test_answer_notations(text: str) -> None:
    assert sorted(read_answer(text, 3)) == [(1, 1), (2, 3), (3, 2)]


@pytest.mark.parametrize(
    "text,message",
    [
        ("*..\n..*", "2 rows but the board has 3"),
        ("*..\n..*\n.!.", "use \\* for a star"),
        ("star(1,a).", "integer"),
        ("size(3).", "unknown predicate"),
        ("", "empty"),
    ],
)
def test_bad_answers(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        read_answer(text, 3)


@pytest.mark.parametrize("ending", ["\n", "\n\n", "\n/\n", "/", "//", "\n\n\n", "\n   \n", "\n/"])
def test_d5_pzprv3_without_answers_may_end_in_blank_lines_or_slashes(ending: str) -> None:
    board = read_board(PZPRJS)
    rooms_only = "\n".join(str(write_board(board, "pzprv3")).splitlines()[:12])
    if ending.startswith("/"):
        rooms_only = rooms_only.replace("\n", "/")
    read = parse_board(rooms_only + ending)
    assert canonical(read) == canonical(board) and not read.given_stars
