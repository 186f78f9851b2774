"""What a search means for people and programs: verdicts, summary lines, JSON Lines records."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starbattle.board import Solution

if TYPE_CHECKING:
    from starbattle.solver import Search


EXIT_ERROR = 2
"""The exit code of unreadable input, a board that cannot be solved as given, or bad usage."""


def unique_verdict(search: Search) -> bool | None:
    """True/False when the search settles uniqueness, None when it stopped too early."""
    if search.found >= 2:
        return False
    if search.exhausted:
        return search.found == 1
    return None


def solution_line(index: int, solution: Solution, identifier: str | None = None) -> str:
    """One JSON Lines record for a solution (1-based coordinates), as json.dumps writes it.

    Formatted directly: enumerations print tens of thousands of these, and json.dumps of the
    equivalent dict costs a fifth of the time per solution. Grids hold only '*' and '.'.
    """
    stars = ", ".join(f"[{r}, {c}]" for r, c in solution.stars)
    grid = ", ".join(f'"{row}"' for row in solution.grid())
    head = "" if identifier is None else f'"id": {json.dumps(identifier)}, '
    return f'{{{head}"type": "solution", "index": {index}, "stars": [{stars}], "grid": [{grid}]}}'


def summary_record(search: Search, shown: int) -> dict[str, Any]:
    """The closing JSON Lines record of a search that printed `shown` solutions."""
    return {
        "type": "summary",
        "solutions": shown,
        "complete": search.exhausted,
        "unique": unique_verdict(search),
        "seconds": round(search.seconds, 6),
    }


def _plural(count: int, word: str = "solution") -> str:
    """'1 solution', '3 solutions'."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def summary_text(search: Search, shown: int, timeout: float | None = None) -> str:
    """One line saying how many solutions there are and whether the board is unique."""
    seconds = f"({search.seconds:.3f} s)"
    found = search.found
    if search.exhausted:
        if found == 0:
            return f"no solution {seconds}"
        if found == 1:
            return f"1 solution, unique {seconds}"
        return f"{_plural(found)} in all, not unique {seconds}"
    if search.timed_out:
        return (
            f"time limit of {timeout:g} s reached after {_plural(found)}: "
            f"the search is incomplete {seconds}"
        )
    if found > shown:
        if shown == 1:
            return (
                f"not unique: 2 or more solutions {seconds}; "
                "-n 0 lists them all, --count counts them"
            )
        return f"{_plural(shown)} shown, not unique: there are more {seconds}"
    return f"{_plural(found)} found; the search stopped there {seconds}"


def count_text(search: Search, timeout: float | None = None) -> str:
    """One line for --count."""
    seconds = f"({search.seconds:.3f} s)"
    if search.exhausted:
        if search.found == 0:
            return f"no solution {seconds}"
        verdict = "unique" if search.found == 1 else "not unique"
        return f"{_plural(search.found)}, {verdict} {seconds}"
    return (
        f"at least {_plural(search.found)}: time limit of {timeout:g} s reached, "
        f"the count is incomplete {seconds}"
    )


def exit_code(search: Search, require_unique: bool = False) -> int:
    """0 found (and unique when required), 1 none (or not unique), 3 timed out undecided."""
    if search.found == 0:
        return 3 if search.timed_out else 1
    if require_unique:
        verdict = unique_verdict(search)
        return 3 if verdict is None else 0 if verdict else 1
    return 0
