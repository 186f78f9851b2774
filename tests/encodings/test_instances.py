"""Every shipped instance: its expected count, every solution valid, plain clingo agrees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import INSTANCES, ROOT, brute_force, expected_count, solution_sets

from starbattle import Solver, check, read_board

ALL = sorted(INSTANCES.glob("*.lp"))


def test_enough_instances_of_every_kind() -> None:
    boards = [read_board(str(path)) for path in ALL]
    assert len(boards) >= 8
    assert {board.stars for board in boards} >= {1, 2, 3, 4, 5}
    assert min(board.size for board in boards) == 5
    assert max(board.size for board in boards) >= 21
    assert any(expected_count(path) > 1 for path in ALL)
    assert any(board.blocked for board in boards)
    assert any(board.given_stars or board.given_blanks for board in boards)


@pytest.mark.parametrize("path", ALL, ids=[path.stem for path in ALL])
def test_instance_count_and_every_solution_checks(path: Path) -> None:
    board = read_board(str(path))
    solutions = list(Solver(board).solutions(0))
    assert len(solutions) == expected_count(path)
    assert len({solution.stars for solution in solutions}) == len(solutions)
    for solution in solutions:
        assert check(board, solution.stars) == []


@pytest.mark.parametrize(
    "path", [p for p in ALL if read_board(str(p)).size <= 6], ids=lambda p: p.stem
)
def test_small_instances_match_brute_force(path: Path) -> None:
    board = read_board(str(path))
    assert solution_sets(Solver(board).solutions(0)) == brute_force(board)


def plain_clingo_solutions(*files: Path) -> set[frozenset[tuple[int, int]]]:
    """Run `python -m clingo FILES 0` and read the star atoms of every answer."""
    output = subprocess.run(
        [sys.executable, "-m", "clingo", *map(str, files), "0", "--outf=0", "-V0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout
    found = set()
    for line in output.splitlines():
        if line.startswith("star("):
            found.add(
                frozenset(tuple(int(x) for x in atom[5:-1].split(",")) for atom in line.split())
            )
    return found


@pytest.mark.parametrize(
    "name", ["norvig-5x5-1star", "cspuz-6x6-blocked", "norvig-5x5-given", "generated-10x10-2star"]
)
def test_plain_clingo_enumerates_the_same_solutions(name: str) -> None:
    path = INSTANCES / f"{name}.lp"
    ours = solution_sets(Solver(read_board(str(path))).solutions(0))
    assert plain_clingo_solutions(ROOT / "encodings" / "starbattle.lp", path) == ours
