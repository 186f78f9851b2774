"""Following a trial's chain on the page, as a player sees it.

The board is a StarBattleLab 10x10 puzzle at a state where the next step is a trial (the CLI's
chain test uses it too). Its whole step lists the chain's sentences; pointing at, tapping or
focusing line k lights exactly the cells link k of the step record concludes, outlines the
cells of the units it rests on and rings its premise cells; the marks the chain made before
it show as ghosts and the assumed mark is ringed. Leaving the chain takes all of that away
(the whole step shows again), the player's marks never change and the board never moves.
"""

from __future__ import annotations

import re

import pytest
from helpers import CHAIN_BOARD, CHAIN_MARKS, ROOT
from webserver import marks_with, post, serious_violations

pytestmark = pytest.mark.slow
MARKS = CHAIN_MARKS.replace("\n", "")
ROWS = CHAIN_BOARD.splitlines()[1:]
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()
TEXT = "#hint-text"
FOLLOW = "Follow the trial on the board: the supposition, 3 steps, the broken rule ▶"
"""The bar before a line is chosen: the sentence's "after 3 steps" between the chain's ends."""
Cells = list[tuple[int, int]]


def cells(pairs) -> Cells:
    """Cells of a record, as `Player.cells_with` lists them (in reading order)."""
    return sorted((r, c) for r, c in pairs)


def unit_cells(units: list[str]) -> Cells:
    """The cells of units as a step names them, read off the board's text."""
    found = set()
    for unit in units:
        what, key = unit.split(" ")
        for r, row in enumerate(ROWS, 1):
            for c, label in enumerate(row, 1):
                if {"row": r, "column": c, "region": label}[what] == (
                    key if what == "region" else int(key)
                ):
                    found.add((r, c))
    return sorted(found)


def whole_step(player, step: dict) -> None:
    """The board shows the whole step: its conclusions lit, its units outlined, no chain."""
    assert player.cells_with("conclusion") == cells(step["conclusions"]["blanks"])
    assert player.cells_with("unit") == unit_cells(step["premises"]["units"])
    for name in ("supposed", "chain-star", "chain-blank"):
        assert player.cells_with(name) == [], name
    assert player.page.locator("#chain li.followed").count() == 0


def shows_link(player, chain: list[dict], k: int) -> None:
    """The board shows line k of the chain (from 1) and what the lines before it made."""
    link = chain[k - 1]
    stars, blanks = link["conclusions"]["stars"], link["conclusions"]["blanks"]
    assert player.cells_with("conclusion") == cells(stars + blanks), k
    assert player.cells_with("will-star") == cells(stars), k
    assert player.cells_with("will-blank") == cells(blanks), k
    assert player.cells_with("unit") == unit_cells(link["premises"]["units"]), k
    assert player.cells_with("premise") == cells(link["premises"]["cells"]), k
    assert player.cells_with("supposed") == cells(chain[0]["conclusions"]["stars"]), k
    before = chain[: k - 1]
    made = {
        kind: cells(c for b in before for c in b["conclusions"][kind])
        for kind in ("stars", "blanks")
    }
    assert player.cells_with("chain-star") == made["stars"], k
    assert player.cells_with("chain-blank") == made["blanks"], k
    followed = player.page.eval_on_selector_all(
        "#chain li", "lines => lines.map(l => l.classList.contains('followed'))"
    )
    assert followed == [j == k for j in range(1, len(chain) + 1)]


def take_trial(player, screen: str = "desktop") -> dict:
    """Open the board at its trial and take the hint to its whole step (the board does not
    move): the step record."""
    press = player.page.tap if screen == "phone" else player.page.click
    player.open(CHAIN_BOARD, MARKS)
    board = player.page.locator("#board").bounding_box()
    with player.page.expect_response("**/api/hint") as answer:
        press("#hint")
    (step,) = answer.value.json()["records"]
    for level in (1, 2, 3):
        if level > 1:
            press("#hint")
        player.wait_text(TEXT, f"Hint {level} of 3")
    assert step["technique"] == "assumption-chain" and len(step["chain"]) == 5
    assert player.page.locator("#board").bounding_box() == board
    return step


def lines(player) -> list[str]:
    return player.page.eval_on_selector_all("#chain li", "ls => ls.map(l => l.textContent)")


def test_a_trial_lists_its_chain_sentences_with_the_regions_colours(player):
    step = take_trial(player)
    assert player.page.is_visible("#chain-box")
    (board,) = post(player.server, "board", {"board": CHAIN_BOARD})[1]["records"]
    words = board["colour_words"]
    sentences = [link["sentence"] for link in step["chain"]]
    coloured = [
        re.sub(r"\b([Rr]egion) (\w+)", lambda m: f"{m[1]} {m[2]} ({words[m[2]]})", s)
        for s in sentences
    ]
    assert lines(player) == coloured
    assert coloured[2] == (
        f"Region F ({words['F']}) needs 2 stars and its undecided cells fit in 2 2x2 blocks, one "
        "star each, so (6,1) is a star and (5,2) and (6,2) are empty; column 1 then has its 2 "
        "stars, so its other cells are empty"
    )
    assert [re.sub(r" \([a-z]+\)", "", line) for line in lines(player)] == sentences
    whole_step(player, step)
    chain = player.page.locator("#chain-box").bounding_box()  # beside the board, in view
    assert chain["x"] > player.page.locator("#board").bounding_box()["x"] + 500
    assert chain["y"] + chain["height"] < 800


def test_sentences_name_several_regions_with_their_colours_too(player):
    player.open(CHAIN_BOARD, MARKS)
    (board,) = post(player.server, "board", {"board": CHAIN_BOARD})[1]["records"]
    words = board["colour_words"]
    said = player.page.evaluate(
        """import("/static/board.js").then((board) => [
             "Regions A and B need 4 more, so region C", "regions A, B and C so little room",
             "the 3 regions meeting rows 1-2"].map(board.withColours))"""
    )
    a, b, c = (f"{name} ({words[name]})" for name in "ABC")
    assert said == [
        f"Regions {a} and {b} need 4 more, so region {c}",
        f"regions {a}, {b} and {c} so little room",
        "the 3 regions meeting rows 1-2",
    ]


def test_pointing_at_each_line_lights_what_it_concludes_then_the_whole_step_again(player):
    step = take_trial(player)
    board = player.page.locator("#board").bounding_box()
    for k in range(1, 6):
        player.page.hover(f"#chain li:nth-child({k})")
        shows_link(player, step["chain"], k)
    assert player.cells_with("chain-star") == [
        *((2, 5), (2, 9), (6, 1), (7, 4), (8, 2), (10, 1))
    ]  # before line 5
    player.page.mouse.move(1, 1)
    whole_step(player, step)
    assert player.page.locator("#board").bounding_box() == board
    assert player.marks() == MARKS


def test_tapping_lines_on_a_phone_follows_the_chain_and_a_tap_elsewhere_leaves_it(open_player):
    player = open_player("phone")
    step = take_trial(player, "phone")
    board = player.page.locator("#board").bounding_box()
    text = player.page.locator(TEXT).bounding_box()  # the chain comes right under the hint
    assert (
        0
        <= player.page.locator("#chain-box").bounding_box()["y"] - (text["y"] + text["height"])
        < 8
    )
    scrolled = player.page.evaluate("scrollY")
    for k in (4, 2, 3):
        player.page.tap(f"#chain li:nth-child({k})")
        shows_link(player, step["chain"], k)
        # the board is where it was, less what the page scrolled to bring the line into view
        moved = player.page.evaluate("scrollY") - scrolled
        assert player.page.locator("#board").bounding_box() == {**board, "y": board["y"] - moved}
    player.page.tap("#rules")
    whole_step(player, step)
    assert player.marks() == MARKS
    assert player.page.locator("#chain li").first.bounding_box()["height"] >= 44


def test_on_a_phone_a_bar_steps_through_the_chain_with_the_board_and_the_line_in_view(
    open_player,
):
    """At 390x844 the bar above the toolbar says the line followed, ◀ and ▶ step through the
    lines, and the cells a line lights (its conclusions, else its unit) and the bar are both
    within the viewport, the cells above the bar: nothing to scroll between them."""
    player = open_player("phone")
    step = take_trial(player, "phone")
    chain, coloured = step["chain"], lines(player)
    assert "then after 3 steps" in step["sentence"] and len(chain) == 5
    assert player.text("#chain-line") == FOLLOW
    for button, k in [("next", k) for k in range(1, 6)] + [("prev", 4), ("prev", 3)]:
        player.page.tap(f"#chain-{button}")
        shows_link(player, chain, k)
        assert player.text("#chain-line") == f"{k} of 5: {coloured[k - 1]}"
        bar = player.page.locator("#chain-now").bounding_box()
        assert bar["y"] >= 0 and bar["y"] + bar["height"] <= 844
        lit = player.cells_with("conclusion") or player.cells_with("unit")
        boxes = [player.cell(r, c).bounding_box() for r, c in lit]
        assert boxes and all(b["y"] >= 0 and b["y"] + b["height"] <= bar["y"] for b in boxes), k
    player.page.tap("#chain li:nth-child(2)")  # a line of the list: the board comes back
    shows_link(player, chain, 2)
    bar = player.page.locator("#chain-now").bounding_box()
    for r, c in player.cells_with("conclusion"):
        box = player.cell(r, c).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"]
    player.page.tap("#chain-next")  # on from the line tapped
    shows_link(player, chain, 3)
    assert serious_violations(player.page) == []
    player.page.tap("#rules")  # elsewhere: the whole step again
    whole_step(player, step)
    assert player.text("#chain-line") == FOLLOW
    assert player.marks() == MARKS


def test_the_keyboard_follows_the_chain_and_axe_finds_nothing_serious(player):
    step = take_trial(player)
    player.page.focus(TEXT)
    player.page.keyboard.press("Tab")  # the first line comes next
    shows_link(player, step["chain"], 1)
    for key, k in (("ArrowDown", 2), ("ArrowDown", 3), ("End", 5), ("ArrowUp", 4), ("Home", 1)):
        player.page.keyboard.press(key)
        assert player.page.evaluate("document.activeElement.textContent") == lines(player)[k - 1]
        shows_link(player, step["chain"], k)
    player.page.keyboard.press("Tab")
    shows_link(player, step["chain"], 2)
    assert serious_violations(player.page) == []
    player.page.keyboard.press("Escape")
    assert player.page.evaluate("document.activeElement.id") == "hint-text"
    whole_step(player, step)
    assert player.marks() == MARKS


def test_apply_marks_the_trial_s_conclusion_and_the_chain_goes(player):
    step = take_trial(player)
    player.page.hover("#chain li:nth-child(3)")
    player.page.focus("#chain li:nth-child(4)")
    # a click that leaves the focus on the line (as Safari's does): the line goes, focused
    player.page.eval_on_selector("#hint-apply", "button => button.click()")
    assert player.page.is_hidden("#chain-box") and lines(player) == []
    assert player.cells_with("supposed") == player.cells_with("conclusion") == []
    (cell,) = step["conclusions"]["blanks"]
    expected = list(MARKS)
    expected[(cell[0] - 1) * 10 + cell[1] - 1] = "x"
    assert player.marks() == "".join(expected)


def test_explain_lists_each_trial_s_own_chain_and_none_for_other_steps(player):
    player.open(CHAIN_BOARD, MARKS)
    with player.page.expect_response("**/api/explain") as answer:
        player.page.click("#explain")
    steps = [r for r in answer.value.json()["records"] if r["type"] == "step"]
    player.wait_text(TEXT, "Step 1")
    for k, step in enumerate(steps[:5], 1):
        if k > 1:
            player.page.click("#step-next")
            player.wait_text(TEXT, f"Step {k}")
        chain = step.get("chain", [])
        assert [re.sub(r" \([a-z]+\)", "", line) for line in lines(player)] == [
            link["sentence"] for link in chain
        ]
        assert player.page.is_visible("#chain-box") == bool(chain)
    assert [bool(step.get("chain")) for step in steps[:5]] == [True, False, False, False, True]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_step_without_a_chain_lists_none_and_lights_all_its_cells(open_player, screen):
    player = open_player(screen)
    press = player.page.tap if screen == "phone" else player.page.click
    player.open(TEN)
    with player.page.expect_response("**/api/hint") as answer:
        press("#hint")
    (step,) = answer.value.json()["records"]
    press("#hint")
    player.wait_text(TEXT, "Hint 2 of 3")
    press("#hint")
    player.wait_text(TEXT, "Hint 3 of 3")
    assert "chain" not in step and len(step["conclusions"]["blanks"]) == 5
    assert player.page.is_hidden("#chain-box") and lines(player) == []
    assert player.cells_with("conclusion") == cells(step["conclusions"]["blanks"])
    press("#hint-apply")
    assert player.marks() == marks_with(
        10, blanks=[tuple(c) for c in step["conclusions"]["blanks"]]
    )


LONG_BOARD = (
    "stars: 2\nAAAABCCCC\nADDDBBCEC\nADDDBBCEC\nAAFDDBBEE\nFFFGGBBEE\nFHHGGGGGE\n"
    "FFHGGGIEE\nFHHHGGIEI\nHHHGGIIII\n"
)
LONG_MARKS = (
    ".........|..x....x.|....x....|.........|...x.....|.x....xx.|...x.....|.....x.x.|........."
).replace("|", "")
"""StarBattleLab's sblsort-9-2-expert-83 (../shared/corpus/difficulty.jsonl) at the state of
its `explain` trace before step 10, whose trial's chain runs to 15 lines (no shorter one is
found, with the containers too)."""
LONG_LINES = 15


def chain_box(player) -> dict:
    """The chain box's and its list's (scrollWidth, clientWidth), its edges, the window's size."""
    return player.page.evaluate(
        """() => {
          const box = document.getElementById("chain-box"), list = document.getElementById("chain");
          const {left, right, top, bottom} = box.getBoundingClientRect();
          return {box: [box.scrollWidth, box.clientWidth],
                  list: [list.scrollWidth, list.clientWidth], left, right, top, bottom,
                  width: innerWidth, height: innerHeight}; }"""
    )


def line_shows(player, k: int) -> bool:
    """Whether line k of the chain shows whole, within its list's box and the window."""
    return player.page.eval_on_selector(
        f"#chain li:nth-child({k})",
        """line => {
          const r = line.getBoundingClientRect(), list = line.parentElement.getBoundingClientRect();
          return r.height > 0 && r.top >= list.top - 1 && r.bottom <= list.bottom + 1
                 && r.top >= -1 && r.bottom <= innerHeight + 1; }""",
    )


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_long_chain_fits_its_box_and_every_line_is_in_reach(open_player, screen):
    """15 lines: as wide as its box on both screens; beside the board the box ends in the
    window and the list scrolls within it, so pointing at any line leaves the board still."""
    player = open_player(screen)
    press = player.page.tap if screen == "phone" else player.page.click
    player.open(LONG_BOARD, LONG_MARKS)
    with player.page.expect_response("**/api/hint") as answer:
        press("#hint")
    (step,) = answer.value.json()["records"]
    for level in (2, 3):
        press("#hint")
        player.wait_text(TEXT, f"Hint {level} of 3")
    assert step["chain"][0]["sentence"] == "Suppose (4,6) is a star; the cells around it are empty"
    assert len(step["chain"]) == LONG_LINES == player.page.locator("#chain li").count()
    box = chain_box(player)
    assert box["box"][0] <= box["box"][1] and box["list"][0] <= box["list"][1], box
    assert box["left"] >= 0 and box["right"] <= box["width"], box
    if screen == "desktop":
        assert box["top"] >= 0 and box["bottom"] <= box["height"], box
    assert serious_violations(player.page) == []  # a list that scrolls is reached by keys too
    board = player.page.locator("#board").bounding_box()
    shown = player.page.locator("#chain-box").bounding_box()
    for k in range(1, LONG_LINES + 1):
        line = player.page.locator(f"#chain li:nth-child({k})")
        if screen == "phone":  # the page keeps the board in view, the bar shows the line
            line.tap()
            assert player.text("#chain-line").startswith(f"{k} of {LONG_LINES}: "), k
        else:
            line.hover()
            assert player.page.locator("#board").bounding_box() == board, k
            assert player.page.locator("#chain-box").bounding_box() == shown, k
            assert line_shows(player, k), k
        assert player.page.locator("#chain li.followed").count() == 1, k
        assert "followed" in (line.get_attribute("class") or ""), k


SQUEEZE_BOARD = (
    "stars: 2\nABBBBCCCDD\nABBEECCCDD\nAABBECCDDF\nAAEEECCCDF\nAAEECCCGGF\n"
    "HAEEEGGGGF\nHAAEEGIIIF\nHEEEIIIIIF\nHEHJIIIFFF\nHHHJJJIFFF\n"
)
SQUEEZE_MARKS = (
    "..........|...x......|..........|.......x..|.....xx...|..........|.x...xx...|"
    ".x........|.xx.xxx...|..x.x*x..."
).replace("|", "")
"""StarBattleLab's sblsort-10-2-expert-506 before step 10 of its trace: a chain that ends where
columns 2 and 3 together have too little room."""


def test_a_chain_ending_at_a_squeeze_outlines_both_lines(player):
    player.open(SQUEEZE_BOARD, SQUEEZE_MARKS)
    with player.page.expect_response("**/api/hint") as answer:
        player.page.click("#hint")
    (step,) = answer.value.json()["records"]
    for level in (2, 3):
        player.page.click("#hint")
        player.wait_text(TEXT, f"Hint {level} of 3")
    last = step["chain"][-1]
    assert last["sentence"] == (
        "Columns 2-3 need 4 stars but their undecided cells fit in 3 2x2 blocks, one star "
        "each: a contradiction"
    )
    assert player.page.locator("#chain li").last.text_content() == last["sentence"]
    player.page.hover(f"#chain li:nth-child({len(step['chain'])})")
    assert player.cells_with("unit") == [(r, c) for r in range(1, 11) for c in (2, 3)]
    assert player.cells_with("premise") == cells(last["premises"]["cells"])
    assert player.cells_with("conclusion") == []
