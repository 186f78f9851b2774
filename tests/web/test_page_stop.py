"""Stop that stops: the page's Stop, leaving the page or a newer request ends the server's job.

Each scenario watches the server's own worker pool: the worker process that computed is
ended within half a second of the player's Stop, and the next question is answered at once,
however many Stops came before.
"""

from __future__ import annotations

import time

import pytest
from helpers import ROOT
from webserver import running, wait_for

pytestmark = pytest.mark.slow
ROWS_20 = "stars: 1\n" + "\n".join(chr(ord("A") + k) * 20 for k in range(20)) + "\n"
"""20 regions that are the rows: counting its solutions outlasts any time limit."""
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()
BIG = (ROOT / "instances" / "generated-25x25-6star.lp").read_text()


@pytest.fixture(scope="module")
def own():
    """A server of this module's own, so that its pool's state is this module's alone."""
    with running(workers=2) as started:
        yield started


def busy_workers(server) -> list:
    """The worker processes on a job now."""
    pool = server.pool
    with pool.lock:
        return [worker.process for worker in pool.workers - set(pool.idle)]


def ended_within(server, processes, seconds: float) -> float:
    """Wait until these worker processes have ended and no worker is busy; how long it took."""
    return wait_for(
        lambda: all(not p.is_alive() for p in processes) and server.pool.status()["busy"] == 0,
        seconds,
    )


def start_count(player, server) -> list:
    """Press Count once the page's own first questions are answered; the count's worker."""
    if not player.page.is_visible("#count"):
        player.page.click("#check-panel summary")
    player.page.wait_for_load_state("networkidle")
    before = set(busy_workers(server))
    player.page.click("#count")
    wait_for(lambda: set(busy_workers(server)) - before)
    return list(set(busy_workers(server)) - before)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_stop_ends_the_worker_and_says_stopped(open_player, own, screen):
    player = open_player(screen, on=own)
    player.open(ROWS_20)
    processes = start_count(player, own)
    player.page.click("#stop")
    assert ended_within(own, processes, 0.5) <= 0.5
    assert player.wait_text("#solve-text", "Stopped.") == "Stopped."


def test_after_many_stops_the_next_hint_answers_at_once(open_player, own):
    player = open_player(on=own)
    player.open(ROWS_20)
    before = own.pool.status()["ended"]
    for _ in range(6):
        processes = start_count(player, own)
        player.page.click("#stop")
        ended_within(own, processes, 0.5)
    assert own.pool.status()["ended"] == before + 6
    player.page.fill("#source", TEN)
    player.page.click("#load")
    player.wait_for_size(10)
    started = time.monotonic()
    player.page.click("#hint")
    player.wait_text("#hint-text", "Hint 1 of 3", timeout=5_000)
    assert time.monotonic() - started < 5  # was: 27 s behind four abandoned counts


def test_leaving_the_page_ends_its_jobs(open_player, own):
    player = open_player(on=own)
    player.open(ROWS_20)
    processes = start_count(player, own)
    player.page.goto("about:blank")
    assert ended_within(own, processes, 0.5) <= 0.5


def test_a_newer_request_stops_the_older(open_player, own):
    player = open_player(on=own)
    player.open(ROWS_20)
    processes = start_count(player, own)
    player.page.click("#solve")  # the same question, asked anew: the count is dropped
    player.wait_text("#solve-text", "Not unique")
    assert ended_within(own, processes, 0.5) <= 0.5


def test_stop_ends_a_long_explanation(open_player, own):
    player = open_player(on=own)
    player.open(BIG)
    player.page.wait_for_load_state("networkidle")  # the page's first questions answered
    player.page.click("#explain")
    wait_for(lambda: own.pool.status()["busy"] == 1)
    processes = busy_workers(own)
    player.page.click("#hint-stop")
    assert ended_within(own, processes, 0.5) <= 0.5
    assert player.wait_text("#hint-text", "Stopped.") == "Stopped."
