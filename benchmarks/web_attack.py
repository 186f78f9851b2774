"""Attacks on `starbattle-asp serve` (issue 29): abandoned expensive work, dying workers, forgery.

    python benchmarks/web_attack.py [--clients 20] [--seconds 30] [--hold 3] [--deaths 200]

Starts the server in its own process on 127.0.0.1 (any free port), then measures:

1. Attack: `--clients` attackers for `--seconds`, each in a loop: start an expensive request
   ("timeout": 60: a count of an open 25x25 board, generate 25x25 6★ extreme, explain of the
   shipped 21x21 5★), hang up after 0.5 to 1.5 times `--hold` seconds, start again.
   Meanwhile a probe asks a cheap request every 0.2 s on a fresh connection (solve, and hint
   when installed, of the shipped 10x10 2★): status and latency (median, p95, max). After
   the attack: the time until GET /api/status says no worker is busy; the peak number of
   workers and the memory (PSS) of the server and all its processes.
2. Hang-up to idle: 10 times on a quiet server, one expensive request, hang up after 1 s,
   poll /api/status every 5 ms: the time until no worker is busy (its worker ended).
3. Deaths: `--deaths` requests whose worker ends while grounding (a 52x52 board, "timeout":
   0.001), 8 at a time; then a normal request (status, latency) and the pool's state.
4. Forgery: a cross-origin text/plain POST, a foreign Origin, a foreign Host: statuses.
5. Replacement: an in-process pool (no HTTP): a worker ended, the time until its
   replacement is started, then until it answers; a first solve on a fresh worker.

Prints the numbers and whether each target holds (cheap answers within 1 s throughout,
workers idle within 1 s of their client leaving, 200 after the deaths, 403/415 for forgery);
exits 1 if one does not.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import string
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import descendants

ROOT = Path(__file__).resolve().parent.parent
TEN = (ROOT / "instances" / "generated-10x10-2star.lp").read_text()
HARD = (ROOT / "instances" / "generated-21x21-5star.lp").read_text()


def rows_board(size: int) -> str:
    """`size` regions that are the rows, 1 star: an open board with countless solutions."""
    labels = string.ascii_uppercase + string.ascii_lowercase
    return "stars: 1\n" + "\n".join(labels[k] * size for k in range(size)) + "\n"


EXPENSIVE = [
    ("solve", {"board": rows_board(25), "count": True, "timeout": 60}),
    ("generate", {"size": 25, "stars": 6, "tier": "extreme", "timeout": 60}),
    ("explain", {"board": HARD, "timeout": 60}),
]
GROUNDING = {"board": rows_board(52), "timeout": 0.001}


class Server:
    """`starbattle-asp serve --port 0` in its own process, and requests to it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "starbattle", "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            text=True,
        )
        address = self.process.stdout.readline().split()[1]  # serving http://HOST:PORT/ ...
        host, port = address.removeprefix("http://").rstrip("/").split(":")
        self.host, self.port = host, int(port)

    def ask(
        self,
        method: str,
        path: str,
        payload: Any = None,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
    ) -> tuple[int, Any, float]:
        """One request on a fresh connection: status, JSON answer, seconds."""
        if payload is not None:
            body = json.dumps(payload).encode()
            headers = {"Content-Type": "application/json", **(headers or {})}
        started = time.perf_counter()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            connection.request(method, path, body, headers or {})
            response = connection.getresponse()
            answer = json.loads(response.read())
        finally:
            connection.close()
        return response.status, answer, time.perf_counter() - started

    def status(self) -> dict[str, int]:
        """GET /api/status."""
        return self.ask("GET", "/api/status")[1]

    def start(self, command: str, payload: dict) -> socket.socket:
        """A raw client that has sent a request (close it to hang up)."""
        body = json.dumps(payload).encode()
        client = socket.create_connection((self.host, self.port))
        client.sendall(
            f"POST /api/{command} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        return client

    def until_idle(self, seconds: float = 30.0) -> float:
        """Seconds until no worker is busy (polled every 5 ms)."""
        started = time.perf_counter()
        while self.status()["busy"] and time.perf_counter() - started < seconds:
            time.sleep(0.005)
        return time.perf_counter() - started

    def memory_mib(self) -> float:
        """The proportional memory (PSS, MiB) of the server and every process below it."""
        total = 0
        for pid in (self.process.pid, *descendants(self.process.pid)):
            try:
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
            except (FileNotFoundError, ProcessLookupError):
                pass
        return total / 1024

    def stop(self) -> None:
        """End the server."""
        self.process.terminate()
        self.process.wait(10)


def summary(values: list[float]) -> str:
    """Median, p95 and max of seconds, in ms."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return (
        f"median {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms"
    )


def attack(server: Server, clients: int, seconds: float, hold: float) -> list[bool]:
    """Phase 1: attackers that hang up, a probe of cheap requests; the targets' verdicts."""
    features = server.ask("GET", "/api/features")[1]
    cheap = [("solve", {"board": TEN})]
    if features["hint"]:
        cheap.append(("hint", {"board": TEN, "marks": {"stars": [], "blanks": []}}))
    for command, payload in cheap:  # warm up: imports and first groundings, not counted
        server.ask("POST", f"/api/{command}", payload)
    stop = threading.Event()
    started_requests = [0]

    def attacker(seed: int) -> None:
        """Start expensive work, hang up, again."""
        rng = random.Random(seed)
        while not stop.is_set():
            command, payload = rng.choice(EXPENSIVE)
            if command == "generate":
                payload = {**payload, "seed": str(rng.random())}
            client = server.start(command, payload)
            started_requests[0] += 1
            stop.wait(rng.uniform(0.5, 1.5) * hold)
            client.close()

    latencies: dict[str, list[float]] = {command: [] for command, _ in cheap}
    failures: list[str] = []
    peaks = {"workers": 0, "busy": 0, "waiting": 0, "memory": 0.0}
    threads = [threading.Thread(target=attacker, args=(k,)) for k in range(clients)]
    for thread in threads:
        thread.start()
    begin = time.perf_counter()
    turn = 0
    while time.perf_counter() - begin < seconds:
        command, payload = cheap[turn % len(cheap)]
        turn += 1
        status, answer, took = server.ask("POST", f"/api/{command}", payload)
        latencies[command].append(took)
        if status != 200:
            failures.append(f"{command}: {status} {answer}")
        if turn % 5 == 0:
            state = server.status()
            for key in ("workers", "busy", "waiting"):
                peaks[key] = max(peaks[key], state[key])
            peaks["memory"] = max(peaks["memory"], server.memory_mib())
        time.sleep(0.2)
    stop.set()
    for thread in threads:
        thread.join()
    idle = server.until_idle()
    every = [took for values in latencies.values() for took in values]
    print(
        f"1. attack: {clients} clients, {seconds:g} s, hanging up after {hold * 0.5:g}-"
        f"{hold * 1.5:g} s: {started_requests[0]} expensive requests started"
    )
    for command, values in latencies.items():
        print(f"   cheap {command} of the 10x10 2★: {len(values)} answered, {summary(values)}")
    print(f"   failures: {len(failures)} {failures[:3]}")
    print(
        f"   peak: {peaks['workers']} workers, {peaks['busy']} busy, {peaks['waiting']} waiting, "
        f"{peaks['memory']:.0f} MiB (PSS, server and all its processes)"
    )
    print(f"   every worker idle {idle * 1000:.0f} ms after the last client hung up")
    return [not failures and max(every) < 1.0, idle < 1.0]


def hang_ups(server: Server, times: int = 10) -> list[bool]:
    """Phase 2: one expensive request at a time, hung up after 1 s: time to idle."""
    waits = []
    count, explanation = EXPENSIVE[0], EXPENSIVE[2]
    for k in range(times):
        client = server.start(*(count if k % 2 else explanation))
        while not server.status()["busy"]:
            time.sleep(0.005)
        time.sleep(1)
        before = time.perf_counter()
        client.close()
        server.until_idle()
        waits.append(time.perf_counter() - before)
    print(f"2. hang-up to idle worker ({times} times, count and explain): {summary(waits)}")
    return [max(waits) < 1.0]


def deaths(server: Server, count: int) -> list[bool]:
    """Phase 3: requests whose worker ends while grounding; then a normal request."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    todo = list(range(count))
    before = server.status()["ended"]
    started = time.perf_counter()

    def client() -> None:
        """Send grounding deaths until none are left."""
        while True:
            with lock:
                if not todo:
                    return
                todo.pop()
            status = server.ask("POST", "/api/solve", GROUNDING)[0]
            with lock:
                statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - started
    status, _, latency = server.ask("POST", "/api/solve", {"board": TEN})
    state = server.status()
    print(
        f"3. {count} grounding deaths in {took:.1f} s ({took / count * 1000:.0f} ms each, "
        f"8 at a time): statuses {statuses}, workers ended {state['ended'] - before}; then "
        f"solve: {status} in {latency * 1000:.0f} ms; pool {state}"
    )
    return [statuses == {504: count}, status == 200, state["busy"] == state["waiting"] == 0]


def forgery(server: Server) -> list[bool]:
    """Phase 4: requests another web page could send."""
    body = json.dumps({"board": TEN}).encode()
    evil = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    cross_site = server.ask("POST", "/api/solve", body=body, headers=evil)[0]
    plain = server.ask("POST", "/api/solve", body=body, headers={"Content-Type": "text/plain"})[0]
    origin = server.ask("POST", "/api/solve", {"board": TEN}, {"Origin": "http://evil.example"})[0]
    host = server.ask("GET", "/api/start", headers={"Host": f"evil.example:{server.port}"})[0]
    print(
        f"4. cross-origin text/plain POST: {cross_site}; text/plain POST: {plain}; "
        f"foreign Origin: {origin}; foreign Host: {host}"
    )
    return [cross_site in (403, 415), plain == 415, origin == 403, host == 403]


def replacement(times: int = 20) -> list[bool]:
    """Phase 5: a worker ended, its replacement started and answering (in-process pool)."""
    from starbattle.web import api
    from starbattle.web.workers import WorkerEnded, WorkerPool

    pool = WorkerPool(1, 1, 1)
    try:
        pool.call(pow, (2, 2), 10)
        started, ready, fresh, warm = [], [], [], []
        for _ in range(times):
            before = time.perf_counter()
            with contextlib.suppress(WorkerEnded):
                pool.call(os._exit, (3,), 10)
            middle = time.perf_counter()
            pool.call(pow, (2, 2), 10)
            ready.append(time.perf_counter() - middle)
            started.append(middle - before)
        for _ in range(times // 2):
            with contextlib.suppress(WorkerEnded):
                pool.call(os._exit, (3,), 10)
            before = time.perf_counter()
            pool.call(api.answered, ("solve", {"board": TEN}), 10)
            fresh.append(time.perf_counter() - before)
            before = time.perf_counter()
            pool.call(api.answered, ("solve", {"board": TEN}), 10)
            warm.append(time.perf_counter() - before)
    finally:
        pool.close()
    print(f"5. a worker's death seen, reaped and its replacement started: {summary(started)}")
    print(f"   then the replacement answers a first trivial job: {summary(ready)}")
    print(f"   solve of the 10x10 on a fresh worker: {summary(fresh)}; warm: {summary(warm)}")
    return [max(a + b for a, b in zip(started, ready, strict=True)) < 0.5]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--hold", type=float, default=3, help="mean seconds before hanging up")
    parser.add_argument("--deaths", type=int, default=200)
    options = parser.parse_args()
    print(f"{os.cpu_count()} cores; python {sys.version.split()[0]}")
    server = Server()
    try:
        verdicts = attack(server, options.clients, options.seconds, options.hold)
        verdicts += hang_ups(server)
        verdicts += deaths(server, options.deaths)
        verdicts += forgery(server)
    finally:
        server.stop()
    verdicts += replacement()
    print("targets:", "all met" if all(verdicts) else f"NOT met: {verdicts}")
    sys.exit(0 if all(verdicts) else 1)


if __name__ == "__main__":
    main()
