"""The output formats by name, for the options that choose one."""

from __future__ import annotations

from starbattle.io.formatters.base import Formatter
from starbattle.io.formatters.facts import LpFormatter, Pzprv3Formatter
from starbattle.io.formatters.jsonl import JsonFormatter
from starbattle.io.formatters.picture import PictureFormatter, PngFormatter
from starbattle.io.formatters.text import TextFormatter

KINDS = (TextFormatter, JsonFormatter, LpFormatter, Pzprv3Formatter, PictureFormatter)
FORMATTERS: dict[str, type[Formatter]] = {cls.name: cls for cls in (*KINDS, PngFormatter)}
SOLVE_FORMATS = tuple(FORMATTERS)
"""What `solve` writes: text, json, lp, pzprv3, svg, png."""
