"""Load test of `starbattle-asp serve` on loopback: concurrent players on real 10x10 2★ puzzles.

    python benchmarks/web_load.py [--clients 50] [--seconds 100] [--think 0.5] [--stoppers 0.1]
                                  [--quick]

Starts the server in its own process on 127.0.0.1 (any free port), then runs `--clients`
threads for `--seconds`, each a player on keep-alive connections: pick a corpus puzzle
(../shared/corpus/real-puzzles.jsonl, 10x10 2★, unique), send hint, solve or check (the
player's marks: part of the solution, sometimes one wrong star), wait for the answer, think
a random 0 to 2 * `--think` seconds, again. Every answer is checked: 200, the records a
correct answer holds (the solution the corpus gives, a check that agrees with the marks); a
few requests first warm the server up (imports), not counted. Reports per command:
requests, median, p95, max latency; errors; and the server's resident memory (RSS) every
5 s, compared between the end of the first minute and the end.

A share of the players (`--stoppers`, 10 % by default) are impatient instead: each starts
an expensive count (20 regions that are the rows: no time limit is enough), waits 0.2 to 2 s
and presses Stop (hangs up, as the page's Stop does), again and again; the server must end
each such worker while the others' hints stay quick. The section between the web-stop
markers of benchmarks/RESULTS.md (the web markers without stoppers) is replaced (not with
--quick).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import descendants, write_section

ROOT = Path(__file__).resolve().parent.parent
ENDLESS = "stars: 1\n" + "\n".join(chr(ord("A") + k) * 20 for k in range(20)) + "\n"
"""20 regions that are the rows: counting its solutions outlasts any time limit."""
CORPUS = ROOT.parent / "shared" / "corpus" / "real-puzzles.jsonl"


def puzzles(limit: int) -> list[dict]:
    """Unique 10x10 2★ corpus puzzles with their solution's stars."""
    found = []
    with CORPUS.open() as lines:
        for line in lines:
            record = json.loads(line)
            grid = record.get("solution") or record.get("solver_solution")
            if (record["n"], record["stars"], record["solution_count"]) == (10, 2, 1) and grid:
                stars = [
                    [r, c]
                    for r, row in enumerate(grid, 1)
                    for c, mark in enumerate(row, 1)
                    if mark == "*"
                ]
                board = json.dumps({"stars": 2, "regions": record["regions"]})
                found.append({"board": board, "stars": stars})
    random.Random(16).shuffle(found)
    return found[:limit]


def start_server() -> tuple[subprocess.Popen, str, int]:
    """The server in its own process: the process, its host and its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "starbattle", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    address = process.stdout.readline().split()[1]  # serving http://127.0.0.1:PORT/ ...
    host, port = address.removeprefix("http://").rstrip("/").split(":")
    return process, host, int(port)


def rss_mib(pid: int) -> float:
    """The resident memory in MiB of a process and every process below it (Linux /proc)."""
    total = 0
    for process in (pid, *descendants(pid)):
        try:
            for line in Path(f"/proc/{process}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:  # a worker that ended meanwhile
            pass
    return total / 1024


class Load:
    """The players' shared tally: latencies per command and errors."""

    def __init__(self, host: str, port: int, commands: list[str], cases: list[dict]) -> None:
        self.host, self.port, self.commands, self.cases = host, port, commands, cases
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.stops = 0
        self.lock = threading.Lock()

    def ask(self, connection: http.client.HTTPConnection, command: str, payload: dict) -> dict:
        """POST one request and return its JSON answer (recording its latency)."""
        body = json.dumps(payload)
        started = time.perf_counter()
        connection.request("POST", f"/api/{command}", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        elapsed = time.perf_counter() - started
        if response.status != 200:
            raise AssertionError(f"{command}: HTTP {response.status}: {answer}")
        with self.lock:
            self.latencies[command].append(elapsed)
        return answer

    def one(self, connection: http.client.HTTPConnection, rng: random.Random) -> None:
        """One request of a random command on a random puzzle, its answer verified."""
        case = rng.choice(self.cases)
        command = rng.choice(self.commands)
        solution = case["stars"]
        marks = {"stars": rng.sample(solution, rng.randint(0, 6)), "blanks": []}
        wrong = rng.random() < 0.3
        if wrong:
            off = [[r, c] for r in range(1, 11) for c in range(1, 11) if [r, c] not in solution]
            marks["stars"].append(rng.choice(off))
        if command == "solve":
            records = self.ask(connection, "solve", {"board": case["board"]})["records"]
            if records[0]["stars"] != solution or records[-1]["unique"] is not True:
                raise AssertionError("solve: not the corpus solution")
        elif command == "check":
            payload = {"board": case["board"], "marks": marks, "against_solution": True}
            (record,) = self.ask(connection, "check", payload)["records"]
            if record["extendable"] == wrong or (wrong and record["first_wrong"] is None):
                raise AssertionError(f"check: wrong verdict {record}")
        else:
            records = self.ask(connection, "hint", {"board": case["board"], "marks": marks})
            if wrong and records["records"] and records["records"][0]["level"] != 0:
                raise AssertionError("hint: a wrong star was not the first thing said")

    def player(self, until: float, think: float, seed: int) -> None:
        """Play until the deadline on one keep-alive connection."""
        rng = random.Random(seed)
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        while time.perf_counter() < until:
            try:
                self.one(connection, rng)
            except Exception as error:  # every failure is counted, then the player goes on
                with self.lock:
                    self.errors.append(f"{type(error).__name__}: {error}"[:200])
                connection.close()
                connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
            time.sleep(rng.uniform(0, 2 * think))
        connection.close()

    def stopper(self, until: float, seed: int) -> None:
        """Start an expensive count, press Stop (hang up) a moment later, again until the end."""
        rng = random.Random(seed)
        body = json.dumps({"board": ENDLESS, "count": True, "timeout": 30})
        while time.perf_counter() < until:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
            try:
                connection.request("POST", "/api/solve", body, {"Content-Type": "application/json"})
                time.sleep(rng.uniform(0.2, 2.0))
            except Exception as error:  # the request could not even be sent
                with self.lock:
                    self.errors.append(f"stop: {type(error).__name__}: {error}"[:200])
            finally:
                connection.close()  # Stop: the server must end the count's worker
            with self.lock:
                self.stops += 1


def status(host: str, port: int) -> dict:
    """The server's worker pool: workers, busy, waiting, ended."""
    with urllib.request.urlopen(f"http://{host}:{port}/api/status") as answer:
        return json.loads(answer.read())


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=100)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time (s)")
    parser.add_argument("--stoppers", type=float, default=0.1, help="share pressing Stop")
    parser.add_argument("--quick", action="store_true", help="10 clients, 15 s, no RESULTS.md")
    options = parser.parse_args()
    if options.quick:
        options.clients, options.seconds = 10, 15
    if not CORPUS.is_file():
        sys.exit(f"the corpus is missing: {CORPUS}")
    cases = puzzles(300)
    process, host, port = start_server()
    try:
        commands = ["hint", "solve", "check"]
        load = Load(host, port, commands, cases)
        warm = http.client.HTTPConnection(host, port, timeout=120)
        for _ in range(3 * len(commands)):  # imports and first groundings, not counted
            load.one(warm, random.Random(0))
        warm.close()
        load.latencies.clear()
        started = time.perf_counter()
        until = started + options.seconds
        impatient = round(options.clients * options.stoppers)
        players = [
            threading.Thread(target=load.player, args=(until, options.think, k))
            for k in range(options.clients - impatient)
        ] + [threading.Thread(target=load.stopper, args=(until, k)) for k in range(impatient)]
        for thread in players:
            thread.start()
        memory: list[tuple[float, float]] = []
        while any(thread.is_alive() for thread in players):
            memory.append((time.perf_counter() - started, rss_mib(process.pid)))
            time.sleep(5)
        for thread in players:
            thread.join()
        elapsed = time.perf_counter() - started
        settled = time.perf_counter()
        while status(host, port)["busy"] and time.perf_counter() - settled < 10:
            time.sleep(0.01)
        pool = {**status(host, port), "idle after": time.perf_counter() - settled}
    finally:
        process.terminate()
        process.wait(10)
    report(options, load, memory, elapsed, len(cases), impatient, pool)


def report(
    options: argparse.Namespace,
    load: Load,
    memory: list,
    elapsed: float,
    puzzles_used: int,
    impatient: int,
    pool: dict,
) -> None:
    """Print the tables and write the RESULTS.md section."""
    total = sum(len(v) for v in load.latencies.values())
    rows = [
        "| command | requests | median ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for command in sorted(load.latencies):
        values = load.latencies[command]
        rows.append(
            f"| {command} | {len(values)} | {statistics.median(values) * 1000:.0f} | "
            f"{percentile(values, 95) * 1000:.0f} | {max(values) * 1000:.0f} |"
        )
    minute = [rss for at, rss in memory if at <= 60]
    after = [rss for at, rss in memory if at > 60]
    growth = (
        f"{max(after) - minute[-1]:+.1f} MiB after the first minute "
        f"(RSS at 60 s {minute[-1]:.1f} MiB, highest after {max(after):.1f} MiB, "
        f"at the end {after[-1]:.1f} MiB)"
        if minute and after
        else "run shorter than a minute: no growth measured"
    )
    samples = ", ".join(f"{at:.0f} s {rss:.0f}" for at, rss in memory)
    marker = "web-stop" if impatient else "web"
    stoppers = (
        f"\n{impatient} of the {options.clients} players press Stop instead: each starts a count"
        " that no time limit is enough for (20 regions that are the rows), hangs up after 0.2"
        f" to 2 s, again: {load.stops} counts stopped; the server ended {pool['ended']}"
        f" workers in all, and every worker was idle {pool['idle after']:.2f} s after the last"
        " player stopped.\n"
        if impatient
        else ""
    )
    section = f"""<!-- {marker}: begin -->
## Web server load{" with Stop" if impatient else ""} (`benchmarks/web_load.py`)

`{" ".join(["python", "benchmarks/web_load.py", *sys.argv[1:]])}`:
{options.clients - impatient} concurrent players on 127.0.0.1 for {elapsed:.0f} s, each on a
keep-alive connection: a random request, its answer verified, then a random think time of 0 to
{2 * options.think:g} s. {puzzles_used} unique 10x10 2★ corpus puzzles; marks are part of
the solution, with one wrong star in 30 % of requests. Server: `starbattle-asp serve` in its
own process, its forkserver and solver workers (4 kept ready; RSS: the sum of all); Python
{platform.python_version()}, 2 cores shared with other work (load average {os.getloadavg()[0]:.1f}
at the end).
{stoppers}
{chr(10).join(rows)}

{total} requests ({total / elapsed:.0f}/s), **{len(load.errors)} errors**.

Memory (server RSS, MiB, every 5 s): {samples}.
Growth: {growth}.
<!-- {marker}: end -->"""
    print(section)
    if load.errors:
        print("first errors:", *load.errors[:5], sep="\n  ")
    if not options.quick:
        write_section(f"<!-- {marker}: begin -->", f"<!-- {marker}: end -->", section)


if __name__ == "__main__":
    main()
