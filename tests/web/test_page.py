"""The page end to end in a real browser: Playwright driving Debian's headless Chromium.

Every scenario also asserts that the page logged no console error and asked nothing of any
address but the local server (conftest.py). Skipped, saying why, without Playwright or a
Chromium binary (`apt-get install chromium-headless-shell`; .ci/run installs it).
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import ROOT
from webserver import marks_with, post, request

from starbattle.io.inputs import read_board
from starbattle.io.pictures import render_png
from starbattle.logic.registry import BY_NAME

pytestmark = pytest.mark.slow  # a real browser: about a second per scenario
TIMES = "\N{MULTIPLICATION SIGN}"
URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
SOLUTION = [(1, 2), (2, 4), (3, 6), (4, 3), (5, 5), (6, 1)]
SEVERAL = (ROOT / "instances" / "planted-10x10-2star-several.lp").read_text()
ROWS_20 = "stars: 1\n" + "\n".join(chr(ord("A") + k) * 20 for k in range(20)) + "\n"


@pytest.fixture(scope="module")
def features(server):
    return json.loads(request(f"{server.url}api/features")[1])


def needs(features, name):
    if not features[name]:
        pytest.skip(f"/api/{name} is not available in this version (its module is not installed)")


def test_a_first_visit_opens_a_puzzle_to_play_and_a_broken_link_says_so(open_player):
    """With no address, no `serve FILE` and nothing kept, the page opens the shipped 10x10 (one
    solution: not the first file by name, whose board has none); a link whose board cannot be
    read says why in the status line over that same puzzle."""
    first = open_player()
    first.open()
    assert first.text("#info") == f"10{TIMES}10, 2 ★"
    assert first.text("#warning") == "" and first.text("#status") == ""
    broken = open_player()
    broken.open("garbage!!")
    assert broken.text("#info") == f"10{TIMES}10, 2 ★"
    assert broken.text("#status").startswith("The puzzle asked for could not be opened (")
    assert broken.text("#status").endswith("); here is a shipped one.")
    assert broken.errors == [  # the browser's own line for the refusal: expected
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ]
    broken.errors.clear()


def test_a_page_whose_server_fails_says_so_and_its_buttons_ask_for_a_puzzle(open_player):
    """When the server answers none of the page's first requests, the status line says so and
    Hint, Check and Explain say a puzzle is needed (not a script error over an empty board)."""
    failing = open_player()
    failing.page.route("**/api/instances", lambda route: route.fulfill(status=500, body="{}"))
    failing.page.goto(failing.server.url)
    failing.page.wait_for_selector("body[data-ready=yes]")
    assert failing.text("#status").startswith("The page's server did not answer (/api/instances")
    assert failing.text("#status").endswith("Reload the page once it is.")
    for button in ("#hint", "#check", "#explain"):
        failing.page.click(button)
        assert failing.text("#status") == (
            "No puzzle is open: make one, choose a shipped one or paste one under New puzzle."
        )
    assert failing.errors == [  # the browser's own line for the failed request: expected
        "Failed to load resource: the server responded with a status of 500 (Internal Server Error)"
    ]
    failing.errors.clear()


def test_load_by_url(player):
    player.open()
    player.page.fill("#source", URL)
    player.page.click("#load")
    # The page opens on the first shipped puzzle, with a URL of its own: wait for this one's.
    player.page.wait_for_function("url => document.querySelector('#url').value === url", arg=URL)
    assert player.text("#info") == f"6{TIMES}6, 1 ★"
    assert quote(URL, safe="") in player.page.url


def test_play_a_puzzle_to_the_end(player):
    player.open(URL)
    for r, c in SOLUTION:
        player.cell(r, c).click()
    player.page.wait_for_selector("#status.solved")
    assert player.text("#status").startswith("Complete! Solved in ")
    assert player.marks() == marks_with(6, SOLUTION)


def test_undo_and_redo_a_dragged_stroke(player):
    player.open(URL)
    player.cell(1, 1).click()
    start, end = player.cell(6, 2).bounding_box(), player.cell(6, 4).bounding_box()
    mouse = player.page.mouse
    mouse.move(start["x"] + 5, start["y"] + 5)
    mouse.down(button="right")
    mouse.move(end["x"] + 5, end["y"] + 5, steps=8)
    mouse.up(button="right")
    assert player.marks() == marks_with(6, [(1, 1)], [(6, 2), (6, 3), (6, 4)])
    player.page.click("#undo")
    assert player.marks() == marks_with(6, [(1, 1)])
    player.page.click("#undo")
    assert player.marks() == marks_with(6)
    player.page.click("#redo")
    player.page.click("#redo")
    assert player.marks() == marks_with(6, [(1, 1)], [(6, 2), (6, 3), (6, 4)])


def test_check_names_the_first_wrong_mark(player):
    player.open(URL)
    player.cell(1, 1).click()
    player.page.click("#check")
    player.page.wait_for_selector("#status.error")
    assert player.text("#status") == (
        "These marks can no longer become a solution. "
        "First wrong mark: the star at row 1, column 1."
    )
    assert player.cells_with("wrong") == [(1, 1)]


def test_always_check_names_a_broken_rule(player):
    player.open(URL)
    player.page.click("#check-panel summary")
    player.page.select_option("#check-mode", "always")
    player.cell(1, 2).click()
    player.page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert player.text("#status") == "No mistakes so far: these marks can still become a solution."
    player.cell(2, 3).click()
    player.page.wait_for_selector("#status.error")
    assert "touch" in player.text("#status")
    assert player.cells_with("wrong") == [(1, 2), (2, 3)]


def test_a_full_wrong_board_says_so_with_check_off(player):
    player.open(URL)
    player.page.click("#check-panel summary")
    player.page.select_option("#check-mode", "off")
    for r in range(1, 7):
        player.cell(r, 1 + (2 * r) % 6).click()
    assert player.wait_text("#status", "The board is full but not solved yet")
    assert not player.page.locator("#done").is_visible()


def test_auto_x_marks_the_neighbours(player):
    player.open(URL)
    player.page.click("#check-panel summary")
    player.page.check("#autox")
    player.cell(3, 3).click()
    around = [(r, c) for r in (2, 3, 4) for c in (2, 3, 4) if (r, c) != (3, 3)]
    assert player.marks() == marks_with(6, [(3, 3)], around)
    player.page.click("#undo")
    assert player.marks() == marks_with(6)


def test_hint_levels(player, server):
    player.open(URL)
    player.page.click("#hint")
    assert player.wait_text("#hint-text", "Hint 1 of 3: ")
    (step,) = post(server, "hint", {"board": URL})[1]["records"]
    plain = BY_NAME[step["technique"]].plain  # the technique registry's name for people
    assert player.text("#hint-text") == f"Hint 1 of 3: {plain}."
    assert player.text("#hint") == "More"
    assert player.cells_with("conclusion") == []
    player.page.click("#hint")
    assert player.wait_text("#hint-text", "Hint 2 of 3: ")
    assert "Look at" in player.text("#hint-text")
    assert player.cells_with("unit") or player.cells_with("premise")
    player.page.click("#hint")
    assert player.wait_text("#hint-text", "Hint 3 of 3: ")
    assert player.cells_with("conclusion")
    assert player.page.get_attribute("#hint-apply", "aria-disabled") == "false"
    assert player.text("#hint") == "Hint"


def test_apply_a_hint_marks_all_it_concludes(player):
    player.open(URL)
    for level in (1, 2, 3):
        player.page.click("#hint")
        player.wait_text("#hint-text", f"Hint {level} of 3")
    stars, blanks = player.cells_with("will-star"), player.cells_with("will-blank")
    assert stars or blanks
    player.page.click("#hint-apply")
    assert player.marks() == marks_with(6, stars, blanks)
    assert player.text("#hint") == "Hint"  # the hint is gone: nothing "More" to say
    assert player.text("#hint-text") == ""


def test_step_through_the_explanation(player):
    player.open(URL)
    player.page.click("#explain")
    player.page.wait_for_function("document.querySelector('#step-at').textContent.length > 0")
    total = int(player.text("#step-at").split()[-1])
    assert player.text("#step-at") == f"step 1 of {total}"
    player.page.click("#step-next")
    assert player.text("#step-at") == f"step 2 of {total}"


def test_solve_shows_the_solution(player):
    player.open(URL)
    player.page.click("#check-panel summary")
    player.page.click("#solve")
    player.page.wait_for_function("document.querySelector('#solve-text').textContent.includes('.')")
    assert player.text("#solve-text") == "Unique: exactly one solution."
    assert player.cells_with("ghost-star") == SOLUTION


def test_a_puzzle_that_is_not_unique(player, server):
    player.open(SEVERAL)
    assert player.wait_text("#warning", "This puzzle has more than one solution")
    player.page.click("#check-panel summary")
    player.page.click("#solve")
    player.page.wait_for_selector("#other:not([hidden])")
    records = post(server, "solve", {"board": SEVERAL})[1]["records"]
    difference = next(record for record in records if record["type"] == "difference")
    cells = [tuple(cell) for cell in difference["cells"]]
    assert player.text("#solve-text") == (
        f"Not unique: a second solution differs in {len(cells)} cells (outlined)."
    )
    assert player.cells_with("differ") == cells
    player.page.click("#other")
    assert player.cells_with("ghost-star") == sorted(tuple(c) for c in difference["stars"])


def test_a_puzzle_without_solution_warns_on_load(player):
    player.open((ROOT / "instances" / "crafted-6x6-no-solution.lp").read_text())
    assert player.wait_text("#warning", "This puzzle has no solution")


def test_forced_cells(player, server):
    player.open(SEVERAL)
    player.page.click("#check-panel summary")
    player.page.click("#fixed")
    player.wait_text("#solve-text", "Forced")
    fixed = post(server, "solve", {"board": SEVERAL, "fixed": True})[1]["records"][0]
    assert player.cells_with("ghost-star") == [tuple(cell) for cell in fixed["stars"]]
    assert (len(fixed["stars"]), len(fixed["blanks"]), fixed["open"]) == (10, 63, 27)
    assert player.text("#solve-text") == (
        "Forced: 10 stars and 63 empty cells are the same in every solution; 27 cells are open."
    )


def test_counts_of_one_are_said_in_the_singular(player):
    player.open(URL)
    said = player.page.evaluate(
        """async () => {
          const {counted, forcedText} = await import("/static/ui.js");
          return [counted(1, "star"), counted(2, "fix", "fixes"), counted(0, "step"),
                  forcedText({stars: [[1, 1]], blanks: [[1, 2]], open: 1})];
        }"""
    )
    assert said == [
        "1 star",
        "2 fixes",
        "0 steps",
        "Forced: 1 star and 1 empty cell are the same in every solution; 1 cell is open.",
    ]


def test_import_a_screenshot(player, features, tmp_path):
    needs(features, "import")
    picture = tmp_path / "board.png"
    picture.write_bytes(render_png(read_board(URL)))
    player.open(URL)
    player.page.set_input_files("#image", str(picture))
    player.wait_text("#status", "Read")
    player.page.click("#share-panel summary")
    assert player.page.input_value("#url") == URL


def test_export_url_svg_and_png(player):
    player.open(URL)
    player.page.click("#share-panel summary")
    assert player.page.input_value("#url") == URL
    with player.page.expect_download() as svg:
        player.page.click("#svg")
    assert svg.value.suggested_filename == "starbattle-6x6.svg"
    assert Path(svg.value.path()).read_text().startswith("<svg")
    with player.page.expect_download() as png:
        player.page.click("#png")
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_keyboard_only(player):
    player.open(URL)
    for _ in range(30):
        player.page.keyboard.press("Tab")
        if player.page.evaluate("document.activeElement.id") == "board":
            break
    assert player.page.evaluate("document.activeElement.id") == "board"
    for key in ("ArrowRight", "Space", "ArrowDown", "ArrowDown", "x", "ArrowDown", "."):
        player.page.keyboard.press(key)
    assert player.marks() == marks_with(6, [(1, 2)], [(3, 2)], [(4, 2)])
    assert player.cells_with("cursor") == [(4, 2)]
    player.page.keyboard.press("z")
    assert player.marks() == marks_with(6, [(1, 2)], [(3, 2)])
    player.page.keyboard.press("y")
    assert player.marks() == marks_with(6, [(1, 2)], [(3, 2)], [(4, 2)])


def test_generate_and_open_a_shipped_instance(player):
    player.open(URL)
    player.page.select_option("#gen-size", "5")
    player.page.select_option("#gen-stars", "1")
    player.page.click("#generate")
    player.wait_text("#info", f"5{TIMES}5")
    player.page.select_option("#instance", "pzprjs-6x6-1star")
    player.wait_text("#info", f"6{TIMES}6")
    player.page.click("#share-panel summary")
    assert player.page.input_value("#url") == URL


def test_a_given_star_looks_apart_from_the_players_stars(player):
    player.open((ROOT / "instances" / "norvig-5x5-given.lp").read_text())
    player.cell(3, 1).click()
    look = """c => { const s = getComputedStyle(c, '::after');
                     return [s.content, s.backgroundColor, s.color]; }"""
    given = player.cell(1, 5).evaluate(look)
    mine = player.cell(3, 1).evaluate(look)
    assert given[0] == mine[0] == '"★"'
    assert (given[1], given[2]) == ("rgb(17, 17, 17)", "rgb(255, 255, 255)")  # white on black
    assert mine[1] == "rgba(0, 0, 0, 0)"
    assert player.cell(1, 5).get_attribute("aria-label").endswith(": given star")
    player.cell(1, 5).click()  # a given cannot be changed
    assert player.marks()[4] == "*"
