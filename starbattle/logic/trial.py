"""Level 6's trials: one assumption followed step by step until a rule breaks, as a chain.

Every mark a trial makes remembers the step that made it and every step the earlier steps
it rests on (the marks among its premise cells), so that once a rule breaks, the steps it
needs are found by walking back from the broken rule: the chain a person checks. A trial
applies levels 1 and 2 as a work queue taken in the order marks are made (a breadth-first
order, which keeps chains short) and levels 3 to 5 in rounds between them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import NamedTuple

from starbattle.logic.basic import around, filled, forced
from starbattle.logic.broken import Broken
from starbattle.logic.grid import Found, Grid, View
from starbattle.logic.minimise import minimise
from starbattle.logic.sentences import units_phrase, within
from starbattle.words import joined, owned, plural

FOLLOWABLE = 6
"""The most steps between the assumption and the broken rule that a person can follow; a
longer chain counts as a machine step (the grade's `unsat-core` effort)."""
SQUEEZED = (2, 3)
"""How many adjacent lines a trial checks together for room (`cramped`): with 3 as well as
2, fewer and shorter chains on held-out 10x10 experts; 4 added nothing."""
Restate = Callable[[View, Found], Found]
"""A level 3-5 deduction said again from a chain's marks (`Trial.chain`)."""
SUPPOSE = "suppose"
"""The technique of a chain's first step (the assumed mark)."""


class Link(NamedTuple):
    """One step of a trial as found: what it concludes and the earlier steps it rests on."""

    technique: str
    key: int
    """Its star (around-star), unit (full-unit, forced-fill) or -1 (the rest)."""
    rests_on: frozenset[int]
    """The links (by index) that made the marks it rests on."""
    found: Found | None = None
    """The deduction of a level 3-5 technique, or the assumption, as found."""
    marks: tuple[frozenset[int], frozenset[int]] | None = None
    """A level 3-5 deduction's premise cells that were stars, and those that were empty."""


class Trial:
    """An assumed mark and the marks that follow from it, each with the step that made it."""

    def __init__(self, view: View, x: int, star: bool, *, squeezes: bool = False) -> None:
        self.grid, self.view, self.x, self.star = view.grid, view, x, star
        self.squeezes = squeezes
        """Whether 2x2 room breaks the rules too (`cramped`): a trial of level 3 or more."""
        self.looked = 0
        """The links made when room was last looked at."""
        self.stars, self.blanks = set(view.stars), set(view.blanks)
        self.has, self.free = list(view.has), [len(cells) for cells in view.open]
        """Per unit: its stars, and its undecided cells."""
        self.pending: deque[int] = deque()
        """What levels 1-2 look at next: units, and stars (as -1 - cell) to empty around."""
        self.changed: set[int] = set()
        """Units changed since they were last looked at for room (`cramped`)."""
        self.made: dict[int, int] = {}
        """Which link made each mark the trial added."""
        mark = frozenset({x})
        said = f"suppose {view.grid.where(x)} is {'a star' if star else 'empty'}"
        suppose = Found(SUPPOSE, (), (x,), *((mark, frozenset()) if star else (frozenset(), mark)),
                        said, 6)  # fmt: skip
        self.links = [Link(SUPPOSE, x, frozenset(), suppose)]
        self._mark(x, star, 0)
        self.broken: Broken | None = None
        self.needed: list[int] | None = None
        """The links the broken rule needs, once asked for."""
        self.kept: list[int] | None = None
        """The links of the chain once made (`shorten`, `chain`), the assumption left out."""

    def _rests_on(self, cells: Iterable[int]) -> frozenset[int]:
        """The links that made some of these cells' marks."""
        made = self.made
        return frozenset(made[i] for i in cells if i in made)

    def _link(
        self,
        technique: str,
        key: int,
        rests_on: frozenset[int],
        found: Found | None = None,
        marks: tuple[frozenset[int], frozenset[int]] | None = None,
    ) -> int:
        """Record a link (with a level 3-5 deduction and its premise marks); its index."""
        self.links.append(Link(technique, key, rests_on, found, marks))
        return len(self.links) - 1

    def _mark(self, i: int, star: bool, link: int) -> None:
        """Mark cell i (a star or empty) as made by a link; what to look at next, queued."""
        (self.stars if star else self.blanks).add(i)
        self.made[i] = link
        if star:
            self.pending.append(-1 - i)  # its neighbours, in turn
        for u in self.grid.units_of[i]:
            self.free[u] -= 1
            self.has[u] += star
            self.pending.append(u)
            self.changed.add(u)

    def propagate(self) -> bool:
        """Apply levels 1 and 2 to their fixpoint; True when a rule breaks (see `broken`).

        Hand-written as a work queue (not by the level-1/2 scans) because level 6 runs it on
        every undecided cell: only a unit one of whose cells changed is looked at (the
        state before the assumption is a fixpoint of levels 1 and 2, as at level 6). The
        queue (units, and stars whose neighbours are to be emptied) is taken in the order
        it was filled, breadth first, so that a broken rule is met by as few steps as can be.
        A trial that `squeezes` looks for room (`cramped`) after every link, not only at the
        fixpoint: on 40 held-out 10x10 experts, chains over FOLLOWABLE steps 24 -> 13 (a
        squeeze met before the forced fills that would run a unit out of room).
        """
        grid, quota, stars, blanks = self.grid, self.grid.quota, self.stars, self.blanks
        has, free, pending = self.has, self.free, self.pending
        while True:
            if self.squeezes and self.looked < len(self.links):
                self.looked = len(self.links)
                if self.cramped():
                    return True
            if not pending:
                return False
            unit = pending.popleft()
            if unit < 0:
                s, link = -1 - unit, -1
                for j in grid.around[s]:
                    if j in stars:
                        pair = tuple(sorted((s, j)))
                        self.broken = Broken("touch", (), pair, self._rests_on(pair))
                        return True
                    if j not in blanks:
                        if link < 0:
                            link = self._link("around-star", s, self._rests_on((s,)))
                        self._mark(j, False, link)
                continue
            need = quota - has[unit]
            if need < 0:
                cells = tuple(i for i in grid.members[unit] if i in stars)
                self.broken = Broken("too-many", (unit,), cells, self._rests_on(cells))
                return True
            if free[unit] < need:
                return self._out_of_room("no-room", (unit,))
            if free[unit] and (need == 0 or need == free[unit]):
                marks = [i for i in grid.members[unit] if i in stars or (need and i in blanks)]
                link = self._link(
                    "full-unit" if need == 0 else "forced-fill", unit, self._rests_on(marks)
                )
                placed = [i for i in grid.members[unit] if i not in stars and i not in blanks]
                for i in placed:
                    self._mark(i, need > 0, link)
                if need and self._crowded(placed):
                    return True

    def _crowded(self, placed: Iterable[int]) -> bool:
        """Whether stars just placed touch a star or overfill a unit (see `broken`).

        Met as soon as the link that places them, not when the work queue reaches them:
        a chain ends at the first rule it breaks, and no later step rests on broken marks.
        """
        grid, stars = self.grid, self.stars
        for i in placed:
            for j in grid.around[i]:
                if j in stars:
                    pair = tuple(sorted((i, j)))
                    self.broken = Broken("touch", (), pair, self._rests_on(pair))
                    return True
            for unit in grid.units_of[i]:
                if self.has[unit] > grid.quota:
                    cells = tuple(k for k in grid.members[unit] if k in stars)
                    self.broken = Broken("too-many", (unit,), cells, self._rests_on(cells))
                    return True
        return False

    def take(self, steps: list[Found]) -> bool:
        """Mark the conclusions of a round of level 3-5 deductions; True when a rule breaks."""
        stars, blanks, made = self.stars, self.blanks, self.made
        for found in steps:
            marks = frozenset(found.cells) & stars, frozenset(found.cells) & blanks
            link = self._link(found.technique, -1, self._rests_on(found.cells), found, marks)
            for cells, star in ((found.stars, True), (found.blanks, False)):
                mine, other = (stars, blanks) if star else (blanks, stars)
                for i in sorted(cells):
                    if i in other:
                        self.broken = Broken("both", (), (i,), frozenset({made.get(i, 0), link}))
                        return True
                    if i not in mine:
                        self._mark(i, star, link)
            if self._crowded(sorted(found.stars)):
                return True
        return False

    def support(self) -> list[int]:
        """The links the broken rule needs, walking back through what each rests on."""
        assert self.broken is not None
        if self.needed is not None:
            return self.needed
        needed, todo = {0}, list(self.broken.rests_on)
        while todo:
            i = todo.pop()
            if i not in needed:
                needed.add(i)
                todo.extend(self.links[i].rests_on)
        self.needed = sorted(needed)
        return self.needed

    def shorten(self) -> None:
        """Drop every link the chain can do without (deletion-based, later links first).

        A link goes when the links left, taken again in order from the marks and the
        assumption alone, still break the rule (starbattle.logic.minimise). Taken again, a
        step of levels 1-2 concludes what it can there, which may make another link
        unneeded; a step of levels 3-5 stays as found while its premise cells hold the
        marks they held.
        """
        self.kept = self._replay(sorted(minimise(self.support()[:0:-1], self._replay)))

    @property
    def length(self) -> int:
        """The steps of the chain between the assumption and the broken rule (`steps`).

        Until the chain is shortened, those of the links the broken rule needs: as many or more.
        """
        return len(self.steps(self.support()[1:] if self.kept is None else self.kept)) - 1

    def steps(self, kept: list[int]) -> list[list[int]]:
        """The links in order as the chain's steps, the assumption (link 0) first.

        A link of level 1 (a star's neighbours, a unit given all its stars) is part of the
        step that made the last of those stars, however many steps came between in the
        trial, as a person marks them on placing a star (chains over FOLLOWABLE steps in
        the traces of 40 held-out 10x10 experts: 27 when only the step right before took
        them, 24 so). Every step still follows from the ones before it: the marks moved up
        are the trial's, and no step between puts a star where they empty a cell (its rule
        would have broken first). Which step made a star is read off the chain taken again
        (`_replayed`), not the trial: a shortened chain may make it by another step than the
        trial did.
        """
        steps, links, grid = [[0]], self.links, self.grid
        replayed = self._replayed(kept)
        made = self.made if replayed is None else replayed[0]
        heads = {0: 0}  # each step's first link: its place among the steps
        for i in kept:
            link = links[i]
            if link.technique in MARKING:
                premises = (
                    (link.key,)
                    if link.technique == "around-star"
                    else [j for j in grid.members[link.key] if j in self.stars]
                )
                rests_on = {made[j] for j in premises if j in made}
                if rests_on and max(rests_on) in heads:
                    steps[heads[max(rests_on)]].append(i)
                    continue
            heads[i] = len(steps)
            steps.append([i])
        return steps

    def _replay(self, kept: list[int]) -> list[int] | None:
        """The links among these that conclude something, taken again in order.

        From the marks and the assumption alone; None when one no longer applies or, at
        the end, the rule is not broken.
        """
        replayed, broken = self._replayed(kept), self.broken
        assert broken is not None
        if replayed is None or not broken.holds(self.grid, *replayed[1:]):
            return None
        return sorted(set(replayed[0].values()) - {0})

    def _replayed(self, kept: list[int]) -> tuple[dict[int, int], set[int], set[int]] | None:
        """These links taken again in order from the marks and the assumption alone.

        Which link (0: the assumption) made each new mark, and the stars and empty cells
        at the end; None when one no longer applies.
        """
        grid, view, links, quota = self.grid, self.view, self.links, self.grid.quota
        first = links[0].found
        assert first is not None
        stars, blanks = set(view.stars | first.stars), set(view.blanks | first.blanks)
        made = dict.fromkeys(first.stars | first.blanks, 0)
        for i in sorted(kept):
            link = links[i]
            key, new_stars, new_blanks = link.key, (), ()
            if link.technique == "around-star":
                if key not in stars:
                    return None
                new_blanks = set(grid.around[key]) - stars - blanks
            elif link.technique in BASIC:
                cells = grid.sets[key]
                need, left = quota - len(cells & stars), cells - stars - blanks
                if link.technique == "full-unit":
                    if need:
                        return None
                    new_blanks = left
                elif need:  # forced fill (with no star left to place, it has nothing to say)
                    if need != len(left):
                        return None
                    new_stars = left
            else:
                found = link.found
                assert found is not None and link.marks is not None
                if not (link.marks[0] <= stars and link.marks[1] <= blanks):
                    return None
                new_stars, new_blanks = found.stars - stars, found.blanks - blanks
            made.update(dict.fromkeys({*new_stars, *new_blanks}, i))
            stars.update(new_stars)
            blanks.update(new_blanks)
        return made, stars, blanks

    def cramped(self) -> bool:
        """Whether some units' undecided cells fit in fewer 2x2 blocks than they need stars.

        A 2x2 block holds one star at most; True when a unit needs more stars than the
        fewest blocks covering its undecided cells, or SQUEEZED adjacent rows (columns)
        together do (a squeeze, as band tiling has it), or two neighbouring regions (a 2x2
        block may hold cells of both): see `broken`. A unit with fewer undecided cells than
        the stars it needs is out of room ('no-room', as `propagate` says it). Only the units
        changed since the last look are looked at, the bands of lines that meet them and
        their neighbouring regions.
        """
        grid, stars, blanks = self.grid, self.stars, self.blanks
        n, quota = grid.n, grid.quota
        changed, self.changed = sorted(self.changed), set()
        bands = sorted(
            tuple(range(k, k + width))
            for width in SQUEEZED
            for u in changed
            if u < 2 * n
            for k in range(u - width + 1, u + 1)
            if k >= 0 and k // n == (k + width - 1) // n
        )
        pairs = sorted(
            (min(a, b), max(a, b))
            for a in changed
            if a >= 2 * n and self.has[a] < quota
            for b in _touching(grid)[a - 2 * n]
            if self.has[b] < quota
        )
        for units in (*((u,) for u in changed), *dict.fromkeys(bands), *dict.fromkeys(pairs)):
            need = quota * len(units) - sum(self.has[u] for u in units)
            if need <= 0 or sum(self.free[u] for u in units) > 4 * (need - 1):
                continue
            out = len(units) == 1 and self.free[units[0]] < need  # a unit out of room, so said
            if out or Broken("cramped", units, (), frozenset()).holds(grid, stars, blanks):
                return self._out_of_room("no-room" if out else "cramped", units)
        return False

    def _out_of_room(self, kind: str, units: tuple[int, ...]) -> bool:
        """Break the rule of room ('no-room' or 'cramped') on these units' marks; True."""
        marks = tuple(
            i for u in units for i in self.grid.members[u] if i in self.stars or i in self.blanks
        )
        self.broken = Broken(kind, units, marks, self._rests_on(marks))
        return True

    def chain(self, restate: Restate | None = None) -> tuple[Found, ...]:
        """The chain in words: the assumption, each step it needs in order, the broken rule.

        Each step says what it concludes from the marks, the assumption and the chain's
        steps before it (a step of levels 1-2 may conclude more there than it did in the
        trial, never less). A step of levels 3-5 some of whose marks an earlier step of the
        chain made (two deductions of one round of the trial) is said again there by
        `restate`, so that it names only the cells it marks.
        """
        if self.kept is None:
            self.kept = self._replay(self.support()[1:])
        assert self.kept is not None
        grid, said = self.grid, []
        stars, blanks = self.view.stars, self.view.blanks
        for step in self.steps(self.kept):
            parts = []
            for i in step:
                here = View(grid, stars, blanks)
                found = _said(self.links[i], here)
                if restate and found and (found.stars & stars or found.blanks & blanks):
                    found = restate(here, found)
                if found is not None:  # a level-1 link whose cells a link moved up emptied
                    parts.append(found)
                    stars, blanks = stars | found.stars, blanks | found.blanks
            said.extend(_marking(grid, parts))
        assert self.broken is not None
        return (*said, self.broken.found(View(grid, stars, blanks)))


def _marking(grid: Grid, parts: list[Found]) -> list[Found]:
    """A step and the level-1 marks of its stars, as one step (said shorter where too long)."""
    if len(parts) <= 1:
        return parts
    first, rest = parts[0], parts[1:]
    around = [f.cells[0] for f in rest if f.technique == "around-star"]
    full = [f.units[0] for f in rest if f.technique == "full-unit"]
    said = []
    if around:
        mine = set(around) == first.stars
        where = (
            ("it" if len(around) == 1 else "them")
            if mine
            else joined([grid.where(i) for i in around])
        )
        said.append(f"the cells around {where} are empty")
    if full:
        have, its = ("has", "its") if len(full) == 1 else ("have", "their")
        held = owned(its, grid.quota, "star")
        said.append(
            f"{units_phrase(grid, full)} then {have} {held}, so {its} other cells are empty"
        )
    blanks = frozenset().union(*(f.blanks for f in parts))
    theirs = {i for f in rest for i in f.cells} - first.stars  # the step's own stars: no premise
    more = len(blanks - first.blanks)
    then = f"{plural(more, 'more cell')} {'is' if more == 1 else 'are'} then empty"
    texts = (f"{first.sentence}; {joined(said)}", f"{first.sentence}; {then}")
    return [
        first._replace(
            units=tuple(sorted({u for f in parts for u in f.units})),
            cells=tuple(sorted({*first.cells, *theirs})),
            blanks=blanks,
            sentence=within((*texts, first.sentence)),
        )
    ]


def _said(link: Link, view: View) -> Found | None:
    """A link said as its technique's deduction from a state (where it applies).

    None for a level-1 link with no undecided cell left there (`steps` moves such links).
    """
    if link.technique == "around-star":
        return around(view, link.key)
    if link.technique == "full-unit":
        return filled(view, link.key)
    found = forced(view, link.key) if link.technique == "forced-fill" else link.found
    assert found is not None
    return found


def _touching(grid: Grid) -> list[list[int]]:
    """Each region's neighbouring regions, by its place in `grid.regions` (once per board).

    Neighbouring: a cell of one touches a cell of the other, so a 2x2 block may hold both.
    """
    touching = grid.memo.get("touching regions")
    if touching is None:
        first = 2 * grid.n
        touching = grid.memo["touching regions"] = [
            sorted({u for j in grid.halos[r] for u in grid.units_of[j] if u >= first} - {r})
            for r in grid.regions
        ]
    return touching  # type: ignore[return-value]


def trial_step(trial: Trial, restate: Restate | None = None) -> Found:
    """The level-6 step of a refuted assumption, its chain with it (see `Trial.chain`)."""
    x, star, view, grid = trial.x, trial.star, trial.view, trial.grid
    assert trial.broken is not None
    chain = trial.chain(restate)
    steps = chain[1:-1]
    harder = trial.broken.kind == "cramped" or any(f.technique not in BASIC for f in steps)
    units = tuple(sorted({u for found in chain for u in found.units}))
    marks = view.stars | view.blanks
    cells = tuple(sorted({x, *(i for found in chain for i in found.cells if i in marks)}))
    assumed, verdict = ("a star", "empty") if star else ("empty", "a star")
    after = f"then after {plural(len(steps), 'step')} " if steps else ""
    text = (
        f"if {grid.where(x)} were {assumed}, {after}{trial.broken.outcome(grid)}, "
        f"so {grid.where(x)} is {verdict}"
    )
    conclusion = frozenset({x})
    return Found(
        "assumption-chain" if harder else "assumption",
        units,
        cells,
        frozenset() if star else conclusion,
        conclusion if star else frozenset(),
        text,
        chain=chain,
    )


MARKING = frozenset({"around-star", "full-unit"})
"""The techniques of level 1: the marks a person makes on placing a star."""
BASIC = frozenset({"around-star", "full-unit", "forced-fill"})
"""The techniques of levels 1 and 2: a chain of these alone, ending in a rule of counts, is
an `assumption` (a rule of 2x2 blocks makes it an `assumption-chain`)."""
