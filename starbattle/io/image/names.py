"""Colour words for the regions of a board read from a coloured picture ('red', 'light blue')."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starbattle.io.image.decode import libraries

if TYPE_CHECKING:
    import numpy as np

PALETTE = {
    "red": (245, 115, 90),
    "orange": (250, 175, 110),
    "yellow": (235, 240, 120),
    "green": (160, 215, 140),
    "dark green": (20, 110, 30),
    "teal": (70, 170, 170),
    "cyan": (110, 230, 225),
    "light blue": (165, 210, 215),
    "blue": (140, 180, 250),
    "navy": (20, 20, 130),
    "purple": (180, 160, 225),
    "magenta": (150, 20, 150),
    "pink": (225, 160, 190),
    "brown": (140, 90, 50),
    "beige": (190, 180, 155),
    "olive": (128, 128, 0),
    "salmon": (235, 155, 130),
    "grey": (220, 220, 220),
    "dark grey": (128, 128, 128),
    "white": (255, 255, 255),
    "black": (25, 25, 25),
}
"""The colour words, each with a typical sRGB colour (LinkedIn Queens' and Parks' palettes
among them)."""


def colour_words(colours: dict[str, np.ndarray]) -> dict[str, str]:
    """A different colour word for each region, from its colour (RGB), nearest first.

    The pairs of a region and a word are taken closest in CIELAB first, each region and each
    word once; past as many regions as words, a region is named by its nearest word and a
    number ('blue 2').
    """
    numpy, cv2, _ = libraries()
    words = list(PALETTE)
    reference = numpy.array([PALETTE[word] for word in words], numpy.float32)
    labels = list(colours)
    ours = numpy.array([colours[label] for label in labels], numpy.float32)
    lab = cv2.cvtColor(numpy.concatenate([ours, reference]).reshape(-1, 1, 3) / 255.0,
                       cv2.COLOR_RGB2LAB).reshape(-1, 3)  # fmt: skip
    distance = numpy.linalg.norm(lab[: len(labels), None] - lab[None, len(labels) :], axis=2)
    named: dict[str, str] = {}
    taken: set[str] = set()
    for k in numpy.argsort(distance, axis=None):
        region, word = divmod(int(k), len(words))
        if labels[region] not in named and words[word] not in taken:
            named[labels[region]] = words[word]
            taken.add(words[word])
    for region, label in enumerate(labels):
        if label not in named:
            nearest = words[int(numpy.argmin(distance[region]))]
            count = sum(word.startswith(nearest) for word in named.values())
            named[label] = f"{nearest} {count + 1}"
    return named


def region_words(rows: list[list[str]], colours: np.ndarray) -> dict[str, str]:
    """A colour word for each region of a picture: its labels by cell and cell colours (RGB)."""
    numpy = libraries()[0]
    cells: dict[str, list[np.ndarray]] = {}
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            cells.setdefault(label, []).append(colours[r, c])
    return colour_words(
        {label: numpy.median(numpy.array(seen), axis=0) for label, seen in cells.items()}
    )
