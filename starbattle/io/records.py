"""Every JSON record of DESIGN.md's vocabulary, made in one place: `record(item)`.

`-f json` prints them one a line (`formatters.JsonFormatter`), and the web API returns them
as they are. A value that has no record (a message for people, a puzzle's outcome) gives
None. Every result type of `starbattle.model` is here or named in NO_RECORD: a type that is
neither is an error when this module loads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from starbattle.io.formats.json_board import board_json, dumps
from starbattle.model.board import Board, Cell
from starbattle.model.checker import Violation
from starbattle.model.setter import Suggested, Suggestion
from starbattle.model.steps import Explained, Grade, Graded, Hint, Step
from starbattle.model.units import region_names
from starbattle.model.values import (
    RESULTS,
    AnswerCheck,
    BoardVerdict,
    Comparison,
    Daily,
    Difference,
    Explanation,
    Fixed,
    FixedCells,
    Found,
    Generated,
    Makeable,
    Message,
    Outcome,
    PartialAnswerCheck,
    ProgramRun,
    Summary,
    Tally,
    Why,
)


def cells_json(cells: Iterable[Cell]) -> list[list[int]]:
    """Cells as JSON lists, in reading order."""
    return [list(cell) for cell in sorted(cells)]


class _CellJson(dict[Cell, str]):
    """A cell's JSON text, made once per cell: "[3, 7]"."""

    def __missing__(self, cell: Cell) -> str:
        text = self[cell] = f"[{cell[0]}, {cell[1]}]"
        return text


class _GridJson(dict[int, bytes]):
    """Per board size, an empty grid as the JSON list's inner text: '".....", "....."'."""

    def __missing__(self, size: int) -> bytes:
        text = self[size] = '", "'.join(["." * size] * size).encode()
        return text


_CELL_JSON, _GRID_JSON = _CellJson(), _GridJson()


def solution_line(found: Found, identifier: str | None = None) -> str:
    """A solution's record as the text json.dumps writes for it (with an id in a collection).

    Formatted directly: enumerations print tens of thousands of these, and json.dumps of the
    equivalent dict costs a fifth of the time per solution; the grid's stars are set in a copy
    of the empty grid's JSON (row r starts size + 4 characters after row r - 1).
    """
    solution = found.solution
    cells = ", ".join(map(_CELL_JSON.__getitem__, solution.stars))
    grid, stride = bytearray(_GRID_JSON[solution.size]), solution.size + 4
    for row, column in solution.stars:
        grid[(row - 1) * stride + column - 1] = 42  # "*"
    head = "{" if identifier is None else f'{{"id": {dumps(identifier)}, '
    return (
        f'{head}"type": "solution", "index": {found.index}, "stars": [{cells}], '
        f'"grid": ["{grid.decode()}"]}}'
    )


def violation_json(violation: Violation) -> dict[str, Any]:
    """A broken rule as JSON."""
    return {
        "rule": violation.rule,
        "code": violation.code,
        "cells": cells_json(violation.cells),
        "message": violation.message,
    }


def step_record(step: Step, board: Board, index: int) -> dict[str, Any]:
    """A step as DESIGN.md's record, its units named as the board shows them.

    A step that takes something for granted beyond the rules says what (`"assumes": "unique"`);
    a trial's record ends with its chain: the step record of each of its steps, in order.
    """
    assumes = {} if step.assumes is None else {"assumes": step.assumes}
    record: dict[str, Any] = {
        "type": "step",
        "index": index,
        "technique": step.technique,
        "level": step.level,
        "premises": {
            "units": [unit.name(board) for unit in step.units],
            "cells": [list(cell) for cell in step.cells],
        },
        "conclusions": {
            "stars": [list(cell) for cell in step.stars],
            "blanks": [list(cell) for cell in step.blanks],
        },
        "sentence": step.sentence,
        **assumes,
    }
    if step.chain:
        record["chain"] = [step_record(link, board, k) for k, link in enumerate(step.chain, 1)]
    return record


def _found(found: Found) -> dict[str, Any]:
    """A solution."""
    solution = found.solution
    return {
        "type": "solution",
        "index": found.index,
        "stars": [list(cell) for cell in solution.stars],
        "grid": solution.grid(),
    }


def _difference(difference: Difference) -> dict[str, Any]:
    """The second solution and the cells where the two differ."""
    return {
        "type": "difference",
        "stars": [list(cell) for cell in difference.another.stars],
        "cells": [list(cell) for cell in difference.cells],
    }


def _why(why: Why) -> dict[str, Any]:
    """Why there is no solution: the rules, the sentence and their cells."""
    return {"type": "why", **_explanation(why.explanation)}


def _explanation(explanation: Explanation) -> dict[str, Any]:
    """A smallest set of rules that cannot all hold: their names, the sentence, their cells."""
    return {
        "units": list(explanation.names),
        "sentence": explanation.sentence,
        "cells": cells_json(explanation.cells),
    }


def _fixed(fixed: FixedCells) -> dict[str, Any]:
    """The cells every solution agrees on, and how many are open."""
    if fixed.fixed is None:
        return {"type": "fixed", "solutions": 0}
    return {"type": "fixed", **_agreed(fixed.fixed), "complete": fixed.complete}


def _agreed(fixed: Fixed) -> dict[str, Any]:
    """Cells a star in every solution, cells empty in every one, how many are open."""
    return {
        "stars": cells_json(fixed.stars),
        "blanks": cells_json(fixed.blanks),
        "open": len(fixed.open),
    }


def _summary(summary: Summary) -> dict[str, Any]:
    """How a search ended."""
    record = {
        "type": "summary",
        "solutions": summary.found,
        "complete": summary.exhausted,
        "unique": summary.unique,
        "seconds": round(summary.seconds, 6),
    }
    return record | {"interrupted": True} if summary.interrupted else record


def _check(checked: AnswerCheck) -> dict[str, Any]:
    """A complete answer's check."""
    return {
        "type": "check",
        "valid": not checked.violations,
        "stars": cells_json(checked.stars),
        "violations": [violation_json(v) for v in checked.violations],
    }


def _partial(checked: PartialAnswerCheck) -> dict[str, Any]:
    """A partial answer's check."""
    partial = checked.partial
    first = partial.first_wrong
    return {
        "type": "partial",
        "stars": checked.stars,
        "blanks": checked.blanks,
        "violations": [violation_json(v) for v in partial.violations],
        "extendable": partial.extendable,
        "conflict": [[kind, list(cell)] for kind, cell in partial.conflict],
        "first_wrong": None if first is None else [first[0], list(first[1])],
    }


def _hint(hint: Hint) -> dict[str, Any]:
    """A step (as much as is disclosed), or that the marks are solved, or that none applies."""
    if hint.step is None:
        return {"type": "solved"} if hint.solved else {"type": "stuck", "complete": hint.complete}
    record = step_record(hint.step, hint.board, hint.index)
    if hint.disclose != "full":
        del record["conclusions"], record["sentence"]
        record.pop("chain", None)
    if hint.disclose == "technique":
        del record["premises"]
    return record


def _explained(explained: Explained) -> dict[str, Any]:
    """A trace's summary."""
    trace = explained.trace
    return {
        "type": "explain",
        "solved": trace.solved,
        "complete": trace.complete,
        "steps": len(trace.steps),
        "levels": {str(level): n for level, n in trace.levels.items()},
        "hardest": trace.hardest,
    }


def _graded(graded: Graded) -> dict[str, Any]:
    """A grade, or why there is none."""
    return {"type": "grade", **_grade(graded.grade)}


def _grade(grade: Grade) -> dict[str, Any]:
    """A grade's tier, score, kind and features, or why there is none."""
    record = {
        "tier": grade.tier,
        "score": grade.score,
        "kind": grade.kind,
        "features": grade.features,
    }
    return record if grade.reason is None else record | {"reason": grade.reason}


def _verdict(verdict: BoardVerdict) -> dict[str, Any]:
    """A board being drawn: its region problems, else its solutions and what follows."""
    difference, solutions = verdict.difference, verdict.solutions
    return {
        "type": "verdict",
        "valid": not verdict.problems,
        "problems": [
            {"kind": p.kind, "message": p.message, "cells": cells_json(p.cells)}
            for p in verdict.problems
        ],
        "solutions": solutions,
        "unique": None if solutions is None else solutions == 1,
        "why": None if verdict.why is None else _explanation(verdict.why),
        "difference": None
        if difference is None
        else {
            "stars": [list(cell) for cell in difference.first.stars],
            "another": [list(cell) for cell in difference.another.stars],
            "cells": [list(cell) for cell in difference.cells],
        },
        "fixed": None if verdict.fixed is None else _agreed(verdict.fixed),
        "grade": None if verdict.grade is None else _grade(verdict.grade),
        "hardest": verdict.hardest,
        "seconds": round(verdict.seconds, 6),
    }


def _suggestion(suggestion: Suggestion) -> dict[str, Any]:
    """Region edits proved to give a board the solutions said, with the board they make."""
    from starbattle.model.units import region_names

    names = region_names(suggestion.board)
    return {
        "type": "suggestion",
        "index": suggestion.index,
        "moves": [
            {"cell": list(move.cell), "from": names[move.source], "to": names[move.target]}
            for move in suggestion.moves
        ],
        "solutions": suggestion.solutions,
        "unique": suggestion.solutions == 1,
        "changed": suggestion.changed,
        "grade": None if suggestion.grade is None else _grade(suggestion.grade),
        "board": board_json(suggestion.fixed),
    }


def _suggested(suggested: Suggested) -> dict[str, Any]:
    """How a search for suggestions ended."""
    return {
        "type": "suggested",
        "before": suggested.before,
        "suggestions": suggested.found,
        "tried": suggested.tried,
        "complete": suggested.complete,
        "seconds": round(suggested.seconds, 6),
    }


def _overall(tally: Tally) -> dict[str, Any]:
    """A collection's overall summary."""
    from starbattle.exits import Verdict

    return {
        "type": "overall",
        "puzzles": tally.puzzles,
        **{verdict.key: tally.verdicts[verdict] for verdict in Verdict},
        **({"tiers": tally.tier_counts()} if tally.tiers else {}),
        "seconds": round(tally.seconds, 3),
    }


def _generated(puzzle: Generated) -> dict[str, Any]:
    """A generated puzzle: its board, solution, seed and time."""
    return {
        **board_json(puzzle.board),
        "solution": puzzle.solution.grid(),
        "seed": puzzle.seed,
        "seconds": round(puzzle.seconds, 3),
    }


def _comparison(comparison: Comparison) -> dict[str, Any]:
    """Whether the programs compared agree on every board's count (after their rows)."""
    return {"type": "agreement", "disagree": comparison.disagreements}


def program_run(run: ProgramRun) -> dict[str, Any]:
    """One program's row of a comparison."""
    return {
        "type": "encoding",
        "program": run.program.label,
        "puzzles": len(run.seconds),
        "finished": run.finished,
        "median_seconds": round(run.median, 6),
        "worst_seconds": round(max(run.seconds), 6),
        "total_seconds": round(sum(run.seconds), 6),
        "choices": run.choices,
        "conflicts": run.conflicts,
    }


def board_record(board: Board) -> dict[str, Any]:
    """A board as the page draws it: JSON board, size, colours, puzz.link URL (or None)."""
    from starbattle.errors import StarBattleError
    from starbattle.io.inputs import write_board
    from starbattle.io.pictures import PAGE_PALETTE, region_colours

    colours = region_colours(board, tuple(PAGE_PALETTE))
    names = region_names(board)
    try:
        url: str | None = str(write_board(board, "url")).strip()
    except StarBattleError:
        url = None
    return {
        "type": "board",
        **board_json(board),
        "size": board.size,
        "colours": [[colours.get(label) for label in row] for row in board.regions],
        "colour_words": {names[label]: PAGE_PALETTE[colour] for label, colour in colours.items()},
        "url": url,
    }


def converted_record(target: str, written: str | bytes) -> dict[str, Any]:
    """A board converted to a format: its text, or a picture's bytes as base64."""
    import base64

    if isinstance(written, bytes):
        return {"type": "converted", "format": target, "base64": base64.b64encode(written).decode()}
    return {"type": "converted", "format": target, "text": written}


def generated_record(puzzle: Generated, note: str | None) -> dict[str, Any]:
    """A puzzle generated for the page, with the note on its grade when one was asked."""
    made = {"type": "generated", **_generated(puzzle)}
    return made | {"note": note} if note else made


def daily_record(daily: Daily) -> dict[str, Any]:
    """The daily puzzle of a date and a tier."""
    return {
        "type": "daily",
        "date": daily.day,
        "tier": daily.tier,
        "score": daily.score,
        **_generated(daily.puzzle),
    }


def makeable_record(boards: Iterable[Makeable]) -> dict[str, Any]:
    """The boards the generator makes: size, stars and the tiers each may be asked for."""
    return {
        "type": "makeable",
        "boards": [
            {"size": size, "stars": stars, "tiers": list(tiers)} for size, stars, tiers in boards
        ],
    }


def setter_record(
    palette: dict[str, str], efforts: Iterable[str], capacities: dict[int, int]
) -> dict[str, Any]:
    """What the page's edit mode draws with: colours, effort classes, stars per size.

    The palette's colours and their words; the grade's effort classes (a grade's
    `features.effort` indexes them); the most stars a board of each size can hold.
    """
    return {
        "type": "setter",
        "palette": [{"colour": colour, "word": word} for colour, word in palette.items()],
        "efforts": list(efforts),
        "stars": {str(size): most for size, most in capacities.items()},
    }


def techniques_record(techniques: Iterable[tuple[str, int, str]]) -> dict[str, Any]:
    """The hint techniques by name, each with its level and its name for people."""
    return {
        "type": "techniques",
        "techniques": [
            {"name": name, "level": level, "plain": plain} for name, level, plain in techniques
        ],
    }


RECORDS: dict[type, Callable[[Any], dict[str, Any]]] = {
    Found: _found,
    Difference: _difference,
    Why: _why,
    FixedCells: _fixed,
    Summary: _summary,
    AnswerCheck: _check,
    PartialAnswerCheck: _partial,
    Hint: _hint,
    Explained: _explained,
    Graded: _graded,
    Tally: _overall,
    Generated: _generated,
    Comparison: _comparison,
    BoardVerdict: _verdict,
    Suggestion: _suggestion,
    Suggested: _suggested,
}
NO_RECORD = frozenset({Message, Outcome})
"""Values that are said to people or counted, never recorded."""
_MISSING = set(RESULTS) - set(RECORDS) - NO_RECORD
if _MISSING:  # a new result type must get a record or be named here, never print nothing
    raise TypeError(f"no JSON record for {', '.join(sorted(t.__name__ for t in _MISSING))}")


def record(item: object) -> dict[str, Any] | None:
    """The JSON record of a value (None for a message or an outcome)."""
    if type(item) in NO_RECORD:
        return None
    return RECORDS[type(item)](item)
