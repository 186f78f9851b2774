"""Band tallies for counting exclusion, and the screen that finds the few a lone star may break.

A tally is a band with the units of one kind meeting it and their bounds on its stars by 2x2
room (capacity counting). Counting exclusion (starbattle.logic.exclusion) asks, for each
undecided cell X and each tally, whether a star at X would move those bounds past the
band's need. Almost no pair can: the units' rough bounds (each unit's room lowered by the
2x2 blocks the star's 3x3 square can take from it) still add up. `screen` works out those
rough bounds for every pair of a state at once with numpy: one array operation per term,
where a Python loop per pair cost 10 million unit visits on 364 real stuck states. What it
leaves is what the technique's exact cover search then decides, pair by pair.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from starbattle.logic.containers import bands
from starbattle.logic.grid import remember

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from starbattle.logic.grid import Grid, View

SPAN = {"row": 2, "column": 2, "region": 4}
"""The 2x2 blocks a 3x3 square's cells in one unit of a kind can span at most."""
CHUNK = 64
"""The stars screened together: bounds the arrays (25x25) and the work past a spent budget."""


class Tally(NamedTuple):
    """A band, the units of one kind meeting it, and their bounds on its stars by 2x2 room."""

    lines: tuple[int, ...]
    meeting: frozenset[int]
    need: int
    bounds: dict[int, tuple[int, int]]
    """Each meeting unit's (most, least) stars in the band."""
    most: int
    least: int
    """Their sums."""
    mask: int
    """The band's undecided cells, as a bit mask."""
    caps: dict[int, tuple[int, int]]
    """Each meeting unit's room (`caps`) inside and outside the band."""
    units: int
    """The meeting units, as a bit mask."""
    span: int
    """The 2x2 blocks a star's 3x3 square can span in one of them (`steady`)."""
    steady: bool
    """No star can break its count unless it fills units (`steady`)."""


def tallies(view: View) -> list[Tally]:
    """Every band's tally with the units of each kind meeting it (worked out once per state).

    One pass over the units meeting each band makes their tally and their row of the tally
    table (`_table`): a trace asks this of every stuck state.
    """
    if "tallies" in view.memo:
        return view.memo["tallies"]  # type: ignore[return-value]
    grid, found, masks, needs = view.grid, [], view.open_masks, view.need
    capacity, n = grid.capacity, grid.n
    parts: dict = grid.memo.setdefault("tally parts", {})  # type: ignore[assignment]
    pairs: list[int] = []  # each meeting unit and its tally's index
    numbers: list[int] = []  # their rows of _Table.per_unit, in its order
    per_tally: list[int] = []  # the tallies' columns of _Table.per_tally
    for lines, others in bands(view):
        mask = 0
        for u in lines:
            mask |= masks[u]
        need, across, (first, after) = sum(needs[u] for u in lines), lines[0] >= n, _span(lines, n)
        for group in others:
            meeting = [u for u in group if masks[u] & mask]
            if not meeting:
                continue
            span, k = SPAN[grid.kinds[meeting[0]]], len(found)
            room, bounds, most, least, units, drops, rises = {}, {}, 0, 0, 0, [], []
            for u in meeting:  # caps, from_caps and steady's terms, inline: asked millions of times
                inside = masks[u] & mask
                key = (inside, masks[u], needs[u], span)
                row = parts.get(key)
                if row is None:  # remembered: a 25x25 trace asks 28,000 different ones
                    row = remember(
                        parts, key, _part(capacity, inside, masks[u] ^ inside, needs[u], span)
                    )
                room[u], bounds[u] = row[:2], row[2:4]
                most, least, units = most + row[2], least + row[3], units | 1 << u
                drops.append(row[6])
                rises.append(row[7])
                pairs += (u, k)
                numbers += row[:6]
            fixed = steady(span, drops, rises, (most - need, need - least))
            per_tally += (most, least, need, span, fixed, across, first, after)
            numbers_of = (need, bounds, most, least, mask, room, units, span, fixed)
            found.append(Tally(lines, frozenset(meeting), *numbers_of))
    view.memo["tallies"] = found
    view.memo["tally numbers"] = pairs, numbers, per_tally
    return found


def _part(
    capacity: Callable[[int, int], int], inside: int, outside: int, wanted: int, span: int
) -> tuple[int, ...]:
    """A unit's numbers in a tally, remembered per board by its cells and stars.

    Its room inside and outside the band, its most and least stars there, its undecided
    cells inside and outside, and `steady`'s drop and rise.
    """
    room_in = capacity(inside, wanted + 1)
    room_out = capacity(outside, wanted + 1) if outside else 0
    high, low = min(wanted, room_in), max(0, wanted - room_out)
    drop, rise = min(high, span), min(wanted, span - max(0, room_out - wanted))
    return (room_in, room_out, high, low, inside.bit_count(), outside.bit_count(), drop, rise)


def pinned(view: View) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(tally, unit): whether the others' bounds may pin the unit's share, and its bounds.

    A share (least, most) pins when it is none (the unit's cells inside are empty), its
    whole need (those outside are empty, if any), or equal to a part's room (one star per
    2x2 block there, which may decide cells): capacity counting's first round, for every
    tally at once, with every share's least and most.
    """
    table = _table(view)
    room_in, room_out, most, least, _, open_out = table.per_unit
    most_t, least_t, need_t = table.per_tally[:3, :, None]
    need = np.array(view.need, np.intp)[None, :]
    low = np.maximum(least, need_t - (most_t - most))
    high = np.minimum(most, need_t - (least_t - least))
    pins = (
        (high == 0)
        | ((low == need) & (open_out > 0))
        | ((low > 0) & (low == room_in))
        | ((need - high > 0) & (need - high == room_out))
    )
    possible = (need_t[:, 0] > 0) & (most_t[:, 0] >= need_t[:, 0]) & (least_t[:, 0] <= need_t[:, 0])
    return pins & table.meets.T & possible[:, None], low, high


def steady(span: int, drops: list[int], rises: list[int], slack: tuple[int, int]) -> bool:
    """Whether no star that fills no unit can break a band's count, by its (most, least) slack.

    The star takes a 3x3 square: taking cells lowers a part's room by at most the 2x2
    blocks they span (`span`), 2 of a line's 3 adjacent cells and 4 of a region's (9 cells
    in all), and its own unit needs one star less. So the meeting units' bounds move by at
    most so much: each unit's drop of its most (its most, up to `span`) and rise of its
    least (its need, up to `span` less its room outside beyond its need), over the 3 lines
    or 9 regions the square can meet. A band whose slack on both sides is that large keeps
    its count.
    """
    if slack[0] < 1 or slack[1] < 1:
        return False
    most_units = 9 if span == SPAN["region"] else 3
    drops.sort(reverse=True)
    rises.sort(reverse=True)
    drop = 1 + min(9, sum(drops[:most_units]))
    rise = min(9, sum(rises[:most_units]))
    return slack[0] >= drop and slack[1] - 1 >= rise


class _Table(NamedTuple):
    """The tallies as arrays (a unit's numbers 0 where it does not meet the band)."""

    meets: np.ndarray
    """(unit, tally): the unit meets the band."""
    per_unit: np.ndarray
    """(6, tally, unit): its room inside and outside the band, its (most, least) stars in
    it, its undecided cells inside and outside."""
    per_tally: np.ndarray
    """(8, tally): most, least, need, span, steady, the band's direction (0 rows, 1 columns),
    its first line and the line after its last (numbered within the direction)."""


def _table(view: View) -> _Table:
    """The state's tallies' numbers as arrays (worked out once per state)."""
    if "tally table" in view.memo:
        return view.memo["tally table"]  # type: ignore[return-value]
    grid, found = view.grid, tallies(view)
    pairs, numbers, columns = view.memo["tally numbers"]  # type: ignore[misc]
    unit, tally = np.array(pairs, np.intp).reshape(-1, 2).T
    meets = np.zeros((len(grid.units), len(found)), bool)
    meets[unit, tally] = True
    per_unit = np.zeros((6, len(found), len(grid.units)), np.int32)
    per_unit[:, tally, unit] = np.array(numbers, np.int32).reshape(-1, 6).T
    per_tally = np.array(columns, np.intp).reshape(-1, 8).T
    view.memo["tally table"] = _Table(meets, per_unit, per_tally)
    return view.memo["tally table"]  # type: ignore[return-value]


def _span(lines: tuple[int, ...], n: int) -> tuple[int, int]:
    """A band's first line and the line after its last, numbered within their direction."""
    return lines[0] % n, lines[-1] % n + 1


def _grid_arrays(grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's 3x3 square (the cell numbers, padded with n*n) and each unit's cells."""
    size = grid.n * grid.n
    square = np.full((size, 9), size, np.intp)
    for i in range(size):
        near = (i, *grid.around[i])
        square[i, : len(near)] = near
    members = np.zeros((len(grid.units), size + 1), bool)
    for u, cells in enumerate(grid.members):
        members[u, list(cells)] = True
    return square, members


def screen(
    view: View, count: int, stars: Sequence[tuple[int, list[int]]]
) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """For each star in turn (a cell and the units it fills): the tallies it may break.

    Of the state's first `count` tallies, each (its index) comes with the work since the
    one before (the units it and the tallies before it share with what the star takes, as
    counting exclusion counts them), then the work after the last. A lone star is not
    screened against a steady tally. A pair left out passes the tests that spare the exact
    cover search: its band's quick count, then its units' rough bounds.
    """
    if not count:
        yield from (([], 0) for _ in stars)
        return
    whole = _table(view)
    table = _Table(whole.meets[:, :count], whole.per_unit[:, :count], whole.per_tally[:, :count])
    for start in range(0, len(stars), CHUNK):
        chunk = stars[start : start + CHUNK]
        suspects, work = _screened(view, table, chunk)
        for row in range(len(chunk)):
            done, picked = 0, []
            for k in np.flatnonzero(suspects[row]).tolist():
                picked.append((k, int(work[row, k]) - done))
                done = int(work[row, k])
            yield picked, int(work[row, -1]) - done


def _screened(
    view: View, table: _Table, chunk: Sequence[tuple[int, list[int]]]
) -> tuple[np.ndarray, np.ndarray]:
    """(star, tally): whether the star may break the count, and the work up to it (cumulative)."""
    grid, n = view.grid, view.grid.n
    if "squares" not in grid.memo:
        grid.memo["squares"] = _grid_arrays(grid)
    square, members = grid.memo["squares"]  # type: ignore[misc]
    undecided = np.zeros(n * n + 1, bool)
    undecided[list(set(grid.cells) - view.stars - view.blanks)] = True
    xs = np.array([x for x, _ in chunk])
    reach = np.zeros((len(chunk), n * n + 1), bool)  # what each star takes, decided cells too
    reach[np.arange(len(chunk))[:, None], square[xs]] = True
    filled = np.zeros((len(chunk), len(grid.units)), bool)
    for row, (_, full) in enumerate(chunk):
        filled[row, full] = True
        for u in full:
            reach[row] |= members[u] & undecided
    reach[:, -1] = False
    taken = reach & undecided
    touched = (reach[:, None, :] & members[None, :, :]).any(axis=2)  # (star, unit)
    row, unit = np.nonzero(touched)
    left = np.array(view.need)[unit] - members[unit, xs[row]]
    left[filled[row, unit]] = 0
    lost = taken[row] & members[unit]  # (pair, cell)
    by_line = _prefixes(lost[:, :-1].reshape(-1, n, n))  # (pair, direction, line + 1)
    p, t = np.nonzero(table.meets[unit])
    (most_t, least_t, need_t, span_t, steady, across, first, after) = table.per_tally
    alone = ~filled.any(axis=1)[row[p]]
    keep = ~(alone & steady[t].astype(bool))
    p, t, alone = p[keep], t[keep], alone[keep]
    star, u, left = row[p], unit[p], left[p]
    inside = by_line[p, across[t], after[t]] - by_line[p, across[t], first[t]]
    outside = lost.sum(axis=1)[p] - inside
    span = np.where(alone, span_t[t], len(grid.cells))
    room_in, room_out, had_most, had_least, open_in, open_out = table.per_unit[:, t, u]
    room_in = room_in - np.minimum(span, inside)
    room_out = room_out - np.minimum(span, outside)
    most = np.where(left > 1, np.minimum(left, room_in), (left == 1) & (open_in > inside))
    least = np.where(left > 1, np.maximum(0, left - room_out), (left == 1) & (open_out <= outside))
    shape = (len(chunk), len(steady))
    key = star * shape[1] + t
    work = np.bincount(key, minlength=shape[0] * shape[1]).reshape(shape)
    lowest = most_t + _summed(key, most - had_most, shape)
    highest = least_t + _summed(key, least - had_least, shape)
    lines = _prefixes(taken[:, :-1].reshape(-1, n, n))  # (star, direction, line + 1)
    star_in = lines[:, across, after] - lines[:, across, first]  # (star, tally)
    need = need_t - _in_band(xs, n, table)
    spread = taken.sum(axis=1)[:, None]
    fills = filled.astype(np.intp) @ table.per_unit[2].T
    quick = (most_t - star_in - 1 - fills >= need) & (need >= least_t + spread - star_in)
    rough = (lowest >= need) & (need >= highest)
    return (work > 0) & ~quick & ~rough, np.cumsum(work, axis=1)


def _in_band(xs: np.ndarray, n: int, table: _Table) -> np.ndarray:
    """(star, tally): 1 where the star's cell lies in the band."""
    _, _, _, _, _, across, first, after = table.per_tally
    line = np.where(across[None, :] == 1, xs[:, None] % n, xs[:, None] // n)
    return ((first <= line) & (line < after)).astype(np.intp)


def _prefixes(cells: np.ndarray) -> np.ndarray:
    """(item, direction, k): how many of each item's n x n cells lie in the first k lines.

    Direction 0 counts rows, 1 columns.
    """
    counts = np.stack([cells.sum(axis=2), cells.sum(axis=1)], axis=1)
    prefixes = np.zeros((*counts.shape[:2], counts.shape[2] + 1), np.intp)
    np.cumsum(counts, axis=2, out=prefixes[:, :, 1:])
    return prefixes


def _summed(key: np.ndarray, values: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Values added up per (star, tally), from their flat keys."""
    sums = np.bincount(key, values, minlength=shape[0] * shape[1])
    return sums.reshape(shape).astype(np.intp)
