"""Suggestions for setters: the smallest region edits that give a board exactly one solution.

An edit moves one cell to a neighbouring region (never emptying a region, never cutting one
in two unless asked, never moving a blocked cell; givens stay where they are). Single moves
are tried first, pairs of moves only when no single move works, each level in order of how
many cell walls the edit draws or erases; each board is proved by the solver.

Most moves cannot work, and which can is known before solving. A move of cell X from region
A to region B changes only the star counts of A and B, so a solution survives it exactly
when X holds no star in it. A board with several solutions becomes unique only if every
solution but one dies: X (or, for a pair, one of its two cells) must be a star in all but at
most one of the solutions known (up to KNOWN, enumerated once). A board without a solution
stays without one unless the edit changes a region of the smallest set of rules that
cannot all hold (`insight.why_unsat`); if that set holds no region, no region edit can help.
Every board tried is loaded on one grounding whose region atoms are externals
(`asp.switched`), so clasp keeps what it learnt from board to board; the moves and the
connectivity test are the generator's (`logic.regions.Regions`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from starbattle.asp.facts import given_facts, region_terms
from starbattle.asp.solver import Rule, program_files
from starbattle.asp.switched import SwitchedRegions
from starbattle.errors import UsageError
from starbattle.limits import TimeLimitReached, deadline_after, time_left
from starbattle.logic.grade import grade as grade_board
from starbattle.logic.insight import unsat_rules, why_unsat
from starbattle.logic.regions import Regions
from starbattle.model.board import Board, Cell, check_king_capacity
from starbattle.model.setter import Move, Suggested, Suggestion
from starbattle.model.steps import TIERS

KNOWN = 16
"""How many solutions of a board with several are enumerated to rule moves out."""
CORE_SECONDS = 1.0
"""The longest a board without a solution is searched for a smallest set of rules that cannot
all hold (which rules moves out best); past it, any such set serves (a 14x14 3-star board
took 18 s to find a smallest set of 35 rules)."""
MOST_MOVES = 2
"""The most moves one suggestion makes (single moves, then pairs)."""
Grid = list[list[int]]


class _Move(NamedTuple):
    """A legal move on the numbered grid (0-based cell), with what it costs and kills."""

    cell: Cell
    source: int
    target: int
    changed: int
    """The cell walls it draws or erases."""
    kills: int
    """The known solutions that hold a star at the cell, as bits."""


class _Search:
    """One board's search: its numbered regions, its known solutions, one grounding."""

    def __init__(self, board: Board, split: bool, deadline: float | None) -> None:
        check_king_capacity(board)
        self.board, self.split, self.deadline = board, split, deadline
        self.labels = board.region_labels
        number = {label: index for index, label in enumerate(self.labels, start=1)}
        self.grid: Grid = [[0 if label is None else number[label] for label in row]
                           for row in board.regions]  # fmt: skip
        self.boards = SwitchedRegions(
            program_files(None, (), board.stars, ()),
            ["--warn=none"],
            board.stars,
            given_facts(board),
            reach=2,
        )
        self.tried = 0
        known, exhausted = self.solutions(self.grid, KNOWN + 1)
        self.before = min(len(known), 2) if exhausted or len(known) >= 2 else None
        self.known = [frozenset((r - 1, c - 1) for r, c in stars) for stars in known[:KNOWN]]
        self.core: frozenset[int] | None = None
        """With no solution: the regions of a smallest unsatisfiable set of rules."""
        if self.before == 0:
            terms = {term: number[label] for label, term in region_terms(board).items()}
            rules = self._unsat_rules()
            self.core = frozenset(terms[str(a[0])] for kind, a in rules if kind == "region")

    def _unsat_rules(self) -> Sequence[Rule]:
        """A smallest set of rules that cannot all hold, or, past CORE_SECONDS, any such set."""
        left = time_left(self.deadline)
        try:
            smallest = why_unsat(
                self.board, CORE_SECONDS if left is None else min(CORE_SECONDS, left)
            )
        except TimeLimitReached:
            return unsat_rules(self.board, time_left(self.deadline)) or ()
        return () if smallest is None else smallest.rules

    def solutions(self, grid: Grid, limit: int) -> tuple[list[list[Cell]], bool]:
        """Up to `limit` solutions of a numbered board (1-based cells), and whether that is all."""
        self.tried += 1
        return self.boards.solutions(grid, limit, time_left(self.deadline))

    def moves(self) -> list[_Move]:
        """Every legal single move, cheapest first."""
        regions = Regions([row[:] for row in self.grid], frozenset({0}))
        found = []
        for r in range(regions.size):
            for c in range(regions.size):
                own = regions.grid[r][c]
                targets = regions.neighbours(r, c)
                if not targets or len(regions.cells[own]) <= 1:
                    continue
                if not self.split:
                    regions.move((r, c), targets[0])
                    whole = regions.still_connected(own, (r, c))
                    regions.move((r, c), own)
                    if not whole:
                        continue
                kills = sum(1 << k for k, stars in enumerate(self.known) if (r, c) in stars)
                for target in targets:
                    near = [regions.grid[i][j] for i, j in regions.around[r][c]]
                    changed = sum(label in (own, target) for label in near)
                    found.append(_Move((r, c), own, target, changed, kills))
        return sorted(found, key=lambda move: (move.changed, move.cell, move.target))

    def may_fix(self, moves: tuple[_Move, ...]) -> bool:
        """Whether these moves can give the wanted solutions, by the known solutions and core."""
        if self.core is not None:
            return any(m.source in self.core or m.target in self.core for m in moves)
        if self.before == 1:  # towards a tier: any move may keep it unique
            return True
        killed = 0
        for move in moves:
            killed |= move.kills
        return bin(((1 << len(self.known)) - 1) & ~killed).count("1") <= 1

    def apply(self, moves: tuple[_Move, ...]) -> Grid | None:
        """The grid after the moves, or None when one is no longer legal after those before."""
        regions = Regions([row[:] for row in self.grid], frozenset({0}))
        for move in moves:
            cell = move.cell
            if regions.grid[cell[0]][cell[1]] != move.source:
                return None
            if move.target not in regions.neighbours(*cell):
                return None
            if len(regions.cells[move.source]) <= 1:
                return None
            regions.move(cell, move.target)
            if not self.split and not regions.still_connected(move.source, cell):
                return None
        return regions.grid

    def board_of(self, grid: Grid) -> Board:
        """The board of a numbered grid, with the original labels and givens."""
        board = self.board
        rows = [[None if n == 0 else self.labels[n - 1] for n in row] for row in grid]
        return Board.from_rows(
            rows, board.stars, given_stars=board.given_stars, given_blanks=board.given_blanks,
            name=board.name,
        )  # fmt: skip


def suggest(
    board: Board,
    *,
    max_moves: int = MOST_MOVES,
    tier: str | None = None,
    most: int = 10,
    split: bool = False,
    graded: bool = True,
    timeout: float | None = None,
) -> Iterator[Suggestion | Suggested]:
    """Yield suggestions as they are proved, fewest moves and smallest change first, then a summary.

    A board with several solutions gets edits that leave exactly one; a board with none,
    edits that give it one (exactly one first, then several). With `tier`, only edits whose
    board is unique and graded that tier (from a unique board too). Stops after `most`
    suggestions (0: every one of the fewest moves), after the first level of moves that
    found any, or after `timeout` seconds. `split`: moves may cut a region in pieces.
    `graded`: grade each suggestion's board (needed for `tier`).
    """
    if not 1 <= max_moves <= MOST_MOVES:
        raise UsageError(f"--max-moves must be 1 or {MOST_MOVES}, not {max_moves}")
    if tier is not None and tier not in TIERS:
        raise UsageError(f"unknown tier {tier!r}: choose one of {', '.join(TIERS)}")
    started, deadline = time.perf_counter(), deadline_after(timeout)
    found, search = 0, None
    complete = True
    try:
        search = _Search(board, split, deadline)
        if search.before is None or (search.before == 1 and tier is None):
            complete = search.before is not None
        else:
            for suggestion in _levels(search, max_moves, tier, graded or tier is not None):
                found += 1
                yield suggestion._replace(index=found)
                if found == most:
                    complete = False
                    break
    except TimeLimitReached:
        complete = False
    yield Suggested(
        board,
        None if search is None else search.before,
        found,
        0 if search is None else search.tried,
        complete,
        time.perf_counter() - started,
        tier,
        timeout,
    )


def _levels(
    search: _Search, max_moves: int, tier: str | None, graded: bool
) -> Iterator[Suggestion]:
    """The suggestions of single moves, else of pairs; raises TimeLimitReached past the deadline."""
    singles = search.moves()
    fixes: set[_Move] = set()
    for level in range(1, max_moves + 1):
        if level == 1:
            edits = [(move,) for move in singles if search.may_fix((move,))]
        else:
            edits = sorted(
                (
                    (first, second)
                    for index, first in enumerate(singles)
                    if first not in fixes
                    for second in singles[index + 1 :]
                    if second not in fixes
                    and second.cell != first.cell
                    and search.may_fix((first, second))
                ),
                key=lambda pair: (pair[0].changed + pair[1].changed, pair[0].cell, pair[1].cell),
            )
        proved, count = [], 0
        for edit in edits:
            grid = search.apply(edit)
            if grid is None:
                continue
            solutions, _ = search.solutions(grid, 2)
            if not solutions or (len(solutions) > 1 and search.before != 0):
                continue
            made = _suggestion(search, edit, grid, len(solutions), graded)
            if tier is not None and (made.grade is None or made.grade.tier != tier):
                continue
            fixes.update(edit)
            count += 1
            if search.before == 0:  # exactly one first: gathered, then ordered
                proved.append(made)
            else:
                yield made
        yield from sorted(proved, key=lambda made: (made.solutions, made.changed))
        if count:
            return


def _suggestion(
    search: _Search, edit: tuple[_Move, ...], grid: Grid, solutions: int, graded: bool
) -> Suggestion:
    """A proved edit as a suggestion (its board graded when unique and asked)."""
    fixed = search.board_of(grid)
    labels = search.labels
    moves = tuple(
        Move((m.cell[0] + 1, m.cell[1] + 1), labels[m.source - 1], labels[m.target - 1])
        for m in edit
    )
    grade = None
    if graded and solutions == 1:
        grade = grade_board(fixed, time_left(search.deadline))
    return Suggestion(0, search.board, moves, fixed, solutions, sum(m.changed for m in edit), grade)
