"""The Solver API: one grounding for many queries, time limits, Ctrl-C between models."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import INSTANCES, PZPRJS

from starbattle import (
    Board,
    EncodingError,
    Solver,
    UsageError,
    count,
    is_unique,
    read_board,
    solve,
)
from starbattle.asp import fastpath
from starbattle.cli.main import cli

TWO = read_board(str(INSTANCES / "norvig-5x5-1star.lp"))
ROWS_9 = Board.from_rows([[str(r)] * 9 for r in range(9)], 1)


def test_one_grounding_answers_several_queries() -> None:
    solver = Solver(TWO)
    assert len(list(solver.solutions(0))) == 2
    assert solver.last.exhausted and solver.last.found == 2
    assert solver.count().found == 2
    assert len(list(solver.solutions(1))) == 1
    assert not solver.last.exhausted


def test_library_verbs() -> None:
    assert count(TWO) == 2 and not is_unique(TWO)
    assert len(list(solve(TWO, models=0))) == 2
    assert count(ROWS_9) == 47622  # permutations of 9 with no two neighbours adjacent


def test_stats_are_recorded() -> None:
    solver = Solver(TWO)
    list(solver.solutions(0))
    assert solver.stats.rules > 0 and solver.stats.atoms > 0 and solver.stats.choices > 0


def test_count_stops_at_the_time_limit() -> None:
    board = Board.from_rows([[str(r)] * 14 for r in range(14)], 1)
    search = Solver(board).count(timeout=0.2)
    assert search.timed_out and not search.exhausted and search.found > 0


@pytest.fixture
def python_ctrl_c() -> Iterator[None]:
    """Python's own Ctrl-C handler, however pytest was started (a background job ignores it)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_suspended_generator_leaves_ctrl_c_working(python_ctrl_c: None) -> None:
    solutions = Solver(ROWS_9).solutions(0)
    next(solutions)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # not held while suspended
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    solutions.close()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_public_api_gives_what_the_fast_path_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    rows_7 = Board.from_rows([[str(r)] * 7 for r in range(7)], 1)
    fast = [solution.stars for solution in Solver(rows_7).solutions(0)]
    monkeypatch.setattr(fastpath, "FAST", False)
    public = [solution.stars for solution in Solver(rows_7).solutions(0)]
    assert len(fast) == 646 and public == fast  # permutations of 7, no neighbours adjacent


@pytest.mark.parametrize(
    "shown,message",
    [
        ("star(0,0)", r"shows star\(0,0\), outside the 5x5 board"),
        ("star(6,1)", r"shows star\(6,1\), outside"),
        ("star(a,b)", r"shows star\(a,b\): star/2 needs two integers"),
    ],
)
def test_stars_off_the_board_are_refused(tmp_path, shown: str, message: str) -> None:
    program = tmp_path / "odd.lp"
    program.write_text(f"{{ star(R,C) : region(R,C,_) }}.\n{shown}.\n#show star/2.\n")
    for fast in (True, False):
        fastpath.FAST = fast
        try:
            with pytest.raises(EncodingError, match=message):
                list(Solver(TWO, encoding=str(program)).solutions(1))
        finally:
            fastpath.FAST = True


def test_program_that_hides_stars_is_reported(tmp_path) -> None:
    program = tmp_path / "hidden.lp"
    program.write_text("{ star(R,C) : region(R,C,_) }.\n#show.\n")
    with pytest.raises(EncodingError, match="show no star/2"):
        list(Solver(TWO, encoding=str(program)).solutions(1))


def test_brave_and_cautious_consequences() -> None:
    solver = Solver(TWO)
    every = [set(solution.stars) for solution in solver.solutions(0)]
    assert solver.consequences("brave") == set.union(*every)
    assert solver.consequences("cautious") == set.intersection(*every)
    assert len(list(solver.solutions(0))) == 2  # the enumeration mode is restored
    pzprjs = read_board(str(INSTANCES / "pzprjs-6x6-1star.lp"))
    assert Solver(pzprjs, variants=("torus",)).consequences("brave") is None
    with pytest.raises(UsageError):
        solver.consequences("sceptical")


@pytest.mark.parametrize(("stars", "cores", "threads"), [(4, 2, 2), (3, 2, 1), (6, 1, 1)])
def test_auto_threads_uses_two_from_four_stars_on_two_cores(
    monkeypatch: pytest.MonkeyPatch, stars: int, cores: int, threads: int
) -> None:
    from starbattle.asp import solver

    monkeypatch.setattr(solver, "_cores", lambda: cores)
    size = 4 * stars + 1
    board = Board.from_rows([[str(r)] * size for r in range(size)], stars)
    assert solver.auto_threads(board) == threads


def test_threads_race_for_one_solution_and_split_a_search_to_exhaust() -> None:
    board = read_board(str(INSTANCES / "generated-17x17-4star.lp"))
    solver = Solver(board, threads=2)
    settings = solver._control.configuration.solve
    assert len(list(solver.solutions(2))) == 1 and settings.parallel_mode == "2,split"
    assert len(list(solver.solutions(1))) == 1 and settings.parallel_mode == "2,compete"
    assert solver.count().found == 1 and settings.parallel_mode == "2,split"
    assert len(list(solver.solutions(1))) == 1 and settings.parallel_mode == "2,compete"
    assert len(list(solver.solutions(0))) == 1 and settings.parallel_mode == "2,split"
    asked = Solver(board, clingo_args=("--parallel-mode=2,compete",))
    assert len(list(asked.solutions(2))) == 1  # a mode given as a clingo option stays
    assert asked._control.configuration.solve.parallel_mode == "2,compete"


def test_the_cli_leaves_one_thread_per_worker_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:

    from starbattle.asp import solver

    asked = tmp_path / "asked"  # written by forked workers too
    asked.write_text("")

    def auto_threads(board: Board) -> int:
        with asked.open("a") as log:
            log.write(f"{board.size}\n")
        return 1

    monkeypatch.setattr(solver, "auto_threads", auto_threads)
    hard = str(INSTANCES / "generated-17x17-4star.lp")
    assert CliRunner().invoke(cli, ["solve", hard, hard, "-j", "2"]).exit_code == 0
    assert asked.read_text() == ""  # -j 2: one thread each, never the automatic choice
    assert CliRunner().invoke(cli, ["solve", hard, hard]).exit_code == 0
    assert asked.read_text() == "17\n17\n"
    assert CliRunner().invoke(cli, ["solve", hard, "-t", "2"]).exit_code == 0
    assert asked.read_text() == "17\n17\n"


class _Rules:
    """A ground program observer: every rule and weight rule, in the order clingo makes them."""

    def __init__(self) -> None:
        self.rules: list[tuple[object, ...]] = []

    def rule(self, choice: bool, head: list[int], body: list[int]) -> None:
        self.rules.append((choice, tuple(head), tuple(body)))

    def weight_rule(self, choice: bool, head: list[int], lower: int, body: list) -> None:
        self.rules.append((choice, tuple(head), lower, tuple(body)))


@pytest.mark.parametrize(
    ("instance", "variants"),
    [
        ("generated-10x10-2star.lp", ()),
        ("generated-17x17-4star.lp", ()),
        ("norvig-5x5-given.lp", ("orthogonal",)),
        ("pzprjs-6x6-1star.lp", ("torus", "plain")),
    ],
)
def test_shipped_files_added_as_text_ground_as_loaded_atom_for_atom(
    instance: str, variants: tuple[str, ...]
) -> None:
    import clingo

    from starbattle.asp.encodings import add_program
    from starbattle.asp.facts import board_facts
    from starbattle.asp.solver import program_files

    board = read_board(str(INSTANCES / instance))
    files = program_files(None, variants, board.stars, ())
    grounded = []
    for twice in range(3):  # load; then add_program twice (the second from its cache)
        control, seen = clingo.Control(), _Rules()
        control.register_observer(seen)
        if twice:
            add_program(control, files)
        else:
            for path in files:
                control.load(path)
        control.add("base", [], board_facts(board))
        control.ground([("base", [])])
        grounded.append(seen.rules)
    assert grounded[0] == grounded[1] == grounded[2] and grounded[0]


@pytest.mark.parametrize(
    "constant", ["_=1", "n=_", "_X=1", "n=_X", "_1=2", "not=1", "n=not", 'n="a\nb"', 'n="\x00"']
)
def test_fuzz_constants_clingo_cannot_parse_are_usage_errors(constant: str) -> None:
    with pytest.raises(UsageError, match=r"^constant .* must look like NAME=VALUE"):
        Solver(read_board(PZPRJS), constants=(constant,))  # was clingo's "parsing failed"


def test_fuzz_constants_clingo_parses_are_taken() -> None:
    constants = ("__a=b'", "nota=not_", "n=-5", 'm="é\t"')
    assert len(list(Solver(read_board(PZPRJS), constants=constants).solutions(0))) == 1


@pytest.mark.parametrize("twice", [("n=3", "n=-1"), ("n=3", "n=3")])
def test_fuzz_a_constant_given_twice_is_a_usage_error(twice: tuple[str, str]) -> None:
    with pytest.raises(UsageError, match=r"^constant n is given twice \('n=3' and 'n="):
        Solver(read_board(PZPRJS), constants=twice)  # was clingo's "parsing failed"


def test_count_with_a_program_that_shows_no_stars_is_refused(run, tmp_path: Path) -> None:
    program = tmp_path / "noshow.lp"
    program.write_text("p(1).\n#show p/1.\n")
    hidden = tmp_path / "hidden.lp"
    hidden.write_text("{ star(R,C) : region(R,C,_) }.\n#show.\n")
    assert "defines no star/2" in run(PZPRJS, "-e", str(program), "--count").stderr
    result = run(PZPRJS, "-e", str(hidden), "--count")
    assert result.exit_code == 2 and "show no star/2" in result.stderr
