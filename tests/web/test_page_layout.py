"""Any board 5-25 on any screen: the board and its controls in view, room kept for messages,
touch targets a finger can hit, and a Pan mode in which a swipe scrolls and never marks."""

from __future__ import annotations

import pytest
from helpers import ROOT
from webserver import marks_with

pytestmark = pytest.mark.slow
CONTROLS = ("#hint", "#check", "#undo", "#redo", "#trial", "#hint-apply")


def instance(name: str) -> str:
    return (ROOT / "instances" / f"{name}.lp").read_text()


def inside(box: dict, width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width
        and box["y"] + box["height"] <= height
    )


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize(
    "name", ["generated-25x25-6star", "generated-21x21-5star", "norvig-5x5-1star"]
)
def test_the_board_and_its_controls_are_in_view(open_player, screen, name):
    player = open_player(screen)
    player.open(instance(name))
    viewport = player.page.viewport_size
    width, height = viewport["width"], viewport["height"]
    board = player.page.locator("#grid").bounding_box()
    assert inside(board, width, height), board
    for control in CONTROLS:
        assert inside(player.page.locator(control).bounding_box(), width, height), control
    assert player.page.evaluate("document.documentElement.scrollWidth") <= width
    cell = player.cell(1, 1).bounding_box()["width"]
    assert cell >= (14 if screen == "phone" else 18)  # from the room left, not a fixed size


def test_touch_targets_are_44_pixels(open_player):
    player = open_player("phone")
    player.open(instance("generated-10x10-2star"))
    small = player.page.evaluate(
        """() => [...document.querySelectorAll('button, select, #modes label')]
              .filter(e => e.offsetParent !== null)
              .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
              .filter(([, r]) => r.width < 44 || r.height < 44).map(([name]) => name)"""
    )
    assert small == []


def test_messages_do_not_move_the_board(open_player):
    player = open_player("phone")
    player.open(instance("generated-14x14-3star"))
    # measured as the page opens, before the grade and any warning come (they move nothing)
    before = player.page.locator("#board").bounding_box()
    player.page.click("#hint")
    player.wait_text("#hint-text", "Hint 1 of 3")
    player.page.click("#hint")
    player.page.click("#hint")
    player.wait_text("#hint-text", "Hint 3 of 3")
    player.page.evaluate("document.querySelector('#status').textContent = 'x '.repeat(400)")
    player.page.evaluate("document.querySelector('#warning').textContent = 'y '.repeat(400)")
    player.page.wait_for_function("document.querySelector('#tier').textContent !== ''")
    assert player.page.locator("#board").bounding_box() == before
    assert player.page.locator("#hint").bounding_box()["y"] < 844


def test_on_a_phone_every_whole_step_shows_in_full(open_player):
    """Level 3 of each hint through a 10x10 (sentences of up to 5 lines at 390 px, which the
    former 3-line box cut): no line of it hidden below the box's edge."""
    player = open_player("phone")
    player.open(instance("generated-10x10-2star"))
    longest = 0
    for _ in range(12):
        for level in (1, 2, 3):
            player.page.tap("#hint")
            player.wait_text("#hint-text", f"Hint {level} of 3")
        text, shown, box = player.page.eval_on_selector(
            "#hint-text", "e => [e.textContent, e.scrollHeight, e.clientHeight]"
        )
        assert shown <= box, text
        longest = max(longest, shown)
        player.page.tap("#hint-apply")
        player.page.wait_for_function("document.querySelector('#hint-text').textContent === ''")
    assert longest > 62  # taller than the former box: the test saw the sentences that need it


def test_on_a_phone_the_header_shows_the_size_and_tier_whole(open_player):
    """The header's size and tier are not cut to '1…' and '·…' (the title gave them no room);
    the star count is in the rules line just below."""
    player = open_player("phone")
    player.open(instance("generated-10x10-2star"))
    player.page.wait_for_function("document.querySelector('#tier').textContent !== ''")
    shown = player.page.evaluate(
        """() => ['info', 'tier'].map(id => { const e = document.getElementById(id);
              return [e.innerText, e.scrollWidth <= e.clientWidth]; })"""
    )
    assert shown == [["10\u00d710", True], ["\u00b7 medium", True]]
    assert player.text("#rules").startswith("Place 2 stars in every row")


def swipe(player, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A finger's swipe across the board from one cell to another (real touch events)."""
    session = player.context.new_cdp_session(player.page)
    a, b = player.cell(*start).bounding_box(), player.cell(*end).bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for k in range(1, 11):
        point = {"x": x0 + (x1 - x0) * k / 10, "y": y0 + (y1 - y0) * k / 10}
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_swipe_paints_stars_but_in_pan_mode_marks_nothing(open_player):
    player = open_player("phone")
    player.open(instance("generated-10x10-2star"))
    swipe(player, (2, 2), (2, 6))
    assert player.marks() == marks_with(10, [(2, c) for c in range(2, 7)])
    player.page.click("#undo")
    player.page.click("#modes label:has(input[value=pan])")
    swipe(player, (2, 2), (2, 6))
    swipe(player, (3, 3), (8, 3))
    player.page.wait_for_timeout(700)  # no long press either
    assert player.marks() == marks_with(10)


def test_zoom_in_pan_mode_makes_cells_larger_and_the_board_scrolls(open_player):
    player = open_player("phone")
    player.open(instance("generated-25x25-6star"))
    before = player.cell(1, 1).bounding_box()["width"]
    player.page.click("#modes label:has(input[value=pan])")
    player.page.click("#zoom-in")
    player.page.click("#zoom-in")
    assert player.cell(1, 1).bounding_box()["width"] >= 1.9 * before
    frame = player.page.locator("#frame").bounding_box()
    assert inside(frame, 390, 844)
    assert player.page.evaluate("document.documentElement.scrollWidth") <= 390
    swipe(player, (5, 5), (5, 1))
    assert player.marks() == "." * 625
