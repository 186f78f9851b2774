"""Limits on what the library accepts, and time limits, in one place."""

import time

MAX_SIZE = 200
"""The largest board side accepted; larger boards are refused before any work."""

MAX_DIGITS = 9
"""Numbers in inputs have at most this many digits (sizes, star counts, coordinates)."""


def whole_number(text: str) -> int | None:
    """The value of an ASCII whole number of at most MAX_DIGITS digits, else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS else None


class TimeLimitReached(Exception):
    """A time limit passed before a query had its answer; the library turns it into a value."""


def deadline_after(timeout: float | None) -> float | None:
    """The perf_counter time at which `timeout` seconds from now end (None: no limit)."""
    return None if timeout is None else time.perf_counter() + timeout


def time_left(deadline: float | None) -> float | None:
    """Seconds left before a deadline (None without one); raises TimeLimitReached once past."""
    if deadline is None:
        return None
    left = deadline - time.perf_counter()
    if left <= 0:
        raise TimeLimitReached
    return left
