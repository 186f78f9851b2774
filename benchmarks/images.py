"""Measure reading boards from images: render corpus boards in several looks, read them back.

Looks: `queens` (pastel colours, thin lines, no walls), `walls` (thick black walls on white),
`dark` (dark mode: muted colours, dark lines and walls, dark chrome), `puzzlink` (cream
ground, light grid, black borders) and `project` (starbattle.io.pictures' own PNG). Each board is
drawn at 200-1,000 px inside app/browser-like chrome, rotated up to +-3 degrees, saved as JPEG
(quality 40-95) or PNG, with marks (stars on solution cells, X or dots elsewhere) on 30% of
cells; one in six is a clean render (PNG, upright, no marks). Seeded.

    python benchmarks/images.py --limit 100          # a quick run
    python benchmarks/images.py                      # 1,000 boards; writes RESULTS.md
"""

from __future__ import annotations

import argparse
import io
import json
import math
import multiprocessing
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path

from PIL import Image, ImageDraw

from starbattle.errors import FormatError
from starbattle.io.image.read import read_image
from starbattle.io.pictures import render_png
from starbattle.model.board import Board

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "real-puzzles.jsonl"
LOOKS = ("queens", "walls", "dark", "puzzlink", "project")
PASTEL = (
    "#B9A3E3",
    "#FFC992",
    "#96BEFF",
    "#B3DFA0",
    "#DFDFDF",
    "#FF7B60",
    "#E6F388",
    "#B9B29E",
    "#DFA0BF",
    "#A3D2D8",
    "#62EFEA",
    "#FF93F3",
    "#8ACC6D",
    "#729AEC",
)
BANDS = ((5, 8), (9, 11), (12, 15), (16, 20), (21, 25))


def pick_boards(count: int, seed: int) -> list[dict]:
    """Up to `count` unique corpus boards, 5x5 to 25x25, spread over sizes and star counts."""
    by_kind: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for line in CORPUS.read_text().splitlines():
        record = json.loads(line)
        if 5 <= record["n"] <= 25 and record["solution_count"] == 1 and connected(record):
            by_kind[record["n"], record["stars"]].append(record)
    rng = random.Random(seed)
    for records in by_kind.values():
        rng.shuffle(records)
    chosen: list[dict] = []
    while len(chosen) < count and any(by_kind.values()):
        for key in sorted(by_kind):
            if by_kind[key] and len(chosen) < count:
                chosen.append(by_kind[key].pop())
    rng.shuffle(chosen)
    return chosen


def connected(record: dict) -> bool:
    """Whether every region is one piece (some community boards reuse a label for two)."""
    regions, n = record["regions"], record["n"]
    pieces = 0
    seen: set[tuple[int, int]] = set()
    for start in ((r, c) for r in range(n) for c in range(n)):
        if start in seen:
            continue
        pieces += 1
        stack = [start]
        seen.add(start)
        while stack:
            r, c = stack.pop()
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                inside = 0 <= rr < n and 0 <= cc < n and (rr, cc) not in seen
                if inside and regions[rr][cc] == regions[r][c]:
                    seen.add((rr, cc))
                    stack.append((rr, cc))
    return pieces == n


def colouring(regions: list[str], palette_size: int) -> dict[str, int]:
    """A palette index per region, neighbours differing (greedy)."""
    n = len(regions)
    neighbours: dict[str, set[str]] = defaultdict(set)
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < n and cc < n and regions[r][c] != regions[rr][cc]:
                    neighbours[regions[r][c]].add(regions[rr][cc])
                    neighbours[regions[rr][cc]].add(regions[r][c])
    chosen: dict[str, int] = {}
    for label in sorted({ch for row in regions for ch in row}):
        used = {chosen[other] for other in neighbours[label] if other in chosen}
        free = [k for k in range(palette_size) if k not in used]
        chosen[label] = free[len(chosen) % len(free)] if len(chosen) < palette_size else free[0]
    return chosen


def draw_board(record: dict, look: str, side: int, marks: dict, rng: random.Random) -> Image.Image:
    """The board alone, `side` pixels square, in a look, with marks drawn."""
    regions, n = record["regions"], record["n"]
    if look == "project":
        board = Board.from_rows([list(row) for row in regions], record["stars"])
        picture = Image.open(io.BytesIO(render_png(board, cell=max(12, side // n))))
        picture = picture.convert("RGB").resize((side, side), Image.Resampling.LANCZOS)
        ink = (34, 34, 34)
    else:
        picture, ink = draw_look(regions, look, side, rng)
    cell = side / n
    draw = ImageDraw.Draw(picture)
    for (r, c), mark in marks.items():
        x, y = (c + 0.5) * cell, (r + 0.5) * cell
        if mark == "star":
            points = [
                (
                    x + (0.3 if k % 2 == 0 else 0.12) * cell * math.sin(k * math.pi / 5),
                    y - (0.3 if k % 2 == 0 else 0.12) * cell * math.cos(k * math.pi / 5),
                )
                for k in range(10)
            ]
            draw.polygon(points, fill=ink)
        elif mark == "x":
            d, w = 0.14 * cell, max(1, round(cell / 25))
            draw.line((x - d, y - d, x + d, y + d), fill=ink, width=w)
            draw.line((x - d, y + d, x + d, y - d), fill=ink, width=w)
        else:
            d = max(1.5, 0.07 * cell)
            draw.ellipse((x - d, y - d, x + d, y + d), fill=ink)
    return picture


def draw_look(regions: list[str], look: str, side: int, rng: random.Random) -> tuple:
    """Cells, grid lines and walls of one look; returns the picture and its ink colour."""
    n = len(regions)
    cell = side / n
    thin, thick = max(1, round(cell / 40)), max(3, round(cell / 11))
    if look in ("queens", "dark"):
        shades = rng.sample(PASTEL, len(PASTEL))
        if look == "dark":
            shades = [
                "#" + "".join(f"{int(int(h[i : i + 2], 16) * 0.85):02x}" for i in (1, 3, 5))
                for h in shades
            ]
        index = colouring(regions, len(shades))
        fill = {label: shades[k] for label, k in index.items()}
        line, wall, ink = (
            ("#3c3c3c", None, (20, 20, 20))
            if look == "queens"
            else ("#111111", "#000000", (240, 240, 240))
        )
    elif look == "walls":
        fill, line, wall, ink = defaultdict(lambda: "#ffffff"), "#9a9a9a", "#000000", (0, 0, 0)
    else:
        fill, line, wall, ink = defaultdict(lambda: "#fffbea"), "#c8c8c8", "#000000", (0, 80, 160)
    picture = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(picture)
    for r in range(n):
        for c in range(n):
            box = (round(c * cell), round(r * cell), round((c + 1) * cell), round((r + 1) * cell))
            draw.rectangle(box, fill=fill[regions[r][c]])
    for k in range(n + 1):
        at = min(side - 1, round(k * cell))
        draw.line((at, 0, at, side), fill=line, width=thin)
        draw.line((0, at, side, at), fill=line, width=thin)
    if wall is not None:
        for r in range(n):
            for c in range(n):
                x, y = round((c + 1) * cell), round((r + 1) * cell)
                if c + 1 < n and regions[r][c] != regions[r][c + 1]:
                    draw.line((x, round(r * cell), x, y), fill=wall, width=thick)
                if r + 1 < n and regions[r][c] != regions[r + 1][c]:
                    draw.line((round(c * cell), y, x, y), fill=wall, width=thick)
        draw.rectangle((0, 0, side - 1, side - 1), outline=wall, width=thick)
    return picture, ink


def in_chrome(board: Image.Image, look: str, rng: random.Random) -> Image.Image:
    """The board inside app/browser-like surroundings: bars, buttons, margins, a frame."""
    side = board.width
    dark = look == "dark"
    ground = (
        (27, 31, 35) if dark else rng.choice([(255, 255, 255), (243, 242, 239), (250, 248, 240)])
    )
    chrome = (60, 64, 70) if dark else (225, 225, 228)
    left, top = rng.randint(10, side // 4), rng.randint(side // 6, side // 2)
    width, height = (
        side + left + rng.randint(10, side // 4),
        side + top + rng.randint(side // 6, side // 2),
    )
    page = Image.new("RGB", (width, height), ground)
    draw = ImageDraw.Draw(page)
    draw.rectangle((0, 0, width, top // 3), fill=chrome)  # title or status bar
    for k in range(rng.randint(2, 5)):  # tabs, icons, a timer
        x = 10 + k * (width // 6)
        draw.rounded_rectangle(
            (x, top // 2, x + width // 8, top // 2 + top // 6), radius=8, fill=chrome
        )
    if rng.random() < 0.5:  # a rounded frame around the board
        pad = max(4, side // 60)
        draw.rounded_rectangle(
            (left - pad, top - pad, left + side + pad, top + side + pad),
            radius=3 * pad,
            fill=(10, 10, 10) if dark else (40, 40, 40),
        )
    page.paste(board, (left, top))
    y = top + side + 12
    for x in (left, left + side // 2 + 6):  # Undo / Hint buttons
        draw.rounded_rectangle(
            (x, y, x + side // 2 - 6, y + max(14, side // 12)),
            radius=12,
            outline=(200, 200, 200) if dark else (60, 60, 60),
            width=2,
        )
    return page


def render(record: dict, look: str, rng: random.Random) -> tuple[bytes, bool]:
    """One test image (bytes) of a board, and whether it is a clean render."""
    n = record["n"]
    side = rng.randint(max(200, 14 * n), 1000)
    clean = rng.random() < 1 / 6
    solution = record.get("solution") or record.get("solver_solution")
    marks: dict[tuple[int, int], str] = {}
    if not clean:
        for r in range(n):
            for c in range(n):
                if rng.random() < 0.3:
                    on = solution is not None and solution[r][c] == "*"
                    marks[r, c] = "star" if on else rng.choice(("x", "dot"))
    board = draw_board(record, look, side, marks, rng)
    if not clean and look in ("queens", "dark") and rng.random() < 0.3:  # a hovered cell
        r, c, cell = rng.randrange(n), rng.randrange(n), side / n
        box = (
            round(c * cell) + 2,
            round(r * cell) + 2,
            round((c + 1) * cell) - 2,
            round((r + 1) * cell) - 2,
        )
        patch = board.crop(box).point(lambda v: int(v * 0.88))
        board.paste(patch, box[:2])
    page = in_chrome(board, look, rng)
    if not clean:
        ground = page.getpixel((page.width - 1, page.height - 1))
        page = page.rotate(
            rng.uniform(-3, 3), Image.Resampling.BICUBIC, expand=True, fillcolor=ground
        )
    buffer = io.BytesIO()
    if clean:
        page.save(buffer, format="PNG")
    else:
        page.save(buffer, format="JPEG", quality=rng.randint(40, 95))
    return buffer.getvalue(), clean


def canonical(rows: object) -> list[list[int]]:
    """Region labels renumbered in first-appearance order."""
    seen: dict[object, int] = {}
    return [[seen.setdefault(label, len(seen)) for label in row] for row in rows]


def measure_one(job: tuple[int, dict, int]) -> dict:
    """Render one board (its own seeded randomness) and read it back: an outcome record."""
    index, record, seed = job
    rng = random.Random(f"{seed}-{index}")
    look = LOOKS[index % len(LOOKS)]
    data, clean = render(record, look, rng)
    stars = record["stars"] if look in ("queens", "dark") else None
    started, cpu = time.perf_counter(), time.process_time()
    try:
        reading = read_image(data, stars=stars)
        n_read = reading.board.size
        right = (
            n_read == record["n"]
            and reading.board.stars == record["stars"]
            and canonical(reading.board.regions) == canonical(record["regions"])
        )
        refused = False
    except FormatError as error:
        words = str(error).split("read a ", 1)
        n_read = int(words[1].split("x", 1)[0]) if len(words) > 1 else None
        right, refused = False, True
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    with Image.open(io.BytesIO(data)) as image:
        pixels = max(image.size)
    return {
        "id": record["id"],
        "look": look,
        "n": record["n"],
        "stars": record["stars"],
        "clean": clean,
        "pixels": pixels,
        "n_right": n_read == record["n"],
        "exact": right,
        "refused": refused,
        "wrong": not right and not refused,
        "seconds": seconds,
        "cpu": cpu,
    }


def measure(count: int, seed: int, jobs: int) -> list[dict]:
    """Render and read `count` boards in `jobs` processes; one outcome record per image."""
    work = [(index, record, seed) for index, record in enumerate(pick_boards(count, seed))]
    if jobs == 1:
        return [measure_one(job) for job in work]
    with multiprocessing.Pool(jobs) as pool:
        return pool.map(measure_one, work, chunksize=4)


def table(outcomes: list[dict], key: str, names: list) -> list[str]:
    """Markdown rows of accuracy per group."""
    rows = [
        f"| {key} | images | N right | exact regions | refused | confident but wrong |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in names:
        group = [o for o in outcomes if o["group"] == name]
        if not group:
            continue
        total = len(group)

        def share(field: str, group: list = group, total: int = total) -> str:
            return f"{100 * sum(o[field] for o in group) / total:.1f}%"

        rows.append(
            f"| {name} | {total} | {share('n_right')} | {share('exact')} | "
            f"{share('refused')} | {share('wrong')} |"
        )
    return rows


def report(outcomes: list[dict], seed: int) -> str:
    """The RESULTS.md section."""
    lines = [
        "<!-- images: begin -->",
        "## Reading boards from images (`benchmarks/images.py`)",
        "",
        f"{len(outcomes)} corpus boards (seed {seed}), one look each in turn; "
        '"exact" = N, regions and star count all right; "refused" = a one-line error '
        'instead of a board; "confident but wrong" = a board returned that differs.',
        "",
    ]
    for o in outcomes:
        o["group"] = o["look"]
    lines += [*table(outcomes, "look", list(LOOKS)), ""]
    for o in outcomes:
        o["group"] = next(f"{lo}-{hi}" for lo, hi in BANDS if lo <= o["n"] <= hi)
    lines += [*table(outcomes, "size", [f"{lo}-{hi}" for lo, hi in BANDS]), ""]
    for o in outcomes:
        o["group"] = "clean" if o["clean"] else "noisy (JPEG, rotated, marks)"
    lines += [*table(outcomes, "render", ["clean", "noisy (JPEG, rotated, marks)"]), ""]
    for o in outcomes:
        o["group"] = "all"
    lines += [*table(outcomes, "overall", ["all"]), ""]
    lines.append("| seconds per image (read only) | images | median | p95 |")
    lines.append("|---|---:|---:|---:|")
    for field in ("seconds", "cpu"):
        for name, least in (("all", 0), (">= 1,000 px", 1000)):
            values = sorted(o[field] for o in outcomes if o["pixels"] >= least)
            if values:
                p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
                lines.append(
                    f"| {name}, {'wall clock' if field == 'seconds' else 'CPU'} | "
                    f"{len(values)} | {statistics.median(values):.2f} | {p95:.2f} |"
                )
    lines.append("<!-- images: end -->")
    return "\n".join(lines)


def main() -> None:
    """Run the benchmark and print (or, for a full run, also store) the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=1000, help="number of boards (default 1000)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    arguments = parser.parse_args()
    outcomes = measure(arguments.limit, arguments.seed, arguments.jobs)
    section = report(outcomes, arguments.seed)
    print(section)
    for o in outcomes:
        if not o["exact"]:
            print(
                "not exact:",
                o["id"],
                o["look"],
                o["n"],
                o["stars"],
                "refused" if o["refused"] else "WRONG",
            )
    if arguments.limit >= 1000:
        from results import write_section

        write_section("<!-- images: begin -->", "<!-- images: end -->", section)


if __name__ == "__main__":
    main()
