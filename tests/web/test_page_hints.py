"""Hints point at what the player sees: the region a hint names is the region it lights.

For every source a board can come from (a file's text pasted, a puzz.link address, an SBN
line, a screenshot; and a generated puzzle and `serve FILE`'s start puzzle), the page is
stepped through hints. At each step's second level ("where"):
- the units the page names are the units the hint engine names for the board as the source
  gives it (asked apart, with the page's marks), and the cells outlined are those units'
  cells on that board: the step the player reads is about the cells the player sees lit;
- every unit named is found on the board as a player finds it, by its written name and its
  colour: a row or column by its number, a region by the name written in one of its cells,
  grown to the thick borders around it; that is the same set of cells, and the colour word
  is the colour of the region's cells.
"""

from __future__ import annotations

import base64
import json
import re

import pytest
from helpers import ROOT
from webserver import post, running

from starbattle.io.inputs import read_board, write_board
from starbattle.io.pictures import PAGE_PALETTE, render_png
from starbattle.model.units import Unit, region_names

pytestmark = pytest.mark.slow
BOARDS = ("generated-10x10-2star", "pzprjs-6x6-1star", "generated-14x14-3star")
UNIT = re.compile(r"(row|column) (\d+)|region (\S+) \(([a-z]+)\)")
REGION = """name => {
  const cells = [...document.querySelectorAll('#board [role=gridcell]')];
  const n = Math.round(Math.sqrt(cells.length));
  const start = cells.findIndex(c => (c.querySelector('.name') || {}).textContent === name);
  if (start < 0) return null;
  const seen = new Set([start]), todo = [start];
  const open = (i, j, side) => !cells[i].classList.contains(side);
  while (todo.length) {
    const i = todo.pop(), r = Math.floor(i / n), c = i % n, next = [];
    if (c + 1 < n && open(i, i + 1, 'wr')) next.push(i + 1);
    if (c > 0 && open(i - 1, i, 'wr')) next.push(i - 1);
    if (r + 1 < n && open(i, i + n, 'wb')) next.push(i + n);
    if (r > 0 && open(i - n, i, 'wb')) next.push(i - n);
    for (const j of next) if (!seen.has(j)) { seen.add(j); todo.push(j); }
  }
  const colours = [...new Set([...seen].map(i => getComputedStyle(cells[i]).backgroundColor))];
  return {cells: [...seen], colours};
}"""


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


WORDS = {word: rgb(colour) for colour, word in PAGE_PALETTE.items()}


def seen_cells(player, what: str, key: str, colour: str | None) -> set[tuple[int, int]]:
    """A unit's cells as the player finds them on the board: numbers, or name and borders."""
    n = player.size
    if what == "row":
        return {(int(key), c) for c in range(1, n + 1)}
    if what == "column":
        return {(r, int(key)) for r in range(1, n + 1)}
    found = player.page.evaluate(REGION, key)
    assert found is not None, f"no cell shows the name of region {key}"
    assert found["colours"] == [WORDS[colour]], (key, colour, found["colours"])
    return {(i // n + 1, i % n + 1) for i in found["cells"]}


def engine_units(server, source: str, player) -> tuple[list[str], set[tuple[int, int]]]:
    """The units the hint engine names for the source's board and the page's marks; cells."""
    marks = player.marks()
    cells = {mark: [] for mark in "*x"}
    for i, mark in enumerate(marks):
        if mark in cells:
            cells[mark].append([i // player.size + 1, i % player.size + 1])
    payload = {"board": source, "marks": {"stars": cells["*"], "blanks": cells["x"]}}
    (step,) = post(server, "hint", payload)[1]["records"]
    board = read_board(source)
    labels = {shown: label for label, shown in region_names(board).items()}
    found: set[tuple[int, int]] = set()
    for unit in step["premises"]["units"]:
        kind, key = unit.split(" ")
        found |= set(Unit(kind, labels[key] if kind == "region" else int(key)).cells(board))
    return step["premises"]["units"], found


def step_through(player, source: str, hints: int) -> int:
    """Take `hints` hints (or until none is left); check what each lights; region hints seen."""
    regions = 0
    for _ in range(hints):
        player.page.click("#hint")
        text = player.wait_text("#hint-text", "Hint 1 of 3")
        units, cells = engine_units(player.server, source, player)
        player.page.click("#hint")
        text = player.wait_text("#hint-text", "Hint 2 of 3")
        named = UNIT.findall(text.split("Look at", 1)[1])
        assert [f"{line or 'region'} {number or name}" for line, number, name, _ in named] == units
        expected = set()
        for line, number, name, colour in named:
            expected |= seen_cells(player, line or "region", number or name, colour or None)
        assert set(player.cells_with("unit")) == expected == cells, text
        regions += any(name for _, _, name, _ in named)
        player.page.click("#hint")
        player.wait_text("#hint-text", "Hint 3 of 3")
        player.page.click("#hint-apply")
        if "solution" in player.text("#status"):
            break
    return regions


def open_source(player, source: str, name: str, tmp_path) -> str:
    """Open a shipped board as the player would from one source; the board as it gives it."""
    path = ROOT / "instances" / f"{name}.lp"
    board = read_board(str(path))
    # first a board of a size none of BOARDS has, so that the waits below wait for this one
    player.open((ROOT / "instances" / "norvig-5x5-given.lp").read_text())
    if source == "screenshot":
        picture = tmp_path / "board.png"
        picture.write_bytes(render_png(board))
        player.page.set_input_files("#image", str(picture))
        image = base64.b64encode(picture.read_bytes()).decode()
        (record,) = post(player.server, "import", {"image": image})[1]["records"]
        text = json.dumps({"stars": record["stars"], "regions": record["regions"]})
    else:
        text = {
            "text": path.read_text(),
            "url": write_board(board, "url").strip(),
            "sbn": write_board(board, "sbn").strip(),
        }[source]
        player.page.fill("#source", text)
        player.page.click("#load")
    player.wait_for_size(board.size)
    player.page.wait_for_function("document.querySelector('#tier').textContent.length > 0")
    return text


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("source", ["text", "url", "sbn", "screenshot"])
def test_every_region_hint_lights_the_region_it_names(open_player, source, name, tmp_path):
    player = open_player()
    text = open_source(player, source, name, tmp_path)
    assert step_through(player, text, 6) >= 1


def test_hints_on_a_generated_puzzle_on_a_phone(open_player):
    player = open_player("phone")
    player.open()
    player.page.select_option("#gen-size", "8")
    player.page.select_option("#gen-stars", "1")
    with player.page.expect_response("**/api/generate") as answer:
        player.page.click("#generate")
    (made,) = answer.value.json()["records"]
    player.wait_for_size(8)
    assert step_through(player, json.dumps(made), 5) >= 1


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_hints_on_the_start_puzzle_of_serve_file(open_player, screen):
    path = ROOT / "instances" / "generated-14x14-3star.lp"
    with running(start_board=path.read_text()) as started:
        player = open_player(screen, on=started)
        player.open()
        player.wait_for_size(14)
        assert step_through(player, path.read_text(), 6) >= 1
        player.page.goto("about:blank")  # before its server stops
