"""The rule a trial breaks: whether marks break it, and its words, on a crafted state."""

from __future__ import annotations

from crafted import view_of

from starbattle.logic.broken import Broken

ROWS = "/".join(letter * 10 for letter in "ABCDEFGHIJ")
"""A 10x10 2-star board whose regions are its rows."""
SQUEEZED = "/".join(
    (
        ".xx.xxxxxx",
        ".xx.xx.xx.",
        "xxxxxx.xx.",
        *[".........."] * 7,
    )
)
"""Rows 1-3 need 6 stars and their undecided cells fit in 4 2x2 blocks; each row, rows 1-2
and rows 2-3 have room for their stars."""


def test_three_adjacent_rows_break_the_rules_where_no_fewer_of_them_do() -> None:
    view = view_of(ROWS, SQUEEZED)
    grid, marks = view.grid, (set(view.stars), set(view.blanks))

    def cramped(*units: int) -> bool:
        return Broken("cramped", units, (), frozenset()).holds(grid, *marks)

    assert cramped(0, 1, 2)
    assert not any(cramped(*units) for units in ((0,), (1,), (2,), (0, 1), (1, 2), (2, 3)))
    broken = Broken("cramped", (0, 1, 2), (), frozenset())
    found = broken.found(view)
    assert found.sentence == (
        "rows 1-3 need 6 stars but their undecided cells fit in 4 2x2 blocks, one star each: "
        "a contradiction"
    )
    assert found.units == (0, 1, 2) and len(found.cells) == 30 - 8  # the marks in them
    assert broken.outcome(grid) == "rows 1-3 would have too little room for their stars"


def test_one_unit_says_its_own_rule() -> None:
    view = view_of(ROWS, SQUEEZED)
    grid, marks = view.grid, (set(view.stars), set(view.blanks))
    region_a = Broken("no-room", (20,), (), frozenset())
    assert region_a.holds(grid, *marks) is False  # 2 undecided cells for its 2 stars
    assert region_a.holds(grid, marks[0], marks[1] | {0}) is True
    assert region_a.outcome(grid) == "region A would have no room for its stars"
    assert Broken("too-many", (0,), (), frozenset()).outcome(grid) == (
        "row 1 would have too many stars"
    )
