"""Solve many puzzles, in several processes when asked: outcomes in input order, and a tally."""

from __future__ import annotations

import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from starbattle.report import EXIT_ERROR, unique_verdict

if TYPE_CHECKING:
    from starbattle.solver import Search

Item = TypeVar("Item")

VERDICTS = ("unique", "not unique", "solved", "no solution", "undecided", "error")
"""What one puzzle's run settled: 'solved' when a solution was found and uniqueness was not
asked (--fixed), 'undecided' when a time limit (or -n) stopped the search before it could
tell."""


def verdict(search: Search | None, code: int) -> str:
    """The verdict of one puzzle's run from its last search and its exit code."""
    if search is None:
        return "error" if code == EXIT_ERROR else "solved" if code == 0 else "no solution"
    if search.found == 0:
        return "no solution" if search.exhausted else "undecided"
    unique = unique_verdict(search)
    return "undecided" if unique is None else "unique" if unique else "not unique"


@dataclass
class Outcome:
    """One puzzle's run: its output lines, its messages for stderr, exit code and verdict."""

    identifier: str
    lines: list[str]
    notes: list[str]
    code: int
    verdict: str


@dataclass
class Tally:
    """The overall summary of a collection: how many puzzles ended with each verdict."""

    started: float = field(default_factory=time.perf_counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    not_unique: list[str] = field(default_factory=list)
    """Ids of the puzzles found to have two or more solutions, in input order."""

    def add(self, identifier: str, verdict_: str) -> None:
        """Count one puzzle's verdict."""
        self.verdicts[verdict_] += 1
        if verdict_ == "not unique":
            self.not_unique.append(identifier)

    @property
    def puzzles(self) -> int:
        """How many puzzles were counted."""
        return sum(self.verdicts.values())

    def record(self) -> dict[str, Any]:
        """The overall summary as a JSON Lines record."""
        return {
            "type": "overall",
            "puzzles": self.puzzles,
            **{name.replace(" ", "_"): self.verdicts[name] for name in VERDICTS},
            "seconds": round(time.perf_counter() - self.started, 3),
        }

    def text(self) -> str:
        """The overall summary as one line."""
        parts = [f"{self.verdicts[name]} {name}" for name in VERDICTS if self.verdicts[name]]
        seconds = time.perf_counter() - self.started
        return f"{self.puzzles} puzzles: {', '.join(parts) or 'none'} ({seconds:.1f} s)"


def _ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them all."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def chunk_size(items: int, jobs: int) -> int:
    """How many puzzles a worker takes at a time: few for short lists, up to 64 for long."""
    return max(1, min(64, items // (jobs * 8)))


def run_all(work: Callable[[Item], Outcome], items: list[Item], jobs: int = 1) -> Iterator[Outcome]:
    """Yield work(item) for every item in order, computed in `jobs` processes.

    With one job everything runs here, so the work may stream its own output; with more,
    each outcome is yielded when it and all before it are done. Ctrl-C stops every worker.
    """
    if jobs == 1 or len(items) < 2:
        yield from map(work, items)
        return
    import multiprocessing  # ~15 ms: only for several jobs

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    workers = min(jobs, len(items))
    pool = context.Pool(workers, initializer=_ignore_sigint)
    try:
        yield from pool.imap(work, items, chunksize=chunk_size(len(items), workers))
        pool.close()
    finally:
        pool.terminate()
        pool.join()
