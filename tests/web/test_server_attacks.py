"""The server against abuse: abandoned and endless work, dying workers, forged requests, bad JSON.

Each test asserts the server's own state (its worker pool's status) as well as the answers;
waits are loops with generous bounds, never a tight wall-clock assertion.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import string
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from webserver import post, request, running, wait_for

from starbattle.web import api, workers
from starbattle.web.server import StarBattleServer, long_running
from starbattle.web.workers import TimeLimit, WorkerEnded, WorkerPool

SHARED = ROOT.parent / "shared"
URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()
HARD = (ROOT / "instances" / "generated-21x21-5star.lp").read_text()
"""Its explanation takes seconds (8 s alone on one core): longer than any limit used here."""


def rows_board(size: int) -> str:
    """`size` regions that are the rows, 1 star: more solutions than any time limit counts."""
    labels = string.ascii_uppercase + string.ascii_lowercase
    return "stars: 1\n" + "\n".join(labels[k] * size for k in range(size)) + "\n"


ENDLESS = {"board": rows_board(20), "count": True, "timeout": 60}
"""A count that runs for its whole minute."""
GROUNDING = {"board": rows_board(52), "timeout": 0.001}
"""A board that takes 30 times its time limit to ground (its worker ends with exit 3)."""


@pytest.fixture(scope="module")
def server() -> Iterator[StarBattleServer]:
    with running() as started:
        yield started


def exchange(
    server: StarBattleServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One request with exactly these headers (Host added unless given): status and JSON."""
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    try:
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def started(server: StarBattleServer, command: str, payload: dict[str, Any]) -> socket.socket:
    """A client that has sent a request and waits for its answer (close it to hang up)."""
    body = json.dumps(payload).encode()
    client = socket.create_connection(server.server_address[:2])
    client.sendall(
        f"POST /api/{command} HTTP/1.1\r\nHost: 127.0.0.1:{server.server_address[1]}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    return client


def niceness(server: StarBattleServer) -> set[int]:
    """The niceness of the server's workers (0 is the normal CPU priority, 19 the lowest)."""
    return {os.getpriority(os.PRIO_PROCESS, w.process.pid) for w in list(server.pool.workers)}


def in_thread(call: Callable[[], Any]) -> Callable[[], Any]:
    """Run a call in a thread; the returned function waits for and returns its result."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(call()))
    thread.start()

    def outcome() -> Any:
        thread.join(90)
        return result[0]

    return outcome


# ---- cancellation, time limits, dying workers ----------------------------------------------


@pytest.mark.slow
def test_a_client_that_hangs_up_frees_its_worker_at_once(server):
    before = server.pool.status()["ended"]
    client = started(server, "solve", ENDLESS)
    wait_for(lambda: server.pool.status()["busy"] == 1)
    time.sleep(0.5)  # the count is well under way
    assert post(server, "solve", {"board": TEN})[0] == 200  # the other workers answer
    client.close()
    settled = {"workers": server.pool.size, "busy": 0, "waiting": 0, "ended": before + 1}
    wait_for(lambda: server.pool.status() == settled, seconds=5)  # ended, and replaced
    assert post(server, "solve", {"board": URL})[0] == 200


@pytest.mark.slow
def test_explain_past_its_time_limit_answers_the_steps_it_found(server):
    """The library keeps the request's limit: the steps so far, marked incomplete (the server's
    own limit, a second later, ends a worker only when a command overruns it)."""
    before = server.pool.status()["ended"]
    status, answer = post(server, "explain", {"board": HARD, "timeout": 0.5})
    assert status == 200
    *steps, summary = answer["records"]
    assert summary["type"] == "explain" and summary["complete"] is False
    assert summary["steps"] == len(steps)
    wait_for(lambda: server.pool.status()["busy"] == 0, seconds=5)
    assert server.pool.status()["ended"] == before


def test_a_search_stopped_by_its_own_limit_still_answers(server):
    # a second: grounding and a few models take longer than 0.3 s on a loaded machine
    status, answer = post(server, "solve", {**ENDLESS, "timeout": 1.0})
    (summary,) = answer["records"]
    assert (status, summary["complete"], summary["unique"]) == (200, False, False)
    assert summary["solutions"] > 2


@pytest.mark.slow
def test_workers_ended_while_grounding_leak_no_slot():
    with running(workers=2, most_workers=2, waiting=64) as small:
        answers: list[tuple[int, Any]] = []

        def client() -> None:
            for _ in range(5):
                answers.append(post(small, "solve", GROUNDING))

        threads = [threading.Thread(target=client) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        message = "no answer within 0.001 s: the time limit was reached while grounding"
        assert answers == [(504, {"error": message})] * 40
        assert small.pool.status() == {"workers": 2, "busy": 0, "waiting": 0, "ended": 40}
        assert post(small, "solve", {"board": TEN})[0] == 200


@pytest.mark.slow
def test_a_worker_killed_while_busy_is_500_and_replaced():
    with running(workers=1, most_workers=1) as small:
        answer = in_thread(lambda: post(small, "solve", ENDLESS))
        wait_for(lambda: small.pool.status()["busy"] == 1)
        (worker,) = small.pool.workers
        os.kill(worker.process.pid, signal.SIGKILL)  # as the out-of-memory killer would
        assert answer() == (
            500,
            {
                "error": "the worker process computing the answer was killed by SIGKILL "
                "(e.g. out of memory): try again"
            },
        )
        assert small.pool.status() == {"workers": 1, "busy": 0, "waiting": 0, "ended": 1}
        (idle,) = small.pool.workers
        os.kill(idle.process.pid, signal.SIGKILL)  # an idle worker dies: the next request
        idle.process.join(5)  # takes it, finds it dead and takes a fresh one
        assert post(small, "solve", {"board": URL})[0] == 200


@pytest.mark.slow
def test_a_full_queue_is_503_and_a_queued_client_may_leave():
    with running(workers=1, most_workers=1, waiting=1) as small:
        busy = started(small, "solve", ENDLESS)
        wait_for(lambda: small.pool.status()["busy"] == 1)
        queued = in_thread(lambda: post(small, "solve", {"board": URL}))
        wait_for(lambda: small.pool.status()["waiting"] == 1)
        assert post(small, "solve", {"board": URL}) == (
            503,
            {"error": "the server is busy: try again"},
        )
        leaving = started(small, "solve", {"board": URL})  # waits too: the queue is not full
        leaving.close()
        busy.close()  # the first client hangs up: the queued request gets the new worker
        assert queued()[0] == 200
        wait_for(lambda: small.pool.status()["waiting"] == 0 and small.pool.status()["busy"] == 0)
        assert small.pool.status()["ended"] == 1


@pytest.mark.slow
def test_a_short_request_gets_a_worker_and_the_cores_while_long_ones_run():
    with running(workers=1, most_workers=3) as small:
        long = [started(small, "solve", ENDLESS) for _ in range(2)]
        wait_for(lambda: small.pool.status()["busy"] == 2)
        wait_for(lambda: niceness(small) == {workers.NICE})  # a count yields from its start
        assert post(small, "solve", {"board": TEN})[0] == 200
        assert small.pool.status() == {"workers": 3, "busy": 2, "waiting": 0, "ended": 0}
        for client in long:
            client.close()
        wait_for(lambda: small.pool.status() == {"workers": 1, "busy": 0, "waiting": 0, "ended": 2})


@pytest.mark.parametrize(
    ("command", "payload", "long"),
    [
        ("solve", {"count": True}, True),
        ("solve", {"fixed": True}, True),
        ("explain", {}, True),
        ("generate", {}, True),
        ("daily", {}, True),
        ("solve", {}, False),
        ("solve", {"count": False, "models": 3}, False),
        ("hint", {}, False),
        ("check", {}, False),
        ("grade", {}, False),
    ],
)
def test_requests_known_to_run_long_yield_the_cores_from_their_start(command, payload, long):
    assert long_running(command, {"board": TEN, **payload}) is long


@pytest.mark.slow
def test_a_worker_slowed_by_a_long_job_retires_and_extra_idle_ones_too(monkeypatch):
    monkeypatch.setattr(workers, "EXTRA_IDLE_SECONDS", 0.3)
    with running(workers=1, most_workers=3) as small:
        (first,) = small.pool.workers
        status, answer = post(small, "solve", {**ENDLESS, "timeout": 1.5})
        assert (status, answer["records"][-1]["complete"]) == (200, False)
        (second,) = small.pool.workers
        assert second is not first and not first.process.is_alive()
        assert small.pool.status() == {"workers": 1, "busy": 0, "waiting": 0, "ended": 0}
        answers = [
            in_thread(lambda: post(small, "solve", {**ENDLESS, "timeout": 0.6})) for _ in "abc"
        ]
        wait_for(lambda: small.pool.status()["busy"] == 3)  # a worker each
        assert small.pool.status()["workers"] == 3
        assert [answer()[0] for answer in answers] == [200, 200, 200]
        wait_for(lambda: small.pool.status()["workers"] == 1)  # the server's loop tidies


def test_the_pool_ends_a_job_past_its_time_and_reports_a_worker_death():
    pool = WorkerPool(1, 1, 1)
    try:
        assert pool.call(pow, (2, 10), 5) == 1024
        with pytest.raises(TimeLimit):
            pool.call(time.sleep, (60,), 0.2)
        with pytest.raises(WorkerEnded) as ended:
            pool.call(os._exit, (3,), 5)
        assert ended.value.code == 3
        assert pool.call(pow, (3, 3), 5) == 27
        assert pool.status() == {"workers": 1, "busy": 0, "waiting": 0, "ended": 2}
    finally:
        pool.close()
    assert pool.status()["workers"] == 0


# ---- requests no web page can forge ----------------------------------------------------------


def test_a_cross_site_form_post_is_refused(server):
    body = json.dumps({"board": URL}).encode()
    foreign = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    assert exchange(server, "POST", "/api/solve", body, foreign) == (
        403,
        {"error": "requests from other sites are refused (Origin: http://evil.example)"},
    )
    assert exchange(server, "POST", "/api/solve", body, {"Content-Type": "text/plain"}) == (
        415,
        {"error": "the request must be JSON with Content-Type: application/json, not text/plain"},
    )


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1:{port}"])
def test_a_foreign_origin_is_403(server, origin):
    port = server.server_address[1]
    headers = {"Origin": origin.format(port=port), "Content-Type": "application/json"}
    status, answer = exchange(
        server, "POST", "/api/solve", json.dumps({"board": URL}).encode(), headers
    )
    assert status == 403
    assert answer["error"] == f"requests from other sites are refused (Origin: {headers['Origin']})"


@pytest.mark.parametrize("origin", ["http://127.0.0.1:{port}", "http://localhost:{port}"])
def test_the_pages_own_origin_is_served(server, origin):
    port = server.server_address[1]
    headers = {"Origin": origin.format(port=port), "Content-Type": "application/json"}
    status, answer = exchange(
        server, "POST", "/api/solve", json.dumps({"board": URL}).encode(), headers
    )
    assert (status, answer["records"][-1]["unique"]) == (200, True)


@pytest.mark.parametrize("path", ["/api/status", "/api/start", "/"])
@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1:1"])
def test_a_foreign_host_is_403(server, path, host):
    host = host.format(port=server.server_address[1])
    status, answer = exchange(server, "GET", path, headers={"Host": host})
    assert (status, answer) == (
        403,
        {"error": f"Host {host} is not this server: open the page at {server.url}"},
    )


def test_the_servers_own_names_are_served(server):
    port = server.server_address[1]
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"LOCALHOST:{port}"):
        assert exchange(server, "GET", "/api/start", headers={"Host": host})[0] == 200


# ---- connections -----------------------------------------------------------------------------


@pytest.mark.slow
def test_connections_beyond_the_cap_are_503_and_silent_ones_are_closed():
    with running(connections=2, idle_seconds=1.0) as small:
        silent = [socket.create_connection(small.server_address[:2]) for _ in range(2)]
        wait_for(lambda: small.connections == 2)
        assert exchange(small, "GET", "/api/status") == (
            503,
            {"error": "the server has too many connections: try again"},
        )
        for client in silent:  # the server closes them after a second of silence
            client.settimeout(10)
            assert client.recv(1) == b""
            client.close()
        wait_for(lambda: small.connections == 0)
        slow = socket.create_connection(small.server_address[:2])
        body = json.dumps({"board": URL}).encode()
        slow.sendall(  # 10 bytes short of its length: the rest never comes
            b"POST /api/solve HTTP/1.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body) + 10}\r\n\r\n".encode()
            + body
        )
        slow.settimeout(10)
        assert slow.recv(1) == b""
        slow.close()
        wait_for(lambda: small.connections == 0)
        assert exchange(small, "GET", "/api/status")[0] == 200


# ---- bad JSON, strict fields -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[" * 33 + b"]" * 33, "the request nests lists and objects deeper than 32"),
        (b"[" * 100_000, "the request nests lists and objects deeper than 32"),
        (
            b'{"board": "x", "stars": 1234567890123456789}',
            "the request holds an integer of 19 digits: at most 18 allowed",
        ),
        (b'{"board": "x", "stars": 1' + b"0" * 5000 + b"}", "the request holds an integer of 5001"),
        (b'{"board": "x", "timeout": NaN}', "the request holds NaN, which is no JSON number"),
        (b'{"board": "x", "timeout": -Infinity}', "the request holds -Infinity, which is no JSON"),
        (b'{"board": "x", "timeout": 1e999}', "the request holds the number 1e999, too large"),
        (b"{not json", "the request is not JSON: Expecting property name"),
    ],
    ids=["deep", "deeper", "19-digits", "5001-digits", "nan", "infinity", "1e999", "no-json"],
)
def test_bad_json_is_400(server, body, message):
    status, answer = exchange(
        server, "POST", "/api/solve", body, {"Content-Type": "application/json"}
    )
    assert status == 400
    assert answer["error"].startswith(message)


def test_nesting_the_page_uses_is_fine(server):
    marks = {"stars": [[1, 2]], "blanks": [[1, 1]]}
    assert post(server, "check", {"board": URL, "marks": marks})[0] == 200


@pytest.mark.parametrize(
    ("command", "payload", "message"),
    [
        (
            "hint",
            {"board": URL, "mark": {"stars": []}},
            'unknown field "mark" for hint (did you mean "marks"?): '
            "hint takes board, from, stars, givens, timeout, marks",
        ),
        (
            "solve",
            {"board": URL, "cuont": True},
            'unknown field "cuont" for solve (did you mean "count"?): '
            "solve takes board, from, stars, givens, timeout, models, count, fixed",
        ),
        (
            "generate",
            {"size": 6, "zzz": 1},
            'unknown field "zzz" for generate: generate takes size, stars, seed, tier, '
            "attempts, timeout",
        ),
        (
            "check",
            {"board": URL, "marks": {"star": [[1, 2]]}},
            'unknown field "star" in "marks" (did you mean "stars"?): "marks" takes stars, blanks',
        ),
        ("solve", {"board": URL, "count": "yes"}, '"count" must be true or false, not "yes"'),
        ("solve", {"board": URL, "fixed": 1}, '"fixed" must be true or false, not 1'),
        ("solve", {"board": URL, "models": 0}, '"models" must be 1 to 100'),
        ("solve", {"board": URL, "givens": "false"}, '"givens" must be true or false, not "false"'),
        (
            "check",
            {"board": URL, "against_solution": "no"},
            '"against_solution" must be true or false, not "no"',
        ),
        ("check", {"board": URL, "answer": 5}, '"answer" must be a string, not 5'),
        ("convert", {"board": URL, "to": ["png"]}, '"to" must be a string, not ["png"]'),
        ("generate", {"seed": [1]}, '"seed" must be a string or an integer, not [1]'),
        (
            "board",
            {"board": URL, "timeout": 61},
            '"timeout" must be more than 0 and at most 60 seconds',
        ),
    ],
)
def test_unknown_and_mistyped_fields_are_400(server, command, payload, message):
    assert post(server, command, payload) == (400, {"error": message})


@pytest.mark.parametrize("command", list(api.COMMANDS))
def test_every_command_refuses_an_unknown_field(server, command):
    status, answer = post(server, command, {"bogus": 1})
    assert status in (400, 501)
    if status == 400:
        assert answer["error"].startswith(f'unknown field "bogus" for {command}: {command} takes ')


def test_an_unknown_command_is_404_listing_the_commands(server):
    status, answer = post(server, "solv", {"board": URL})
    assert (status, answer) == (
        404,
        {
            "error": "no API command 'solv' (did you mean \"solve\"?): use one of solve, check, "
            "board, convert, generate, hint, explain, grade, import, daily, verdict, suggest"
        },
    )


@pytest.mark.parametrize(
    ("command", "payload", "message"),
    [
        (
            "solve",
            {"board": "AAB\nAAB\nCCC\n"},
            "the picture does not say how many stars: add a first line 'stars: S' or pass "
            '"stars": S',
        ),
        (
            "solve",
            {"board": "stars: 1\nAAB\nAAB\nCCC\n", "givens": True},
            '"givens": true reads the answer block of a pzprv3 file; this input is txt, whose '
            "givens are read anyway",
        ),
        (
            "generate",
            {"size": 3, "stars": 2},
            "2 stars per row cannot fit a 3x3 board without touching (at most 1): use a larger "
            "board or fewer stars",
        ),
    ],
)
def test_library_messages_name_api_fields_not_options(server, command, payload, message):
    assert post(server, command, payload) == (400, {"error": message})


@pytest.mark.parametrize(
    ("message", "wording"),
    [
        (
            "cannot read the board from the image: no grid (check it with --debug-image "
            "FILE.png, or pass --size N / --stars S)",
            'cannot read the board from the image: no grid (pass "size": N / "stars": S)',
        ),
        (
            "puzzle 1 could not be made in 5 s: raise --timeout, lower --min-region, or try "
            "another size or star count",
            'puzzle 1 could not be made in 5 s: raise "timeout", or try another size or star count',
        ),
        (
            "none of 50 generated puzzles was hard: raise --attempts, widen the score range, or "
            "ask another tier",
            'none of 50 generated puzzles was hard: raise "attempts", or ask another tier',
        ),
        ("a count: -n 0 or -s 2, or --count", 'a count: "models" 0 or "stars" 2, or "count": true'),
        ("mid-word -s-x and --unknown-flag stay", "mid-word -s-x and --unknown-flag stay"),
    ],
)
def test_api_wording_of_library_messages(message, wording):
    assert api.api_wording(message) == wording


# ---- the command: --host, a screenshot, Ctrl-C -----------------------------------------------


def serve_process(*arguments: str) -> tuple[subprocess.Popen, str]:
    """`starbattle-asp serve ARGUMENTS --port 0` in its own process, and its page's address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "starbattle", "serve", *arguments, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    assert line.startswith("serving http://"), line + process.stderr.read()
    return process, line.split()[1]


def descendants(pid: int) -> list[int]:
    """Every process below this one (Linux /proc)."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        found += [int(child), *descendants(int(child))]
    return found


def running_process(pid: int) -> bool:
    """Whether a process exists and is not a zombie (one that ended, waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_ctrl_c_while_a_worker_computes_exits_130_and_ends_every_worker():
    process, url = serve_process()
    try:
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        client = socket.create_connection((host, int(port)))
        body = json.dumps(ENDLESS).encode()
        client.sendall(
            b"POST /api/solve HTTP/1.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        wait_for(lambda: json.loads(request(f"{url}api/status")[1])["busy"] == 1)
        below = descendants(process.pid)
        assert len(below) >= 5  # the forkserver and its 4 workers (and a resource tracker)
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 130
        assert process.stderr.read() == ""
        wait_for(lambda: not any(map(running_process, below)), seconds=10)
        client.close()
    finally:
        process.kill()
        process.wait()


@pytest.mark.slow
def test_a_host_other_machines_reach_is_warned_about():
    process, url = serve_process("--host", "0.0.0.0")
    try:
        assert url.startswith("http://0.0.0.0:")
        assert process.stderr.readline() == (
            "starbattle-asp: warning: listening on 0.0.0.0: anyone who can reach this machine "
            "can use the page and its solver (--host 127.0.0.1 keeps it local)\n"
        )
        port = url.rstrip("/").rsplit(":", 1)[1]
        assert request(f"http://127.0.0.1:{port}/api/start")[0] == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 130
    finally:
        process.kill()
        process.wait()


def test_ipv6_loopback_is_served():
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")
    server = StarBattleServer(("::1", 0), workers=1, most_workers=1)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.start()
    try:
        assert server.url == f"http://[::1]:{server.server_address[1]}/"
        assert server.local
        status, body, _ = request(f"{server.url}api/solve", json.dumps({"board": URL}).encode())
        assert (status, json.loads(body)["records"][-1]["unique"]) == (200, True)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.mark.slow
def test_serve_a_screenshot_starts_with_the_board_it_shows():
    manifest = SHARED / "corpus" / "screenshots" / "manifest.jsonl"
    if not manifest.is_file():
        pytest.skip(f"the shared corpus is not here: {manifest}")
    if not api.available(api.OPTIONAL["import"]):
        pytest.skip("the image reader is not installed")
    shot = json.loads(manifest.read_text().splitlines()[0])
    process, url = serve_process(str(manifest.parent / shot["file"]))
    try:
        start = json.loads(json.loads(request(f"{url}api/start")[1])["board"])
        assert (start["stars"], start["regions"]) == (shot["stars"], shot["regions"])
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 130
    finally:
        process.kill()
        process.wait()
