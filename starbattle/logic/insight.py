"""Insight into a board: the cells every solution agrees on, and why there is no solution.

Returns data (the CLI formats it). Uses the solver's brave and cautious consequences, and
unsatisfiable cores of encodings/explain.lp, where every rule unit is an assumption. Each
query takes a time limit for all of its clingo calls together; a limit reached is a field of
the result (what was proved so far), never an exception.
"""

from __future__ import annotations

from collections.abc import Iterable

from starbattle.asp.encodings import encodings_dir
from starbattle.asp.facts import (
    GIVEN_BLANK,
    GIVEN_STAR,
    UNIT_COLUMN,
    UNIT_KINDS,
    UNIT_NOTOUCH,
    UNIT_REGION,
    UNIT_ROW,
    region_terms,
)
from starbattle.asp.solver import Rule, Solver
from starbattle.limits import TimeLimitReached, deadline_after, time_left
from starbattle.logic.minimise import smaller_core
from starbattle.model.board import Board, Cell
from starbattle.model.checker import check
from starbattle.model.units import Unit, region_names
from starbattle.model.values import Explanation, Fixed, PartialCheck
from starbattle.words import joined, listing, numbered, plural


def fixed_cells(board: Board, timeout: float | None = None, **options: object) -> Fixed | None:
    """The cells every solution agrees on; None when the board has no solution.

    Within `timeout` seconds in all (see fixed_by).
    """
    deadline = deadline_after(timeout)
    solver = Solver(board, ground_timeout=timeout, **options)  # type: ignore[arg-type]
    return _fixed(solver, deadline)


def fixed_by(solver: Solver, timeout: float | None = None) -> Fixed | None:
    """The cells every solution agrees on, from a grounded solver; None when none exists.

    Within `timeout` seconds in all; after it, a Fixed that is not `complete`, holding the
    blanks when the brave consequences were done in time (a search cut short proves no
    cell a star or a blank).
    """
    return _fixed(solver, deadline_after(timeout))


def _fixed(solver: Solver, deadline: float | None) -> Fixed | None:
    """fixed_by with a deadline."""
    size = solver.board.size
    every = {(r, c) for r in range(1, size + 1) for c in range(1, size + 1)}
    blanks: frozenset[Cell] = frozenset()
    try:
        brave = _consequences(solver, "brave", deadline)
        if brave is None:
            return None
        blanks = frozenset(every - brave)
        cautious = _consequences(solver, "cautious", deadline)
    except TimeLimitReached:
        return Fixed(size, frozenset(), blanks, complete=False)
    return Fixed(size, frozenset(cautious or ()), blanks)


def _consequences(solver: Solver, kind: str, deadline: float | None) -> frozenset[Cell] | None:
    """Solver.consequences within a deadline; raises TimeLimitReached when cut short."""
    found = solver.consequences(kind, time_left(deadline))
    if solver.last.timed_out:
        raise TimeLimitReached
    return found


def _core(board: Board, deadline: float | None) -> tuple[Solver, list[Rule], list[Rule] | None]:
    """The explanation program's solver, its rule units, and an unsatisfiable core of them."""
    solver = Solver(board, encoding=str(encodings_dir() / "explain.lp"))
    every = solver.units()
    return solver, every, solver.core(every, timeout=time_left(deadline))


def unsat_rules(board: Board, timeout: float | None = None) -> list[Rule] | None:
    """Rules that cannot all hold, not necessarily a smallest set (None: there is a solution).

    Raises TimeLimitReached when `timeout` seconds pass first.
    """
    return _core(board, deadline_after(timeout))[2]


def why_unsat(board: Board, timeout: float | None = None) -> Explanation | None:
    """Why the board has no solution (None when it has one), under the default rules.

    Raises TimeLimitReached when `timeout` seconds pass first.
    """
    deadline = deadline_after(timeout)
    solver, every, core = _core(board, deadline)
    if core is None:
        return None
    # Deletion-based minimising from two orders (lines first; regions first), keeping the
    # smaller result: what is left tends to be the few units a person would name.
    needed = min(
        (
            smaller_core(solver, sorted(core, key=order), every, deadline=deadline)
            for order in (_order, _regions_first)
        ),
        key=len,
    )
    labels = {term: label for label, term in region_terms(board).items()}
    units = tuple(sorted(needed, key=_order))
    names = tuple(_name(board, unit, labels) for unit in units)
    sentence = describe(board, units, labels)
    return Explanation(
        units, names, sentence[:1].upper() + sentence[1:], _cells(board, units, labels)
    )


def _name(board: Board, unit: Rule, labels: dict[str, str]) -> str:
    """A unit for people, a region as the board shows it ('region B', 'the red region')."""
    name, arguments = unit
    if name == UNIT_NOTOUCH:
        return "no-touch rule"
    if name == UNIT_REGION:
        return Unit("region", labels[str(arguments[0])]).name(board)
    if name in (GIVEN_STAR, GIVEN_BLANK):
        return f"{name.replace('_', ' ')} ({arguments[0]},{arguments[1]})"
    return f"{name} {arguments[0]}"


def _regions_first(unit: Rule) -> tuple[int, tuple[str, ...]]:
    """Units in the order regions, rows, columns, givens, no-touch."""
    rank, key = _order(unit)
    return (0 if unit[0] == UNIT_REGION else rank + 1), key


def _order(unit: Rule) -> tuple[int, tuple[str, ...]]:
    """Units in the order rows, columns, regions, givens, no-touch."""
    return UNIT_KINDS.index(unit[0]), tuple(str(argument).zfill(9) for argument in unit[1])


def _cells(board: Board, units: tuple[Rule, ...], labels: dict[str, str]) -> frozenset[Cell]:
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


def _regions(board: Board, labels: list[str]) -> str:
    """'region B', 'regions A and C', 'the red and blue regions': as the board shows them."""
    if board.words:
        words = [board.words[label] for label in labels]
        return f"the {joined(words)} region{'s' if len(words) > 1 else ''}"
    names = region_names(board)
    return listing("region", [names[label] for label in labels])


def describe(board: Board, units: tuple[Rule, ...], labels: dict[str, str]) -> str:
    """A sentence saying why these units cannot all hold (regions as the board shows them)."""
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
            where = numbered(word, lines)
            them = _regions(board, regions)
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
            f"{_regions(board, regions)} ({len(cells[regions[0]])} cells) cannot hold "
            f"{plural(s, 'star')} without two of them touching"
        )
    if notouch and len(regions) > 1 and not (rows or columns or givens):
        each = f"cannot each hold {plural(s, 'star')} without two stars touching"
        return f"{_regions(board, regions)} {each}"
    parts = []
    if rows:
        parts.append(numbered("row", rows))
    if columns:
        parts.append(numbered("column", columns))
    if regions:
        parts.append(_regions(board, regions))
    named = ", ".join(parts) if parts else "the givens"
    extra = [
        f"the given {'star' if name == GIVEN_STAR else 'blank'} at ({r},{c})"
        for name, (r, c) in givens
    ]
    rule = " with no two stars touching" if notouch else ""
    given_text = f" together with {', '.join(extra)}" if extra and parts else ""
    return f"{named} cannot all have {plural(s, 'star')} each{rule}{given_text}"


def check_partial(
    board: Board,
    stars: Iterable[Cell],
    blanks: Iterable[Cell],
    *,
    against_solution: bool = False,
    timeout: float | None = None,
) -> PartialCheck:
    """Check a partial answer: broken rules, whether it can still be completed, and why not.

    Within `timeout` seconds for all clingo calls together; what is undecided by then is
    left out and the result is not `complete`.
    """
    deadline = deadline_after(timeout)
    stars, blanks = set(stars), set(blanks)
    violations = tuple(check(board, stars, blanks))
    marked = Board(
        board.regions,
        board.stars,
        board.given_stars | stars,
        board.given_blanks | blanks,
        board.name,
    )
    extendable: bool | None = None
    conflict: tuple[tuple[str, Cell], ...] = ()
    first_wrong = None
    try:
        explain = str(encodings_dir() / "explain.lp")
        solver = Solver(marked, encoding=explain, ground_timeout=time_left(deadline))
        every = solver.units()
        rules = tuple(unit for unit in every if unit[0] not in (GIVEN_STAR, GIVEN_BLANK))
        core = solver.core(every, timeout=time_left(deadline))
        extendable = core is None
        if core is not None:
            conflict = _marks(core)
            conflict = _marks(smaller_core(solver, core, every, rules, deadline))
        if against_solution:
            first_wrong = _first_wrong(board, stars, blanks, deadline)
    except TimeLimitReached:
        return PartialCheck(violations, extendable, conflict, first_wrong, complete=False)
    return PartialCheck(violations, extendable, conflict, first_wrong)


def _marks(units: list[Rule]) -> tuple[tuple[str, Cell], ...]:
    """The given-star and given-blank units of a core as sorted marks."""
    return tuple(
        sorted(
            ("star" if name == GIVEN_STAR else "blank", (int(a[0]), int(a[1])))
            for name, a in units
            if name in (GIVEN_STAR, GIVEN_BLANK)
        )
    )


def _first_wrong(
    board: Board, stars: set[Cell], blanks: set[Cell], deadline: float | None
) -> tuple[str, Cell] | None:
    """The first mark in reading order that the board's unique solution contradicts, if any."""
    solver = Solver(board, ground_timeout=time_left(deadline))
    solutions = list(solver.solutions(2, time_left(deadline)))
    if solver.last.timed_out:
        raise TimeLimitReached
    if len(solutions) != 1:
        return None
    truth = set(solutions[0].stars)
    wrong = sorted(
        [(cell, "star") for cell in stars - truth] + [(cell, "blank") for cell in blanks & truth]
    )
    return (wrong[0][1], wrong[0][0]) if wrong else None
