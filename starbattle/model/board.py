"""The Board model: an N x N grid cut into N regions, S stars per unit, blocked cells, givens."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from starbattle.errors import BoardError
from starbattle.limits import MAX_SIZE
from starbattle.words import plural

Cell = tuple[int, int]
"""A cell as (row, column), both 1-based."""
NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""The steps to a cell's orthogonal neighbours."""


def pieces(
    cells: Iterable[Cell], linked: Callable[[Cell, Cell], bool] | None = None
) -> list[list[Cell]]:
    """The 4-connected pieces of a set of cells, in order of their first cell (the one flood fill).

    `linked(a, b)` may keep two neighbouring cells apart (a wall between them).
    """
    order = list(cells)
    members = set(order)
    seen: set[Cell] = set()
    found = []
    for start in order:
        if start in seen:
            continue
        seen.add(start)
        piece, stack = [start], [start]
        while stack:
            r, c = stack.pop()
            for step in ((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)):
                if (
                    step in members
                    and step not in seen
                    and (linked is None or linked((r, c), step))
                ):
                    seen.add(step)
                    piece.append(step)
                    stack.append(step)
        found.append(piece)
    return found


def grid_pieces(cols: int, right: Sequence[bool], down: Sequence[bool]) -> list[int]:
    """Number the 4-connected pieces of a grid 0, 1, ... in reading order; one entry per cell.

    Cells are numbered r * cols + c; `right[i]` says whether cell i belongs with the cell to
    its right, `down[i]` with the cell below (both as long as the grid). Flat lists instead of
    a callback per pair, as `pieces` takes: a 14x14 SBN line reads in 0.3 ms instead of 0.93.
    """
    size = len(right)
    labels = [-1] * size
    number = 0
    for start in range(size):
        if labels[start] >= 0:
            continue
        labels[start] = number
        stack = [start]
        while stack:
            i = stack.pop()
            if right[i] and labels[i + 1] < 0:
                labels[i + 1] = number
                stack.append(i + 1)
            if i % cols and right[i - 1] and labels[i - 1] < 0:
                labels[i - 1] = number
                stack.append(i - 1)
            if down[i] and labels[i + cols] < 0:
                labels[i + cols] = number
                stack.append(i + cols)
            if i >= cols and down[i - cols] and labels[i - cols] < 0:
                labels[i - cols] = number
                stack.append(i - cols)
        number += 1
    return labels


def _label_hint(labels: Sequence[str]) -> str:
    """The labels of a board with the wrong region count, and any that look alike."""
    import difflib

    alike = [
        f"{label} and {near[0]}"
        for index, label in enumerate(labels)
        if (near := difflib.get_close_matches(label, labels[index + 1 :], n=1, cutoff=0.75))
        and len(label) > 1
    ]
    shown = ", ".join(labels[:30]) + (", ..." if len(labels) > 30 else "")
    return f" (labels: {shown}" + (f"; the same region? {'; '.join(alike)})" if alike else ")")


class RegionCountError(BoardError):
    """A board with another number of regions than rows: a board still being drawn."""

    def __init__(self, message: str, board: Board) -> None:
        super().__init__(message, file=board.name)
        self.board = board
        """The board as read, right in every other way (what a setter's verdict looks at)."""

    def __reduce__(self) -> tuple[type[RegionCountError], tuple[str, Board]]:
        """Rebuild from message and board (a worker process sends it back)."""
        return RegionCountError, (self.message, self.board)


class _Frozen:
    """An immutable record: equality, hashing and repr by the fields named in `_compared`.

    What a frozen dataclass gives, written out: creating a dataclass costs ~2 ms of every
    cold start (4 million instructions, measured with callgrind), and the command line's
    start is a target (benchmarks/speed.py).
    """

    _compared: ClassVar[tuple[str, ...]]

    def _set(self, **fields: Any) -> None:
        """Set the fields once, at construction."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._compared)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._compared)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot assign {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name}")


class Board(_Frozen):
    """A validated Star Battle board; cells are 1-based (row, column) pairs."""

    regions: tuple[tuple[str | None, ...], ...]
    """Row-major region labels; None marks a blocked cell (no region, no star)."""
    stars: int
    given_stars: frozenset[Cell]
    given_blanks: frozenset[Cell]
    name: str | None
    """Where the board came from (a file name), for messages; not part of equality."""
    words: dict[str, str]
    """The words a board shows for its regions, by label (the colour words of a board read
    from a coloured picture; empty: its labels); not part of equality."""
    _compared = ("regions", "stars", "given_stars", "given_blanks")

    def __init__(
        self,
        regions: tuple[tuple[str | None, ...], ...],
        stars: int,
        given_stars: frozenset[Cell] = frozenset(),
        given_blanks: frozenset[Cell] = frozenset(),
        name: str | None = None,
        words: Mapping[str, str] | None = None,
    ) -> None:
        """Check every rule of a Star Battle board; raise BoardError on the first broken one."""
        self._set(
            regions=regions,
            stars=stars,
            given_stars=given_stars,
            given_blanks=given_blanks,
            name=name,
            words=dict(words or {}),
        )
        size = len(self.regions)
        if size == 0:
            raise BoardError("the board has no rows", file=self.name)
        if size > MAX_SIZE:
            raise BoardError(
                f"the board has {size} rows; at most {MAX_SIZE} are supported", file=self.name
            )
        for index, row in enumerate(self.regions, start=1):
            if len(row) != size:
                raise BoardError(
                    f"row {index} has {plural(len(row), 'cell')} but the board has "
                    f"{plural(size, 'row')}: a Star Battle board is square",
                    file=self.name,
                )
        if isinstance(self.stars, bool) or not isinstance(self.stars, int) or self.stars < 1:
            raise BoardError(
                f"stars must be a whole number of at least 1, not {self.stars!r}", file=self.name
            )
        for kind, cells in (("given star", self.given_stars), ("given blank", self.given_blanks)):
            for row, column in sorted(cells):
                if not (1 <= row <= size and 1 <= column <= size):
                    raise BoardError(
                        f"{kind} ({row},{column}) lies outside the {size}x{size} board",
                        file=self.name,
                    )
        for row, column in sorted(self.given_stars):
            if self.regions[row - 1][column - 1] is None:
                raise BoardError(
                    f"given star ({row},{column}) is on a blocked cell", file=self.name
                )
        both = sorted(self.given_stars & self.given_blanks)
        if both:
            raise BoardError(
                f"cell ({both[0][0]},{both[0][1]}) is given both as a star and as a blank",
                file=self.name,
            )
        labels = self.region_labels
        if self.words and set(self.words) != set(labels):
            raise BoardError("the region words must name every region, once", file=self.name)
        if len(labels) != size:  # last: the error carries a board that is right but for this
            raise RegionCountError(
                f"the board is {size}x{size} but has {plural(len(labels), 'region')}; it needs "
                f"exactly {size}: the {size} rows hold {size}x{self.stars} stars in all and so "
                f"must the regions, {self.stars} each{_label_hint(labels)}",
                self,
            )

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[Sequence[object | None]],
        stars: int,
        *,
        given_stars: Iterable[Cell] = (),
        given_blanks: Iterable[Cell] = (),
        name: str | None = None,
        words: Mapping[str, str] | None = None,
    ) -> Board:
        """Build a board from rows of labels of any type (turned into strings; None = blocked)."""
        regions = tuple(
            tuple(None if label is None else str(label) for label in row) for row in rows
        )
        return cls(regions, stars, frozenset(given_stars), frozenset(given_blanks), name, words)

    @property
    def size(self) -> int:
        """The number of rows (and of columns, and of regions)."""
        return len(self.regions)

    @property
    def region_labels(self) -> tuple[str, ...]:
        """The region labels in order of first appearance, row by row."""
        seen: dict[str, None] = {}
        for row in self.regions:
            for label in row:
                if label is not None:
                    seen.setdefault(label)
        return tuple(seen)

    @property
    def blocked(self) -> frozenset[Cell]:
        """The blocked cells."""
        return frozenset(
            (r, c)
            for r, row in enumerate(self.regions, start=1)
            for c, label in enumerate(row, start=1)
            if label is None
        )

    def region_of(self, cell: Cell) -> str | None:
        """The label of the region a cell belongs to (None when blocked)."""
        return self.regions[cell[0] - 1][cell[1] - 1]

    def region_cells(self) -> dict[str, list[Cell]]:
        """Map every region label to its cells, in reading order."""
        cells: dict[str, list[Cell]] = {label: [] for label in self.region_labels}
        for r, row in enumerate(self.regions, start=1):
            for c, label in enumerate(row, start=1):
                if label is not None:
                    cells[label].append((r, c))
        return cells

    def split_regions(self) -> dict[str, int]:
        """The regions that lie in several separate pieces, with how many.

        A region whose pieces only blocked cells keep apart is whole: the blocked cells were
        cut out of it on purpose.
        """
        flat = [label for row in self.regions for label in row]
        split = _pieces(self.size, flat, lambda a, b: a == b)
        return {
            label: count
            for label, count in split.items()
            if label in _pieces(self.size, flat, partial(_both_in, {label, None}))
        }

    def with_stars(self, stars: int) -> Board:
        """The same board with another star count."""
        return Board(
            self.regions, stars, self.given_stars, self.given_blanks, self.name, self.words
        )


def _both_in(joined: set[str | None], a: str | None, b: str | None) -> bool:
    """Whether two neighbouring cells are joined: both are in the set of labels."""
    return {a, b} <= joined


def _pieces(
    n: int, flat: list[str | None], joined: Callable[[str | None, str | None], bool]
) -> dict[str, int]:
    """The labels whose cells lie in several pieces, neighbours joined when `joined` says."""
    right = [(i + 1) % n > 0 and joined(flat[i], flat[i + 1]) for i in range(n * n)]
    down = [i + n < n * n and joined(flat[i], flat[i + n]) for i in range(n * n)]
    counts: dict[str, set[int]] = {}
    for label, piece in zip(flat, grid_pieces(n, right, down), strict=True):
        if label is not None:
            counts.setdefault(label, set()).add(piece)
    return {label: len(found) for label, found in counts.items() if len(found) > 1}


def king_capacity(size: int) -> int:
    """The most stars per row an N x N board can hold without two touching (N >= 2).

    Two adjacent rows split into ceil(N/2) blocks of at most 2x2 cells that all touch, one
    star each, so 2S <= ceil(N/2). Variants with other touching rules differ.
    """
    return -(-size // 2) // 2


def check_king_capacity(board: Board) -> None:
    """Raise BoardError when S stars per row cannot fit without touching (the king rule)."""
    size, blocks = board.size, -(-board.size // 2)
    if size >= 2 and board.stars > king_capacity(size):
        raise BoardError(
            f"{board.stars} stars per row cannot fit a {size}x{size} board: two adjacent rows "
            f"split into {blocks} blocks of touching cells, one star each, so they hold at "
            f"most {blocks} stars, not {2 * board.stars}; at most {king_capacity(size)} per row",
            file=board.name,
        )


class Solution(_Frozen):
    """A placement of stars on a board of a given size; stars are sorted 1-based cells."""

    size: int
    stars: tuple[Cell, ...]
    board: Board | None
    """The board it solves, when known (for pictures); not part of equality."""
    _compared = ("size", "stars")

    def __init__(self, size: int, stars: tuple[Cell, ...], board: Board | None = None) -> None:
        put = object.__setattr__  # directly, not by _set: enumerations make one per model
        put(self, "size", size)
        put(self, "stars", stars)
        put(self, "board", board)

    @classmethod
    def from_cells(cls, size: int, cells: Iterable[Cell], board: Board | None = None) -> Solution:
        """Build a solution from cells in any order."""
        return cls(size, tuple(sorted(cells)), board)

    def grid(self, star: str = "*", empty: str = ".") -> list[str]:
        """The solution as N strings, one per row."""
        n = self.size
        marks = [empty] * (n * n)
        for r, c in self.stars:
            marks[(r - 1) * n + c - 1] = star
        text = "".join(marks)
        return [text[start : start + n] for start in range(0, n * n, n)]
