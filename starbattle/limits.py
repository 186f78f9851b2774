"""Limits on what the library accepts, in one place."""

MAX_SIZE = 200
"""The largest board side accepted; larger boards are refused before any work."""

MAX_DIGITS = 9
"""Numbers in inputs have at most this many digits (sizes, star counts, coordinates)."""


def whole_number(text: str) -> int | None:
    """The value of an ASCII whole number of at most MAX_DIGITS digits, else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS else None
