"""The server's worker processes: one job each at a time, ended at will, replaced at once.

`multiprocessing.Pool` can neither cancel one task nor tell which task a dead worker held
(its queue slot leaked). Here each worker has a pipe of its own: the request thread that
holds a worker waits on that pipe and on its client's socket, and ends the worker (SIGKILL)
when the client hangs up or the time limit passes. A worker that dies on its own (a time
limit while grounding, the out-of-memory killer) closes its pipe, which the waiting thread
sees at once. Ended workers are replaced.

`size` workers are kept ready; a request that finds them all busy for GROW_AFTER_SECONDS gets
a new one, up to `most`, and only then waits in the queue. A job still running after
NICE_AFTER_SECONDS (a job its caller knows to be long: from its start) has its worker's CPU
priority lowered (the worker retires after it), so a short request started meanwhile gets
the cores: the page stays quick while long or abandoned searches run. Every worker runs a
little below the server's priority, so the server can always answer, end and start workers.
Extra workers retire after EXTRA_IDLE_SECONDS without work (`tidy`).

Workers are forked by a forkserver: a clean process started once, with the solver's modules
imported and Ctrl-C ignored (its children inherit that from birth). The threaded server
never forks itself (a fork copies other threads' held locks), and a new worker is ready in
milliseconds instead of importing clingo, the hint engine and OpenCV again. As with any start
method but fork, a program that starts a pool must guard its main module
(`if __name__ == "__main__":`): each worker imports it.
"""

from __future__ import annotations

import _thread
import contextlib
import multiprocessing
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import forkserver
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from starbattle.run import interrupts

PRELOAD = [
    "starbattle.cli.main",  # the console script the workers' start re-imports as __mp_main__
    "starbattle.web.api",
    "starbattle.asp.solver",
    "starbattle.asp.fastpath",
    "starbattle.asp.encodings",
    "starbattle.logic.insight",
    "starbattle.logic.ladder",
    "starbattle.logic.programs",
    "starbattle.logic.grade",
    "starbattle.logic.generate",
    "starbattle.io.pictures",
    "starbattle.io.formats.answer",
    "starbattle.io.image.read",
    "numpy",
    "cv2",
    "PIL.Image",
]
"""Modules the forkserver imports once for every worker (one not installed is skipped)."""
WATCH_SECONDS = 0.25
"""How often a request waiting for a worker looks whether its client is still there."""
GROW_AFTER_SECONDS = 0.1
"""A request that waited this long for a worker gets a new one (short jobs free one sooner)."""
JOIN_SECONDS = 5.0
"""The longest wait for a killed worker's exit status (SIGKILL takes milliseconds)."""
WORKER_NICE = 5
"""Workers' niceness (0 is normal, 19 the lowest priority): the server's threads and the
forkserver, which start and end workers, keep the cores they need when every worker computes."""
NICE_AFTER_SECONDS = 1.0
"""A job running this long has its worker's CPU priority lowered (short jobs go first)."""
NICE = 15
"""The niceness of such a worker."""
EXTRA_IDLE_SECONDS = 10.0
"""How long a worker beyond the pool's size may stay idle before it retires."""


class Stopped(Exception):
    """A job that got no answer; the subclass says why."""


class TimeLimit(Stopped):
    """The job's time limit passed: its worker was ended."""


class ClientLeft(Stopped):
    """The client hung up before the answer: its worker was ended (or never taken)."""


class Busy(Stopped):
    """Every worker is taken and the queue is full, or the wait for a worker was too long."""


class Closing(Stopped):
    """The pool is closing: the server stops."""


class WorkerEnded(Stopped):
    """The worker died while on the job (its exit code: 3 for a time limit while grounding)."""

    def __init__(self, code: int | None) -> None:
        super().__init__(code)
        self.code = code


def client_left(client: socket.socket) -> bool:
    """Whether a client closed or reset its connection (a read would return no byte)."""
    try:
        return bool(wait([client], 0)) and client.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset, or already closed here
        return True


def serve_jobs(connection: Connection) -> None:
    """A worker: run each (function, arguments) it is sent and send back the result.

    Its standard output and error go nowhere: the server says in its answer how a job ended.
    """
    interrupts.ignore_in_worker()
    # the server may have lowered this new worker's priority already (a long job): keep it
    niceness = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, max(niceness, WORKER_NICE))
    nowhere = os.open(os.devnull, os.O_WRONLY)
    for stream in (1, 2):
        os.dup2(nowhere, stream)
    os.close(nowhere)
    _thread.start_new_thread(_end_with_server, ())
    with connection:
        while True:
            try:
                function, arguments = connection.recv()
            except EOFError:  # the server closed the pipe
                return
            connection.send(function(*arguments))


def _end_with_server() -> None:
    """End this worker when the server's process ends, whatever the worker is doing."""
    server = multiprocessing.parent_process()
    if server is not None:
        wait([server.sentinel])
        os._exit(1)


@dataclass(eq=False)
class Worker:
    """A worker process, the server's end of its pipe, and its state."""

    process: BaseProcess
    connection: Connection
    niced: bool = False
    """Its priority was lowered (a long job): it retires when the job ends."""
    idle_since: float = 0.0


class _Ticket:
    """A request waiting in the queue, and the worker handed to it (None: the pool closed)."""

    def __init__(self) -> None:
        self.handed = threading.Event()
        self.worker: Worker | None = None


class WorkerPool:
    """`size` worker processes kept ready, up to `most` when held, then `waiting` more wait."""

    def __init__(self, size: int, most: int, waiting: int) -> None:
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(PRELOAD)
        with interrupts.ignored_by_new_processes():  # the forkserver and its children
            forkserver.ensure_running()
        self.size, self.most, self.most_waiting = size, max(size, most), waiting
        self.lock = threading.Lock()
        """Guards the collections and counts below and `closed`."""
        self.reaping = threading.Lock()
        """Taken to start a process or read its exit status: a start reads every child's, and
        two threads reading one garble it."""
        self.workers: set[Worker] = set()
        self.idle: list[Worker] = []
        """Idle workers, the longest idle first."""
        self.queue: deque[_Ticket] = deque()
        self.starting = 0
        """Workers being started."""
        self.ended = 0
        """Workers ended in the middle of a job (cancelled, out of time, dead) so far."""
        self.closed = False
        self._top_up()

    def status(self) -> dict[str, int]:
        """Workers alive, busy, requests waiting, workers ended in a job so far."""
        with self.lock:
            return {
                "workers": len(self.workers),
                "busy": len(self.workers) - len(self.idle),
                "waiting": len(self.queue),
                "ended": self.ended,
            }

    def call(
        self,
        function: Callable[..., Any],
        arguments: tuple[Any, ...],
        seconds: float,
        client: socket.socket | None = None,
        patience: float = 60.0,
        nice_after: float = NICE_AFTER_SECONDS,
    ) -> Any:
        """`function(*arguments)` in a worker, within `seconds`; raise Stopped without answer.

        `client`: the connection that asked; when it closes, the job stops (ClientLeft).
        `patience`: the longest wait in the queue for a worker (then Busy).
        `nice_after`: when the worker's priority is lowered (0: a long job, from its start).
        """
        for _ in range(2):  # an idle worker may have died (e.g. out of memory): one more
            worker = self._take(client, patience)
            if client is not None and client_left(client):
                self._give_back(worker)
                raise ClientLeft
            try:
                worker.connection.send((function, arguments))
                break
            except OSError:
                self._end(worker)
        else:
            raise WorkerEnded(worker.process.exitcode)
        try:
            result = self._answer(worker, seconds, client, nice_after)
        except BaseException:
            self._end(worker)
            raise
        self._give_back(worker)
        return result

    def _answer(
        self, worker: Worker, seconds: float, client: socket.socket | None, nice_after: float
    ) -> Any:
        """Wait for the worker's answer, its death, the time limit or the client's leaving."""
        watched: list[Any] = [worker.connection] if client is None else [worker.connection, client]
        now = time.monotonic()
        deadline, nice_at = now + seconds, now + nice_after
        while True:
            until = deadline if worker.niced else min(deadline, nice_at)
            ready = wait(watched, max(0.0, until - time.monotonic()))
            if worker.connection in ready:
                try:
                    return worker.connection.recv()
                except (EOFError, OSError):  # it died (or close() ended it): its pipe closed
                    self._reap(worker)
                    if self.closed:
                        raise Closing from None
                    raise WorkerEnded(worker.process.exitcode) from None
            if ready:
                if client_left(client):  # type: ignore[arg-type]  # only the client is left
                    raise ClientLeft
                watched.remove(client)  # it sent more (a pipelined request): stop watching it
            elif until == deadline:
                raise TimeLimit
            else:
                worker.niced = True
                with contextlib.suppress(OSError):  # not allowed: it keeps its priority
                    os.setpriority(os.PRIO_PROCESS, worker.process.pid, NICE)

    def _take(self, client: socket.socket | None, patience: float) -> Worker:
        """An idle worker, else the next one free or a new one (Busy when the queue is full)."""
        with self.lock:
            if self.closed:
                raise Closing
            if self.idle:
                return self.idle.pop()
            if len(self.queue) >= self.most_waiting + self.most - len(self.workers):
                raise Busy
            ticket = _Ticket()
            self.queue.append(ticket)
        give_up = time.monotonic() + patience
        watch = GROW_AFTER_SECONDS
        while not ticket.handed.wait(watch):
            watch = WATCH_SECONDS
            self._top_up()  # every worker is held longer than a short job: one more (to `most`)
            gone = client is not None and client_left(client)
            if gone or time.monotonic() > give_up:
                with self.lock:
                    if not ticket.handed.is_set():
                        self.queue.remove(ticket)
                        raise ClientLeft if gone else Busy
        if ticket.worker is None:
            raise Closing
        return ticket.worker

    def _give_back(self, worker: Worker) -> None:
        """A worker is free: hand it to the first request waiting, else make it idle.

        A worker whose priority was lowered retires instead (its niceness cannot be undone).
        """
        with self.lock:
            if worker not in self.workers:  # ended by close() meanwhile
                return
            if not worker.niced:
                if self.queue:
                    ticket = self.queue.popleft()
                    ticket.worker = worker
                    ticket.handed.set()
                else:
                    worker.idle_since = time.monotonic()
                    self.idle.append(worker)
                return
        self._end(worker, cancelled=False)

    def _start(self) -> Worker:
        """Start one worker (its end of the pipe is closed here, so its death is an EOF)."""
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=serve_jobs, args=(theirs,), daemon=True)
        with self.reaping:
            process.start()
        theirs.close()
        return Worker(process, ours)

    def _top_up(self) -> None:
        """Start workers until there are `size`, or one per busy or waiting request (to `most`)."""
        while True:
            with self.lock:
                busy = len(self.workers) - len(self.idle)
                wanted = min(self.most, max(self.size, busy + len(self.queue)))
                if self.closed or len(self.workers) + self.starting >= wanted:
                    return
                self.starting += 1
            try:
                worker = self._start()
            finally:
                with self.lock:
                    self.starting -= 1
            with self.lock:
                kept = not self.closed
                if kept:
                    self.workers.add(worker)
            if kept:
                self._give_back(worker)
            else:
                self._reap(worker)
                worker.connection.close()

    def _reap(self, worker: Worker) -> None:
        """Kill a worker (nothing if it is dead) and collect its exit status."""
        worker.process.kill()
        wait([worker.process.sentinel], JOIN_SECONDS)  # its status is there: read it at once
        with self.reaping:
            worker.process.join(0)

    def _end(self, worker: Worker, *, cancelled: bool = True) -> None:
        """End a worker (cancelled, out of time, dead, or retiring) and top the pool up."""
        self._reap(worker)
        worker.connection.close()
        with self.lock:
            if worker not in self.workers:  # close() took it
                return
            self.workers.discard(worker)
            self.ended += cancelled
        self._top_up()

    def tidy(self) -> None:
        """Retire workers beyond the pool's size that have been idle EXTRA_IDLE_SECONDS."""
        retiring = []
        with self.lock:
            while (
                len(self.workers) - len(retiring) > self.size
                and self.idle
                and time.monotonic() - self.idle[0].idle_since > EXTRA_IDLE_SECONDS
            ):
                retiring.append(self.idle.pop(0))
            self.workers.difference_update(retiring)
        for worker in retiring:
            self._reap(worker)
            worker.connection.close()

    def close(self) -> None:
        """End every worker at once (also in the middle of a job); waiting requests get Closing."""
        with self.lock:
            self.closed = True
            workers, idle = list(self.workers), list(self.idle)
            tickets = list(self.queue)
            self.workers.clear()
            self.idle.clear()
            self.queue.clear()
        for ticket in tickets:
            ticket.handed.set()
        for worker in workers:
            self._reap(worker)
        for worker in idle:  # a busy worker's pipe is its request thread's to close
            worker.connection.close()
