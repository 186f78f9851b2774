"""Words for people: counts with their nouns, and lists of units."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """'1 star', '3 stars' (the one pluraliser)."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def listing(word: str, values: list[str]) -> str:
    """'row 3', 'rows 3 and 4', 'rows 2, 3 and 5'."""
    if len(values) == 1:
        return f"{word} {values[0]}"
    return f"{word}s {', '.join(values[:-1])} and {values[-1]}"
