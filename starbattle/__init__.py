"""starbattle: solve, count and check Star Battle puzzles with clingo (Answer Set Programming)."""

from __future__ import annotations

from typing import Any

from starbattle.board import Board, Solution
from starbattle.check import Violation, check
from starbattle.errors import BoardError, EncodingError, FormatError, StarBattleError, UsageError
from starbattle.formats import read_board, write_board
from starbattle.render import render_text

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BoardError",
    "EncodingError",
    "FormatError",
    "Solution",
    "Solver",
    "StarBattleError",
    "UsageError",
    "Violation",
    "check",
    "count",
    "is_unique",
    "read_board",
    "render_text",
    "solve",
    "write_board",
    "__version__",
]

_SOLVER_NAMES = ("Solver", "solve", "count", "is_unique")


def __getattr__(name: str) -> Any:
    """Import the solver (and so clingo) only when one of its names is first used."""
    if name in _SOLVER_NAMES:
        from starbattle import solver

        return getattr(solver, name)
    raise AttributeError(f"module 'starbattle' has no attribute {name!r}")
