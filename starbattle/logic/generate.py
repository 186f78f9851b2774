"""Generate Star Battle puzzles with exactly one solution, reproducibly from a seed.

The method (chosen by measurement, see benchmarks/RESULTS.md; steps 2-5 are moves of
`starbattle.logic.regions`):
1. plant: clingo finds a random valid placement of S stars per row and column (random
   signs from the seed) on a board whose regions are its rows;
2. cut: the planted stars, walked row by row in snake order, are cut into runs of S stars,
   and each run claims a connected set of cells holding exactly its stars;
3. grow: unclaimed cells join neighbouring regions at random;
4. compact: cells move (and pairs of star cells swap) between neighbouring regions while the
   borders get no longer, regions stay connected and no region drops below the minimum size;
   a region still below it (grown so) then takes border cells from larger neighbours;
5. repair: cells at or near the cells where rival solutions have stars move to a
   neighbouring region while the open cells (a star in some solution but not in all) do
   not grow, until none is left. Since the planted solution stays valid, the open cells are
   where some solution differs from it: one brave enumeration of those differences
   (`asp.rivals.Rivals`), on one grounding per attempt whose region membership is switched by
   external atoms, stopped as soon as it finds more open cells than the last board had.
The result has exactly one solution: it is proved by the consequences and re-checked by
counting.

A time limit holds throughout: every clingo call gets the time left, and the Python steps
look at the clock between moves. What can overrun it: clasp's preparation at the start of
a search (~0.3 s at 100x100), and, outside the command line (guard.grounding), one
grounding (~0.3 s at 100x100).
"""

from __future__ import annotations

import random
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from functools import partial
from typing import Any

from starbattle.asp.solver import Solver
from starbattle.errors import UsageError
from starbattle.exits import Exit
from starbattle.limits import TimeLimitReached, time_left
from starbattle.logic.regions import Regions, claim, compact, fill, grow, lines, repair
from starbattle.model.board import Board, Cell, Solution, king_capacity
from starbattle.model.values import Generated

Race = Callable[[Callable[[int], Any], list[int], Callable[[int, int | None], Any]], Iterable[Any]]
"""Attempts made by several processes in turn: race(work, attempts, lost) yields work(attempt)
for each attempt in order, or lost(attempt, exit code) for one whose process died (e.g.
`starbattle.run.batch.run_all` with jobs)."""


class GenerateTimeout(UsageError):
    """No puzzle could be made within the time limit (or the attempts)."""

    exit_code = Exit.TIMEOUT

    def __init__(self, index: int, timeout: float | None) -> None:
        limit = f"in {timeout:g} s" if timeout is not None else "in 1000 attempts"
        super().__init__(
            f"puzzle {index + 1} could not be made {limit}: raise --timeout, "
            "lower --min-region, or try another size or star count"
        )
        self.index, self.timeout = index, timeout

    def __reduce__(self) -> tuple[type[GenerateTimeout], tuple[int, float | None]]:
        """Rebuild from index and timeout (a worker process or cluster sends it back)."""
        return GenerateTimeout, (self.index, self.timeout)


def check_seed(seed: int | str) -> str:
    """The seed as text; a UsageError when it holds a control or line-breaking character."""
    text = str(seed)
    for position, char in enumerate(text):
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise UsageError(
                f"the seed holds the control character {char!r} at position {position + 1}: "
                "use letters, digits and punctuation"
            )
    return text


def default_min_region(stars: int) -> int:
    """The smallest region size allowed by default: 2S + 1 (S stars need 2S - 1 in a line)."""
    return 2 * stars + 1


def plant(
    size: int, stars: int, rng: random.Random, deadline: float | None = None
) -> list[Cell] | None:
    """A random valid placement of S stars per row and column (0-based), or None if none exists.

    Raises TimeLimitReached when the deadline, or a minute, passes first.
    """
    rows = Board.from_rows([[str(r)] * size for r in range(size)], stars)
    randomly = ("--rand-freq=0.05", "--sign-def=rnd", f"--seed={rng.randrange(1 << 30)}")
    solver = Solver(rows, clingo_args=randomly, ground_timeout=time_left(deadline))
    found = list(solver.solutions(1, timeout=min(60, time_left(deadline) or 60)))
    if solver.last.timed_out:
        raise TimeLimitReached
    return [(r - 1, c - 1) for r, c in found[0].stars] if found else None


def generate_one(
    size: int,
    stars: int,
    seed: str,
    *,
    min_region: int | None = None,
    patience: int = 150,
    deadline: float | None = None,
    keep_lines: bool = False,
) -> Generated | None:
    """One puzzle from a seed, or None when this seed does not lead to one (in time).

    `keep_lines`: the runs of stars that claim just 2S - 1 cells of a row stay regions of
    that shape (smaller than `min_region`): what makes a puzzle easy.
    """
    try:
        return _generate_one(
            size, stars, check_seed(seed), min_region, patience, deadline, keep_lines
        )
    except TimeLimitReached:
        return None


def _generate_one(
    size: int,
    stars: int,
    seed: str,
    min_region: int | None,
    patience: int,
    deadline: float | None,
    keep_lines: bool,
) -> Generated | None:
    """generate_one, raising TimeLimitReached when the deadline passes."""
    started = time.perf_counter()
    minimum = default_min_region(stars) if min_region is None else min_region
    rng = random.Random(seed)
    planted = plant(size, stars, rng, deadline)
    if planted is None:
        return None
    owner = claim(size, stars, planted)
    kept = lines(owner, stars) if keep_lines else frozenset()
    grown = grow(owner, rng, kept)
    if any(label < 0 for row in grown for label in row):  # cells walled in by kept lines
        return None
    regions = Regions(grown, kept)
    compact(regions, set(planted), rng, 10 * size**3, minimum, deadline)
    if not fill(regions, set(planted), rng, minimum):
        return None
    if not repair(regions, set(planted), stars, rng, patience, minimum, deadline):
        return None
    solver = Solver(Board.from_rows(regions.grid, stars), ground_timeout=time_left(deadline))
    search = solver.count(time_left(deadline))
    if search.timed_out:
        raise TimeLimitReached
    if search.found != 1:  # the re-check by counting
        return None
    board = solver.board
    solution = Solution.from_cells(size, [(r + 1, c + 1) for r, c in planted], board)
    return Generated(board, solution, seed, time.perf_counter() - started)


def canonical(board: Board) -> tuple[str, ...]:
    """The board's partition in a form equal for all its rotations and reflections."""
    grid = [list(row) for row in board.regions]
    forms = []
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # rotate a quarter turn
        for candidate in (grid, [row[::-1] for row in grid]):
            names: dict[str | None, str] = {}
            forms.append(
                tuple(
                    "".join(names.setdefault(label, chr(48 + len(names))) for label in row)
                    for row in candidate
                )
            )
    return min(forms)


def refuse_impossible(
    size: int, stars: int, min_region: int | None, deadline: float | None = None
) -> None:
    """Refuse, before any attempt, a size and star count that no puzzle can have.

    Raises TimeLimitReached when the deadline (or a minute) passes before that is known.
    """
    if stars > king_capacity(size):
        raise UsageError(
            f"{stars} stars per row cannot fit a {size}x{size} board without touching (at most "
            f"{king_capacity(size)}): use a larger board or fewer stars"
        )
    smallest = default_min_region(stars) if min_region is None else min_region
    if smallest > size:
        raise UsageError(
            f"{size} regions of at least {smallest} cells cannot fit a {size}x{size} board "
            f"({size * size} cells): lower --min-region or use a larger board"
        )
    if plant(size, stars, random.Random(0), deadline) is None:
        raise UsageError(
            f"no {size}x{size} grid holds {stars} star(s) in every row and column without two "
            "touching: use a larger board or fewer stars"
        )


def make_puzzle(
    size: int,
    stars: int,
    seed: int | str,
    index: int,
    *,
    min_region: int | None = None,
    timeout: float | None = None,
    attempts: int = 1000,
    first_attempt: int = 0,
    seen: frozenset[tuple[str, ...]] = frozenset(),
    spent: float = 0.0,
    keep_lines: bool = False,
    race: Race | None = None,
) -> Generated:
    """Puzzle `index`: the first success among the seeds "SEED/index/i" not `seen` before.

    `spent` seconds of the first puzzle's time went before it (the impossibility check).
    With a `race` several processes make the attempts in turn, each taking the next
    one when it is done, and the first success in order is kept (so the puzzle is the same):
    the attempts that end on a plateau cost the puzzle's wall time less. Raises
    GenerateTimeout when it takes longer than `timeout` (or all the attempts).
    """
    started = time.perf_counter() - (spent if index == 0 else 0.0)
    deadline = None if timeout is None else started + timeout
    attempt = partial(
        _attempt,
        size,
        stars,
        f"{seed}/{index}",
        min_region=min_region,
        deadline=deadline,
        keep_lines=keep_lines,
    )
    numbers = list(range(first_attempt, attempts))
    if race is not None:
        results = race(attempt, numbers, _attempt_lost)
    else:
        results = (attempt(number) for number in numbers)
    with closing(results):
        for result in results:
            if isinstance(result, UsageError):
                raise result
            if deadline is not None and time.perf_counter() > deadline:
                raise GenerateTimeout(index, timeout or 0)  # late counts as failed
            if result is not None and canonical(result.board) not in seen:
                return Generated(
                    result.board, result.solution, result.seed, time.perf_counter() - started
                )
    raise GenerateTimeout(index, None)


def _attempt(size: int, stars: int, prefix: str, number: int, **options: Any) -> Generated | None:
    """Attempt `number` of a puzzle: generate_one from the seed "PREFIX/number"."""
    return generate_one(size, stars, f"{prefix}/{number}", **options)


def _attempt_lost(number: int, code: int | None) -> UsageError | None:
    """The error of a racing attempt whose process died, raised when its turn comes.

    Skipping the attempt could change the puzzle; a later attempt lost while an earlier one
    still runs does not matter if the earlier one succeeds. A process that ended itself at
    the time limit (exit 3, while clingo grounds) failed like an attempt out of time: None,
    and the time limit speaks.
    """
    if code == Exit.TIMEOUT:
        return None
    return UsageError(
        f"attempt {number} ended with its process (exit {code}), e.g. out of memory: "
        "run again, or with -j 1"
    )


def next_attempt(puzzle: Generated) -> int:
    """The attempt after the one that made this puzzle (its seed ends in "/attempt")."""
    return int(puzzle.seed.rsplit("/", 1)[1]) + 1


def generate(
    size: int,
    stars: int,
    count: int = 1,
    seed: int | str = 0,
    *,
    min_region: int | None = None,
    timeout: float | None = None,
    attempts: int = 1000,
    run: Callable[[Callable[[int], Generated], list[int]], Iterable[Generated]] = map,
    keep_lines: bool = False,
    race: Race | None = None,
) -> Iterator[Generated]:
    """Yield `count` different puzzles (not equal up to rotation and reflection).

    Puzzle k is the first success among the seeds "SEED/k/0", "SEED/k/1", ... that is not
    one of the puzzles before it; without a time limit the same seed always gives the same
    puzzles. A puzzle's `seconds` count every attempt it took. Raises GenerateTimeout when
    one takes longer than `timeout`. `run(work, indexes)` yields work(k) for every k in
    order, here by default, or e.g. `batch.run_all` with jobs or `cluster.run_on_cluster`
    with an address (bound by functools.partial): the puzzles are the same. Raises
    UsageError for a seed holding a control character. `keep_lines`: see `generate_one`.
    `race`: while the puzzles are made here one at a time (`run` is map), processes that
    make each puzzle's attempts (see `make_puzzle`); the puzzles are the same.
    """
    seed = check_seed(seed)
    began = time.perf_counter()
    try:  # part of the first puzzle's time
        refuse_impossible(size, stars, min_region, None if timeout is None else began + timeout)
    except TimeLimitReached:
        if timeout is not None:
            raise GenerateTimeout(0, timeout) from None
    work = partial(
        make_puzzle,
        size,
        stars,
        seed,
        min_region=min_region,
        timeout=timeout,
        attempts=attempts,
        spent=time.perf_counter() - began,
        keep_lines=keep_lines,
        race=race if run is map else None,  # a worker process of `run` starts none of its own
    )
    seen: set[tuple[str, ...]] = set()
    for index, made in enumerate(run(work, list(range(count)))):
        puzzle = made
        if canonical(puzzle.board) in seen:  # rare: made apart from the puzzles before it
            again = work(index, first_attempt=next_attempt(puzzle), seen=frozenset(seen))
            puzzle = again._replace(seconds=made.seconds + again.seconds)
        seen.add(canonical(puzzle.board))
        yield puzzle
