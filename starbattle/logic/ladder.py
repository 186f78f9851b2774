"""The hint ladder: the next logical step on a board, said in words, and whole traces of steps.

Levels, each tried only when every lower one has nothing to say:
0 mistakes (a mark breaks a rule or contradicts the solution), 1 around a star and full
units, 2 forced fill, 3 2x2 blocks, 4 a star that would leave a unit too little room,
5 confinement (k units inside k units) and then, one at a time, the costly container
techniques (starbattle.logic.containers: bands and the units by them, tiled, counted and
excluded against), set differentials, a star forcing clashing 2x2 tilings (in one round, or
in two: a cascade), the M and pressured T, n-rooks, entanglement, unit and pair enumeration,
6 one assumption refuted by levels 1-5, with its chain of steps (starbattle.logic.trial;
and, only when asked, uniqueness: steps that assume one solution), 7 a smallest set of units
whose clingo unsatisfiable core forces cells. Each technique is a row of
starbattle.logic.registry, its function in a module of its level's own; this runs them in
order, within their budgets, and holds the clingo checker they share.

Levels 1-6 are Python over sets of cell numbers (starbattle.logic.grid), not ASP programs:
level 6 applies levels 1-5 to thousands of hypothetical states per step, and one clingo
solve with assumptions on a board grounded once costs ~3 ms (10x10, measured) against ~0.1
ms for the fixpoint of levels 1-2 here. Levels 0 and 7 and the soundness checks use clingo
(encodings/explain.lp) with the marks as assumptions. Level 0's solutions spare work: a
technique refuting a star skips a solution's stars (View.seen_star), level 6 and 7 a side.

encodings/hints/ states levels 1-5 a second time, as ASP programs (one per technique, its
answer sets the deductions), and the tests keep the two in step; the Python is the engine,
for speed (one program run costs 6-65 ms at 10x10 2-star, a technique here 0.1-5 ms). A
user's hint program (starbattle.logic.programs) joins the ladder at its header's level,
after the built-in techniques there, every conclusion proved by clingo.

Lowest level, precisely: levels 0-5 always run to the end, so no step is made at a level
above one of them that applies, but for the containers, which work within CONTAINER_WORK
each per step and give up a cover search after COVER_NODES cell sets (on the largest boards
they may leave some untried). Level 6 runs to the end for refutations by levels 1-2 (every
undecided cell, each side no known solution takes) and within ASSUMPTION_WORK for those
using levels 3-5; level 7 within CORE_PROOFS. A spent budget can only make level 6 miss a
refutation (the step then comes from level 7); it never lifts a step above a level 0-5
deduction. Budgets count work, not seconds: a board and state always give the same step.
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
from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.minimise import NO_TOUCH, Budget
from starbattle.logic.registry import ASSUMING, BY_NAME, COSTLY, FUNCTIONS, LEVELS
from starbattle.logic.sentences import outcome, units_phrase
from starbattle.model.board import Board
from starbattle.model.checker import check
from starbattle.model.steps import State, Step, Trace

if TYPE_CHECKING:
    from starbattle.logic.programs import HintProgram

ASSUMPTION_WORK = 500_000
"""Level 6: the work chains using levels 3-5 may do in one step, where a round of levels
3-5 costs its undecided cells times the board's size (roughly what levels 4 and 5 scan)."""
CORE_PROOFS = 3_000
"""Level 7: how many proofs one step may make while it makes cores smaller, divided by the
board's size (larger boards take longer per proof)."""
CONTAINER_WORK = 400_000
"""Level 5's costly techniques (containers): the work they may do together in one step, where
a 2x2 cover asked of a container costs its undecided cells (roughly what the search scans)."""
CHECKER_FORGET = "--forget-on-step=varScores,signs,lemmaScores,lemmas"
"""The checker's clasp forgets its nogoods and heuristic scores between proofs. Nogoods kept
from earlier proofs name units those proofs used, so level-7 cores grew, and the growing
store slowed every proof as a trace went on (17x17 4-star sbl-0370: its trace 280 s -> 14 s
of CPU, level-7 cores 33 -> 28 units at the median)."""


@dataclass
class Logic:
    """A board's hint engine: its geometry, its solution and a clingo checker, made once."""

    board: Board
    programs: tuple[HintProgram, ...] = ()
    """Hint programs added to the ladder, each tried at its level after the built-in ones."""
    deadline: float | None = None
    """The perf_counter time after which every question raises TimeLimitReached (None: no
    limit). It only ever stops work: a step found before it is the step found without it."""
    assume_unique: bool = False
    """Let techniques assume the puzzle has one solution (uniqueness): a person may, a checker
    may not, so it is asked for; their steps say so (Step.assumes)."""
    grid: Grid = field(init=False, repr=False)
    refutable: list[tuple[int, bool, int]] = field(init=False, repr=False, default_factory=list)
    """Level 6's last refutations: (cell, assumed a star, highest level its chain used)."""

    def __post_init__(self) -> None:
        """Lay out the board's units."""
        self.grid = Grid(self.board, self.deadline)

    # -- the solution and the clingo checker (levels 0 and 7, soundness) ------------------

    @cached_property
    def checker(self) -> Solver:
        """The board under encodings/explain.lp, grounded once (for level 0 and the audit)."""
        return self.ground_checker()

    def ground_checker(self) -> Solver:
        """The board under encodings/explain.lp, grounded anew: every rule a switchable unit.

        From BANDS_FROM stars on, the guarded band and box counts (its part `implied`) come
        too: at 21x21 5 stars they make the level-7 proofs several times faster. Its clasp
        forgets what it learnt between proofs (CHECKER_FORGET). Grounding is deterministic,
        so every grounding has the same literals (`literals`).
        """
        bare = Board(self.board.regions, self.board.stars, name=self.board.name)
        parts = ("implied",) if bare.stars >= BANDS_FROM else ()
        return Solver(
            bare,
            encoding=str(encodings_dir() / "explain.lp"),
            parts=parts,
            clingo_args=(CHECKER_FORGET,),
            ground_timeout=self.left(),
        )

    def left(self) -> float | None:
        """Seconds left before the deadline (None: no limit); TimeLimitReached once past."""
        return time_left(self.deadline)

    @cached_property
    def literals(self) -> dict[int, int]:
        """The checker's star literal of every cell number."""
        n = self.grid.n
        return {(r - 1) * n + c - 1: lit for (r, c), lit in self.checker.star_literals().items()}

    @cached_property
    def unit_numbers(self) -> dict[Rule, int]:
        """The checker's rules of rows, columns and regions, each with its unit's number."""
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
        solver = Solver(self.board, ground_timeout=self.left())
        found = list(solver.solutions(2, self.left()))
        if solver.last.timed_out:
            raise TimeLimitReached
        return [frozenset((r - 1) * n + c - 1 for r, c in solution.stars) for solution in found]

    def rules(self) -> list[Rule]:
        """Every rule of the checker: those of the rows, columns and regions, and no-touch."""
        return [*self.unit_numbers, NO_TOUCH]

    def assume(self, stars: Iterable[int], blanks: Iterable[int]) -> list[int]:
        """Checker literals saying these cells are stars and these are empty."""
        return [self.literals[i] for i in stars] + [-self.literals[i] for i in blanks]

    def budget(self, level: int) -> Budget:
        """The work level 6 (ASSUMPTION_WORK) or 7 (CORE_PROOFS) may do in one search."""
        return Budget(ASSUMPTION_WORK if level == 6 else CORE_PROOFS // self.grid.n, self.deadline)

    def container_budget(self, view: View, technique: str) -> Budget:
        """The work a container technique may still do on a state (CONTAINER_WORK)."""
        budget = view.memo.setdefault(f"{technique} budget", Budget(CONTAINER_WORK, self.deadline))
        assert isinstance(budget, Budget)
        self.left()
        return budget

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
        flip = -self.literals[cell] if star else self.literals[cell]
        return not self.possible(stars, blanks, units, flip)

    def possible(
        self, stars: Iterable[int], blanks: Iterable[int], units: Iterable[int] | None, *also: int
    ) -> bool:
        """Whether the marks (and checker literals `also`) can hold under the rules.

        With `units`, only those rows, columns and regions and the no-touch rule hold.
        """
        mapping = self.unit_numbers
        wanted = set(mapping.values() if units is None else units)
        on = [unit for unit, u in mapping.items() if u in wanted]
        off = [unit for unit, u in mapping.items() if u not in wanted]
        on.append(NO_TOUCH)
        literals = [*self.assume(stars, blanks), *also]
        return self.checker.core(on, off, self.left(), literals=literals) is None

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
        if step.assumes == "unique":
            return problems + self._unique_audit(stars, blanks, conclusions)
        units = [self.grid.number[unit] for unit in step.units]
        cells = {(r - 1) * n + c - 1 for r, c in step.cells}
        for i, star in conclusions:
            if not self.entails(stars, blanks, i, star):
                problems.append(f"unsound: the rules and marks do not force {self.grid.where(i)}")
            elif sound_only:
                continue
            elif not self.entails(stars & cells, blanks & cells, i, star, units):
                problems.append(f"dishonest: the premises alone do not force {self.grid.where(i)}")
        if step.chain:
            problems += self.audit_chain(stars, blanks, step)
        if not sound_only and self.next_step(state, step.level - 1) is not None:
            problems.append(f"not lowest: a step below level {step.level} applies")
        return problems

    def _unique_audit(
        self, stars: frozenset[int], blanks: frozenset[int], conclusions: list[tuple[int, bool]]
    ) -> list[str]:
        """What is unsound, given one solution, in a step that assumes it.

        Sound: with the marks and any one of its conclusions turned the other way, clingo
        finds no solution or more than one.
        """
        problems = []
        cell = self.grid.cell
        for i, star in conclusions:
            turned = (stars, blanks | {i}) if star else (stars | {i}, blanks)
            other = Board(
                self.board.regions,
                self.board.stars,
                given_stars=frozenset(cell(j) for j in turned[0]),
                given_blanks=frozenset(cell(j) for j in turned[1]),
                name=self.board.name,
            )
            found = list(Solver(other, ground_timeout=self.left()).solutions(2, self.left()))
            if len(found) == 1:
                problems.append(
                    f"unsound given one solution: {self.grid.where(i)} the other way has exactly "
                    "one solution"
                )
        return problems

    def audit_chain(self, stars: frozenset[int], blanks: frozenset[int], step: Step) -> list[str]:
        """What is wrong with a trial's chain (an empty list: nothing).

        It starts from the opposite of its conclusion (and what that marks at once); each step's
        premises (units, no-touch, premise cells' marks so far) force its other conclusions and
        can hold, but for the step before the last (its stars may touch); the last one's cannot.
        Only premises make this a check: under the assumption, rules and marks have no solution.
        """
        n, number, problems = self.grid.n, self.grid.number, []
        first, last = step.chain[0], step.chain[-1]
        if not (set(step.blanks) <= set(first.stars) and set(step.stars) <= set(first.blanks)):
            problems.append("chain: it does not start from the opposite of its conclusion")
        assumed = {*step.stars, *step.blanks}  # a premise of the chain, not a conclusion
        now_stars = set(stars) | {(r - 1) * n + c - 1 for r, c in step.blanks}
        now_blanks = set(blanks) | {(r - 1) * n + c - 1 for r, c in step.stars}
        for k, link in enumerate(step.chain, start=1):
            units = [number[unit] for unit in link.units]
            cells = {(r - 1) * n + c - 1 for r, c in link.cells}
            premises = (now_stars & cells, now_blanks & cells, units)
            if link is last:
                if self.possible(*premises):
                    problems.append(f"chain: its last step {k} breaks no rule")
            else:
                if k < len(step.chain) - 1 and not self.possible(*premises):
                    problems.append(f"chain: the premises of step {k} already break a rule")
                concluded = [(c, c in link.stars) for c in (*link.stars, *link.blanks)]
                for (r, c), star in [(c, star) for c, star in concluded if c not in assumed]:
                    if not self.entails(*premises[:2], (r - 1) * n + c - 1, star, units):
                        problems.append(f"chain: step {k}'s premises do not force ({r},{c})")
            now_stars |= {(r - 1) * n + c - 1 for r, c in link.stars}
            now_blanks |= {(r - 1) * n + c - 1 for r, c in link.blanks}
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
        self.left()
        stars, blanks = self.numbers(state or State())
        found = self._lowest(stars, blanks, max_level)
        return self._step(found[0], len(found)) if found else None

    def easiest_step(self, state: State, effort: Callable[[Step], int]) -> Step | None:
        """The next step by least effort, for a state without mistakes (None when none applies).

        The grade's order instead of the ladder's: levels 1-2 first, then the deduction of
        levels 3-5 with the least `effort` (ties: the lowest level, then the first found),
        then level 6 likewise; `available` counts the deductions of that least effort.
        """
        self.left()
        view = View(self.grid, *self.numbers(state), solutions=self.solutions)
        if not any(view.open):
            return None
        for levels in ((1, 2), (3, 4, 5), (6,)):
            steps = [
                self._step(found, 1)
                for level in levels
                for found in self.apply(level, view, costly=False)
            ]
            for level in levels if not steps else ():
                steps = [self._step(found, 1) for found in self.apply(level, view, cheap=False)]
                if steps:
                    break
            if steps:
                efforts = [effort(step) for step in steps]
                least = min(efforts)
                easiest = [step for step, e in zip(steps, efforts, strict=True) if e == least]
                return easiest[0]._replace(available=len(easiest))
        return None

    def deductions(self, state: State, technique: str) -> list[Step]:
        """Every deduction one technique (a name in the registry) makes from a state."""
        found = self.found_by(technique, View(self.grid, *self.numbers(state)))
        return [self._step(f, len(found)) for f in found]

    def found_by(self, technique: str, view: View) -> list[Found]:
        """Every deduction one technique (a name in the registry) makes from a view."""
        return [f for f in BY_NAME[technique].apply(self, view) if f.technique == technique]

    def apply(
        self, level: int, view: View, *, costly: bool = True, cheap: bool = True, alone: bool = True
    ) -> list[Found]:
        """Every deduction of the built-in techniques of a level, in the registry's order.

        Its costly techniques (the containers) run only when the others found nothing, each
        alone: the deductions of the first that has some (`alone=False`: of every one).
        `costly=False` leaves them out, `cheap=False` the others. Those that assume one
        solution run only when asked (`assume_unique`).
        """
        allowed = [a for a in FUNCTIONS[level] if self.assume_unique or a not in ASSUMING]
        found = [found for apply in allowed for found in apply(self, view)] if cheap else []
        if cheap and not found:
            view.quiet.add(level)
        for apply in COSTLY[level] if costly and not found else ():
            found += apply(self, view)
            if found and alone:
                break
        return found

    def _step(self, found: Found, available: int) -> Step:
        """A deduction in cells and names (a trial's chain too)."""
        grid = self.grid
        return Step(
            found.technique,
            BY_NAME[found.technique].level if found.level is None else found.level,
            tuple(grid.units[u] for u in found.units),
            tuple(grid.cell(i) for i in found.cells),
            tuple(grid.cell(i) for i in sorted(found.stars)),
            tuple(grid.cell(i) for i in sorted(found.blanks)),
            found.sentence[:1].upper() + found.sentence[1:],
            available,
            BY_NAME[found.technique].assumes if found.technique in BY_NAME else None,
            tuple(self._step(link, 1) for link in found.chain),
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

    def _lowest(self, stars: frozenset[int], blanks: frozenset[int], max_level: int) -> list[Found]:
        """Every deduction of the lowest level that has one (level 0, mistakes, always runs)."""
        view = View(self.grid, stars, blanks, solutions=self.solutions)
        for level in LEVELS:
            if level > max(max_level, 0):
                break
            found = self.apply(level, view) or self._programs_at(level, view)
            if found:
                return found
            if not any(view.open):  # every cell decided, and no mistake
                return []
        return []

    def _programs_at(self, level: int, view: View) -> list[Found]:
        """The deductions of the added hint programs of a level, each conclusion proved sound."""
        programs = [program for program in self.programs if program.level == level]
        if not programs:
            return []
        grid, found = self.grid, []
        number = {cell: i for i, cell in enumerate(grid.coords)}
        marks = [grid.cell(i) for i in view.stars], [grid.cell(i) for i in view.blanks]
        for program in programs:
            for deduction in program.deductions(self.board, *marks, timeout=self.left()):
                stars, blanks, cells = (
                    frozenset(number[cell] for cell in part)
                    for part in (deduction.stars, deduction.blanks, deduction.cells)
                )
                self._prove(program, view, stars, blanks)
                units = tuple(sorted(self.unit_numbers[unit] for unit in deduction.units))
                text = (
                    f"{deduction.technique} on {units_phrase(grid, units)}: "
                    f"{outcome(grid, stars, blanks)}"
                )
                premises = tuple(sorted(cells))
                found.append(
                    Found(deduction.technique, units, premises, stars, blanks, text, level)
                )
        return found

    def _prove(
        self, program: HintProgram, view: View, stars: frozenset[int], blanks: frozenset[int]
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


def next_step(
    board: Board,
    state: State | None = None,
    *,
    max_level: int = 7,
    programs: tuple[HintProgram, ...] = (),
) -> Step | None:
    """The next step on a board from a state (None: none applies); `programs`: added ones."""
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
