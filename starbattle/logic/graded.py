"""Generating to a difficulty: puzzles are made from derived seeds until one has the grade asked."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from starbattle.errors import UsageError
from starbattle.logic.grade import CUTS, TIERS, TIMED_OUT, grade, refuse_unreachable
from starbattle.words import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from starbattle.model.steps import Grade
    from starbattle.model.values import Generated


class NoneAsAsked(UsageError):
    """Every generated puzzle had another difficulty than the one asked."""

    def __init__(self, asked: Asked) -> None:
        super().__init__(
            f"none of {asked.attempts} generated puzzles was {asked}: raise --attempts, widen "
            "the score range, or ask another tier"
        )


class NoneInTime(UsageError):
    """The time limit passed before a puzzle of the asked difficulty was made."""

    exit_code = 3  # a time limit before an answer

    def __init__(self, asked: Asked, timeout: float, tried: int) -> None:
        super().__init__(
            f"no {asked} puzzle within {timeout:g} s ({plural(tried, 'puzzle')} made): raise "
            "--timeout, widen the score range, or ask another tier"
        )


class Asked(NamedTuple):
    """The difficulty asked of generated puzzles: a tier, score bounds (None: any), attempts."""

    tier: str | None = None
    min_score: float | None = None
    max_score: float | None = None
    attempts: int = 200

    @property
    def graded(self) -> bool:
        """Whether a grade is asked at all (else puzzles are kept as made)."""
        return (self.tier, self.min_score, self.max_score) != (None, None, None)

    def admits(self, found: Grade) -> bool:
        """Whether a grade has the tier and lies within the scores asked."""
        score = found.score
        return (
            score is not None
            and (self.tier is None or found.tier == self.tier)
            and (self.min_score is None or score >= self.min_score)
            and (self.max_score is None or score <= self.max_score)
        )

    def __str__(self) -> str:
        """The difficulty in words, e.g. "hard and score <= 3"."""
        bounds = [
            f"{name} {value:g}"
            for name, value in (("score >=", self.min_score), ("score <=", self.max_score))
            if value is not None
        ]
        return " and ".join([*([self.tier] if self.tier else []), *bounds]) or "gradable"


class GradedPuzzle(NamedTuple):
    """A generated puzzle with the asked difficulty, its grade and how many puzzles were made."""

    puzzle: Generated
    grade: Grade
    tried: int


def generate_graded(
    size: int,
    stars: int,
    seed: int | str,
    asked: Asked,
    *,
    timeout: float | None = None,
    deadline: float | None = None,
    progress: Callable[[str], object] | None = None,
    **options: Any,
) -> GradedPuzzle:
    """Generate puzzles from seeds "SEED/tried/1", "SEED/tried/2", ... until one is as asked.

    `options` go to `starbattle.logic.generate.generate`. For the easiest tier (or a score below
    medium's) `keep_lines` is on unless given: rows whose two stars are two cells apart keep
    them as a region of three cells, because such small regions are what makes a puzzle easy
    (puzzles the generator just made unique are seldom easy otherwise). `timeout` bounds the
    whole search (or the perf_counter `deadline` of a longer run, `timeout` its length);
    `progress(line)` hears after each puzzle made how the search goes. Raises
    UsageError for an unknown tier or one that puzzles of this size never reach
    (REACHABLE), NoneAsAsked when `asked.attempts` puzzles were made and none was as asked,
    and NoneInTime when the time limit passes first.
    """
    from starbattle.limits import TimeLimitReached, deadline_after, time_left
    from starbattle.logic.generate import GenerateTimeout, generate

    if asked.tier is not None and asked.tier not in TIERS:
        raise UsageError(f"unknown tier {asked.tier!r}: choose one of {', '.join(TIERS)}")
    if asked.tier is not None:
        refuse_unreachable(size, stars, asked.tier)
    if asked.tier == TIERS[0] or (asked.max_score is not None and asked.max_score < CUTS[0]):
        options.setdefault("keep_lines", True)
    deadline = deadline_after(timeout) if deadline is None else deadline
    seen = Counter[str]()
    for tried in range(1, asked.attempts + 1):
        try:
            made = generate(size, stars, 1, f"{seed}/tried/{tried}", timeout=time_left(deadline),
                            **options)  # fmt: skip
            puzzle = next(made)
            graded = grade(puzzle.board, time_left(deadline))
        except (TimeLimitReached, GenerateTimeout):
            if timeout is None:
                raise
            raise NoneInTime(asked, timeout, tried - 1) from None
        if graded.reason == TIMED_OUT and timeout is not None:
            raise NoneInTime(asked, timeout, tried - 1)
        if asked.admits(graded):
            return GradedPuzzle(puzzle, graded, tried)
        seen[graded.tier or "ungraded"] += 1
        if progress is not None:
            tally = ", ".join(f"{n} {name}" for name, n in seen.most_common())
            progress(f"looking for a {asked} puzzle: {tried} made ({tally})")
    raise NoneAsAsked(asked)
