"""Find the board's grid in a picture: square outlines, straightened; N from the lines' spacing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from starbattle.errors import FormatError
from starbattle.io.image.decode import libraries

if TYPE_CHECKING:
    import numpy as np

MIN_SIZE, MAX_SIZE = 4, 25
"""Board sides the reader looks for."""
WORK_SIDE = 1000
"""Straightened boards larger than this are scaled down to this side (pixels)."""
PAD = 4
"""Pixels of edge repeated around the image while looking for outlines."""
MAX_OUTLINES = 7
"""How many of the largest square outlines are tried (the whole image is always tried)."""
CLEAR = 0.15
"""The least clarity of a grid (line strength against mid-cell strength) that is read."""


@dataclass
class Grid:
    """A straightened board picture and its N+1 column and row line positions."""

    picture: np.ndarray
    xs: np.ndarray
    ys: np.ndarray
    quality: float
    corners: np.ndarray
    """The board's corners in the original image (TL, TR, BR, BL)."""

    @property
    def size(self) -> int:
        """The number of cells per side."""
        return len(self.xs) - 1


def _order(points: np.ndarray) -> np.ndarray:
    """Four corner points ordered top-left, top-right, bottom-right, bottom-left."""
    numpy = libraries()[0]
    total, diff = points.sum(axis=1), points[:, 1] - points[:, 0]
    return numpy.array(
        [
            points[total.argmin()],
            points[diff.argmin()],
            points[total.argmax()],
            points[diff.argmax()],
        ],
        dtype=numpy.float32,
    )


def _outlines(rgb: np.ndarray) -> tuple[list[np.ndarray], np.ndarray | None]:
    """Square-looking outlines (corners, largest first, the whole image last); the cell block.

    The block of cells (or None) is apart: a fallback for when no outline shows a clear grid.
    """
    numpy, cv2, _ = libraries()
    height, width = rgb.shape[:2]
    scale = min(1.0, WORK_SIDE / max(height, width))
    small = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    border = numpy.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    ground = numpy.median(border, axis=0)
    # OpenCV's contours never run along the image's edge: repeat the edge pixels outwards
    small = cv2.copyMakeBorder(small, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
    gray = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90), numpy.ones((3, 3), numpy.uint8))
    apart = numpy.abs(small.astype(numpy.int16) - ground.astype(numpy.int16)).max(axis=2) > 24
    blobs = cv2.morphologyEx(apart.astype(numpy.uint8) * 255, cv2.MORPH_CLOSE, numpy.ones((5, 5)))
    dark = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)[1]
    edge_contours = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    contours = [
        *edge_contours,
        *cv2.findContours(dark, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0],
        *cv2.findContours(blobs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0],
    ]
    least = 0.12 * min(small.shape[:2])
    found: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        _, _, w, h = cv2.boundingRect(contour)
        if min(w, h) < least:
            continue
        rect = cv2.minAreaRect(contour)
        side_a, side_b = rect[1]
        if min(side_a, side_b) < least or max(side_a, side_b) > 1.2 * min(side_a, side_b):
            continue
        if cv2.contourArea(contour) < 0.85 * side_a * side_b:
            continue
        corners = _order((cv2.boxPoints(rect) - PAD) / scale)
        if all(numpy.abs(corners - seen).max() > 0.01 * max(height, width) for _, seen in found):
            found.append((side_a * side_b, corners))
    found.sort(key=lambda item: -item[0])
    quads = [corners for _, corners in found[:MAX_OUTLINES]]
    if max(height, width) <= 1.05 * min(height, width):
        whole = numpy.array([[0, 0], [width, 0], [width, height], [0, height]], numpy.float32)
        quads.append(whole)
    block = _cell_block(edge_contours)
    return quads, None if block is None else _order((block - PAD) / scale)


def _cell_block(contours: list[np.ndarray]) -> np.ndarray | None:
    """The corners of the largest square block of alike, aligned cells among edge contours.

    A frame, a bar of buttons or a page around the board can make the outlines found larger
    than the board; the cells themselves (the holes between grid lines) are not fooled.
    """
    numpy, cv2, _ = libraries()
    boxes = numpy.array([cv2.boundingRect(contour) for contour in contours]).reshape(-1, 4)
    sides = boxes[:, 2:].max(axis=1)
    squareish = (boxes[:, 2:].min(axis=1) >= 0.8 * sides) & (sides >= 5)
    areas = numpy.array([cv2.contourArea(contour) for contour in contours])
    cells = numpy.flatnonzero(squareish & (areas >= 0.6 * boxes[:, 2] * boxes[:, 3]))
    if len(cells) < MIN_SIZE * MIN_SIZE:
        return None
    # the cell side: the side that most square contours share (within 20%)
    logs = numpy.sort(numpy.log(sides[cells]))
    alike = numpy.searchsorted(logs, logs + 0.18) - numpy.searchsorted(logs, logs - 0.18)
    side = float(numpy.exp(logs[alike.argmax()]))
    cells = cells[numpy.abs(numpy.log(sides[cells] / side)) < 0.18]
    centres = boxes[cells, :2] + boxes[cells, 2:] / 2
    # join cells whose centres lie within 1.6 sides (neighbours across a grid line)
    near = numpy.linalg.norm(centres[:, None] - centres[None, :], axis=2) < 1.6 * side
    label = numpy.arange(len(cells))
    while True:
        spread = numpy.where(near, label[None, :], len(cells)).min(axis=1)
        if (spread == label).all():
            break
        label = spread[spread]
    block = label == numpy.bincount(label).argmax()
    if block.sum() < MIN_SIZE * MIN_SIZE:
        return None
    points = numpy.concatenate([contours[k].reshape(-1, 2) for k in cells[block]])
    (cx, cy), (w, h), angle = cv2.minAreaRect(points.astype(numpy.float32))
    if max(w, h) > 1.2 * min(w, h):
        return None
    apart = numpy.linalg.norm(centres[block][:, None] - centres[block][None, :], axis=2)
    pitch = float(numpy.median(numpy.sort(apart, axis=1)[:, 1]))
    grow = max(0.0, pitch - side) / 2 + 0.15 * pitch  # past the outer grid line
    return cv2.boxPoints(((cx, cy), (w + 2 * grow, h + 2 * grow), angle))


def _straighten(rgb: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The quadrilateral's content as a square picture of at most WORK_SIDE pixels."""
    numpy, cv2, _ = libraries()
    side = float(
        numpy.linalg.norm(corners[1] - corners[0]) + numpy.linalg.norm(corners[3] - corners[0])
    )
    side = int(min(WORK_SIDE, max(64, round(side / 2))))
    target = numpy.array([[0, 0], [side, 0], [side, side], [0, side]], numpy.float32)
    matrix = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(
        rgb, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _profiles(picture: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How line-like each column and each row is: a low percentile of its colour gradient."""
    numpy, cv2, _ = libraries()
    values = picture.astype(numpy.int16)
    across = numpy.abs(numpy.diff(values, axis=1)).max(axis=2).astype(numpy.uint8)
    down = numpy.abs(numpy.diff(values, axis=0)).max(axis=2).astype(numpy.uint8)
    # a wall's two edges and a thin line's sit a few pixels apart: blur them into one band
    reach = 2 * max(1, round(len(picture) / 160)) + 1
    across = cv2.dilate(across, numpy.ones((1, reach), numpy.uint8))
    down = cv2.dilate(down, numpy.ones((reach, 1), numpy.uint8))
    # a grid line crosses (nearly) every row; drawn marks and text only some
    return (
        numpy.percentile(across, 30, axis=0).astype(numpy.float32),
        numpy.percentile(down, 30, axis=1).astype(numpy.float32),
    )


def _ends(profile: np.ndarray) -> tuple[list[int], list[int]]:
    """Candidate first and last grid lines: strong peaks near either end, and the ends."""
    numpy = libraries()[0]
    length = len(profile)
    reach = max(3, int(0.1 * length))
    strong = 0.25 * float(profile.max())

    def peaks(lo: int, hi: int) -> list[int]:
        part = profile[lo:hi]
        order = numpy.argsort(-part)[:12]
        chosen: list[int] = []
        for index in order:
            centre = _centre(part, int(index))
            if part[index] >= strong and all(abs(centre - c) > 2 for c in chosen):
                chosen.append(centre)
        return [lo + c for c in chosen[:4]]

    return [0, *peaks(0, reach)], [length - 1, *peaks(length - reach, length)]


def _centre(values: np.ndarray, index: int) -> int:
    """The middle of the run of values around `index` that are at least 80% of its value."""
    floor = 0.8 * float(values[index])
    lo, hi = index, index
    while lo > 0 and values[lo - 1] >= floor:
        lo -= 1
    while hi < len(values) - 1 and values[hi + 1] >= floor:
        hi += 1
    return (lo + hi) // 2


class _Profile:
    """One axis's line profile, with its running maxima cached by radius."""

    def __init__(self, values: np.ndarray) -> None:
        """Keep the profile and find the candidate first and last lines."""
        self.values = values
        self.top = float(values.max()) or 1.0
        self.ends = _ends(values)
        self._spread: dict[int, np.ndarray] = {}

    def spread(self, radius: int) -> np.ndarray:
        """The profile's running maximum over a window of +-radius."""
        if radius not in self._spread:
            numpy, cv2, _ = libraries()
            kernel = numpy.ones((2 * radius + 1, 1), numpy.uint8)
            self._spread[radius] = cv2.dilate(self.values.reshape(-1, 1), kernel).ravel()
        return self._spread[radius]

    def fit(self, size: int, first: float, last: float) -> float:
        """How clearly N even cells between two lines show: lines strong, mid-cells weak."""
        numpy = libraries()[0]
        pitch = (last - first) / size
        if pitch < 6:
            return -1.0
        steps = numpy.arange(size + 1)
        lines = self.spread(max(1, round(0.1 * pitch)))[
            numpy.rint(first + steps[1:-1] * pitch).astype(int)
        ]
        mids = self.spread(max(1, round(0.12 * pitch)))[
            numpy.rint(first + (steps[:-1] + 0.5) * pitch).astype(int)
        ]
        low = float(numpy.sort(lines)[(len(lines) - 1) // 10])  # the 10th percentile, fast
        high = float(numpy.sort(mids)[len(mids) - 1 - (len(mids) - 1) // 10])
        uncovered = (first + len(self.values) - 1 - last) / len(self.values)
        return (low - high) / (low + high + 8.0) - 2.0 * uncovered

    def best(self, size: int) -> tuple[float, float, float]:
        """The clearest fit of N cells over the candidate ends: (clarity, first, last).

        The best pair of ends is then refined: the straight line through the inner lines found
        near their even places (an end may be off by a wall's or a frame's width).
        """
        numpy = libraries()[0]
        firsts, lasts = self.ends
        clarity, first, last = max((self.fit(size, a, b), a, b) for a in firsts for b in lasts)
        if clarity < -0.5:
            return clarity, first, last
        inner = self.lines(size, first, last)[1:-1]
        slope, start = numpy.polyfit(numpy.arange(1, size), inner, 1)
        first_fit, last_fit = float(start), float(start + size * slope)
        if first_fit < 0 or last_fit > len(self.values) - 1:
            return clarity, first, last
        refined = self.fit(size, first_fit, last_fit)
        return max((clarity, first, last), (refined, first_fit, last_fit))

    def lines(self, size: int, first: float, last: float) -> np.ndarray:
        """The N+1 line positions, each moved to the strongest column near its place."""
        numpy = libraries()[0]
        pitch = (last - first) / size
        reach = max(1, round(0.3 * pitch))
        where = [float(first)]
        for k in range(1, size):
            at = round(first + k * pitch)
            part = self.values[at - reach : at + reach + 1]
            peak = numpy.flatnonzero(part == part.max())
            where.append(at - reach + float(peak.mean()))
        where.append(float(last))
        return numpy.array(where)


def _grid(rgb: np.ndarray, corners: np.ndarray, sizes: range) -> Grid:
    """The clearest grid of any allowed size inside one outline.

    Of sizes that fit about as clearly, a multiple of the clearest is taken: a grid of N/k
    cells also has strong lines and clear mid-cells.
    """
    picture = _straighten(rgb, corners)
    across, down = (_Profile(values) for values in _profiles(picture))
    fits = {}
    for size in sizes:
        x_fit, y_fit = across.best(size), down.best(size)
        fits[size] = (min(x_fit[0], y_fit[0]), x_fit[1:], y_fit[1:])
    clearest = max(fits, key=lambda size: fits[size][0])
    size = max(s for s in fits if s % clearest == 0 and fits[s][0] >= fits[clearest][0] - 0.1)
    quality, (x0, x1), (y0, y1) = fits[size]
    return Grid(picture, across.lines(size, x0, x1), down.lines(size, y0, y1), quality, corners)


def find_grid(rgb: np.ndarray, size: int | None) -> Grid:
    """The board's grid: the largest outline whose grid is nearly as clear as the clearest.

    When no outline shows a clear grid (a frame and buttons make the outlines too large), or
    the grid leaves out some of the cells found between grid lines, the block of those cells
    is read instead.
    """
    sizes = range(size, size + 1) if size else range(MIN_SIZE, MAX_SIZE + 1)
    quads, block = _outlines(rgb)
    grids = [_grid(rgb, quad, sizes) for quad in quads]
    clearest = max((g.quality for g in grids), default=-1.0)
    if clearest < CLEAR and block is not None:
        grids = [_grid(rgb, block, sizes)]
        clearest = grids[0].quality
    if not grids:
        raise FormatError("found no square board in the image")
    if clearest < CLEAR:
        raise FormatError(f"found no clear grid in the image (clarity {clearest:.2f})")
    chosen = next(g for g in grids if g.quality >= clearest - 0.1)
    if block is None or not _leaves_out(chosen, block):
        return chosen
    inner = _grid(rgb, block, sizes)
    if inner.quality < CLEAR:
        raise FormatError("the grid found leaves out cells of the board")
    return inner


def _leaves_out(grid: Grid, block: np.ndarray) -> bool:
    """Whether the block of cells reaches half a cell or more past the grid's outer lines."""
    numpy, cv2, _ = libraries()
    side = len(grid.picture)
    target = numpy.array([[0, 0], [side, 0], [side, side], [0, side]], numpy.float32)
    forward = cv2.getPerspectiveTransform(grid.corners.astype(numpy.float32), target)
    xs, ys = cv2.perspectiveTransform(numpy.array([block], numpy.float32), forward)[0].T
    half = 0.5 * (grid.xs[-1] - grid.xs[0]) / grid.size
    return bool(
        xs.min() < grid.xs[0] - half
        or xs.max() > grid.xs[-1] + half
        or ys.min() < grid.ys[0] - half
        or ys.max() > grid.ys[-1] + half
    )
