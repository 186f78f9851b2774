"""The output formats by name; each formatter imported when asked for, not at start."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starbattle.io.formatters.base import Formatter

SOLVE_FORMATS = ("text", "json", "lp", "pzprv3", "svg", "png")
"""What `solve` writes."""


def formatter(name: str) -> type[Formatter]:
    """The formatter class of a format (one of SOLVE_FORMATS)."""
    if name == "text":
        from starbattle.io.formatters.text import TextFormatter

        return TextFormatter
    if name == "json":
        from starbattle.io.formatters.jsonl import JsonFormatter

        return JsonFormatter
    if name in ("lp", "pzprv3"):
        from starbattle.io.formatters.facts import LpFormatter, Pzprv3Formatter

        return LpFormatter if name == "lp" else Pzprv3Formatter
    if name in ("svg", "png"):
        from starbattle.io.formatters.picture import PictureFormatter, PngFormatter

        return PictureFormatter if name == "svg" else PngFormatter
    raise KeyError(name)
