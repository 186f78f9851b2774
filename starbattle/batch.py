"""Many puzzles, in several processes when asked: results in input order, and a tally."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starbattle.interrupts import ignore_in_worker
from starbattle.results import VERDICTS

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass
class Tally:
    """The overall summary of a collection: how many puzzles ended with each verdict."""

    started: float = field(default_factory=time.perf_counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    not_unique: list[str] = field(default_factory=list)
    """Ids of the puzzles found to have two or more solutions, in input order."""
    tiers: Counter[str] = field(default_factory=Counter)
    """How many graded puzzles fell in each difficulty tier."""

    def add(self, identifier: str, verdict_: str, tier: str | None = None) -> None:
        """Count one puzzle's verdict (and its tier, when graded)."""
        self.verdicts[verdict_] += 1
        if verdict_ == "not unique":
            self.not_unique.append(identifier)
        if tier is not None:
            self.tiers[tier] += 1

    def tier_counts(self) -> dict[str, int]:
        """The graded puzzles per tier, easiest first (empty when none was graded)."""
        if not self.tiers:
            return {}
        from starbattle.grade import TIERS

        return {tier: self.tiers[tier] for tier in TIERS}

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
            **({"tiers": self.tier_counts()} if self.tiers else {}),
            "seconds": round(time.perf_counter() - self.started, 3),
        }

    def text(self) -> str:
        """The overall summary as one line."""
        parts = [f"{self.verdicts[name]} {name}" for name in VERDICTS if self.verdicts[name]]
        tiers = ", ".join(f"{n} {tier}" for tier, n in self.tier_counts().items() if n)
        seconds = time.perf_counter() - self.started
        graded = f"; tiers: {tiers}" if tiers else ""
        return f"{self.puzzles} puzzles: {', '.join(parts) or 'none'}{graded} ({seconds:.1f} s)"


def chunk_size(items: int, jobs: int) -> int:
    """How many puzzles a worker takes at a time: few for short lists, up to 64 for long."""
    return max(1, min(64, items // (jobs * 8)))


def run_all(work: Callable[[Item], Result], items: list[Item], jobs: int = 1) -> Iterator[Result]:
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
    pool = context.Pool(workers, initializer=ignore_in_worker)
    try:
        yield from pool.imap(work, items, chunksize=chunk_size(len(items), workers))
        pool.close()
    finally:
        pool.terminate()
        pool.join()
