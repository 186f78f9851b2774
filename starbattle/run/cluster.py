"""Run a collection's work on a Dask cluster: chunks of items as tasks, results in input order.

Dask's `distributed` does the scheduling, the transport and the retries (a chunk whose
worker dies is run again elsewhere, up to `distributed.scheduler.allowed-failures` times);
this module only cuts the items into chunks and hands the results back in order. Its edges
are one line each: an address where no scheduler answers within CONNECT_SECONDS (nothing
there, or a web server, the dashboard), a scheduler lost mid-run, too many local workers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

from starbattle.errors import ClusterError
from starbattle.run.batch import chunk_size
from starbattle.run.interrupts import ignored_by_new_processes

if TYPE_CHECKING:
    from distributed import Client

Item = TypeVar("Item")
Result = TypeVar("Result")

CONNECT_SECONDS = 10.0
"""How long to try reaching a scheduler before giving up (its greeting included)."""
LOCAL_PER_CORE = 4
"""`local:N` starts at most this many worker processes per core."""

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
    cores = os.cpu_count() or 1
    if int(number) > LOCAL_PER_CORE * cores:
        raise ClusterError(
            f"cluster address {address!r}: at most {LOCAL_PER_CORE * cores} local workers "
            f"({LOCAL_PER_CORE} per core) run here, each a process; local:{cores} uses every "
            "core, and a Dask scheduler (tcp://HOST:8786) reaches other machines"
        )
    return int(number)


def unreachable(address: str, reason: str) -> ClusterError:
    """The error for an address where no scheduler can be reached, saying why."""
    return ClusterError(
        f"cannot reach a Dask scheduler at {address} ({reason}): start one with "
        "`dask scheduler` and give its address (tcp://HOST:8786), or use local:N"
    )


def greet(address: str, timeout: float) -> None:
    """Open and close one Dask connection to `address`: a ClusterError unless it answers in time.

    Dask's own connection gives up on an address after its timeout, but then waits for the
    other end's greeting forever: an endpoint that takes the connection and never answers as
    a Dask scheduler (a web server, the scheduler's dashboard at :8787) would hang the run.
    """
    from distributed.comm import CommClosedError, connect, get_address_host_port

    try:
        get_address_host_port(address)  # the address's form, before any connection
    except (ValueError, TypeError) as error:
        raise unreachable(address, str(error).splitlines()[0]) from None

    reach = 0.8 * timeout  # to connect: a refusal is retried until then, and said as one

    async def greeting() -> None:
        """Connect, then wait for the greeting: both within the timeout."""
        comm = await asyncio.wait_for(connect(address, timeout=reach), timeout)
        await comm.close()

    failed: list[BaseException] = []

    def attempt() -> None:
        """Greet on an event loop of its own (the caller's thread may run one: Jupyter)."""
        try:
            asyncio.run(greeting())
        except BaseException as error:  # handed over to the caller's thread
            failed.append(error)

    waiting = threading.Thread(target=attempt, name="dask-greeting", daemon=True)
    waiting.start()
    waiting.join()  # Ctrl-C ends the wait at once; the daemon thread is left to its timeout
    if not failed:
        return
    error = failed[0]
    if isinstance(error, TimeoutError):
        why = f"it took the connection but gave no Dask greeting in {timeout:g} s"
    elif isinstance(error, CommClosedError):
        why = "it closed the connection without a Dask greeting"
    elif isinstance(error, OSError):  # connect's own: nothing took the connection in time
        raise unreachable(address, f"no connection in {reach:g} s")
    elif isinstance(error, Exception):  # what it sent is no Dask message (MemoryError, ...)
        why = "it answered, but not as Dask does"
    else:
        raise error
    raise ClusterError(
        f"{address} is not a Dask scheduler ({why}): give the scheduler's address, "
        "tcp://HOST:8786 by default (its dashboard is at :8787)"
    )


@contextmanager
def connect(address: str, timeout: float = CONNECT_SECONDS) -> Iterator[Client]:
    """A Dask client of the scheduler at `address`, or of a new LocalCluster for `local[:N]`.

    The client (and the local cluster) is closed when the block ends.
    """
    try:
        import dask
        from distributed import Client, LocalCluster
        from distributed.utils import silence_logging_cmgr
    except ImportError:
        raise ClusterError(f"running on a Dask cluster needs Dask: {EXTRA}") from None
    workers = local_workers(address)
    if workers is None:
        greet(address, timeout)
        # a scheduler lost mid-run is one ClusterError, not Dask's logged tracebacks
        with silence_logging_cmgr(logging.CRITICAL):
            try:
                client = Client(address, timeout=timeout)
            except (OSError, ValueError, TypeError) as error:
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                raise unreachable(address, reason) from None
            with client:
                yield client
        return
    with ignored_by_new_processes(), dask.config.set(LOCAL_CONFIG):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=0,  # no memory monitors, as in the -j N pool
            dashboard_address=":0",  # any free port: 8787 may be another cluster's
            silence_logs=logging.CRITICAL,  # restarts, cancels, closing races: not news
        )
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
        from distributed.client import FutureCancelledError
        from distributed.comm import CommClosedError

        workers = max(1, sum(client.nthreads().values()))
        size = chunk or chunk_size(len(items), workers)
        futures = deque(
            client.submit(run_chunk, work, items[start : start + size], pure=False)
            for start in range(0, len(items), size)
        )
        done = 0
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
                except (CommClosedError, FutureCancelledError):
                    raise ClusterError(
                        f"lost the Dask scheduler at {address} after {done} of {len(items)} "
                        "items: see the scheduler's log, then run again"
                    ) from None
                futures.popleft()
                done += len(results)
                yield from results
        finally:
            client.cancel(list(futures))
