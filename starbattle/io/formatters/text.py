"""Text for people: boards drawn with their solution beside them, summaries in words."""

from __future__ import annotations

from starbattle.io.formatters.base import Formatter, Piece, printable, shows
from starbattle.io.render import given_mark, render_marks, render_step, render_text, star_marks
from starbattle.model.setter import Suggested, Suggestion
from starbattle.model.steps import Explained, Grade, Graded, Hint, Step
from starbattle.model.units import region_names
from starbattle.model.values import (
    AnswerCheck,
    BoardVerdict,
    Comparison,
    Difference,
    Fixed,
    FixedCells,
    Found,
    Generated,
    Outcome,
    PartialAnswerCheck,
    Tally,
    Why,
)
from starbattle.words import plural


class TextFormatter(Formatter):
    """Boards drawn as text with the solution beside them; summaries in words."""

    name = "text"
    silent = frozenset({Outcome, Generated})

    def begin(self, identifier: str) -> list[Piece]:
        """Head each puzzle of a collection with its id."""
        super().begin(identifier)
        return [f"== {printable(identifier)} =="] if self.collection else []

    @shows(Found)
    def found(self, found: Found) -> list[Piece]:
        """A solution beside its board."""
        picture = render_text(found.solution.board, found.solution, ascii_only=self.ascii_only)
        return [*([""] if found.index > 1 else []), f"solution {found.index}:", picture]

    @shows(Difference)
    def difference(self, difference: Difference) -> list[Piece]:
        """The second solution and an X-grid of the cells where the two differ."""
        board, cells = difference.another.board, difference.cells
        return [
            "",
            "another solution:",
            render_text(board, difference.another, ascii_only=self.ascii_only),
            "",
            f"the two differ in {len(cells)} cells (X):",
            render_marks(board, dict.fromkeys(cells, "X"), "."),
        ]

    @shows(Why)
    def why(self, why: Why) -> list[Piece]:
        """The reason, the rules it names, and its cells marked '!'."""
        explanation = why.explanation
        return [
            f"why: {explanation.sentence}",
            f"  ({', '.join(explanation.names)}; drop any one and a solution exists)",
            render_marks(why.board, dict.fromkeys(explanation.cells, "!"), "."),
        ]

    @shows(FixedCells)
    def fixed(self, fixed: FixedCells) -> list[Piece]:
        """Fixed cells as a grid: a star, empty, or open."""
        return fixed_lines(fixed, self.ascii_only)

    @shows(AnswerCheck)
    def check(self, checked: AnswerCheck) -> list[Piece]:
        """Valid, or each broken rule."""
        if not checked.violations:
            return [
                f"valid: {len(checked.stars)} stars; every row, column and region holds "
                f"{checked.board.stars} and no two stars touch"
            ]
        said: list[Piece] = [f"invalid: {len(checked.violations)} problem(s)"]
        said += [f"  {violation.message}" for violation in checked.violations]
        if checked.grid and any(v.unit is not None for v in checked.violations):
            said.append("(read as a complete answer: '.' is empty; --partial: undecided)")
        return said

    @shows(PartialAnswerCheck)
    def partial(self, checked: PartialAnswerCheck) -> list[Piece]:
        """Broken rules, whether the marks can still finish, and the first wrong mark."""
        partial = checked.partial
        said: list[Piece] = [
            f"partial answer: {plural(checked.stars, 'star')}, "
            f"{plural(checked.blanks, 'cell')} marked empty"
        ]
        said += [f"  {violation.message}" for violation in partial.violations]
        if partial.extendable:
            said.append("the marks can still become a solution")
        elif partial.extendable is None:
            said.append("the time limit came before it was known whether the marks can finish")
        else:
            marks = ", ".join(f"{kind} at ({row},{col})" for kind, (row, col) in partial.conflict)
            said.append(f"the marks cannot become a solution: these cannot all hold: {marks}")
        if partial.first_wrong is not None:
            kind, (row, col) = partial.first_wrong
            truth = "empty" if kind == "star" else "a star"
            said.append(
                f"first wrong mark: ({row},{col}) is marked {kind} but is {truth} in the solution"
            )
        return said

    @shows(Hint)
    def hint(self, hint: Hint) -> list[Piece]:
        """A step: its technique, then where to look, then what follows (as disclosed)."""
        step, board = hint.step, hint.board
        if step is None:
            if not hint.complete:
                return []
            if hint.solved:
                return ["solved: the marks hold every star"]
            return ["no step: no technique of the ladder applies to these marks"]
        if hint.in_trace:
            said = f"{hint.index:>3}. [{step.level} {step.technique}] {step.sentence}"
            return [said, *chain_lines(step, "       ")]
        said: list[Piece] = [f"hint: level {step.level}, {step.technique}"]
        if hint.disclose == "technique":
            return said
        names = ", ".join(unit.name(board) for unit in step.units)
        said.append(f"look at: {names or 'the marked cells'}")
        full = hint.disclose == "full"
        if full:
            said += [step.sentence, *chain_lines(step, "  ")]
        said.append(
            render_step(
                board,
                hint.state.stars,
                hint.state.blanks,
                premises=step.premise_cells(board),
                new_stars=step.stars if full else (),
                new_blanks=step.blanks if full else (),
                ascii_only=self.ascii_only,
            )
        )
        new = "O" if self.ascii_only else "◎"
        legend = f"; {new} must be a star, X must be empty" if full else ""
        given = f", {given_mark(self.ascii_only)} given" if board.given_stars else ""
        said.append(f"(? the cells it rests on, x marked empty{given}{legend})")
        if board.words:  # the picture's letters for the regions the sentences call by colour
            shown = region_names(board)
            words = [f"{shown[label]} {board.words[label]}" for label in board.region_labels]
            said.append(f"(regions: {', '.join(words)})")
        return said

    @shows(Explained)
    def explained(self, explained: Explained) -> list[Piece]:
        """Solved by logic or stuck, steps per level, the hardest level."""
        trace = explained.trace
        levels = ", ".join(f"level {level}: {n}" for level, n in trace.levels.items())
        if trace.solved:
            head = f"solved by logic in {plural(len(trace.steps), 'step')}"
        else:
            left = explained.board.size**2 - len(trace.state.stars) - len(trace.state.blanks)
            ended = "stuck" if trace.complete else "stopped by the time limit"
            steps = plural(len(trace.steps), "step")
            head = f"{ended} after {steps} with {plural(left, 'cell')} undecided"
        hardest = "" if trace.hardest is None else f"; hardest level {trace.hardest}"
        return [f"{head} ({levels or 'no steps'}){hardest}"]

    @shows(Graded)
    def graded(self, graded: Graded) -> list[Piece]:
        """The tier and score with the features that weigh most, or why there is no grade."""
        return [graded_line(graded)]

    @shows(BoardVerdict)
    def verdict(self, verdict: BoardVerdict) -> list[Piece]:
        """The region problems, else the solutions and what follows from them."""
        if verdict.problems:
            return [f"regions: {problem.message}" for problem in verdict.problems]
        if verdict.solutions is None:
            return ["the time limit was reached before the solutions were counted"]
        said: list[Piece] = [solutions_words(verdict.solutions, verdict.grade)]
        if verdict.why is not None:
            said.append(f"why: {verdict.why.sentence}")
        if verdict.difference is not None:
            said.append(f"two solutions differ in {len(verdict.difference.cells)} cells")
        if verdict.hardest is not None:
            said.append(f"hardest step: {verdict.hardest}")
        if verdict.fixed is not None:
            said.append(decided(verdict.fixed))
        return said

    @shows(Suggestion)
    def suggestion(self, suggestion: Suggestion) -> list[Piece]:
        """The moves and what they make, then the new board with the moved cells marked."""
        names = region_names(suggestion.board)
        moves = ", ".join(
            f"({r},{c}) from region {names[move.source]} to region {names[move.target]}"
            for move in suggestion.moves
            for r, c in [move.cell]
        )
        moved = dict.fromkeys((move.cell for move in suggestion.moves), "o")
        return [
            *([""] if suggestion.index > 1 else []),
            f"suggestion {suggestion.index}: move {moves}: "
            f"{solutions_words(suggestion.solutions, suggestion.grade)}",
            render_marks(suggestion.fixed, moved, "."),
        ]

    @shows(Suggested)
    def suggested(self, suggested: Suggested) -> list[Piece]:
        """How the search ended: what the board had, how many suggestions, boards tried."""
        tried = f"{plural(suggested.tried, 'board')} tried, {suggested.seconds:.3f} s"
        if suggested.before == 1 and suggested.tier is None:
            return [
                "the board has exactly one solution: nothing to fix (--tier T looks for "
                f"edits towards a tier) ({tried})"
            ]
        before = {0: "no solution", 1: "one solution", 2: "2 or more solutions"}
        had = f"the board has {before.get(suggested.before, 'an unknown number of solutions')}"
        lead = "\n" if suggested.found else ""
        if suggested.found:
            return [f"{lead}{had}; {plural(suggested.found, 'suggestion')} ({tried})"]
        wanted = f"a {suggested.tier} puzzle" if suggested.tier else "exactly one solution"
        if not suggested.complete:
            return [
                f"{had}; the time limit of {suggested.timeout:g} s was reached before an edit "
                f"gave {wanted} ({tried})"
            ]
        return [f"{had}; no edit of the regions tried gives {wanted} ({tried})"]

    @shows(Comparison)
    def comparison(self, comparison: Comparison) -> list[Piece]:
        """The programs' table, then whether they agree on every board's count."""
        runs = comparison.runs
        width = max(len("program"), *(len(run.program.label) for run in runs))
        said: list[Piece] = [
            f"{'program'.ljust(width)}  finished     median      worst      total  "
            "   choices   conflicts"
        ]
        said += [
            f"{run.program.label.ljust(width)}  {run.finished:>4}/{len(run.seconds):<4} "
            f"{run.median * 1000:>8.1f} ms {max(run.seconds):>8.3f} s "
            f"{sum(run.seconds):>8.2f} s {run.choices:>10} {run.conflicts:>11}"
            for run in runs
        ]
        differing = comparison.disagreements
        if not differing:
            return [*said, f"all programs agree on the counts of all {comparison.boards} boards"]
        said.append(f"counts DISAGREE on {len(differing)} of {comparison.boards} boards:")
        for identifier, counts in list(differing.items())[:20]:
            listed = ", ".join(f"{k} {v}" for k, v in counts.items())
            said.append(f"  {printable(identifier)}: {listed}")
        return said

    @shows(Tally)
    def overall(self, tally: Tally) -> list[Piece]:
        """A collection's overall summary, after a blank line."""
        return ["", overall_text(tally, self.comment)]


def chain_lines(step: Step, indent: str) -> list[Piece]:
    """A trial's chain as numbered lines: the assumption, each step, the broken rule."""
    return [f"{indent}{k}. {link.sentence}" for k, link in enumerate(step.chain, start=1)]


def decided(fixed: Fixed) -> str:
    """E.g. '31 of 100 cells decided; 69 open', or '... undecided' after a time limit."""
    total = fixed.size * fixed.size
    rest = "open" if fixed.complete else "undecided (time limit)"
    return f"{total - len(fixed.open)} of {total} cells decided; {len(fixed.open)} {rest}"


def overall_text(tally: Tally, comment: str = "") -> str:
    """A collection's overall summary as one line, listing the puzzles that are not unique."""
    from starbattle.exits import Verdict

    parts = [f"{tally.verdicts[v]} {v.words}" for v in Verdict if tally.verdicts[v]]
    tiers = ", ".join(f"{n} {tier}" for tier, n in tally.tier_counts().items() if n)
    text = (
        f"{tally.puzzles} puzzles: {', '.join(parts) or 'none'}"
        f"{f'; tiers: {tiers}' if tiers else ''} ({tally.seconds:.1f} s)"
    )
    if tally.not_unique:
        listed = ", ".join(printable(name) for name in tally.not_unique[:10])
        more = f" and {len(tally.not_unique) - 10} more" if len(tally.not_unique) > 10 else ""
        text += f"; not unique: {listed}{more}"
    return f"{comment.strip() + ' ' if comment else ''}{text}"


def fixed_lines(fixed: FixedCells, ascii_only: bool) -> list[Piece]:
    """Fixed cells as a grid (a star, empty, or open) and how many are decided."""
    if fixed.fixed is None:
        return ["no solution"]
    star, empty = star_marks(ascii_only)
    cells = fixed.fixed
    marks = {**dict.fromkeys(cells.stars, star), **dict.fromkeys(cells.blanks, empty)}
    incomplete = "" if fixed.complete else " (time limit reached: not final)"
    return [
        render_marks(fixed.board, marks, "?"),
        f"{decided(cells)}: {star} star in every solution, {empty} empty in every solution, "
        f"? open{incomplete}",
    ]


def graded_line(graded: Graded) -> str:
    """The tier and score with the features that weigh most, or why there is no grade."""
    grade, lead = graded.grade, "grade: " if graded.in_summary else ""
    if grade.tier is None:
        return str(grade.reason)
    f = grade.features
    cut = ""
    if f["cut"]:
        stuck = f["level_7"]
        cut = "; levels 1-6 get stuck" if stuck else f"; read to level-6 step {f['level_6']}"
    part = 100 * f["effort_cells"] / f["cells"]
    share = f"{part:.0f}%" if part >= 1 else "under 1%"
    return (
        f"{lead}{grade.tier} (score {grade.score:g}): needs {grade.kind} steps, which decide "
        f"{share} of the cells; {plural(f['steps'], 'step')} ({f['steps'] / f['size']:.1f} per "
        f"row), hardest level {f['hardest']}"
        f"{cut}"
    )


def solutions_words(solutions: int, grade: Grade | None) -> str:
    """'unique, hard (score 2.2)', 'unique', 'no solution', '2 or more solutions'."""
    if solutions == 1:
        tier = (
            "" if grade is None or grade.tier is None else f", {grade.tier} (score {grade.score:g})"
        )
        return f"unique{tier}"
    return "no solution" if solutions == 0 else "2 or more solutions"
