"""The local server: the page's static files and the JSON API, on 127.0.0.1 by default.

Built on the standard library's `http.server.ThreadingHTTPServer`: the page is one HTML file,
one stylesheet and one script, and the API a handful of JSON POSTs from one user's browser,
so a framework (and its dependencies) would add nothing but weight. Each request has its own
thread; the solver runs in a bounded pool of worker processes (the hint engine is mostly
Python, so threads would share one core), so a slow puzzle holds one worker until its time
limit, never the server or other clients; a full queue answers 503.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import threading
import webbrowser
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starbattle import interrupts
from starbattle.errors import UsageError
from starbattle.web import api

STATIC = Path(__file__).resolve().parent / "static"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".png": "image/png",
}
MAX_BODY = 8 * 1024 * 1024
"""The largest request accepted (a screenshot as base64 fits; no board comes close)."""
GRACE_SECONDS = 5.0
"""How much longer than the solver's time limit a request waits before answering 504."""
QUEUE_PER_WORKER = 32
"""Requests waiting per worker before the server answers 503 (busy)."""


def instances_folder() -> Path:
    """The shipped instances: inside the installed package, else the checkout's."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "instances", package.parent / "instances"):
        if candidate.is_dir():
            return candidate
    return package / "instances"


class StarBattleServer(ThreadingHTTPServer):
    """The HTTP server, its worker pool and the puzzle it was started with."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    """Connections waiting to be accepted (the default 5 resets a crowd of new clients)."""

    def __init__(
        self,
        address: tuple[str, int],
        *,
        start_board: str | None = None,
        workers: int | None = None,
    ) -> None:
        self.start_board = start_board
        self.files = {path.name: path for path in STATIC.iterdir() if path.is_file()}
        """The only files served: the static folder's own, looked up by name."""
        self.instances = api.instances(instances_folder())
        super().__init__(address, Handler, bind_and_activate=False)
        try:
            self.server_bind()
            self.server_activate()
        except OSError:
            self.socket.close()
            raise
        workers = workers or max(4, os.cpu_count() or 1)
        methods = multiprocessing.get_all_start_methods()
        # forked before any request thread exists; spawn would rerun `python -m starbattle`
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.pool = context.Pool(workers, initializer=interrupts.ignore_in_worker)
        self.slots = threading.BoundedSemaphore(workers * (1 + QUEUE_PER_WORKER))

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def run(self, payload: Any, command: str) -> tuple[int, dict[str, Any]]:
        """Answer an API command on a worker, within the time limit; status and body."""
        if not self.slots.acquire(blocking=False):
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": "the server is busy: try again"}
        try:
            done = self.pool.apply_async(
                api.answer,
                (command, payload),
                callback=lambda _: self.slots.release(),
                error_callback=lambda _: self.slots.release(),
            )
        except ValueError:  # the pool was closed: the server is stopping
            self.slots.release()
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": "the server is stopping"}
        limit = api.MAX_SECONDS
        if isinstance(payload, dict) and isinstance(payload.get("timeout"), int | float):
            limit = min(float(payload["timeout"]), api.MAX_SECONDS)
        try:
            return HTTPStatus.OK, done.get(timeout=limit + GRACE_SECONDS)
        except api.ApiError as error:
            return error.status, {"error": error.message}
        except multiprocessing.TimeoutError:
            return HTTPStatus.GATEWAY_TIMEOUT, {"error": f"no answer within {limit:g} s"}
        except Exception as error:  # a defect: one line for the page, never a dropped request
            message = f"internal error: {type(error).__name__}: {error} (please report it)"
            return HTTPStatus.INTERNAL_SERVER_ERROR, {"error": message}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (a stopped solve, a closed tab) is no error to print."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def service_actions(self) -> None:
        """Between requests: stop at a Ctrl-C that arrived while a solver call ran."""
        interrupts.checkpoint()

    def server_close(self) -> None:
        """Stop the workers at once (also in the middle of a search) and close the socket."""
        self.pool.terminate()
        self.pool.join()
        super().server_close()


class Handler(BaseHTTPRequestHandler):
    """GET the page and its files, GET /api/features|instances|start, POST /api/COMMAND."""

    server: StarBattleServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once, not 40 ms apart

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged (the command says where the page is, nothing else)."""

    def send_body(self, status: int, body: bytes, content_type: str) -> None:
        """Send a whole response."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, status: int, document: Any) -> None:
        """Send a JSON document."""
        self.send_body(status, json.dumps(document).encode(), "application/json")

    def do_GET(self) -> None:
        """The page, a static file by its name, or one of the GET API answers."""
        path = urlsplit(self.path).path
        answers = {
            "/api/features": api.features,
            "/api/instances": lambda: self.server.instances,
            "/api/start": lambda: {"board": self.server.start_board},
        }
        if path in answers:
            self.send_json(HTTPStatus.OK, answers[path]())
            return
        name = "index.html" if path == "/" else path.removeprefix("/static/")
        file = self.server.files.get(name) if path == "/" or path.startswith("/static/") else None
        if file is None:
            self.send_json(HTTPStatus.NOT_FOUND, {"error": f"no such page: {path}"})
            return
        content_type = CONTENT_TYPES.get(file.suffix, "application/octet-stream")
        self.send_body(HTTPStatus.OK, file.read_bytes(), content_type)

    do_HEAD = do_GET

    def do_POST(self) -> None:
        """POST /api/COMMAND with a JSON object: the command's records, or an error."""
        path = urlsplit(self.path).path
        if not path.startswith("/api/"):
            self.send_json(HTTPStatus.NOT_FOUND, {"error": f"no such address: {path}"})
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.send_json(HTTPStatus.LENGTH_REQUIRED, {"error": "the request needs a length"})
            return
        if length > MAX_BODY or length < 0:
            self.close_connection = True
            self.send_json(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                {"error": f"the request is larger than {MAX_BODY // (1024 * 1024)} MiB"},
            )
            return
        try:
            payload = json.loads(self.rfile.read(length) or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            self.send_json(HTTPStatus.BAD_REQUEST, {"error": f"the request is not JSON: {error}"})
            return
        self.send_json(*self.server.run(payload, path.removeprefix("/api/")))


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    start_board: str | None = None,
    open_browser: bool = False,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until Ctrl-C (KeyboardInterrupt), then close cleanly; `ready(url)` once listening."""
    try:
        server = StarBattleServer((host, port), start_board=start_board)
    except OSError as error:
        raise UsageError(
            f"cannot listen on {host}:{port}: {error.strerror or error} (choose another --port)"
        ) from None
    try:
        if ready is not None:
            ready(server.url)
        if open_browser:
            webbrowser.open(server.url)
        server.serve_forever(poll_interval=0.25)
    finally:
        server.server_close()
