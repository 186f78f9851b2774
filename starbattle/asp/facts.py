"""Board -> ASP facts, and answer-set symbols -> cells: the only place predicate names live."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from starbattle.limits import MAX_DIGITS
from starbattle.model.board import Board, Cell
from starbattle.model.units import Unit

SIZE = "size"
STARS = "stars"
REGION = "region"
BLOCKED = "blocked"
GIVEN_STAR = "given_star"
GIVEN_BLANK = "given_blank"
STAR = "star"
KING_RULE = "king_rule"
"""king_rule: the program holds the king rule (stars never touch), defined by notouch.lp."""
PLANTED = "planted"
"""planted(R,C): a star of the solution the generator planted (a fact of its repair program)."""
DIFFERS = "differs"
"""differs(R,C): a solution and the planted one differ at this cell (the repair program)."""
ACTIVE = "active"
"""active(U): the rule unit U holds (externals of encodings/explain.lp). Units are named by:"""
UNIT_ROW, UNIT_COLUMN, UNIT_REGION, UNIT_NOTOUCH = "row", "column", "region", "notouch"
UNIT_KINDS = (UNIT_ROW, UNIT_COLUMN, UNIT_REGION, GIVEN_STAR, GIVEN_BLANK, UNIT_NOTOUCH)
"""Every kind of unit, in the order explanations name them."""
MARKED_STAR, MARKED_BLANK = "marked_star", "marked_blank"
"""marked_star(R,C), marked_blank(R,C): a state's marks, read by the hint programs."""
CONCLUDE, PREMISE_UNIT, PREMISE_CELL, TECHNIQUE = (
    "conclude",
    "premise_unit",
    "premise_cell",
    "technique",
)
"""The hint programs' output (encodings/hints/state.lp): conclude(star|blank,R,C),
premise_unit(row(R)|column(C)|region(K)), premise_cell(R,C), technique(NAME)."""
CONCLUDED = {"star": True, "blank": False}
"""conclude/3's first argument: whether the cell holds a star."""

INSTANCE_PREDICATES: dict[str, int] = {
    SIZE: 1,
    STARS: 1,
    REGION: 3,
    BLOCKED: 2,
    GIVEN_STAR: 2,
    GIVEN_BLANK: 2,
}
"""The predicates an instance file may hold, with their arities (DESIGN's fact interface)."""

_CONSTANT = re.compile(r"(?!not\Z)[a-z][A-Za-z0-9_']*\Z")
"""A lowercase ASP constant; `not` is a keyword, not a constant."""
_INTEGER = re.compile(rf"(0|-?[1-9][0-9]{{0,{MAX_DIGITS - 1}}})\Z")
"""An integer small enough for clingo's 32-bit numbers (larger ones would wrap around)."""


class SymbolLike(Protocol):
    """What facts needs of a clingo Symbol (kept structural so that clingo is not imported)."""

    @property
    def arguments(self) -> list[SymbolLike]: ...  # noqa: D102

    @property
    def number(self) -> int: ...  # noqa: D102


def region_terms(board: Board) -> dict[str, str]:
    """Map each region label to the ASP term that names it in facts.

    Labels that are already lowercase constants or integers of at most MAX_DIGITS digits stay;
    otherwise letters are lowercased when that keeps them apart; otherwise regions are
    numbered 1..N in order of first appearance (so that labels 1 and 4294967297, equal in
    clingo's 32-bit integers, stay two regions).
    """
    labels = board.region_labels
    if all(_CONSTANT.match(label) or _INTEGER.match(label) for label in labels):
        return {label: label for label in labels}
    lowered = {label: label.lower() for label in labels}
    if len(set(lowered.values())) == len(labels) and all(
        _CONSTANT.match(term) for term in lowered.values()
    ):
        return lowered
    return {label: str(index) for index, label in enumerate(labels, start=1)}


def board_facts(board: Board) -> str:
    """The board as ASP facts, one line per row of the board."""
    terms = region_terms(board)
    lines = [f"{SIZE}({board.size}).", f"{STARS}({board.stars})."]
    for r, row in enumerate(board.regions, start=1):
        lines.append(
            " ".join(
                f"{BLOCKED}({r},{c})." if label is None else f"{REGION}({r},{c},{terms[label]})."
                for c, label in enumerate(row, start=1)
            )
        )
    return "\n".join(lines) + "\n" + given_facts(board)


def shape_facts(size: int, stars: int) -> str:
    """Facts for every board of a size and star count: regions and givens are externals.

    Regions are numbered 1..N; a board switches its own region/3 and given atoms on.
    """
    n = f"1..{size}"
    return (
        f"{SIZE}({size}). {STARS}({stars}).\n"
        f"#external {REGION}(R,C,K) : R={n}, C={n}, K={n}.\n"
        f"#external {GIVEN_STAR}(R,C) : R={n}, C={n}.\n"
        f"#external {GIVEN_BLANK}(R,C) : R={n}, C={n}.\n"
    )


def switched_facts(size: int, stars: int, candidates: dict[Cell, list[int]]) -> str:
    """Facts of boards whose region membership is switched (asp.switched): one external each.

    Each cell's candidate regions (its own and those near it) are external atoms.
    """
    lines = [f"{SIZE}({size}). {STARS}({stars})."]
    lines += [
        " ".join(f"#external {REGION}({r},{c},{k})." for k in regions)
        for (r, c), regions in candidates.items()
    ]
    return "\n".join(lines) + "\n"


def planted_facts(planted: list[Cell]) -> str:
    """The repair program's planted stars (encodings/repair/differs.lp), on one line."""
    return " ".join(f"{PLANTED}({r},{c})." for r, c in planted) + "\n"


def given_facts(board: Board) -> str:
    """The board's given stars and blanks as facts, one line each kind (empty without any)."""
    lines = [
        " ".join(f"{name}({r},{c})." for r, c in sorted(cells))
        for name, cells in ((GIVEN_STAR, board.given_stars), (GIVEN_BLANK, board.given_blanks))
        if cells
    ]
    return "".join(line + "\n" for line in lines)


def state_facts(stars: Iterable[Cell], blanks: Iterable[Cell]) -> str:
    """A state's marks as `marked_star(R,C).` and `marked_blank(R,C).` facts on one line."""
    marks = [(MARKED_STAR, cell) for cell in sorted(stars)]
    marks += [(MARKED_BLANK, cell) for cell in sorted(blanks)]
    return " ".join(f"{name}({r},{c})." for name, (r, c) in marks)


def star_facts(stars: list[Cell] | tuple[Cell, ...]) -> str:
    """Stars as `star(R,C).` facts on one line."""
    return " ".join(f"{STAR}({r},{c})." for r, c in stars)


def star_cell(symbol: SymbolLike) -> Cell:
    """The cell of a `star(R,C)` symbol."""
    row, column = symbol.arguments
    return (row.number, column.number)


def unit_term(board: Board, unit: Unit) -> tuple[str, tuple[int | str]]:
    """A unit's term in the programs' facts, as plain values: ("row", (3,)), ("region", ("b",))."""
    if unit.kind == UNIT_REGION:
        return UNIT_REGION, (region_terms(board)[str(unit.key)],)
    return unit.kind, (int(unit.key),)


def unit_of_rule(board: Board, rule: tuple[str, tuple[object, ...]]) -> Unit | None:
    """The unit a rule of the programs is about (None: no unit, e.g. the no-touch rule)."""
    kind, arguments = rule
    if kind in (UNIT_ROW, UNIT_COLUMN) and len(arguments) == 1:
        return Unit(kind, int(str(arguments[0])))
    if kind == UNIT_REGION and len(arguments) == 1:
        labels = {term: label for label, term in region_terms(board).items()}
        return Unit(UNIT_REGION, labels[str(arguments[0])])
    return None
