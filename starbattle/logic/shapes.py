"""The M and the pressured T: shapes that hold fewer stars than the 2x2 blocks covering them.

An M is five cells over two lines, three in one line with a gap between each (X.X.X) and two
in the next line under the gaps (.X.X.): 2x2 blocks cover it only with three, but it holds
at most two stars when its line of three needs at most two more (a third would touch or
crowd that line). A T is three cells of a line and the cell beside the middle one: blocks
cover it only with two, but when its line of three needs at most one more star (it has the
rest: the T is "pressured") it holds at most one, as its fourth cell touches the other three.
Counted with these shapes, a unit or two adjacent lines may have less room than blocks show.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import NamedTuple

from starbattle.logic.grid import Found, Grid, View, gathered
from starbattle.logic.sentences import outcome, star_at, starving, units_phrase, within
from starbattle.words import plural

SHAPE_SEARCH = 4_000
"""The most tilings one search may try (a count, so every run finds the same steps)."""


class Tile(NamedTuple):
    """Cells that hold at most `room` stars: a 2x2 block (1), an M (2) or a pressured T (1)."""

    cells: frozenset[int]
    room: int
    kind: str
    """'block', 'M' or 'T'."""
    line: int | None
    """The unit whose need makes an M or a T hold so few (None for a block)."""


@cache
def tiles(grid: Grid) -> dict[int, list[Tile]]:
    """Every 2x2 block, M and T of a board, by cell.

    Whether an M or a T holds so few stars depends on the stars its line still needs: the
    Tiler asks that.
    """
    n, found = grid.n, []
    playable = set(grid.cells)

    def at(r: int, c: int, transpose: bool) -> int | None:
        r, c = (c, r) if transpose else (r, c)
        return r * n + c if 0 <= r < n and 0 <= c < n and r * n + c in playable else None

    for r in range(n - 1):
        for c in range(n - 1):
            cells = {at(r + a, c + b, False) for a in (0, 1) for b in (0, 1)} - {None}
            found.append(Tile(frozenset(cells), 1, "block", None))
    for transpose in (False, True):
        lines = grid.columns if transpose else grid.rows
        for r in range(n):
            for side in (-1, 1):
                if not 0 <= r + side < n:
                    continue
                for c in range(n - 4):
                    three = [at(r, c + k, transpose) for k in (0, 2, 4)]
                    two = [at(r + side, c + k, transpose) for k in (1, 3)]
                    if None not in three + two:
                        found.append(Tile(frozenset(three + two), 2, "M", lines[r]))
                for c in range(n - 2):
                    bar = [at(r, c + k, transpose) for k in (0, 1, 2)]
                    stem = at(r + side, c + 1, transpose)
                    if None not in bar and stem is not None:
                        found.append(Tile(frozenset([*bar, stem]), 1, "T", lines[r]))
    by_cell: dict[int, list[Tile]] = {}
    for tile in found:
        for i in tile.cells:
            by_cell.setdefault(i, []).append(tile)
    return by_cell


class Tiler:
    """Least room tilings of cell sets by a state's tiles, within a search budget."""

    def __init__(self, grid: Grid, need: list[int]) -> None:
        self.by_cell = tiles(grid)
        self.need = need
        self.left = SHAPE_SEARCH

    def holds(self, tile: Tile) -> bool:
        """Whether a tile holds as few stars as its room says.

        An M does when its line of three needs at most two more, a T at most one more.
        """
        return tile.line is None or self.need[tile.line] <= (2 if tile.kind == "M" else 1)

    def tile(self, cells: frozenset[int], limit: int) -> list[Tile] | None:
        """Tiles covering the cells whose rooms add up to at most `limit` (None: none found)."""
        if limit < 0:
            return None
        if not cells:
            return []
        if limit == 0 or len(cells) > 4 * limit or self.left <= 0:
            return None
        self.left -= 1
        first = min(cells)
        options: dict[frozenset[int], Tile] = {}
        for tile in self.by_cell.get(first, []):
            if not self.holds(tile):
                continue
            part = tile.cells & cells
            if part not in options or tile.room < options[part].room:
                options[part] = tile
        kept = [
            (part, tile)
            for part, tile in options.items()
            if not any(
                part < other and o.room <= tile.room
                for other, o in options.items()
                if other != part
            )
        ]
        for part, tile in sorted(kept, key=lambda item: (item[1].room, -len(item[0]))):
            rest = self.tile(cells - part, limit - tile.room)
            if rest is not None:
                return [tile, *rest]
        return None


class Fitted(NamedTuple):
    """A container whose undecided cells fit in tiles with just the room it needs."""

    container: tuple[int, ...]
    cover: list[Tile]
    need: int
    stars: frozenset[int]
    blanks: frozenset[int]
    units: tuple[int, ...]
    """What it rests on: the container's units and the lines of its Ms and Ts."""


class Cramped(NamedTuple):
    """A star at x would leave a container tiles with `room` for the `wanted` it needs."""

    x: int
    container: tuple[int, ...]
    cover: list[Tile]
    room: int
    wanted: int
    units: tuple[int, ...]
    """What it rests on: the container's units and the lines of its Ms and Ts."""


def shapes(view: View) -> list[Found]:
    """Units and pairs of adjacent lines that Ms and pressured Ts leave too little room.

    One argument, one step: what rests on the same units (a container fitting its tiles,
    the cells whose star would leave it too little room) is one step.
    """
    grid = view.grid
    containers = _containers(view)
    tiler = Tiler(grid, view.need)
    found: list[Fitted | Cramped] = [f for f in (_fit(view, tiler, c) for c in containers) if f]
    decided = sum(1 << i for i in view.stars | view.blanks)
    masks = [(c, sum(grid.masks[u] for u in set(c)) & ~decided) for c in containers]
    for x in sorted(set(grid.cells) - view.stars - view.blanks - view.seen_star):
        cramped = _excluded(view, x, masks)
        if cramped is not None:
            found.append(cramped)
    return [_step(view, group) for group in gathered(found, lambda f: f.units)]


def _containers(view: View) -> list[tuple[int, ...]]:
    """The units and the pairs of adjacent rows or columns that still need stars."""
    grid = view.grid
    pairs = [
        (lines[k], lines[k + 1]) for lines in (grid.rows, grid.columns) for k in range(grid.n - 1)
    ]
    return [
        container
        for container in [*((u,) for u in range(len(grid.units))), *pairs]
        if sum(view.need[u] for u in container) > 0
    ]


def _room(view: View, container: tuple[int, ...]) -> frozenset[int]:
    """The undecided cells of a container."""
    return frozenset().union(*(view.open[u] for u in container))


def _fit(view: View, tiler: Tiler, container: tuple[int, ...]) -> Fitted | None:
    """A container whose undecided cells fit in shapes with just as much room as it needs."""
    grid = view.grid
    need, cells = sum(view.need[u] for u in container), _room(view, container)
    if len(cells) <= need or grid.cover(cells, need) is not None:
        return None
    cover = tiler.tile(cells, need)
    if cover is None:
        return None
    undecided = set(grid.cells) - view.stars - view.blanks
    counts: dict[int, int] = {}
    for tile in cover:
        for i in tile.cells & cells:
            counts[i] = counts.get(i, 0) + 1
    blanks = {i for i, k in counts.items() if k > 1}
    stars: set[int] = set()
    for tile in cover:
        fillings = _fillings(view, (tile.cells & cells) - blanks, tile.room)
        if not fillings:
            continue
        stars |= frozenset.intersection(*fillings)
        blanks |= (tile.cells & cells) - frozenset().union(*fillings)
        blanks |= (tile.cells - cells) & undecided  # the tile's room is all in the container
        touched = set.intersection(
            *({j for i in filling for j in grid.around[i]} for filling in fillings)
        )
        blanks |= touched & undecided
    blanks -= stars
    if not stars and not blanks:
        return None
    units = _premises(container, cover)
    return Fitted(container, cover, need, frozenset(stars), frozenset(blanks), units)


def _excluded(view: View, x: int, masks: list[tuple[tuple[int, ...], int]]) -> Cramped | None:
    """A star at x, its neighbours empty, leaves a container too little room counted by shapes.

    Cells are bit masks first (a tile has at most 4 cells per star it may hold).
    """
    grid = view.grid
    effect, taken = grid.reach[x], {x, *grid.around[x]}
    need = list(view.need)
    for u in grid.units_of[x]:
        need[u] -= 1
    tiler: Tiler | None = None
    for container, mask in masks:
        wanted = sum(need[u] for u in container)
        if not mask & effect or wanted <= 0 or (mask & ~effect).bit_count() > 4 * (wanted - 1):
            continue
        cells = _room(view, container) - taken
        if grid.cover(cells, wanted - 1) is not None:
            continue
        tiler = tiler or Tiler(grid, need)
        cover = tiler.tile(cells, wanted - 1)
        if cover is None:
            continue
        room = sum(tile.room for tile in cover)
        return Cramped(x, container, cover, room, wanted, _premises(container, cover))
    return None


def _step(view: View, group: list[Fitted | Cramped]) -> Found:
    """The step of what rests on the same units: a fit and the cells it makes empty.

    Said of one container: should another rest on the same units (a unit and the line of
    its T, that line and the unit's other line as a pair), it waits for a later step. One
    argument, followed to its fixpoint: what it concludes is marked and the container
    fitted and cut again on the same units until nothing changes.
    """
    grid, lead = view.grid, group[0]
    container, units = lead.container, lead.units
    fits = [f for f in group if isinstance(f, Fitted) and f.container == container][:1]
    cramped = [c for c in group if isinstance(c, Cramped) and c.container == container]
    stars = frozenset().union(*(f.stars for f in fits))
    blanks = frozenset().union(*(f.blanks for f in fits), (c.x for c in cramped)) - stars
    later: list[Fitted] = []
    while more := _again(View(grid, view.stars | stars, view.blanks | blanks), container, units):
        cramped += [c for c in more if isinstance(c, Cramped)]
        later += [f for f in more if isinstance(f, Fitted)]
        stars |= frozenset().union(*(f.stars for f in later))
        blanks = blanks | frozenset().union(*(f.blanks for f in later), (c.x for c in cramped))
        blanks -= stars
    xs = [c.x for c in cramped]
    single, more = len(container) == 1, "more " if any(view.has[u] for u in container) else ""
    pieces = {_pieces(c.cover) for c in cramped}
    shapes = pieces.pop() if len(pieces) == 1 else "Ms, pressured Ts and 2x2 blocks"
    if fits:
        fit = fits[0]
        cut = [x for x in xs if x not in fit.blanks]
        text = within(
            f"{units_phrase(grid, container)} {'needs' if single else 'need'} "
            f"{plural(fit.need, more + 'star')} and {'its' if single else 'their'} "
            f"undecided cells fit in {tiles} holding just as many"
            + (f", which {star_at(grid, cut)[0]} would cut" if cut else "")
            + f", so {outcome(grid, stars, blanks)}"
            for tiles in (_pieces(fit.cover), "shapes")
        )
    else:
        area = (units_phrase(grid, container), single)
        rooms = [(c.wanted, c.room) for c in cramped]
        general = plural(sum(view.need[u] for u in container), more + "star")
        text = starving(grid, xs, [], area, rooms, general, shapes)
        if later:
            text += (
                f"; then {'its' if single else 'their'} undecided cells fit in "
                f"{_pieces(later[0].cover)} holding just as many, so "
                f"{outcome(grid, stars, blanks - set(xs))}"
            )
    cells = tuple(sorted({*xs, *view.marks_in(units)}))
    return Found("m-and-t", units, cells, stars, blanks, text)


def _again(
    view: View, container: tuple[int, ...], units: tuple[int, ...]
) -> list[Fitted | Cramped]:
    """What a container's fit and cut conclude anew on the same units (the argument followed)."""
    grid = view.grid
    decided = view.stars | view.blanks
    found: list[Fitted | Cramped] = []
    fit = _fit(view, Tiler(grid, view.need), container)
    if fit is not None and fit.units == units:
        found.append(fit)
    mask = sum(grid.masks[u] for u in set(container)) & ~sum(1 << i for i in decided)
    for x in sorted(set(grid.cells) - decided):
        cramped = _excluded(view, x, [(container, mask)])
        if cramped is not None and cramped.units == units:
            found.append(cramped)
    return found


def _fillings(view: View, cells: frozenset[int], room: int) -> list[frozenset[int]]:
    """The ways to put `room` stars on some cells, none touching (a tile holding just that)."""
    grid = view.grid
    return [
        frozenset(chosen)
        for chosen in combinations(sorted(cells), room)
        if not any(j in grid.around[i] for i, j in combinations(chosen, 2))
    ]


def _premises(container: tuple[int, ...], cover: list[Tile]) -> tuple[int, ...]:
    """The container's units and the lines that make its Ms and Ts hold so few."""
    lines = {tile.line for tile in cover if tile.line is not None}
    return tuple(sorted({*container, *lines}))


def _pieces(cover: list[Tile]) -> str:
    """'2 2x2 blocks and an M', 'a pressured T and a 2x2 block'."""
    counts = {kind: sum(tile.kind == kind for tile in cover) for kind in ("block", "M", "T")}
    names = {"block": "2x2 block", "M": "M", "T": "pressured T"}
    parts = [
        f"{'an' if names[kind][0] == 'M' else 'a'} {names[kind]}"
        if k == 1
        else f"{k} {names[kind]}s"
        for kind, k in counts.items()
        if k
    ]
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
