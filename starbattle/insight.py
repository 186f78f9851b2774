"""Insight into a board: the cells every solution agrees on, and why there is no solution.

Returns data (the CLI formats it). Uses the solver's brave and cautious consequences, and
unsatisfiable cores of encodings/explain.lp, where every rule unit is an assumption.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from starbattle.board import Board, Cell
from starbattle.check import Violation, check
from starbattle.encodings import encodings_dir
from starbattle.facts import (
    GIVEN_BLANK,
    GIVEN_STAR,
    UNIT_COLUMN,
    UNIT_KINDS,
    UNIT_NOTOUCH,
    UNIT_REGION,
    UNIT_ROW,
    region_terms,
)
from starbattle.solver import Solver, Unit
from starbattle.words import listing, plural


@dataclass(frozen=True)
class Fixed:
    """Cells decided alike by every solution."""

    size: int
    stars: frozenset[Cell]
    """Cells that hold a star in every solution."""
    blanks: frozenset[Cell]
    """Cells that are empty in every solution (blocked cells included)."""

    @property
    def open(self) -> frozenset[Cell]:
        """Cells that some solutions fill and others leave empty."""
        every = {(r, c) for r in range(1, self.size + 1) for c in range(1, self.size + 1)}
        return frozenset(every - self.stars - self.blanks)

    def summary(self) -> str:
        """E.g. '31 of 100 cells decided; 69 open'."""
        total = self.size * self.size
        return f"{total - len(self.open)} of {total} cells decided; {len(self.open)} open"


def fixed_cells(board: Board, timeout: float | None = None, **options: object) -> Fixed | None:
    """The cells every solution agrees on; None when the board has no solution."""
    return fixed_by(Solver(board, **options), timeout)  # type: ignore[arg-type]


def fixed_by(solver: Solver, timeout: float | None = None) -> Fixed | None:
    """The cells every solution agrees on, from a grounded solver; None when none exists."""
    brave = solver.consequences("brave", timeout)
    cautious = solver.consequences("cautious", timeout)
    if brave is None or cautious is None:
        return None
    size = solver.board.size
    every = {(r, c) for r in range(1, size + 1) for c in range(1, size + 1)}
    return Fixed(size, frozenset(cautious), frozenset(every - brave))


@dataclass(frozen=True)
class Explanation:
    """A smallest set of rules that cannot all hold, said in words."""

    units: tuple[Unit, ...]
    """Row, column and region quotas, the no-touch rule and givens; dropping any one of
    them leaves a board with a solution."""
    names: tuple[str, ...]
    """The units for people: 'row 3', 'region B', 'given star (1,2)', 'no-touch rule'."""
    sentence: str
    cells: frozenset[Cell]
    """The cells of those units, to highlight."""


def why_unsat(board: Board) -> Explanation | None:
    """Why the board has no solution (None when it has one), under the default rules."""
    solver = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
    every = solver.units()
    core = solver.core(every)
    if core is None:
        return None
    # Deletion-based minimising from two orders (lines first; regions first), keeping the
    # smaller result: what is left tends to be the few units a person would name.
    needed = min(
        (_minimise(solver, sorted(core, key=order), every) for order in (_order, _regions_first)),
        key=len,
    )
    labels = {term: label for label, term in region_terms(board).items()}
    units = tuple(sorted(needed, key=_order))
    names = tuple(_name(unit, labels) for unit in units)
    return Explanation(units, names, describe(board, units, labels), _cells(board, units, labels))


def _name(unit: Unit, labels: dict[str, str]) -> str:
    """A unit for people."""
    name, arguments = unit
    if name == UNIT_NOTOUCH:
        return "no-touch rule"
    if name == UNIT_REGION:
        return f"region {labels[str(arguments[0])]}"
    if name in (GIVEN_STAR, GIVEN_BLANK):
        return f"{name.replace('_', ' ')} ({arguments[0]},{arguments[1]})"
    return f"{name} {arguments[0]}"


def _minimise(
    solver: Solver, core: list[Unit], every: list[Unit], always: tuple[Unit, ...] = ()
) -> list[Unit]:
    """Drop the units of a core in turn, keeping each one without which the rest solve.

    Units in `always` stay on throughout and are never dropped; all others are off.
    """
    needed = [unit for unit in core if unit not in always]
    for unit in list(needed):
        if unit not in needed:
            continue
        trial = [other for other in needed if other != unit]
        off = [other for other in every if other not in trial and other not in always]
        smaller = solver.core([*trial, *always], off=off)
        if smaller is not None:
            needed = [other for other in trial if other in set(smaller)]
    return needed


def _regions_first(unit: Unit) -> tuple[int, tuple[str, ...]]:
    """Units in the order regions, rows, columns, givens, no-touch."""
    rank, key = _order(unit)
    return (0 if unit[0] == UNIT_REGION else rank + 1), key


def _order(unit: Unit) -> tuple[int, tuple[str, ...]]:
    """Units in the order rows, columns, regions, givens, no-touch."""
    return UNIT_KINDS.index(unit[0]), tuple(str(argument).zfill(9) for argument in unit[1])


def _cells(board: Board, units: tuple[Unit, ...], labels: dict[str, str]) -> frozenset[Cell]:
    """The cells a set of units speaks of."""
    cells: set[Cell] = set()
    regions = board.region_cells()
    n = range(1, board.size + 1)
    for name, arguments in units:
        if name == UNIT_ROW:
            cells |= {(int(arguments[0]), c) for c in n}
        elif name == UNIT_COLUMN:
            cells |= {(r, int(arguments[0])) for r in n}
        elif name == UNIT_REGION:
            cells |= set(regions[labels[str(arguments[0])]])
        elif name in (GIVEN_STAR, GIVEN_BLANK):
            cells.add((int(arguments[0]), int(arguments[1])))
    return frozenset(cells)


def describe(board: Board, units: tuple[Unit, ...], labels: dict[str, str]) -> str:
    """A sentence for people saying why these units cannot all hold."""
    s = board.stars
    rows = [int(a[0]) for name, a in units if name == UNIT_ROW]
    columns = [int(a[0]) for name, a in units if name == UNIT_COLUMN]
    regions = [labels[str(a[0])] for name, a in units if name == UNIT_REGION]
    givens = [
        (name, (int(a[0]), int(a[1]))) for name, a in units if name in (GIVEN_STAR, GIVEN_BLANK)
    ]
    notouch = any(name == UNIT_NOTOUCH for name, _ in units)
    cells = board.region_cells()
    for word, lines in (("row", rows), ("column", columns)):
        other = columns if word == "row" else rows
        if regions and lines and not other and not givens:
            inside = {(r, c) for label in regions for r, c in cells[label]}
            line_cells = {(r, c) for r, c in inside if (r if word == "row" else c) in lines}
            where = listing(word, [str(line) for line in lines])
            them = listing("region", regions)
            hold = "holds" if len(lines) == 1 else "hold"
            holds = "holds" if len(regions) == 1 else "hold"
            lie = "lies" if len(regions) == 1 else "lie"
            lines_lie = "lies" if len(lines) == 1 else "lie"
            if inside == line_cells and len(regions) > len(lines):
                return (
                    f"{them} {lie} entirely in {where} and need {len(regions)} x {s} = "
                    f"{plural(len(regions) * s, 'star')} there, but {where} {hold} only "
                    f"{len(lines)} x {s} = {len(lines) * s}"
                )
            if len(lines) > len(regions):
                everything = {
                    (r, c)
                    for r in range(1, board.size + 1)
                    for c in range(1, board.size + 1)
                    if (r if word == "row" else c) in lines
                }
                if everything <= inside:
                    return (
                        f"{where} {lines_lie} entirely in {them} and need "
                        f"{len(lines)} x {s} = {plural(len(lines) * s, 'star')} there, but "
                        f"{them} {holds} only {len(regions)} x {s} = {len(regions) * s}"
                    )
    if notouch and len(givens) >= 2 and not (rows or columns or regions):
        places = [f"({r},{c})" for _, (r, c) in givens]
        return f"the given stars at {' and '.join(places)} touch"
    if notouch and len(regions) == 1 and not (rows or columns or givens):
        return (
            f"region {regions[0]} ({len(cells[regions[0]])} cells) cannot hold "
            f"{plural(s, 'star')} without two of them touching"
        )
    if notouch and len(regions) > 1 and not (rows or columns or givens):
        each = f"cannot each hold {plural(s, 'star')} without two stars touching"
        return f"{listing('region', regions)} {each}"
    parts = []
    if rows:
        parts.append(listing("row", [str(r) for r in rows]))
    if columns:
        parts.append(listing("column", [str(c) for c in columns]))
    if regions:
        parts.append(listing("region", regions))
    named = ", ".join(parts) if parts else "the givens"
    extra = [
        f"the given {'star' if name == GIVEN_STAR else 'blank'} at ({r},{c})"
        for name, (r, c) in givens
    ]
    rule = " with no two stars touching" if notouch else ""
    given_text = f" together with {', '.join(extra)}" if extra and parts else ""
    return f"{named} cannot all have {plural(s, 'star')} each{rule}{given_text}"


@dataclass(frozen=True)
class PartialCheck:
    """What a partial answer (stars, cells marked empty, the rest undecided) amounts to."""

    violations: tuple[Violation, ...]
    """Rules the marks already break."""
    extendable: bool
    """Whether some solution agrees with every mark."""
    conflict: tuple[tuple[str, Cell], ...]
    """When not extendable: a smallest set of marks ('star' or 'blank', cell) that cannot
    all hold together; dropping any one of them leaves marks that some solution keeps."""
    first_wrong: tuple[str, Cell] | None
    """With a unique solution and `against_solution`: the first mark, in reading order,
    that the solution contradicts."""


def check_partial(
    board: Board, stars: Iterable[Cell], blanks: Iterable[Cell], *, against_solution: bool = False
) -> PartialCheck:
    """Check a partial answer: broken rules, whether it can still be completed, and why not."""
    stars, blanks = set(stars), set(blanks)
    violations = tuple(check(board, stars, blanks))
    marked = Board(
        board.regions,
        board.stars,
        board.given_stars | stars,
        board.given_blanks | blanks,
        board.name,
    )
    solver = Solver(marked, encoding=str(encodings_dir() / "explain.lp"))
    every = solver.units()
    rules = [unit for unit in every if unit[0] not in (GIVEN_STAR, GIVEN_BLANK)]
    core = solver.core(every)
    conflict: tuple[tuple[str, Cell], ...] = ()
    if core is not None:
        needed = _minimise(solver, core, every, always=tuple(rules))
        conflict = tuple(
            sorted(
                ("star" if name == GIVEN_STAR else "blank", (int(a[0]), int(a[1])))
                for name, a in needed
            )
        )
    first_wrong = None
    if against_solution:
        solutions = list(Solver(board).solutions(2))
        if len(solutions) == 1:
            truth = set(solutions[0].stars)
            wrong = sorted(
                [(cell, "star") for cell in stars - truth]
                + [(cell, "blank") for cell in blanks & truth]
            )
            first_wrong = (wrong[0][1], wrong[0][0]) if wrong else None
    return PartialCheck(violations, core is None, conflict, first_wrong)
