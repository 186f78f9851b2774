"""The page end to end in a real browser: Playwright driving Debian's headless Chromium.

Every scenario also asserts that the page logged no console error and asked nothing of any
address but the local server. Skipped, saying why, without Playwright or a Chromium binary
(`apt-get install chromium-headless-shell`; .ci/run installs it).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import ROOT
from webserver import post, request, running

from starbattle.io.inputs import read_board
from starbattle.io.pictures import render_png

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

CHROMIUM = os.environ.get("STARBATTLE_CHROMIUM") or next(
    filter(None, map(shutil.which, ("chromium-headless-shell", "chromium"))), None
)
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium binary: apt-get install chromium-headless-shell (or set "
        "STARBATTLE_CHROMIUM)",
    ),
    pytest.mark.slow,  # a real browser: about a second per scenario
]
TIMES = "\N{MULTIPLICATION SIGN}"
URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
SOLUTION = [(1, 2), (2, 4), (3, 6), (4, 3), (5, 5), (6, 1)]
SEVERAL = (ROOT / "instances" / "planted-10x10-2star-several.lp").read_text()
ROWS_20 = "stars: 1\n" + "\n".join(chr(ord("A") + k) * 20 for k in range(20)) + "\n"


@pytest.fixture(scope="module")
def server():
    with running() as started:
        yield started


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def features(server):
    return json.loads(request(f"{server.url}api/features")[1])


class Player:
    """One browser context on the page, watching the console and every request."""

    def __init__(self, browser, server, **context_options) -> None:
        self.server = server
        self.context = browser.new_context(accept_downloads=True, **context_options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.context.on("request", self.seen)
        self.size = 0

    def seen(self, request) -> None:
        if not request.url.startswith((self.server.url, "data:", "blob:")):
            self.foreign.append(request.url)

    def open(self, board: str | None = None, marks: str = "") -> None:
        """The page, with a board (and marks) in its hash."""
        hash_ = "" if board is None else f"#p={quote(board, safe='')}&m={marks}"
        self.page.goto(self.server.url + hash_)
        self.ready()

    def ready(self) -> None:
        self.page.wait_for_selector("body[data-ready=yes]")
        self.size = int(
            self.page.eval_on_selector("#board", "b => b.style.getPropertyValue('--n')")
        )

    def cell(self, r: int, c: int):
        return self.page.locator("#board > div").nth((r - 1) * self.size + (c - 1))

    def marks(self) -> str:
        return self.page.eval_on_selector(
            "#board",
            "b => [...b.children].map(d => d.classList.contains('star') ? '*' : "
            "d.classList.contains('blank') ? 'x' : '.').join('')",
        )

    def cells_with(self, name: str) -> list[tuple[int, int]]:
        indexes = self.page.eval_on_selector(
            "#board",
            f"b => [...b.children].flatMap((d, i) => d.classList.contains('{name}') ? [i] : [])",
        )
        return [(i // self.size + 1, i % self.size + 1) for i in indexes]

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def player(browser, server):
    opened = Player(browser, server)
    yield opened
    opened.close()
    assert opened.errors == []
    assert opened.foreign == []


def marks_with(size: int, stars=(), blanks=()) -> str:
    grid = ["."] * (size * size)
    for r, c in blanks:
        grid[(r - 1) * size + c - 1] = "x"
    for r, c in stars:
        grid[(r - 1) * size + c - 1] = "*"
    return "".join(grid)


def test_load_by_url(player):
    player.open()
    player.page.click("#load-panel summary")
    player.page.fill("#source", URL)
    player.page.click("#load")
    # The page opens on a shipped 6x6 puzzle with a URL of its own: wait for this one's.
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
    player.page.select_option("#check-mode", "always")
    player.cell(1, 2).click()
    player.page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert player.text("#status") == "No mistakes so far: these marks can still become a solution."
    player.cell(2, 3).click()
    player.page.wait_for_selector("#status.error")
    assert "touch" in player.text("#status")
    assert player.cells_with("wrong") == [(1, 2), (2, 3)]


def test_auto_x_marks_the_neighbours(player):
    player.open(URL)
    player.page.check("#autox")
    player.cell(3, 3).click()
    around = [(r, c) for r in (2, 3, 4) for c in (2, 3, 4) if (r, c) != (3, 3)]
    assert player.marks() == marks_with(6, [(3, 3)], around)
    player.page.click("#undo")
    assert player.marks() == marks_with(6)


def needs(features, name):
    if not features[name]:
        pytest.skip(f"/api/{name} is not available in this version (its module is not installed)")


def test_hint_levels(player):
    player.open(URL)
    player.page.click("#hint")
    player.page.wait_for_function("document.querySelector('#hint-text').textContent.length > 0")
    assert player.text("#hint-text").startswith("Technique: ")
    assert player.cells_with("conclusion") == []
    player.page.click("#hint")
    assert "Look at" in player.text("#hint-text")
    assert player.cells_with("unit") or player.cells_with("premise")
    player.page.click("#hint")
    assert player.cells_with("conclusion")
    assert player.page.is_enabled("#hint-apply")


def test_apply_a_hint(player):
    player.open(URL)
    for _ in range(3):
        player.page.click("#hint")
    player.page.wait_for_function("!document.querySelector('#hint-apply').disabled")
    concluded = player.cells_with("conclusion")
    player.page.click("#hint-apply")
    marks = player.marks()
    assert all(marks[(r - 1) * 6 + c - 1] != "." for r, c in concluded)


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
    player.page.click("#solve")
    player.page.wait_for_function("document.querySelector('#solve-text').textContent.includes('.')")
    assert player.text("#solve-text") == "Unique: exactly one solution."
    assert player.cells_with("ghost-star") == SOLUTION


def test_stop_a_long_solve(player):
    player.open(ROWS_20)
    player.page.click("#count")
    assert player.text("#solve-text") == "Solving…"
    player.page.wait_for_timeout(300)
    player.page.click("#stop")
    player.page.wait_for_function(
        "document.querySelector('#solve-text').textContent === 'Stopped.'"
    )
    player.page.click("#solve")  # another worker answers at once
    player.page.wait_for_function(
        "document.querySelector('#solve-text').textContent.startsWith('Not unique')", timeout=5000
    )


def test_a_puzzle_that_is_not_unique(player, server):
    player.open(SEVERAL)
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


def test_forced_cells(player, server):
    player.open(SEVERAL)
    player.page.click("#fixed")
    player.page.wait_for_function(
        "document.querySelector('#solve-text').textContent.startsWith('Forced')"
    )
    fixed = post(server, "solve", {"board": SEVERAL, "fixed": True})[1]["records"][0]
    assert player.cells_with("ghost-star") == [tuple(cell) for cell in fixed["stars"]]
    assert player.text("#solve-text") == (
        f"Forced: {len(fixed['stars'])} stars and {len(fixed['blanks'])} empty cells are the "
        f"same in every solution; {fixed['open']} cells are open."
    )


def test_import_a_screenshot(player, features, tmp_path):
    needs(features, "import")
    picture = tmp_path / "board.png"
    picture.write_bytes(render_png(read_board(URL)))
    player.open(URL)
    player.page.click("#load-panel summary")
    player.page.set_input_files("#image", str(picture))
    player.page.wait_for_function(
        "document.querySelector('#status').textContent.startsWith('Read')"
    )
    assert player.page.input_value("#url") == URL


def test_export_url_svg_and_png(player):
    player.open(URL)
    player.page.click("#export-panel summary")
    assert player.page.input_value("#url") == URL
    with player.page.expect_download() as svg:
        player.page.click("#svg")
    assert svg.value.suggested_filename == "starbattle-6x6.svg"
    assert Path(svg.value.path()).read_text().startswith("<svg")
    with player.page.expect_download() as png:
        player.page.click("#png")
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_reload_and_a_new_visit_keep_the_state(player):
    player.open(SEVERAL)
    player.cell(1, 1).click()
    player.cell(2, 2).click(button="right")
    expected = marks_with(10, [(1, 1)], [(2, 2)])
    player.page.reload()
    player.ready()
    assert player.marks() == expected
    player.page.goto(player.server.url)  # no hash: localStorage brings it back
    player.ready()
    assert player.marks() == expected
    assert player.text("#info") == f"10{TIMES}10, 2 ★"


def test_phone_viewport(browser, server):
    phone = Player(browser, server, viewport={"width": 375, "height": 667}, has_touch=True)
    try:
        phone.open(SEVERAL)
        box = phone.page.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= 375
        phone.cell(5, 5).tap()
        assert phone.marks() == marks_with(10, [(5, 5)])
        box = phone.cell(7, 7).bounding_box()
        touch = {"pointerType": "touch", "clientX": box["x"] + 5, "clientY": box["y"] + 5}
        board = phone.page.locator("#board")
        board.dispatch_event("pointerdown", {**touch, "bubbles": True})
        phone.page.wait_for_timeout(700)  # a long press marks an X
        phone.page.dispatch_event("body", "pointerup", {**touch, "bubbles": True})
        assert phone.marks() == marks_with(10, [(5, 5)], [(7, 7)])
    finally:
        phone.close()
    assert phone.errors == [] and phone.foreign == []


def test_keyboard_only(player):
    player.open(URL)
    for _ in range(5):
        player.page.keyboard.press("Tab")
        if player.page.evaluate("document.activeElement.id") == "board":
            break
    assert player.page.evaluate("document.activeElement.id") == "board"
    for key in ("ArrowRight", "Space", "ArrowDown", "ArrowDown", "x"):
        player.page.keyboard.press(key)
    assert player.marks() == marks_with(6, [(1, 2)], [(3, 2)])
    assert player.cells_with("cursor") == [(3, 2)]
    player.page.keyboard.press("z")
    assert player.marks() == marks_with(6, [(1, 2)])
    player.page.keyboard.press("y")
    assert player.marks() == marks_with(6, [(1, 2)], [(3, 2)])


def test_generate_and_open_a_shipped_instance(player):
    player.open(URL)
    player.page.click("#load-panel summary")
    player.page.fill("#gen-size", "5")
    player.page.fill("#gen-stars", "1")
    player.page.click("#generate")
    player.page.wait_for_function(
        f"document.querySelector('#info').textContent.startsWith('5{TIMES}5')"
    )
    player.page.select_option("#instance", "pzprjs-6x6-1star")
    player.page.wait_for_function(
        f"document.querySelector('#info').textContent.startsWith('6{TIMES}6')"
    )
    assert player.page.input_value("#url") == URL
