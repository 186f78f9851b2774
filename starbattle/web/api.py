"""The web API's answers as values: a request's JSON in, `{"records": [...]}` out (no HTTP).

Each command reads `{"board": TEXT, ...options}` like the command line reads its arguments
and returns the records `solve -f json` and `check -f json` print (the same formatter, with
an in-memory output). Requests are checked strictly before any work: JSON without NaN,
huge integers or deep nesting, only the fields a command takes (a misspelt one gets a "did
you mean"), each of its type. Errors are `ApiError`s carrying the HTTP status the server
sends, their messages naming API fields where the library's name command-line options.
The hint engine, grade and image import are used when their modules are installed; until
then their commands answer 501.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import importlib.util
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from starbattle.errors import StarBattleError
from starbattle.exits import Exit
from starbattle.io.inputs import WRITERS, ImageOptions, Record, parse_board, write_board
from starbattle.io.records import board_record, converted_record, generated_record, record
from starbattle.model.board import Board, Cell
from starbattle.model.steps import State
from starbattle.model.values import Message
from starbattle.run.service import SolveRequest, check_answer, solve_all

DEFAULT_SECONDS = 10.0
"""The time limit of a request that names none."""
MAX_SECONDS = 60.0
"""The longest time limit a request may ask for."""
MAX_GENERATE_SIZE = 25
MIN_EDIT_SIZE = 5
"""The sizes the page's edit mode starts a blank board of: MIN_EDIT_SIZE to MAX_GENERATE_SIZE."""
MAX_MODELS = 100
"""The most solutions one request may ask for."""
OPTIONAL = {"import": ("PIL", "numpy", "cv2")}
"""Commands that need an extra installed (`pip install '.[image]'`), and its libraries."""
KINDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "text": ("a string", lambda value: isinstance(value, str)),
    "integer": ("an integer", lambda value: type(value) is int),
    "number": ("a number", lambda value: type(value) in (int, float)),
    "boolean": ("true or false", lambda value: type(value) is bool),
    "seed": ("a string or an integer", lambda value: isinstance(value, str) or type(value) is int),
    "marks": (
        '{"stars": [[row, column], ...], "blanks": [[row, column], ...]}',
        lambda value: isinstance(value, dict),
    ),
}
"""Each kind of field: how a message names it, and the test of a value."""
FIELDS = {
    "board": "text",
    "from": "text",
    "stars": "integer",
    "givens": "boolean",
    "timeout": "number",
    "models": "integer",
    "count": "boolean",
    "fixed": "boolean",
    "marks": "marks",
    "answer": "text",
    "partial": "boolean",
    "against_solution": "boolean",
    "to": "text",
    "size": "integer",
    "seed": "seed",
    "tier": "text",
    "attempts": "integer",
    "image": "text",
    "date": "text",
    "max_moves": "integer",
    "most": "integer",
    "split": "boolean",
    "grade": "boolean",
}
"""Every field of a request and its kind; null is the same as leaving a field out."""
BOARD_FIELDS = ("board", "from", "stars", "givens", "timeout")
COMMAND_FIELDS = {
    "solve": (*BOARD_FIELDS, "models", "count", "fixed"),
    "check": (*BOARD_FIELDS, "marks", "answer", "partial", "against_solution"),
    "board": BOARD_FIELDS,
    "convert": (*BOARD_FIELDS, "to"),
    "generate": ("size", "stars", "seed", "tier", "attempts", "timeout"),
    "hint": (*BOARD_FIELDS, "marks"),
    "explain": (*BOARD_FIELDS, "marks"),
    "grade": BOARD_FIELDS,
    "import": ("image", "stars", "size", "timeout"),
    "daily": ("date", "tier", "timeout"),
    "verdict": (*BOARD_FIELDS, "fixed", "grade"),
    "suggest": (*BOARD_FIELDS, "max_moves", "tier", "most", "split"),
}
"""The fields each command takes."""
CLI_ONLY = (
    ("check it with --debug-image FILE.png, or ", ""),
    (", lower --min-region,", ","),
    ("lower --min-region or ", ""),
    (", widen the score range,", ","),
)
"""Advice in library messages about command-line options the API has no field for."""
CLI_FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z-]*|-[sn])(?: ([A-Z])\b)?(?![\w-])")
"""A command-line option in a message, with its value's placeholder: `--stars S`."""
FLAG_FIELDS = {"-s": "stars", "-n": "models", "--models": "models"}
"""Short and renamed options; any other `--NAME` is the field NAME (dashes as underscores)."""


class ApiError(Exception):
    """A request the API refuses: its HTTP status and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)  # both in args: it is pickled back from a worker
        self.status = status
        self.message = message

    def __str__(self) -> str:
        return self.message


def available(modules: tuple[str, ...]) -> bool:
    """Whether every library of an extra is installed."""
    return all(importlib.util.find_spec(module) is not None for module in modules)


def features() -> dict[str, bool]:
    """Which optional commands this installation answers."""
    return {command: available(module) for command, module in OPTIONAL.items()}


def _closest(name: str, names: Any) -> str:
    """A " (did you mean ...?)" naming the known name closest to a misspelt one, else ""."""
    close = difflib.get_close_matches(name, list(names), n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""


def known(command: str) -> None:
    """Refuse an API command that does not exist (404) or is not installed (501)."""
    if command not in COMMANDS:
        raise ApiError(
            404,
            f"no API command {command!r}{_closest(command, COMMANDS)}: "
            f"use one of {', '.join(COMMANDS)}",
        )
    if command in OPTIONAL and not available(OPTIONAL[command]):
        raise ApiError(501, f"{command} is not available in this version")


def checked(command: str, payload: Any) -> dict[str, Any]:
    """The request of a command, every field known to it and of its kind; else ApiError."""
    known(command)
    if not isinstance(payload, dict):
        raise ApiError(400, 'the request must be a JSON object like {"board": TEXT}')
    allowed = COMMAND_FIELDS[command]
    for key, value in payload.items():
        if key not in allowed:
            raise ApiError(
                400,
                f"unknown field {json.dumps(key)} for {command}{_closest(key, allowed)}: "
                f"{command} takes {', '.join(allowed)}",
            )
        wording, fits = KINDS[FIELDS[key]]
        if value is not None and not fits(value):
            raise ApiError(400, f'"{key}" must be {wording}, not {_shown(value)}')
    return payload


def _shown(value: Any) -> str:
    """A value as a message quotes it: its JSON, cut short."""
    text = json.dumps(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _get(payload: dict[str, Any], key: str, default: Any = None) -> Any:
    """A field of a checked request, or the default when it is absent or null."""
    value = payload.get(key)
    return default if value is None else value


def seconds(payload: dict[str, Any]) -> float:
    """The request's time limit, at most MAX_SECONDS."""
    limit = float(_get(payload, "timeout", DEFAULT_SECONDS))
    if not 0 < limit <= MAX_SECONDS:
        raise ApiError(400, f'"timeout" must be more than 0 and at most {MAX_SECONDS:g} seconds')
    return limit


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
        stars=_get(payload, "stars"),
        fmt=_get(payload, "from"),
        givens=_get(payload, "givens", False),
    )


def _is_cells(value: Any, size: int) -> bool:
    """Whether a value is a list of [row, column] pairs on a board of this size."""
    return isinstance(value, list) and all(
        isinstance(p, list) and len(p) == 2 and all(type(x) is int and 1 <= x <= size for x in p)
        for p in value
    )


def _marks(payload: dict[str, Any], size: int) -> tuple[list[Cell], list[Cell]]:
    """The page's marks: "marks": {"stars": [[r, c], ...], "blanks": [[r, c], ...]}."""
    marks = _get(payload, "marks", {})
    for key in marks:
        if key not in ("stars", "blanks"):
            raise ApiError(
                400,
                f'unknown field {json.dumps(key)} in "marks"{_closest(key, ("stars", "blanks"))}'
                ': "marks" takes stars, blanks',
            )
    stars, blanks = _get(marks, "stars", []), _get(marks, "blanks", [])
    if not (_is_cells(stars, size) and _is_cells(blanks, size)):
        raise ApiError(
            400, f'"marks" must be {KINDS["marks"][0]}, rows and columns from 1 to {size}'
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
    models = _get(payload, "models", 1)
    if not 1 <= models <= MAX_MODELS:
        raise ApiError(400, f'"models" must be 1 to {MAX_MODELS}')
    request = SolveRequest(
        stars=_get(payload, "stars"),
        input_format=_get(payload, "from"),
        givens=_get(payload, "givens", False),
        timeout=seconds(payload),
        models=models,
        count_only=_get(payload, "count", False),
        fixed_only=_get(payload, "fixed", False),
        second=payload.get("models") is None,  # as the command line: only without -n
        threads=1,  # the server's worker processes share the cores already
    )
    items = solve_all(request, Record("board", _text(payload), None))
    for item in items:
        if isinstance(item, Message) and item.kind == "error":
            raise ApiError(400, api_wording(item.text))
    return api_records(items)


def check(payload: dict[str, Any]) -> dict[str, Any]:
    """`check -f json`: an answer's text, or the page's marks as a partial answer."""
    board = _board(payload)
    answer = _get(payload, "answer")
    result = check_answer(
        board,
        marks_grid(board.size, *_marks(payload, board.size)) if answer is None else answer,
        name=None,
        partial=_get(payload, "partial", answer is None),
        against_solution=_get(payload, "against_solution", False),
        timeout=seconds(payload),
    )
    return api_records([result])


def board(payload: dict[str, Any]) -> dict[str, Any]:
    """The board as the page draws it: JSON board, region colours per cell, puzz.link URL."""
    return {"records": [board_record(_board(payload))]}


def convert(payload: dict[str, Any]) -> dict[str, Any]:
    """`convert --to FORMAT`: the board's text (PNG as base64)."""
    target = _get(payload, "to")
    if target not in WRITERS:
        raise ApiError(400, f'"to" must be one of {", ".join(WRITERS)}')
    return {"records": [converted_record(target, write_board(_board(payload), target))]}


def generate(payload: dict[str, Any]) -> dict[str, Any]:
    """`generate -f json [--tier T]`: one puzzle with exactly one solution, from a seed.

    With "tier", puzzles are made until one has that grade (at most "attempts", default
    50); the record's "note" says its grade and how many were made.
    """
    from starbattle.logic.grade import TIERS
    from starbattle.logic.graded import Asked
    from starbattle.run.service import generated_puzzles

    size, stars = _get(payload, "size", 10), _get(payload, "stars", 2)
    seed = str(_get(payload, "seed", "0"))
    if not 1 <= size <= MAX_GENERATE_SIZE or stars < 1:
        raise ApiError(400, f'"size" must be 1 to {MAX_GENERATE_SIZE} and "stars" at least 1')
    tier = _get(payload, "tier")
    if tier is not None and tier not in TIERS:
        raise ApiError(400, f'"tier" must be one of {", ".join(TIERS)}, not {tier!r}')
    attempts = _get(payload, "attempts", 50)
    if not 1 <= attempts <= 1000:
        raise ApiError(400, '"attempts" must be 1 to 1000')
    asked = Asked(tier, attempts=attempts)
    made = generated_puzzles(size, stars, 1, seed, asked, timeout=seconds(payload))
    return {"records": [generated_record(*next(made))]}


def daily(payload: dict[str, Any]) -> dict[str, Any]:
    """The daily puzzle of "date" (YYYY-MM-DD) and "tier": the same for everyone that day."""
    from starbattle.io.records import daily_record
    from starbattle.logic.offer import daily as daily_puzzle

    made = daily_puzzle(
        str(_get(payload, "date", "")), str(_get(payload, "tier", "")), seconds(payload)
    )
    return {"records": [daily_record(made)]}


def _state(payload: dict[str, Any], size: int) -> State:
    """The page's marks as the hint engine's state."""
    return State.of(*_marks(payload, size))


def hint(payload: dict[str, Any]) -> dict[str, Any]:
    """`hint -f json`: the next step from the page's marks (or "solved", or "stuck")."""
    from starbattle.run.service import hint_items

    read = _board(payload)
    return api_records(hint_items(read, _state(payload, read.size), timeout=seconds(payload)))


def explain(payload: dict[str, Any]) -> dict[str, Any]:
    """`explain -f json`: every step from the page's marks, then the summary."""
    from starbattle.run.service import explain_items

    read = _board(payload)
    return api_records(explain_items(read, _state(payload, read.size), timeout=seconds(payload)))


def grade(payload: dict[str, Any]) -> dict[str, Any]:
    """`grade -f json`: the puzzle's difficulty."""
    from starbattle.run.service import grade_of

    read = _board(payload)
    return api_records([grade_of(read, seconds(payload))])


def verdict(payload: dict[str, Any]) -> dict[str, Any]:
    """The live verdict on a board being drawn: region problems, else its solutions."""
    from starbattle.run.service import live_verdict

    judged = live_verdict(
        lambda: _board(payload),
        fixed=_get(payload, "fixed", False),
        graded=_get(payload, "grade", True),
        timeout=seconds(payload),
    )
    return api_records([judged])


def suggest(payload: dict[str, Any]) -> dict[str, Any]:
    """`suggest -f json`: region edits that give the board exactly one solution, then a summary."""
    from starbattle.logic.grade import TIERS
    from starbattle.run.service import suggest_items

    max_moves, most = _get(payload, "max_moves", 2), _get(payload, "most", 5)
    if not 1 <= max_moves <= 2:
        raise ApiError(400, '"max_moves" must be 1 or 2')
    if not 0 <= most <= MAX_MODELS:
        raise ApiError(400, f'"most" must be 0 to {MAX_MODELS} (0: every one of the fewest moves)')
    tier = _get(payload, "tier")
    if tier is not None and tier not in TIERS:
        raise ApiError(400, f'"tier" must be one of {", ".join(TIERS)}, not {tier!r}')
    found = suggest_items(
        _board(payload),
        max_moves=max_moves,
        tier=tier,
        most=most,
        split=_get(payload, "split", False),
        timeout=seconds(payload),
    )
    return api_records(found)


def api_records(items: Iterable[object]) -> dict[str, Any]:
    """A command's items as the API answers them: their records, and the messages apart."""
    records, messages = [], []
    for item in items:
        if isinstance(item, Message):
            messages.append(api_wording(item.text))
        elif (made := record(item)) is not None:
            records.append(made)
    return {"records": records, "messages": messages}


def import_image(payload: dict[str, Any]) -> dict[str, Any]:
    """A screenshot ("image": base64 of PNG or JPEG) read back as a board record."""
    try:
        data = base64.b64decode(_get(payload, "image", ""), validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, '"image" must be the base64 of a PNG or JPEG picture') from None
    screenshot = Record("screenshot", "", None, image=data)
    seen = ImageOptions(_get(payload, "size"))
    return {"records": [board_record(screenshot.board(stars=_get(payload, "stars"), seen=seen))]}


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
    "daily": daily,
    "verdict": verdict,
    "suggest": suggest,
}


def answer(command: str, payload: Any) -> dict[str, Any]:
    """Answer one API command; raise ApiError with the status and message of a refusal.

    A library error is 400 with its message (504 when it is a time limit: exit code 3).
    """
    checked(command, payload)
    try:
        return COMMANDS[command](payload)
    except StarBattleError as error:
        status = 504 if error.exit_code == Exit.TIMEOUT else 400
        raise ApiError(status, api_wording(str(error))) from None


def answered(command: str, payload: Any) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body of a command's answer (a worker's job: never raises)."""
    try:
        return 200, answer(command, payload)
    except ApiError as error:
        return error.status, {"error": error.message}
    except Exception as error:  # a defect: one line for the page, never a dropped request
        message = f"internal error: {type(error).__name__}: {error} (please report it)"
        return 500, {"error": message}


def api_wording(message: str) -> str:
    """A library message with its command-line options named as API fields.

    `pass --stars S` becomes `pass "stars": S`, `--givens` `"givens": true`; advice about
    options the API lacks (--min-region, --debug-image, a score range) is left out.
    """
    for phrase, instead in CLI_ONLY:
        message = message.replace(phrase, instead)

    def field(match: re.Match[str]) -> str:
        """One option as its field, with its value when the message shows one."""
        flag, value = match.groups()
        name = FLAG_FIELDS.get(flag) or flag.removeprefix("--").replace("-", "_")
        if name not in FIELDS:
            return match.group(0)
        if value is not None:
            return f'"{name}": {value}'
        return f'"{name}": true' if FIELDS[name] == "boolean" else f'"{name}"'

    return CLI_FLAG.sub(field, message)


FIRST_PUZZLE = "generated-10x10-2star"
"""The shipped puzzle a page opens when nothing else is asked: one solution, a medium 10x10 2★
(not the first by name, which has no solution on purpose)."""


def instances(folder: Path) -> list[dict[str, str]]:
    """The shipped instances a page can open, name and text of each: FIRST_PUZZLE first."""
    if not folder.is_dir():
        return []
    paths = sorted(folder.glob("*.lp"), key=lambda path: (path.stem != FIRST_PUZZLE, path.stem))
    return [{"name": path.stem, "text": path.read_text()} for path in paths]
