"""The browser tests' shared pieces: one server and one headless Chromium for the session,
and a Player that drives a page and reads what it shows.

Browser tests are skipped, saying why, without Playwright or a Chromium binary
(`apt-get install chromium-headless-shell`; .ci/run installs it). Every player also asserts
that the page logged no console error and asked nothing of any address but the server.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from webserver import running

CHROMIUM = os.environ.get("STARBATTLE_CHROMIUM") or next(
    filter(None, map(shutil.which, ("chromium-headless-shell", "chromium"))), None
)
NO_CHROMIUM = (
    "no Chromium binary: apt-get install chromium-headless-shell (or set STARBATTLE_CHROMIUM)"
)
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SCREENS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="session")
def server():
    with running() as started:
        yield started


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


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
        """The page, with a board (and marks) in its address."""
        address = "" if board is None else f"#p={quote(board, safe='')}&m={marks}"
        if self.page.url.startswith(self.server.url):  # a new address, not a hash change
            self.page.goto("about:blank")
        self.page.goto(self.server.url + address)
        self.ready()

    def ready(self) -> None:
        self.page.wait_for_selector("body[data-ready=yes]")
        self.size = int(self.page.eval_on_selector("#grid", "g => g.style.getPropertyValue('--n')"))

    def wait_for_size(self, size: int) -> None:
        """Wait until the page shows a board of this size."""
        self.page.wait_for_function(
            "n => document.querySelectorAll('#board [role=gridcell]').length === n * n", arg=size
        )
        self.size = size

    def cell(self, r: int, c: int):
        return self.page.locator(f"#cell-{r}-{c}")

    def marks(self) -> str:
        """The marks as the board shows them: * star, x X, o dot (capitals: trial), . none."""
        return self.page.eval_on_selector(
            "#board",
            """b => [...b.querySelectorAll('[role=gridcell]')].map(d => {
                 const k = d.classList;
                 const m = k.contains('star') ? '*' : k.contains('blank') ? 'x'
                   : k.contains('dot') ? 'o' : '.';
                 return k.contains('trial') ? {'*': 'S', x: 'X', o: 'O'}[m] : m;
               }).join('')""",
        )

    def cells_with(self, name: str) -> list[tuple[int, int]]:
        indexes = self.page.eval_on_selector(
            "#board",
            f"""b => [...b.querySelectorAll('[role=gridcell]')]
                  .flatMap((d, i) => d.classList.contains('{name}') ? [i] : [])""",
        )
        return [(i // self.size + 1, i % self.size + 1) for i in indexes]

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def wait_text(self, selector: str, start: str, timeout: float = 10_000) -> str:
        """Wait until an element's text starts with `start`; its text."""
        self.page.wait_for_function(
            "([s, t]) => (document.querySelector(s).textContent || '').startsWith(t)",
            arg=[selector, start],
            timeout=timeout,
        )
        return self.text(selector)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def open_player(browser, server) -> Iterator:
    """Open players (each a fresh context: its own storage); each is checked when closed."""
    opened: list[Player] = []

    def make(screen: str = "desktop", on=None, **options) -> Player:
        player = Player(browser, on or server, **{**SCREENS[screen], **options})
        opened.append(player)
        return player

    yield make
    for player in opened:
        player.close()
    for player in opened:
        assert player.errors == []
        assert player.foreign == []


@pytest.fixture
def player(open_player) -> Player:
    return open_player()
