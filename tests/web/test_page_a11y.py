"""Accessibility: axe-core finds no serious or critical violation, keyboard play keeps focus
where it was, the cursor is seen on every region colour, and no two regions share one."""

from __future__ import annotations

import io

import pytest
from helpers import ROOT
from webserver import post, serious_violations

pytestmark = pytest.mark.slow
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()
BIG = (ROOT / "instances" / "generated-25x25-6star.lp").read_text()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_axe_finds_no_serious_violation(open_player, screen):
    player = open_player(screen)
    player.open(TEN)
    player.page.wait_for_function("document.querySelector('#tier').textContent !== ''")
    found = {}
    for moment in ("start", "hint", "solved"):
        if moment == "hint":
            for level in (1, 2, 3):
                player.page.click("#hint")
                player.wait_text("#hint-text", f"Hint {level} of 3")
        if moment == "solved":
            (solution, _) = post(player.server, "solve", {"board": TEN})[1]["records"]
            for r, c in solution["stars"]:
                player.cell(r, c).click()
            player.page.wait_for_selector("#done[open]")
        found[moment] = serious_violations(player.page)
    assert found == {"start": [], "hint": [], "solved": []}


def test_enter_on_a_button_keeps_the_focus_there(player):
    player.open(TEN)
    player.page.focus("#hint")
    for level in (1, 2, 3):
        player.page.keyboard.press("Enter")
        player.wait_text("#hint-text", f"Hint {level} of 3")
        assert player.page.evaluate("document.activeElement.id") == "hint"
    player.page.focus("#hint-apply")
    player.page.keyboard.press("Enter")
    assert player.page.evaluate("document.activeElement.id") == "hint-apply"
    player.page.focus("#undo")
    player.page.keyboard.press("Enter")
    assert player.page.evaluate("document.activeElement.id") == "undo"


def test_the_cursor_is_the_active_descendant_and_seen_on_every_colour(player):
    image = pytest.importorskip("PIL.Image")
    player.open(BIG)
    player.page.focus("#board")
    board = player.page.locator("#board")
    first = player.page.eval_on_selector_all(
        "#board [role=gridcell]:has(.name)", "cells => cells.map(c => c.id)"
    )
    assert len(first) == 25
    at = (1, 1)
    for target in first:
        r, c = map(int, target.split("-")[1:])
        moves = ["ArrowDown"] * (r - at[0]) + ["ArrowUp"] * (at[0] - r)
        moves += ["ArrowRight"] * (c - at[1]) + ["ArrowLeft"] * (at[1] - c)
        for key in moves:
            player.page.keyboard.press(key)
        at = (r, c)
        assert board.get_attribute("aria-activedescendant") == target
        label = player.page.get_attribute(f"#{target}", "aria-label")
        assert label.startswith(f"row {r}, column {c}, region ")
        shot = image.open(io.BytesIO(player.page.locator(f"#{target}").screenshot()))
        width, height = shot.size
        for edge in (
            [shot.getpixel((x, height // 2))[:3] for x in range(8)],  # in from the left
            [shot.getpixel((width // 2, y))[:3] for y in range(8)],  # down from the top
        ):  # a white ring and a black one, whatever the region's colour
            assert any(min(p) > 235 for p in edge) and any(max(p) < 40 for p in edge), edge


def test_every_region_has_a_colour_of_its_own(player):
    player.open(BIG)
    colours = player.page.evaluate(
        """() => {
          const seen = {};
          for (const cell of document.querySelectorAll('#board [role=gridcell]')) {
            const region = cell.getAttribute('aria-label').split(', ')[2].split(':')[0];
            (seen[region] = seen[region] || new Set()).add(getComputedStyle(cell).backgroundColor);
          }
          return Object.entries(seen).map(([region, set]) => [region, [...set]]);
        }"""
    )
    assert len(colours) == 25
    assert all(len(shades) == 1 for _, shades in colours)
    assert len({shades[0] for _, shades in colours}) == 25
    words = {region.split("(")[1].rstrip(")") for region, _ in colours}
    assert len(words) == 25
