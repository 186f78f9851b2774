"""Hint techniques as ASP programs (encodings/hints/): read one, run it on a state, read it back.

A hint program states one technique; run with encodings/hints/state.lp on a board and its
marks, each of its answer sets is one deduction: what it concludes and the premises it rests
on (state.lp's header is the interface). The shipped programs state levels 1-5 of the hint
ladder a second time, beside the Python of starbattle.logic.ladder, and the tests keep the two in
step; the ladder runs the Python, which level 6 calls thousands of times per step. A user's
own program joins the ladder at the level its header declares (`% level: L`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple, NoReturn

from starbattle.asp.encodings import check_program, encodings_dir, header_title
from starbattle.asp.facts import (
    CONCLUDE,
    CONCLUDED,
    PREMISE_CELL,
    PREMISE_UNIT,
    TECHNIQUE,
    UNIT_COLUMN,
    UNIT_REGION,
    UNIT_ROW,
    board_facts,
    region_terms,
    state_facts,
)
from starbattle.asp.solver import Rule, Term, shown_answer_sets
from starbattle.errors import EncodingError, UsageError
from starbattle.logic.registry import LEVELS
from starbattle.model.board import Board, Cell

_LEVEL = re.compile(r"^%\s*level:(?P<level>.*)$", re.MULTILINE)
STATE_PROGRAM = "state.lp"
"""The file of encodings/hints/ that every hint program runs with: the state and its units."""
OUTPUT = (
    f"{CONCLUDE}(star|blank,R,C), {PREMISE_UNIT}(row(R)|column(C)|region(K)), "
    f"{PREMISE_CELL}(R,C), {TECHNIQUE}(NAME)"
)
"""The output atoms of a hint program, as its error messages name them."""


class Deduction(NamedTuple):
    """One answer set of a hint program: a technique's conclusions and the premises they rest on."""

    technique: str
    units: frozenset[Rule]
    """Premise units as the explanation program names them: ("row", (3,)), ("region", ("a",))."""
    cells: frozenset[Cell]
    stars: frozenset[Cell]
    blanks: frozenset[Cell]


class HintProgram(NamedTuple):
    """A technique's ASP program and what its header declares."""

    name: str
    """The file's name without `.lp`: the technique's name unless it shows technique/1."""
    path: Path
    level: int
    title: str

    @classmethod
    def from_path(cls, path: Path) -> HintProgram:
        """Read a hint program's header: its title line and its `% level: L` line."""
        if not path.is_file():
            raise UsageError(f"no such technique file: {path}")
        text = check_program(path)
        declared = _LEVEL.search(text)
        if declared is None:
            raise EncodingError(
                "the header declares no level: add a line '% level: L' (L from 1 to "
                f"{max(LEVELS)}, where the ladder tries it)",
                file=str(path),
            )
        level = declared["level"].strip()
        if not (level.isascii() and level.isdigit()) or not 1 <= int(level) <= max(LEVELS):
            raise EncodingError(
                f"level {level!r} is not on the ladder: write '% level: L' with L from 1 to "
                f"{max(LEVELS)}",
                file=str(path),
                line=text.count("\n", 0, declared.start()) + 1,
            )
        return cls(path.stem, path, int(level), header_title(text))

    def deductions(
        self,
        board: Board,
        stars: Iterable[Cell],
        blanks: Iterable[Cell],
        timeout: float | None = None,
    ) -> list[Deduction]:
        """Every deduction the program makes on a board from marks (givens count as marks).

        Conclusions about cells already so marked are left out, and so are deductions left
        with none; the rest come in reading order of their first conclusion. An atom outside
        the interface, or about a cell or unit the board does not have, is an EncodingError.
        Raises TimeLimitReached when `timeout` seconds pass first (see `shown_answer_sets`).
        """
        stars, blanks = frozenset(stars), frozenset(blanks)
        files = [str(encodings_dir() / "hints" / STATE_PROGRAM), str(self.path)]
        facts = board_facts(board) + state_facts(stars, blanks)
        reader = _Reader(self, board)
        found = []
        for atoms in shown_answer_sets(files, facts, timeout):
            deduction = reader.deduction(atoms)
            deduction = deduction._replace(
                stars=deduction.stars - stars, blanks=deduction.blanks - blanks
            )
            if deduction.stars or deduction.blanks:
                found.append(deduction)
        return sorted(
            found,
            key=lambda d: (
                min(d.stars | d.blanks),
                sorted(d.stars),
                sorted(d.blanks),
                sorted(map(str, d.units)),
            ),
        )


class _Reader:
    """Reads a hint program's shown atoms on one board into deductions, checking each."""

    def __init__(self, program: HintProgram, board: Board) -> None:
        self.program = program
        self.cells = {cell for cells in board.region_cells().values() for cell in cells}
        self.size = board.size
        self.regions = set(region_terms(board).values())

    def deduction(self, atoms: Iterable[Term]) -> Deduction:
        """The deduction one answer set states."""
        names: set[str] = set()
        units: set[Rule] = set()
        cells: set[Cell] = set()
        concluded: dict[bool, set[Cell]] = {True: set(), False: set()}
        for atom in atoms:
            name, terms = atom if isinstance(atom, tuple) else (atom, ())
            if name == CONCLUDE and len(terms) == 3 and terms[0] in CONCLUDED:
                concluded[CONCLUDED[terms[0]]].add(self._cell(atom, terms[1:], playable=True))
            elif name == PREMISE_UNIT and len(terms) == 1 and self._is_unit(terms[0]):
                units.add(terms[0])  # type: ignore[arg-type]
            elif name == PREMISE_CELL and len(terms) == 2:
                cells.add(self._cell(atom, terms, playable=False))
            elif name == TECHNIQUE and len(terms) == 1 and isinstance(terms[0], str):
                names.add(terms[0])
            else:
                self._refuse(atom, f"which is not an output atom: show only {OUTPUT}")
        if len(names) > 1:
            raise EncodingError(
                f"an answer set names the technique {len(names)} ways "
                f"({', '.join(sorted(names))}): show one technique(NAME)",
                file=str(self.program.path),
            )
        return Deduction(
            names.pop() if names else self.program.name,
            frozenset(units),
            frozenset(cells),
            frozenset(concluded[True]),
            frozenset(concluded[False]),
        )

    def _cell(self, atom: Term, terms: tuple[Term, ...], playable: bool) -> Cell:
        """The (row, column) of an atom's last two terms, which must be a cell of the board."""
        cell = terms[-2:]
        if not all(isinstance(x, int) and 1 <= x <= self.size for x in cell):
            self._refuse(atom, f"which is no cell of the {self.size}x{self.size} board")
        if playable and cell not in self.cells:
            self._refuse(atom, "which is a blocked cell: conclude only about cells in a region")
        return cell  # type: ignore[return-value]

    def _is_unit(self, term: Term) -> bool:
        """Whether a term names a row, column or region of the board."""
        if not (isinstance(term, tuple) and len(term[1]) == 1):
            return False
        kind, (number,) = term
        if kind in (UNIT_ROW, UNIT_COLUMN):
            return isinstance(number, int) and 1 <= number <= self.size
        return kind == UNIT_REGION and str(number) in self.regions

    def _refuse(self, atom: Term, why: str) -> NoReturn:
        """Raise the error of an answer set that shows a wrong atom."""
        raise EncodingError(
            f"an answer set shows {_text(atom)}, {why}", file=str(self.program.path)
        )


def _text(term: Term) -> str:
    """A term as clingo writes it (strings without their quotes)."""
    if isinstance(term, tuple):
        name, terms = term
        return f"{name}({','.join(map(_text, terms))})"
    return str(term)


def shipped_hint_programs() -> dict[str, HintProgram]:
    """The shipped hint programs by name (encodings/hints/, less state.lp)."""
    folder = encodings_dir() / "hints"
    return {
        path.stem: HintProgram.from_path(path)
        for path in sorted(folder.glob("*.lp"))
        if path.name != STATE_PROGRAM
    }


def hint_programs(paths: Iterable[str]) -> tuple[HintProgram, ...]:
    """The hint programs of some files (each once), each header read and checked."""
    return tuple(HintProgram.from_path(Path(path)) for path in dict.fromkeys(paths))
