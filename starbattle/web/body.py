"""A request's body as JSON, checked before any field is read: no NaN, huge integers or depth."""

from __future__ import annotations

import json
import math
from typing import Any

from starbattle.web.api import ApiError

MAX_DEPTH = 32
"""The deepest nesting of lists and objects a request may have (the page needs 4)."""
MAX_DIGITS = 18
"""The most digits of an integer in a request (no option needs more; int() slows past 4000)."""


def parsed(body: bytes) -> Any:
    """A request's JSON; 400 for no JSON, NaN, huge numbers or nesting past MAX_DEPTH."""
    too_deep = ApiError(400, f"the request nests lists and objects deeper than {MAX_DEPTH}")
    try:
        document = json.loads(
            body or b"null", parse_constant=_no_constant, parse_int=_integer, parse_float=_number
        )
    except RecursionError:  # past the decoder's own limit (about 1000 levels)
        raise too_deep from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ApiError(400, f"the request is not JSON: {error}") from None
    if _deeper(document, MAX_DEPTH):
        raise too_deep
    return document


def _no_constant(name: str) -> Any:
    """NaN, Infinity and -Infinity are refused (JSON has no such numbers)."""
    raise ApiError(400, f"the request holds {name}, which is no JSON number: send a number")


def _integer(text: str) -> int:
    """An integer of the request, refused past MAX_DIGITS digits."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ApiError(
            400, f"the request holds an integer of {digits} digits: at most {MAX_DIGITS} allowed"
        )
    return int(text)


def _number(text: str) -> float:
    """A decimal number of the request, refused when it is too large for a float."""
    value = float(text)
    if not math.isfinite(value):
        raise ApiError(400, f"the request holds the number {text[:20]}, too large for a float")
    return value


def _deeper(document: Any, limit: int) -> bool:
    """Whether lists and objects nest deeper than `limit` (counted without recursion)."""
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > limit:
                return True
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return False
