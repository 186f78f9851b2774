"""Level 6's trials as chains: the exact chain on crafted boards, each step audited, shortest
first, and a chain that is tampered with fails the audit."""

from __future__ import annotations

import pytest
from crafted import APPLIES, CHAINS, board_of, state_of

from starbattle.logic.assumption import assumption
from starbattle.logic.grid import Found, View
from starbattle.logic.ladder import Logic
from starbattle.logic.trial import FOLLOWABLE, Trial
from starbattle.model.steps import State, Step

SIX = CHAINS["assumption"][0]
BLOCKS = CHAINS["assumption-chain"][2]


TRIAL_CASES = [
    (technique, case)
    for cases in (CHAINS, APPLIES)
    for technique in ("assumption", "assumption-chain")
    for case in cases[technique]
]
"""Every crafted state where a trial is the step, with its technique."""


def case_id(value: object) -> str:
    """A test id: the technique, or the start of the case's sentence."""
    return value if isinstance(value, str) else value[5][:12]  # type: ignore[index]


def logic_state(case: tuple) -> tuple:
    regions, grid = case[0], case[1]
    return Logic(board_of(regions, 2 if len(regions) == 10 else 1)), state_of(grid)


def first_trial(logic: Logic, state: State, technique: str = "assumption") -> Step:
    """The first trial of a state of CHAINS (where a container applies first)."""
    return logic.deductions(state, technique)[0]


def said(logic: Logic, step: Step) -> list[tuple]:
    """Each chain step: technique, level, premise units, stars, blanks, sentence."""
    return [
        (
            link.technique,
            link.level,
            [unit.name(logic.board) for unit in link.units],
            list(link.stars),
            list(link.blanks),
            link.sentence,
        )
        for link in step.chain
    ]


def test_an_assumption_of_levels_1_and_2_carries_its_chain() -> None:
    logic, state = logic_state(SIX)
    step = first_trial(logic, state)
    assert said(logic, step) == [
        ("suppose", 6, [], [], [(4, 1)], "Suppose (4,1) is empty"),
        (
            "forced-fill",
            2,
            ["row 4"],
            [(4, 4)],
            [(3, 4), (3, 5), (5, 3)],
            "Row 4 needs 1 star and (4,4) is its only undecided cell, so it is a star; the "
            "cells around it are empty",
        ),
        (
            "forced-fill",
            2,
            ["column 5"],
            [(6, 5)],
            [],
            "Column 5 needs 1 star and (6,5) is its only undecided cell, so it is a star",
        ),
        (
            "forced-fill",
            2,
            ["column 3"],
            [(6, 3)],
            [],
            "Column 3 needs 1 star and (6,3) is its only undecided cell, so it is a star",
        ),
        ("broken-rule", 0, ["row 6"], [], [], "Row 6 has 2 stars, more than 1: a contradiction"),
    ]
    assert step.chain_length == 3 and step.stars == ((4, 1),)
    assert set(step.units) == {u for link in step.chain for u in link.units}
    assert logic.audit(state, step, sound_only=True) == []


def test_a_chain_may_end_with_two_stars_that_touch() -> None:
    logic, state = logic_state(CHAINS["assumption"][1])
    (step,) = [s for s in logic.deductions(state, "assumption") if s.stars == ((5, 5),)]
    last = step.chain[-1]
    assert (last.technique, last.units, last.cells) == ("broken-rule", (), ((1, 2), (2, 3)))
    assert last.sentence == "The stars at (1,2) and (2,3) touch: a contradiction"
    assert [link.stars for link in step.chain[-3:-1]] == [((1, 2),), ((2, 3),)]
    assert logic.audit(state, step, sound_only=True) == []


def test_a_chain_through_2x2_blocks_ends_where_a_unit_has_too_little_room() -> None:
    logic, state = logic_state(BLOCKS)
    step = first_trial(logic, state, "assumption-chain")
    assert said(logic, step) == [
        (
            "suppose",
            6,
            [],
            [(1, 3)],
            [(1, 2), (1, 4), (2, 2), (2, 4)],
            "Suppose (1,3) is a star; the cells around it are empty",
        ),
        (
            "2x2-blocks",
            3,
            ["region A"],
            [],
            [(3, 2), (4, 2), (4, 4)],
            "Region A needs 1 more star and its undecided cells fit in one 2x2 block, so (3,2), "
            "(4,2) and (4,4) are empty",
        ),
        (
            "broken-rule",
            0,
            ["column 2"],
            [],
            [],
            "Column 2 needs 2 stars but its undecided cells fit in 1 2x2 block, which holds one "
            "star: a contradiction",
        ),
    ]
    assert logic.audit(state, step, sound_only=True) == []


@pytest.mark.parametrize(("technique", "case"), TRIAL_CASES, ids=case_id)
def test_every_chain_names_only_marks_on_the_board_or_in_the_chain(
    technique: str, case: tuple
) -> None:
    logic, state = logic_state(case)
    step = first_trial(logic, state, technique)
    assert step is not None and step.chain
    known = state.stars | state.blanks
    known |= {cell for link in step.chain for cell in (*link.stars, *link.blanks)}
    for text in (step.sentence, *(link.sentence for link in step.chain)):
        assert cells_in(text) <= known, text
    first = step.chain[0]  # the assumed mark, and the marks a person makes with it
    assert set(step.blanks) <= set(first.stars) and set(step.stars) <= set(first.blanks)
    assert not step.chain[-1].stars and not step.chain[-1].blanks


def cells_in(text: str) -> set[tuple[int, int]]:
    """The cells a sentence names, as (r,c)."""
    import re

    return {(int(r), int(c)) for r, c in re.findall(r"\((\d+),(\d+)\)", text)}


def test_chains_a_person_can_follow_come_first_those_placing_a_star_first() -> None:
    logic, state = logic_state(SIX)
    found = assumption(logic, View(logic.grid, *logic.numbers(state)))
    ranks = [(len(f.chain) - 2 > FOLLOWABLE, not f.stars, len(f.chain) - 2) for f in found]
    assert ranks == sorted(ranks) and ranks[0] == (False, False, 3)


EXPERT_1 = (
    ["AAAAAAAAAA", "BBBBACACDD", "BBAAACCCDD", "EBFFFFFFDD", "EEEEFGFFFD",
     "EHHHGGGDDD", "EHHHGGIDII", "EHJGGIIIII", "EJJJJIIIII", "EJJJJIIIII"],
    ["xxxx.x....", "....x.x.x.", "..xxx.x.x.", ".....xxxx.", "..xx......",
     "....x.xx..", "x.xx..x...", ".....xx...", ".x.x.x....", ".x...x.x.."],
)  # fmt: skip
"""StarBattleLab's sblsort-10-2-expert-1 (../shared/corpus/difficulty.jsonl) where its trace
meets its first trial."""


def test_a_chain_short_enough_to_follow_may_use_levels_4_and_5(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chains of levels 1-3 refute a cell here only in 9 steps or more; one step of
    confinement (level 5) refutes (1,5) in 4. Without that search, the cells refuted by
    chains too long to follow are refuted again with the containers: (3,8) in 2 steps."""
    import starbattle.logic.assumption as level_6

    logic, state = Logic(board_of(EXPERT_1[0], 2)), state_of(EXPERT_1[1])
    step = first_trial(logic, state, "assumption-chain")
    assert step.sentence == (
        "If (1,5) were a star, then after 4 steps (5,9) would have to be both a star and "
        "empty, so (1,5) is empty"
    )
    assert [link.technique for link in step.chain] == [
        "suppose", "2x2-blocks", "confinement", "2x2-blocks", "2x2-blocks", "broken-rule"
    ]  # fmt: skip
    assert logic.audit(state, step, sound_only=True) == []
    passes = tuple(p for p in level_6.PASSES if p != (5, level_6.SHALLOW))
    monkeypatch.setattr(level_6, "PASSES", passes)
    deepened = Logic(board_of(EXPERT_1[0], 2)).deductions(state, "assumption-chain")[0]
    assert deepened.sentence.startswith("If (3,8) were empty, then after 2 steps row 4 ")
    assert [link.technique for link in deepened.chain[1:-1]] == ["capacity-counting"] * 2
    assert logic.audit(state, deepened, sound_only=True) == []
    monkeypatch.setattr(level_6, "_deepened", lambda logic, trial: trial)
    again = Logic(board_of(EXPERT_1[0], 2)).deductions(state, "assumption-chain")
    lengths = [found.chain_length for found in again]
    assert min(lengths) == 9 > FOLLOWABLE


EXPERT_70 = (
    ["AAAAABBBB", "ACCCBBBBB", "DDCCCCCEB", "DFFCCEEEG", "DFFFEEEEG", "DFFFEHEGG", "DDFHHHEGG",
     "DHHHIHEIG", "DHIIIIIIG"],
    [".........", ".x.x.....", ".x.x...x.", ".....x...", "..x....x.", "..x......", ".......x.",
     ".x..x....", "........x"],
)  # fmt: skip
"""StarBattleLab's sblsort-9-2-expert-70 (../shared/corpus/difficulty.jsonl) before step 13 of
its trace (the README's example of a chain found again with the containers)."""


EXPERT_83 = tuple(
    rows.split("|")
    for rows in (
        "AAAABCCCC|ADDDBBCEC|ADDDBBCEC|AAFDDBBEE|FFFGGBBEE|FHHGGGGGE|FFHGGGIEE|FHHHGGIEI|HHHGGIIII",
        ".........|..x....x.|....x....|.....x...|...x.....|.x....xx.|...x.....|.....x.x.|.........",
    )
)
"""StarBattleLab's sblsort-9-2-expert-83 (../shared/corpus/difficulty.jsonl) before step 11 of
its trace."""


DEEPENED = [
    (
        EXPERT_70,
        ("_deepened", lambda logic, trial: trial),
        "If (8,4) were a star, then after 3 steps row 8 would have no room for its stars, so "
        "(8,4) is empty",
        ["2x2-blocks", "container-exclusion", "tiling-cascade"],
        "Columns 2-5 need 7 more stars; a star at (6,1) or (8,1) would leave room for at most 6 "
        "stars for them, so they are empty",
    ),
    (
        EXPERT_83,
        ("MET", 0),
        "If (2,6) were a star, then after 3 steps column 6 would have no room for its stars, "
        "so (2,6) is empty",
        ["composite-tiling", "container-exclusion", "tiling-cascade"],
        "Columns 1-9 need 17 more stars and rows 7-9 need 6 stars, so rows 1-6 hold 11 stars; a "
        "star at (5,6) would be one of them and leave room for at most 9 stars for the other "
        "10, so (5,6) is empty",
    ),
]
"""States where no chain of levels 1-5 refutes a cell in 6 steps or fewer: EXPERT_70's (8,4),
refuted by a longer one, found again with the containers in its rounds; EXPERT_83's (2,6),
which the searches for short chains met and dropped as too long (the chains found, found
again, are all longer). Each with what turns that off."""


@pytest.mark.parametrize("case", DEEPENED, ids=["found", "met"])
def test_a_chain_too_long_to_follow_is_found_again_with_the_containers(
    case: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    import starbattle.logic.assumption as level_6

    (regions, marks), (name, off), sentence, techniques, exclusion = case
    logic, state = Logic(board_of(regions, 2)), state_of(marks)
    step = logic.next_step(state)
    assert step is not None and step.sentence == sentence
    assert [link.technique for link in step.chain[1:-1]] == techniques
    assert step.chain[2].sentence == exclusion
    assert logic.audit(state, step) == []
    monkeypatch.setattr(level_6, name, off)
    again = Logic(board_of(regions, 2)).next_step(state)
    assert again is not None and again.chain_length > FOLLOWABLE


EXPERT_599 = tuple(
    rows.split("|")
    for rows in (
        "AABBBBCCCC|ABBBBBBCDD|AAABBCCCDE|FFFBFDDDDE|FFFFFDGDEE|FFHIFDGGEE|HHHIFFFGGE|"
        "HHIIFFFGEE|HIIIJFJGEE|HIJJJJJJJE",
        "..........|.x....x...|........x.|.x..x.....|.....x....|xx...x.x..|..........|"
        "........x.|..........|..........",
    )
)
"""StarBattleLab's sblsort-10-2-expert-599 (../shared/corpus/difficulty.jsonl) at the state of
its trace before step 10 (as the trace ran before a chain could end at a squeeze)."""


def test_a_stars_neighbours_join_the_step_that_places_it_in_the_shortened_chain() -> None:
    """In the trial, (4,6) and (5,8) were made by steps the shortened chain drops; region D
    places them there, and the cells around them are marked with it: 5 steps, not 7."""
    logic, state = Logic(board_of(EXPERT_599[0], 2)), state_of(EXPERT_599[1])
    step = first_trial(logic, state, "assumption-chain")
    assert step.sentence == (
        "If (4,1) were a star, then after 5 steps region G would have no room for its stars, "
        "so (4,1) is empty"
    )
    assert step.chain[4].sentence == (
        "Region D needs 2 stars and has just 2 undecided cells, so they are all stars; the "
        "cells around them are empty"
    )
    assert {(3, 5), (3, 7), (5, 9), (6, 9)} <= set(step.chain[4].blanks)  # around both
    assert logic.audit(state, step, sound_only=True) == []


def test_a_unit_left_without_room_in_a_trial_that_counts_2x2_blocks_says_so() -> None:
    """EXPERT_1 before its trace's step 17: region H runs out of undecided cells while the
    trial still has steps of levels 1-2 to take; the room check meets it first and says it
    as a unit out of room, not as cells fitting in 0 2x2 blocks."""
    marks = (
        "xxxx......|....x.x.x.|..xxx.x.x.|.....xxx..|..xx......|......xx..|x.xx..x...|"
        "......x...|.x.x.x....|.x...x...."
    )
    logic, state = Logic(board_of(EXPERT_1[0], 2)), state_of(marks.split("|"))
    step = logic.next_step(state)
    assert step is not None and step.technique == "assumption-chain"
    assert step.sentence == (
        "If (6,5) were a star, then after 4 steps region H would have no room for its stars, "
        "so (6,5) is empty"
    )
    last = step.chain[-1]
    assert [unit.name(logic.board) for unit in last.units] == ["region H"]
    assert last.sentence == (
        "Region H needs 1 more star but has no undecided cell left: a contradiction"
    )
    assert logic.audit(state, step) == []


def test_a_stars_neighbours_join_the_step_that_placed_it_even_after_other_steps() -> None:
    """The trial empties the cells around (7,6) only after region C's star; the chain marks
    them with column 6's stars, which placed it: 5 steps, not 6, none of level 1 alone.
    EXPERT_1 before (10,8) is emptied: the state of its trace before step 20."""
    logic, state = Logic(board_of(EXPERT_1[0], 2)), state_of([*EXPERT_1[1][:9], ".x...x...."])
    (step,) = [s for s in logic.deductions(state, "assumption") if s.blanks == ((10, 8),)]
    assert step.sentence == (
        "If (10,8) were a star, then after 5 steps row 8 would have no room for its stars, so "
        "(10,8) is empty"
    )
    assert [link.technique for link in step.chain[1:-1]] == ["forced-fill"] * 5
    assert step.chain[2].sentence == (
        "Column 6 needs 2 stars and has just 2 undecided cells, so they are all stars; the "
        "cells around (7,6) are empty"
    )
    assert (step.chain[2].stars, step.chain[2].blanks) == (((3, 6), (7, 6)), ((7, 5), (8, 5)))
    assert logic.audit(state, step, sound_only=True) == []


EXPERT_506 = tuple(
    rows.split("|")
    for rows in (
        "ABBBBCCCDD|ABBEECCCDD|AABBECCDDF|AAEEECCCDF|AAEECCCGGF|HAEEEGGGGF|HAAEEGIIIF|"
        "HEEEIIIIIF|HEHJIIIFFF|HHHJJJIFFF",
        "..........|...x......|..........|.......x..|.....xx...|..........|.x...xx...|"
        ".x........|.xx.xxx...|..x.x*x...",
    )
)
"""StarBattleLab's sblsort-10-2-expert-506 (../shared/corpus/difficulty.jsonl) at the state of
its trace before step 10."""


def test_a_chain_may_end_where_two_adjacent_lines_are_squeezed() -> None:
    """Neither column is cramped alone; together they need 4 stars in 3 2x2 blocks."""
    logic, state = Logic(board_of(EXPERT_506[0], 2)), state_of(EXPERT_506[1])
    step = first_trial(logic, state, "assumption-chain")
    assert step.sentence == (
        "If (8,4) were a star, then after 1 step columns 2-3 would have too little room for "
        "their stars, so (8,4) is empty"
    )
    last = step.chain[-1]
    assert [unit.name(logic.board) for unit in last.units] == ["column 2", "column 3"]
    assert last.sentence == (
        "Columns 2-3 need 4 stars but their undecided cells fit in 3 2x2 blocks, one star "
        "each: a contradiction"
    )
    assert logic.audit(state, step) == []
    grid = logic.grid
    view = View(grid, *logic.numbers(state))
    assert Trial(view, 7 * 10 + 3, star=True).propagate() is False  # (8,4): levels 1-2 alone
    trial = Trial(view, 7 * 10 + 3, star=True, squeezes=True)
    assert trial.propagate() is True
    broken, marks = trial.broken, (trial.stars, trial.blanks)
    assert broken is not None and (broken.kind, broken.units) == ("cramped", (11, 12))
    assert broken.holds(grid, *marks)
    assert not any(broken._replace(units=(unit,)).holds(grid, *marks) for unit in broken.units)


def test_a_trace_searches_again_where_the_last_refutations_are_too_long_to_follow() -> None:
    """EXPERT_506 as its trace stood before step 23 (stop 52): the last search had refuted a
    star at (6,2) alone, in 13 steps, and the trace took it again. Now the search is made
    again, and finds the chain of 5 steps the board with those marks gives."""
    marks = (
        "..........|...x...xx.|.x....x...|.......xx.|.....xxx..|...x.....x|.x..xxxx..|"
        ".xxx.....x|.xx.xxx...|..x.x*x..."
    )
    board, state = board_of(EXPERT_506[0], 2), state_of(marks.split("|"))
    logic = Logic(board)
    logic.refutable = [(5 * 10 + 1, True, 5)]  # (6,2) a star, refuted by levels 1-5
    step = logic.next_step(state)
    assert step is not None and step.sentence == (
        "If (4,4) were a star, then after 5 steps column 1 would have too little room for its "
        "stars, so (4,4) is empty"
    )
    assert step == Logic(board).next_step(state)


def test_a_chain_may_end_where_two_neighbouring_regions_are_squeezed() -> None:
    """sblsort-10-2-expert-599 at the state of its trace before step 11: regions A and B
    need 4 stars in 3 blocks."""
    marks = (
        "..........|.xx...x..x|......xxx.|.x..x.....|.....xx.x.|x....x.x..|.....x....|"
        "........x.|..........|.........."
    )
    logic, state = Logic(board_of(EXPERT_599[0], 2)), state_of(marks.split("|"))
    step = first_trial(logic, state, "assumption-chain")
    assert step.sentence == (
        "If (1,9) were a star, then after 2 steps regions A and B would have too little room "
        "for their stars, so (1,9) is empty"
    )
    assert step.chain[-1].sentence == (
        "Regions A and B need 4 stars but their undecided cells fit in 3 2x2 blocks, one star "
        "each: a contradiction"
    )
    assert logic.audit(state, step) == []


EXPERT_3972 = tuple(
    rows.split("|")
    for rows in (
        "AAABBBCDDD|ABBBCCCEED|ABBCCECEEF|AAAAEEEEEF|AGGGEEEEEF|AGGGEEHHFF|AGIGGEGHHF|"
        "IGIIGGGFHF|IGIIJGGFFF|IIIJJJJFFF",
        "xxx...x*xx|x..xx.xxx*|x.x..x.xxx|...xx.....|.x....xx..|..........|......xx.x|"
        ".......x.x|.x.x.xx...|.......x..",
    )
)
"""StarBattleLab's sblsort-10-2-expert-3972 (../shared/corpus/difficulty.jsonl) at the state
of its trace before step 14."""


def test_a_chain_step_names_only_the_cells_it_marks_when_a_step_before_marked_some() -> None:
    """Row 3 and region C are 2x2 deductions of one round of the trial, both emptying (2,3)
    and (4,3); in the chain region C comes second and is said from the chain's marks."""
    logic, state = Logic(board_of(EXPERT_3972[0], 2)), state_of(EXPERT_3972[1])
    (step,) = [s for s in logic.deductions(state, "assumption-chain") if s.blanks == ((4, 7),)]
    assert step.sentence.startswith("If (4,7) were a star, then after 5 steps rows 8-9 ")
    row, region = step.chain[1:3]
    assert (row.stars, row.blanks) == (((3, 2),), ((2, 2), (2, 3), (4, 1), (4, 2), (4, 3)))
    assert (region.stars, region.blanks) == (((2, 6), (3, 4)), ((1, 5), (1, 6), (3, 5)))
    assert region.sentence == (
        "Region C needs 2 stars and its undecided cells fit in 2 2x2 blocks, one star each, so "
        "(2,6) and (3,4) are stars and (1,5), (1,6) and (3,5) are empty"
    )
    marked = set(state.stars | state.blanks)
    for link in step.chain[:-1]:
        assert not marked & {*link.stars, *link.blanks}
        marked |= {*link.stars, *link.blanks}
    assert logic.audit(state, step) == []


def test_a_trial_keeps_only_the_links_its_broken_rule_needs() -> None:
    """A star at (4,4): around it, column 3 and column 5 fill, row 6 gets two stars; the
    trial's other links (row 5 filled, ...) are dropped. The cells around it are marked with
    it: one step."""
    logic, state = logic_state(SIX)
    trial = Trial(View(logic.grid, *logic.numbers(state)), 3 * 6 + 3, star=True)
    assert trial.propagate()
    assert len(trial.links) - 1 > trial.length == 2
    trial.shorten()
    assert trial.length == 2
    assert [logic.grid.cell(i) for i in trial.chain()[0].stars] == [(4, 4)]


def test_a_tampered_chain_fails_the_audit() -> None:
    logic, state = logic_state(SIX)
    step = first_trial(logic, state)
    forced = step.chain[1]
    wrong = forced._replace(stars=((4, 3),))  # row 4's only undecided cell is (4,4)
    tampered = step._replace(chain=(step.chain[0], wrong, *step.chain[2:]))
    problems = logic.audit(state, tampered, sound_only=True)
    assert problems[0] == "chain: step 2's premises do not force (4,3)"
    cut = step._replace(chain=(*step.chain[:3], step.chain[-1]))  # no star at (6,3)
    assert logic.audit(state, cut, sound_only=True) == ["chain: its last step 4 breaks no rule"]


def test_a_chain_longer_than_a_person_follows_is_a_machine_step() -> None:
    from starbattle.logic.grade import effort
    from starbattle.logic.registry import EFFORTS

    logic, state = logic_state(SIX)
    step = first_trial(logic, state)
    assert effort(step) == EFFORTS.index("assumption")
    padding = (step.chain[1],) * (FOLLOWABLE + 1 - step.chain_length)
    long = step._replace(chain=(*step.chain[:-1], *padding, step.chain[-1]))
    assert long.chain_length == FOLLOWABLE + 1
    assert effort(long) == EFFORTS.index("machine")


@pytest.mark.parametrize(("technique", "case"), TRIAL_CASES, ids=case_id)
def test_trials_after_quiet_levels_3_and_4_look_at_changed_units_alone_and_find_the_same(
    technique: str, case: tuple
) -> None:
    """Where the ladder found nothing at levels 3 and 4, a trial's rounds of them look only
    at the units the trial changed (View.changed): the steps are those of a full look."""
    logic, state = logic_state(case)
    marks = logic.numbers(state)
    quiet = View(logic.grid, *marks)
    if logic.apply(3, quiet) or logic.apply(4, quiet):
        pytest.skip("levels 3 and 4 apply here: trials look at every unit")
    assert quiet.quiet >= {3, 4}
    assert assumption(logic, quiet) == assumption(logic, View(logic.grid, *marks))


def test_a_view_since_a_state_is_the_same_view_and_knows_its_changed_units() -> None:
    logic, state = logic_state(SIX)
    grid = logic.grid
    stars, blanks = logic.numbers(state)
    before = View(grid, stars, blanks)
    star, blank = 3 * 6 + 3, 5 * 6 + 0  # (4,4) a star, (6,1) empty
    after = View(grid, stars | {star}, blanks | {blank}, before)
    plain = View(grid, stars | {star}, blanks | {blank})
    assert (after.open, after.has, after.need) == (plain.open, plain.has, plain.need)
    assert after.changed == {*grid.units_of[star], *grid.units_of[blank]}
    assert plain.changed is None and plain.fresh(0)
    assert [after.fresh(u) for u in range(len(grid.sets))].count(True) == len(after.changed)


def test_a_step_too_long_to_say_with_its_marks_counts_them() -> None:
    """A star's level-1 marks join the step that placed it; where the whole sentence would be
    too long, they are counted, and where even that is, the step says what it said."""
    from starbattle.logic.basic import around
    from starbattle.logic.trial import _marking

    logic, state = logic_state(SIX)
    view = View(logic.grid, *logic.numbers(state))
    x = 3 * 6 + 3  # (4,4), row 4's only undecided cell
    marks = around(view, x)
    assert marks is not None and len(marks.blanks) == 3
    for length, ending in [
        (160, "; the cells around it are empty"),
        (170, "; 3 more cells are then empty"),
        (180, ""),
    ]:
        placed = Found("forced-fill", (3,), (), frozenset({x}), frozenset(), "a" * length)
        [step] = _marking(logic.grid, [placed, marks])
        assert step.sentence == "a" * length + ending
        assert (step.stars, step.blanks, step.units) == ({x}, marks.blanks, (3,))
        assert step.cells == ()  # its own star is no premise of its marks
