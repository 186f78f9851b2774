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
    """'row 3', 'rows 3 and 4', 'rows 2, 3 and 5'."""
    return f"{word} {values[0]}" if len(values) == 1 else f"{word}s {joined(values)}"
