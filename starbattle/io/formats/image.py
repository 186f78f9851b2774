"""Read a board from a screenshot or photo (PNG, JPEG, WebP): grid, regions, drawn marks.

The cost is bounded: the picture's size is checked from its header before it is decoded (a
large JPEG is decoded reduced), then it is reduced, a strip at a time, to at most WORK_LONG
pixels long. The method: find square outlines (edges and non-background blobs), straighten
each; find N from the grid lines' spacing (strong at every N-th position, weak mid-cell);
when no outline shows a clear grid, or the grid leaves out cells, read the block of alike
square cells seen between the grid lines instead (a frame with buttons beside the board);
take each cell's colour from a ring that skips the drawn marks; measure the ink on every
cell border and split thin lines from thick walls; join neighbouring cells across non-walls
in order of colour likeness until N regions remain. A reading that is unsure, or whose
puzzle has no or several solutions, is refused with one line saying what was read (and, if
asked, a debug picture). Needs the `image` extra (Pillow, numpy, OpenCV), imported only when
an image is read.
"""

from __future__ import annotations

import io
import math
import os
import warnings
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING

from starbattle.errors import BoardError, FormatError, UsageError
from starbattle.io.files import write_atomic
from starbattle.io.inputs import READ_PICTURES, picture_kind, unread_picture
from starbattle.model.board import Board, Cell, king_capacity

if TYPE_CHECKING:
    import numpy as np
    from PIL.Image import Image as Picture

MIN_SIZE, MAX_SIZE = 4, 25
"""Board sides the reader looks for."""
DECODE_BUDGET = 160_000_000
"""Bytes a picture may take while it is decoded: with the rest of a command, under 300 MiB."""
DECODE_COST = {"PNG": 4, "JPEG": 4, "progressive JPEG": 10, "WebP": 15}
"""Bytes a decoder holds per pixel: Pillow keeps RGB and RGBA in 4 (a JPEG decoded reduced
counts its reduced pixels), a progressive JPEG adds every coefficient (up to 6) whatever its
reduction, and a WebP is held by libwebp and copied by Pillow. A PNG or JPEG may so have 40
million pixels (an 8K screen has 33 million), a progressive JPEG 16, a WebP 10."""
MIN_SIDE, MAX_ASPECT = 24, 20
"""A picture holds a board only if it is this many pixels each way, at most this long and thin."""
WORK_LONG = 3000
"""A picture longer than this (pixels) is reduced by a whole factor before it is read."""
STRIP_PIXELS = 1 << 20
"""A picture is converted and reduced this many pixels at a time (no full-size copy of it)."""
DEBUG_FORMATS = {"": "PNG", ".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
"""The debug picture's format, by its file's extension."""
WORK_SIDE = 1000
"""Straightened boards larger than this are scaled down to this side (pixels)."""
PAD = 4
"""Pixels of edge repeated around the image while looking for outlines."""
MAX_OUTLINES = 7
"""How many of the largest square outlines are tried (the whole image is always tried)."""
EXTRA = "pip install 'starbattle-asp[image]' (or pip install '.[image]' from a checkout)"
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SAME_COLOUR, OTHER_COLOUR = 8.0, 14.0
"""CIELAB distances: cells closer than the first look alike; regions differ by the second."""
GAP = 2.0
"""Or regions differ by this many times the largest colour difference inside a region."""
WALL_RATIO = 1.3
"""Thick walls carry at least this many times the ink of thin lines."""
CLEAR = 0.15
"""The least clarity of a grid (line strength against mid-cell strength) that is read."""
UNSURE = 0.2
"""A border whose ink lies this share of the thin-to-thick distance near the threshold is unsure."""


@dataclass(frozen=True)
class ImageReading:
    """What was read from an image: the board, the drawn marks, and how it was decided."""

    board: Board
    kind: str
    """'colour' (regions told by colour, Queens-like) or 'wall' (thick borders, one colour)."""
    stars_from: str
    """'given' (the caller's), 'default' (1 on a colour board) or 'unique' (smallest unique)."""
    marked_stars: frozenset[Cell] = frozenset()
    marked_blanks: frozenset[Cell] = frozenset()
    notes: tuple[str, ...] = field(default=())


@dataclass
class _Grid:
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


def _libraries() -> tuple[ModuleType, ModuleType, ModuleType]:
    """numpy, cv2 and PIL.Image, or a one-line error naming the extra that provides them."""
    try:
        import cv2
        import numpy
        from PIL import Image
    except ImportError as error:
        raise FormatError(f"reading a board from an image needs {error.name}: {EXTRA}") from None
    return numpy, cv2, Image


def _pixels(data: bytes, kind: str, name: str | None) -> np.ndarray:
    """The picture as RGB pixels, upright, transparency laid on white, at most WORK_LONG long.

    Pillow's warnings (a decompression bomb, odd EXIF data) are not shown: the limits here are
    stricter, and its errors are said in one line.
    """
    numpy, _, _ = _libraries()
    from PIL import ImageOps

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        image = _opened(data, kind, name)
        try:
            image.load()
        except Exception as error:  # Pillow's decoders raise OSError, SyntaxError, EOFError...
            truncated = isinstance(error, EOFError) or "truncated" in str(error).lower()
            what = "is cut short" if truncated else "is damaged (its pixels cannot be decoded)"
            raise FormatError(
                f"the {kind} picture {what}: save or download it again", file=name
            ) from None
        working = _working(image)
        working.info.update(image.info)  # its EXIF orientation
        ImageOps.exif_transpose(working, in_place=True)
    return numpy.asarray(working)


def _opened(data: bytes, kind: str, name: str | None) -> Picture:
    """The picture with its header read, its size checked and (a JPEG) set to decode reduced."""
    Image = _libraries()[2]
    try:
        image = Image.open(io.BytesIO(data), formats=[kind.upper()])  # Pillow's name: WEBP
    except Image.DecompressionBombError:  # more than twice Pillow's own warning limit
        bomb = 2 * Image.MAX_IMAGE_PIXELS // 10**6
        raise _too_large(f"has over {bomb} million pixels", kind, name) from None
    except Exception:  # any error of a header parser
        raise FormatError(
            f"the {kind} picture is damaged (its header cannot be read): save or download it again",
            file=name,
        ) from None
    width, height = image.size
    if min(width, height) < MIN_SIDE:
        raise FormatError(
            f"the picture is {width}x{height} pixels: too small to hold a board "
            f"(at least {MIN_SIDE} pixels each way)",
            file=name,
        )
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise FormatError(
            f"the picture is {width}x{height} pixels: too long and thin to hold a board "
            f"(at most {MAX_ASPECT} times as long as wide)",
            file=name,
        )
    scale = WORK_LONG / max(width, height)
    if scale < 1:  # a JPEG is decoded at 1/2, 1/4 or 1/8 of its size, at least WORK_LONG long
        image.draft(image.mode, (math.ceil(width * scale), math.ceil(height * scale)))
    decoder = "progressive JPEG" if kind == "JPEG" and "progressive" in image.info else kind
    decoded = width * height if decoder == "progressive JPEG" else image.width * image.height
    if decoded > DECODE_BUDGET // DECODE_COST[decoder]:
        size = f"is {width}x{height} pixels ({width * height // 10**6} million)"
        raise _too_large(size, decoder, name)
    return image


def _too_large(size: str, decoder: str, name: str | None) -> FormatError:
    """The error for a picture with more pixels than its decoder may hold ('size' says how many)."""
    most = DECODE_BUDGET // DECODE_COST[decoder] // 10**6
    return FormatError(
        f"the picture {size}; {decoder} pictures are read up to {most} million pixels: "
        "crop it to the board or scale it down",
        file=name,
    )


def _working(image: Picture) -> Picture:
    """The decoded picture as RGB on white, reduced by a whole factor to at most WORK_LONG long.

    It is converted and reduced a strip of rows at a time: Pillow holds RGB and RGBA in 4
    bytes a pixel, and a full-size copy would double the memory a large picture takes.
    """
    Image = _libraries()[2]
    width, height = image.size
    factor = math.ceil(max(width, height) / WORK_LONG)
    rows = factor * max(1, STRIP_PIXELS // (width * factor))
    strips = [
        _on_white(image.crop((0, top, width, min(height, top + rows)))).reduce(factor)
        for top in range(0, height, rows)
    ]
    working = Image.new("RGB", (strips[0].width, sum(strip.height for strip in strips)))
    top = 0
    for strip in strips:
        working.paste(strip, (0, top))
        top += strip.height
    return working


def _on_white(image: Picture) -> Picture:
    """A picture as RGB, its transparency laid on white."""
    Image = _libraries()[2]
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        image = image.convert("RGBA")
        image = Image.alpha_composite(Image.new("RGBA", image.size, "white"), image)
    return image.convert("RGB")


def _order(points: np.ndarray) -> np.ndarray:
    """Four corner points ordered top-left, top-right, bottom-right, bottom-left."""
    numpy = _libraries()[0]
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
    numpy, cv2, _ = _libraries()
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
    numpy, cv2, _ = _libraries()
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
    numpy, cv2, _ = _libraries()
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
    numpy, cv2, _ = _libraries()
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
    numpy = _libraries()[0]
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
            numpy, cv2, _ = _libraries()
            kernel = numpy.ones((2 * radius + 1, 1), numpy.uint8)
            self._spread[radius] = cv2.dilate(self.values.reshape(-1, 1), kernel).ravel()
        return self._spread[radius]

    def fit(self, size: int, first: float, last: float) -> float:
        """How clearly N even cells between two lines show: lines strong, mid-cells weak."""
        numpy = _libraries()[0]
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
        numpy = _libraries()[0]
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
        numpy = _libraries()[0]
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


def _grid(rgb: np.ndarray, corners: np.ndarray, sizes: range) -> _Grid:
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
    return _Grid(picture, across.lines(size, x0, x1), down.lines(size, y0, y1), quality, corners)


def _find_grid(rgb: np.ndarray, size: int | None) -> _Grid:
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


def _leaves_out(grid: _Grid, block: np.ndarray) -> bool:
    """Whether the block of cells reaches half a cell or more past the grid's outer lines."""
    numpy, cv2, _ = _libraries()
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


def _lab(colours: np.ndarray) -> np.ndarray:
    """RGB colours (any shape ending in 3) as CIELAB floats (L 0-100)."""
    numpy, cv2, _ = _libraries()
    flat = colours.reshape(-1, 1, 3).astype(numpy.float32) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_RGB2LAB).reshape(colours.shape)


def _cell_colours(grid: _Grid) -> np.ndarray:
    """Each cell's colour (N x N x 3 RGB): the median of a ring that skips the cell's middle."""
    numpy = _libraries()[0]
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


def _border_ink(grid: _Grid, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ink on each inner cell border, in pixels of full contrast: (N x N-1 right, N-1 x N below).

    Across the middle of each border, the colour's distance from the nearer of the two cells'
    colours is summed: a colour step without a line has none, a thick wall much.
    """
    numpy = _libraries()[0]
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
    numpy = _libraries()[0]
    apart = numpy.minimum(
        numpy.linalg.norm(strip - one, axis=1), numpy.linalg.norm(strip - other, axis=1)
    )
    return float(numpy.clip(apart - 12.0, 0, None).sum() / 255.0)


def _wall_threshold(values: np.ndarray) -> float | None:
    """The ink above which a border is a wall, when borders split into thin and thick; else None.

    Otsu's split of the sorted values; walls exist when the thick side's median carries at
    least WALL_RATIO times the thin side's (plus half a pixel, for boards with no lines).
    """
    numpy = _libraries()[0]
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
class _Borders:
    """Every inner border between two neighbouring cells, with its ink and colour change."""

    pairs: list[tuple[Cell, Cell]]
    ink: np.ndarray
    change: np.ndarray
    """CIELAB distance between the two cells' colours."""
    walls: np.ndarray
    """Whether each border is a thick wall."""
    unsure: np.ndarray
    """Whether each border's ink lies near the wall threshold (in the gap, walls are clear)."""


def _borders(grid: _Grid, colours: np.ndarray) -> _Borders:
    """Measure every inner border and tell walls from thin lines (no walls: all False)."""
    numpy = _libraries()[0]
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
    colourful = _colourful(pairs, changes, n, walls)
    if walls.any() and colourful and (changes[walls] > SAME_COLOUR).mean() < 0.7:
        walls[:] = False  # "walls" that do not follow the colours are plain grid lines
    unsure = numpy.zeros(len(pairs), bool)
    if walls.any():
        thin, thick = numpy.median(inks[~walls]), numpy.median(inks[walls])
        unsure = numpy.abs(inks - threshold) < UNSURE * (thick - thin)
    return _Borders(pairs, inks, changes, walls, unsure)


def _regions(n: int, borders: _Borders) -> tuple[list[list[int]], list[str]]:
    """The regions (a label per cell) and any doubts; unclear borders that matter are doubts."""
    labels, doubts = _join(n, borders, borders.walls)
    if borders.unsure.any():
        for walls in (borders.walls | borders.unsure, borders.walls & ~borders.unsure):
            if _join(n, borders, walls)[0] != labels:
                index = int(borders.unsure.nonzero()[0][0])
                doubts.append(f"unclear border near {_where(borders.pairs[index])}")
                break
    return labels, doubts


def _join(n: int, borders: _Borders, walls: np.ndarray) -> tuple[list[list[int]], list[str]]:
    """Join cells across non-walls, most alike first, until N regions remain; and any doubts.

    Walls are crossed only when needed, after every non-wall; the doubts name joins across a
    wall or between unlike colours, and neighbours in two regions that look alike (closer than
    OTHER_COLOUR and than GAP times the largest difference joined across a non-wall).
    """
    numpy = _libraries()[0]
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


def _marks(grid: _Grid, colours: np.ndarray) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Cells with a drawn star/crown (a large solid shape) and with an X or dot (a small one)."""
    numpy, cv2, _ = _libraries()
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


def _count(board: Board) -> int:
    """0, 1 or 2 (meaning two or more): how many solutions the board has."""
    from starbattle.asp.solver import Solver

    return sum(1 for _ in Solver(board).solutions(2))


def _choose_stars(board: Board, kind: str, stars: int | None) -> tuple[Board, str, int]:
    """The board with its star count, where the count came from, and its solutions (0-2).

    Without a given count: 1 when that has exactly one solution, else the smallest count
    that has; a colour board with no such count keeps 1 (and its 0 or 2+ solutions).
    """
    if stars is not None:
        board = board.with_stars(stars)
        return board, "given", _count(board)
    with_one = _count(board)
    if with_one == 1:
        return board, "default" if kind == "colour" else "unique", 1
    for count in range(2, king_capacity(board.size) + 1):
        if _count(board.with_stars(count)) == 1:
            return board.with_stars(count), "unique", 1
    if kind == "colour":
        return board, "default", with_one
    return board, "unique", 0


def read_image(
    data: bytes,
    *,
    name: str | None = None,
    stars: int | None = None,
    size: int | None = None,
    marks: bool = False,
    debug_path: str | None = None,
    unique: bool = True,
) -> ImageReading:
    """Read a board from a screenshot or photo; raise FormatError rather than guess.

    `size` fixes N; `stars` fixes S (else 1 on a colour board, and on a wall board the
    smallest S with exactly one solution); `marks` also reads drawn stars and X marks;
    `debug_path` receives a PNG or JPEG (by its extension) of what was read, also when
    reading fails; `unique` False accepts a board with several solutions.
    """
    picture = picture_kind(data)
    if picture is None:
        raise FormatError("not a picture: screenshots are read from PNG, JPEG or WebP", file=name)
    if picture not in READ_PICTURES:
        raise unread_picture(picture, name)
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        raise FormatError(
            f"the board size must be between {MIN_SIZE} and {MAX_SIZE}, not {size}", file=name
        )
    if debug_path is not None:
        _debug_format(debug_path)
    cv2 = _libraries()[1]
    rgb = _pixels(data, picture, name)
    grid: _Grid | None = None
    labels: list[list[int]] | None = None
    try:
        grid = _find_grid(rgb, size)
        colours = _cell_colours(grid)
        borders = _borders(grid, colours)
        labels, doubts = _regions(grid.size, borders)
        n = grid.size
        found = len({label for row in labels for label in row})
        if found != n:
            raise FormatError(f"read a {n}x{n} grid but only {found} regions")
        if doubts:
            raise FormatError(
                f"read a {n}x{n} grid but the regions are unsure ({doubts[0]}"
                + (f" and {len(doubts) - 1} more" if len(doubts) > 1 else "")
                + ")"
            )
        colourful = _colourful(borders.pairs, borders.change, n, borders.walls)
        kind = "wall" if borders.walls.any() and not colourful else "colour"
        board = Board.from_rows([[LABELS[k] for k in row] for row in labels], 1, name=name)
        board, stars_from, solutions = _choose_stars(board, kind, stars)
        if solutions == 0 or (solutions > 1 and unique):
            what = "no solution" if solutions == 0 else "2 or more solutions"
            tried = (
                f" with {board.stars} star(s)" if stars_from != "unique" else " for any star count"
            )
            raise FormatError(f"read a {n}x{n} {kind} board that has {what}{tried}")
    except (FormatError, BoardError, cv2.error) as error:
        if debug_path is not None:
            write_debug_image(debug_path, rgb, grid, labels)
        hint = " (check it with --debug-image FILE.png, or pass --size N / --stars S)"
        reason = error.message if isinstance(error, FormatError | BoardError) else "OpenCV failed"
        raise FormatError(
            f"cannot read the board from the image: {reason}{hint}", file=name
        ) from None
    if debug_path is not None:
        write_debug_image(debug_path, rgb, grid, labels)
    notes = [f"read a {n}x{n} {kind} board from the image"]
    if stars_from == "unique":
        notes.append(f"stars: {board.stars}, the smallest count with exactly one solution")
    elif stars_from == "default":
        notes.append("stars: 1, the usual count for a colour board (pass --stars to change it)")
    if solutions > 1:
        notes.append("the board has 2 or more solutions")
    if debug_path is not None:
        notes.append(f"wrote {debug_path} (what was read: grid and regions)")
    marked_stars, marked_blanks = _marks(grid, colours) if marks else (frozenset(), frozenset())
    return ImageReading(board, kind, stars_from, marked_stars, marked_blanks, tuple(notes))


def _colourful(
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


def _debug_format(path: str) -> str:
    """Pillow's format for the debug picture, by the file's extension (PNG when it has none)."""
    extension = os.path.splitext(path)[1].lower()
    if extension not in DEBUG_FORMATS:
        raise UsageError(
            f"--debug-image {path}: the debug picture is written as PNG or JPEG: "
            "name it FILE.png or FILE.jpg"
        )
    return DEBUG_FORMATS[extension]


def write_debug_image(
    path: str, rgb: np.ndarray, grid: _Grid | None, labels: list[list[int]] | None
) -> None:
    """Write a PNG or JPEG of the image with the board's outline, grid and regions drawn on."""
    numpy, cv2, Image = _libraries()
    picture = rgb.copy()
    if grid is not None:
        cv2.polylines(picture, [grid.corners.astype(numpy.int32)], True, (255, 0, 255), 3)
        side = grid.picture.shape[0]
        target = numpy.array([[0, 0], [side, 0], [side, side], [0, side]], numpy.float32)
        back = cv2.getPerspectiveTransform(target, grid.corners.astype(numpy.float32))

        def line(a: tuple[float, float], b: tuple[float, float], colour: tuple, width: int) -> None:
            ends = cv2.perspectiveTransform(numpy.array([[a, b]], numpy.float32), back)[0]
            cv2.line(picture, tuple(map(int, ends[0])), tuple(map(int, ends[1])), colour, width)

        n = grid.size
        for k in range(n + 1):
            line((grid.xs[k], grid.ys[0]), (grid.xs[k], grid.ys[-1]), (0, 200, 255), 1)
            line((grid.xs[0], grid.ys[k]), (grid.xs[-1], grid.ys[k]), (0, 200, 255), 1)
        if labels is not None:
            for r in range(n):
                for c in range(n):
                    if c + 1 < n and labels[r][c] != labels[r][c + 1]:
                        line(
                            (grid.xs[c + 1], grid.ys[r]),
                            (grid.xs[c + 1], grid.ys[r + 1]),
                            (255, 0, 0),
                            3,
                        )
                    if r + 1 < n and labels[r][c] != labels[r + 1][c]:
                        line(
                            (grid.xs[c], grid.ys[r + 1]),
                            (grid.xs[c + 1], grid.ys[r + 1]),
                            (255, 0, 0),
                            3,
                        )
    encoded = io.BytesIO()
    Image.fromarray(picture).save(encoded, format=_debug_format(path))
    write_atomic(path, encoded.getvalue())
