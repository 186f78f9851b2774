"""JSON boards: {"stars": S, "regions": [...]} with rows as strings or lists, or a bare matrix.

Optional keys: "blocked", "given_stars", "given_blanks" (lists of 1-based [row, column]).
A region label of null also marks a blocked cell. Other keys (ids, sources, solutions) are
ignored, except near misses of the known ones, which are refused as likely typos.
"""

from __future__ import annotations

from typing import Any

from starbattle.errors import FormatError
from starbattle.model.board import Board, Cell
from starbattle.model.units import region_names

KNOWN_KEYS = ("stars", "regions", "blocked", "given_stars", "given_blanks")


def dumps(value: object) -> str:
    """JSON text of a value (json loads only once JSON is read or written: a faster start)."""
    import json

    return json.dumps(value)


def load_json(text: str, name: str | None) -> Any:
    """Parse JSON; every failure (syntax, nesting too deep) is a located FormatError."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        documents = [line for line in text.splitlines() if line.strip()]
        if len(documents) > 1 and error.msg == "Extra data":
            raise FormatError(
                f"the file holds {len(documents)} JSON documents (JSON Lines); pass one at a time",
                file=name,
            ) from None
        raise FormatError(
            f"invalid JSON: {error.msg}", file=name, line=error.lineno, column=error.colno
        ) from None
    except RecursionError:
        raise FormatError("the JSON is nested too deeply to be a board", file=name) from None
    except ValueError as error:  # e.g. a number of thousands of digits
        raise FormatError(f"unreadable JSON: {str(error)[:60]}", file=name) from None


def _cells(value: Any, key: str, name: str | None) -> set[Cell]:
    """A list of [row, column] pairs."""
    if not isinstance(value, list) or not all(
        isinstance(pair, list)
        and len(pair) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
        for pair in value
    ):
        raise FormatError(f'"{key}" must be a list of [row, column] pairs of integers', file=name)
    return {(pair[0], pair[1]) for pair in value}


def _row(value: Any, index: int, name: str | None) -> list[str | None]:
    """One row: a string of one-character labels, or a list of labels (null = blocked)."""
    if isinstance(value, str):
        return list(value.replace(" ", ""))
    if isinstance(value, list):
        row: list[str | None] = []
        for label in value:
            if label is None:
                row.append(None)
            elif isinstance(label, bool) or not isinstance(label, int | str) or label == "":
                raise FormatError(
                    f"row {index} holds {dumps(label)}: a region label is a non-empty "
                    "string or an integer (null for a blocked cell)",
                    file=name,
                )
            else:
                row.append(str(label))
        return row
    raise FormatError(f"row {index} must be a string or a list of labels", file=name)


def read(text: str, *, name: str | None = None, stars: int | None = None) -> Board:
    """Read a JSON board."""
    document = load_json(text, name)
    if isinstance(document, list):
        document = {"regions": document}
    if not isinstance(document, dict):
        raise FormatError(
            'expected a JSON object {"stars": S, "regions": [...]} or a list of rows', file=name
        )
    for key in [key for key in document if key not in KNOWN_KEYS]:
        import difflib  # only for an unknown key's suggestion: ~2 ms to import

        near = difflib.get_close_matches(key, KNOWN_KEYS, n=1, cutoff=0.75)
        if near:
            raise FormatError(f'unknown key "{key}": did you mean "{near[0]}"?', file=name)
    rows = document.get("regions")
    if not isinstance(rows, list) or not rows:
        raise FormatError('"regions" must be a non-empty list of rows', file=name)
    regions = [_row(row, index, name) for index, row in enumerate(rows, start=1)]
    count = stars if stars is not None else document.get("stars")
    if count is None:
        raise FormatError('no "stars" key: add "stars": S or pass --stars S', file=name)
    if isinstance(count, bool) or not isinstance(count, int):
        raise FormatError(f'"stars" must be a whole number, not {dumps(count)}', file=name)
    for r, c in _cells(document.get("blocked", []), "blocked", name):
        if 1 <= r <= len(regions) and 1 <= c <= len(regions[r - 1]):
            regions[r - 1][c - 1] = None
        else:
            raise FormatError(f"blocked cell [{r}, {c}] lies outside the board", file=name)
    return Board.from_rows(
        regions,
        count,
        given_stars=_cells(document.get("given_stars", []), "given_stars", name),
        given_blanks=_cells(document.get("given_blanks", []), "given_blanks", name),
        name=name,
    )


def board_json(board: Board) -> dict[str, Any]:
    """The board as a JSON-ready dict (rows as strings when every label is one character)."""
    shown = region_names(board)
    single = all(len(label) == 1 for label in shown.values())
    rows: list[Any] = [
        "".join("#" if label is None else shown[label] for label in row)
        if single
        else [None if label is None else shown[label] for label in row]
        for row in board.regions
    ]
    document: dict[str, Any] = {"stars": board.stars, "regions": rows}
    for key, cells in (
        ("blocked", board.blocked),
        ("given_stars", board.given_stars),
        ("given_blanks", board.given_blanks),
    ):
        if cells:
            document[key] = [list(cell) for cell in sorted(cells)]
    return document


def write(board: Board) -> str:
    """Write a board as one line of JSON."""
    return dumps(board_json(board)) + "\n"
