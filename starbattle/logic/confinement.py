"""Level 5: confinement (k units lying inside k units of another kind)."""

from __future__ import annotations

from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.sentences import SENTENCE_LIMIT, units_text


def confinement(view: View) -> list[Found]:
    """K units lying inside k units of another kind (by the stars they still need).

    Lines inside lines are met from both sides (rows inside columns, columns meeting rows):
    one step each, the first found. The units of a kind inside each band and meeting it are
    listed only for a band where the stars they need add up (`_needed`).
    """
    grid, found, n = view.grid, [], view.grid.n
    for lines, index in ((grid.rows, 0), (grid.columns, 1)):
        others = [
            u
            for u in (*grid.regions, *(grid.columns if index == 0 else grid.rows))
            if view.need[u] > 0
        ]
        spans = {u: _lines_of(grid, view.open[u], index) for u in others}  # bit k-1: line k
        kinds = ("region", "column" if index == 0 else "row")
        groups = [[u for u in others if grid.kinds[u] == kind] for kind in kinds]
        needed = [_needed(view, group, spans, n) for group in groups]
        for size in range(1, n):
            for start in range(n - size + 1):
                band, chosen = ((1 << size) - 1) << start, lines[start : start + size]
                need = sum(view.need[u] for u in chosen)
                if need <= 0:
                    continue
                last = start + size - 1
                for group, (inside_need, meeting_need) in zip(groups, needed, strict=True):
                    if inside_need[start][last] == need:
                        inside = [u for u in group if not spans[u] & ~band]
                        band_open = {i for u in chosen for i in view.open[u]}
                        kept = {i for u in inside for i in view.open[u]}
                        blanks = frozenset(band_open - kept)
                        if blanks:
                            found.append(_confined(view, inside, chosen, blanks))
                    if meeting_need[start][last] == need:
                        meeting = [u for u in group if spans[u] & band]
                        blanks = frozenset(
                            i
                            for u in meeting
                            for i in view.open[u]
                            if not band >> (grid.cell(i)[index] - 1) & 1
                        )
                        if blanks:
                            found.append(_confined(view, chosen, meeting, blanks))
    return list({step.units: step for step in reversed(found)}.values())[::-1]


def _needed(
    view: View, group: list[int], spans: dict[int, int], n: int
) -> tuple[list[list[int]], list[list[int]]]:
    """The stars needed by the group's units inside each band of lines, and meeting it.

    Indexed [a][b] for the band of lines a..b (0-based). A unit lies inside the band when
    its first and last lines with undecided cells do (one with none lies inside every band),
    and misses it when the band falls in a run of lines where it has none: both counted
    for every band at once by sums over those first and last lines, instead of a scan of
    the units per band (level 6's trials ask for confinement at every round).
    """
    ends = [[0] * n for _ in range(n)]  # [first][last] line with undecided cells of a unit
    gaps = [[0] * n for _ in range(n)]  # [first][last] line of a run of lines without any
    nowhere = spanned = 0
    for u in group:
        need, span = view.need[u], spans[u]
        if not span:
            nowhere += need
            continue
        spanned += need
        ends[(span & -span).bit_length() - 1][span.bit_length() - 1] += need
        run = None
        for k in range(n):
            if not span >> k & 1:
                run = k if run is None else run
            elif run is not None:
                gaps[run][k - 1] += need
                run = None
        if run is not None:
            gaps[run][n - 1] += need
    inside = [[nowhere] * n for _ in range(n + 1)]  # ends from a on, up to b
    missing = [[0] * n for _ in range(n + 1)]  # gaps from a or before, to b or after
    for a in range(n - 1, -1, -1):
        total = 0
        for b in range(n):
            total += ends[a][b]
            inside[a][b] = inside[a + 1][b] + total
    for a in range(n):
        total = 0
        for b in range(n - 1, -1, -1):
            total += gaps[a][b]
            missing[a + 1][b] = missing[a][b] + total
    return inside, [[spanned - missing[a + 1][b] for b in range(n)] for a in range(n)]


def _lines_of(grid: Grid, cells: frozenset[int], index: int) -> int:
    """The rows (index 0) or columns (1) some cells lie in, as a bit mask (bit k-1: line k)."""
    mask = 0
    for i in cells:
        mask |= 1 << grid.cell(i)[index] - 1
    return mask


def _confined(view: View, inner: list[int], outer: list[int], blanks: frozenset[int]) -> Found:
    """One confinement step: `inner` units lie inside `outer` ones (premises in that order)."""
    grid = view.grid
    lie = "lies" if len(inner) == 1 else "lie"
    inner_text, outer_text = units_text(grid, inner), units_text(grid, outer)
    partial = any(view.has[u] for u in (*inner, *outer))
    count = f" (needing {sum(view.need[u] for u in inner)} more stars, as many)" if partial else ""
    text = (
        f"{inner_text}{count} {lie} inside {outer_text}, so every other cell of "
        f"{outer_text} is empty"
    )
    if len(text) > SENTENCE_LIMIT:
        text = (
            f"{len(inner)} {grid.kinds[inner[0]]}s{count} lie inside {len(outer)} "
            f"{grid.kinds[outer[0]]}s, so the other cells of those are empty"
        )
    units = (*sorted(inner), *sorted(outer))
    return Found("confinement", units, view.marks_in(units), frozenset(), blanks, text)
