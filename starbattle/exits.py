"""Exit codes and verdicts: what the end of a command, or of one puzzle's run, means."""

from __future__ import annotations

from enum import Enum, IntEnum


class Exit(IntEnum):
    """The command line's exit codes (README, "Exit codes")."""

    FOUND = 0
    """A solution was found (with --unique: exactly one); a valid answer; a step."""
    NONE = 1
    """No solution; with --unique: not exactly one; an invalid answer; no step."""
    ERROR = 2
    """Usage, input or encoding error, or a board that cannot be solved as given."""
    TIMEOUT = 3
    """The time limit came before an answer."""
    INTERNAL = 70
    """A defect of ours."""
    INTERRUPTED = 130
    """Ctrl-C (SIGINT); 128 + the signal, as shells count."""
    BROKEN_PIPE = 141
    """The reader of the output went away."""
    TERMINATED = 143
    """SIGTERM."""


SEVERITY = (Exit.FOUND, Exit.NONE, Exit.TIMEOUT, Exit.ERROR)
"""Exit codes from best to worst, for a collection's overall code."""


def worst(codes: list[int]) -> Exit:
    """The worst of some puzzles' exit codes (FOUND for none)."""
    return max((Exit(code) for code in codes), key=SEVERITY.index, default=Exit.FOUND)


class Verdict(Enum):
    """What one puzzle's run settled, with its key in JSON and its words for people."""

    UNIQUE = ("unique", "unique")
    NOT_UNIQUE = ("not_unique", "not unique")
    SOLVED = ("solved", "solved")
    """A solution was found and uniqueness was not asked (--fixed)."""
    NO_SOLUTION = ("no_solution", "no solution")
    UNDECIDED = ("undecided", "undecided")
    """A time limit (or -n) stopped the search before it could tell."""
    ERROR = ("error", "error")

    def __init__(self, key: str, words: str) -> None:
        self.key = key
        self.words = words
