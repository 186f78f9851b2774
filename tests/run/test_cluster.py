"""Collections on a Dask cluster: same outcomes as one process, faults, Ctrl-C, generation."""

from __future__ import annotations

import http.server
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from functools import cache, partial
from pathlib import Path

import pytest
from distributed import Client, LocalCluster
from helpers import CORPUS, INSTANCES, corpus_sample, needs_corpus, start

from starbattle.errors import ClusterError
from starbattle.exits import Verdict
from starbattle.io.formatters.base import Formatter
from starbattle.io.formatters.jsonl import JsonFormatter
from starbattle.io.formatters.text import TextFormatter
from starbattle.io.inputs import Record, records
from starbattle.io.output import Output
from starbattle.logic.generate import GenerateTimeout, canonical, generate, make_puzzle
from starbattle.model.checker import check
from starbattle.model.values import Message, Outcome
from starbattle.run.batch import run_all
from starbattle.run.cluster import LOCAL_PER_CORE, run_on_cluster
from starbattle.run.service import Item, SolveRequest, solve_all

SECONDS = re.compile(r'"seconds": [0-9.e-]+|\([0-9.]+ s\)')
WORK = partial(solve_all, SolveRequest())
LAB = CORPUS / "starbattlelab" / "10x10-2star.sbn"

pytestmark = pytest.mark.slow  # each test starts a Dask cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """A scheduler and 2 worker processes on this machine, reached by address."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local


def printed(
    runs: Iterable[list[Item]], found: list[Record], formatter: type[Formatter] = JsonFormatter
) -> tuple[list[str], list[Message], list[Outcome]]:
    """What a run prints (timings blanked), its messages for stderr and its outcomes."""
    show = formatter(Output(), collection=True)  # formatters return text: nothing is written
    kept: list[str] = []
    messages, outcomes = [], []
    for record, items in zip(found, runs, strict=True):  # strict: nothing lost
        kept += [piece for piece in show.begin(record.identifier) if isinstance(piece, str)]
        for item in items:
            if isinstance(item, Message):
                messages.append(item)
            else:
                kept += [piece for piece in show.format(item) if isinstance(piece, str)]
            if isinstance(item, Outcome):
                outcomes.append(item)
    return [SECONDS.sub("<t>", line) for line in kept], messages, outcomes


@cache
def lab_file(count: int) -> list[Record]:
    """The first puzzles of the StarBattleLab 10x10 2★ file, as records."""
    return records(str(LAB))[:count]


@needs_corpus
def test_a_local_cluster_prints_what_one_process_prints(tmp_path: Path) -> None:
    lines = [json.dumps(record) for record in corpus_sample(per_group=1)[:30]]
    lines.insert(3, '{"id": "broken", "stars": 1, "regions": ["AB", "A"]}')
    lines.insert(7, '{"id": "crowded", "stars": 2, "regions": ["AABB", "AABB", "CCDD", "CCDD"]}')
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    found = records(str(path))
    expected = printed(map(WORK, found), found)
    got = printed(run_on_cluster(WORK, found, "local:2", chunk=4), found)
    assert got == expected
    verdicts = [outcome.verdict for outcome in got[2]]
    assert verdicts[3] is verdicts[7] is Verdict.ERROR and verdicts.count(Verdict.ERROR) == 2
    assert Verdict.NOT_UNIQUE in verdicts and Verdict.UNIQUE in verdicts
    assert [message.kind for message in got[1]].count("error") == 2
    boards = {record.identifier: record for record in found}
    solutions = [json.loads(line) for line in got[0] if '"type": "solution"' in line]
    assert len(solutions) >= 28
    for solution in solutions:
        board = boards[solution["id"]].board()
        assert check(board, [tuple(cell) for cell in solution["stars"]]) == []


@needs_corpus
@pytest.mark.slow
def test_a_worker_killed_mid_chunk_loses_and_repeats_nothing(cluster: LocalCluster) -> None:
    found = lab_file(160)
    expected = printed(map(WORK, found), found, TextFormatter)
    with Client(cluster) as watcher:
        pids = watcher.run(os.getpid)
        runs, killed = [], None
        for items in run_on_cluster(WORK, found, cluster.scheduler_address, chunk=16):
            runs.append(items)
            while killed is None:
                busy = [worker for worker, keys in watcher.processing().items() if keys]
                if busy:
                    killed = pids[busy[0]]
                    os.kill(killed, signal.SIGKILL)
        assert killed not in watcher.run(os.getpid).values()  # its nanny started another
    assert printed(runs, found, TextFormatter) == expected


def test_an_unreachable_scheduler_is_one_line_quickly() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"  # nobody listens once closed
    started = time.perf_counter()
    with pytest.raises(ClusterError) as caught:
        next(run_on_cluster(str, ["a"], address, timeout=1))
    assert time.perf_counter() - started < 10
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"cannot reach a Dask scheduler at {address}")
    assert "dask scheduler" in message


@pytest.mark.parametrize("address", ["local:0", "local:two"])
def test_a_bad_local_worker_count_is_refused(address: str) -> None:
    with pytest.raises(ClusterError, match="local:2"):
        next(run_on_cluster(str, ["a"], address))


def test_without_dask_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(ClusterError, match=re.escape("pip install 'starbattle-asp[cluster]'")):
        next(run_on_cluster(str, ["a"], "local:1"))


def test_too_many_local_workers_are_refused_before_any_starts() -> None:
    cores = os.cpu_count() or 1
    with pytest.raises(ClusterError) as caught:
        next(run_on_cluster(str, ["a"], "local:100000"))
    assert str(caught.value) == (
        f"cluster address 'local:100000': at most {LOCAL_PER_CORE * cores} local workers "
        f"({LOCAL_PER_CORE} per core) run here, each a process; local:{cores} uses every core, "
        "and a Dask scheduler (tcp://HOST:8786) reaches other machines"
    )


def listening(answer: Callable[[socket.socket], object]) -> str:
    """The address of a TCP server on this machine that hands each connection to `answer`."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            connection, _ = server.accept()
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}"


def web_server() -> str:
    """The address of a plain HTTP server (as a dashboard's port given by mistake)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"tcp://127.0.0.1:{server.server_address[1]}"


def silent(connection: socket.socket) -> None:
    """Take a connection and never answer."""
    time.sleep(60)


def banner(connection: socket.socket) -> None:
    """Answer as another protocol does (an SSH server)."""
    connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")


ENDPOINTS = {
    "silent": (
        lambda: listening(silent),
        "it took the connection but gave no Dask greeting in 1 s",
    ),
    "http": (web_server, "it took the connection but gave no Dask greeting in 1 s"),
    "closes": (
        lambda: listening(socket.socket.close),
        "it closed the connection without a Dask greeting",
    ),
    "banner": (lambda: listening(banner), "it answered, but not as Dask does"),
}
NOT_A_SCHEDULER = (
    "give the scheduler's address, tcp://HOST:8786 by default (its dashboard is at :8787)"
)


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_endpoint_that_is_no_scheduler_is_one_line_within_the_timeout(endpoint: str) -> None:
    serve, why = ENDPOINTS[endpoint]
    address = serve()
    started = time.perf_counter()
    with pytest.raises(ClusterError) as caught:
        next(run_on_cluster(str, ["a"], address, timeout=1))
    assert time.perf_counter() - started < 10  # it waited forever before
    assert str(caught.value) == f"{address} is not a Dask scheduler ({why}): {NOT_A_SCHEDULER}"


@needs_corpus
def test_the_command_gives_up_on_a_silent_endpoint_in_its_10_seconds(tmp_path: Path) -> None:
    address = listening(silent)
    collection = tmp_path / "two.sbn"
    collection.write_text("\n".join(LAB.read_text().splitlines()[:2]) + "\n")
    started = time.perf_counter()
    child = start(["solve", str(collection), "--cluster", address])
    _, err = child.communicate(timeout=120)
    assert time.perf_counter() - started < 60  # 10 s and the start; it hung forever before
    assert child.returncode == 2
    assert err == (
        f"starbattle-asp: error: {address} is not a Dask scheduler (it took the connection but "
        f"gave no Dask greeting in 10 s): {NOT_A_SCHEDULER}\n"
    )


def dask(command: str, *args: str) -> subprocess.Popen:
    """Start `dask scheduler` or `dask worker` quietly, in a process group of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", f"distributed.cli.dask_{command}", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@needs_corpus
def test_a_scheduler_killed_mid_run_is_one_line_after_the_summary_of_what_finished(
    tmp_path: Path,
) -> None:
    collection = tmp_path / "lab.sbn"
    puzzles = (CORPUS / "starbattlelab" / "14x14-3star.sbn").read_text().splitlines()[:200]
    collection.write_text("\n".join(puzzles) + "\n")
    where = tmp_path / "scheduler.json"
    scheduler = dask("scheduler", "--scheduler-file", str(where), "--port", "0",
                     "--dashboard-address", ":0", "--no-show")  # fmt: skip
    worker = None
    try:
        while not where.is_file() or not where.read_text().endswith("}"):
            assert scheduler.poll() is None
            time.sleep(0.1)
        address = json.loads(where.read_text())["address"]
        worker = dask("worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard")
        child = start(["solve", str(collection), "-f", "json", "--cluster", address])
        first = child.stdout.readline()  # type: ignore[union-attr]
        assert '"type": "solution"' in first  # the first chunk is back
        scheduler.kill()
        out, err = child.communicate(timeout=120)
    finally:
        for process in (scheduler, worker):
            if process is not None:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)  # a worker's nanny and its process
                process.wait()
    assert child.returncode == 2
    overall = json.loads(out.splitlines()[-1])
    assert overall["type"] == "overall" and 0 < overall["puzzles"] < 200
    assert err == (
        f"starbattle-asp: error: lost the Dask scheduler at {address} after "
        f"{overall['puzzles']} of 200 items: see the scheduler's log, then run again\n"
    )


@needs_corpus
def test_ctrl_c_cancels_the_rest_and_keeps_what_finished(run, cluster: LocalCluster) -> None:
    found = lab_file(400)
    clients = set(cluster.scheduler.clients)
    runs = []
    run = run_on_cluster(WORK, found, cluster.scheduler_address)
    with pytest.raises(KeyboardInterrupt), closing(run):
        for items in run:
            runs.append(items)
            if len(runs) == 25:
                os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C
    assert [items[-1].identifier for items in runs] == [r.identifier for r in found[:25]]
    deadline = time.perf_counter() + 5
    while (cluster.scheduler.tasks or set(cluster.scheduler.clients) != clients) and (
        time.perf_counter() < deadline
    ):
        time.sleep(0.05)
    assert not cluster.scheduler.tasks  # nothing left to run or to hold
    assert set(cluster.scheduler.clients) == clients  # the run's client is closed


def test_generation_gives_the_same_puzzles_on_a_cluster(cluster: LocalCluster) -> None:
    here = list(generate(4, 1, 3, seed="j"))
    assert canonical(make_puzzle(4, 1, "j", 1).board) == canonical(here[0].board)  # a repeat
    elsewhere = list(
        generate(4, 1, 3, seed="j", run=partial(run_on_cluster, address=cluster.scheduler_address))
    )
    pool = list(generate(4, 1, 3, seed="j", run=partial(run_all, jobs=2)))
    for puzzles in (elsewhere, pool):
        assert [(p.seed, p.board, p.solution) for p in puzzles] == [
            (p.seed, p.board, p.solution) for p in here
        ]
    assert len({canonical(p.board) for p in here}) == 3


def test_a_generation_time_limit_comes_back_from_a_worker(run, cluster: LocalCluster) -> None:
    run = partial(run_on_cluster, address=cluster.scheduler_address)
    with pytest.raises(GenerateTimeout, match=r"puzzle 1 could not be made in 0\.001 s"):
        next(generate(10, 2, 2, seed="t", timeout=0.001, run=run))


@pytest.mark.slow
def test_cluster_option_prints_what_one_process_prints(run) -> None:
    pytest.importorskip("distributed")
    boards = [str(path) for path in sorted(INSTANCES.glob("*.lp"))[:5]]
    seconds = re.compile(r'"seconds": [0-9.e-]+')
    alone = run(*boards, "-f", "json")
    spread = run(*boards, "-f", "json", "--cluster", "local:2")
    assert spread.exit_code == alone.exit_code
    assert seconds.sub("", spread.stdout) == seconds.sub("", alone.stdout)
    making = ("generate", "-N", "6", "-s", "1", "-k", "3", "-f", "url", "--seed", "5")
    made = run(*making, "-j", "2")
    on_cluster = run(*making, "--cluster", "local:1")
    assert on_cluster.exit_code == 0 and on_cluster.stdout == made.stdout
    assert made.stdout == run(*making).stdout
