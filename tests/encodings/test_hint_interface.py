"""The hint interface (encodings/hints/state.lp): what it defines, and that no name of it
clashes with the fact interface or the rule files, so a technique may include base rules."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest
from crafted import BOARD, PAIR
from helpers import ROOT, answer_sets

from starbattle import read_board
from starbattle.asp.facts import INSTANCE_PREDICATES, MARKED_BLANK, MARKED_STAR, PLANTED
from starbattle.errors import EncodingError
from starbattle.logic.programs import Deduction, HintProgram

ENCODINGS = ROOT / "encodings"
FACTS = (
    "size(2). stars(1). region(1,1,a). region(1,2,b). blocked(2,1). region(2,2,b). "
    "given_star(1,1). given_blank(1,2). marked_star(2,2). marked_blank(2,2)."
)
"""A board of every fact the interface reads."""
Signature = tuple[str, int]


def defined(files: list[Path], facts: str, *arguments: str) -> dict[Signature, set[str]]:
    """The atoms a program (with its `implied` part) derives on facts, by predicate, less the
    facts' own predicates."""
    control = clingo.Control(["--warn=none", *arguments])
    for path in files:
        control.load(str(path))
    control.add("base", [], facts)
    control.ground([("base", []), ("implied", [])])
    atoms: dict[Signature, set[str]] = {}
    for atom in control.symbolic_atoms:
        signature = (atom.symbol.name, len(atom.symbol.arguments))
        atoms.setdefault(signature, set()).add(str(atom.symbol))
    facts_of = {*INSTANCE_PREDICATES.items(), (MARKED_STAR, 2), (MARKED_BLANK, 2), (PLANTED, 2)}
    return {signature: found for signature, found in atoms.items() if signature not in facts_of}


def test_the_state_names_the_units_their_cells_and_the_cells_that_touch() -> None:
    shown = "#show hint_unit/1. #show unit_cell/3. #show touching/4."
    assert answer_sets([ENCODINGS / "hints" / "state.lp"], FACTS, shown) == {
        frozenset(
            {
                *("hint_unit(row(1))", "hint_unit(row(2))"),
                *("hint_unit(column(1))", "hint_unit(column(2))"),
                *("hint_unit(region(a))", "hint_unit(region(b))"),
                *("unit_cell(row(1),1,1)", "unit_cell(row(1),1,2)", "unit_cell(row(2),2,2)"),
                *("unit_cell(column(1),1,1)", "unit_cell(column(2),1,2)"),
                *("unit_cell(column(2),2,2)", "unit_cell(region(a),1,1)"),
                *("unit_cell(region(b),1,2)", "unit_cell(region(b),2,2)"),
                *("touching(1,1,1,2)", "touching(1,2,1,1)", "touching(1,1,2,2)"),
                *("touching(2,2,1,1)", "touching(1,2,2,2)", "touching(2,2,1,2)"),
            }
        )
    }


def test_no_name_of_the_interface_is_a_rule_files_but_cell_which_means_the_same() -> None:
    state = defined([ENCODINGS / "hints" / "state.lp"], FACTS)
    rules = defined(
        [
            ENCODINGS / "starbattle.lp",
            *sorted((ENCODINGS / "variants").glob("*.lp")),
            ENCODINGS / "repair" / "differs.lp",
            ENCODINGS / "explain.lp",
        ],
        FACTS + " planted(1,1).",
        *("-c", "bands_from=1", "-c", "boxes_from=1"),
    )
    assert state.keys() & rules.keys() == {("cell", 2)}
    assert state["cell", 2] == rules["cell", 2]


def including(tmp_path: Path, rules: str) -> HintProgram:
    """The README's two-cells technique, with rule files of encodings/ or rules added."""
    path = tmp_path / "two-cells.lp"
    path.write_text(PAIR.format(level=2) + rules)
    return HintProgram.from_path(path)


BLANK = [(1, 5)]
"""The state where two-cells applies: region C keeps (2,5) and (3,5)."""
EXPECTED = [
    Deduction(
        "two-cells",
        frozenset({("region", ("c",))}),
        frozenset({(1, 5)}),
        frozenset(),
        frozenset({(2, 4), (3, 4)}),
    )
]


@pytest.mark.parametrize(
    "rules",
    [
        "",
        f'#include "{ENCODINGS}/base/choose.lp".',  # every set of cells, each a star/2 atom
        "star(R,C) :- cell(R,C).",  # every cell a star
        "".join(
            f'#include "{ENCODINGS}/base/{name}.lp".\n'
            for name in ("domain", "choose", "rows", "columns", "regions", "notouch")
        ),  # the rules: star/2 is the solution
    ],
    ids=["alone", "choose", "every-cell", "base-rules"],
)
def test_a_technique_that_includes_base_rules_makes_its_deductions(
    tmp_path: Path, rules: str
) -> None:
    program = including(tmp_path, rules)
    assert program.deductions(read_board(BOARD), [], BLANK) == EXPECTED


def test_a_technique_that_shows_the_stars_of_the_rules_is_refused(tmp_path: Path) -> None:
    program = including(tmp_path, f'#include "{ENCODINGS}/starbattle.lp".')
    with pytest.raises(EncodingError, match=r"shows star\(\d,\d\), which is not an output atom"):
        program.deductions(read_board(BOARD), [], BLANK)
