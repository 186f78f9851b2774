"""The hint programs of encodings/hints/: complete answer sets on tiny facts, and agreement
with the Python ladder (starbattle.logic.ladder) on crafted boards and on states of real
puzzles reached by real ladder steps."""

from __future__ import annotations

import random
from functools import cache

import pytest
from crafted import APPLIES, DOES_NOT_APPLY, UNIQUE, board_of, stars_of, state_of
from helpers import ROOT, answer_sets, corpus, corpus_board, needs_corpus

from starbattle.logic.ladder import Logic
from starbattle.logic.programs import HintProgram, shipped_hint_programs
from starbattle.logic.registry import BY_NAME, TECHNIQUES
from starbattle.model.board import Board, Cell
from starbattle.model.steps import State
from starbattle.model.units import Unit

HINTS = ROOT / "encodings" / "hints"
PROGRAMS = shipped_hint_programs()

Key = tuple[frozenset[str], frozenset[Cell], frozenset[Cell], frozenset[Cell]]
"""A deduction compared: premise unit names, premise cells, stars, blanks."""


def facts(regions: list[str], stars: int, marks: str = "") -> str:
    """Board facts from rows of region letters ('#' blocked) and marks ('*', 'x', '/' rows)."""
    lines = [f"size({len(regions)}). stars({stars})."]
    for r, row in enumerate(regions, start=1):
        for c, label in enumerate(row, start=1):
            lines.append(f"blocked({r},{c})." if label == "#" else f"region({r},{c},{label}).")
    for r, row in enumerate(marks.split("/") if marks else [], start=1):
        for c, mark in enumerate(row, start=1):
            if mark != ".":
                lines.append(f"marked_{'star' if mark == '*' else 'blank'}({r},{c}).")
    return " ".join(lines)


def deductions(technique: str, given: str) -> set[frozenset[str]]:
    """A program's answer sets on facts, without its technique/1 atom (shown in every one)."""
    found = answer_sets([HINTS / "state.lp", HINTS / f"{technique}.lp"], given, "", ("--project",))
    for answer in found:
        assert f'technique("{technique}")' in answer
    return {frozenset(a for a in answer if not a.startswith("technique(")) for answer in found}


def test_the_shipped_programs_are_the_registry_s_with_their_levels() -> None:
    assert {name: (program.path.name, program.level) for name, program in PROGRAMS.items()} == {
        t.name: (t.program, t.level) for t in TECHNIQUES if t.program is not None
    }


def test_the_state_merges_marks_and_givens_and_counts_per_unit() -> None:
    given = facts(["ab", "#b"], 1) + " marked_star(1,1). marked_blank(1,1). given_blank(2,2)."
    shown = "#show decided_star/2. #show decided_blank/2. #show undecided/2.\n"
    shown += "#show still_needs/2. #show undecided_in/2."
    result = answer_sets([HINTS / "state.lp"], given + " marked_blank(2,1).", shown)
    assert result == {
        frozenset(
            {
                "decided_star(1,1)",  # marked both ways: a star
                "decided_blank(2,2)",  # a given blank; (2,1) is blocked, so no mark
                "undecided(1,2)",
                *("still_needs(row(1),0)", "still_needs(row(2),1)"),
                *("still_needs(column(1),0)", "still_needs(column(2),1)"),
                *("still_needs(region(a),0)", "still_needs(region(b),1)"),
                *("undecided_in(row(1),1)", "undecided_in(row(2),0)"),
                *("undecided_in(column(1),0)", "undecided_in(column(2),1)"),
                *("undecided_in(region(a),0)", "undecided_in(region(b),1)"),
            }
        )
    }
    rests = answer_sets([HINTS / "state.lp"], given, "#show rests_on/3.")
    assert rests == {
        frozenset(
            {
                *("rests_on(row(1),1,1)", "rests_on(column(1),1,1)", "rests_on(region(a),1,1)"),
                *("rests_on(row(2),2,2)", "rests_on(column(2),2,2)", "rests_on(region(b),2,2)"),
                # the star touches (1,2) and (2,2), so units holding them rest on it
                *("rests_on(row(2),1,1)", "rests_on(column(2),1,1)", "rests_on(region(b),1,1)"),
            }
        )
    }


def test_around_star_empties_the_undecided_neighbours_of_each_star() -> None:
    given = facts(["aa#", "aaa", "aaa"], 1, "*../xx./*..") + " given_star(3,3)."
    assert deductions("around-star", given) == {
        frozenset({"premise_cell(1,1)", "conclude(blank,1,2)"}),  # (1,3) is blocked
        frozenset({"premise_cell(3,1)", "conclude(blank,3,2)"}),
        frozenset({"premise_cell(3,3)", "conclude(blank,2,3)", "conclude(blank,3,2)"}),
    }


def test_full_unit_empties_the_rest_of_each_unit_with_its_stars() -> None:
    # region a is the star alone: full, but nothing left to empty
    assert deductions("full-unit", facts(["ab", "bb"], 1, "*./.x")) == {
        frozenset({"premise_unit(row(1))", "premise_cell(1,1)", "conclude(blank,1,2)"}),
        frozenset({"premise_unit(column(1))", "premise_cell(1,1)", "conclude(blank,2,1)"}),
    }


def test_forced_fill_stars_a_unit_with_as_many_undecided_cells_as_it_needs() -> None:
    assert deductions("forced-fill", facts(["aa", "bb"], 1, "x./..")) == {
        frozenset({"premise_unit(row(1))", "premise_cell(1,1)", "conclude(star,1,2)"}),
        frozenset({"premise_unit(region(a))", "premise_cell(1,1)", "conclude(star,1,2)"}),
        frozenset({"premise_unit(column(1))", "premise_cell(1,1)", "conclude(star,2,1)"}),
    }


def test_2x2_blocks_one_block_empties_the_cell_touching_all_its_cells() -> None:
    assert deductions("2x2-blocks", facts(["aab", "abb", "bbb"], 1)) == {
        frozenset({"premise_unit(region(a))", "conclude(blank,2,2)"})
    }


def test_2x2_blocks_a_cell_in_two_blocks_is_empty_and_lone_cells_are_stars() -> None:
    """Region a needs 2 in (1,1), (2,2), (1,3): every cover by two blocks concludes alike
    (blocks on (1,1)-(2,2) and (2,2)-(1,3) share (2,2); else one of them holds (2,2) with a
    lone cell, whose star empties (2,2) in turn)."""
    assert deductions("2x2-blocks", facts(["aba", "bab", "bbb"], 2, ".x./x.x/xxx")) == {
        frozenset(
            {
                "premise_unit(region(a))",
                *("conclude(star,1,1)", "conclude(star,1,3)", "conclude(blank,2,2)"),
            }
        )
    }


def test_too_little_room_gives_each_cell_and_each_unit_it_would_starve() -> None:
    """Undecided: (1,1), (1,2), (2,4), (3,1), (3,2), (4,3), which hold the solution's stars.
    A star at (3,2) would touch (4,3), the last undecided cell of row 4, of column 3 and of
    region d: one answer set each. The Python's step names its first unit, row 4."""
    marks = "..xx/xxx./..xx/xx.x"
    given = facts(["aabb", "aabb", "ccdd", "ccdd"], 1, marks)
    assert deductions("too-little-room", given) == {
        frozenset(
            {
                *("premise_unit(row(4))", "premise_cell(3,2)", "premise_cell(4,1)"),
                *("premise_cell(4,2)", "premise_cell(4,4)", "conclude(blank,3,2)"),
            }
        ),
        frozenset(
            {
                *("premise_unit(column(3))", "premise_cell(3,2)", "premise_cell(1,3)"),
                *("premise_cell(2,3)", "premise_cell(3,3)", "conclude(blank,3,2)"),
            }
        ),
        frozenset(
            {
                *("premise_unit(region(d))", "premise_cell(3,2)", "premise_cell(3,3)"),
                *("premise_cell(3,4)", "premise_cell(4,4)", "conclude(blank,3,2)"),
            }
        ),
    }
    logic = Logic(board_of(["AABB", "AABB", "CCDD", "CCDD"]))
    [step] = logic.deductions(state_of(marks.split("/")), "too-little-room")
    assert (step.units, step.blanks) == ((Unit("row", 4),), ((3, 2),))


def test_confinement_inside_and_meeting_a_band() -> None:
    """Region a lies inside row 1 and needs its star; rows 2-3 need 2 stars, and regions b
    and c, which meet them, need 2: so b's cell outside rows 2-3 is empty."""
    assert deductions("confinement", facts(["aab", "bbc", "bcc"], 1)) == {
        frozenset({"premise_unit(row(1))", "premise_unit(region(a))", "conclude(blank,1,3)"}),
        frozenset(
            {
                *("premise_unit(row(2))", "premise_unit(row(3))"),
                *("premise_unit(region(b))", "premise_unit(region(c))", "conclude(blank,1,3)"),
            }
        ),
    }


def both(logic: Logic, state: State, technique: str) -> tuple[set[Key], set[Key]]:
    """The deductions of a technique from a state: by the Python ladder, by its ASP program."""
    python = {
        (frozenset(s.units), frozenset(s.cells), frozenset(s.stars), frozenset(s.blanks))
        for s in logic.deductions(state, technique)
    }
    stars, blanks = logic.numbers(state)
    marks = [logic.grid.cell(i) for i in stars], [logic.grid.cell(i) for i in blanks]
    asp = {
        (
            frozenset(logic.grid.units[logic.unit_numbers[unit]] for unit in d.units),
            d.cells,
            d.stars,
            d.blanks,
        )
        for d in PROGRAMS[technique].deductions(logic.board, *marks)
    }
    return python, asp


def gathered(asp: set[Key]) -> set[Key]:
    """The program's answer sets gathered by their premise units: one step per argument."""
    by_units: dict[frozenset[str], list[Key]] = {}
    for key in asp:
        by_units.setdefault(key[0], []).append(key)
    return {
        (units, *(frozenset().union(*(key[k] for key in keys)) for k in (1, 2, 3)))
        for units, keys in by_units.items()
    }


GATHERED = (
    *("too-little-room", "container-exclusion", "counting-exclusion"),
    *("tiling-exclusion", "tiling-cascade"),
)
"""Techniques whose Python gathers the cells one argument empties, one answer set each here."""


def assert_agree(technique: str, python: set[Key], asp: set[Key]) -> None:
    """The program and the Python agree, up to the differences its header explains."""
    if BY_NAME[technique].exact:
        assert asp == python
    elif technique == "uniqueness":  # one area at a time, not two together
        assert asp <= python
    elif technique in GATHERED:
        # one answer set per cell, the unit, area, band or tilings it starves or breaks and the
        # units it fills: the Python makes one step of the cells that do so alike (its premises
        # every cell's filled units too); for tilings, it takes each unit's first cover and the
        # first rule broken, so the program may empty more cells
        for units, cells, stars, blanks in python:
            found = [
                (u, x)
                for x in blanks
                for u, c, s, b in asp
                if b == {x} and s == stars and u <= units and c <= cells
            ]
            assert {x for _, x in found} == blanks
            assert frozenset().union(*(u for u, _ in found)) == units
        by_python = {x for *_, blanks in python for x in blanks}
        by_asp = {x for *_, blanks in asp for x in blanks}
        assert by_python <= by_asp if "tiling" in technique else by_python == by_asp
    elif technique == "unit-enumeration":  # exact on boards of 1-2 stars (these): on larger
        assert asp == python  # ones the program strikes out only placements one box starves
    elif technique == "pair-enumeration":  # one answer set per cell and pair: the Python
        for units, _, _, blanks in python:  # gathers a pair's cells, with the units its
            for x in blanks:  # ways use besides
                assert any(u <= units and len(u) == 2 and b == {x} for u, _, _, b in asp), x
        assert {x for *_, blanks in asp for x in blanks} == {
            x for *_, blanks in python for x in blanks
        }
    elif technique == "band-enumeration":  # one answer set per band and cell: the Python
        # makes one step of the first band that empties cells, with the units its ways use
        assert bool(python) == bool(asp)  # besides; every band's cells are the program's
        groups = {units for units, *_ in asp}
        for units, _, _, blanks in python:
            assert any(
                band <= units and {x for u, *_, b in asp if u == band for x in b} == blanks
                for band in groups
            ), blanks
    elif technique in ("n-rooks", "entanglement"):  # a block, a star or two each: the Python
        assert python == gathered(asp)  # gathers them, on every row and column alike
    elif technique in ("m-and-t", "capacity-counting"):  # every tiling (cover) on the marks
        for units, cells, stars, blanks in python:  # given; the Python's first, followed on
            assert any(  # the same units to its fixpoint: its step begins with one of them
                u == units and c <= cells and s <= stars and b <= blanks for u, c, s, b in asp
            ), (units, stars, blanks)
    else:  # tilings: every cover, each to its fixpoint; the Python: its first cover, likewise
        for units, cells, stars, blanks in python:
            assert any(
                (u, c) == (units, cells) and s >= stars and b >= blanks for u, c, s, b in asp
            ), (units, stars, blanks)


QUICKEST = {"composite-tiling": 1, "capacity-counting": 1}
"""The crafted board of a container technique its program runs on fastest, where not the
first (composite tiling's first takes two minutes, its second half a second)."""
COSTLY = frozenset(name for name in PROGRAMS if BY_NAME[name].costly)
"""The programs of the container techniques: tens of seconds on a 10x10 state, so they are
checked on their own boards (slow tests) and on boards under 10x10, the others on every board."""
SLOW = frozenset({"m-and-t"})
"""Programs that take tens of seconds on a 10x10 board in mid-solve (every tiling of every
container is searched): on boards over 6x6 they run only with the slow tests, each on its
first crafted board (`test_slow_programs_agree_with_the_ladder_where_they_apply`, which also
proves their conclusions sound), not again with the other containers."""
OWN_BOARDS = frozenset({"tiling-cascade"})
"""Programs that search every pair of rounds of tilings (2-7 s on a crafted board under
10x10, 65 s on all of them: benchmarks/RESULTS.md `hint-programs-speed`): they run only on
their own first crafted board, with the slow tests."""


def assert_programs_agree(
    logic: Logic, state: State, sound: bool, programs: frozenset[str] | None = None
) -> None:
    """Every program (or those named) agrees with the Python from a state; with `sound`,
    clingo also proves that each of their conclusions follows from the rules and the marks
    (given one solution, for a program that assumes it)."""
    concluded: set[tuple[Cell, bool]] = set()
    for technique in PROGRAMS if programs is None else programs:
        if BY_NAME[technique].assumes is not None:
            python, asp = both(logic, state, technique)
            assert_agree(technique, python, asp)
            continue
        python, asp = both(logic, state, technique)
        assert_agree(technique, python, asp)
        for *_, stars, blanks in asp:
            concluded |= {(cell, True) for cell in stars} | {(cell, False) for cell in blanks}
    stars, blanks = logic.numbers(state)
    n = logic.grid.n
    for (r, c), star in sorted(concluded) if sound else ():
        assert logic.entails(stars, blanks, (r - 1) * n + c - 1, star), (r, c, star)


CRAFTED = [(case[0], case[1]) for cases in (*APPLIES.values(), *UNIQUE.values()) for case in cases]
TWO_SOLUTIONS = [case[0] for cases in UNIQUE.values() for case in cases]
"""The uniqueness boards (two solutions, cut by a thread): where the containers' programs and
functions may part, as neither is meant for them."""
CRAFTED += [
    (regions.split("/"), marks.split("/"))
    for cases in DOES_NOT_APPLY.values()
    for regions, marks in cases
]


def quick(size: int) -> frozenset[str]:
    """The programs run on a board of this size outside the slow tests."""
    slow = (SLOW if size > 6 else frozenset()) | (COSTLY if size >= 10 else frozenset())
    slow |= OWN_BOARDS
    return frozenset(PROGRAMS) - slow


@pytest.mark.parametrize(("regions", "marks"), CRAFTED)
def test_programs_agree_with_the_ladder_on_crafted_boards(
    regions: list[str], marks: list[str]
) -> None:
    logic, state = Logic(board_of(regions, stars_of(regions))), state_of(marks)
    programs = quick(len(regions))
    if regions in TWO_SOLUTIONS:  # the containers' programs count on one solution
        programs -= COSTLY
    assert_programs_agree(logic, state, sound=True, programs=programs)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("regions", "marks"),
    [(case[0], case[1]) for name in sorted(SLOW) for case in APPLIES[name][:1]],
)
def test_slow_programs_agree_with_the_ladder_where_they_apply(
    regions: list[str], marks: list[str]
) -> None:
    logic, state = Logic(board_of(regions, stars_of(regions))), state_of(marks)
    assert_programs_agree(logic, state, sound=True, programs=SLOW)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("technique", "regions", "marks"),
    [(name, *APPLIES[name][QUICKEST.get(name, 0)][:2]) for name in sorted(COSTLY - SLOW)],
)
def test_container_programs_agree_with_the_ladder_where_they_apply(
    technique: str, regions: list[str], marks: list[str]
) -> None:
    logic, state = Logic(board_of(regions, stars_of(regions))), state_of(marks)
    python, asp = both(logic, state, technique)
    assert python
    assert_agree(technique, python, asp)


REAL_PUZZLES = 25
"""The real puzzles whose states every program is checked on, one test each (a few seconds
to a minute: the test processes share them)."""


@cache
def real_states(count: int, seed: int, largest: int) -> list[tuple[Logic, State]]:
    """States of real unique puzzles up to `largest` cells a side, each reached by a seeded
    number of the ladder's own steps from the empty board; and each with its stars alone
    (where levels 1 and 2 have more to say)."""
    rng = random.Random(seed)
    records = [r for r in corpus() if r["solution_count"] == 1 and r["n"] <= largest]
    found = []
    for record in rng.sample(records, count):
        logic, state = Logic(corpus_board(record)), State()
        for _ in range(rng.randint(0, 3 * record["n"])):
            step = logic.next_step(state)
            if step is None:
                break
            state = state.after(step)
        found += [(logic, state), (logic, State(state.stars))]
    return found


@needs_corpus
def test_programs_agree_with_the_ladder_on_a_few_real_states() -> None:
    for logic, state in real_states(4, seed=5, largest=8):
        assert_programs_agree(logic, state, sound=False, programs=quick(logic.grid.n))


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize("puzzle", range(REAL_PUZZLES))
def test_programs_agree_with_the_ladder_and_are_sound_on_real_states(puzzle: int) -> None:
    sampled = real_states(REAL_PUZZLES, seed=13, largest=10)
    for logic, state in sampled[2 * puzzle : 2 * puzzle + 2]:
        assert_programs_agree(logic, state, sound=True, programs=quick(logic.grid.n))


def test_a_program_reads_the_givens_as_marks() -> None:
    board = board_of(["BBAAC", "EBBAC", "EEDDC", "EEDDD", "EEEDD"])
    given = Board(board.regions, 1, given_stars=frozenset({(3, 5)}))
    [around] = PROGRAMS["around-star"].deductions(given, [], [])
    assert (around.cells, around.blanks) == ({(3, 5)}, {(2, 4), (3, 4), (4, 4), (4, 5), (2, 5)})


def test_program_header_is_read() -> None:
    program = HintProgram.from_path(HINTS / "forced-fill.lp")
    assert (program.name, program.level) == ("forced-fill", 2)
    assert program.title.startswith("Forced fill: a unit with just as many undecided cells")
