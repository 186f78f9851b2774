"""What a player may ask to be made: the boards the generator makes, and the daily puzzles.

The page offers only what can be made: the sizes and star counts the generator was measured
to make in time (MAKEABLE), and with a tier only where generated puzzles of that size were
measured to reach it (`grade.REACHABLE`). A daily puzzle is made on this machine from the
date and the tier alone, so everyone gets the same puzzle that day.
"""

from __future__ import annotations

import datetime

from starbattle.errors import UsageError
from starbattle.logic.grade import REACHABLE
from starbattle.logic.graded import Asked, generate_graded
from starbattle.model.steps import TIERS
from starbattle.model.values import Daily, Makeable

MAKEABLE = {
    5: (1,), 6: (1,), 7: (1,), 8: (1, 2), 9: (1, 2), 10: (1, 2), 11: (1, 2), 12: (1, 2, 3),
    13: (1, 2, 3), 14: (1,), 15: (3,), 16: (4,), 17: (4,), 18: (4,), 19: (1,), 20: (5,),
    21: (5,), 24: (6,), 25: (6,),
}  # fmt: skip
"""Per size, the star counts of which the generator made a puzzle within 20 s, at most
ceil(N/2) // 2 a line (`python benchmarks/makeable.py`: benchmarks/RESULTS.md, makeable);
fewer stars on a large board make no unique puzzle in time. The sizes and star counts of
REACHABLE are offered too (tier_reach.py made 40 of each)."""
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
    boards = {(size, stars) for size, counts in MAKEABLE.items() for stars in counts}
    return [Makeable(*board, REACHABLE.get(board, ())) for board in sorted(boards | set(REACHABLE))]


def daily(day: str, tier: str, timeout: float | None = None) -> Daily:
    """The puzzle of day (YYYY-MM-DD) and tier: the same on every machine, from those alone.

    Raises UsageError for a day that is no date or an unknown tier, and the errors of
    `graded.generate_graded` (a time limit).
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
    made = generate_graded(size, stars, f"daily/{date}/{tier}", Asked(tier), timeout=timeout)
    return Daily(date, tier, made.puzzle, made.grade.score or 0.0)
