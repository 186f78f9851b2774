"""The starbattle-asp command line: declare options once, call the library, format, exit."""

from __future__ import annotations

import gc
import signal
import sys
from functools import partial
from typing import Any

import click
from click.core import ParameterSource

from starbattle import __version__
from starbattle.cli.options import (
    DEBUG,
    DefaultSolveGroup,
    assume_unique_option,
    board_options,
    collection_options,
    format_option,
    grade_option,
    jobs_options,
    marks_option,
    output_option,
    program_options,
    suggest_options,
    technique_option,
    timeout_option,
)
from starbattle.cli.running import (
    collection_of,
    describe_encodings,
    failure,
    fresh_seed,
    one_board,
    one_text,
    progress_bar,
    readable_boards,
    run_puzzles,
    runner,
    serve_page,
    show_items,
    state_of,
    write_puzzles,
)
from starbattle.errors import UsageError
from starbattle.exits import Exit
from starbattle.io.formatters.registry import SOLVE_FORMATS, formatter
from starbattle.io.inputs import WRITERS
from starbattle.io.output import Output, Status, stream_error, utf8_output, whole_standard_output
from starbattle.model.steps import DISCLOSURES, TIERS


@click.group(cls=DefaultSolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="starbattle-asp")
@click.option("--debug", is_flag=True, help="Show the traceback of internal errors (anywhere).")
def cli(debug: bool) -> None:
    """Solve, count and check Star Battle puzzles with clingo.

    `starbattle-asp FILE` is short for `starbattle-asp solve FILE`.
    """


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@board_options
@program_options
@click.option("-n", "--models", type=click.IntRange(0, 2**62), default=1, show_default=True,
              help="Solutions to print (0 = all, streamed).")  # fmt: skip
@click.option("--count", "count_only", is_flag=True, help="Count every solution, print none.")
@click.option("--unique", "require_unique", is_flag=True, help="Exit 1 unless exactly one.")
@click.option("--fixed", "fixed_only", is_flag=True, help="Cells every solution agrees on.")
@format_option(SOLVE_FORMATS)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write to this file (pictures: NAME-1.svg, ... when -n is not 1).")  # fmt: skip
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw stars as * (text output).")
@grade_option
@collection_options
@click.pass_context
def solve(ctx: click.Context, files: tuple[str, ...], **given: Any) -> int:
    """Solve each FILE: a board, a collection (JSON Lines, SBN lines), a URL, or - (stdin).

    Prints the first solution and says whether the board is unique; when it is not, shows a
    second solution and where the two differ; when there is none, says why. With several
    puzzles each gets a summary with its id, and an overall summary ends the output. A named
    pipe (FIFO) is read once a writer opens it: until then the command waits.

    Example: starbattle-asp solve instances/norvig-5x5-1star.lp -n 0 -f json
    """
    from starbattle.run.service import SolveRequest, solve_all, solve_puzzle

    fmt, path, jobs = given.pop("output_format"), given.pop("output"), given.pop("jobs")
    cluster = given.pop("cluster")
    ascii_only, bar = given.pop("ascii_only"), given.pop("progress")
    found, collection, bar = collection_of(files, given["input_format"], bar)
    if given["count_only"] and given["fixed_only"]:
        raise UsageError("--count and --fixed are two different questions: ask one")
    if fmt in ("svg", "png") and (collection or given["count_only"] or given["fixed_only"]):
        asked = "a collection" if collection else "--count" if given["count_only"] else "--fixed"
        raise UsageError(f"-f {fmt} draws solutions of one board, not {asked}: use text or json")
    if fmt == "png" and not path:
        raise UsageError("-f png writes a binary picture: name the file with -o FILE.png")
    if given["with_grade"] and (given["encoding"] or given["variants"]):
        raise UsageError("--grade grades by the shipped rules: drop -e and -w, or --grade")
    if fmt == "svg" and not path and given["models"] != 1:
        raise UsageError("several SVG pictures need file names: add -o FILE.svg")
    if given["threads"] is None and (jobs > 1 or cluster is not None):
        given["threads"] = 1  # the processes share the cores already
    request = SolveRequest(
        **given, second=ctx.get_parameter_source("models") == ParameterSource.DEFAULT
    )
    picture = fmt in ("svg", "png")
    show = formatter(fmt)(
        Output(None if picture else path),
        collection=collection,
        ascii_only=ascii_only or not utf8_output(),
        models=request.models,
        target=path if picture else None,
    )
    # one puzzle streams its solutions; a collection prints each puzzle whole, with any -j
    work = partial(solve_all if collection else solve_puzzle, request)
    return run_puzzles(work, found, show, jobs, bar, cluster, request.timeout)


@cli.command()
@click.argument("file")
@click.option("--to", "output_format", type=click.Choice(WRITERS), required=True, help="Format.")
@output_option
@board_options
def convert(file: str, output_format: str, output: str | None, **board: Any) -> int:
    """Convert the board in FILE to another format.

    Example: starbattle-asp convert instances/pzprjs-6x6-1star.lp --to url
    """
    from starbattle.io.inputs import write_board

    written = write_board(one_board(file, **board)[0], output_format)
    if isinstance(written, bytes) and not output:
        raise UsageError(f"--to {output_format} writes a binary file: name it with -o FILE")
    written_to = Output(output)
    written_to.write(written)
    written_to.close()
    return 0


@cli.command()
@click.argument("file")
@click.argument("answer", required=False)
@board_options
@click.option("--partial", is_flag=True, help="Read '.' as undecided (stars and dots only).")
@click.option("--against-solution", is_flag=True, help="Name the first mark the solution denies.")
@marks_option
@timeout_option
@format_option(("text", "json"))
def check(file: str, answer: str | None, partial: bool, against_solution: bool, marks: bool,
          timeout: float | None, output_format: str, **board_options: Any) -> int:  # fmt: skip
    """Check ANSWER (a grid, star(R,C) facts, JSON or pzprv3) against FILE's board.

    A grid with stars (*), cells marked empty (x or +) and undecided cells (.) is a partial
    answer: broken rules are named, then whether the marks can still become a solution and,
    if not, which marks conflict. In a grid of only * and ., a '.' means empty unless
    --partial says it is undecided. Without ANSWER, FILE must be a pzprv3 file, or an image
    read with --marks: its own marks are checked.

    Example: starbattle-asp check board.txt answer.txt
    """
    from starbattle.run.service import check_answer, check_marks

    board, record, seen = one_board(file, **board_options, marks=marks)
    if answer is None and seen.marks and record.image is not None:
        drawn = record.reading(board_options["stars"], seen)
        result = check_marks(board, drawn.marked_stars, drawn.marked_blanks,
                             against_solution=against_solution, timeout=timeout)  # fmt: skip
    else:
        if answer is None and not record.carries_answer:
            raise UsageError(
                "give an ANSWER to check (only a pzprv3 file, or an image with --marks, "
                "carries its own answer)"
            )
        text = record if answer is None else one_text(answer)
        result = check_answer(board, text.text, name=text.name, partial=partial,
                              against_solution=against_solution, timeout=timeout)  # fmt: skip
    show = formatter(output_format)(Output())
    show.show(result)
    show.output.close()
    return result.code


class SaysLevels(click.Command):
    """A command whose help says the hint ladder's levels where it writes {levels}.

    The technique registry is read only when the help is shown: a command that runs does not
    import the ladder's modules.
    """

    @property
    def help(self) -> str | None:
        """The help, the registry's levels filled in."""
        from starbattle.logic.registry import LEVELS

        levels = ", ".join(f"{level} {techniques}" for level, techniques in LEVELS.items())
        return None if self.said is None else self.said.format(levels=levels)

    @help.setter
    def help(self, said: str | None) -> None:
        """Keep the help as written."""
        self.said = said


@cli.command(cls=SaysLevels)
@click.argument("file")
@click.argument("state", required=False)
@board_options
@click.option("--disclose", type=click.Choice(DISCLOSURES), default="full", show_default=True,
              help="How much to say: the technique, where to look, or the whole step.")  # fmt: skip
@format_option(SOLVE_FORMATS[:2] + SOLVE_FORMATS[4:])
@output_option
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw stars as * (text output).")
@marks_option
@technique_option
@assume_unique_option
@timeout_option
def hint(file: str, state: str | None, disclose: str, output_format: str, output: str | None,
         ascii_only: bool, marks: bool, techniques: tuple[str, ...], assume_unique: bool,
         timeout: float | None, **board_options: Any) -> int:  # fmt: skip
    """The next logical step on FILE's board, from the marks in STATE (a partial answer).

    Each step names its technique and level ({levels}), the rows, columns and regions it
    rests on, and what follows.
    Without STATE, a pzprv3 file's own saved marks are the state. --technique adds your own
    technique, an ASP program like those of encodings/hints/ (listed by `starbattle-asp
    encodings`), tried after the built-in ones of its level.

    Example: starbattle-asp hint instances/generated-10x10-2star.lp --disclose where
    """
    from starbattle.run.service import hint_items

    if output_format == "png" and not output:
        raise UsageError("-f png writes a binary picture: name the file with -o FILE.png")
    board, record, seen = one_board(file, **board_options, marks=marks)
    marked = state_of(board, record, seen, state, board_options["stars"], board_options["givens"])
    picture = output_format in ("svg", "png")
    show = formatter(output_format)(
        Output(None if picture else output), ascii_only=ascii_only or not utf8_output(),
        target=output if picture else None,
    )  # fmt: skip
    items = hint_items(board, marked, disclose, techniques, timeout, assume_unique)
    return show_items(show, items)


@cli.command()
@click.argument("file")
@click.argument("state", required=False)
@board_options
@marks_option
@format_option(("text", "json"))
@grade_option
@technique_option
@assume_unique_option
@timeout_option
def explain(file: str, state: str | None, marks: bool, output_format: str, with_grade: bool,
            techniques: tuple[str, ...], assume_unique: bool, timeout: float | None,
            **board_options: Any) -> int:  # fmt: skip
    """Every logical step from STATE (or an empty board) to the end, then a summary.

    Steps are printed as they are found. Exits 0 when logic solves the board, 1 when it gets
    stuck, 3 when --timeout stops it first. --grade adds the board's grade (of the empty
    board, whatever STATE holds, by the built-in techniques alone). --technique adds your
    own technique, as for `hint`.

    Example: starbattle-asp explain instances/generated-10x10-2star.lp -f json
    """
    from starbattle.run.service import explain_items

    board, record, seen = one_board(file, **board_options, marks=marks)
    show = formatter(output_format)(Output())
    marked = state_of(board, record, seen, state, board_options["stars"], board_options["givens"])
    items = explain_items(board, marked, with_grade, techniques, timeout, assume_unique)
    return show_items(show, items)


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@board_options
@format_option(("text", "json"))
@collection_options
@assume_unique_option
@timeout_option
def grade(files: tuple[str, ...], output_format: str, jobs: int, cluster: str | None,
          progress: bool | None, assume_unique: bool, timeout: float | None,
          **board: Any) -> int:  # fmt: skip
    """Grade each FILE's puzzle: a tier (easy, medium, hard, expert, extreme) and a score.

    The grade comes from the logical steps that solve the board, easiest first: the hardest
    kind of step a person needs and how much of it (the share of the cells its steps decide,
    or for region steps the steps per row), never the board's size or clingo's search; it
    is the same for every rotation, reflection and naming of the regions. A board without
    exactly one solution gets no grade (exit 1); one whose grading outlasts --timeout gets
    none either (exit 3). Collections end with the count per tier.

    Example: starbattle-asp grade instances/generated-10x10-2star.lp -f json
    """
    from starbattle.run.service import SolveRequest, grade_puzzle

    found, collection, bar = collection_of(files, board["input_format"], progress)
    show = formatter(output_format)(Output(), collection=collection)
    request = SolveRequest(**board, timeout=timeout, assume_unique=assume_unique)
    work = partial(grade_puzzle, request)
    return run_puzzles(work, found, show, jobs, bar, cluster, timeout)


@cli.command()
@click.option("-N", "--size", type=click.IntRange(1, 200), required=True, help="Board size N.")
@click.option("-s", "--stars", type=click.IntRange(min=1), required=True, help="Stars per unit.")
@click.option("-k", "--count", type=click.IntRange(min=1), default=1, help="How many puzzles.")
@click.option("--seed", help="Same seed, same puzzles (default: a fresh one, said on stderr).")
@click.option("--min-region", type=click.IntRange(min=1), help="Smallest region (default 2S+1).")
@timeout_option
@click.option("--tier", type=click.Choice(TIERS), help="Keep only puzzles of this difficulty.")
@click.option("--min-score", type=float, help="Keep only puzzles graded at least this.")
@click.option("--max-score", type=float, help="Keep only puzzles graded at most this.")
@click.option("--attempts", type=click.IntRange(min=1), default=200, show_default=True,
              help="With --tier or a score bound: puzzles to make before giving up.")  # fmt: skip
@format_option(("txt", "lp", "json", "url", "sbn", "pzprv3"), default="txt")
@click.option("-o", "--output", type=click.Path(), help="A file, or a directory: one file each.")
@jobs_options
def generate(size: int, stars: int, count: int, seed: str | None, output_format: str,
             output: str | None, jobs: int, cluster: str | None, **limits: Any) -> int:  # fmt: skip
    """Generate puzzles with exactly one solution, reproducibly from a seed.

    The same seed gives the same puzzles with any -j or --cluster; without --seed a fresh
    one is drawn and said on stderr. With -j, several puzzles
    are made at once; one puzzle (-k 1, or a grade asked) is made by -j processes taking
    its attempts in turn. With --tier (or --min-score/--max-score) puzzles are made until
    one has that grade; how many were made is said on stderr. For --tier easy, rows whose
    stars lie two cells apart keep those three cells as a region.

    Example: starbattle-asp generate -N 10 -s 2 -k 5 -f json --tier hard
    """
    from starbattle.io.formatters.generated import GeneratedWriter
    from starbattle.logic.graded import Asked
    from starbattle.run.batch import racing
    from starbattle.run.service import generated_puzzles

    if seed is None:
        seed = fresh_seed()
        Output().note(f"seed {seed} (--seed {seed} makes the same puzzles again)")
    asked = Asked(*(limits.pop(name) for name in Asked._fields))
    graded = asked.graded
    if cluster is None and jobs > 1 and (count == 1 or graded):  # one puzzle at a time
        limits["race"] = racing(jobs)
    elif jobs > 1 or cluster is not None:
        limits["run"] = runner(jobs, cluster, chunk=1)  # a puzzle takes seconds: one per task
    writer = GeneratedWriter(output_format, output, count, f"--size {size} --stars {stars}", seed)
    status = Status() if graded else None
    if status is not None:
        limits["progress"] = status.say
    made = generated_puzzles(size, stars, count, seed, asked, **limits)
    write_puzzles(made, writer, count, status)
    return 0


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@board_options
@click.option("-e", "--encoding", "encodings", multiple=True, metavar="FILE|default",
              help="A program to compare (repeatable; 'default' is the shipped one).")  # fmt: skip
@click.option("-w", "--with", "variants", multiple=True, metavar="NAME|FILE",
              help="Compare the default program with this variant added (repeatable).")  # fmt: skip
@click.option("-n", "--models", type=click.IntRange(0, 2**62), default=2, show_default=True,
              help="Solutions to look for (2 proves uniqueness; 0 counts them all).")  # fmt: skip
@timeout_option
@format_option(("text", "json"))
def bench(files: tuple[str, ...], encodings: tuple[str, ...], variants: tuple[str, ...],
          models: int, timeout: float | None, output_format: str, **board: Any) -> int:  # fmt: skip
    """Compare encodings on the boards of FILE...: time, choices, conflicts, agreement.

    With no -e or -w, compares the default program with the variant `plain`. Exits 1 when
    two programs that finished a board disagree on its number of solutions.

    Example: starbattle-asp bench instances/*.lp -w notouch-windows
    """
    from starbattle.model.values import Comparison, ProgramRun
    from starbattle.run.compare import compare, programs

    output = Output()
    boards, unreadable = readable_boards(files, output, **board)
    if not boards:
        raise UsageError("no board could be read: nothing to compare")
    runs = [ProgramRun(program) for program in programs(encodings, variants)]
    with progress_bar(len(boards)) as progress:
        for _ in compare(runs, boards, models, timeout):
            if progress is not None:
                progress.advance()
    comparison = Comparison(runs, len(boards))
    show = formatter(output_format)(output)
    show.show(comparison)
    output.close()
    if comparison.disagreements:
        return Exit.NONE
    return Exit.ERROR if unreadable else Exit.FOUND


@cli.command()
@click.argument("file")
@board_options
@suggest_options
@format_option(("text", "json"))
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the first suggestion's board here (format by extension).")  # fmt: skip
@timeout_option
def suggest(file: str, max_moves: int, tier: str | None, most: int, split: bool,
            output_format: str, output: str | None, timeout: float | None,
            **board_options: Any) -> int:  # fmt: skip
    """Region edits that give FILE's board exactly one solution, each proved by the solver.

    An edit moves a cell to a neighbouring region (no region emptied or cut in two); single
    moves come first, pairs only when no single move works, each in order of how little the
    picture changes. A board with no solution gets edits that give it one (exactly one
    first). With --tier, only edits whose puzzle is unique and graded that tier. Exits 0 with
    a suggestion, 1 when no edit works, 3 when --timeout comes first.

    Example: starbattle-asp suggest instances/norvig-5x5-1star.lp -o fixed.lp
    """
    from starbattle.io.inputs import format_for, write_board
    from starbattle.model.setter import Suggestion
    from starbattle.run.service import suggest_items

    board, record, _ = one_board(file, **board_options)
    target = None if output is None else format_for(output, record, board_options["input_format"])
    shown, first = formatter(output_format)(Output()), []

    def kept(items: Any) -> Any:
        """The items, the first suggestion kept to be written."""
        for item in items:
            if isinstance(item, Suggestion) and not first:
                first.append(item)
            yield item

    items = suggest_items(board, max_moves=max_moves, tier=tier, most=most, split=split,
                          timeout=timeout)  # fmt: skip
    code = show_items(shown, kept(items))
    if output is not None and target is not None:
        if not first:
            Output().note("starbattle-asp: no suggestion, so no board was written")
        else:
            written = Output(output)
            written.write(write_board(first[0].fixed, target))
            written.close()
    return code


@cli.command("encodings")
def list_encodings() -> int:
    """List the default program, the rule variants and the hint programs with their purpose."""
    output = Output()
    for line in describe_encodings():
        output.line(line)
    output.close()
    return 0


@cli.command()
@click.argument("file", required=False, metavar="[FILE|URL]")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free one).")  # fmt: skip
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
def serve(file: str | None, host: str, port: int, open_browser: bool) -> int:
    """Serve a page to play, check, get hints and solve in the browser, until Ctrl-C.

    Example: starbattle-asp serve instances/pzprjs-6x6-1star.lp --open
    """
    serve_page(file, host, port, open_browser)
    return 0


def main() -> None:
    """Entry point: run a command and exit with its code (Ctrl-C 130, SIGTERM 143)."""
    from starbattle.asp import guard
    from starbattle.run import interrupts

    code = 128 + signal.SIGINT
    try:
        whole_standard_output()
        with interrupts.handled():
            code = cli.main(prog_name="starbattle-asp", standalone_mode=False)
        if sys.stdout is not None:  # a full disk or a closed pipe is said here, not at exit
            sys.stdout.flush()
    except click.ClickException as error:
        error.show()
        code = error.exit_code
    except (KeyboardInterrupt, click.Abort):
        code = 128 + (guard.received_signal() or signal.SIGINT)
    except OSError as error:  # --help or --version to a full disk or a closed pipe
        code = failure(stream_error(error), debug=DEBUG["on"])
    gc.freeze()  # the process ends: no collection of every object left on the way out (~8 ms)
    sys.exit(code or 0)
