"""Insight: forced cells, minimal reasons for no solution, two solutions, partial answers."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest
from click.testing import CliRunner
from helpers import INSTANCES, PZPRJS, SLACK, corpus, corpus_board, needs_corpus, planted_board

from starbattle import Board, Solver, check, read_board
from starbattle.asp.encodings import encodings_dir
from starbattle.cli.main import cli
from starbattle.io.formatters.text import decided
from starbattle.logic.insight import check_partial, fixed_cells, why_unsat

COLOURS = ("red", "orange", "yellow", "lime", "teal", "pink", "green", "blue", "grey", "brown")
UNSAT = {
    "two one-cell regions side by side": (
        Board.from_rows(["ABCCC", "CCCCC", "DDDDD", "DDDEE", "EEEEE"], 1),
        ["region A", "region B", "no-touch rule"],
        "Regions A and B cannot each hold 1 star without two stars touching",
    ),
    "two regions inside one row": (
        Board.from_rows(["BBFFA", "AAAAA", "CCCCC", "CCDDD", "DDDDD"], 1),
        ["row 1", "region B", "region F"],
        "Regions B and F lie entirely in row 1 and need 2 x 1 = 2 stars there, but row 1 "
        "holds only 1 x 1 = 1",
    ),
    "two rows inside one region": (
        Board.from_rows(["AAAAA", "AAAAA", "BCCCC", "BDDDD", "BEEEE"], 1),
        ["row 1", "row 2", "region A"],
        "Rows 1-2 lie entirely in region A and need 2 x 1 = 2 stars there, but region A "
        "holds only 1 x 1 = 1",
    ),
    "a region too small for two stars": (
        Board.from_rows(
            [
                "AAAAAAAAAA",
                "AAAAAAAAAA",
                "BBBBBBBBBB",
                "BBBBBBBBBB",
                "CCCCCCCCCC",
                "CCCCCCCCCC",
                "DDDDDDDDDD",
                "DDDDEEEEEE",
                "FFFGEHHHHH",
                "FFGGIIJJJJ",
            ],
            2,
        ),
        ["region G", "no-touch rule"],
        "Region G (3 cells) cannot hold 2 stars without two of them touching",
    ),
    "regions called by colour words": (
        Board.from_rows(
            ["BBFFA", "AAAAA", "CCCCC", "CCDDD", "DDDDD"],
            1,
            words={"A": "red", "B": "light blue", "C": "green", "D": "grey", "F": "pink"},
        ),
        ["row 1", "the light blue region", "the pink region"],
        "The light blue and pink regions lie entirely in row 1 and need 2 x 1 = 2 stars "
        "there, but row 1 holds only 1 x 1 = 1",
    ),
    "a region called by a colour word too small for two stars": (
        Board.from_rows(
            [
                *("AAAAAAAAAA", "AAAAAAAAAA", "BBBBBBBBBB", "BBBBBBBBBB", "CCCCCCCCCC"),
                *("CCCCCCCCCC", "DDDDDDDDDD", "DDDDEEEEEE", "FFFGEHHHHH", "FFGGIIJJJJ"),
            ],
            2,
            words=dict(zip("ABCDEFGHIJ", COLOURS, strict=True)),
        ),
        ["the green region", "no-touch rule"],
        "The green region (3 cells) cannot hold 2 stars without two of them touching",
    ),
    "two regions called by colour words side by side": (
        Board.from_rows(
            ["ABCCC", "CCCCC", "DDDDD", "DDDEE", "EEEEE"],
            1,
            words={"A": "red", "B": "blue", "C": "green", "D": "grey", "E": "pink"},
        ),
        ["the red region", "the blue region", "no-touch rule"],
        "The red and blue regions cannot each hold 1 star without two stars touching",
    ),
    "givens that touch": (
        Board.from_rows(
            ["AAABBB", "ABBBCC", "ADDEEC", "FFDDEC", "FEEEEC", "FCCCCC"],
            1,
            given_stars=[(1, 2), (2, 3)],
        ),
        ["given star (1,2)", "given star (2,3)", "no-touch rule"],
        "The given stars at (1,2) and (2,3) touch",
    ),
}


@pytest.mark.parametrize("case", list(UNSAT))
def test_why_unsat_names_a_minimal_cause(case: str) -> None:
    board, names, sentence = UNSAT[case]
    explanation = why_unsat(board)
    assert explanation is not None
    assert list(explanation.names) == names
    assert explanation.sentence == sentence
    # minimal: without any one unit (and with every unit outside the set off) it solves
    solver = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
    every = solver.units()
    assert (
        solver.core(list(explanation.rules), off=[u for u in every if u not in explanation.rules])
        is not None
    )
    for unit in explanation.rules:
        rest = [u for u in explanation.rules if u != unit]
        assert solver.core(rest, off=[u for u in every if u not in rest]) is None, unit


def test_why_unsat_on_a_solvable_board_is_none() -> None:
    assert why_unsat(read_board(PZPRJS)) is None


def test_fixed_cells_match_the_enumeration() -> None:
    for name in ("norvig-5x5-1star", "planted-10x10-2star-several", "pzprjs-6x6-1star"):
        board = read_board(str(INSTANCES / f"{name}.lp"))
        every = [set(s.stars) for s in Solver(board).solutions(0)]
        fixed = fixed_cells(board)
        assert fixed is not None
        assert fixed.stars == set.intersection(*every)
        cells = {(r, c) for r in range(1, board.size + 1) for c in range(1, board.size + 1)}
        assert fixed.blanks == cells - set.union(*every)
        assert decided(fixed).endswith(f"{len(fixed.open)} open")
    assert fixed_cells(Board.from_rows(["ABCCC", "CCCCC", "DDDDD", "DDDEE", "EEEEE"], 1)) is None


@needs_corpus
def test_unique_corpus_puzzles_decide_every_cell() -> None:
    unique = [r for r in corpus() if r["solution_count"] == 1 and r["n"] <= 14][::97]
    assert len(unique) >= 30
    for record in unique:
        fixed = fixed_cells(corpus_board(record))
        assert fixed is not None and not fixed.open, record["id"]
        known = record.get("solution") or record.get("solver_solution")
        assert sorted(fixed.stars) == [
            (r, c) for r, row in enumerate(known, 1) for c, mark in enumerate(row, 1) if mark == "*"
        ]


@needs_corpus
@pytest.mark.slow
def test_two_solutions_of_every_multi_solution_corpus_puzzle(tmp_path) -> None:
    several = [r for r in corpus() if r["solution_count"] == 2]
    assert len(several) >= 86  # 86 at 5-11 1-star, two 2-star, one 4x4
    for record in several:
        path = tmp_path / f"{record['id']}.json"
        path.write_text(json.dumps({"stars": record["stars"], "regions": record["regions"]}))
        result = CliRunner().invoke(cli, [str(path), "-f", "json"])
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert [r["type"] for r in records] == ["solution", "difference", "summary"]
        board = corpus_board(record)
        first = {tuple(c) for c in records[0]["stars"]}
        second = {tuple(c) for c in records[1]["stars"]}
        assert check(board, first) == [] and check(board, second) == []
        assert first != second
        assert {tuple(c) for c in records[1]["cells"]} == first ^ second


def test_cli_fixed_and_why_outputs(tmp_path) -> None:
    result = CliRunner().invoke(
        cli, [str(INSTANCES / "norvig-5x5-1star.lp"), "--fixed", "-f", "json"]
    )
    record = json.loads(result.stdout)
    assert record["type"] == "fixed" and record["open"] == 8 and result.exit_code == 0
    assert (
        CliRunner()
        .invoke(cli, [PZPRJS, "--fixed"])
        .stdout.splitlines()[-1]
        .startswith("36 of 36 cells decided; 0 open")
    )
    path = tmp_path / "nosolution.txt"
    path.write_text("stars: 1\nABCCC\nCCCCC\nDDDDD\nDDDEE\nEEEEE\n")
    result = CliRunner().invoke(cli, [str(path), "-f", "json"])
    why = json.loads(result.stdout.splitlines()[0])
    assert result.exit_code == 1
    assert why == {
        "type": "why",
        "units": ["region A", "region B", "no-touch rule"],
        "sentence": "Regions A and B cannot each hold 1 star without two stars touching",
        "cells": [[1, 1], [1, 2]],
    }
    text = CliRunner().invoke(cli, [str(path)]).stdout
    assert text.startswith("why: Regions A and B cannot each hold 1 star")
    svg = CliRunner().invoke(cli, [str(path), "-f", "svg"]).stdout
    assert svg.count('stroke="#CC3311"') == 8  # both cells outlined


def test_partial_answers() -> None:
    board = read_board(PZPRJS)  # its solution: (1,2) (2,4) (3,6) (4,3) (5,5) (6,1)
    good = check_partial(board, [(1, 2)], [(1, 1), (1, 3)], against_solution=True)
    assert good.violations == () and good.extendable and good.first_wrong is None
    wrong = check_partial(board, [(1, 2)], [(2, 4), (2, 1)], against_solution=True)
    assert not wrong.extendable and wrong.conflict == (("blank", (2, 4)),)
    assert wrong.first_wrong == ("blank", (2, 4))
    short = check_partial(board, [], [(1, c) for c in range(1, 7)])
    assert [v.message for v in short.violations] == ["too few stars in row 1: 0 stars, needs 1"]
    assert not short.extendable


def test_cli_check_partial(tmp_path) -> None:
    ok = tmp_path / "ok.txt"
    ok.write_text(".*xxxx\n......\n......\n......\n......\n......\n")
    result = CliRunner().invoke(cli, ["check", PZPRJS, str(ok), "--against-solution"])
    assert result.exit_code == 0 and "the marks can still become a solution" in result.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text(".*xxxx\nx..x..\n......\n......\n......\n......\n")
    result = CliRunner().invoke(cli, ["check", PZPRJS, str(bad), "--against-solution"])
    assert result.exit_code == 1
    assert "these cannot all hold: blank at (2,4)" in result.stdout
    assert "first wrong mark: (2,4) is marked blank but is a star in the solution" in (
        result.stdout
    )


def test_d25_fixed_cells_time_limit_is_a_value() -> None:
    board = planted_board(30, 3)  # enumerating its brave consequences takes minutes
    started = time.perf_counter()
    fixed = fixed_cells(board, timeout=0.5)
    assert time.perf_counter() - started < 0.5 + SLACK
    assert fixed is not None and not fixed.complete  # undecided, not "no solution"
    assert fixed.stars == frozenset() and decided(fixed).endswith("undecided (time limit)")


def test_d25_fixed_cells_within_the_limit_is_complete() -> None:
    fixed = fixed_cells(read_board(PZPRJS), timeout=30)
    (solution,) = Solver(read_board(PZPRJS)).solutions(0)
    assert fixed is not None and fixed.complete and fixed.stars == frozenset(solution.stars)


def test_d25_check_partial_time_limit_is_a_value() -> None:
    board = planted_board(60, 6)  # a first solution takes 0.3-0.6 s on a quiet machine
    started = time.perf_counter()
    result = check_partial(board, [], [], against_solution=True, timeout=0.01)
    assert time.perf_counter() - started < 0.01 + SLACK
    assert result.extendable is None and not result.complete and result.first_wrong is None


def test_d11_fixed_cells_stops_on_ctrl_c() -> None:
    board = planted_board(30, 3)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        fixed_cells(board)
    assert time.perf_counter() - started < 0.3 + SLACK
