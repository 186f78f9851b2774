"""Run a collection's work on a Dask cluster: chunks of items as tasks, results in input order.

Dask's `distributed` does the scheduling, the transport and the retries (a chunk whose
worker dies is run again elsewhere, up to `distributed.scheduler.allowed-failures` times);
this module only cuts the items into chunks and hands the results back in order.
"""

from __future__ import annotations

import logging
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

from starbattle.batch import chunk_size
from starbattle.errors import ClusterError

if TYPE_CHECKING:
    from distributed import Client

Item = TypeVar("Item")
Result = TypeVar("Result")

CONNECT_SECONDS = 10.0
"""How long to try reaching a scheduler before giving up."""

LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}
"""A local cluster wakes its event loops seldom: no profiler (it samples every 10 ms), event
loop checks each second, not 50 times, and no dashboard graphs to feed. Each wake-up takes
the GIL from the clingo callbacks of the running chunk; measured in benchmarks/cluster.py."""

EXTRA = "pip install 'starbattle-asp[cluster]' (or '.[cluster]' from a checkout)"


def run_chunk(work: Callable[[Item], Result], chunk: list[Item]) -> list[Result]:
    """Apply the work to every item of a chunk: one Dask task."""
    return [work(item) for item in chunk]


def local_workers(address: str) -> int | None:
    """How many worker processes `local` (one per core) or `local:N` asks for; None otherwise."""
    name, _, number = address.partition(":")
    if name != "local":
        return None
    if not number:
        return os.cpu_count() or 1
    if not number.isdigit() or int(number) < 1:
        raise ClusterError(
            f"cluster address {address!r}: the number of local workers must be a whole number "
            "of at least 1, as in local:2"
        )
    return int(number)


@contextmanager
def connect(address: str, timeout: float = CONNECT_SECONDS) -> Iterator[Client]:
    """A Dask client of the scheduler at `address`, or of a new LocalCluster for `local[:N]`.

    The client (and the local cluster) is closed when the block ends.
    """
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(f"running on a Dask cluster needs Dask: {EXTRA}") from None
    workers = local_workers(address)
    if workers is None:
        try:
            client = Client(address, timeout=timeout)
        except (OSError, ValueError, TypeError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ClusterError(
                f"cannot reach a Dask scheduler at {address} ({reason}): start one with "
                "`dask scheduler` and give its address (tcp://HOST:8786), or use local:N"
            ) from None
        with client:
            yield client
        return
    # Worker processes started while Ctrl-C is ignored ignore it too: it stays with the caller
    # (one pressed during the second the cluster takes to start is lost).
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with dask.config.set(LOCAL_CONFIG):
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                memory_limit=0,  # no memory monitors, as in the -j N pool
                dashboard_address=":0",  # any free port: 8787 may be another cluster's
                silence_logs=logging.CRITICAL,  # restarts, cancels, closing races: not news
            )
    finally:
        signal.signal(signal.SIGINT, before)
    with cluster, Client(cluster) as client:
        yield client


def run_on_cluster(
    work: Callable[[Item], Result],
    items: list[Item],
    address: str,
    *,
    chunk: int | None = None,
    timeout: float = CONNECT_SECONDS,
) -> Iterator[Result]:
    """Yield work(item) for every item in order, computed in chunks on a Dask cluster.

    `address` is a scheduler's (tcp://HOST:PORT) or `local[:N]` for N worker processes here.
    `work` must be picklable and importable on the workers (starbattle installed there).
    Chunks are `batch.chunk_size` items unless given (measured: benchmarks/RESULTS.md). A
    consumer that stops early (Ctrl-C) closes the iterator, e.g. with contextlib.closing:
    that cancels the work not yet handed back and closes the client and a local cluster.
    """
    with connect(address, timeout) as client:
        from distributed import KilledWorker

        workers = max(1, sum(client.nthreads().values()))
        size = chunk or chunk_size(len(items), workers)
        futures = deque(
            client.submit(run_chunk, work, items[start : start + size], pure=False)
            for start in range(0, len(items), size)
        )
        try:
            while futures:
                try:
                    results = futures[0].result()
                except KilledWorker as error:
                    raise ClusterError(
                        f"{error.allowed_failures + 1} Dask workers died running the same chunk "
                        f"of items (the last at {error.last_worker.address}): see the workers' "
                        "logs (memory, crashes)"
                    ) from None
                futures.popleft()
                yield from results
        finally:
            client.cancel(list(futures))
