"""The hint ladder: the next logical step on a board, said in words, and whole traces of steps.

Levels, each tried only when every lower one has nothing to say:
0 mistakes (a mark breaks a rule or contradicts the solution), 1 around a star and full
units, 2 forced fill, 3 2x2 blocks, 4 a star that would leave a unit too little room,
5 confinement (k units inside k units), 6 one assumption refuted by levels 1-5,
7 a smallest set of units whose clingo unsatisfiable core forces a cell.

Levels 1-6 are Python over sets of cell numbers, not ASP programs: level 6 applies levels
1-5 to thousands of hypothetical states per step, and one clingo solve with assumptions on
a board grounded once costs ~3 ms (10x10, measured) against ~0.1 ms for the fixpoint of
levels 1-2 here, which is what most of those applications are.
Levels 0 and 7 and the soundness checks use clingo (encodings/explain.lp) on a board
grounded once (level 7: once per step), with the marks as assumptions.

encodings/hints/ states levels 1-5 a second time, as ASP programs (one per technique, its
answer sets the deductions), and the tests keep the two in step; the Python here is the
engine, for speed (one program run costs 6-65 ms at 10x10 2-star, a technique here 0.1-1.5
ms). A user's own hint program (starbattle.logic.programs) joins the ladder at the level its
header declares, after the built-in techniques of that level, every conclusion proved by
clingo.

Lowest level, precisely: levels 0-5 always run to the end, so no step is made at a level
above one of them that applies. Level 6 runs to the end for refutations by levels 1-2 (every
undecided cell, both ways) and within a work budget (ASSUMPTION_WORK) for refutations that
use levels 3-5; level 7 within CORE_PROOFS. A spent budget can only make level 6 miss a
refutation, so that the step comes from level 7 instead; it never lifts a step above a
level 0-5 deduction. Budgets count work, not seconds: a board and state always give the
same step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from starbattle.asp.encodings import encodings_dir
from starbattle.asp.facts import unit_of_rule
from starbattle.asp.solver import BANDS_FROM, Rule, Solver
from starbattle.errors import BoardError, EncodingError
from starbattle.limits import TimeLimitReached, time_left
from starbattle.model.board import Board, Cell
from starbattle.model.checker import check
from starbattle.model.steps import State, Step, Trace
from starbattle.model.units import region_names, units_of

if TYPE_CHECKING:
    from starbattle.logic.programs import HintProgram

LEVELS = {
    0: "mistakes",
    1: "around a star, full units",
    2: "forced fill",
    3: "2x2 blocks",
    4: "too little room",
    5: "confinement",
    6: "one assumption",
    7: "unsat core",
}
"""The ladder's levels and what each covers."""
TECHNIQUES = {
    "mistake": 0,
    "around-star": 1,
    "full-unit": 1,
    "forced-fill": 2,
    "2x2-blocks": 3,
    "too-little-room": 4,
    "confinement": 5,
    "assumption": 6,
    "assumption-chain": 6,
    "unsat-core": 7,
}
"""Every technique by name, with its level. Level 6: an assumption refuted by levels 1-2
alone, or by a chain that needs levels 3-5 as well."""
CHAIN_DEPTH = 8
"""Level 6: the most rounds of levels 1-5 an assumption may take to reach a contradiction."""
ASSUMPTION_CHOICES = 3
"""Level 6: chains using levels 3-5 stop once this many refutations are found."""
ASSUMPTION_WORK = 500_000
"""Level 6: the work chains using levels 3-5 may do in one step, where a round of levels
3-5 costs its undecided cells times the board's size (roughly what levels 4 and 5 scan)."""
CORE_CANDIDATES = 16
"""Level 7: how many undecided cells (those in the tightest units first) get a core."""
CORE_CONFLICTS = 300
"""Level 7: clasp's conflicts allowed per proof while a core is made smaller (a proof that
takes more keeps its unit: the core stays sound, only larger)."""
CORE_FIRST_CONFLICTS = 200
"""Level 7 on a unique board: clasp's conflicts allowed for a cell's first proof, raised
8-fold in each round while no candidate cell is proved (then without limit)."""
CORE_PROOFS = 3_000
"""Level 7: how many such proofs one step may make, divided by the board's size (larger
boards take longer per proof)."""
SENTENCE_LIMIT = 200
CHECKER_FORGET = "--forget-on-step=varScores,signs,lemmaScores,lemmas"
"""The checker's clasp forgets its nogoods and heuristic scores between proofs. Nogoods kept
from earlier proofs name units those proofs used, so level-7 cores grew, and the growing
store slowed every proof as a trace went on (17x17 4-star sbl-0370: its trace 280 s -> 14 s
of CPU, level-7 cores 33 -> 28 units at the median)."""


@dataclass
class _Budget:
    """Work a level may still do in one step (ASSUMPTION_WORK, CORE_PROOFS)."""

    left: int

    def spend(self, work: int) -> bool:
        """Take work from the budget; False once it is overspent."""
        self.left -= work
        return self.left >= 0


@dataclass(frozen=True)
class _Found:
    """A deduction in cell numbers, before it becomes a Step."""

    technique: str
    level: int
    units: tuple[int, ...]
    cells: tuple[int, ...]
    stars: frozenset[int]
    blanks: frozenset[int]
    sentence: str


class _Grid:
    """The board's geometry in cell numbers (r-1)*n + (c-1): units, neighbours, names."""

    def __init__(self, board: Board) -> None:
        n = self.n = board.size
        self.quota = board.stars
        self.coords = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
        playable = [board.regions[r - 1][c - 1] is not None for r, c in self.coords]
        self.cells = [i for i in range(n * n) if playable[i]]
        self.units = units_of(board)
        """Every unit, numbered: rows, columns, then regions."""
        self.number = {unit: u for u, unit in enumerate(self.units)}
        """The number of each unit."""
        names = [unit.name(board) for unit in self.units]
        shown = region_names(board)
        self.labels = [
            shown[str(unit.key)] if unit.kind == "region" else str(unit.key) for unit in self.units
        ]
        """What each unit is called within its kind: a row's number, a region's name."""
        members = [tuple((r - 1) * n + c - 1 for r, c in unit.cells(board)) for unit in self.units]
        kinds = [unit.kind for unit in self.units]
        self.names, self.members, self.kinds = names, members, kinds
        self.rows, self.columns = list(range(n)), list(range(n, 2 * n))
        self.regions = list(range(2 * n, len(names)))
        self.units_of: list[list[int]] = [[] for _ in range(n * n)]
        for unit, cells in enumerate(members):
            for i in cells:
                self.units_of[i].append(unit)
        self.around = [
            tuple(
                (r + dr - 1) * n + c + dc - 1
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc)
                and 1 <= r + dr <= n
                and 1 <= c + dc <= n
                and playable[(r + dr - 1) * n + c + dc - 1]
            )
            for r, c in self.coords
        ]

        self.sets = [frozenset(cells) for cells in members]
        self.masks = [sum(1 << i for i in cells) for cells in members]
        self.reach = [sum(1 << j for j in (i, *self.around[i])) for i in range(n * n)]
        """A cell and its neighbours, as a bit mask: what a star there takes from the board."""
        self.near = [
            sorted({u for j in (i, *self.around[i]) for u in self.units_of[j]})
            for i in range(n * n)
        ]
        self.blocks = [
            tuple(
                frozenset(
                    rr * n + cc
                    for rr in (r - 1, r)
                    for cc in (left, left + 1)
                    if rr < n and 0 <= cc < n and playable[rr * n + cc]
                )
                for left in (c - 2, c - 1)
                if left >= 0 or left == c - 1
            )
            for r, c in self.coords
        ]
        """The 2x2 blocks worth trying for a cell first in reading order: its row on top."""
        self._covers: dict[tuple[frozenset[int], int], list[frozenset[int]] | None] = {}

    def cover(self, cells: frozenset[int], limit: int) -> list[frozenset[int]] | None:
        """At most `limit` 2x2 blocks covering the cells, or None when there are none.

        Hand-written: a tiny exact cover search (the first uncovered cell in reading order
        is best covered by a block whose top row is its own, so two branches per block),
        remembered per board because traces ask the same questions again and again.
        """
        if not cells:
            return []
        if limit <= 0 or len(cells) > 4 * limit:
            return None
        key = (cells, limit)
        if key in self._covers:
            return self._covers[key]
        found = None
        for block in self.blocks[min(cells)]:
            rest = self.cover(cells - block, limit - 1)
            if rest is not None:
                found = [block, *rest]
                break
        self._covers[key] = found
        return found

    def cell(self, i: int) -> Cell:
        """The (row, column) of a cell number."""
        return self.coords[i]

    def where(self, i: int) -> str:
        """'(3,4)'."""
        r, c = self.coords[i]
        return f"({r},{c})"


class _View:
    """A state seen per unit: stars, undecided cells and stars still needed."""

    def __init__(self, grid: _Grid, stars: frozenset[int], blanks: frozenset[int]) -> None:
        self.grid, self.stars, self.blanks = grid, stars, blanks
        self.open = [cells - stars - blanks for cells in grid.sets]
        self.has = [len(cells & stars) for cells in grid.sets]
        self.need = [grid.quota - has for has in self.has]

    def marks_in(self, units: Iterable[int]) -> tuple[int, ...]:
        """The marked cells of some units, and stars touching them (what they rest on)."""
        grid, marks = self.grid, set()
        for unit in units:
            for i in grid.members[unit]:
                if i in self.stars or i in self.blanks:
                    marks.add(i)
                marks.update(j for j in grid.around[i] if j in self.stars)
        return tuple(sorted(marks))


def _listing(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _stars(count: int) -> str:
    """'1 star', '2 stars'."""
    return f"{count} star{'' if count == 1 else 's'}"


def _units_text(grid: _Grid, units: Iterable[int]) -> str:
    """'rows 3-4', 'regions B and F', 'column 2': consecutive lines as a range."""
    units = sorted(units)
    kind = grid.kinds[units[0]]
    if kind == "region":
        labels = [grid.labels[u] for u in units]
        return f"region {labels[0]}" if len(labels) == 1 else f"regions {_listing(labels)}"
    numbers = [int(grid.labels[u]) for u in units]
    if len(numbers) == 1:
        return f"{kind} {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{kind}s {numbers[0]}-{numbers[-1]}"
    return f"{kind}s {_listing([str(x) for x in numbers])}"


def _units_phrase(grid: _Grid, units: Iterable[int]) -> str:
    """'rows 1-2, column 4 and region B' (or 'these 9 units' when that is too long)."""
    units = sorted(units)
    if not units:
        return "the marks"
    kinds = [[u for u in units if grid.kinds[u] == kind] for kind in ("row", "column", "region")]
    text = _listing([_units_text(grid, group) for group in kinds if group])
    return text if len(text) <= SENTENCE_LIMIT // 2 else f"these {len(units)} units"


def _outcome(grid: _Grid, stars: Iterable[int], blanks: Iterable[int]) -> str:
    """'(3,4) is a star', '(1,2) and (1,3) are empty', '5 cells are empty', joined by 'and'."""
    parts = []
    for cells, what in ((sorted(stars), "a star"), (sorted(blanks), "empty")):
        if not cells:
            continue
        plural = what.replace("a star", "stars")
        if len(cells) == 1:
            parts.append(f"{grid.where(cells[0])} is {what}")
        elif len(cells) <= 3:
            parts.append(f"{_listing([grid.where(i) for i in cells])} are {plural}")
        else:
            parts.append(f"{len(cells)} cells are {plural}")
    return " and ".join(parts)


@dataclass
class Logic:
    """A board's hint engine: its geometry, its solution and a clingo checker, made once."""

    board: Board
    programs: tuple[HintProgram, ...] = ()
    """Hint programs added to the ladder, each tried at its level after the built-in ones."""
    deadline: float | None = None
    """The perf_counter time after which every question raises TimeLimitReached (None: no
    limit). It only ever stops work: a step found before it is the step found without it."""
    grid: _Grid = field(init=False, repr=False)
    _refutable: list[tuple[int, bool, int]] = field(init=False, repr=False, default_factory=list)
    """Level 6's last refutations: (cell, assumed a star, highest level its chain used)."""

    def __post_init__(self) -> None:
        """Lay out the board's units."""
        self.grid = _Grid(self.board)

    # -- the solution and the clingo checker (levels 0 and 7, soundness) ------------------

    @cached_property
    def checker(self) -> Solver:
        """The board under encodings/explain.lp, grounded once (for level 0 and the audit)."""
        return self._ground_checker()

    def _ground_checker(self) -> Solver:
        """The board under encodings/explain.lp, grounded anew: every rule a switchable unit.

        From BANDS_FROM stars on, the guarded band and box counts (its part `implied`) come
        too: at 21x21 5 stars they make the level-7 proofs several times faster. Its clasp
        forgets what it learnt between proofs (CHECKER_FORGET). Grounding is deterministic,
        so every grounding has the same literals (`_literals`).
        """
        bare = Board(self.board.regions, self.board.stars, name=self.board.name)
        parts = ("implied",) if bare.stars >= BANDS_FROM else ()
        return Solver(
            bare,
            encoding=str(encodings_dir() / "explain.lp"),
            parts=parts,
            clingo_args=(CHECKER_FORGET,),
            ground_timeout=self._left(),
        )

    def _left(self) -> float | None:
        """Seconds left before the deadline (None: no limit); TimeLimitReached once past."""
        return time_left(self.deadline)

    @cached_property
    def _literals(self) -> dict[int, int]:
        """The checker's star literal of every cell number."""
        n = self.grid.n
        return {(r - 1) * n + c - 1: lit for (r, c), lit in self.checker.star_literals().items()}

    @cached_property
    def _unit_names(self) -> dict[Rule, int]:
        """The checker's units mapped to our unit numbers (no-touch rule excluded)."""
        number = self.grid.number
        return {
            rule: number[unit]
            for rule in self.checker.units()
            if (unit := unit_of_rule(self.board, rule)) is not None
        }

    @cached_property
    def solutions(self) -> list[frozenset[int]]:
        """Up to two solutions of the board with its givens, as sets of star cell numbers."""
        n = self.grid.n
        solver = Solver(self.board, ground_timeout=self._left())
        found = list(solver.solutions(2, self._left()))
        if solver.last.timed_out:
            raise TimeLimitReached
        return [frozenset((r - 1) * n + c - 1 for r, c in solution.stars) for solution in found]

    def _assume(self, stars: Iterable[int], blanks: Iterable[int]) -> list[int]:
        """Checker literals saying these cells are stars and these are empty."""
        return [self._literals[i] for i in stars] + [-self._literals[i] for i in blanks]

    def entails(
        self,
        stars: Iterable[int],
        blanks: Iterable[int],
        cell: int,
        star: bool,
        units: Iterable[int] | None = None,
    ) -> bool:
        """Whether the marks force the cell (a star if `star`, else empty) under the rules.

        With `units`, only those rows, columns and regions and the no-touch rule hold.
        """
        mapping = self._unit_names
        if units is None:
            on, off = list(mapping), []
        else:
            wanted = set(units)
            on = [unit for unit, u in mapping.items() if u in wanted]
            off = [unit for unit, u in mapping.items() if u not in wanted]
        on.append(("notouch", ()))
        flip = -self._literals[cell] if star else self._literals[cell]
        literals = [*self._assume(stars, blanks), flip]
        return self.checker.core(on, off, self._left(), literals=literals) is not None

    def audit(self, state: State, step: Step, *, sound_only: bool = False) -> list[str]:
        """What is wrong with a step taken from a state (an empty list: nothing).

        Sound: the conclusions agree with the solution (when unique) and clingo finds no
        solution of the rules and the marks where a conclusion fails. Honest: neither with
        only the premise units, the no-touch rule and the premise cells' marks. Lowest: no
        lower level applies. `sound_only` checks soundness alone (the cheap part).
        """
        stars, blanks = self.numbers(state)
        n, problems = self.grid.n, []
        conclusions = [((r - 1) * n + c - 1, True) for r, c in step.stars]
        conclusions += [((r - 1) * n + c - 1, False) for r, c in step.blanks]
        if len(self.solutions) == 1:
            truth = self.solutions[0]
            problems += [
                f"unsound: {self.grid.where(i)} is {'not ' if star else ''}a star in the solution"
                for i, star in conclusions
                if (i in truth) != star
            ]
        if step.level == 0:
            return problems
        units = [self.grid.number[unit] for unit in step.units]
        cells = {(r - 1) * n + c - 1 for r, c in step.cells}
        for i, star in conclusions:
            if not self.entails(stars, blanks, i, star):
                problems.append(f"unsound: the rules and marks do not force {self.grid.where(i)}")
            elif sound_only:
                continue
            elif not self.entails(stars & cells, blanks & cells, i, star, units):
                problems.append(f"dishonest: the premises alone do not force {self.grid.where(i)}")
        if not sound_only and self.next_step(state, step.level - 1) is not None:
            problems.append(f"not lowest: a step below level {step.level} applies")
        return problems

    # -- the ladder -----------------------------------------------------------------------

    def numbers(self, state: State) -> tuple[frozenset[int], frozenset[int]]:
        """A state with the board's givens, in cell numbers (blocked cells are not marks)."""
        n, playable = self.grid.n, set(self.grid.cells)
        stars = {(r - 1) * n + c - 1 for r, c in state.stars | self.board.given_stars}
        blanks = {(r - 1) * n + c - 1 for r, c in state.blanks | self.board.given_blanks}
        for r, c in state.stars | state.blanks:
            if not (1 <= r <= n and 1 <= c <= n):
                raise BoardError(
                    f"mark ({r},{c}) lies outside the {n}x{n} board: give marks inside it",
                    file=self.board.name,
                )
        return frozenset(stars), frozenset((blanks - stars) & playable)

    def next_step(self, state: State | None = None, max_level: int = 7) -> Step | None:
        """The next step from a state: the lowest level that applies (None when none does).

        Level 6 may miss within its budget (see the module's docstring), never levels 0-5.
        """
        self._left()
        stars, blanks = self.numbers(state or State())
        found = self._lowest(stars, blanks, max_level)
        return self._step(found[0], len(found)) if found else None

    def easiest_step(self, state: State, effort: Callable[[Step], int]) -> Step | None:
        """The next step by least effort, for a state without mistakes (None when none applies).

        The grade's order instead of the ladder's: levels 1-2 first, then the deduction of
        levels 3-5 with the least `effort` (ties: the lowest level, then the first found),
        then level 6 likewise; `available` counts the deductions of that least effort.
        """
        self._left()
        view = _View(self.grid, *self.numbers(state))
        if not any(view.open):
            return None
        levels = self._techniques()
        for group in (levels[:2], levels[2:5], levels[5:6]):
            steps = [self._step(found, 1) for technique in group for found in technique(view)]
            if steps:
                efforts = [effort(step) for step in steps]
                least = min(efforts)
                easiest = [step for step, e in zip(steps, efforts, strict=True) if e == least]
                return easiest[0]._replace(available=len(easiest))
        return None

    def deductions(self, state: State, technique: str) -> list[Step]:
        """Every deduction one technique (a name of TECHNIQUES) makes from a state."""
        stars, blanks = self.numbers(state)
        if technique == "mistake":
            found = self._mistakes(stars, blanks)
        else:
            level = TECHNIQUES[technique]
            view = _View(self.grid, stars, blanks)
            found = [f for f in self._techniques()[level - 1](view) if f.technique == technique]
        return [self._step(f, len(found)) for f in found]

    def _step(self, found: _Found, available: int) -> Step:
        """A deduction in cells and names."""
        grid = self.grid
        return Step(
            found.technique,
            found.level,
            tuple(grid.units[u] for u in found.units),
            tuple(grid.cell(i) for i in found.cells),
            tuple(grid.cell(i) for i in sorted(found.stars)),
            tuple(grid.cell(i) for i in sorted(found.blanks)),
            found.sentence[:1].upper() + found.sentence[1:],
            available,
        )

    def steps(self, state: State | None = None, max_level: int = 7) -> Iterator[Step]:
        """Steps from a state as they are found, until the board is solved or none applies."""
        state = state or State()
        while (step := self.next_step(state, max_level)) is not None:
            yield step
            state = state.after(step)

    def explain(self, state: State | None = None, max_level: int = 7) -> Trace:
        """Steps from a state until the board is solved or no level up to `max_level` applies."""
        state = state or State()
        steps = tuple(self.steps(state, max_level))
        for step in steps:
            state = state.after(step)
        return Trace(steps, self.solved(state), state)

    def solved(self, state: State, *, stars_only: bool = False) -> bool:
        """Whether every cell is decided and the stars are a solution.

        `stars_only`: whether the stars are a solution, the empty cells left unmarked.
        """
        stars, blanks = self.numbers(state)
        decided = stars_only or len(stars) + len(blanks) == len(self.grid.cells)
        return decided and not check(self.board, [self.grid.cell(i) for i in stars])

    def _lowest(
        self, stars: frozenset[int], blanks: frozenset[int], max_level: int
    ) -> list[_Found]:
        """Every deduction of the lowest level that has one."""
        mistakes = self._mistakes(stars, blanks)
        if mistakes:
            return mistakes
        view = _View(self.grid, stars, blanks)
        if not any(view.open):
            return []
        for level, technique in enumerate(self._techniques(), start=1):
            if level > max_level:
                break
            found = technique(view) or self._programs_at(level, view)
            if found:
                return found
        return []

    def _techniques(self) -> list[Callable[[_View], Iterable[_Found]]]:
        """Levels 1 to 7 in order."""
        return [
            lambda v: [*self._around_star(v), *self._full_unit(v)],
            self._forced_fill,
            self._blocks,
            self._too_little_room,
            self._confinement,
            self._assumption,
            self._core,
        ]

    def _programs_at(self, level: int, view: _View) -> list[_Found]:
        """The deductions of the added hint programs of a level, each conclusion proved sound."""
        programs = [program for program in self.programs if program.level == level]
        if not programs:
            return []
        grid, found = self.grid, []
        number = {cell: i for i, cell in enumerate(grid.coords)}
        marks = [grid.cell(i) for i in view.stars], [grid.cell(i) for i in view.blanks]
        for program in programs:
            for deduction in program.deductions(self.board, *marks, timeout=self._left()):
                stars, blanks, cells = (
                    frozenset(number[cell] for cell in part)
                    for part in (deduction.stars, deduction.blanks, deduction.cells)
                )
                self._prove(program, view, stars, blanks)
                units = tuple(sorted(self._unit_names[unit] for unit in deduction.units))
                text = (
                    f"{deduction.technique} on {_units_phrase(grid, units)}: "
                    f"{_outcome(grid, stars, blanks)}"
                )
                found.append(
                    _Found(
                        deduction.technique, level, units, tuple(sorted(cells)), stars, blanks, text
                    )
                )
        return found

    def _prove(
        self, program: HintProgram, view: _View, stars: frozenset[int], blanks: frozenset[int]
    ) -> None:
        """Refuse a hint program's conclusion that the rules and the marks do not force.

        An EncodingError naming the program and the cell: such a conclusion is never a step.
        """
        for i, star in sorted([*((i, True) for i in stars), *((i, False) for i in blanks)]):
            if not self.entails(view.stars, view.blanks, i, star):
                raise EncodingError(
                    f"unsound: it concludes that {self.grid.where(i)} is "
                    f"{'a star' if star else 'empty'}, which the rules and the marks do not force",
                    file=str(program.path),
                )

    # -- level 0 ----------------------------------------------------------------------------

    def _mistakes(self, stars: frozenset[int], blanks: frozenset[int]) -> list[_Found]:
        """Marks that break a rule or that the solution contradicts; the first one to fix."""
        grid = self.grid
        solutions = self.solutions
        if not solutions:
            raise BoardError(
                "the board has no solution, so there are no hints: check it with 'solve'",
                file=self.board.name,
            )
        if len(solutions) == 1:
            truth = solutions[0]
            wrong = sorted([*(stars - truth), *(blanks & truth)])
        else:
            wrong = self._conflict(stars, blanks)
        if not wrong:
            return []
        violations = check(
            self.board, [grid.cell(i) for i in stars], [grid.cell(i) for i in blanks]
        )
        n = grid.n
        for violation in violations:
            involved = [(r - 1) * n + c - 1 for r, c in violation.cells]
            if violation.unit is not None:
                involved = list(grid.members[grid.number[violation.unit]])
            culprit = next((i for i in wrong if i in involved), None)
            if culprit is not None:
                return [self._mistake(culprit, stars, f"{violation.message}; ")]
        return [self._mistake(wrong[0], stars, "")]

    def _mistake(self, culprit: int, stars: frozenset[int], why: str) -> _Found:
        """The step that corrects one wrong mark."""
        place = self.grid.where(culprit)
        if culprit in stars:
            text = f"{why}the star at {place} is wrong: the solution leaves it empty"
            return _Found("mistake", 0, (), (culprit,), frozenset(), frozenset({culprit}), text)
        text = f"{why}the cell {place} is marked empty but holds a star in the solution"
        return _Found("mistake", 0, (), (culprit,), frozenset({culprit}), frozenset(), text)

    def _conflict(self, stars: frozenset[int], blanks: frozenset[int]) -> list[int]:
        """With several solutions: the last of a smallest set of marks that cannot all hold."""
        every = [*sorted(stars), *sorted(blanks)]
        on = [*self._unit_names, ("notouch", ())]
        if self.checker.core(on, (), self._left(), literals=self._assume(stars, blanks)) is None:
            return []
        needed = list(every)
        for i in every:
            trial = [j for j in needed if j != i]
            literals = self._assume(
                [j for j in trial if j in stars], [j for j in trial if j in blanks]
            )
            if self.checker.core(on, (), self._left(), literals=literals) is not None:
                needed = trial
        return needed[-1:]

    # -- level 1: around a star, full units ----------------------------------------------

    def _around_star(self, view: _View) -> Iterator[_Found]:
        """The undecided neighbours of a star are empty."""
        grid = self.grid
        for i in sorted(view.stars):
            near = frozenset(
                j for j in grid.around[i] if j not in view.stars and j not in view.blanks
            )
            if near:
                text = (
                    f"no two stars touch, so the cells around the star at {grid.where(i)} are empty"
                )
                yield _Found("around-star", 1, (), (i,), frozenset(), near, text)

    def _full_unit(self, view: _View) -> Iterator[_Found]:
        """A unit with all its stars has its other cells empty."""
        grid = self.grid
        for unit, need in enumerate(view.need):
            if need == 0 and view.open[unit]:
                text = (
                    f"{grid.names[unit]} has its {_stars(grid.quota)}, so its other cells are empty"
                )
                cells = tuple(i for i in grid.members[unit] if i in view.stars)
                yield _Found(
                    "full-unit", 1, (unit,), cells, frozenset(), frozenset(view.open[unit]), text
                )

    # -- level 2: forced fill --------------------------------------------------------------

    def _forced_fill(self, view: _View) -> list[_Found]:
        """A unit whose undecided cells are exactly as many as the stars it still needs."""
        grid, found = self.grid, []
        for unit, need in enumerate(view.need):
            cells = view.open[unit]
            if 0 < need == len(cells):
                more = " more" if view.has[unit] else ""
                if need == 1:
                    only = grid.where(min(cells))
                    text = (
                        f"{grid.names[unit]} needs 1{more} star and {only} is its only undecided "
                        "cell, so it is a star"
                    )
                else:
                    text = (
                        f"{grid.names[unit]} needs {need}{more} stars and has just {need} "
                        "undecided cells, so they are all stars"
                    )
                found.append(
                    _Found(
                        "forced-fill",
                        2,
                        (unit,),
                        view.marks_in((unit,)),
                        frozenset(cells),
                        frozenset(),
                        text,
                    )
                )
        return found

    # -- level 3: 2x2 blocks ----------------------------------------------------------------

    def _blocks(self, view: _View) -> list[_Found]:
        """A unit needing k stars whose undecided cells fit in k 2x2 blocks: one star each."""
        grid, found = self.grid, []
        for unit, need in enumerate(view.need):
            cells = view.open[unit]
            if need <= 0 or len(cells) <= need:
                continue
            cover = grid.cover(cells, need)
            if cover is None or len(cover) != need:
                continue
            counts: dict[int, int] = {}
            for block in cover:
                for i in block & cells:
                    counts[i] = counts.get(i, 0) + 1
            blanks = {i for i, k in counts.items() if k > 1}
            stars: set[int] = set()
            for block in cover:
                candidates = (block & cells) - blanks
                if len(candidates) == 1:
                    stars |= candidates
                if not candidates:  # a contradiction, left for the state check to name
                    continue
                common = set.intersection(*(set(grid.around[i]) for i in candidates))
                blanks |= {j for j in common if j not in view.stars and j not in view.blanks}
            blanks -= stars
            if not stars and not blanks:
                continue
            more = " more" if view.has[unit] else ""
            blocks = "one 2x2 block" if need == 1 else f"{need} 2x2 blocks, one star each"
            text = (
                f"{grid.names[unit]} needs {need}{more} star{'s' if need > 1 else ''} and its "
                f"undecided cells fit in {blocks}, so {_outcome(grid, stars, blanks)}"
            )
            found.append(
                _Found(
                    "2x2-blocks",
                    3,
                    (unit,),
                    view.marks_in((unit,)),
                    frozenset(stars),
                    frozenset(blanks),
                    text,
                )
            )
        return found

    # -- level 4: too little room -----------------------------------------------------------

    def _too_little_room(self, view: _View) -> list[_Found]:
        """A cell whose star would leave some unit too little room for its stars is empty.

        Exclusion when the cells around that star alone do it, pressured exclusion when the
        units it would fill (those needing just that star) are needed too.
        """
        found = []
        decided = sum(1 << i for i in view.stars | view.blanks)
        open_masks = [mask & ~decided for mask in self.grid.masks]
        for x in sorted(set(self.grid.cells) - view.stars - view.blanks):
            filled = [u for u in self.grid.units_of[x] if view.need[u] == 1]
            step = self._starved(view, x, [], open_masks) or (
                self._starved(view, x, filled, open_masks) if filled else None
            )
            if step is not None:
                found.append(step)
        return found

    def _starved(
        self, view: _View, x: int, filled: list[int], open_masks: list[int]
    ) -> _Found | None:
        """The step if a star at x, with the `filled` units full, leaves a unit too little room.

        Cells are bit masks here first (a unit's room must shrink to at most 4 cells per
        star it can still hold) so that most cell and unit pairs are ruled out at once.
        """
        grid = self.grid
        effect, taken = grid.reach[x], {x, *grid.around[x]}
        touched = set(grid.near[x])
        for unit in filled:
            effect |= open_masks[unit]
            taken |= view.open[unit]
            touched.update(u for i in view.open[unit] for u in grid.units_of[i])
        for unit in sorted(touched):
            need = view.need[unit] - (x in grid.sets[unit])
            if need <= 0 or (open_masks[unit] & ~effect).bit_count() > 4 * (need - 1):
                continue
            room = view.open[unit] - taken
            cover = grid.cover(room, need - 1)
            if cover is None:
                continue
            full = tuple(u for u in filled if u != unit and grid.sets[u] & view.open[unit])
            space = f"room for at most {_stars(len(cover))}" if room else "no room"
            fill = f"fill {_units_phrase(grid, full)} and " if full else ""
            text = (
                f"a star at {grid.where(x)} would {fill}leave {grid.names[unit]} {space}, "
                f"but it needs {need}, so {grid.where(x)} is empty"
            )
            units = (unit, *full)
            cells = tuple(sorted({x, *view.marks_in(units)}))
            return _Found("too-little-room", 4, units, cells, frozenset(), frozenset({x}), text)
        return None

    # -- level 5: confinement ---------------------------------------------------------------

    def _confinement(self, view: _View) -> list[_Found]:
        """K units lying inside k units of another kind (by the stars they still need)."""
        grid, found, n = self.grid, [], self.grid.n
        for lines, index in ((grid.rows, 0), (grid.columns, 1)):
            others = [
                u
                for u in (*grid.regions, *(grid.columns if index == 0 else grid.rows))
                if view.need[u] > 0
            ]
            spans = {u: {grid.cell(i)[index] for i in view.open[u]} for u in others}
            for size in range(1, n):
                for start in range(1, n - size + 2):
                    band = set(range(start, start + size))
                    chosen = [lines[k - 1] for k in band]
                    need = sum(view.need[u] for u in chosen)
                    if need <= 0:
                        continue
                    band_open = {i for u in chosen for i in view.open[u]}
                    for kind in ("region", "column" if index == 0 else "row"):
                        group = [u for u in others if grid.kinds[u] == kind]
                        inside = [u for u in group if spans[u] <= band]
                        if inside and sum(view.need[u] for u in inside) == need:
                            kept = {i for u in inside for i in view.open[u]}
                            blanks = frozenset(band_open - kept)
                            if blanks:
                                found.append(self._confined(view, inside, chosen, blanks))
                        meeting = [u for u in group if spans[u] & band]
                        if meeting and sum(view.need[u] for u in meeting) == need:
                            blanks = frozenset(
                                i
                                for u in meeting
                                for i in view.open[u]
                                if grid.cell(i)[index] not in band
                            )
                            if blanks:
                                found.append(self._confined(view, chosen, meeting, blanks))
        return found

    def _confined(
        self, view: _View, inner: list[int], outer: list[int], blanks: frozenset[int]
    ) -> _Found:
        """One confinement step: `inner` units lie inside `outer` ones (premises in that order)."""
        grid = self.grid
        lie = "lies" if len(inner) == 1 else "lie"
        inner_text, outer_text = _units_text(grid, inner), _units_text(grid, outer)
        partial = any(view.has[u] for u in (*inner, *outer))
        count = (
            f" (needing {sum(view.need[u] for u in inner)} more stars, as many)" if partial else ""
        )
        text = (
            f"{inner_text}{count} {lie} inside {outer_text}, so every other cell of "
            f"{outer_text} is empty"
        )
        if len(text) > SENTENCE_LIMIT:
            text = (
                f"{len(inner)} {grid.kinds[inner[0]]}s{count} lie inside {len(outer)} "
                f"{grid.kinds[outer[0]]}s, so the other cells of those are empty"
            )
        units = (*sorted(inner), *sorted(outer))
        return _Found("confinement", 5, units, view.marks_in(units), frozenset(), blanks, text)

    # -- level 6: one assumption ------------------------------------------------------------

    def _assumption(self, view: _View) -> list[_Found]:
        """An undecided cell whose star (or emptiness) levels 1-5 refute within a few rounds.

        Complete for chains of levels 1-2: every undecided cell is assumed a star and empty
        and levels 1-2 run to their fixpoint. Bounded for chains using levels 3-5: those
        allowed levels up to 3, then 4, then 5 are tried on the cells of the tightest units
        first, until ASSUMPTION_CHOICES refutations are found or ASSUMPTION_WORK is spent
        (a count of cells, not seconds, so every run finds the same steps); once it is spent
        level 6 has nothing to say and the ladder goes on to level 7. Refutations found by
        the last search are tried again first (more marks cannot undo them), which saves a
        search per step while a trace works through them.
        """
        grid = self.grid
        budget = _Budget(ASSUMPTION_WORK)
        again = [
            (cap, refuted)
            for x, star, cap in self._refutable
            if x in view.open[grid.units_of[x][0]]
            and (refuted := self._refute(view, x, star, cap, budget)) is not None
        ]
        if again:
            return [
                refuted for _, (_, refuted) in sorted(again, key=lambda pair: (pair[0], pair[1][0]))
            ]
        undecided = sorted(
            set(grid.cells) - view.stars - view.blanks,
            key=lambda i: (min(len(view.open[u]) - view.need[u] for u in grid.units_of[i]), i),
        )
        budget = _Budget(ASSUMPTION_WORK)
        for cap in (2, 3, 4, 5):
            found: list[tuple[int, _Found]] = []
            self._refutable = []
            for x in undecided:
                for star in (True, False):
                    refuted = self._refute(view, x, star, cap, budget)
                    if refuted is not None:
                        found.append(refuted)
                        self._refutable.append((x, star, cap))
                if cap > 2 and (len(found) >= ASSUMPTION_CHOICES or budget.left < 0):
                    break
            if found or budget.left < 0:
                return [refuted for _, refuted in sorted(found, key=lambda pair: pair[0])]
        return []

    def _refute(
        self, view: _View, x: int, star: bool, max_level: int, budget: _Budget
    ) -> tuple[int, _Found] | None:
        """Assume x is a star (or empty) and apply levels 1..max_level until something breaks.

        Levels 1 and 2 run to their fixpoint between rounds; a round applies every step of
        the lowest of levels 3..max_level that has one and costs the budget (None once the
        budget is spent). Returns the rounds it took and the step.
        """
        grid = self.grid
        self._left()
        stars, blanks = set(view.stars), set(view.blanks)
        (stars if star else blanks).add(x)
        units: set[int] = set()
        for rounds in range(CHAIN_DEPTH + 1):
            broken = self._propagate(stars, blanks, units)
            if broken is None and max_level > 2 and rounds < CHAIN_DEPTH:
                if not budget.spend(grid.n * (len(grid.cells) - len(stars) - len(blanks))):
                    return None
                current = _View(grid, frozenset(stars), frozenset(blanks))
                steps: list[_Found] = []
                for technique in self._techniques()[2:max_level]:
                    steps = technique(current)
                    if steps:
                        break
                if not steps:
                    return None
                for step in steps:
                    units.update(step.units)
                    stars |= step.stars
                    blanks |= step.blanks
                if stars & blanks:
                    both = grid.where(min(stars & blanks))
                    broken = (), f"{both} would have to be both a star and empty"
            if broken is None:
                if max_level > 2 and rounds < CHAIN_DEPTH:
                    continue
                return None
            culprits, what = broken
            units.update(culprits)
            assumed, verdict = ("a star", "empty") if star else ("empty", "a star")
            later = f"after {rounds} harder step{'s' if rounds != 1 else ''} " if rounds else ""
            text = (
                f"if {grid.where(x)} were {assumed}, {later}{what}, so {grid.where(x)} is {verdict}"
            )
            cells = {x, *view.marks_in(units), *(j for j in grid.around[x] if j in view.stars)}
            conclusion = frozenset({x})
            return rounds, _Found(
                "assumption-chain" if rounds else "assumption",
                6,
                tuple(sorted(units)),
                tuple(sorted(cells)),
                frozenset() if star else conclusion,
                conclusion if star else frozenset(),
                text,
            )
        return None

    def _propagate(
        self, stars: set[int], blanks: set[int], units: set[int]
    ) -> tuple[tuple[int, ...], str] | None:
        """Apply levels 1 and 2 to their fixpoint, in place; the rule that breaks, if one does.

        Hand-written as a work queue (not by the level-1/2 scans) because level 6 runs it
        on every undecided cell: units are re-examined only when one of their cells changes.
        Units that decide a cell are added to `units`.
        """
        grid, quota = self.grid, self.grid.quota
        has = [len(cells & stars) for cells in grid.sets]
        free = [
            len(cells) - len(cells & blanks) - h for cells, h in zip(grid.sets, has, strict=True)
        ]
        new_stars, pending = list(stars), list(range(len(grid.members)))
        while new_stars or pending:
            while new_stars:
                s = new_stars.pop()
                for j in grid.around[s]:
                    if j in stars:
                        pair = sorted((s, j))
                        return (
                            (),
                            f"the stars at {grid.where(pair[0])} and {grid.where(pair[1])} touch",
                        )
                    if j not in blanks:
                        blanks.add(j)
                        for u in grid.units_of[j]:
                            free[u] -= 1
                            pending.append(u)
            if not pending:
                continue
            unit = pending.pop()
            need = quota - has[unit]
            if need < 0:
                return (unit,), f"{grid.names[unit]} would have too many stars"
            if free[unit] < need:
                return (unit,), f"{grid.names[unit]} would have no room for its stars"
            if free[unit] and (need == 0 or need == free[unit]):
                units.add(unit)
                for i in grid.members[unit]:
                    if i in stars or i in blanks:
                        continue
                    (blanks if need == 0 else stars).add(i)
                    for u in grid.units_of[i]:
                        free[u] -= 1
                        has[u] += need > 0
                        pending.append(u)
                    if need:
                        new_stars.append(i)
        return None

    # -- level 7: unsat core ------------------------------------------------------------------

    def _core(self, view: _View) -> list[_Found]:
        """The undecided cell forced by the fewest units, found by clingo cores.

        Up to CORE_CANDIDATES cells (in the tightest units first) get a core, made smaller
        by dropping units while CORE_PROOFS / size proofs last (a count, not seconds, so
        every run finds the same step); the first forced cell always gets one. On a unique
        board only the solution's side of each cell needs a proof, and the first proofs
        are cut at CORE_FIRST_CONFLICTS conflicts, then at 8 times as many, and so on:
        a cell that is quick to prove comes before one that would take the whole search.
        The proofs run on a checker grounded for this step alone: clasp keeps some state
        from one proof to the next even when told to forget, and a conflict limit makes
        that state matter, so a shared checker would make the step depend on the questions
        asked before it, not only on the board and state.
        """
        grid = self.grid
        prover = self._ground_checker()
        undecided = sorted(
            set(grid.cells) - view.stars - view.blanks,
            key=lambda i: min(len(view.open[u]) - view.need[u] for u in grid.units_of[i]),
        )[:CORE_CANDIDATES]
        every = [*self._unit_names, ("notouch", ())]
        marks = self._assume(view.stars, view.blanks)
        proofs = _Budget(CORE_PROOFS // grid.n)
        if len(self.solutions) == 1:
            truth = self.solutions[0]
            tries = [(x, (x in truth,)) for x in undecided]
            limit: int | None = CORE_FIRST_CONFLICTS
        else:
            tries = [(x, (True, False)) for x in undecided]
            limit = None
        best: _Found | None = None
        while best is None and tries:
            cut: list[tuple[int, tuple[bool, ...]]] = []
            for x, sides in tries:
                if best is not None and proofs.left <= 0:
                    break
                for star in sides:
                    flip = -self._literals[x] if star else self._literals[x]
                    literals = [*marks, flip]
                    core = prover.core(every, (), self._left(), literals=literals, conflicts=limit)
                    if core is None:
                        continue
                    units = self._smaller_core(prover, core, [*marks, flip], proofs)
                    if best is None or len(units) < len(best.units):
                        best = self._core_step(view, x, star, units)
                    break
                else:
                    cut.append((x, sides))
            tries = cut if limit is not None else []
            limit = None if limit is None or limit >= CORE_FIRST_CONFLICTS * 8**3 else limit * 8
        return [] if best is None else [best]

    def _core_step(self, view: _View, x: int, star: bool, units: tuple[int, ...]) -> _Found:
        """The level-7 step: these units force cell x (a star if `star`, else empty)."""
        grid = self.grid
        verdict = "a star" if star else "empty"
        cannot = "cannot all get their stars" if len(units) > 1 else "cannot get its stars"
        return _Found(
            "unsat-core",
            7,
            units,
            view.marks_in(units),
            frozenset({x}) if star else frozenset(),
            frozenset() if star else frozenset({x}),
            f"{_units_phrase(grid, units)} {cannot} unless {grid.where(x)} is {verdict}",
        )

    def _smaller_core(
        self, prover: Solver, core: list[Rule], literals: list[int], proofs: _Budget
    ) -> tuple[int, ...]:
        """A core's units less those it can do without (one proof each, while proofs last)."""
        needed = [u for u in core if u[0] != "notouch"]
        for unit in list(needed):
            if unit not in needed:
                continue
            if not proofs.spend(1):
                break
            trial = [u for u in needed if u != unit]
            off = [u for u in self._unit_names if u not in trial]
            on = [*trial, ("notouch", ())]
            smaller = prover.core(
                on, off, self._left(), literals=literals, conflicts=CORE_CONFLICTS
            )
            if smaller is not None:  # its core may drop more units at once
                needed = [u for u in trial if u in smaller]
        return tuple(sorted(self._unit_names[u] for u in needed))


def next_step(
    board: Board,
    state: State | None = None,
    *,
    max_level: int = 7,
    programs: tuple[HintProgram, ...] = (),
) -> Step | None:
    """The next logical step on a board from a state of marks (None when none applies).

    `programs`: hint programs added to the ladder (starbattle.logic.programs).
    """
    return Logic(board, programs).next_step(state, max_level)


def explain(
    board: Board,
    state: State | None = None,
    *,
    max_level: int = 7,
    programs: tuple[HintProgram, ...] = (),
) -> Trace:
    """Every step from a state until the board is solved or no level up to `max_level` applies."""
    return Logic(board, programs).explain(state, max_level)
