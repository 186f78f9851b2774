"""The technique registry: one row per technique, read by the ladder, the grade and the CLI."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from starbattle.cli.main import cli
from starbattle.cli.running import describe_encodings
from starbattle.logic.grade import effort
from starbattle.logic.ladder import Logic
from starbattle.logic.registry import (
    ASSUMING,
    BY_NAME,
    COSTLY,
    EFFORTS,
    FUNCTIONS,
    LEVELS,
    TECHNIQUES,
)
from starbattle.model.board import Board
from starbattle.model.steps import State, Step
from starbattle.model.units import Unit


def test_the_rows_come_in_the_ladder_s_order_one_per_name() -> None:
    levels = [technique.level for technique in TECHNIQUES]
    assert levels == sorted(levels) and list(LEVELS) == list(range(8))
    assert list(BY_NAME) == [technique.name for technique in TECHNIQUES]
    assert len(set(BY_NAME)) == len(TECHNIQUES)


def test_each_level_runs_each_function_once_level_6_one_for_both_its_techniques() -> None:
    assert BY_NAME["assumption"].apply is BY_NAME["assumption-chain"].apply
    assert FUNCTIONS[6] == (BY_NAME["uniqueness"].apply, BY_NAME["assumption"].apply)
    assert {BY_NAME["uniqueness"].apply} == ASSUMING  # run only when asked
    for level in LEVELS:
        for costly, functions in ((False, FUNCTIONS[level]), (True, COSTLY[level])):
            rows = [t.apply for t in TECHNIQUES if t.level == level and t.costly == costly]
            assert list(functions) == list(dict.fromkeys(rows))


def test_the_costly_techniques_come_after_the_others_of_their_level() -> None:
    for level in LEVELS:
        costly = [t.costly for t in TECHNIQUES if t.level == level]
        assert costly == sorted(costly)
    assert [t.name for t in TECHNIQUES if t.costly] == [
        "band-tiling",
        "composite-tiling",
        "capacity-counting",
        "container-exclusion",
        "counting-exclusion",
        "set-differentials",
        "tiling-exclusion",
        "tiling-cascade",
        "m-and-t",
        "n-rooks",
        "entanglement",
        "unit-enumeration",
        "pair-enumeration",
        "band-enumeration",
    ]


def test_a_costly_technique_runs_only_when_those_before_it_found_nothing() -> None:
    """Confinement applies on this state, and so would composite tiling: the ladder says
    only the first; asked for composite tiling alone, it still finds its step."""
    regions = ["BBBBAA", "BBBBAA", "BBBBCA", "BBDDCC", "EEDDFF", "EEEFFF"]
    logic = Logic(Board.from_rows(regions, 1))
    state = State.of(blanks=[(2, 4), (3, 6), (4, 2), (4, 4), (5, 2), (5, 5), (6, 3)])
    step = logic.next_step(state)
    assert step is not None and step.technique == "confinement"
    assert logic.deductions(state, "composite-tiling") != []


def test_a_step_carries_the_level_of_its_row() -> None:
    logic = Logic(Board.from_rows(["AAB", "ACB", "CCB"], 1))
    state = State.of([(1, 1)])
    for name in ("around-star", "full-unit"):
        steps = logic.deductions(state, name)
        assert steps and {(step.technique, step.level) for step in steps} == {(name, 1)}


@pytest.mark.parametrize(
    ("technique", "units", "expected"),
    [
        ("mistake", (), "basic"),
        ("around-star", (), "basic"),
        ("full-unit", (Unit("row", 1),), "basic"),
        ("forced-fill", (Unit("region", "A"),), "basic"),
        ("2x2-blocks", (Unit("region", "A"),), "region"),
        ("2x2-blocks", (Unit("column", 2),), "exclusion"),
        ("too-little-room", (Unit("row", 3),), "exclusion"),
        ("too-little-room", (Unit("region", "B"), Unit("row", 2)), "exclusion"),
        ("too-little-room", (Unit("row", 3), Unit("region", "B")), "counting"),
        ("confinement", (Unit("region", "A"), Unit("row", 1)), "region"),
        ("confinement", (Unit("row", 1), Unit("region", "A")), "counting"),
        ("confinement", (Unit("region", "A"), Unit("region", "B"), *(Unit("row", 1),)), "counting"),
        ("band-tiling", (Unit("row", 1), Unit("row", 2)), "counting"),
        ("composite-tiling", (Unit("row", 1), Unit("region", "A")), "advanced"),
        ("capacity-counting", (Unit("row", 1), Unit("region", "A")), "advanced"),
        ("container-exclusion", (Unit("row", 1), Unit("row", 2)), "advanced"),
        ("counting-exclusion", (Unit("row", 1), Unit("region", "A")), "advanced"),
        ("set-differentials", (Unit("row", 1), Unit("region", "A")), "advanced"),
        ("tiling-exclusion", (Unit("column", 5), Unit("region", "F")), "advanced"),
        ("tiling-cascade", (Unit("row", 2), Unit("region", "F")), "advanced"),
        ("assumption", (Unit("row", 1),), "assumption"),
        ("assumption-chain", (), "assumption-chain"),
        ("unsat-core", (Unit("row", 1),), "machine"),
        ("m-and-t", (Unit("region", "A"),), "advanced"),
        ("n-rooks", (Unit("row", 1),), "advanced"),
        ("entanglement", (Unit("row", 1),), "advanced"),
        ("unit-enumeration", (Unit("region", "A"), Unit("row", 2)), "advanced"),
        ("uniqueness", (Unit("region", "A"),), "assumption"),
    ],
)
def test_each_row_gives_the_grade_its_effort_class(
    technique: str, units: tuple[Unit, ...], expected: str
) -> None:
    step = Step(technique, BY_NAME[technique].level, units, (), (), (), "")
    assert EFFORTS[effort(step)] == expected


def test_hint_help_says_each_level_in_the_registry_s_plain_words() -> None:
    text = " ".join(CliRunner().invoke(cli, ["hint", "--help"]).output.split())
    said = ", ".join(f"{level} {words}" for level, words in LEVELS.items())
    assert f"({said})" in text
    assert "1 around a star or a full unit, 2 forced fill, 3 two-by-two blocks," in text


def test_the_encodings_listing_names_the_registry_s_programs_in_its_order() -> None:
    lines = describe_encodings()
    start = next(i for i, line in enumerate(lines) if line.startswith("hint programs"))
    listed = [line.split()[:3] for line in lines[start + 1 :]]
    shipped = [technique for technique in TECHNIQUES if technique.program is not None]
    assert listed == [[technique.name, "level", str(technique.level)] for technique in shipped]
