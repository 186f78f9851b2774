"""Read a board off its grid: cell colours, ink on the borders (lines or walls), regions, marks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from starbattle.io.image.decode import libraries
from starbattle.model.board import Cell

if TYPE_CHECKING:
    import numpy as np

    from starbattle.io.image.grid import Grid

SAME_COLOUR, OTHER_COLOUR = 8.0, 14.0
"""CIELAB distances: cells closer than the first look alike; regions differ by the second."""
GAP = 2.0
"""Or regions differ by this many times the largest colour difference inside a region."""
WALL_RATIO = 1.3
"""Thick walls carry at least this many times the ink of thin lines."""
UNSURE = 0.2
"""A border whose ink lies this share of the thin-to-thick distance near the threshold is unsure."""


def _lab(colours: np.ndarray) -> np.ndarray:
    """RGB colours (any shape ending in 3) as CIELAB floats (L 0-100)."""
    numpy, cv2, _ = libraries()
    flat = colours.reshape(-1, 1, 3).astype(numpy.float32) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_RGB2LAB).reshape(colours.shape)


def cell_colours(grid: Grid) -> np.ndarray:
    """Each cell's colour (N x N x 3 RGB): the median of a ring that skips the cell's middle."""
    numpy = libraries()[0]
    n, picture = grid.size, grid.picture
    colours = numpy.zeros((n, n, 3), numpy.float32)
    for r in range(n):
        y0, y1 = grid.ys[r], grid.ys[r + 1]
        for c in range(n):
            x0, x1 = grid.xs[c], grid.xs[c + 1]
            box = picture[_span(y0, y1, 0.12, 0.88), _span(x0, x1, 0.12, 0.88)]
            h, w = box.shape[:2]
            ring = numpy.ones((h, w), bool)
            ring[int(0.25 * h) : h - int(0.25 * h), int(0.25 * w) : w - int(0.25 * w)] = False
            colours[r, c] = numpy.median(box[ring], axis=0)
    return colours


def _span(start: float, end: float, lo: float, hi: float) -> slice:
    """The pixel slice from a fraction `lo` to a fraction `hi` of the way from start to end."""
    return slice(round(start + lo * (end - start)), round(start + hi * (end - start)) + 1)


def _border_ink(grid: Grid, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ink on each inner cell border, in pixels of full contrast: (N x N-1 right, N-1 x N below).

    Across the middle of each border, the colour's distance from the nearer of the two cells'
    colours is summed: a colour step without a line has none, a thick wall much.
    """
    numpy = libraries()[0]
    n, picture = grid.size, grid.picture.astype(numpy.float32)
    right = numpy.zeros((n, n - 1), numpy.float32)
    below = numpy.zeros((n - 1, n), numpy.float32)
    pitch = (grid.xs[-1] - grid.xs[0] + grid.ys[-1] - grid.ys[0]) / (2 * n)
    reach = max(3, round(0.2 * pitch))
    for r in range(n):
        rows = _span(grid.ys[r], grid.ys[r + 1], 0.25, 0.75)
        for c in range(n - 1):
            at = round(grid.xs[c + 1])
            strip = numpy.median(picture[rows, max(0, at - reach) : at + reach + 1], axis=0)
            right[r, c] = _ink(strip, colours[r, c], colours[r, c + 1])
    for c in range(n):
        columns = _span(grid.xs[c], grid.xs[c + 1], 0.25, 0.75)
        for r in range(n - 1):
            at = round(grid.ys[r + 1])
            strip = numpy.median(picture[max(0, at - reach) : at + reach + 1, columns], axis=1)
            below[r, c] = _ink(strip, colours[r, c], colours[r + 1, c])
    return right, below


def _ink(strip: np.ndarray, one: np.ndarray, other: np.ndarray) -> float:
    """Summed distance of a strip of colours from the nearer of two cell colours (/255)."""
    numpy = libraries()[0]
    apart = numpy.minimum(
        numpy.linalg.norm(strip - one, axis=1), numpy.linalg.norm(strip - other, axis=1)
    )
    return float(numpy.clip(apart - 12.0, 0, None).sum() / 255.0)


def _wall_threshold(values: np.ndarray) -> float | None:
    """The ink above which a border is a wall, when borders split into thin and thick; else None.

    Otsu's split of the sorted values; walls exist when the thick side's median carries at
    least WALL_RATIO times the thin side's (plus half a pixel, for boards with no lines).
    """
    numpy = libraries()[0]
    ordered = numpy.sort(values)
    best, split = -1.0, 0
    for k in range(1, len(ordered)):
        low, high = ordered[:k], ordered[k:]
        between = k * (len(ordered) - k) * (high.mean() - low.mean()) ** 2
        if between > best:
            best, split = between, k
    thin, thick = numpy.median(ordered[:split]), numpy.median(ordered[split:])
    if thick < WALL_RATIO * thin + 0.5:
        return None
    return float((ordered[split - 1] + ordered[split]) / 2)


@dataclass
class Borders:
    """Every inner border between two neighbouring cells, with its ink and colour change."""

    pairs: list[tuple[Cell, Cell]]
    ink: np.ndarray
    change: np.ndarray
    """CIELAB distance between the two cells' colours."""
    walls: np.ndarray
    """Whether each border is a thick wall."""
    unsure: np.ndarray
    """Whether each border's ink lies near the wall threshold (in the gap, walls are clear)."""


def measure_borders(grid: Grid, colours: np.ndarray) -> Borders:
    """Measure every inner border and tell walls from thin lines (no walls: all False)."""
    numpy = libraries()[0]
    n = grid.size
    right, below = _border_ink(grid, colours)
    lab = _lab(colours)
    pairs: list[tuple[Cell, Cell]] = []
    ink, change = [], []
    for r in range(n):
        for c in range(n):
            for rr, cc, value in ((r, c + 1, right), (r + 1, c, below)):
                if rr < n and cc < n:
                    pairs.append(((r, c), (rr, cc)))
                    ink.append(value[r, c])
                    change.append(float(numpy.linalg.norm(lab[r, c] - lab[rr, cc])))
    inks, changes = numpy.array(ink), numpy.array(change)
    threshold = _wall_threshold(inks)
    walls = numpy.zeros(len(pairs), bool) if threshold is None else inks > threshold
    colourful = regions_by_colour(pairs, changes, n, walls)
    if walls.any() and colourful and (changes[walls] > SAME_COLOUR).mean() < 0.7:
        walls[:] = False  # "walls" that do not follow the colours are plain grid lines
    unsure = numpy.zeros(len(pairs), bool)
    if walls.any():
        thin, thick = numpy.median(inks[~walls]), numpy.median(inks[walls])
        unsure = numpy.abs(inks - threshold) < UNSURE * (thick - thin)
    return Borders(pairs, inks, changes, walls, unsure)


def region_labels(n: int, borders: Borders) -> tuple[list[list[int]], list[str]]:
    """The regions (a label per cell) and any doubts; unclear borders that matter are doubts."""
    labels, doubts = _join(n, borders, borders.walls)
    if borders.unsure.any():
        for walls in (borders.walls | borders.unsure, borders.walls & ~borders.unsure):
            if _join(n, borders, walls)[0] != labels:
                index = int(borders.unsure.nonzero()[0][0])
                doubts.append(f"unclear border near {_where(borders.pairs[index])}")
                break
    return labels, doubts


def _join(n: int, borders: Borders, walls: np.ndarray) -> tuple[list[list[int]], list[str]]:
    """Join cells across non-walls, most alike first, until N regions remain; and any doubts.

    Walls are crossed only when needed, after every non-wall; the doubts name joins across a
    wall or between unlike colours, and neighbours in two regions that look alike (closer than
    OTHER_COLOUR and than GAP times the largest difference joined across a non-wall).
    """
    numpy = libraries()[0]
    parent = list(range(n * n))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    order = numpy.lexsort((borders.change, walls))
    count, doubts = n * n, []
    joined = numpy.zeros(len(borders.pairs), bool)
    for index in order:
        if count == n:
            break
        (r, c), (rr, cc) = borders.pairs[index]
        a, b = root(r * n + c), root(rr * n + cc)
        if a == b:
            continue
        parent[a] = b
        count -= 1
        joined[index] = True
        if walls[index]:
            doubts.append(f"joined across a wall at {_where(borders.pairs[index])}")
        elif not walls.any() and borders.change[index] > OTHER_COLOUR:
            doubts.append(f"joined unlike colours at {_where(borders.pairs[index])}")
    # two regions may differ by less than OTHER_COLOUR when their cells are far more alike
    joined_plain = borders.change[joined & ~walls]
    alike = min(OTHER_COLOUR, max(SAME_COLOUR, GAP * float(joined_plain.max(initial=0.0))))
    for index, ((r, c), (rr, cc)) in enumerate(borders.pairs):
        apart = root(r * n + c) != root(rr * n + cc)
        if apart and not walls[index] and borders.change[index] < alike:
            doubts.append(f"alike cells in two regions at {_where(borders.pairs[index])}")
    labels: dict[int, int] = {}
    grid = [[labels.setdefault(root(r * n + c), len(labels)) for c in range(n)] for r in range(n)]
    return grid, doubts


def _where(pair: tuple[Cell, Cell]) -> str:
    """Two 0-based cells as a 1-based 'row R column C / row R column C' phrase."""
    (r, c), (rr, cc) = pair
    return f"({r + 1},{c + 1})-({rr + 1},{cc + 1})"


def regions_by_colour(
    pairs: list[tuple[Cell, Cell]], changes: np.ndarray, n: int, walls: np.ndarray
) -> bool:
    """Whether neighbouring regions differ in colour (a Queens-like board).

    Colour regions differ along many borders (N/2 at least, and a quarter as many as there
    are walls), between cells that have alike neighbours: a cell unlike all its neighbours
    (tinted by a mark or hover shading) is not counted.
    """
    unlike = changes > OTHER_COLOUR
    neighbours: dict[Cell, int] = {}
    odd: dict[Cell, int] = {}
    for pair, differs in zip(pairs, unlike, strict=True):
        for cell in pair:
            neighbours[cell] = neighbours.get(cell, 0) + 1
            odd[cell] = odd.get(cell, 0) + int(differs)
    alone = {cell for cell, count in odd.items() if count == neighbours[cell]}
    counted = sum(
        1
        for (one, other), differs in zip(pairs, unlike, strict=True)
        if differs and one not in alone and other not in alone
    )
    return counted >= max(n // 2, int(walls.sum()) / 4)


def drawn_marks(grid: Grid, colours: np.ndarray) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Cells with a drawn star/crown (a large solid shape) and with an X or dot (a small one)."""
    numpy, cv2, _ = libraries()
    stars, blanks = set(), set()
    for r in range(grid.size):
        for c in range(grid.size):
            rows, columns = (
                _span(grid.ys[r], grid.ys[r + 1], 0.22, 0.78),
                _span(grid.xs[c], grid.xs[c + 1], 0.22, 0.78),
            )
            box = grid.picture[rows, columns].astype(numpy.float32)
            ink = numpy.linalg.norm(box - colours[r, c], axis=2) > 60
            inked = int(ink.sum())
            if inked < 0.01 * ink.size:
                continue
            size = box.shape[0] / 0.56
            points = cv2.findNonZero(ink.astype(numpy.uint8))
            _, _, w, h = cv2.boundingRect(points)
            solid = inked / float(w * h)
            if max(w, h) >= 0.3 * size and solid >= 0.3:
                stars.add((r + 1, c + 1))
            elif max(w, h) >= 0.06 * size:
                blanks.add((r + 1, c + 1))
    return frozenset(stars), frozenset(blanks)
