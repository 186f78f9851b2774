"""Words for people: counts with their nouns, and lists of units."""

from __future__ import annotations

from collections.abc import Sequence


def noun(count: int, word: str) -> str:
    """'star' for one, 'stars' for any other count (the one pluraliser)."""
    return word if count == 1 else f"{word}s"


def plural(count: int, word: str) -> str:
    """'1 star', '3 stars'."""
    return f"{count} {noun(count, word)}"


def owned(owner: str, count: int, word: str) -> str:
    """'its star', 'its 2 stars', 'their 3 stars': what a unit holds (one is not counted)."""
    return f"{owner} {word}" if count == 1 else f"{owner} {plural(count, word)}"


def joined(values: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or 'a, b or c'): the one listing of words."""
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} {last} {values[-1]}"


def listing(word: str, values: list[str]) -> str:
    """'region A', 'regions A and B', 'regions A, B and E'."""
    return f"{word} {values[0]}" if len(values) == 1 else f"{word}s {joined(values)}"


def numbered(word: str, numbers: Sequence[int]) -> str:
    """'row 3', 'rows 3-4', 'rows 1-4 and 7': numbered lines, each run of them a range."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    said = [f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    return f"{word}s {joined(said)}" if len(numbers) > 1 else f"{word} {said[0]}"
