"""One formatter per output format: results in, lines and files out (through an Output).

text, json, lp, pzprv3 and svg/png each turn the values of `starbattle.run.service` (and a
collection's tally) into output. A format that has nothing to say about an item says
nothing; adding a format adds a class here, adding a command adds a method for its result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from starbattle.asp.facts import star_facts
from starbattle.errors import UsageError
from starbattle.io.formats import pzprv3
from starbattle.io.formats.json_board import dumps
from starbattle.io.inputs import write_board
from starbattle.io.render import (
    given_mark,
    render_marks,
    render_step,
    render_text,
    star_marks,
    unit_cells,
)
from starbattle.run import service as r
from starbattle.words import plural

if TYPE_CHECKING:
    from pathlib import Path

    from starbattle.io.output import Output
    from starbattle.run.service import Tally

SOLVE_FORMATS = ("text", "json", "lp", "pzprv3", "svg", "png")


def printable(text: str) -> str:
    """Text safe for one terminal line: control characters (escapes, newlines) escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def summary_text(summary: r.Summary) -> str:
    """One line saying how many solutions there are and whether the board is unique."""
    seconds = f"({summary.seconds:.3f} s)"
    found, shown = summary.found, summary.shown
    if summary.counted:
        if summary.exhausted:
            if found == 0:
                return f"no solution {seconds}"
            verdict = "unique" if found == 1 else "not unique"
            return f"{plural(found, 'solution')}, {verdict} {seconds}"
        return (
            f"at least {plural(found, 'solution')}: time limit of {summary.timeout:g} s "
            f"reached, the count is incomplete {seconds}"
        )
    if summary.exhausted:
        if found == 0:
            return f"no solution {seconds}"
        if found == 1:
            return f"1 solution, unique {seconds}"
        return f"{plural(found, 'solution')} in all, not unique {seconds}"
    if summary.timed_out:
        return (
            f"time limit of {summary.timeout:g} s reached after {plural(found, 'solution')}: "
            f"the search is incomplete {seconds}"
        )
    if found > shown:
        if shown == 1:
            return (
                f"not unique: 2 or more solutions {seconds}; "
                "-n 0 lists them all, --count counts them"
            )
        return f"{plural(shown, 'solution')} shown, not unique: there are more {seconds}"
    return f"{plural(found, 'solution')} found; the search stopped there {seconds}"


class _CellJson(dict):
    """A cell's JSON text, made once per cell: "[3, 7]"."""

    def __missing__(self, cell: tuple[int, int]) -> str:
        text = self[cell] = f"[{cell[0]}, {cell[1]}]"
        return text


_CELL_JSON = _CellJson()


class _GridJson(dict):
    """Per board size, an empty grid as the JSON list's inner text: '".....", "....."'."""

    def __missing__(self, size: int) -> bytes:
        text = self[size] = '", "'.join(["." * size] * size).encode()
        return text


_GRID_JSON = _GridJson()


def solution_line(index: int, size: int, stars: tuple[tuple[int, int], ...]) -> str:
    """The body of a solution record, as json.dumps writes it.

    Formatted directly: enumerations print tens of thousands of these, and json.dumps of the
    equivalent dict costs a fifth of the time per solution; the grid's stars are set in a copy
    of the empty grid's JSON (row r starts size + 4 characters after row r - 1).
    """
    cells = ", ".join(map(_CELL_JSON.__getitem__, stars))
    grid, stride = bytearray(_GRID_JSON[size]), size + 4
    for row, column in stars:
        grid[(row - 1) * stride + column - 1] = 42  # "*"
    return (
        f'"type": "solution", "index": {index}, "stars": [{cells}], "grid": ["{grid.decode()}"]}}'
    )


def cells_json(cells: Any) -> list[list[int]]:
    """Cells as JSON lists, in reading order."""
    return [list(cell) for cell in sorted(cells)]


class Formatter:
    """Shows results in one format: the base shows messages and nothing else."""

    name: ClassVar[str] = ""
    comment: ClassVar[str] = ""
    """What starts a comment line in this format (for summaries), if anything."""

    def __init__(
        self,
        output: Output,
        *,
        collection: bool = False,
        ascii_only: bool = False,
        models: int = 1,
        target: str | None = None,
    ) -> None:
        self.output = output
        self.target = target
        """Where pictures go (-o with a picture format); their lines go to `output`."""
        self.collection = collection
        """Several puzzles: each one's output carries its id."""
        self.ascii_only = ascii_only
        self.models = models
        self.identifier: str | None = None

    def begin(self, identifier: str) -> None:
        """A puzzle's output starts."""
        self.identifier = identifier if self.collection else None

    def show(self, item: object) -> None:
        """Show one result item (by its type's method, when the format has one)."""
        method: Callable[[Any], None] | None = getattr(self, f"_{type(item).__name__}", None)
        if method is not None:
            method(item)

    def _Message(self, message: r.Message) -> None:
        """Messages go to standard error in every format."""
        prefix = {
            "error": "starbattle-asp: error: ",
            "warning": "starbattle-asp: warning: ",
            "note": "starbattle-asp: ",
            "clingo": "starbattle-asp: clingo: ",
        }
        self.output.note(printable(prefix.get(message.kind, "") + message.text))

    def _Summary(self, summary: r.Summary) -> None:
        """The closing line of a search (an interrupted one is said on stderr only)."""
        if summary.interrupted:
            return
        lead = "" if summary.counted else "\n" if summary.shown else ""
        self.output.line(lead + self.comment + summary_text(summary))

    def _Why(self, why: r.Why) -> None:
        """Why there is no solution, as a comment."""
        self.output.line(f"% why: {why.explanation.sentence}")

    def _FixedCells(self, fixed: r.FixedCells) -> None:
        """Fixed cells as a text grid in every format without its own way."""
        if fixed.fixed is None:
            self.output.line("no solution")
            return
        star, empty = star_marks(self.ascii_only)
        cells = fixed.fixed
        marks = {**dict.fromkeys(cells.stars, star), **dict.fromkeys(cells.blanks, empty)}
        self.output.line(render_marks(fixed.board, marks, "?"))
        incomplete = "" if fixed.complete else " (time limit reached: not final)"
        self.output.line(
            f"{cells.summary()}: {star} star in every solution, {empty} empty in "
            f"every solution, ? open{incomplete}"
        )

    def overall(self, tally: Tally) -> None:
        """A collection's overall summary."""
        text = tally.text()
        if tally.not_unique:
            listed = ", ".join(printable(name) for name in tally.not_unique[:10])
            more = f" and {len(tally.not_unique) - 10} more" if len(tally.not_unique) > 10 else ""
            text += f"; not unique: {listed}{more}"
        self.output.line(f"\n{self.comment.strip() + ' ' if self.comment else ''}{text}")


class TextFormatter(Formatter):
    """Boards drawn as text with the solution beside them; summaries in words."""

    name = "text"

    def begin(self, identifier: str) -> None:
        """Head each puzzle of a collection with its id."""
        super().begin(identifier)
        if self.collection:
            self.output.line(f"== {printable(identifier)} ==")

    def _Found(self, found: r.Found) -> None:
        """A solution beside its board."""
        if found.index > 1:
            self.output.line("")
        self.output.line(f"solution {found.index}:")
        self.output.line(
            render_text(found.solution.board, found.solution, ascii_only=self.ascii_only)
        )

    def _Difference(self, difference: r.Difference) -> None:
        """The second solution and an X-grid of the cells where the two differ."""
        board = difference.another.board
        cells = difference.cells
        self.output.line("")
        self.output.line("another solution:")
        self.output.line(render_text(board, difference.another, ascii_only=self.ascii_only))
        self.output.line("")
        self.output.line(f"the two differ in {len(cells)} cells (X):")
        self.output.line(render_marks(board, dict.fromkeys(cells, "X"), "."))

    def _Why(self, why: r.Why) -> None:
        """The reason, the units it names, and its cells marked '!'."""
        explanation = why.explanation
        self.output.line(f"why: {explanation.sentence}")
        self.output.line(f"  ({', '.join(explanation.names)}; drop any one and a solution exists)")
        self.output.line(render_marks(why.board, dict.fromkeys(explanation.cells, "!"), "."))

    def _AnswerCheck(self, checked: r.AnswerCheck) -> None:
        """Valid, or each broken rule."""
        if not checked.violations:
            self.output.line(
                f"valid: {len(checked.stars)} stars; every row, column and region holds "
                f"{checked.board.stars} and no two stars touch"
            )
            return
        self.output.line(f"invalid: {len(checked.violations)} problem(s)")
        for violation in checked.violations:
            self.output.line(f"  {violation.message}")
        if checked.grid and any(v.rule in ("row", "column", "region") for v in checked.violations):
            self.output.line("(read as a complete answer: '.' is empty; --partial: undecided)")

    def _PartialAnswerCheck(self, checked: r.PartialAnswerCheck) -> None:
        """Broken rules, whether the marks can still finish, and the first wrong mark."""
        partial = checked.partial
        self.output.line(
            f"partial answer: {checked.stars} stars, {checked.blanks} cells marked empty"
        )
        for violation in partial.violations:
            self.output.line(f"  {violation.message}")
        if partial.extendable:
            self.output.line("the marks can still become a solution")
        elif partial.extendable is None:
            self.output.line("the time limit came before it was known whether the marks can finish")
        else:
            marks = ", ".join(f"{kind} at ({row},{col})" for kind, (row, col) in partial.conflict)
            self.output.line(f"the marks cannot become a solution: these cannot all hold: {marks}")
        if partial.first_wrong is not None:
            kind, (row, col) = partial.first_wrong
            truth = "empty" if kind == "star" else "a star"
            self.output.line(
                f"first wrong mark: ({row},{col}) is marked {kind} but is {truth} in the solution"
            )

    def _Hint(self, hint: r.Hint) -> None:
        """A step: its technique, then where to look, then what follows (as disclosed)."""
        step = hint.step
        if step is None:
            if hint.complete:
                self.output.line(
                    "solved: the marks hold every star"
                    if hint.solved
                    else "no step: no technique of the ladder applies to these marks"
                )
            return
        if hint.in_trace:
            self.output.line(f"{hint.index:>3}. [{step.level} {step.technique}] {step.sentence}")
            return
        self.output.line(f"hint: level {step.level}, {step.technique}")
        if hint.disclose == "technique":
            return
        self.output.line(f"look at: {', '.join(step.units) or 'the marked cells'}")
        premises = [cell for unit in step.units for cell in unit_cells(hint.board, unit)]
        full = hint.disclose == "full"
        if full:
            self.output.line(step.sentence)
        self.output.line(
            render_step(
                hint.board,
                hint.state.stars,
                hint.state.blanks,
                premises=[*premises, *step.cells],
                new_stars=step.stars if full else (),
                new_blanks=step.blanks if full else (),
                ascii_only=self.ascii_only,
            )
        )
        new = "O" if self.ascii_only else "◎"
        legend = f"; {new} must be a star, X must be empty" if full else ""
        given = f", {given_mark(self.ascii_only)} given" if hint.board.given_stars else ""
        self.output.line(f"(? the cells it rests on, x marked empty{given}{legend})")

    def _Explained(self, explained: r.Explained) -> None:
        """Solved by logic or stuck, steps per level, the hardest level."""
        trace = explained.trace
        levels = ", ".join(f"level {level}: {n}" for level, n in trace.levels.items())
        if trace.solved:
            head = f"solved by logic in {plural(len(trace.steps), 'step')}"
        else:
            left = explained.board.size**2 - len(trace.state.stars) - len(trace.state.blanks)
            ended = "stuck" if trace.complete else "stopped by the time limit"
            head = f"{ended} after {plural(len(trace.steps), 'step')} with {left} cells undecided"
        hardest = "" if trace.hardest is None else f"; hardest level {trace.hardest}"
        self.output.line(f"{head} ({levels or 'no steps'}){hardest}")

    def _Graded(self, graded: r.Graded) -> None:
        """The tier and score with the features that weigh most, or why there is no grade."""
        grade, lead = graded.grade, "grade: " if graded.in_summary else ""
        if grade.tier is None:
            self.output.line(str(grade.reason))
            return
        f = grade.features
        cut = ""
        if f["cut"]:
            from starbattle.logic.grade import LEVEL_6_BUDGET

            stuck = f["level_7"]
            cut = "; levels 1-6 get stuck" if stuck else f"; read to level-6 step {LEVEL_6_BUDGET}"
        self.output.line(
            f"{lead}{grade.tier} (score {grade.score:g}): {plural(f['steps'], 'step')}, "
            f"hardest level {f['hardest']}, {plural(f['bottlenecks'], 'bottleneck')}, "
            f"{plural(f['conflicts'], 'clingo conflict')}{cut}"
        )


class JsonFormatter(Formatter):
    """JSON Lines: one record per solution, difference, reason, fixed cells and summary."""

    name = "json"

    def record(self, record: dict[str, Any]) -> None:
        """Print one record, carrying the puzzle's id in a collection."""
        if self.identifier is not None:
            record = {"id": self.identifier, **record}
        self.output.line(dumps(record))

    def _Found(self, found: r.Found) -> None:
        """A solution record (formatted directly: the fast path of long enumerations)."""
        head = "{" if self.identifier is None else f'{{"id": {dumps(self.identifier)}, '
        solution = found.solution
        self.output.line(head + solution_line(found.index, solution.size, solution.stars))

    def _Difference(self, difference: r.Difference) -> None:
        """The second solution and the differing cells."""
        self.record(
            {
                "type": "difference",
                "stars": [list(cell) for cell in difference.another.stars],
                "cells": [list(cell) for cell in difference.cells],
            }
        )

    def _Why(self, why: r.Why) -> None:
        """The reason's units, sentence and cells."""
        explanation = why.explanation
        self.record(
            {
                "type": "why",
                "units": list(explanation.names),
                "sentence": explanation.sentence,
                "cells": cells_json(explanation.cells),
            }
        )

    def _FixedCells(self, fixed: r.FixedCells) -> None:
        """The decided cells and how many are open."""
        if fixed.fixed is None:
            self.record({"type": "fixed", "solutions": 0})
            return
        self.record(
            {
                "type": "fixed",
                "stars": cells_json(fixed.fixed.stars),
                "blanks": cells_json(fixed.fixed.blanks),
                "open": len(fixed.fixed.open),
                "complete": fixed.complete,
            }
        )

    def _Summary(self, summary: r.Summary) -> None:
        """The summary record."""
        self.record(summary.record())

    def _AnswerCheck(self, checked: r.AnswerCheck) -> None:
        """A complete answer's check."""
        self.record(
            {
                "type": "check",
                "valid": not checked.violations,
                "stars": cells_json(checked.stars),
                "violations": [violation_json(v) for v in checked.violations],
            }
        )

    def _PartialAnswerCheck(self, checked: r.PartialAnswerCheck) -> None:
        """A partial answer's check."""
        partial = checked.partial
        first = partial.first_wrong
        self.record(
            {
                "type": "partial",
                "stars": checked.stars,
                "blanks": checked.blanks,
                "violations": [violation_json(v) for v in partial.violations],
                "extendable": partial.extendable,
                "conflict": [[kind, list(cell)] for kind, cell in partial.conflict],
                "first_wrong": None if first is None else [first[0], list(first[1])],
            }
        )

    def _Hint(self, hint: r.Hint) -> None:
        """The step record (as much of it as is disclosed)."""
        if hint.step is None:
            if hint.solved:
                self.record({"type": "solved"})
            else:
                self.record({"type": "stuck", "complete": hint.complete})
            return
        record = hint.step.record(hint.index)
        if hint.disclose != "full":
            record.pop("conclusions")
            record.pop("sentence")
        if hint.disclose == "technique":
            record.pop("premises")
        self.record(record)

    def _Explained(self, explained: r.Explained) -> None:
        """The trace's summary record."""
        self.record(explained.trace.record())

    def _Graded(self, graded: r.Graded) -> None:
        """The grade record."""
        self.record(graded.grade.record())

    def overall(self, tally: Tally) -> None:
        """The overall record."""
        self.output.line(dumps(tally.record()))


def violation_json(violation: Any) -> dict[str, Any]:
    """A broken rule as JSON."""
    return {
        "rule": violation.rule,
        "code": violation.code,
        "cells": cells_json(violation.cells),
        "message": violation.message,
    }


class LpFormatter(Formatter):
    """Solutions as star(R,C). facts; the rest as % comments."""

    name = "lp"
    comment = "% "

    def _Found(self, found: r.Found) -> None:
        """A solution's stars as facts on one line."""
        self.output.line(star_facts(found.solution.stars))

    def _Summary(self, summary: r.Summary) -> None:
        """The summary as a comment (a count as a bare line, as it always was)."""
        if summary.interrupted:
            return
        self.output.line(("" if summary.counted else "% ") + summary_text(summary))


class Pzprv3Formatter(Formatter):
    """Each solution as a puzz.link pzprv3 file with the solution as its marks."""

    name = "pzprv3"
    comment = "# "

    def _Found(self, found: r.Found) -> None:
        """A pzprv3 file of the solved board."""
        text = pzprv3.write(found.solution.board, found.solution).rstrip("\n")
        self.output.line(("\n" if found.index > 1 else "") + text)

    def _Summary(self, summary: r.Summary) -> None:
        """The summary after a blank line, as a comment."""
        if summary.interrupted:
            return
        self.output.line(("" if summary.counted else "\n# ") + summary_text(summary))


class PictureFormatter(Formatter):
    """SVG or PNG pictures: one per solution (NAME-k.EXT with several), or of the reason."""

    name = "svg"

    def picture_path(self, index: int) -> Path | None:
        """Where solution k's picture goes: -o FILE itself for one, else NAME-k.EXT."""
        if self.target is None:
            return None
        from pathlib import Path  # ~4 ms of a cold start: only for pictures

        path = Path(self.target)
        return path if self.models == 1 else path.with_name(f"{path.stem}-{index}{path.suffix}")

    def draw(self, index: int, picture: str | bytes, what: str = "") -> None:
        """Write a picture to its file (and say so), or an SVG to standard output."""
        path = self.picture_path(index)
        if path is None:
            self.output.line(str(picture).rstrip("\n"))
            return
        self.output.write(picture, path, what)

    def render(self, *args: Any, **options: Any) -> str | bytes:
        """Draw a board in this formatter's picture format."""
        from starbattle.io import pictures  # drawing only when asked for

        return (pictures.render_svg if self.name == "svg" else pictures.render_png)(
            *args, **options
        )

    def _Found(self, found: r.Found) -> None:
        """The picture of a solution."""
        self.draw(found.index, self.render(found.solution.board, found.solution))

    def _Why(self, why: r.Why) -> None:
        """The board with the cells of the reason outlined."""
        picture = self.render(why.board, highlight=why.explanation.cells)
        self.draw(1, picture, " (the cells of the reason outlined)")

    def _Hint(self, hint: r.Hint) -> None:
        """The board with the marks so far: premises hatched, conclusions in red."""
        from starbattle.logic.ladder import Logic
        from starbattle.model.board import Solution

        board, step = hint.board, hint.step
        stars = sorted(set(hint.state.stars) | board.given_stars)
        solution = Solution.from_cells(board.size, stars, board)
        overlay = None if step is None else Logic(board).overlay(hint.state, step)
        picture = self.render(board, solution, overlay=overlay)
        self.draw(1, picture, " (premises hatched, conclusions in red)")

    def _Summary(self, summary: r.Summary) -> None:
        """The summary, unless standard output holds an SVG alone."""
        if self.target is not None and not summary.interrupted:
            super()._Summary(summary)


class PngFormatter(PictureFormatter):
    """PNG pictures (Pillow)."""

    name = "png"


FORMATTERS: dict[str, type[Formatter]] = {
    cls.name: cls
    for cls in (TextFormatter, JsonFormatter, LpFormatter, Pzprv3Formatter, PictureFormatter)
}
FORMATTERS["png"] = PngFormatter


class GeneratedWriter:
    """Generated puzzles in a board format: to standard output, one file, or a directory."""

    ONE_LINE = ("json", "url", "sbn")

    def __init__(self, fmt: str, output: str | None, count: int, command: str, seed: str) -> None:
        from pathlib import Path

        from starbattle.io.output import Output

        self.fmt, self.command, self.seed = fmt, command, seed
        folder = output is not None and (Path(output).is_dir() or output.endswith(("/", os.sep)))
        self.folder = Path(output) if output is not None and folder else None
        if count > 1 and fmt not in self.ONE_LINE and self.folder is None:
            raise UsageError(
                f"several puzzles in {fmt} need a directory: -o DIR/ "
                "(or use json, url or sbn, one puzzle a line)"
            )
        if self.folder is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise UsageError(f"cannot make the directory {output}: {error.strerror}") from None
        self.output = Output(None if self.folder is not None else output)
        self.index = 0

    def text(self, puzzle: Any) -> str:
        """One generated puzzle in the format."""
        if self.fmt == "json":
            from starbattle.io.formats.json_board import board_json

            record = {
                **board_json(puzzle.board),
                "solution": puzzle.solution.grid(),
                "seed": puzzle.seed,
                "seconds": round(puzzle.seconds, 3),
            }
            return dumps(record) + "\n"
        text = str(write_board(puzzle.board, self.fmt))
        if self.fmt == "lp":
            return (
                f"% generated by: starbattle-asp generate {self.command} --seed "
                f"{printable(self.seed)} (puzzle {self.index}, attempt seed "
                f"{printable(puzzle.seed)}, {puzzle.seconds:.1f} s)\n{text}"
            )
        return text

    def add(self, puzzle: Any) -> None:
        """Write one puzzle (to its own file in a directory)."""
        self.index += 1
        text = self.text(puzzle)
        if self.folder is None:
            self.output.line(text.rstrip("\n"))
            return
        size, stars = puzzle.board.size, puzzle.board.stars
        seed = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.seed)[:40]
        name = f"starbattle-{size}x{size}-{stars}star-{seed}-{self.index}.{self.fmt}"
        self.output.write(text, self.folder / name)

    def close(self) -> None:
        """Write what was kept (a file is written whole, also after an interruption)."""
        if self.output.wrote or self.output.path is None:
            self.output.close()


class BenchWriter:
    """The comparison of programs: a table, or JSON records, and their agreement."""

    def __init__(self, output: Output, fmt: str) -> None:
        self.output, self.fmt = output, fmt

    def show(self, runs: list[Any], boards: int) -> bool:
        """Show every program's row and whether they agree; return whether they do."""
        from starbattle.run.compare import disagreements, table

        differing = disagreements(runs)
        if self.fmt == "json":
            for run in runs:
                self.output.line(dumps(run.record()))
            self.output.line(dumps({"type": "agreement", "disagree": differing}))
        else:
            for line in table(runs):
                self.output.line(line)
            if differing:
                self.output.line(f"counts DISAGREE on {len(differing)} of {boards} boards:")
                for identifier, counts in list(differing.items())[:20]:
                    listed = ", ".join(f"{k} {v}" for k, v in counts.items())
                    self.output.line(f"  {printable(identifier)}: {listed}")
            else:
                self.output.line(f"all programs agree on the counts of all {boards} boards")
        self.output.close()
        return not differing
