"""ASP facts (.lp): a strict reader of instance facts (data, never code) and the writer."""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from starbattle.asp.facts import (
    BLOCKED,
    GIVEN_BLANK,
    GIVEN_STAR,
    INSTANCE_PREDICATES,
    REGION,
    SIZE,
    STARS,
    board_facts,
)
from starbattle.errors import FormatError
from starbattle.io.formats.picture import write as picture
from starbattle.limits import MAX_DIGITS, MAX_SIZE
from starbattle.model.board import Board, Cell

Term = int | str

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<block>%\*.*?\*%)
  | (?P<comment>%[^\n]*)
  | (?P<name>[a-z][A-Za-z0-9_']*)
  | (?P<integer>-?[0-9]+)
  | (?P<punct>[(),.])
    """,
    re.VERBOSE | re.DOTALL,
)

_FORBIDDEN = [
    (":-", "rules and constraints are not allowed in an instance, which holds facts only"),
    ("..", "ranges are not allowed in an instance: write one fact per cell"),
    ("%*", "a block comment '%*' is never closed with '*%'"),
    ("#", "directives (#const, #include, #script, #show, ...) are not allowed in an instance"),
    (";", "pooling with ';' is not allowed in an instance: write one fact per cell"),
    ("{", "choice rules are not allowed in an instance, which holds facts only"),
    (":", "conditions and rules are not allowed in an instance, which holds facts only"),
    ('"', "strings are not allowed in an instance: name regions by integers or lowercase words"),
]


class Fact(NamedTuple):
    """One parsed fact with the place where it starts."""

    predicate: str
    arguments: tuple[Term, ...]
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.predicate}({','.join(map(str, self.arguments))})"


class _Positions:
    """1-based line and column of character offsets, by bisecting the line starts."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [match.end() for match in re.finditer("\n", text)]

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def _unexpected(text: str, offset: int) -> str:
    """Say what is wrong with the text that starts at offset."""
    for start, message in _FORBIDDEN:
        if text.startswith(start, offset):
            return message
    char = text[offset]
    if char.isupper() or char == "_":
        return "variables are not allowed in an instance: write region names in lowercase"
    return f"unexpected {char!r}: an instance holds only facts such as region(1,2,a)."


def parse_facts(text: str, allowed: dict[str, int], *, name: str | None = None) -> list[Fact]:
    """Parse text that may hold only facts of the allowed predicates (name -> arity)."""
    facts: list[Fact] = []
    tokens: list[tuple[str, str, int]] = []
    position = _Positions(text)
    offset = 0
    while offset < len(text):
        match = _TOKEN.match(text, offset)
        if match is None or (match.lastgroup == "punct" and text.startswith("..", offset)):
            line, column = position(offset)
            raise FormatError(_unexpected(text, offset), file=name, line=line, column=column)
        if match.lastgroup not in ("space", "block", "comment"):
            tokens.append((match.lastgroup or "", match.group(), offset))
        offset = match.end()
    index = 0

    def fail(message: str, at: int) -> FormatError:
        line, column = position(at)
        return FormatError(message, file=name, line=line, column=column)

    def expect(kind: str, value: str | None, what: str, after: int) -> tuple[str, str, int]:
        nonlocal index
        if index >= len(tokens):
            raise fail(f"the file ends where {what} should be", after)
        token = tokens[index]
        if token[0] != kind or (value is not None and token[1] != value):
            raise fail(f"expected {what}, found {token[1]!r}", token[2])
        index += 1
        return token

    while index < len(tokens):
        _, predicate, start = expect("name", None, "a fact such as size(6).", 0)
        arguments: list[Term] = []
        if index < len(tokens) and tokens[index][1] == "(":
            index += 1
            while True:
                if index >= len(tokens):
                    raise fail("the file ends inside a fact", start)
                kind, value, at = tokens[index]
                if kind == "integer":
                    if len(value.lstrip("-")) > MAX_DIGITS:
                        raise fail(f"the integer {value[:12]}... is too large", at)
                    arguments.append(int(value))
                elif kind == "name":
                    arguments.append(value)
                else:
                    raise fail(f"expected an integer or a lowercase name, found {value!r}", at)
                index += 1
                separator = expect("punct", None, "',' or ')'", at)
                if separator[1] == ")":
                    break
                if separator[1] != ",":
                    raise fail(f"expected ',' or ')', found {separator[1]!r}", separator[2])
        expect("punct", ".", "'.' at the end of the fact", start)
        if allowed.get(predicate) != len(arguments):
            known = ", ".join(f"{p}/{a}" for p, a in allowed.items())
            import difflib  # only for an error's suggestion: ~2 ms to import

            guess = difflib.get_close_matches(predicate, list(allowed), n=1)
            hint = f" (did you mean {guess[0]}?)" if guess else ""
            raise fail(
                f"unknown predicate {predicate}/{len(arguments)}{hint}: "
                f"allowed here are only {known}",
                start,
            )
        line, column = position(start)
        facts.append(Fact(predicate, tuple(arguments), line, column))
    return facts


def looks_like_facts(text: str) -> bool:
    """Whether text starts like an ASP program or facts rather than a picture."""
    return bool(
        re.match(r"(%|#(const|include|script|show|defined)\b|[a-z]\w*\s*\()", text)
        and re.search(r"\)\s*\.", text)
    ) or text.startswith("%")


def _integer(fact: Fact, position: int, low: int, high: int, what: str, name: str | None) -> int:
    """Argument `position` of a fact as an integer within [low, high], else a located error."""
    value = fact.arguments[position]
    if not isinstance(value, int) or not low <= value <= high:
        raise FormatError(
            f"{fact}: {what} must be an integer from {low} to {high}, not {value}",
            file=name,
            line=fact.line,
            column=fact.column,
        )
    return value


def read(text: str, *, name: str | None = None, stars: int | None = None) -> Board:
    """Read an instance of ASP facts into a Board."""
    facts = parse_facts(text, INSTANCE_PREDICATES, name=name)
    seen: dict[tuple[str, tuple[Term, ...]], Fact] = {}
    by_predicate: dict[str, list[Fact]] = {p: [] for p in INSTANCE_PREDICATES}
    for fact in facts:
        key = (fact.predicate, fact.arguments)
        if key in seen:
            first = seen[key]
            raise FormatError(
                f"duplicate fact {fact} (first at line {first.line})",
                file=name,
                line=fact.line,
                column=fact.column,
            )
        seen[key] = fact
        by_predicate[fact.predicate].append(fact)

    def single(predicate: str, low: int, high: int, what: str) -> int | None:
        found = by_predicate[predicate]
        if len(found) > 1:
            raise FormatError(
                f"{found[1]} contradicts {found[0]} at line {found[0].line}: give one {what}",
                file=name,
                line=found[1].line,
                column=found[1].column,
            )
        return _integer(found[0], 0, low, high, what, name) if found else None

    size = single(SIZE, 1, MAX_SIZE, "size")
    if size is None:
        raise FormatError("no size(N) fact: add one, e.g. size(10).", file=name)
    given = single(STARS, 1, MAX_SIZE, "number of stars")
    if stars is None and given is None:
        raise FormatError("no stars(S) fact: add one, e.g. stars(2), or pass --stars S", file=name)
    owner: dict[Cell, Fact] = {}
    regions: list[list[str | None]] = [[None] * size for _ in range(size)]
    for fact in by_predicate[REGION] + by_predicate[BLOCKED]:
        cell = (
            _integer(fact, 0, 1, size, "the row", name),
            _integer(fact, 1, 1, size, "the column", name),
        )
        if cell in owner:
            raise FormatError(
                f"{fact} contradicts {owner[cell]} at line {owner[cell].line}: "
                "a cell is in exactly one region or blocked",
                file=name,
                line=fact.line,
                column=fact.column,
            )
        owner[cell] = fact
        if fact.predicate == REGION:
            regions[cell[0] - 1][cell[1] - 1] = str(fact.arguments[2])
    givens: dict[str, set[Cell]] = {GIVEN_STAR: set(), GIVEN_BLANK: set()}
    for predicate, cells in givens.items():
        for fact in by_predicate[predicate]:
            cells.add(
                (
                    _integer(fact, 0, 1, size, "the row", name),
                    _integer(fact, 1, 1, size, "the column", name),
                )
            )
    missing = [
        (r, c) for r in range(1, size + 1) for c in range(1, size + 1) if (r, c) not in owner
    ]
    if missing:
        r, c = missing[0]
        raise FormatError(
            f"cell ({r},{c}) is in no region and not blocked ({len(missing)} such cells): "
            f"add region({r},{c},K). or blocked({r},{c}).",
            file=name,
        )
    return Board.from_rows(
        regions,
        stars if stars is not None else given or 0,
        given_stars=givens[GIVEN_STAR],
        given_blanks=givens[GIVEN_BLANK],
        name=name,
    )


def write(board: Board) -> str:
    """Write a board as ASP facts, headed by a comment with its picture."""
    header = [f"% Star Battle {board.size}x{board.size}, {board.stars} star(s)"]
    header += [f"%   {line}" for line in picture(board).splitlines()]
    return "\n".join(header) + "\n" + board_facts(board)
