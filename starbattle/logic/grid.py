"""A board's geometry in cell numbers, a state seen per unit, and a deduction in those numbers.

Cell numbers are (r-1)*n + (c-1) and units are numbered rows, columns, then regions, so that
the techniques work on small integers and sets of them, not on cells and names.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from functools import cached_property, lru_cache
from typing import NamedTuple, TypeVar

from starbattle.limits import time_left
from starbattle.model.board import Board, Cell
from starbattle.model.units import region_names, units_of

COVER_NODES = 250
"""The cell sets one 2x2 cover search for more blocks than a unit's stars (a container's)
looks at before it gives up (`Grid.cover`)."""
REMEMBERED = 100_000
"""The answers a board keeps of each question asked again and again (covers, capacities,
`Grid.scattered`, a unit's numbers in a tally, a part's tiling: `remember`); then it starts
again, a bound on memory that changes no answer (each is the same whatever was asked before)."""


class Found(NamedTuple):
    """A deduction in cell numbers, before it becomes a Step."""

    technique: str
    units: tuple[int, ...]
    cells: tuple[int, ...]
    stars: frozenset[int]
    blanks: frozenset[int]
    sentence: str
    level: int | None = None
    """A hint program's level; None for a built-in technique (its level is the registry's)."""
    chain: tuple[Found, ...] = ()
    """A trial's chain: the assumed mark, each step that follows, the rule it breaks."""


Item = TypeVar("Item")


def gathered(items: Iterable[Item], argument: Callable[[Item], Hashable]) -> list[list[Item]]:
    """The items that rest on the same argument, together, in the order first found.

    One argument, one step: a technique gathers what it finds per cell by what the argument
    rests on (its premise units) and makes one step of each gathering.
    """
    groups: dict[Hashable, list[Item]] = {}
    for item in items:
        groups.setdefault(argument(item), []).append(item)
    return list(groups.values())


def and_filled(units: Iterable[int], fulls: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """A gathered step's premise units: the argument's, then every unit a cell's star fills."""
    return tuple(dict.fromkeys([*units, *(unit for full in fulls for unit in full)]))


def bits(mask: int) -> Iterator[int]:
    """The cell numbers of a bit mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Grid:
    """The board's geometry in cell numbers (r-1)*n + (c-1): units, neighbours, names."""

    def __init__(self, board: Board, deadline: float | None = None) -> None:
        self.deadline = deadline
        """The caller's time limit (perf_counter seconds), kept by the grid's cover searches."""
        n = self.n = board.size
        self.quota = board.stars
        self.coords = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
        playable = [board.regions[r - 1][c - 1] is not None for r, c in self.coords]
        self.cells = [i for i in range(n * n) if playable[i]]
        self.units = units_of(board)
        """Every unit, numbered: rows, columns, then regions."""
        self.number = {unit: u for u, unit in enumerate(self.units)}
        """The number of each unit."""
        names = [unit.name(board) for unit in self.units]
        shown = region_names(board)
        words = board.words
        self.labels = [
            (words.get(str(unit.key)) or shown[str(unit.key)])
            if unit.kind == "region"
            else str(unit.key)
            for unit in self.units
        ]
        """What each unit is called within its kind: a row's number, a region's name."""
        self.worded = bool(words)
        """Whether regions are called by words (colours): 'the red region', not 'region B'."""
        members = [tuple((r - 1) * n + c - 1 for r, c in unit.cells(board)) for unit in self.units]
        kinds = [unit.kind for unit in self.units]
        self.names, self.members, self.kinds = names, members, kinds
        self.rows, self.columns = list(range(n)), list(range(n, 2 * n))
        self.regions = list(range(2 * n, len(names)))
        self.units_of: list[list[int]] = [[] for _ in range(n * n)]
        for unit, cells in enumerate(members):
            for i in cells:
                self.units_of[i].append(unit)
        self.around = [
            tuple(
                (r + dr - 1) * n + c + dc - 1
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc)
                and 1 <= r + dr <= n
                and 1 <= c + dc <= n
                and playable[(r + dr - 1) * n + c + dc - 1]
            )
            for r, c in self.coords
        ]

        self.sets = [frozenset(cells) for cells in members]
        self.masks = [sum(1 << i for i in cells) for cells in members]
        self.halos = [frozenset(j for i in cells for j in self.around[i]) for cells in members]
        """Each unit's cells' neighbours: where a star a unit's argument rests on may lie."""
        self.reach = [sum(1 << j for j in (i, *self.around[i])) for i in range(n * n)]
        """A cell and its neighbours, as a bit mask: what a star there takes from the board."""
        self.near = [
            sorted({u for j in (i, *self.around[i]) for u in self.units_of[j]})
            for i in range(n * n)
        ]
        self.blocks = [
            tuple(
                frozenset(
                    rr * n + cc
                    for rr in (r - 1, r)
                    for cc in (left, left + 1)
                    if rr < n and 0 <= cc < n and playable[rr * n + cc]
                )
                for left in (c - 2, c - 1)
                if left >= 0 or left == c - 1
            )
            for r, c in self.coords
        ]
        """The 2x2 blocks worth trying for a cell first in reading order: its row on top."""
        self._covers: dict[tuple[frozenset[int], int], tuple[list[frozenset[int]] | None, int]]
        self._covers = {}
        """Each question's cover (or None) and the cell sets its search looked at."""
        self._capacities: dict[tuple[int, int], int] = {}
        self._scattered: dict[tuple[int, int], int] = {}
        self.turned = [1 << ((c - 1) * n + r - 1) for r, c in self.coords]
        """Per cell: its bit in a mask of cells numbered column by column (a turned board)."""
        self.block_masks = [
            tuple(
                (sum(1 << i for i in b), sum(self.turned[i] for i in b), r - 1, left)
                for b, left in zip(blocks, (c - 2, c - 1)[2 - len(blocks) :], strict=True)
            )
            for blocks, (r, c) in zip(self.blocks, self.coords, strict=True)
        ]
        """Per cell: its `blocks` as bit masks (cells numbered row by row, and column by
        column), each with its top row and left column."""
        self.memo: dict[str, object] = {}
        """What techniques work out once per board (e.g. arrays of its geometry)."""

    def cover(self, cells: frozenset[int], limit: int) -> list[frozenset[int]] | None:
        """At most `limit` 2x2 blocks covering the cells, or None when the search finds none.

        Hand-written: a tiny exact cover search (the first uncovered cell in reading order
        is best covered by a block whose top row is its own, so two branches per block),
        remembered per board (REMEMBERED answers at most) because traces ask the same
        questions again and again. A search for more blocks than a unit's stars looks at
        COVER_NODES cell sets at most and then finds none: every caller takes a cover found
        as its argument's witness and None as no argument, so a search cut short costs a
        deduction, never soundness. One for a unit's stars or fewer (levels 3 and 4) is not
        cut up to 13 stars: two blocks per cell tried make 2^(limit+1) - 1 cell sets at most.
        Each search remembers its cell sets for itself alone, so its answer never depends on
        the questions asked before it (nor its memory on a whole trace's: a 25x25 board's
        trace once filled 24 GB).
        """
        key = (cells, limit)
        if key not in self._covers:
            time_left(self.deadline)
            most = COVER_NODES if limit > self.quota else 2 ** (min(limit, 13) + 1)
            nodes = [most]
            found = self._search(self._lines(cells), limit, {}, nodes)
            remember(self._covers, key, (found, most - nodes[0]))
        return self._covers[key][0]

    def searched(self, cells: frozenset[int], limit: int) -> int:
        """The cell sets `cover`'s search of this question looked at (1 if it needed none).

        The same whether the answer was remembered or not: work a budget may count.
        """
        return max(1, self._covers.get((cells, limit), (None, 1))[1])

    def _search(
        self,
        cells: tuple[int, int, tuple[int, ...]],
        limit: int,
        seen: dict[tuple[int, int], list[frozenset[int]] | None],
        nodes: list[int],
    ) -> list[frozenset[int]] | None:
        """`cover`'s search below its question: the cell sets met so far, the nodes left.

        The cells come as bit masks numbered row by row and column by column, with their
        lines' pairs (`_lines`), so that a cell set and its bound are made without a set of
        cells and a block taken away changes only its own two rows' and columns' pairs.
        """
        mask, _, sums = cells
        if not mask:
            return []
        if limit <= 0 or mask.bit_count() > 4 * limit:
            return None
        key = (mask, limit)
        if key in seen:
            return seen[key]
        nodes[0] -= 1
        found = None
        if nodes[0] >= 0 and max(sums) <= limit:
            first = (mask & -mask).bit_length() - 1
            for block, taken in zip(self.blocks[first], self.block_masks[first], strict=True):
                rest = self._search(self._without(cells, taken), limit - 1, seen, nodes)
                if rest is not None:
                    found = [block, *rest]
                    break
        seen[key] = found
        return found

    def _without(
        self, cells: tuple[int, int, tuple[int, ...]], block: tuple[int, int, int, int]
    ) -> tuple[int, int, tuple[int, ...]]:
        """`_search`'s cells less a block (its masks, its top row and left column)."""
        mask, turned, sums = cells
        in_rows, in_columns, top, left = block
        n, full, after = self.n, (1 << self.n) - 1, list(sums)
        rest, turned_rest = mask & ~in_rows, turned & ~in_columns
        for lines, less, first, offset in ((mask, rest, top, 0), (turned, turned_rest, left, 2)):
            for k in (first, first + 1):
                if 0 <= k < n:
                    was, now = lines >> (k * n) & full, less >> (k * n) & full
                    if was != now:
                        after[offset + (k & 1)] += _pairs(now) - _pairs(was)
        return rest, turned_rest, tuple(after)

    def _lines(self, cells: Iterable[int]) -> tuple[int, int, tuple[int, ...]]:
        """Cells as bit masks numbered row by row and column by column, and their pairs.

        The greedy pairs covering each line, summed over the rows of each parity and the
        columns of each parity (`least_blocks`).
        """
        mask = turned = 0
        for i in cells:
            mask |= 1 << i
            turned |= self.turned[i]
        n, full, sums = self.n, (1 << self.n) - 1, [0, 0, 0, 0]
        for lines, offset in ((mask, 0), (turned, 2)) if mask else ():
            first = ((lines & -lines).bit_length() - 1) // n
            for k in range(first, (lines.bit_length() - 1) // n + 1):
                line = lines >> (k * n) & full
                if line:
                    sums[offset + (k & 1)] += _pairs(line)
        return mask, turned, tuple(sums)

    def least_blocks(self, cells: frozenset[int]) -> int:
        """A lower bound on the 2x2 blocks that cover the cells (no search).

        A block covers two adjacent cells at most of one row and lies in two adjacent rows,
        so the rows of one parity need at least the sum of their rows' greedy covers by
        pairs; likewise for columns. The best of the four such sums.
        """
        return max(self._lines(cells)[2])

    def spread(self, mask: int, enough: int) -> int:
        """A lower bound on the 2x2 blocks covering a bit mask's cells, counted up to `enough`.

        The count of `scattered`'s cells: cheaper than `least_blocks` (no cell set is built).
        """
        return self.scattered(mask, enough).bit_count()

    def scattered(self, mask: int, enough: int) -> int:
        """Up to `enough` of a bit mask's cells no two of which share a 2x2 block, as a mask.

        Picked greedily in reading order; each needs a block of its own. Remembered per board
        (the last REMEMBERED questions at most): the same areas are asked again state after
        state.
        """
        key = (mask, enough)
        picked = self._scattered.get(key)
        if picked is None:
            picked, count, reach = 0, 0, self.reach
            while mask and count < enough:
                low = mask & -mask
                mask &= ~reach[low.bit_length() - 1]
                picked |= low
                count += 1
            remember(self._scattered, key, picked)
        return picked

    def capacity(self, mask: int, most: int) -> int:
        """The fewest 2x2 blocks covering a bit mask's cells, or `most` if as many are needed.

        The stars the cells can hold are at most this (a block holds one at most). Asked by
        bit mask: the counting techniques ask it millions of times per trace, mostly again.
        A search (not a question asked before) raises TimeLimitReached past the deadline.
        """
        key = (mask, most)
        found = self._capacities.get(key)
        if found is None:
            time_left(self.deadline)
            cells, found = frozenset(bits(mask)), most
            for size in range(self.least_blocks(cells), most):
                if self.cover(cells, size) is not None:
                    found = size
                    break
            remember(self._capacities, key, found)
        return found

    def cell(self, i: int) -> Cell:
        """The (row, column) of a cell number."""
        return self.coords[i]

    def where(self, i: int) -> str:
        """'(3,4)'."""
        r, c = self.coords[i]
        return f"({r},{c})"


class View:
    """A state seen per unit: stars, undecided cells and stars still needed."""

    def __init__(
        self,
        grid: Grid,
        stars: frozenset[int],
        blanks: frozenset[int],
        since: View | None = None,
        solutions: Iterable[frozenset[int]] = (),
    ) -> None:
        self.grid, self.stars, self.blanks = grid, stars, blanks
        agreeing = [s for s in solutions if stars <= s and not blanks & s]
        self.seen_star: frozenset[int] = frozenset().union(*agreeing)
        """The cells that are stars in a known solution agreeing with the marks (`solutions`):
        no sound argument proves them empty, so the techniques that refute a star skip them."""
        self.seen_empty = (
            frozenset(grid.cells) - frozenset.intersection(*agreeing) if agreeing else frozenset()
        )
        """The cells empty in a known solution agreeing with the marks: none proves them stars."""
        self.changed: frozenset[int] | None = None
        """The units whose undecided cells changed since a state (`since`, this state with
        fewer marks) where the cheap techniques of levels 3 and 4 found nothing; None: every
        unit counts as changed. Those techniques look at changed units alone, as a unit
        left as it was there concludes nothing new."""
        if since is None:
            self.open = [cells - stars - blanks for cells in grid.sets]
            self.has = [len(cells & stars) for cells in grid.sets]
        else:
            added = (stars | blanks) - since.stars - since.blanks
            self.changed = frozenset(u for i in added for u in grid.units_of[i])
            self.open, self.has = list(since.open), list(since.has)
            for u in self.changed:
                self.open[u] = since.open[u] - added
                self.has[u] = len(grid.sets[u] & stars)
        self.need = [grid.quota - has for has in self.has]
        self.memo: dict[str, object] = {}
        """What the techniques work out once per state and share (e.g. its containers)."""
        self.quiet: set[int] = set()
        """The levels whose cheap techniques found nothing here (noted by Logic.apply)."""

    def fresh(self, unit: int) -> bool:
        """Whether a unit changed since a state where levels 3 and 4 found nothing (`changed`)."""
        return self.changed is None or unit in self.changed

    @cached_property
    def open_masks(self) -> list[int]:
        """Each unit's undecided cells, as a bit mask."""
        decided = sum(1 << i for i in self.stars | self.blanks)
        return [mask & ~decided for mask in self.grid.masks]

    def marks_in(self, units: Iterable[int]) -> tuple[int, ...]:
        """The marked cells of some units, and stars touching them (what they rest on)."""
        grid, marked = self.grid, self.marked
        marks: set[int] = set()
        for unit in units:
            marks |= grid.sets[unit] & marked
            marks |= grid.halos[unit] & self.stars
        return tuple(sorted(marks))

    @cached_property
    def marked(self) -> frozenset[int]:
        """The cells marked a star or empty."""
        return self.stars | self.blanks


def remember(store: dict, key: Hashable, answer: Item) -> Item:
    """Keep a board's answer to a question in its store, emptied first once it holds REMEMBERED."""
    if len(store) >= REMEMBERED:
        store.clear()
    store[key] = answer
    return answer


@lru_cache(maxsize=REMEMBERED)
def _pairs(mask: int) -> int:
    """The fewest pairs of adjacent bits covering a mask's bits (greedy from the lowest).

    Remembered: asked of a line's cells at every node of every cover search.
    """
    count = 0
    while mask:
        low = mask & -mask
        mask &= ~(low | low << 1)
        count += 1
    return count
