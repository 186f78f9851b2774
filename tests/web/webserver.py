"""A web server on a free local port in a thread, and requests to it (for the web tests)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from starbattle.web.server import StarBattleServer


@contextmanager
def running(**options: Any) -> Iterator[StarBattleServer]:
    """A server on 127.0.0.1 and a free port, serving in a thread until the block ends."""
    server = StarBattleServer(("127.0.0.1", 0), **options)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def request(
    url: str, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes, str]:
    """Status, body and content type of a GET (or a POST of data, JSON unless headers say)."""
    sent = {"Content-Type": "application/json"} if data is not None else {}
    asked = urllib.request.Request(url, data=data, headers={**sent, **(headers or {})})
    try:
        with urllib.request.urlopen(asked, timeout=30) as answer:
            return answer.status, answer.read(), answer.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers["Content-Type"]


def post(server: StarBattleServer, command: str, payload: Any) -> tuple[int, Any]:
    """POST a JSON payload to /api/COMMAND: the status and the decoded answer."""
    status, body, _ = request(f"{server.url}api/{command}", json.dumps(payload).encode())
    return status, json.loads(body)


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> float:
    """Poll until the condition holds; the seconds it took (fails after `seconds`)."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"not within {seconds} s")
        time.sleep(0.01)
    return time.monotonic() - started


def marks_with(size: int, stars=(), blanks=(), dots=()) -> str:
    """A page's marks as a string: * stars, x Xs, o dots, . the rest."""
    grid = ["."] * (size * size)
    for cells, mark in ((dots, "o"), (blanks, "x"), (stars, "*")):
        for r, c in cells:
            grid[(r - 1) * size + c - 1] = mark
    return "".join(grid)


def serious_violations(page: Any) -> list[tuple[str, str, int]]:
    """axe-core's serious and critical violations on a page: rule, impact, nodes."""
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
    ).Axe()
    return [
        (v["id"], v["impact"], len(v["nodes"]))
        for v in axe.run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
