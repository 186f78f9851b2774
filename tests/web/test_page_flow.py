"""A player's flow: rules and a legend, warnings, the moment of completion, daily puzzles
with a streak, links to share, and progress that survives reloads and bare addresses."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from helpers import ROOT, same_partition
from webserver import marks_with, post, running

from starbattle.io.inputs import read_board

pytestmark = pytest.mark.slow
TIMES = "\N{MULTIPLICATION SIGN}"
URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
SOLUTION = [(1, 2), (2, 4), (3, 6), (4, 3), (5, 5), (6, 1)]
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()


def seconds(clock: str) -> int:
    minutes, secs = clock.split(":")
    return int(minutes) * 60 + int(secs)


def test_rules_and_a_legend_that_stays_dismissed(player):
    player.open(URL)
    assert player.text("#rules") == (
        "Place 1 star in every row, column and region; stars never touch, not even at a corner."
    )
    assert player.page.is_visible("#legend")
    assert "right-click an X" in player.text("#legend")
    player.page.click("#legend-close")
    assert not player.page.is_visible("#legend")
    assert player.page.evaluate("document.activeElement.id") == "help"
    player.page.reload()
    player.ready()
    assert not player.page.is_visible("#legend")
    player.page.click("#help")
    assert player.page.is_visible("#legend")


def test_completion_says_time_and_hints_and_offers_the_next_puzzle(player):
    player.open(URL)
    player.page.click("#hint")
    player.wait_text("#hint-text", "Hint 1 of 3")
    for r, c in SOLUTION:
        player.cell(r, c).click()
    player.page.wait_for_selector("#done[open]")
    assert re.fullmatch(r"Solved in 0:\d\d with 1 hint\.", player.text("#done-text"))
    timer = player.text("#timer")
    player.page.wait_for_timeout(1200)
    assert player.text("#timer") == timer  # the clock stops at the end
    player.page.click("#done-next")
    player.page.wait_for_function(
        "url => document.querySelector('#url').value !== url", arg=URL, timeout=20_000
    )
    assert player.text("#info") == f"6{TIMES}6, 1 ★"
    assert player.marks() == marks_with(6)


def today(player) -> str:
    """The date where the browser is, as the page writes it."""
    return player.page.evaluate(
        "(() => { const d = new Date(), two = (k) => String(k).padStart(2, '0');"
        " return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; })()"
    )


def test_the_daily_puzzle_is_everyones_and_keeps_a_streak(open_player, server):
    first, second = open_player(), open_player("phone")
    boards = []
    for player in (first, second):
        player.open(URL)
        player.page.click("#daily-easy")
        player.wait_for_size(10)
        boards.append(player.page.evaluate("location.hash"))
    assert boards[0] == boards[1]
    day = today(first)
    (made,) = post(server, "daily", {"date": day, "tier": "easy"})[1]["records"]
    shown = first.page.evaluate("decodeURIComponent(location.hash.slice(3).split('&')[0])")
    assert same_partition(read_board(shown), read_board(json.dumps(made)))
    first.page.evaluate(
        """day => { const kept = JSON.parse(localStorage.getItem('starbattle-asp'));
                    const y = new Date(`${day}T12:00:00Z`); y.setUTCDate(y.getUTCDate() - 1);
                    kept.streaks = {easy: {date: y.toISOString().slice(0, 10), days: 3}};
                    localStorage.setItem('starbattle-asp', JSON.stringify(kept)); }""",
        day,
    )
    for r, row in enumerate(made["solution"], 1):
        for c, mark in enumerate(row, 1):
            if mark == "*":
                first.cell(r, c).click()
    first.page.wait_for_selector("#done[open]")
    assert first.text("#done-text").endswith("Daily easy streak: 4 days.")
    first.page.click("#done-close")
    assert first.text("#daily-easy") == "easy (streak 4)"


def test_copy_link_with_and_without_marks(open_player):
    permissions = {"permissions": ["clipboard-read", "clipboard-write"]}
    player = open_player(**permissions)
    player.open(TEN)
    player.cell(1, 1).click()
    player.cell(3, 3).click(button="right")
    player.page.click("#share-panel summary")
    links = {}
    for button in ("#copy-link", "#copy-marks"):
        player.page.click(button)
        player.wait_text("#status", "Link")
        links[button] = player.page.evaluate("navigator.clipboard.readText()")
    assert "&m=" not in links["#copy-link"]
    for button, marks in (
        ("#copy-link", marks_with(10)),
        ("#copy-marks", marks_with(10, [(1, 1)], [(3, 3)])),
    ):
        friend = open_player()
        friend.page.goto(links[button])
        friend.ready()
        assert friend.marks() == marks


def test_reload_keeps_marks_and_timer(open_player):
    player = open_player("phone")
    player.open(TEN)
    player.cell(1, 1).tap()
    player.page.wait_for_function("document.querySelector('#timer').textContent >= '0:03'")
    player.page.reload()
    player.ready()
    assert player.marks() == marks_with(10, [(1, 1)])
    assert seconds(player.text("#timer")) >= 3


def test_the_bare_address_never_overwrites_saved_progress(open_player):
    with running(start_board=TEN) as started:
        player = open_player(on=started)
        player.open()
        player.cell(2, 2).click()
        player.open(URL)  # another puzzle, then the bare address again
        player.cell(1, 2).click()
        for _ in range(2):
            player.page.goto(started.url)
            player.ready()
            assert player.marks() == marks_with(10, [(2, 2)])
        player.open(URL)
        assert player.marks() == marks_with(6, [(1, 2)])
        player.page.goto("about:blank")  # before its server stops
    plain = open_player()
    plain.open(URL)
    plain.cell(1, 2).click()
    plain.page.goto(plain.server.url)  # no start puzzle: the last one played, as it was
    plain.ready()
    assert (plain.text("#info"), plain.marks()) == (f"6{TIMES}6, 1 ★", marks_with(6, [(1, 2)]))


def test_a_link_pasted_into_the_address_opens_its_puzzle(player):
    player.open(TEN)
    marks = marks_with(6, [(1, 2)])
    player.page.evaluate(f"location.hash = '#p={quote(URL, safe='')}&m={marks}'")
    player.wait_text("#info", f"6{TIMES}6")
    player.wait_for_size(6)
    assert player.marks() == marks
