"""starbattle: solve, count and check Star Battle puzzles with clingo (Answer Set Programming)."""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # typing itself is not imported: it costs a cold start ~3 ms
if TYPE_CHECKING:
    from starbattle.board import Board, Solution
    from starbattle.checker import Violation, check
    from starbattle.errors import (
        BoardError,
        EncodingError,
        FormatError,
        StarBattleError,
        UsageError,
    )
    from starbattle.formats import read_board, write_board
    from starbattle.logic import State, explain, next_step
    from starbattle.render import render_text
    from starbattle.solver import Solver, count, is_unique, solve

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BoardError",
    "EncodingError",
    "FormatError",
    "Solution",
    "Solver",
    "StarBattleError",
    "State",
    "UsageError",
    "Violation",
    "check",
    "count",
    "explain",
    "is_unique",
    "next_step",
    "read_board",
    "render_text",
    "solve",
    "write_board",
    "__version__",
]

_HOMES = {
    "Board": "board",
    "Solution": "board",
    "BoardError": "errors",
    "EncodingError": "errors",
    "FormatError": "errors",
    "StarBattleError": "errors",
    "UsageError": "errors",
    "read_board": "formats",
    "write_board": "formats",
    "check": "checker",
    "Violation": "checker",
    "render_text": "render",
    "State": "logic",
    "next_step": "logic",
    "explain": "logic",
    "Solver": "solver",
    "solve": "solver",
    "count": "solver",
    "is_unique": "solver",
}
"""Where each public name lives: imported on first use, so that the command line starts fast
(`import starbattle` imports nothing more: a Ctrl-C while Python starts the command finds
none of our code running) and clingo is loaded only when something is solved."""


def __getattr__(name: str) -> object:
    """Import a public name's module when the name is first used."""
    if name in _HOMES:
        return getattr(import_module(f"starbattle.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'starbattle' has no attribute {name!r}")
