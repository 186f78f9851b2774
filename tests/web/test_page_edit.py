"""Edit mode, the setter's workshop: a board drawn from blank to a unique puzzle with only the
page, its verdict after each edit (the cells it names lit), a suggested fix previewed and
applied, the board exported and played, and a cancelled edit's verdict never shown."""

from __future__ import annotations

import json
import re
from contextlib import suppress
from urllib.parse import quote, unquote

import pytest
from helpers import ROOT
from test_page_layout import swipe
from webserver import post, serious_violations

UNIQUE = ["AAABBB", "ABBBCC", "ADDEEC", "FFDDEC", "FEEEEC", "FCCCCC"]
"""pzprjs's 6x6 1-star test puzzle (instances/pzprjs-6x6-1star.lp): one solution."""
SEVERAL = ["AAABBB", "ABBBBC", "ADDEEC", "FFDDEC", "FEEEEC", "FCCCCC"]
"""The same with cell (2,5) moved from region C to region B: two or more solutions."""
STROKES = {  # each a walk through one region of SEVERAL, drawn into a blank board's region A
    "B": [(2, 2), (2, 3), (2, 4), (1, 4), (1, 5), (1, 6), (1, 5), (2, 5)],
    "C": [(2, 6), (3, 6), (4, 6), (5, 6), (6, 6), (6, 5), (6, 4), (6, 3), (6, 2)],
    "D": [(3, 2), (3, 3), (4, 3), (4, 4)],
    "E": [(3, 4), (3, 5), (4, 5), (5, 5), (5, 4), (5, 3), (5, 2)],
    "F": [(4, 2), (4, 1), (5, 1), (6, 1)],
}


def board_text(rows: list[str]) -> str:
    return json.dumps({"stars": 1, "regions": rows})


def cells_of(rows: list[str], label: str) -> list[tuple[int, int]]:
    return [(r + 1, c + 1) for r, row in enumerate(rows) for c, x in enumerate(row) if x == label]


def partition(rows: list) -> set[frozenset]:
    """A board's regions as sets of cells, whatever their labels."""
    labels = {x for row in rows for x in row}
    return {frozenset(cells_of(rows, label)) for label in labels}


def edit(player, rows: list[str] | None = None) -> None:
    """Edit mode: the page's own switch, or an edit address holding a board."""
    if rows is None:
        player.page.click("label:has(#page-edit)")
    else:
        player.page.goto("about:blank")
        player.page.goto(f"{player.server.url}#e={quote(board_text(rows), safe='')}")
        player.ready()
    player.page.wait_for_selector("body.editing")


def verdict(player, start: str) -> str:
    """Wait for the verdict line to start so; its text."""
    return player.wait_text("#verdict", start)


def drag(player, cells: list[tuple[int, int]]) -> None:
    """Press on the first cell, move through the others' centres, release."""
    mouse = player.page.mouse
    for k, (r, c) in enumerate(cells):
        box = player.cell(r, c).bounding_box()
        mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=2)
        if k == 0:
            mouse.down()
    mouse.up()


def shown_regions(player) -> list[str]:
    """The region of each cell as its label says, row by row."""
    labels = player.page.eval_on_selector_all(
        "#board [role=gridcell]",
        "cells => cells.map(c => c.getAttribute('aria-label').split(', ')[2].split(' ')[1])",
    )
    n = player.size
    return ["".join(labels[r * n : (r + 1) * n]) for r in range(n)]


def test_draw_a_unique_puzzle_from_blank_export_it_and_play_it(player):
    player.open()
    edit(player)
    player.page.select_option("#edit-size", "6")
    player.page.select_option("#edit-stars", "1")
    player.page.click("#edit-blank")
    player.wait_for_size(6)
    text = verdict(player, "Regions not valid: the board has 1 region; a 6x6 board needs 6")
    assert "region A (blue) (36 cells)" in text
    assert len(player.cells_with("wrong")) == 36
    drawn = ["AAAAAA"] * 6
    for count, (label, stroke) in enumerate(STROKES.items(), start=2):
        player.page.click("#new-region")
        assert player.page.is_checked(f"#swatch-list input[value={label}]")
        drag(player, stroke)
        drawn = [
            "".join(label if (r + 1, c + 1) in stroke else x for c, x in enumerate(row))
            for r, row in enumerate(drawn)
        ]
        assert shown_regions(player) == drawn
        if count < 6:
            text = verdict(player, f"Regions not valid: the board has {count} regions")
            named = re.search(r"e\.g\. region (\w)", text).group(1)
            assert sorted(player.cells_with("wrong")) == cells_of(drawn, named)
    assert drawn == SEVERAL
    text = verdict(player, "2 or more solutions: a second solution (faint stars) differs in")
    differ = player.cells_with("differ")
    assert f"differs in {len(differ)} cells" in text and len(differ) % 2 == 0
    second = set(player.cells_with("ghost-star"))
    assert len(second) == 6 and len(second & set(differ)) == len(differ) // 2
    assert player.cells_with("wrong") == []
    # one cell back to region C: pzprjs's puzzle, unique
    player.page.click("#swatch-list label:has(input[value=C])")
    player.cell(2, 5).click()
    assert shown_regions(player) == UNIQUE
    verdict(player, "Unique: exactly one solution")
    text = verdict(player, "Unique: exactly one solution; ")
    assert re.fullmatch(
        r"Unique: exactly one solution; \w+ \(score [\d.]+\), hardest step: [\w-]+\.", text
    )
    assert player.cells_with("differ") == [] and player.cells_with("ghost-star") == []
    player.page.click("#explain")  # how the hint ladder solves it, step by step
    assert player.wait_text("#step-at", "step 1 of ") != "step 1 of 1"
    assert player.text("#hint-text").startswith("Step 1: ")
    assert player.text("#verdict").startswith("Unique: exactly one solution; ")
    # kept in the address: a reload brings back the board and the tool
    address = player.page.evaluate("location.hash")
    assert json.loads(unquote(address.split("&")[0].removeprefix("#e=")))["regions"] == UNIQUE
    assert "tool=paint&region=C" in address
    player.page.reload()
    player.ready()
    player.page.wait_for_selector("body.editing")
    assert shown_regions(player) == UNIQUE
    assert player.page.is_checked("#swatch-list input[value=C]")
    verdict(player, "Unique: exactly one solution; ")
    # exported as a puzz.link URL that reads back as the same regions
    player.page.select_option("#export-format", "url")
    player.page.click("#export-copy")
    player.page.wait_for_function("document.querySelector('#export-out').value !== ''")
    url = player.page.input_value("#export-out")
    assert url.startswith("https://puzz.link/p?starbattle/6/6/1/")
    status, answer = post(player.server, "board", {"board": url})
    assert status == 200 and partition(answer["records"][0]["regions"]) == partition(UNIQUE)
    # played: the same board in play mode, and a hint works on it
    player.page.click("#play-it")
    player.page.wait_for_selector("body:not(.editing)")
    assert player.page.is_checked("#page-play")
    assert partition(shown_regions(player)) == partition(UNIQUE)
    player.page.click("#hint")
    assert player.wait_text("#hint-text", "Hint 1 of 3").startswith("Hint 1 of 3: ")
    assert player.page.evaluate("location.hash").startswith("#p=")


def test_a_suggested_fix_is_previewed_as_arrows_and_applied_as_an_edit(player):
    edit(player, SEVERAL)
    verdict(player, "2 or more solutions")
    player.page.click("#suggest")
    player.page.wait_for_selector("#fixes .fix")
    fix = player.page.locator("#fixes .fix").first
    words = fix.inner_text()
    assert re.fullmatch(r"Move \(.*: unique(, (easy|medium|hard|expert|extreme))?", words)
    moves = re.findall(r"\((\d),(\d)\) from region (\w) \(\w+\) to region (\w)", words)
    assert moves
    fix.hover()
    arrows = player.cells_with("arrow")
    assert sorted(arrows) == sorted((int(r), int(c)) for r, c, _, _ in moves)
    for r, c, _, target in moves:
        label = player.cell(int(r), int(c)).get_attribute("aria-label")
        assert f"moves to region {target} (" in label
        assert player.cell(int(r), int(c)).get_attribute("data-arrow") in "↑↓←→"
    assert shown_regions(player) == SEVERAL  # a preview changes nothing
    fix.click()
    fixed = [list(row) for row in SEVERAL]
    for r, c, _, target in moves:
        fixed[int(r) - 1][int(c) - 1] = target
    assert shown_regions(player) == ["".join(row) for row in fixed]
    verdict(player, "Unique: exactly one solution")
    assert player.page.locator("#fixes .fix").count() == 0 and player.cells_with("arrow") == []
    player.page.keyboard.press("Control+z")
    assert shown_regions(player) == SEVERAL
    verdict(player, "2 or more solutions")
    player.page.keyboard.press("Control+y")
    assert shown_regions(player) == ["".join(row) for row in fixed]


def test_the_verdict_of_a_cancelled_edit_never_appears_after_a_newer_one(player):
    """The first edit's verdict is held back by the test and answered after the second edit
    (the page's timers run only when the test says): the page never shows it."""
    player.page.clock.install()
    edit(player, UNIQUE)
    player.page.clock.run_for(1000)
    verdict(player, "Unique: exactly one solution; ")
    held = []

    def hold_the_first(route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    player.page.route("**/api/verdict", hold_the_first)
    player.page.click("#swatch-list label:has(input[value=B])")
    player.cell(2, 5).click()  # SEVERAL: its verdict asked, and held back
    with player.page.expect_request("**/api/verdict"):
        player.page.clock.run_for(200)
    assert shown_regions(player) == SEVERAL and len(held) == 1
    player.page.click("#swatch-list label:has(input[value=C])")
    player.cell(2, 5).click()  # UNIQUE again, before its verdict is asked
    player.page.evaluate(
        """() => { window.seen = [];
                   new MutationObserver(() => seen.push(verdict.textContent))
                     .observe(verdict, {childList: true, characterData: true, subtree: true}); }"""
    )
    stale = post(player.server, "verdict", {"board": board_text(SEVERAL), "grade": False})[1]
    with suppress(Exception):  # the page stopped the request: there is no one to answer
        held[0].fulfill(json=stale)
    player.page.wait_for_timeout(300)  # room for an answer the page should not show
    player.page.clock.run_for(200)
    verdict(player, "Unique: exactly one solution; ")
    seen = player.page.evaluate("window.seen")
    assert seen and all(text.startswith(("Judging", "Unique")) for text in seen), seen
    assert player.cells_with("differ") == [] and player.cells_with("ghost-star") == []


def test_a_region_cut_in_two_lights_its_stray_piece(player):
    edit(player, UNIQUE)
    verdict(player, "Unique")
    player.page.click("#swatch-list label:has(input[value=E])")
    player.cell(4, 3).click()  # region D's (3,3) and (4,4) now touch only at a corner
    text = verdict(player, "Regions not valid: region D (")
    assert "is in 2 separate pieces" in text
    assert player.cells_with("wrong") == [(4, 4)]


def test_a_puzzle_without_solution_says_why_with_its_cells_lit(player):
    player.open((ROOT / "instances" / "crafted-6x6-no-solution.lp").read_text())
    edit(player)
    text = verdict(player, "No solution. Why: ")
    sketch = unquote(player.page.evaluate("location.hash").split("&")[0].removeprefix("#e="))
    (record,) = post(player.server, "verdict", {"board": sketch, "grade": False})[1]["records"]
    uncoloured = re.sub(r"\b(\w+) \([a-z]+\)", r"\1", text)  # each region named with its colour
    assert uncoloured == f"No solution. Why: {record['why']['sentence']}" != text
    assert sorted(player.cells_with("wrong")) == sorted(map(tuple, record["why"]["cells"]))
    assert player.cells_with("wrong")


@pytest.mark.slow
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_axe_finds_no_serious_violation_in_edit_mode(open_player, screen):
    player = open_player(screen)
    edit(player, SEVERAL)
    found = {}
    for moment in ("several", "fixes", "blank"):
        if moment == "several":
            verdict(player, "2 or more solutions")
        if moment == "fixes":
            player.page.click("#suggest")
            player.page.locator("#fixes .fix").first.hover()
        if moment == "blank":
            player.page.click("#edit-blank")
            verdict(player, "Regions not valid")
        found[moment] = serious_violations(player.page)
    assert found == {"several": [], "fixes": [], "blank": []}


@pytest.mark.slow
def test_edit_tools_are_44_pixels_and_messages_move_nothing(open_player):
    player = open_player("phone")
    player.open((ROOT / "instances" / "generated-25x25-6star.lp").read_text())
    edit(player)
    verdict(player, "Unique")
    small = player.page.evaluate(
        """() => [...document.querySelectorAll('button, select, .modes label, .swatch')]
              .filter(e => e.offsetParent !== null)
              .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
              .filter(([, r]) => r.width < 44 || r.height < 44).map(([name]) => name)"""
    )
    assert small == []
    grid = player.page.locator("#grid").bounding_box()
    assert grid["x"] >= 0 and grid["x"] + grid["width"] <= 390
    before = player.page.locator("#board").bounding_box()
    for where in ("#status", "#verdict", "#hint-text"):
        player.page.evaluate(f"document.querySelector('{where}').textContent = 'x '.repeat(400)")
    assert player.page.locator("#board").bounding_box() == before


@pytest.mark.slow
def test_keys_reach_the_tools_and_a_swipe_in_pan_paints_nothing(open_player):
    player = open_player("phone")
    edit(player, UNIQUE)
    verdict(player, "Unique")
    player.page.click("#tools label:has(input[value=pan])")
    swipe(player, (1, 1), (6, 6))
    swipe(player, (2, 2), (2, 6))
    assert shown_regions(player) == UNIQUE
    assert "tool=pan" in player.page.evaluate("location.hash")
    player.page.click("#tools label:has(input[value=star])")
    player.page.focus("#board")
    for key in ("ArrowDown", "ArrowRight", "Space"):
        player.page.keyboard.press(key)
    assert player.cells_with("given") == [(2, 2)]
    player.page.keyboard.press("Control+z")
    assert player.cells_with("given") == []
    player.page.focus("#tools input[value=star]")
    player.page.keyboard.press("ArrowRight")  # a radio group: arrows choose the next tool
    assert player.page.is_checked("#tools input[value=blank]")


@pytest.mark.slow
def test_edit_starts_from_a_generated_puzzle_and_from_the_one_played(player):
    player.open((ROOT / "instances" / "norvig-5x5-1star.lp").read_text())
    played = shown_regions(player)
    edit(player)
    verdict(player, "2 or more solutions")  # Norvig's 5x5 has two
    player.page.select_option("#edit-size", "6")
    player.page.click("#edit-made")
    player.wait_for_size(6)
    verdict(player, "Unique: exactly one solution; ")
    assert player.text("#info") == "Editing 6\u00d76, 1 ★"
    player.page.click("#edit-undo")  # a new start is an edit too
    player.wait_for_size(5)
    assert partition(shown_regions(player)) == partition(played)
    assert player.page.input_value("#edit-size") == "5"  # the start form follows the board
    player.page.select_option("#edit-size", "6")
    player.page.click("#edit-blank")
    player.wait_for_size(6)
    assert shown_regions(player) == ["AAAAAA"] * 6
    player.page.click("#edit-this")
    player.wait_for_size(5)
    assert partition(shown_regions(player)) == partition(played)
    player.page.click("label:has(#page-play)")
    player.page.wait_for_selector("body:not(.editing)")
    assert shown_regions(player) == played
