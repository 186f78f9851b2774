"""Formats people share: puzz.link URLs, pzprv3 files, SBN lines and collections."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import CORPUS, INSTANCES, corpus, needs_corpus, random_board, same_partition
from hypothesis import given, settings
from hypothesis import strategies as st

from starbattle import Board, BoardError, FormatError, Solver, check, write_board
from starbattle.cli.main import cli
from starbattle.io.formats.answer import read_answer
from starbattle.io.inputs import detect, parse_board, puzzlink, pzprv3, sbn

PZPRJS_URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
CSPUZ_URL = "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk"
# pzprjs test/script/starbattle.js (MIT): failcheck fixtures with the failure they must show
PZPRV3_HEAD = (
    "pzprv3/starbattle/6/6/1/6/0 0 0 1 1 1 /0 1 1 1 2 2 /0 3 3 4 4 2 /5 5 3 3 4 2 /"
    "5 4 4 4 4 2 /5 2 2 2 2 2 /"
)
FAILCHECKS = {
    "starAround": ". . . . . . /. . . . . . /. . . # . . /. . # . . . /. . . . . . /. . . . . . /",
    "bkStarGt": ". . # . . . /. . . . . . /# . . . . . /. . . . . . /. . . . . . /. . . . . . /",
    "bkStarLt": ". . # . . . /. . . . . . /. . . . . . /. . . . . . /. . . . . . /. . . . . . /",
    "lnStarNe": "+ # + + + + /+ + + # + + /+ + + + + # /. + # + + + /# + + + # + /. + + + + + /",
    None: "+ # + + + + /+ + + # + + /+ + + + + # /. + # + + + /. + + + # + /# + + + + + /",
}


def rows_of(board: Board) -> list[str]:
    """Region labels renumbered 0.. in reading order, as strings of digits."""
    names: dict[str | None, str] = {}
    return [
        "".join(names.setdefault(label, str(len(names))) for label in row) for row in board.regions
    ]


@pytest.mark.parametrize(
    "url,rows,columns",
    [
        (
            PZPRJS_URL,
            ["000111", "011122", "033442", "553342", "544442", "522222"],
            [1, 3, 5, 2, 4, 0],
        ),
        (
            CSPUZ_URL,
            ["000011", "023011", "223331", "211111", "244145", "224445"],
            [1, 4, 2, 0, 5, 3],
        ),
    ],
)
def test_url_vectors(url: str, rows: list[str], columns: list[int]) -> None:
    board = puzzlink.read(url)
    assert rows_of(board) == rows and board.stars == 1
    solutions = list(Solver(board).solutions(0))
    assert [solution.stars for solution in solutions] == [
        tuple((r + 1, c + 1) for r, c in enumerate(columns))
    ]
    assert puzzlink.write(board).strip() == url


@pytest.mark.parametrize(
    "text",
    [
        "http://pzv.jp/p.html?starbattle/6/6/1/4ilbhgdnmhou",
        "https://pzprxs.vercel.app/p?starbattle/6/6/1/4ilbhgdnmhou",
        "https://puzz.link/p?starbattle_edit/6/6/1/4ilbhgdnmhou",
        "https://puzz.link/p?starbattle_play/6/6/1/4ilbhgdnmhou",
        "https://puzz.link/p?type=player&starbattle/6/6/1/4ilbhgdnmhou",
        "https://puzz.link/p?type=editor&starbattle/6/6/1/4ilbhgdnmhou/",
        "  starbattle/6/6/1/4ilbhgdnmhou\n",
    ],
)
def test_url_forms(text: str) -> None:
    assert detect(text) == "url"
    assert rows_of(parse_board(text)) == rows_of(puzzlink.read(PZPRJS_URL))


def test_missing_trailing_digits_mean_no_wall() -> None:
    # no walls between the last two rows, so the URL ends in zero digits
    board = Board.from_rows(["AAABBB", "ABBBCC", "ADDEEC", "FFDDEC", "FEEEEC", "FEEEEC"], 1)
    url = puzzlink.write(board).strip()
    assert url.endswith("0")
    assert same_partition(puzzlink.read(url.rstrip("0")), board)
    with pytest.raises(BoardError, match="has 1 region;"):  # no walls at all: one region
        puzzlink.read("https://puzz.link/p?starbattle/6/6/1/")


@pytest.mark.parametrize(
    "url,message",
    [
        ("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhoux", "at most 12"),
        ("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhoz", "not a base-32 digit"),
        ("https://puzz.link/p?starbattle/6/5/1/4ilbhgdnmhou", "columns first"),
        ("https://puzz.link/p?starbattle/6/6/4ilbhgdnmhou", "COLS/ROWS/STARS/WALLS"),
    ],
)
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        puzzlink.read(url)


@needs_corpus
def test_every_url_of_the_corpus_decodes_to_its_board() -> None:
    boards = {
        record["puzzlink"].split("starbattle/")[1].split("/", 3)[3]: record
        for record in corpus()
        if record.get("puzzlink")
    }
    lines = (CORPUS / "puzzlink-urls.tsv").read_text().splitlines()
    assert len(lines) == 14
    for line in lines:
        url = line.split("\t")[0]
        board = puzzlink.read(url)
        record = boards[url.rstrip("/").rsplit("/", 1)[1]]
        assert same_partition(board, Board.from_rows(record["regions"], board.stars)), url
        if board.stars != record["stars"]:  # penpa-edit's test list has a typo: 42 stars
            with pytest.raises(BoardError, match="42 stars per row cannot fit a 9x9"):
                Solver(board)


def test_disconnected_region_cannot_be_a_url_or_sbn() -> None:
    board = Board.from_rows(["AABBC", "CABBC", "CCDDD", "EEDDD", "EEEEE"], 1)
    for fmt in ("url", "sbn", "pzprv3"):
        with pytest.raises(FormatError, match="region C is in 2 separate pieces"):
            write_board(board, fmt)


def test_blocked_cells_and_givens_are_refused_by_wall_formats() -> None:
    board = Board.from_rows(["AB", "BA"], 1, given_stars=[(1, 1)])
    with pytest.raises(FormatError, match="no place for blocked cells or givens"):
        write_board(board, "url")


@pytest.mark.parametrize("code", list(FAILCHECKS))
def test_pzprv3_fixtures_fail_as_pzprjs_says(code: str | None) -> None:
    text = PZPRV3_HEAD + FAILCHECKS[code]
    board = pzprv3.read(text)
    assert rows_of(board) == rows_of(puzzlink.read(PZPRJS_URL))
    violations = check(board, read_answer(text, 6))
    if code is None:
        assert violations == []
    else:
        assert code in {violation.code for violation in violations}


def test_pzprv3_answer_as_givens_and_as_file() -> None:
    text = PZPRV3_HEAD + FAILCHECKS["lnStarNe"]
    board = parse_board(text, givens=True)
    assert (1, 2) in board.given_stars and (1, 1) in board.given_blanks
    assert (4, 1) not in board.given_blanks  # '.' stays unknown
    lines = "\n".join(text.split("/")) + "\nhistory that is ignored\n"
    assert pzprv3.read(lines).regions == pzprv3.read(text).regions
    assert pzprv3.read("http://pzv.jp/p.html?" + text).regions == board.regions


def test_pzprv3_round_trip_with_solution() -> None:
    board = puzzlink.read(PZPRJS_URL)
    solution = next(Solver(board).solutions(1))
    text = pzprv3.write(board, solution)
    assert pzprv3.read_answer_stars(text) == list(solution.stars)
    assert pzprv3.read(text).regions == board.regions
    assert text.splitlines()[:6] == ["pzprv3", "starbattle", "6", "6", "1", "6"]


@pytest.mark.parametrize(
    "text,message",
    [
        ("pzprv3/pencils/6/6/1/6/", "not 'starbattle'"),
        ("pzprv3/starbattle/6/5/1/6/", "square"),
        ("pzprv3/starbattle/6/6/x/6/", "whole number"),
        ("pzprv3/starbattle/2/2/1/2/0 1 /1 /", "row 2 of the room ids has 1 entries"),
        ("pzprv3/starbattle/2/2/1/2/0 1 /1 0 /# ? /. . /", "unknown answer mark"),
    ],
)
def test_bad_pzprv3(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        pzprv3.read(text)


SBN_FILES = sorted((CORPUS / "starbattlelab").glob("*.sbn")) if CORPUS.is_dir() else []


@needs_corpus
@pytest.mark.parametrize("path", SBN_FILES, ids=[path.stem for path in SBN_FILES])
@pytest.mark.slow
def test_sbn_sample_decodes_to_unique_boards(path: Path) -> None:
    lines = path.read_text().splitlines()
    size, stars = int(path.name[:2]), int(path.name.split("-")[1][0])
    for line in random.Random(3).sample(lines, min(4, len(lines))):
        board = sbn.read(line)
        assert (board.size, board.stars, len(board.region_labels)) == (size, stars, size)
        assert len(list(Solver(board).solutions(2))) == 1, line
        assert sbn.write(board).strip() == line.strip()


def test_sbn_annotations_are_ignored_with_a_note() -> None:
    line = "551e7kxqe40" + "abcdef"
    with pytest.warns(UserWarning, match="ignored 6 characters of player annotations"):
        board = sbn.read(line)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert board.regions == sbn.read("551W7kxqe40").regions


@pytest.mark.parametrize(
    "line,message",
    [
        ("551W7kxqe4", "take 7 characters, not 6"),
        ("551W7kxqe400", "take 7 characters, not 8"),
        ("331W7kxqe40", "not Star Battle Notation"),
        ("551Wzzzzzzz", "zero padding"),
    ],
)
def test_bad_sbn(line: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        sbn.read(line)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(5, 25),
    seed=st.integers(0, 2**32),
    fmt=st.sampled_from(["url", "sbn", "pzprv3"]),
)
@pytest.mark.slow
def test_wall_formats_round_trip(size: int, seed: int, fmt: str) -> None:
    board = random_board(random.Random(seed), size, 1 + seed % 3)
    text = write_board(board, fmt)
    assert detect(text) == fmt
    assert same_partition(parse_board(text), board)


def test_solve_a_collection(tmp_path: Path) -> None:
    lines = ["551W7kxqe40", "551W7-zc580", "551W7kxqe4", "AA2WG2ejcRhAI4KmaA22YHFA9eaEdt-oV0"]
    path = tmp_path / "mixed.sbn"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, [str(path), "-f", "json"])
    assert result.exit_code == 2  # one bad line: reported, the others still solved
    assert f"{path}:3: the walls of a 5x5 board take 7 characters, not 6" in result.stderr
    summaries = [
        json.loads(line)
        for line in result.stdout.splitlines()
        if json.loads(line)["type"] == "summary"
    ]
    assert [s["id"] for s in summaries] == [f"{path}:1", f"{path}:2", f"{path}:4"]
    assert all(s["unique"] for s in summaries)


def test_solve_json_lines_collection_uses_record_ids(tmp_path: Path) -> None:
    path = tmp_path / "boards.jsonl"
    path.write_text(
        '{"id": "first", "stars": 1, "regions": ["AAABBB", "ABBBCC", "ADDEEC", '
        '"FFDDEC", "FEEEEC", "FCCCCC"]}\n{"stars": 1, "regions": ["ABCCC", '
        '"ABDDC", "ABDDE", "AEEEE", "AEEEE"]}\n'
    )
    result = CliRunner().invoke(cli, [str(path), "--count"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:5] == ["== first ==", lines[1], f"== {path}:2 ==", lines[3], ""]
    assert lines[3].startswith("2 solutions")
    assert lines[5].startswith("2 puzzles: 1 unique, 1 not unique (") and len(lines) == 6
    assert lines[5].endswith(f"s); not unique: {path}:2")


def test_cli_reads_a_url_argument_and_writes_pzprv3() -> None:
    result = CliRunner().invoke(cli, [PZPRJS_URL, "-f", "pzprv3"])
    assert result.exit_code == 0
    assert pzprv3.read_answer_stars(result.stdout) == [
        (1, 2),
        (2, 4),
        (3, 6),
        (4, 3),
        (5, 5),
        (6, 1),
    ]


def test_check_a_pzprv3_file_alone(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(PZPRV3_HEAD + FAILCHECKS[None])
    bad.write_text(PZPRV3_HEAD + FAILCHECKS["bkStarGt"])
    assert CliRunner().invoke(cli, ["check", str(good)]).exit_code == 0
    result = CliRunner().invoke(cli, ["check", str(bad)])
    assert result.exit_code == 1 and "too many stars in region 0" in result.stdout
    result = CliRunner().invoke(cli, ["check", str(INSTANCES / "pzprjs-6x6-1star.lp")])
    assert result.exit_code == 2 and "give an ANSWER" in result.stderr


@pytest.mark.parametrize("fmt", ["url", "sbn", "pzprv3"])
def test_convert_to_shared_formats(fmt: str) -> None:
    result = CliRunner().invoke(cli, ["convert", PZPRJS_URL, "--to", fmt])
    assert result.exit_code == 0
    assert rows_of(parse_board(result.stdout)) == rows_of(puzzlink.read(PZPRJS_URL))
