"""The star cells of a clingo model, fast: one small module for clingo's private API.

Enumerations read tens of thousands of models. The public API builds a Symbol object per
shown atom and hashes it through cffi (~40 us a model); clingo 5.x's internals give the
symbols as integers instead, which key a table of cells directly (pinned by clingo<6 in
pyproject.toml). Without those internals the public API gives the same answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import clingo

from starbattle.asp.facts import STAR
from starbattle.errors import EncodingError
from starbattle.model.board import Cell

try:
    from clingo._internal import _c_call, _CBData, _ffi, _handle_error, _lib
    from clingo.solving import SolveHandle
except ImportError:  # another clingo build: the public API serves
    FAST = False
else:
    FAST = True


_CELLS: dict[tuple[int, str], dict[int, Cell | None]] = {}
"""Per board size and predicate name, the cell of each shown symbol seen (clingo's symbols
are interned for the life of the process, so their integers stay the same across Controls)."""


def solve_yielding(control: clingo.Control) -> clingo.SolveHandle:
    """A solve handle that yields models, like `control.solve(yield_=True)`.

    On the fast path clingo gets no event callback: the public call routes every model
    through a Python callback that a loop over `models` never needs (47,622 models of a 9x9
    board read in 0.25 s against 0.31 s).
    """
    if not FAST:
        return control.solve(yield_=True)
    mode = _lib.clingo_solve_mode_yield
    rep = _c_call(
        "clingo_solve_handle_t*", _lib.clingo_control_solve, control._rep, mode,
        _ffi.NULL, 0, _ffi.NULL, _ffi.NULL,
    )  # fmt: skip
    return SolveHandle(rep, _CBData(None, []))


def models(handle: clingo.SolveHandle) -> Iterator[Any]:
    """The models of a solve handle (yield mode) as clingo finds them, for `star_reader`.

    On the fast path the raw model pointers, without a clingo.Model object and its wrapper
    calls per model (8% of an enumeration's instructions); else the public iteration.
    """
    if not FAST:
        yield from handle
        return
    rep, found = handle._rep, _ffi.new("clingo_model_t**")
    resume, model = _lib.clingo_solve_handle_resume, _lib.clingo_solve_handle_model
    while True:
        _handle_error(resume(rep))
        _handle_error(model(rep, found))
        if found[0] == _ffi.NULL:
            return
        yield found[0]


def star_reader(size: int, name: str = STAR) -> Callable[[Any], list[Cell]]:
    """A function from a model to its star cells, checking each star/2 atom once.

    A model as `models` yields it (a raw pointer on the fast path), or a clingo.Model.

    `name`: read the cells of another shown predicate of two numbers instead of star/2.
    """
    cells = _CELLS.setdefault((size, name), {})

    def cell_of(symbol: clingo.Symbol) -> Cell | None:
        """The cell of a shown symbol; None for a symbol that is no star; refuse bad stars."""
        if symbol.type != clingo.SymbolType.Function or symbol.name != name:
            return None
        if len(symbol.arguments) != 2:
            return None
        row, column = symbol.arguments
        if row.type != clingo.SymbolType.Number or column.type != clingo.SymbolType.Number:
            raise EncodingError(f"the program shows {symbol}: {name}/2 needs two integers")
        if not (1 <= row.number <= size and 1 <= column.number <= size):
            raise EncodingError(
                f"the program shows {symbol}, outside the {size}x{size} board "
                f"(rows and columns are 1..{size})"
            )
        return (row.number, column.number)

    if not FAST:

        def public(model: clingo.Model) -> list[Cell]:
            """The star cells of a model, through the public API."""
            found = (cell_of(symbol) for symbol in model.symbols(shown=True))
            return [cell for cell in found if cell is not None]

        return public

    shown = _lib.clingo_show_type_shown
    size_of, symbols_of = _lib.clingo_model_symbols_size, _lib.clingo_model_symbols
    count = _ffi.new("size_t *")
    room = [0, _ffi.NULL]
    """The symbol buffer's length and the buffer, reused across models."""

    def fast(model: Any) -> list[Cell]:
        """The star cells of a model, its symbols read as integers."""
        rep = model._rep if isinstance(model, clingo.Model) else model
        _handle_error(size_of(rep, shown, count))
        length = count[0]
        if not length:
            return []
        if length > room[0]:
            room[:] = [length, _ffi.new("clingo_symbol_t[]", length)]
        symbols = room[1]
        _handle_error(symbols_of(rep, shown, symbols, length))
        keys = symbols[0:length]
        try:
            found = [cells[key] for key in keys]
        except KeyError:  # a symbol not seen before: check it once
            found = [
                cells[key] if key in cells else cells.setdefault(key, cell_of(clingo.Symbol(key)))
                for key in keys
            ]
        return [cell for cell in found if cell is not None] if None in found else found

    return fast
