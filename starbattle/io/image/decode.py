"""Decode a picture with bounded memory: its size checked from its header, reduced by strips."""

from __future__ import annotations

import io
import math
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

from starbattle.errors import FormatError

if TYPE_CHECKING:
    import numpy as np
    from PIL.Image import Image as Picture

MIN_SIDE, MAX_ASPECT = 24, 20
"""A picture holds a board only if it is this many pixels each way, at most this long and thin."""
DECODE_BUDGET = 160_000_000
"""Bytes a picture may take while it is decoded: with the rest of a command, under 300 MiB."""
DECODE_COST = {"PNG": 4, "JPEG": 4, "progressive JPEG": 10, "WebP": 15}
"""Bytes a decoder holds per pixel: Pillow keeps RGB and RGBA in 4 (a JPEG decoded reduced
counts its reduced pixels), a progressive JPEG adds every coefficient (up to 6) whatever its
reduction, and a WebP is held by libwebp and copied by Pillow. A PNG or JPEG may so have 40
million pixels (an 8K screen has 33 million), a progressive JPEG 16, a WebP 10."""
WORK_LONG = 3000
"""A picture longer than this (pixels) is reduced by a whole factor before it is read."""
STRIP_PIXELS = 1 << 20
"""A picture is converted and reduced this many pixels at a time (no full-size copy of it)."""
EXTRA = "pip install 'starbattle-asp[image]' (or pip install '.[image]' from a checkout)"


def libraries() -> tuple[ModuleType, ModuleType, ModuleType]:
    """numpy, cv2 and PIL.Image, or a one-line error naming the extra that provides them."""
    try:
        import cv2
        import numpy
        from PIL import Image
    except ImportError as error:
        raise FormatError(f"reading a board from an image needs {error.name}: {EXTRA}") from None
    return numpy, cv2, Image


def pixels(data: bytes, kind: str, name: str | None) -> np.ndarray:
    """The picture as RGB pixels, upright, transparency laid on white, at most WORK_LONG long.

    Pillow's warnings (a decompression bomb, odd EXIF data) are not shown: the limits here are
    stricter, and its errors are said in one line.
    """
    numpy, _, _ = libraries()
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
    Image = libraries()[2]
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
    Image = libraries()[2]
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
    Image = libraries()[2]
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        image = image.convert("RGBA")
        image = Image.alpha_composite(Image.new("RGBA", image.size, "white"), image)
    return image.convert("RGB")
