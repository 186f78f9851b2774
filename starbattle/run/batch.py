"""Many puzzles, in several processes when asked: results in input order, and a tally."""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from starbattle.exits import Exit, Verdict
from starbattle.model.values import Message, Outcome
from starbattle.run.interrupts import ignore_in_worker

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

_STOPPING = {signal.SIGINT, signal.SIGTERM}
Item = TypeVar("Item")
Result = TypeVar("Result")


def chunk_size(items: int, jobs: int) -> int:
    """How many puzzles a worker takes at a time: few for short lists, up to 64 for long."""
    return max(1, min(64, items // (jobs * 8)))


def run_all(
    work: Callable[[Item], Result],
    items: list[Item],
    jobs: int = 1,
    lost: Callable[[Item, int | None], Result] | None = None,
    chunk: int | None = None,
    apart: bool = False,
) -> Iterator[Result]:
    """Yield work(item) for every item in order, computed in `jobs` processes.

    With one job everything runs here, so the work may stream its own output; with more,
    each result is yielded when it and all before it are done. Ctrl-C stops every worker.
    A worker that dies (e.g. killed by the out-of-memory killer, or ended by a time limit
    while grounding) costs only the item it was working on, whose result is then
    lost(item, exit code) (default: lost_items); a new worker takes over the rest. A worker
    takes `chunk` items at a time (default: chunk_size). Closing the iterator ends the workers
    at once, also those still working. `apart`: one job runs in a worker process too.
    """
    if (jobs == 1 and not apart) or len(items) < 2:
        yield from map(work, items)
        return
    import multiprocessing  # ~15 ms: only for several jobs

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = _Pool(context, work, min(jobs, len(items)), lost or lost_items, chunk)
    try:
        yield from pool.run(items)
    finally:
        pool.stop()


def lost_items(item: Any, code: int | None) -> list[Message | Outcome]:
    """The items of a puzzle whose worker process ended with this exit code while on it.

    Exit code 3: the time limit passed while grounding (guard.grounding), so the puzzle
    is undecided; any other end (a signal, e.g. the out-of-memory killer's) is an error.
    """
    identifier = getattr(item, "identifier", str(item))
    if code == Exit.TIMEOUT:
        text = f"{identifier}: the time limit was reached while grounding the program"
        return [Message(text), Outcome(identifier, Verdict.UNDECIDED, Exit.TIMEOUT)]
    cause = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
    text = (
        f"{identifier}: the worker process died ({cause}) while solving it, e.g. out of "
        "memory; the other puzzles go on"
    )
    return [Message(text, "error"), Outcome(identifier, Verdict.ERROR, Exit.ERROR)]


def _serve(work: Callable[[Any], Any], connection: Connection) -> None:
    """A worker: run each chunk of (index, item) it is sent, sending back each result.

    An exception is sent back for the parent to raise (as a RuntimeError when it cannot be
    pickled).
    """
    ignore_in_worker()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)  # blocked by _Pool.start
    with connection:
        while True:
            try:
                chunk = connection.recv()
            except EOFError:  # the parent is done
                return
            for index, item in chunk:
                try:
                    connection.send((index, work(item), None))
                except Exception as error:  # e.g. a program error: the parent raises it
                    try:
                        connection.send((index, None, error))
                    except Exception:  # it cannot be pickled
                        failed = RuntimeError(f"{type(error).__name__}: {error}")
                        connection.send((index, None, failed))


@dataclass
class _Worker:
    """A worker process, the parent's end of its pipe, and the indices it has not answered."""

    process: BaseProcess
    connection: Connection
    owed: deque[int] = field(default_factory=deque)


class _Pool:
    """Worker processes fed chunks of items through pipes; a dead worker is replaced.

    multiprocessing.Pool loses the task of a worker that dies and then waits for it forever,
    and concurrent.futures cannot tell which task a dead worker held: hence this small pool.
    """

    def __init__(
        self,
        context: Any,
        work: Callable[[Any], Any],
        size: int,
        lost: Callable[[Any, int | None], Any],
        chunk: int | None = None,
    ) -> None:
        self.context = context
        self.work = work
        self.size = size
        self.lost = lost
        self.chunk = chunk
        self.workers: list[_Worker] = []

    def start(self) -> None:
        """Start one worker (its end of the pipe is closed here, so its death is an EOF).

        Ctrl-C and SIGTERM are blocked until the worker has its own handlers: else one
        arriving at its start would run the parent's handler there and print a traceback.
        """
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(self.work, theirs), daemon=True)
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        theirs.close()
        self.workers.append(_Worker(process, ours))

    def run(self, items: list[Any]) -> Iterator[Any]:
        """Yield the result of every item in order."""
        from multiprocessing.connection import wait

        pending = deque(enumerate(items))
        done: dict[int, Any] = {}
        step = self.chunk or chunk_size(len(items), self.size)
        following = 0
        while following < len(items):
            while following in done:
                yield done.pop(following)
                following += 1
            if following == len(items):
                return
            while len(self.workers) < min(self.size, len(items) - following):
                self.start()
            for worker in self.workers:
                if pending and not worker.owed:
                    chunk = [pending.popleft() for _ in range(min(step, len(pending)))]
                    worker.owed.extend(index for index, _ in chunk)
                    with suppress(OSError):  # a dead worker: found below, its chunk requeued
                        worker.connection.send(chunk)
            ready = wait([worker.connection for worker in self.workers if worker.owed])
            for worker in [w for w in self.workers if w.connection in ready]:
                self.receive(worker, items, pending, done)

    def receive(
        self,
        worker: _Worker,
        items: list[Any],
        pending: deque[tuple[int, Any]],
        done: dict[int, Any],
    ) -> None:
        """Take a worker's results; if it died, its current item is lost, the rest requeued."""
        try:
            while worker.connection.poll():
                index, result, error = worker.connection.recv()
                if error is not None:
                    raise error
                done[index] = result
                worker.owed.remove(index)
            return
        except (EOFError, OSError):
            pass
        worker.connection.close()
        worker.process.join(5)
        self.workers.remove(worker)
        if worker.owed:
            lost = worker.owed.popleft()
            done[lost] = self.lost(items[lost], worker.process.exitcode)
            pending.extendleft((index, items[index]) for index in reversed(worker.owed))

    def stop(self) -> None:
        """End every worker at once (they are idle, or the run was stopped)."""
        for worker in self.workers:
            worker.connection.close()
            worker.process.terminate()
        for worker in self.workers:
            worker.process.join()
        self.workers.clear()


def racing(jobs: int) -> Callable[[Callable[[Any], Any], list[Any], Callable[..., Any]], Any]:
    """Attempts raced by `jobs` processes, one at a time each (a generator's race).

    A lost attempt's result is lost(attempt, exit code).
    """
    return lambda work, items, lost: run_all(work, items, jobs, lost=lost, chunk=1)
