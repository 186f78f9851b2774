"""The local server: the page's static files and the JSON API, on 127.0.0.1 by default.

Built on the standard library's `http.server.ThreadingHTTPServer`: the page is one HTML file,
one stylesheet and one script, and the API a handful of JSON POSTs from one user's browser,
so a framework (and its dependencies) would add nothing but weight. Each connection has its
own thread; every command runs in a worker process (the hint engine is mostly Python, so
threads would share one core) within the request's time limit, and stops when its client
hangs up; long jobs yield the cores to short ones (see `workers`). No other web page can use
the server: a POST must be JSON, its Origin (when sent) this server, and the Host header
must name this server (against DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import json
import os
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starbattle.asp import guard
from starbattle.errors import UsageError
from starbattle.exits import Exit
from starbattle.io.pictures import PAGE_PALETTE
from starbattle.io.records import makeable_record, setter_record, techniques_record
from starbattle.logic.offer import makeable
from starbattle.logic.registry import EFFORTS, TECHNIQUES
from starbattle.model.board import king_capacity
from starbattle.web import api
from starbattle.web.body import parsed
from starbattle.web.workers import (
    NICE_AFTER_SECONDS,
    Busy,
    ClientLeft,
    Closing,
    TimeLimit,
    WorkerEnded,
    WorkerPool,
)

STATIC = Path(__file__).resolve().parent / "static"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".png": "image/png",
}
MAX_BODY = 8 * 1024 * 1024
"""The largest request accepted (a screenshot as base64 fits; no board comes close)."""
GRACE_SECONDS = 1.0
"""How much longer than a request's time limit its worker may take (a solve stopped at the
limit still sends what it found) before it is ended and the request answered 504."""
MOST_WORKERS = 32
"""Worker processes at most, when that many requests run at once (each one's own memory)."""
WAITING = 32
"""Requests that may wait when MOST_WORKERS are busy, before the server answers 503 (busy)."""
MAX_CONNECTIONS = 64
"""Connections served at once; more are answered 503 and closed."""
IDLE_SECONDS = 30.0
"""How long a connection may stay silent (between requests, or within one) before it is closed."""
DAILIES = 64
"""Daily puzzles kept once made (a dozen days of each tier; past them a request makes its own)."""
REFUSAL_SECONDS = 2.0
"""How long a connection beyond MAX_CONNECTIONS has to send its request before the 503."""


def instances_folder() -> Path:
    """The shipped instances: inside the installed package, else the checkout's."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "instances", package.parent / "instances"):
        if candidate.is_dir():
            return candidate
    return package / "instances"


def is_loopback(host: str) -> bool:
    """Whether an address is this machine's own loopback (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
        most_workers: int = MOST_WORKERS,
        waiting: int = WAITING,
        connections: int = MAX_CONNECTIONS,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.start_board = start_board
        self.files = {path.name: path for path in STATIC.iterdir() if path.is_file()}
        """The only files served: the static folder's own, looked up by name."""
        self.instances = api.instances(instances_folder())
        self.makeable = makeable_record(makeable())
        self.techniques = techniques_record((t.name, t.level, t.plain) for t in TECHNIQUES)
        sizes = range(api.MIN_EDIT_SIZE, api.MAX_GENERATE_SIZE + 1)
        self.setter = setter_record(PAGE_PALETTE, EFFORTS, {n: king_capacity(n) for n in sizes})
        self.dailies: dict[tuple[Any, Any], tuple[int, dict[str, Any]]] = {}
        """Daily puzzles made so far, by date and tier (each is the same all day)."""
        self.most_connections, self.idle_seconds = connections, idle_seconds
        self.connections = 0
        self.counting = threading.Lock()
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, Handler, bind_and_activate=False)
        try:
            self.server_bind()
            self.server_activate()
        except OSError:
            self.socket.close()
            raise
        self.names = {"localhost", address[0].lower().strip("[]")}
        """Host names that may name this server (besides IP addresses)."""
        if ipaddress.ip_address(self.server_address[0]).is_unspecified:
            self.names.add(socket.gethostname().lower())
        self.pool = WorkerPool(workers or max(4, os.cpu_count() or 1), most_workers, waiting)

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = self.server_address[:2]
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"

    @property
    def local(self) -> bool:
        """Whether only this machine can reach the server."""
        return is_loopback(self.server_address[0])

    def admit(self) -> bool:
        """Count a new connection in, unless MAX_CONNECTIONS are served already."""
        with self.counting:
            if self.connections >= self.most_connections:
                return False
            self.connections += 1
            return True

    def leave(self) -> None:
        """Count an admitted connection out."""
        with self.counting:
            self.connections -= 1

    def names_this_server(self, authority: str) -> bool:
        """Whether a Host (or an Origin's host) names this server, with its port.

        An IP address, localhost or the --host name do (and the machine's name when listening
        on every address); any other name may be a DNS rebinding page's.
        """
        try:
            parts = urlsplit(f"http://{authority}")
            port = parts.port or 80
        except ValueError:
            return False
        name = parts.hostname or ""
        if parts.username is not None or parts.path or port != self.server_address[1]:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return name in self.names
        return True

    def answer(
        self, command: str, payload: Any, client: socket.socket | None
    ) -> tuple[int, dict[str, Any]]:
        """Answer an API command on a worker within its time limit: status and JSON body.

        Raises ClientLeft when the client hangs up first (its worker is then ended).
        """
        try:
            payload = api.checked(command, payload)
            limit = api.seconds(payload)
            day = (payload.get("date"), payload.get("tier")) if command == "daily" else None
            if day in self.dailies:
                return self.dailies[day]
            answer = self.pool.call(
                api.answered,
                (command, payload),
                limit + GRACE_SECONDS,
                client,
                api.MAX_SECONDS,
                0.0 if long_running(command, payload) else NICE_AFTER_SECONDS,
            )
            if day is not None and answer[0] == HTTPStatus.OK and len(self.dailies) < DAILIES:
                self.dailies[day] = answer
            return answer
        except api.ApiError as error:
            return error.status, {"error": error.message}
        except TimeLimit:
            return HTTPStatus.GATEWAY_TIMEOUT, {"error": f"no answer within {limit:g} s"}
        except WorkerEnded as ended:
            return ended_answer(ended.code, limit)
        except Busy:
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": "the server is busy: try again"}
        except Closing:
            return HTTPStatus.SERVICE_UNAVAILABLE, {"error": "the server is stopping"}

    def status(self) -> dict[str, int]:
        """The workers' state and the connections served (GET /api/status)."""
        return {**self.pool.status(), "connections": self.connections}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away or stayed silent too long is no error to print."""
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)

    def service_actions(self) -> None:
        """Between requests: stop at a Ctrl-C that arrived meanwhile; retire idle extra workers."""
        guard.checkpoint()
        self.pool.tidy()

    def server_close(self) -> None:
        """Close the socket and stop the workers at once (also in the middle of a search)."""
        super().server_close()
        self.pool.close()


def long_running(command: str, payload: dict[str, Any]) -> bool:
    """Whether a request asks for a search that may run long (its worker yields at once)."""
    if command == "solve":
        return bool(payload.get("count") or payload.get("fixed"))
    return command in ("explain", "generate", "daily")


def ended_answer(code: int | None, limit: float) -> tuple[int, dict[str, Any]]:
    """The answer to a request whose worker process died with this exit code."""
    if code == Exit.TIMEOUT:  # guard.grounding() ends a worker that grounds too long
        message = f"no answer within {limit:g} s: the time limit was reached while grounding"
        return HTTPStatus.GATEWAY_TIMEOUT, {"error": message}
    if code is not None and code < 0:
        cause = f"was killed by {signal.Signals(-code).name} (e.g. out of memory)"
    else:
        cause = f"ended (exit {code})"
    message = f"the worker process computing the answer {cause}: try again"
    return HTTPStatus.INTERNAL_SERVER_ERROR, {"error": message}


class Handler(BaseHTTPRequestHandler):
    """GET the page, its files and /api/ features, instances, makeable, techniques, setter..."""

    server: StarBattleServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once, not 40 ms apart

    def setup(self) -> None:
        """Count the connection in (else it gets a 503) and give its socket a time limit."""
        self.admitted = self.server.admit()
        self.timeout = self.server.idle_seconds if self.admitted else REFUSAL_SECONDS
        try:
            super().setup()
        except BaseException:
            self.finish_counting()
            raise

    def finish(self) -> None:
        """Flush the answer and count the connection out."""
        try:
            super().finish()
        finally:
            self.finish_counting()

    def finish_counting(self) -> None:
        """Count the connection out, once."""
        if self.admitted:
            self.admitted = False
            self.server.leave()

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged (the command says where the page is, nothing else)."""

    def parse_request(self) -> bool:
        """Read the request line and headers; refuse (and close) what no page may ask."""
        if not super().parse_request():
            return False
        refusal = self.refusal()
        if refusal is None:
            return True
        self.close_connection = True
        self.send_json(*refusal)
        return False

    def refusal(self) -> tuple[int, dict[str, str]] | None:
        """503 beyond the connections served, 403 for a foreign Host or Origin, else None."""
        if not self.admitted:
            return HTTPStatus.SERVICE_UNAVAILABLE, {
                "error": "the server has too many connections: try again"
            }
        host, origin = self.headers.get("Host"), self.headers.get("Origin")
        if host is not None and not self.server.names_this_server(host):
            return HTTPStatus.FORBIDDEN, {
                "error": f"Host {host} is not this server: open the page at {self.server.url}"
            }
        if origin is not None and not (
            origin.startswith("http://")
            and self.server.names_this_server(origin.removeprefix("http://"))
        ):
            return HTTPStatus.FORBIDDEN, {
                "error": f"requests from other sites are refused (Origin: {origin})"
            }
        return None

    def send_body(self, status: int, body: bytes, content_type: str) -> None:
        """Send a whole response (saying so when the connection closes after it)."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
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
            "/api/makeable": lambda: self.server.makeable,
            "/api/techniques": lambda: self.server.techniques,
            "/api/setter": lambda: self.server.setter,
            "/api/start": lambda: {"board": self.server.start_board},
            "/api/status": self.server.status,
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

    def refuse(self, status: int, message: str) -> None:
        """Answer an error before the body is read, and close (the body is left unread)."""
        self.close_connection = True
        self.send_json(status, {"error": message})

    def do_POST(self) -> None:
        """POST /api/COMMAND with a JSON object: the command's records, or an error."""
        path = urlsplit(self.path).path
        if not path.startswith("/api/"):
            self.refuse(HTTPStatus.NOT_FOUND, f"no such address: {path}")
            return
        command = path.removeprefix("/api/")
        try:
            api.known(command)
        except api.ApiError as error:
            self.refuse(error.status, error.message)
            return
        if self.headers.get_content_type() != "application/json":
            kind = self.headers.get("Content-Type", "none")
            self.refuse(
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                f"the request must be JSON with Content-Type: application/json, not {kind}",
            )
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.refuse(HTTPStatus.LENGTH_REQUIRED, "the request needs a length")
            return
        if length > MAX_BODY or length < 0:
            megabytes = MAX_BODY // (1024 * 1024)
            self.refuse(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the request is larger than {megabytes} MiB"
            )
            return
        try:
            payload = parsed(self.rfile.read(length))
        except api.ApiError as error:
            self.send_json(error.status, {"error": error.message})
            return
        try:
            answer = self.server.answer(command, payload, self.connection)
        except ClientLeft:
            self.close_connection = True
            return
        self.send_json(*answer)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    start_board: str | None = None,
    open_browser: bool = False,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until Ctrl-C (KeyboardInterrupt), then close cleanly; `ready(url)` once listening.

    A server that other machines can reach says so on stderr first.
    """
    try:
        server = StarBattleServer((host, port), start_board=start_board)
    except OSError as error:
        raise UsageError(
            f"cannot listen on {host}:{port}: {error.strerror or error} (choose another --port)"
        ) from None
    try:
        if not server.local:
            sys.stderr.write(
                f"starbattle-asp: warning: listening on {host}: anyone who can reach this "
                "machine can use the page and its solver (--host 127.0.0.1 keeps it local)\n"
            )
            sys.stderr.flush()
        if ready is not None:
            ready(server.url)
        if open_browser:
            webbrowser.open(server.url)
        server.serve_forever(poll_interval=0.25)
    finally:
        server.server_close()
