"""The web API's answers as values: a request's JSON in, `{"records": [...]}` out (no HTTP).

Each command reads `{"board": TEXT, ...options}` like the command line reads its arguments
and returns the records `solve -f json` and `check -f json` print (the same formatter, with
an in-memory output). Errors are `ApiError`s carrying the HTTP status the server sends.
The hint engine, grade and image import are used when their modules are installed; until
then their commands answer 501.
"""

from __future__ import annotations

import base64
import binascii
import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starbattle.board import Board, Cell
from starbattle.errors import StarBattleError
from starbattle.formats import WRITERS, Record, parse_board, write_board
from starbattle.formatters import JsonFormatter
from starbattle.results import Message, SolveRequest, check_answer, solve_all

DEFAULT_SECONDS = 10.0
"""The time limit of a solver call when the request names none."""
MAX_SECONDS = 60.0
"""The longest time limit a request may ask for."""
MAX_GENERATE_SIZE = 25
OPTIONAL = {
    "hint": "starbattle.logic",
    "explain": "starbattle.logic",
    "grade": "starbattle.grade",
    "import": "starbattle.formats.image",
}
"""Commands that need a module built separately, and that module."""


class ApiError(Exception):
    """A request the API refuses: its HTTP status and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)  # both in args: it is pickled back from a worker
        self.status = status
        self.message = message

    def __str__(self) -> str:
        return self.message


class Collected:
    """An in-memory stand-in for `Output`: keeps the JSON records a formatter prints."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def line(self, text: str) -> None:
        """Keep one printed record."""
        self.records.append(json.loads(text))

    def note(self, text: str) -> None:
        """Messages are taken from the items before they reach the formatter: none come here."""


def available(module: str) -> bool:
    """Whether an optional module is installed."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def features() -> dict[str, bool]:
    """Which optional commands this installation answers."""
    return {command: available(module) for command, module in OPTIONAL.items()}


def _option(payload: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    """An option of the request, of the given type (bool is not accepted as int)."""
    value = payload.get(key, default)
    if value is None or (isinstance(value, kind) and not (kind is int and type(value) is bool)):
        return value
    if kind is float and type(value) is int:
        return float(value)
    raise ApiError(400, f'"{key}" must be {"a number" if kind in (int, float) else kind.__name__}')


def _seconds(payload: dict[str, Any]) -> float:
    """The request's time limit, at most MAX_SECONDS."""
    seconds = _option(payload, "timeout", float, DEFAULT_SECONDS)
    if not 0 < seconds <= MAX_SECONDS:
        raise ApiError(400, f'"timeout" must be more than 0 and at most {MAX_SECONDS:g} seconds')
    return seconds


def _text(payload: dict[str, Any]) -> str:
    """The board text of a request."""
    text = payload.get("board")
    if not isinstance(text, str):
        raise ApiError(400, 'the request needs "board": the text of a board (any input format)')
    return text


def _board(payload: dict[str, Any]) -> Board:
    """The request's board, read like the command line reads a board argument."""
    return parse_board(
        _text(payload),
        stars=_option(payload, "stars", int),
        fmt=_option(payload, "from", str),
        givens=bool(payload.get("givens", False)),
    )


def _is_cells(value: Any, size: int) -> bool:
    """Whether a value is a list of [row, column] pairs on a board of this size."""
    return isinstance(value, list) and all(
        isinstance(p, list) and len(p) == 2 and all(type(x) is int and 1 <= x <= size for x in p)
        for p in value
    )


def _marks(payload: dict[str, Any], size: int) -> tuple[list[Cell], list[Cell]]:
    """The page's marks: "marks": {"stars": [[r, c], ...], "blanks": [[r, c], ...]}."""
    marks = payload.get("marks", {})
    if not isinstance(marks, dict):
        marks = {"stars": None}
    stars, blanks = marks.get("stars", []), marks.get("blanks", [])
    if not (_is_cells(stars, size) and _is_cells(blanks, size)):
        raise ApiError(
            400,
            f'"marks" must be {{"stars": [[row, column], ...], "blanks": [...]}}, '
            f"rows and columns from 1 to {size}",
        )
    return [(r, c) for r, c in stars], [(r, c) for r, c in blanks]


def marks_grid(size: int, stars: list[Cell], blanks: list[Cell]) -> str:
    """Marks as the answer grid `check --partial` reads: * star, x empty, . undecided."""
    rows = [["."] * size for _ in range(size)]
    for r, c in blanks:
        rows[r - 1][c - 1] = "x"
    for r, c in stars:
        rows[r - 1][c - 1] = "*"
    return "\n".join("".join(row) for row in rows) + "\n"


def solve(payload: dict[str, Any]) -> dict[str, Any]:
    """`solve -f json`: solutions, a second one when not unique, why none, fixed cells, count."""
    request = SolveRequest(
        stars=_option(payload, "stars", int),
        input_format=_option(payload, "from", str),
        givens=bool(payload.get("givens", False)),
        timeout=_seconds(payload),
        models=max(1, min(_option(payload, "models", int, 1), 100)),
        count_only=bool(payload.get("count", False)),
        fixed_only=bool(payload.get("fixed", False)),
        second="models" not in payload,  # as the command line: only when -n is not given
        threads=1,  # the server's worker processes share the cores already
    )
    records, messages = Collected(), []
    show = JsonFormatter(records)  # type: ignore[arg-type]  # Collected stands in for Output
    for item in solve_all(request, Record("board", _text(payload), None)):
        if isinstance(item, Message):
            if item.kind == "error":
                raise ApiError(400, item.text)
            messages.append(item.text)
        else:
            show.show(item)
    return {"records": records.records, "messages": messages}


def check(payload: dict[str, Any]) -> dict[str, Any]:
    """`check -f json`: an answer's text, or the page's marks as a partial answer."""
    board = _board(payload)
    answer = payload.get("answer")
    if answer is None:
        answer = marks_grid(board.size, *_marks(payload, board.size))
    elif not isinstance(answer, str):
        raise ApiError(400, '"answer" must be the text of an answer')
    result = check_answer(
        board,
        answer,
        name=None,
        partial=bool(payload.get("partial", "answer" not in payload)),
        against_solution=bool(payload.get("against_solution", False)),
    )
    records = Collected()
    JsonFormatter(records).show(result)  # type: ignore[arg-type]
    return {"records": records.records}


def board(payload: dict[str, Any]) -> dict[str, Any]:
    """The board as the page draws it: JSON board, region colours per cell, puzz.link URL."""
    return {"records": [board_record(_board(payload))]}


def board_record(read: Board) -> dict[str, Any]:
    """One board record: the JSON board, its size, cell colours and URL (None if it has none)."""
    from starbattle.formats.json_board import board_json
    from starbattle.pictures import region_colours

    colours = region_colours(read)
    try:
        url = str(write_board(read, "url")).strip()
    except StarBattleError:  # blocked cells and givens have no puzz.link URL
        url = None
    return {
        "type": "board",
        **board_json(read),
        "size": read.size,
        "colours": [[colours.get(label) for label in row] for row in read.regions],
        "url": url,
    }


def convert(payload: dict[str, Any]) -> dict[str, Any]:
    """`convert --to FORMAT`: the board's text (PNG as base64)."""
    target = _option(payload, "to", str)
    if target not in WRITERS:
        raise ApiError(400, f'"to" must be one of {", ".join(WRITERS)}')
    written = write_board(_board(payload), target)
    record: dict[str, Any] = {"type": "converted", "format": target}
    if isinstance(written, bytes):
        record["base64"] = base64.b64encode(written).decode("ascii")
    else:
        record["text"] = written
    return {"records": [record]}


def generate(payload: dict[str, Any]) -> dict[str, Any]:
    """`generate -f json [--tier T]`: one puzzle with exactly one solution, from a seed.

    With "tier", puzzles are made until one has that grade (at most "attempts", default
    50); the record's "note" says its grade and how many were made.
    """
    from starbattle.formatters import GeneratedWriter
    from starbattle.grade import TIERS, graded_puzzles

    size, stars = _option(payload, "size", int, 10), _option(payload, "stars", int, 2)
    seed = str(payload.get("seed", "0"))
    if not 1 <= size <= MAX_GENERATE_SIZE or stars < 1:
        raise ApiError(400, f'"size" must be 1 to {MAX_GENERATE_SIZE} and "stars" at least 1')
    tier = payload.get("tier") or None
    if tier is not None and tier not in TIERS:
        raise ApiError(400, f'"tier" must be one of {", ".join(TIERS)}, not {tier!r}')
    attempts = _option(payload, "attempts", int, 50)
    if not 1 <= attempts <= 1000:
        raise ApiError(400, '"attempts" must be 1 to 1000')
    writer = GeneratedWriter("json", None, 1, f"--size {size} --stars {stars}", seed)
    made = graded_puzzles(
        size, stars, 1, seed, tier=tier, attempts=attempts, timeout=_seconds(payload)
    )
    puzzle, note = next(made)
    record = {"type": "generated", **json.loads(writer.text(puzzle))}
    return {"records": [{**record, "note": note} if note else record]}


def _state(payload: dict[str, Any], size: int) -> Any:
    """The page's marks as the hint engine's state."""
    from starbattle.logic import State

    return State.of(*_marks(payload, size))


def hint(payload: dict[str, Any]) -> dict[str, Any]:
    """`hint -f json`: the next step from the page's marks (technique null when none applies)."""
    from starbattle.results import hint as next_hint

    read = _board(payload)
    records = Collected()
    JsonFormatter(records).show(next_hint(read, _state(payload, read.size)))  # type: ignore[arg-type]
    return {"records": records.records}


def explain(payload: dict[str, Any]) -> dict[str, Any]:
    """`explain -f json`: every step from the page's marks, then the summary."""
    from starbattle.results import explain_items

    read = _board(payload)
    records = Collected()
    show = JsonFormatter(records)  # type: ignore[arg-type]
    for item in explain_items(read, _state(payload, read.size)):
        show.show(item)
    return {"records": records.records}


def grade(payload: dict[str, Any]) -> dict[str, Any]:
    """`grade -f json`: the puzzle's difficulty."""
    from starbattle.grade import grade as grade_board

    return {"records": [grade_board(_board(payload)).record()]}


def import_image(payload: dict[str, Any]) -> dict[str, Any]:
    """A screenshot ("image": base64 of PNG or JPEG) read back as a board record."""
    try:
        data = base64.b64decode(str(payload.get("image", "")), validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, '"image" must be the base64 of a PNG or JPEG picture') from None
    screenshot = Record("screenshot", "", None, image=data)
    return {"records": [board_record(screenshot.board(stars=_option(payload, "stars", int)))]}


COMMANDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "solve": solve,
    "check": check,
    "board": board,
    "convert": convert,
    "generate": generate,
    "hint": hint,
    "explain": explain,
    "grade": grade,
    "import": import_image,
}


def answer(command: str, payload: Any) -> dict[str, Any]:
    """Answer one API command; raise ApiError with the status and message of a refusal."""
    if command not in COMMANDS:
        raise ApiError(404, f"no API command {command!r}: use one of {', '.join(COMMANDS)}")
    if command in OPTIONAL and not available(OPTIONAL[command]):
        raise ApiError(501, f"{command} is not available in this version")
    if not isinstance(payload, dict):
        raise ApiError(400, 'the request must be a JSON object like {"board": TEXT}')
    try:
        return COMMANDS[command](payload)
    except StarBattleError as error:
        raise ApiError(400, str(error)) from None


def instances(folder: Path) -> list[dict[str, str]]:
    """The shipped instances a page can open: name and text of each."""
    if not folder.is_dir():
        return []
    return [{"name": path.stem, "text": path.read_text()} for path in sorted(folder.glob("*.lp"))]
