"""Pictures of boards and solutions: one scene of shapes, drawn as SVG or (with Pillow) PNG.

Regions are filled from Paul Tol's colour-blind-safe "light" palette so that neighbouring
regions differ, region borders are thick and cell borders thin, stars are drawn as shapes.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from starbattle.errors import UsageError
from starbattle.model.board import Board, Cell, Solution
from starbattle.model.steps import State, Step

PAGE_PALETTE = {
    "#77AADD": "blue", "#EEDD88": "yellow", "#FFAABB": "pink", "#44BB99": "mint",
    "#EE8866": "orange", "#99DDFF": "sky", "#BBCC33": "lime", "#DDDDDD": "grey",
    "#AAAA00": "olive",
    "#BBCCEE": "periwinkle", "#CCDDAA": "sage", "#FFCCCC": "blush", "#EEEEBB": "cream",
    "#88CCEE": "aqua", "#DDCC77": "sand", "#44AA99": "teal", "#999933": "moss",
    "#EE6677": "coral", "#CCBB44": "mustard", "#DDAA33": "gold", "#EE7733": "tangerine",
    "#33BBEE": "azure", "#BBBBBB": "silver", "#CC99DD": "lilac", "#FFDDAA": "peach",
}  # fmt: skip
"""The page's colours and their words: Paul Tol's colour-blind-safe 'light' scheme first,
then his pale, muted and bright ones (lightened), so that each of up to 25 regions gets a
colour of its own, every one under dark ink at a contrast of 5:1 or more."""
PALETTE = tuple(PAGE_PALETTE)[:9]
"""Pictures' colours: Tol's 'light' scheme (distinct for colour-blind viewers), ordered so
that the first colours are the most different from each other."""
INK, GRID, BLOCKED, HIGHLIGHT, GIVEN = "#222222", "#888888", "#555555", "#CC3311", "#FFFFFF"
THIN, THICK = 1, 3
HATCH = "#444444"


@dataclass(frozen=True)
class Overlay:
    """A hint drawn over a board: premise cells hatched, marks and conclusions drawn."""

    shaded: frozenset[Cell] = frozenset()
    """Cells a step rests on (its premise units and cells), hatched."""
    blanks: frozenset[Cell] = frozenset()
    """Cells already marked empty, drawn as a dot."""
    new_stars: frozenset[Cell] = frozenset()
    """Cells the step concludes hold a star, drawn as a red star."""
    new_blanks: frozenset[Cell] = frozenset()
    """Cells the step concludes are empty, drawn as a red cross."""

    @classmethod
    def of(cls, board: Board, state: State, step: Step) -> Overlay:
        """How a picture shows a step taken from a state: premises hatched, marks drawn."""
        return cls(
            step.premise_cells(board),
            state.blanks | board.given_blanks,
            frozenset(step.stars),
            frozenset(step.blanks),
        )


@dataclass(frozen=True)
class Shape:
    """One drawing primitive: a filled polygon, or a line when `width` is set."""

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0


def region_colours(board: Board, palette: tuple[str, ...] = PALETTE) -> dict[str, str]:
    """Colour the regions so that no two touching regions share a colour.

    Regions are taken in DSatur order (most differently coloured neighbours first), each
    given the least used colour that none of its neighbours has: no colour twice while the
    palette has colours never used, and its first colours first.
    """
    cells = board.region_cells()
    neighbours: dict[str, set[str]] = {label: set() for label in cells}
    n = board.size
    for r in range(n):
        for c in range(n):
            here = board.regions[r][c]
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < n and cc < n:
                    there = board.regions[rr][cc]
                    if here is not None and there is not None and here != there:
                        neighbours[here].add(there)
                        neighbours[there].add(here)
    colour: dict[str, int] = {}
    while len(colour) < len(cells):
        label = max(
            (label for label in cells if label not in colour),
            key=lambda label: (
                len({colour[o] for o in neighbours[label] if o in colour}),
                len(neighbours[label]),
            ),
        )
        taken = {colour[o] for o in neighbours[label] if o in colour}
        free = [index for index in range(len(palette)) if index not in taken]
        used = list(colour.values())
        # the least used free colour spreads the palette; past its size in neighbours, any
        colour[label] = min(free, key=used.count) if free else len(used) % len(palette)
    return {label: palette[index] for label, index in colour.items()}


def star_points(x: float, y: float, radius: float) -> tuple[tuple[float, float], ...]:
    """A five-pointed star centred on (x, y)."""
    points = []
    for k in range(10):
        angle = math.pi / 2 + k * math.pi / 5
        length = radius if k % 2 == 0 else radius * 0.4
        points.append(
            (round(x + length * math.cos(angle), 2), round(y - length * math.sin(angle), 2))
        )
    return tuple(points)


def scene(
    board: Board,
    solution: Solution | None = None,
    *,
    highlight: Iterable[Cell] = (),
    cell: int = 32,
    overlay: Overlay | None = None,
) -> tuple[int, list[Shape]]:
    """The picture's side length in pixels and its shapes, back to front."""
    n, margin = board.size, THICK
    side = n * cell + 2 * margin
    colours = region_colours(board)
    shapes: list[Shape] = []

    def box(r: int, c: int, inset: float = 0) -> tuple[tuple[float, float], ...]:
        x, y = margin + (c - 1) * cell + inset, margin + (r - 1) * cell + inset
        size = cell - 2 * inset
        return ((x, y), (x + size, y), (x + size, y + size), (x, y + size))

    for r, row in enumerate(board.regions, start=1):
        for c, label in enumerate(row, start=1):
            shapes.append(Shape(box(r, c), fill=BLOCKED if label is None else colours[label]))
    for r, c in sorted(overlay.shaded if overlay else ()):
        x, y = margin + (c - 1) * cell, margin + (r - 1) * cell
        for t in (1 / 3, 2 / 3, 1):
            shapes.append(Shape(((x, y + cell * t), (x + cell * t, y)), stroke=HATCH, width=THIN))
        for t in (1 / 3, 2 / 3):
            shapes.append(
                Shape(
                    ((x + cell * t, y + cell), (x + cell, y + cell * t)), stroke=HATCH, width=THIN
                )
            )
    for k in range(n + 1):  # thin cell borders
        at = margin + k * cell
        shapes.append(Shape(((margin, at), (side - margin, at)), stroke=GRID, width=THIN))
        shapes.append(Shape(((at, margin), (at, side - margin)), stroke=GRID, width=THIN))
    grid = board.regions
    for r in range(n):  # thick region borders
        for c in range(n):
            y, x = margin + r * cell, margin + c * cell
            if c + 1 < n and grid[r][c] != grid[r][c + 1]:
                shapes.append(Shape(((x + cell, y), (x + cell, y + cell)), stroke=INK, width=THICK))
            if r + 1 < n and grid[r][c] != grid[r + 1][c]:
                shapes.append(Shape(((x, y + cell), (x + cell, y + cell)), stroke=INK, width=THICK))
    edge = side - margin
    outline = ((margin, margin), (edge, margin), (edge, edge), (margin, edge), (margin, margin))
    for start, end in itertools.pairwise(outline):
        shapes.append(Shape((start, end), stroke=INK, width=THICK))
    for r, c in sorted(set(highlight)):
        for start, end in zip(box(r, c, 3), (*box(r, c, 3)[1:], box(r, c, 3)[0]), strict=True):
            shapes.append(Shape((start, end), stroke=HIGHLIGHT, width=THICK))
    for r, c in sorted(board.given_blanks):
        x, y = margin + (c - 0.5) * cell, margin + (r - 0.5) * cell
        shapes.append(Shape(((x - cell / 8, y), (x + cell / 8, y)), stroke=INK, width=THICK))
    if overlay is not None:
        for r, c in sorted(overlay.blanks):
            shapes.append(Shape(box(r, c, cell * 0.44), fill=INK, stroke=INK, width=THIN))
        for r, c in sorted(overlay.new_blanks):
            a, b, d, e = box(r, c, cell * 0.3)
            shapes.append(Shape((a, d), stroke=HIGHLIGHT, width=THICK))
            shapes.append(Shape((b, e), stroke=HIGHLIGHT, width=THICK))
        for r, c in sorted(overlay.new_stars):
            x, y = margin + (c - 0.5) * cell, margin + (r - 0.5) * cell
            shapes.append(
                Shape(star_points(x, y, cell * 0.38), fill=HIGHLIGHT, stroke=INK, width=THIN * 1.5)
            )
    stars = set(solution.stars) if solution else set()
    for r, c in sorted(stars | board.given_stars):
        x, y = margin + (c - 0.5) * cell, margin + (r - 0.5) * cell
        given = (r, c) in board.given_stars
        shapes.append(
            Shape(
                star_points(x, y, cell * 0.38),
                fill=GIVEN if given else INK,
                stroke=INK,
                width=THIN * 1.5,
            )
        )
    return side, shapes


def render_svg(
    board: Board,
    solution: Solution | None = None,
    *,
    highlight: Iterable[Cell] = (),
    cell: int = 32,
    overlay: Overlay | None = None,
) -> str:
    """The board (and solution) as an SVG document."""
    side, shapes = scene(board, solution, highlight=highlight, cell=cell, overlay=overlay)
    body = []
    for shape in shapes:
        points = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
        if shape.fill is None:
            (x1, y1), (x2, y2) = shape.points
            body.append(
                f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                f'stroke="{shape.stroke}" stroke-width="{shape.width:g}" '
                'stroke-linecap="square"/>'
            )
        elif len(shape.points) == 4 and shape.stroke is None:
            (x, y), _, (x2, y2), _ = shape.points
            body.append(
                f'<rect class="cell" x="{x:g}" y="{y:g}" width="{x2 - x:g}" '
                f'height="{y2 - y:g}" fill="{shape.fill}"/>'
            )
        else:
            body.append(
                f'<polygon class="star" points="{points}" fill="{shape.fill}" '
                f'stroke="{shape.stroke}" stroke-width="{shape.width:g}"/>'
            )
    title = escape(f"Star Battle {board.size}x{board.size}, {board.stars} star(s)")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" '
        f'viewBox="0 0 {side} {side}"><title>{title}</title>' + "".join(body) + "</svg>\n"
    )


def render_png(
    board: Board,
    solution: Solution | None = None,
    *,
    highlight: Iterable[Cell] = (),
    cell: int = 32,
    overlay: Overlay | None = None,
) -> bytes:
    """The same picture as PNG bytes (needs Pillow: pip install 'starbattle-asp[image]')."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise UsageError(
            "PNG pictures need Pillow: pip install 'starbattle-asp[image]' (from a checkout: "
            "pip install '.[image]'), or use SVG"
        ) from None
    side, shapes = scene(board, solution, highlight=highlight, cell=cell, overlay=overlay)
    image = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(image)
    for shape in shapes:
        if shape.fill is None:
            draw.line(shape.points, fill=shape.stroke, width=round(shape.width))
        elif shape.stroke is None:
            (x, y), _, (x2, y2), _ = shape.points
            draw.rectangle((x, y, x2 - 1, y2 - 1), fill=shape.fill)
        else:
            draw.polygon(shape.points, fill=shape.fill, outline=shape.stroke)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
