"""The README's pictures of the page: each screen at the start, with a hint, solved, editing.

    python tools/screenshots.py [--chromium PATH]

Serves the page on a free local port, plays the shipped 10x10 2★ puzzle in headless Chromium
(Debian's chromium-headless-shell, as the browser tests) at 1280x800 and at 390x844 with
touch, and writes docs/page-{desktop,phone}-{start,hint,solved}.png; then opens the shipped
10x10 puzzle with several solutions in edit mode, asks for a fix and shows its arrows
(docs/page-{desktop,phone}-edit.png).
"""

from __future__ import annotations

import argparse
import shutil
import threading
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import Page, sync_playwright

from starbattle.asp.solver import Solver
from starbattle.io.inputs import read_board
from starbattle.web.server import StarBattleServer

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ROOT / "instances" / "generated-10x10-2star.lp"
SEVERAL = ROOT / "instances" / "planted-10x10-2star-several.lp"
SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
HINTS_APPLIED = 8


def hint(page: Page, level: int) -> None:
    """Ask for the hint's next level and wait until it is shown."""
    page.click("#hint")
    page.wait_for_function(
        "level => document.querySelector('#hint-text').textContent.startsWith(`Hint ${level}`)",
        arg=level,
    )


def play(page: Page, url: str, folder: Path, screen: str) -> None:
    """Open the puzzle, then take the three pictures of one screen."""
    page.goto(f"{url}#p={quote(PUZZLE.read_text(), safe='')}&m=")
    page.wait_for_selector("body[data-ready=yes]")
    page.wait_for_function("document.querySelector('#tier').textContent !== ''")
    page.screenshot(path=folder / f"page-{screen}-start.png")
    page.click("#legend-close")
    for _ in range(HINTS_APPLIED):
        for level in (1, 2, 3):
            hint(page, level)
        page.click("#hint-apply")
    for level in (1, 2, 3):
        hint(page, level)
    page.screenshot(path=folder / f"page-{screen}-hint.png")
    board = read_board(str(PUZZLE))
    for r, c in next(Solver(board).solutions(1)).stars:
        if "star" not in (page.get_attribute(f"#cell-{r}-{c}", "class") or ""):
            page.click(f"#cell-{r}-{c}")
    page.wait_for_selector("#done[open]")
    page.screenshot(path=folder / f"page-{screen}-solved.png")


def edit(page: Page, url: str, folder: Path, screen: str) -> None:
    """Edit mode on a puzzle with several solutions: the verdict, and a fix previewed."""
    page.goto("about:blank")
    page.goto(f"{url}#p={quote(SEVERAL.read_text(), safe='')}&m=")
    page.wait_for_selector("body[data-ready=yes]")
    page.click("label:has(#page-edit)")
    page.wait_for_function("document.querySelector('#verdict').textContent.startsWith('2 or')")
    page.click("#suggest")
    page.locator("#fixes .fix").first.hover()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=folder / f"page-{screen}-edit.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium-headless-shell"))
    options = parser.parse_args()
    server = StarBattleServer(("127.0.0.1", 0))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium)
            for screen, context_options in SCREENS.items():
                context = browser.new_context(**context_options)
                page = context.new_page()
                play(page, server.url, ROOT / "docs", screen)
                edit(page, server.url, ROOT / "docs", screen)
                context.close()
                print(f"wrote docs/page-{screen}-{{start,hint,solved,edit}}.png")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


if __name__ == "__main__":
    main()
