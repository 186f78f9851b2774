"""Test helpers: an independent brute-force solver, corpus access, random boards."""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from pathlib import Path

import clingo
import pytest

from starbattle import Board
from starbattle.logic.generate import plant
from starbattle.logic.regions import claim, grow

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
PZPRJS = str(INSTANCES / "pzprjs-6x6-1star.lp")
"""A unique 6x6 1-star board (pzprjs's test puzzle): the tests' first board."""
TWO = str(INSTANCES / "norvig-5x5-1star.lp")
"""Norvig's 5x5 1-star board, with two solutions."""
GIVEN = str(INSTANCES / "norvig-5x5-given.lp")
"""The same made unique by a given star."""
TEN = str(INSTANCES / "generated-10x10-2star.lp")
"""A generated unique 10x10 2-star board, solved by logic."""
SEVERAL = str(INSTANCES / "planted-10x10-2star-several.lp")
"""A 10x10 2-star board with 17 solutions."""
BIG = str(INSTANCES / "generated-21x21-5star.lp")
"""A generated unique 21x21 5-star board: hints and explanations take seconds."""
NORVIG_FIX = {
    "type": "suggestion",
    "index": 1,
    "moves": [{"cell": [1, 2], "from": "b", "to": "a"}],
    "solutions": 1,
    "unique": True,
    "changed": 2,
    "board": {"stars": 1, "regions": ["aaccc", "abddc", "abdde", "aeeee", "aeeee"]},
}
"""The first suggestion for Norvig's board (TWO), its grade left out."""
SIX = "stars: 1\nAAABBB\nABBBCC\nADDEEC\nFFDDEC\nFEEEEC\nFCCCCC\n"
"""The pzprjs board as picture text."""
CHAIN_BOARD = (
    "stars: 2\nAAAAAABBBC\nADDDAAABBC\nDDDDDEEEEC\nDDFFDECCCC\nFDFFFEGCHH\nFDFFFGGCHI\n"
    "FFFGFGGGHI\nFJJGGGHHHI\nJJIIIHHIHI\nJIIIIIIIII\n"
)
CHAIN_MARKS = (
    ".....x*x.x\n.xxx.xxx.x\n........x.\n....x.x.x.\nx...x.x.x.\n......x...\n"
    ".xx.x.....\n.........x\n.xx.......\n.x........\n"
)
"""A StarBattleLab 10x10 expert puzzle (sblsort-10-2-expert-442 of ../shared/corpus) at a
state of its trace where the next step is a trial of three rounds of tilings, one more than
the tiling cascade follows (sblsort-10-2-expert-3650's trial, here before, became a tiling
cascade once the units the tilings' stars fill lose their other cells)."""
CORPUS = ROOT.parent / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(
    not (CORPUS / "real-puzzles.jsonl").is_file(),
    reason="../shared/corpus is absent (the shared folder must sit beside the checkout)",
)

Cell = tuple[int, int]

BAD_BOARDS = [
    ("stars: 1\nAB\nA", "txt", "row 2 has 1 cell but"),
    ("stars: 1\nAB", "txt", "row 1 has 2 cells but the picture has 1 row"),
    ("stars: 1\nAAA\nAAA\nBBB", "txt", "has 2 regions; it needs exactly 3"),
    ("stars: 0\nA", "txt", "at least 1"),
    ("stars: 1\nAB\nBA\n\n*?\n..", "txt", "unknown mark"),
    ("AB\nBA", "txt", "how many stars"),
    ('{"stars": 1, "regions": ["AB"]}', "json", "square"),
    ('{"stars": 1, "region": ["AB"]}', "json", 'did you mean "regions"'),
    ('{"stars": true, "regions": ["A"]}', "json", "whole number"),
    ('{"stars": 1, "regions": [[1.5]]}', "json", "region label"),
    ('{"stars": 1, "regions": ["A"], "given_stars": [[1]]}', "json", "pairs"),
    (
        "size(2). stars(1). region(1,1,a). region(1,2,a). region(2,1,b).",
        "lp",
        r"cell \(2,2\) is in no region",
    ),
    ("size(2). region(1,1,a).", "lp", "no stars"),
    ("stars(1).", "lp", "no size"),
    ("", None, "empty"),
    ("https://example.com/p?starbattle/6/6/1/4ilbhgdnmhou", None, "not a puzz.link"),
    ("stars: 1\nAB\nAB\nAB\n", None, "row 1 has 2 cells but the picture has 3 rows"),
    ("stars: 1\nABC\nAB\nCCC\n", None, "row 2 has 2 cells"),
    ("AB\nBA\n", None, "add a first line 'stars: S' or pass --stars S"),
    ("   \n\n", None, "the input is empty"),
    (
        "size(2). stars(1).\nregion(1,1,a). regoin(1,2,a).\n",
        None,
        "2:16: unknown predicate regoin/3",
    ),
    ('{"stars": 1, "regions": ["AB", "B', None, "invalid JSON"),
]
"""Boards no reader accepts: (text, format or None, a part of the one-line message)."""


def answer_sets(
    files: list[Path],
    facts: str,
    show: str = "",
    arguments: tuple[str, ...] = (),
    parts: tuple[str, ...] = (),
) -> set[frozenset[str]]:
    """Every answer set of the files plus facts (and program parts), as sets of shown atoms."""
    control = clingo.Control(["0", "--warn=none", *arguments])
    for path in files:
        control.load(str(path))
    control.add("base", [], facts + show)
    control.ground([("base", []), *((part, []) for part in parts)])
    found: set[frozenset[str]] = set()
    control.solve(
        on_model=lambda model: found.add(
            frozenset(str(symbol) for symbol in model.symbols(shown=True))
        )
    )
    return found


def touching(a: Cell, b: Cell, size: int, rule: str) -> bool:
    """Whether two distinct cells touch under a touching rule: king, orthogonal or torus."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    if rule == "torus":
        dr, dc = min(dr, size - dr), min(dc, size - dc)
    if rule == "orthogonal":
        return dr + dc == 1
    return max(dr, dc) == 1


def brute_force(board: Board, rule: str = "king") -> set[frozenset[Cell]]:
    """Every solution, by trying every choice of S columns in every row (small boards only)."""
    size, stars = board.size, board.stars
    regions = board.region_cells()
    rows = [
        [frozenset((r, c) for c in columns) for columns in combinations(range(1, size + 1), stars)]
        for r in range(1, size + 1)
    ]
    found: set[frozenset[Cell]] = set()

    def place(r: int, chosen: frozenset[Cell]) -> None:
        if r > size:
            if (
                all(sum(cell in chosen for cell in cells) == stars for cells in regions.values())
                and all(
                    sum(c == column for _, c in chosen) == stars for column in range(1, size + 1)
                )
                and board.given_stars <= chosen
                and not board.given_blanks & chosen
            ):
                found.add(chosen)
            return
        for option in rows[r - 1]:
            if any(board.region_of(cell) is None for cell in option):
                continue
            cells = sorted(option)
            if any(touching(a, b, size, rule) for a, b in combinations(cells, 2)):
                continue
            if any(touching(a, b, size, rule) for a in option for b in chosen):
                continue
            if any(sum(c == column for _, c in chosen | option) > stars for _, column in option):
                continue
            place(r + 1, chosen | option)

    place(1, frozenset())
    return found


def random_board(rng: random.Random, size: int, stars: int) -> Board:
    """A board of `size` connected regions grown from random seed cells."""
    cells = [(r, c) for r in range(size) for c in range(size)]
    owner = {cell: index for index, cell in enumerate(rng.sample(cells, size))}
    while len(owner) < size * size:
        r, c = rng.choice(list(owner))
        dr, dc = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
        if 0 <= r + dr < size and 0 <= c + dc < size and (r + dr, c + dc) not in owner:
            owner[(r + dr, c + dc)] = owner[(r, c)]
    return Board.from_rows([[owner[(r, c)] for c in range(size)] for r in range(size)], stars)


def expected_count(path: Path) -> int:
    """The 'Expected solutions: K' of an instance header."""
    match = re.search(r"Expected solutions:\s*(\d+)", path.read_text())
    assert match, f"{path.name} has no 'Expected solutions' in its header"
    return int(match.group(1))


@cache
def corpus() -> list[dict]:
    """Every record of the real-puzzle corpus."""
    with open(CORPUS / "real-puzzles.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def corpus_board(record: dict) -> Board:
    """The board of a corpus record."""
    return Board.from_rows(record["regions"], record["stars"], name=record["id"])


def corpus_sample(per_group: int = 20, seed: int = 7) -> list[dict]:
    """A fixed sample: up to `per_group` puzzles of every (size, stars, count) group; of the
    slow groups (4 stars or more) only the two easiest by the corpus's search-node count."""
    groups: dict[tuple, list[dict]] = {}
    for record in corpus():
        groups.setdefault((record["n"], record["stars"], record["solution_count"]), []).append(
            record
        )
    rng = random.Random(seed)
    sample: list[dict] = []
    for key in sorted(groups):
        members = groups[key]
        if key[1] >= 4:
            sample += sorted(members, key=lambda record: record.get("count_nodes") or 0)[:2]
        else:
            sample += rng.sample(members, min(per_group, len(members)))
    return sample


def solution_sets(solutions: Iterator) -> set[frozenset[Cell]]:
    """Solutions as a set of frozensets of cells."""
    return {frozenset(solution.stars) for solution in solutions}


def start(args: list[str], *, own_group: bool = False) -> subprocess.Popen:
    """Start the CLI as a child with Ctrl-C delivered as in a terminal.

    With `own_group` the child leads its own process group, so that a signal can be sent to
    it and its workers at once (os.killpg), as a terminal's Ctrl-C is.
    """
    return subprocess.Popen(
        [sys.executable, "-m", "starbattle", *args],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        start_new_session=own_group,
    )


def same_partition(a: Board, b: Board) -> bool:
    """Whether two boards are equal up to the names of their regions."""
    mapping: dict[str | None, str | None] = {None: None}
    for row_a, row_b in zip(a.regions, b.regions, strict=True):
        for label_a, label_b in zip(row_a, row_b, strict=True):
            if mapping.setdefault(label_a, label_b) != label_b:
                return False
    return (
        len(set(mapping.values())) == len(mapping)
        and a.stars == b.stars
        and a.given_stars == b.given_stars
        and a.given_blanks == b.given_blanks
    )


SLACK = 2.0
"""How late a stop may come in these tests (seconds): a stop within seconds, not minutes, on a
shared machine; the limits' precision is measured by benchmarks/limits.py."""
ENDLESS = "p(0). p(X+1) :- p(X).\n"
"""A program that grounds for ever, its memory growing."""


def planted_board(size: int, stars: int) -> Board:
    """A board of `size` regions cut around a random planted solution: many solutions, slow."""
    rng = random.Random(1)
    cells = plant(size, stars, rng)
    assert cells is not None
    return Board.from_rows(grow(claim(size, stars, cells), rng), stars)
