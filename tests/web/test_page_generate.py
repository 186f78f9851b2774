"""Making puzzles for players: only what can be made is offered, making shows its progress
and can be stopped, and a failure is said in a player's words."""

from __future__ import annotations

import json

import pytest
from webserver import request, wait_for

from starbattle.logic.grade import REACHABLE

pytestmark = pytest.mark.slow
URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
TIMES = "\N{MULTIPLICATION SIGN}"


def options(player, select: str) -> list[str]:
    return player.page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")


def test_only_what_can_be_made_is_offered(player, server):
    boards = json.loads(request(f"{server.url}api/makeable")[1])["boards"]
    player.open(URL)
    sizes = options(player, "#gen-size")
    assert sizes == [str(n) for n in range(5, 26) if any(b["size"] == n for b in boards)]
    assert sizes[0] == "5" and "25" in sizes
    for size in ("5", "7", "10", "14"):
        player.page.select_option("#gen-size", size)
        offered = options(player, "#gen-stars")
        assert offered == [str(b["stars"]) for b in boards if b["size"] == int(size)]
        for stars in offered:
            player.page.select_option("#gen-stars", stars)
            tiers = options(player, "#gen-tier")
            assert tiers == ["", *REACHABLE.get((int(size), int(stars)), ())]
    player.page.select_option("#gen-size", "5")
    assert options(player, "#gen-stars") == ["1"]  # no 5x5 2 or 3 stars
    player.page.select_option("#gen-size", "7")
    assert options(player, "#gen-stars") == ["1"]  # no 7x7 grid holds 2 stars a line


def test_making_shows_progress_and_stops(open_player, server):
    player = open_player("phone")
    player.open(URL)
    player.page.select_option("#gen-size", "15")
    player.page.select_option("#gen-stars", "3")
    player.page.select_option("#gen-tier", "extreme")
    asked = []
    player.page.on("request", lambda r: r.url.endswith("/api/generate") and asked.append(r))
    player.page.click("#generate")
    assert player.page.get_attribute("#generate", "aria-disabled") == "true"
    assert player.page.get_attribute("#gen-stop", "aria-disabled") == "false"
    player.page.click("#generate", force=True)  # off while it runs: no second job
    assert player.wait_text("#make-text", f"Making a 15{TIMES}15 3 ★ puzzle (extreme)… 1 s", 5_000)
    assert player.page.is_visible("#gen-progress")
    assert len(asked) == 1
    wait_for(lambda: server.pool.status()["busy"] == 1)
    player.page.click("#gen-stop")
    assert wait_for(lambda: server.pool.status()["busy"] == 0, 0.5) <= 0.5
    assert player.wait_text("#make-text", "Stopped.") == "Stopped."
    assert player.page.get_attribute("#generate", "aria-disabled") == "false"
    assert not player.page.is_visible("#gen-progress")


def test_a_failure_is_said_in_a_players_words(player):
    player.open(URL)
    advice = "none of 50 generated puzzles was hard: raise --attempts, or ask another tier"
    player.page.route(
        "**/api/generate",
        lambda route: route.fulfill(status=400, json={"error": advice}),
    )
    player.page.click("#generate")
    text = player.wait_text("#make-text", "Could not make")
    assert text == (
        f"Could not make a 10{TIMES}10 2 ★ puzzle this time: try again, or choose another size or "
        "difficulty."
    )
    assert player.errors == [  # the browser's own line for a refusal: the test's, expected
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ]
    player.errors.clear()
