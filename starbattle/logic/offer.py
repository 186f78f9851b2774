"""What a player may ask to be made: the boards the generator makes, and the daily puzzles.

The page offers only what can be made: sizes 5 to 25, star counts that fit a size (the king
rule, regions of at least 2S + 1 cells), and with a tier only where generated puzzles of
that size were measured to reach it (`grade.REACHABLE`). A daily puzzle is made on this
machine from the date and the tier alone, so everyone gets the same puzzle that day.
"""

from __future__ import annotations

import datetime

from starbattle.errors import UsageError
from starbattle.logic.grade import REACHABLE, generate_graded
from starbattle.model.board import king_capacity
from starbattle.model.steps import TIERS
from starbattle.model.values import Daily, Makeable

SIZES = range(5, 26)
"""The board sizes the page offers to make."""
DAILY = {
    "easy": (10, 2),
    "medium": (10, 2),
    "hard": (10, 2),
    "expert": (10, 2),
    "extreme": (14, 3),
}
"""The board of each tier's daily puzzle: size and stars (sizes whose puzzles reach it)."""


def makeable() -> list[Makeable]:
    """Every size and star count the page offers, with the tiers measured to be reachable."""
    return [
        Makeable(size, stars, REACHABLE.get((size, stars), ()))
        for size in SIZES
        for stars in range(1, king_capacity(size) + 1)
        if 2 * stars + 1 <= size
    ]


def daily(day: str, tier: str, timeout: float | None = None) -> Daily:
    """The puzzle of day (YYYY-MM-DD) and tier: the same on every machine, from those alone.

    Raises UsageError for a day that is no date or an unknown tier, and the errors of
    `grade.generate_graded` (a time limit).
    """
    try:
        date = datetime.date.fromisoformat(day).isoformat() if len(day) == 10 else ""
    except ValueError:
        date = ""
    if not date:
        raise UsageError(f"{day!r} is no date: write it as YYYY-MM-DD")
    if tier not in DAILY:
        raise UsageError(f"unknown tier {tier!r}: choose one of {', '.join(TIERS)}")
    size, stars = DAILY[tier]
    made = generate_graded(size, stars, f"daily/{date}/{tier}", tier=tier, timeout=timeout)
    return Daily(date, tier, made.puzzle, made.grade.score or 0.0)
