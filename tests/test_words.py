"""How units and counts are said: numbered lines as ranges."""

from __future__ import annotations

import pytest

from starbattle.words import numbered


@pytest.mark.parametrize(
    ("numbers", "said"),
    [
        ([3], "row 3"),
        ([3, 4], "rows 3-4"),
        ([5, 1, 2, 3], "rows 1-3 and 5"),
        ([1, 2, 4, 5], "rows 1-2 and 4-5"),
        ([1, 3, 5, 7], "rows 1, 3, 5 and 7"),
        ([1, 2, 3, 4, 7, 8, 9], "rows 1-4 and 7-9"),
    ],
)
def test_numbered_lines_say_each_run_as_a_range(numbers: list[int], said: str) -> None:
    assert numbered("row", numbers) == said
