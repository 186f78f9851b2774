"""Groundings shared by the boards of one shape (size, star count and program).

A shared grounding holds every region number at every cell, and the givens, as external
atoms; each board switches on its own. The Solver asks for one only for boards small enough
(`solver.shares_grounding`): the first board of a shape is grounded on its own, the second
builds the shared grounding.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from starbattle.asp.facts import GIVEN_BLANK, GIVEN_STAR, REGION, shape_facts
from starbattle.model.board import Board

if TYPE_CHECKING:
    import clingo

FORGET = ("--forget-on-step=varScores,signs,lemmaScores,lemmas",)
"""clasp's options for a shared grounding: the boards differ, so nothing learnt is kept."""


class Shape:
    """One grounding shared by the boards of one size, star count and program."""

    def __init__(
        self,
        control: clingo.Control,
        literals: dict[tuple[str, tuple[int, ...]], int],
        messages: list[str],
    ) -> None:
        self.control = control
        self.literals = literals
        """The external atoms that say a board: ("region", (r, c, k)), ("given_star", (r, c))."""
        self.messages = messages
        self.owner: object = None
        """The Solver whose board is switched on now."""
        self.on: list[int] = []
        self.busy = False
        """True while a query's solve handle is open."""

    def load(self, owner: object, board: Board) -> None:
        """Switch on the external atoms of a board (and off those of the last one)."""
        assign = self.control.assign_external
        for literal in self.on:
            assign(literal, False)
        self.on = [self.literals[atom] for atom in shape_atoms(board)]
        for literal in self.on:
            assign(literal, True)
        self.owner = owner


def shape_atoms(board: Board) -> list[tuple[str, tuple[int, ...]]]:
    """The atoms that say a board on a shared grounding: regions numbered 1..N, givens."""
    numbers: dict[str, int] = {}
    atoms = [
        (REGION, (r, c, numbers.setdefault(label, len(numbers) + 1)))
        for r, row in enumerate(board.regions, start=1)
        for c, label in enumerate(row, start=1)
        if label is not None
    ]
    atoms += [(GIVEN_STAR, cell) for cell in sorted(board.given_stars)]
    return atoms + [(GIVEN_BLANK, cell) for cell in sorted(board.given_blanks)]


SHAPES: OrderedDict[tuple[object, ...], Shape] = OrderedDict()
"""The shared groundings, most recently used last; one per thread (a Control is not shared
between threads)."""
SHAPES_KEPT = 32
"""How many shared groundings a process keeps (the least recently used goes first): every
shape the default program shares (about 16: sizes up to 11 at one star, 9 above) twice over,
so that a collection mixing sizes, or two programs in turn, never grounds a shape anew. Each
costs 1-3 MB. Measured on the whole real corpus (3,776 puzzles, 1,169 changes of shape), solve
and prove unique: 10.0 s keeping 4 against 8.6 s keeping 32; with the plain variant solved
after each puzzle, 14.7 s against 8.9 s."""
SEEN: dict[tuple[object, ...], bool] = {}
"""Shapes met once: a lone board is grounded on its own (cheaper than the shared grounding),
the second board of a shape builds the shared one."""


def shared_grounding(
    key: tuple[object, ...],
    owner: object,
    board: Board,
    ground: Callable[[tuple[str, ...], str], clingo.Control],
    messages: list[str],
) -> Shape | None:
    """The grounding shared by the boards of `key`'s shape, switched to `owner`'s board.

    None for the first board of a shape, which is grounded on its own. `ground(options,
    facts)` grounds the program with extra clasp options on the shape's facts, `messages`
    receiving clingo's warnings.
    """
    shape = SHAPES.get(key)
    if shape is None and not SEEN.pop(key, False):
        SEEN[key] = True
        return None
    if shape is None or shape.busy:
        control = ground(FORGET, shape_facts(board.size, board.stars))
        literals = {
            (atom.symbol.name, tuple(a.number for a in atom.symbol.arguments)): atom.literal
            for name, arity in ((REGION, 3), (GIVEN_STAR, 2), (GIVEN_BLANK, 2))
            for atom in control.symbolic_atoms.by_signature(name, arity)
            if atom.is_external
        }
        shape = Shape(control, literals, list(messages))
        SHAPES[key] = shape
        while len(SHAPES) > SHAPES_KEPT:
            SHAPES.popitem(last=False)
    SHAPES.move_to_end(key)
    shape.load(owner, board)
    return shape
