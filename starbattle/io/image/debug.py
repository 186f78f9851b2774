"""The debug picture: the image with the board's outline, grid lines and region borders drawn."""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING

from starbattle.errors import UsageError
from starbattle.io.files import write_atomic
from starbattle.io.image.decode import libraries

if TYPE_CHECKING:
    import numpy as np

    from starbattle.io.image.grid import Grid

DEBUG_FORMATS = {"": "PNG", ".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
"""The debug picture's format, by its file's extension."""


def debug_format(path: str) -> str:
    """Pillow's format for the debug picture, by the file's extension (PNG when it has none)."""
    extension = os.path.splitext(path)[1].lower()
    if extension not in DEBUG_FORMATS:
        raise UsageError(
            f"--debug-image {path}: the debug picture is written as PNG or JPEG: "
            "name it FILE.png or FILE.jpg"
        )
    return DEBUG_FORMATS[extension]


def write_debug_image(
    path: str, rgb: np.ndarray, grid: Grid | None, labels: list[list[int]] | None
) -> None:
    """Write a PNG or JPEG of the image with the board's outline, grid and regions drawn on."""
    numpy, cv2, Image = libraries()
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
    Image.fromarray(picture).save(encoded, format=debug_format(path))
    write_atomic(path, encoded.getvalue())
