"""Answers to check: a grid of `*` and `.`, `star(R,C).` facts, JSON, or a pzprv3 file."""

from __future__ import annotations

from typing import Any

from starbattle.asp.facts import STAR
from starbattle.errors import FormatError
from starbattle.io.formats import pzprv3
from starbattle.io.formats.asp import looks_like_facts, parse_facts
from starbattle.io.formats.json_board import load_json
from starbattle.model.board import Cell
from starbattle.words import plural

STAR_MARKS = frozenset("*★#oO1")
BLANK_MARKS = frozenset("xX+-_0")
UNKNOWN_MARKS = frozenset(".·?")
EMPTY_MARKS = BLANK_MARKS | UNKNOWN_MARKS


def _grid(rows: list[str], size: int, name: str | None, first_line: int = 1) -> list[Cell]:
    """Stars of a grid of marks, one row per line."""
    if len(rows) != size:
        raise FormatError(
            f"the answer has {plural(len(rows), 'row')} but the board has {size}", file=name
        )
    stars: list[Cell] = []
    for r, row in enumerate(rows, start=1):
        marks = row.replace(" ", "")
        if len(marks) != size:
            raise FormatError(
                f"answer row {r} has {plural(len(marks), 'cell')}, expected {size}",
                file=name,
                line=first_line + r - 1,
                column=1,
            )
        for c, mark in enumerate(marks, start=1):
            if mark in STAR_MARKS:
                stars.append((r, c))
            elif mark not in EMPTY_MARKS:
                raise FormatError(
                    f"answer row {r} has {mark!r}: use * for a star and . for an empty cell",
                    file=name,
                    line=first_line + r - 1,
                    column=c,
                )
    return stars


def _pairs(value: Any, name: str | None) -> list[Cell]:
    """A JSON list of [row, column] pairs."""
    if isinstance(value, list) and all(
        isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p) for p in value
    ):
        return [(p[0], p[1]) for p in value]
    raise FormatError('"stars" must be a list of [row, column] pairs', file=name)


def _json(text: str, size: int, name: str | None) -> list[Cell]:
    """Stars from JSON: [[r,c],...], a grid of strings, or an object with "stars" or "grid".

    A JSON Lines file written by `solve -f json` gives its first solution.
    """
    documents = []
    for line in text.splitlines() if text.lstrip().startswith("{") else []:
        if line.strip():
            try:
                documents.append(load_json(line, name))
            except FormatError:
                documents = []
                break
    if not documents:
        documents = [load_json(text, name)]
    document = next(
        (
            d
            for d in documents
            if isinstance(d, dict) and "stars" in d and isinstance(d["stars"], list)
        ),
        documents[0],
    )
    if isinstance(document, dict):
        if isinstance(document.get("stars"), list):
            return _pairs(document["stars"], name)
        document = document.get("grid", document.get("solution"))
    if isinstance(document, list) and all(isinstance(row, str) for row in document):
        return _grid(document, size, name)
    return _pairs(document, name)


def read_marks(
    text: str, size: int, *, name: str | None = None, partial: bool = False
) -> tuple[list[Cell], list[Cell] | None]:
    """The stars of an answer and, when it is partial, its cells marked empty (else None).

    A grid (or pzprv3 answer block) is partial when it marks some cells empty (`x`, `+`,
    `-`, `_`, `0`) and leaves others undecided (`.`, `?`); a grid of only stars and `.` is a
    complete answer, unless `partial` says its `.` cells are undecided.
    """
    stripped = text.strip()
    stars = read_answer(text, size, name=name)
    if stripped[:1] in "[{" or looks_like_facts(stripped):
        return stars, [] if partial else None
    if pzprv3.looks_like_pzprv3(stripped):
        marks = pzprv3.read_marks(stripped, name)
        blanks, unknown = marks[pzprv3.MARK_BLANK], marks[pzprv3.MARK_UNKNOWN]
    else:
        grid = [line.replace(" ", "") for line in text.splitlines() if line.strip()]
        cells = [((r, c), mark) for r, row in enumerate(grid, 1) for c, mark in enumerate(row, 1)]
        blanks = [cell for cell, mark in cells if mark in BLANK_MARKS]
        unknown = [cell for cell, mark in cells if mark in UNKNOWN_MARKS]
    return (stars, sorted(blanks)) if partial or (blanks and unknown) else (stars, None)


def is_grid(text: str) -> bool:
    """Whether an answer is a grid of marks (not JSON, star(R,C) facts or a pzprv3 file)."""
    stripped = text.strip()
    return not (
        stripped[:1] in "[{" or looks_like_facts(stripped) or pzprv3.looks_like_pzprv3(stripped)
    )


def read_answer(text: str, size: int, *, name: str | None = None) -> list[Cell]:
    """The stars of an answer to a board of the given size."""
    stripped = text.strip()
    if not stripped:
        raise FormatError("the answer is empty", file=name)
    if stripped[0] in "[{":
        return _json(stripped, size, name)
    if pzprv3.looks_like_pzprv3(stripped):
        return pzprv3.read_answer_stars(stripped, name)
    if looks_like_facts(stripped):
        facts = parse_facts(text, {STAR: 2}, name=name)
        cells = [fact.arguments for fact in facts]
        if not all(type(r) is int and type(c) is int for r, c in cells):
            raise FormatError("star(R,C) takes integer coordinates", file=name)
        return [(int(r), int(c)) for r, c in cells]
    lines = text.splitlines()
    first = next(index for index, line in enumerate(lines, start=1) if line.strip())
    return _grid([line for line in lines if line.strip()], size, name, first)
