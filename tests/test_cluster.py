"""Collections on a Dask cluster: same outcomes as one process, faults, Ctrl-C, generation."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from functools import partial

import pytest
from distributed import Client, LocalCluster
from helpers import CORPUS, corpus_sample, needs_corpus

from starbattle import read_board
from starbattle.batch import Outcome, run_all
from starbattle.check import check
from starbattle.cluster import run_on_cluster
from starbattle.errors import ClusterError
from starbattle.generate import GenerateTimeout, canonical, generate, make_puzzle
from starbattle.output import SolveSettings, solve_record

SECONDS = re.compile(r'"seconds": [0-9.e-]+|\([0-9.]+ s\)')
JSON = SolveSettings(collection=True, output_format="json")
LAB = CORPUS / "starbattlelab" / "10x10-2star.sbn"


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """A scheduler and 2 worker processes on this machine, reached by address."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local


def untimed(outcome: Outcome) -> tuple[str, list[str], list[str], int, str]:
    """An outcome with its timings blanked, for comparing two runs."""
    lines = [SECONDS.sub("<t>", line) for line in outcome.lines]
    return outcome.identifier, lines, outcome.notes, outcome.code, outcome.verdict


def lab_records(count: int) -> list[tuple[str, str]]:
    """The first puzzles of the StarBattleLab 10x10 2★ file, as (id, SBN line)."""
    lines = LAB.read_text().splitlines()[:count]
    return [(f"{LAB.name}:{number}", line) for number, line in enumerate(lines, 1)]


@needs_corpus
def test_a_local_cluster_gives_the_outcomes_of_one_process() -> None:
    records = [(record["id"], json.dumps(record)) for record in corpus_sample(per_group=1)[:30]]
    records.insert(3, ("broken", '{"stars": 1, "regions": ["AB", "A"]}'))
    records.insert(7, ("crowded", '{"stars": 2, "regions": ["AABB", "AABB", "CCDD", "CCDD"]}'))
    work = partial(solve_record, JSON)
    expected = [untimed(outcome) for outcome in map(work, records)]
    outcomes = list(run_on_cluster(work, records, "local:2", chunk=4))
    assert [untimed(outcome) for outcome in outcomes] == expected
    verdicts = [outcome.verdict for outcome in outcomes]
    assert verdicts[3] == verdicts[7] == "error" and verdicts.count("error") == 2
    assert "not unique" in verdicts and "unique" in verdicts
    boards = dict(records)
    for outcome in outcomes:
        for line in outcome.lines:
            record = json.loads(line)
            if record["type"] == "solution":
                board = read_board(boards[outcome.identifier], fmt="json")
                assert check(board, [tuple(cell) for cell in record["stars"]]) == []


@needs_corpus
@pytest.mark.slow
def test_a_worker_killed_mid_chunk_loses_and_repeats_nothing(cluster: LocalCluster) -> None:
    records = lab_records(160)
    work = partial(solve_record, SolveSettings(collection=True))
    expected = [untimed(outcome) for outcome in map(work, records)]
    with Client(cluster) as watcher:
        pids = watcher.run(os.getpid)
        outcomes, killed = [], None
        for outcome in run_on_cluster(work, records, cluster.scheduler_address, chunk=16):
            outcomes.append(outcome)
            while killed is None:
                busy = [worker for worker, keys in watcher.processing().items() if keys]
                if busy:
                    killed = pids[busy[0]]
                    os.kill(killed, signal.SIGKILL)
        assert killed not in watcher.run(os.getpid).values()  # its nanny started another
    assert [untimed(outcome) for outcome in outcomes] == expected


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


@needs_corpus
def test_ctrl_c_cancels_the_rest_and_keeps_what_finished(cluster: LocalCluster) -> None:
    records = lab_records(400)
    clients = set(cluster.scheduler.clients)
    outcomes = []
    with (
        pytest.raises(KeyboardInterrupt),
        closing(
            run_on_cluster(partial(solve_record, JSON), records, cluster.scheduler_address)
        ) as run,
    ):
        for outcome in run:
            outcomes.append(outcome)
            if len(outcomes) == 25:
                os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C
    assert [outcome.identifier for outcome in outcomes] == [r[0] for r in records[:25]]
    deadline = time.perf_counter() + 5
    while (cluster.scheduler.tasks or set(cluster.scheduler.clients) != clients) and (
        time.perf_counter() < deadline
    ):
        time.sleep(0.05)
    assert not cluster.scheduler.tasks  # nothing left to run or to hold
    assert set(cluster.scheduler.clients) == clients  # the run's client is closed


def test_generation_gives_the_same_puzzles_on_a_cluster(cluster: LocalCluster) -> None:
    here = list(generate(4, 1, 3, seed="a"))
    assert canonical(make_puzzle(4, 1, "a", 1).board) == canonical(here[0].board)  # a repeat
    elsewhere = list(
        generate(4, 1, 3, seed="a", run=partial(run_on_cluster, address=cluster.scheduler_address))
    )
    pool = list(generate(4, 1, 3, seed="a", run=partial(run_all, jobs=2)))
    for puzzles in (elsewhere, pool):
        assert [(p.seed, p.board, p.solution) for p in puzzles] == [
            (p.seed, p.board, p.solution) for p in here
        ]
    assert len({canonical(p.board) for p in here}) == 3


def test_a_generation_time_limit_comes_back_from_a_worker(cluster: LocalCluster) -> None:
    run = partial(run_on_cluster, address=cluster.scheduler_address)
    with pytest.raises(GenerateTimeout, match=r"puzzle 1 could not be made in 0\.001 s"):
        next(generate(10, 2, 2, seed="t", timeout=0.001, run=run))
