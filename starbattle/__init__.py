"""starbattle: solve, count and check Star Battle puzzles with clingo (Answer Set Programming)."""

TYPE_CHECKING = False  # typing itself is not imported: it costs a cold start ~3 ms
if TYPE_CHECKING:
    from starbattle.asp.solver import Solver, count, is_unique, solve
    from starbattle.errors import (
        BoardError,
        EncodingError,
        FormatError,
        StarBattleError,
        UsageError,
    )
    from starbattle.io.inputs import read_board, write_board
    from starbattle.io.render import render_text
    from starbattle.logic.ladder import explain, next_step
    from starbattle.model.board import Board, Solution
    from starbattle.model.checker import Violation, check
    from starbattle.model.steps import State

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
    "suggest",
    "verdict",
    "write_board",
    "__version__",
]

_HOMES = {
    "Board": "model.board",
    "Solution": "model.board",
    "BoardError": "errors",
    "EncodingError": "errors",
    "FormatError": "errors",
    "StarBattleError": "errors",
    "UsageError": "errors",
    "read_board": "io.inputs",
    "write_board": "io.inputs",
    "check": "model.checker",
    "Violation": "model.checker",
    "render_text": "io.render",
    "State": "model.steps",
    "next_step": "logic.ladder",
    "explain": "logic.ladder",
    "Solver": "asp.solver",
    "solve": "asp.solver",
    "count": "asp.solver",
    "is_unique": "asp.solver",
    "suggest": "logic.suggest",
    "verdict": "logic.verdict",
}
"""Where each public name lives: imported on first use, so that the command line starts fast
(`import starbattle` imports nothing at all, not even importlib: a Ctrl-C while Python
starts the command finds none of our code running) and clingo is loaded only when something
is solved."""


def __getattr__(name: str) -> object:
    """Import a public name's module when the name is first used."""
    if name in _HOMES:
        return getattr(__import__(f"starbattle.{_HOMES[name]}", fromlist=[name]), name)
    raise AttributeError(f"module 'starbattle' has no attribute {name!r}")
