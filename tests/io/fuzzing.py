"""Mutations of valid inputs for fuzzing the readers (used by tests and tools/fuzz_readers.py)."""

from __future__ import annotations

import random

ODD = [
    "\x00",
    "\ufeff",
    "é",
    "★",
    "\u0301",
    "\U0001d538",
    "²",
    "\r",
    "\t",
    " ",
    "/",
    "#",
    "%",
    ".",
    "..",
    ":-",
    "(",
    ")",
    ",",
    "{",
    "[",
    '"',
    "-",
    "9" * 30,
    "9" * 5000,
    "-1",
    "0",
    "99999",
    "A",
    "a",
    "\n\n",
]


def mutate(text: str, rng: random.Random, rounds: int = 1) -> str:
    """Apply `rounds` random edits to a text.

    Each edit drops, duplicates or swaps lines or characters, truncates, or inserts odd
    characters and huge numbers.
    """
    for _ in range(rounds):
        lines = text.split("\n")
        choice = rng.randrange(9)
        if choice == 0 and lines:
            del lines[rng.randrange(len(lines))]
        elif choice == 1 and lines:
            index = rng.randrange(len(lines))
            lines.insert(index, lines[index])
        elif choice == 2 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        if choice <= 2:
            text = "\n".join(lines)
            continue
        position = rng.randrange(len(text) + 1)
        if choice == 3 and text:
            text = text[:position] + text[position + 1 :]
        elif choice == 4 and text:
            text = (
                text[:position]
                + text[position - 1 : position] * rng.randint(2, 50)
                + text[position:]
            )
        elif choice == 5:
            text = text[:position]
        elif choice == 6 and len(text) > 1:
            other = rng.randrange(len(text))
            chars = list(text)
            chars[min(position, len(text) - 1)], chars[other] = (
                chars[other],
                chars[min(position, len(text) - 1)],
            )
            text = "".join(chars)
        else:
            text = text[:position] + rng.choice(ODD) + text[position:]
    return text
