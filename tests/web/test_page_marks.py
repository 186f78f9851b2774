"""Marks players use: pencil dots, and trial marks kept or dropped as a block; both undone
and redone, both in the address and the browser's storage."""

from __future__ import annotations

import pytest
from helpers import ROOT
from webserver import marks_with

pytestmark = pytest.mark.slow
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()


def mode(player, name: str) -> None:
    player.page.click(f"#modes label:has(input[value={name}])")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_dots_are_a_third_mark_the_engine_never_sees(open_player, screen):
    player = open_player(screen)
    player.open(TEN)
    mode(player, "dot")
    for cell in ((1, 1), (1, 2)):
        player.cell(*cell).tap() if screen == "phone" else player.cell(*cell).click()
    mode(player, "star")
    player.cell(5, 5).click()
    expected = marks_with(10, [(5, 5)], dots=[(1, 1), (1, 2)])
    assert player.marks() == expected
    assert f"&m={expected}" in player.page.url
    with player.page.expect_request("**/api/hint") as asked:
        player.page.click("#hint")
    assert asked.value.post_data_json["marks"] == {"stars": [[5, 5]], "blanks": []}
    player.page.click("#undo")
    assert player.marks() == marks_with(10, dots=[(1, 1), (1, 2)])
    player.page.click("#undo")
    player.page.click("#redo")
    player.page.reload()
    player.ready()
    assert player.marks() == marks_with(10, dots=[(1, 1), (1, 2)])


def test_trial_marks_are_dropped_as_a_block_and_undone_as_one(player):
    player.open(TEN)
    player.cell(1, 1).click()
    player.page.click("#trial")
    assert player.page.get_attribute("#trial", "aria-pressed") == "true"
    player.cell(3, 3).click()
    player.cell(4, 5).click(button="right")
    player.cell(1, 1).click()  # a mark kept before the trial stays
    tried = marks_with(10, [(1, 1), (3, 3)], [(4, 5)]).replace("*", "S").replace("x", "X")
    tried = "*" + tried[1:]  # (1,1) was marked before the trial: S and X are trial marks
    assert player.marks() == tried
    assert f"&m={tried}" in player.page.url
    player.page.reload()
    player.ready()
    assert player.marks() == tried
    assert player.page.is_visible("#trial-drop")
    player.page.click("#trial-drop")
    assert player.marks() == marks_with(10, [(1, 1)])
    assert player.page.get_attribute("#trial", "aria-pressed") == "false"
    player.page.click("#undo")
    assert player.marks() == tried
    player.page.click("#trial-keep")
    assert player.marks() == marks_with(10, [(1, 1), (3, 3)], [(4, 5)])
    player.page.click("#undo")
    assert player.marks() == tried
    player.page.click("#redo")
    assert player.marks() == marks_with(10, [(1, 1), (3, 3)], [(4, 5)])
