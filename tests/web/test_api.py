"""The web API and server: the command line's records, errors, limits and what is served."""

from __future__ import annotations

import base64
import http.client
import json
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import ROOT
from webserver import post, request, running, wait_for

from starbattle.asp.solver import Solver
from starbattle.cli.main import cli
from starbattle.io.inputs import read_board, write_board
from starbattle.io.pictures import PAGE_PALETTE, region_colours
from starbattle.logic.generate import canonical
from starbattle.logic.grade import REACHABLE, grade
from starbattle.logic.registry import EFFORTS, TECHNIQUES
from starbattle.model.board import king_capacity
from starbattle.model.checker import check
from starbattle.web import api

URL = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
SOLUTION = [[1, 2], [2, 4], [3, 6], [4, 3], [5, 5], [6, 1]]
SEVERAL = ROOT / "instances" / "planted-10x10-2star-several.lp"
ROWS_20 = "stars: 1\n" + "\n".join(chr(ord("A") + k) * 20 for k in range(20)) + "\n"
"""20 regions that are the rows: more solutions than any time limit can count."""


@pytest.fixture(scope="module")
def server():
    with running(start_board=URL) as started:
        yield started


def without_seconds(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in record.items() if k != "seconds"} for record in records]


def cli_text(*arguments: str) -> str:
    return CliRunner().invoke(cli, list(arguments)).stdout


def cli_records(*arguments: str) -> list[dict]:
    return [json.loads(line) for line in cli_text(*arguments).splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("source", "options", "arguments"),
    [
        (URL, {}, []),
        (str(SEVERAL), {}, []),
        (str(SEVERAL), {"models": 3}, ["-n", "3"]),
        (str(SEVERAL), {"count": True}, ["--count"]),
        (str(SEVERAL), {"fixed": True}, ["--fixed"]),
        ("stars: 1\nAAB\nAAB\nCCC\n", {}, []),
    ],
    ids=["unique", "not-unique", "three", "count", "fixed", "no-solution"],
)
def test_solve_returns_the_records_of_solve_json(server, source, options, arguments):
    board = Path(source).read_text() if source == str(SEVERAL) else source
    status, answer = post(server, "solve", {"board": board, **options})
    expected = cli_records("solve", source, "-f", "json", *arguments)
    assert status == 200
    assert expected
    assert without_seconds(answer["records"]) == without_seconds(expected)


def test_solve_unique_and_second_solution_are_real(server):
    status, answer = post(server, "solve", {"board": URL})
    assert status == 200
    first, summary = answer["records"]
    assert first["stars"] == SOLUTION
    assert summary["unique"] is True
    board = read_board(str(SEVERAL))
    status, answer = post(server, "solve", {"board": SEVERAL.read_text()})
    solution, difference, summary = answer["records"]
    assert summary == {**summary, "unique": False, "solutions": 2}
    for stars in (solution["stars"], difference["stars"]):
        assert check(board, [tuple(cell) for cell in stars]) == []
    changed = {tuple(c) for c in solution["stars"]} ^ {tuple(c) for c in difference["stars"]}
    assert sorted(changed) == [tuple(cell) for cell in difference["cells"]]


def test_count_is_seventeen(server):
    status, answer = post(server, "solve", {"board": SEVERAL.read_text(), "count": True})
    assert (status, answer["records"][-1]["solutions"]) == (200, 17)


def test_a_bad_board_is_400_with_the_cli_message(server):
    status, answer = post(server, "solve", {"board": "AB\nA\n"})
    result = CliRunner().invoke(cli, ["solve", "AB\nA\n"])
    assert status == 400
    assert result.stderr.strip() == f"starbattle-asp: error: {answer['error']}"
    assert post(server, "check", {"board": "AB\nA\n"}) == (400, answer)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({}, 'the request needs "board"'),
        ({"board": URL, "timeout": 0}, '"timeout" must be more than 0'),
        ({"board": URL, "timeout": "soon"}, '"timeout" must be a number'),
        ({"board": URL, "stars": True}, '"stars" must be an integer, not true'),
        ({"board": URL, "marks": {"stars": [[7, 1]]}}, '"marks" must be'),
        ({"board": URL, "marks": [1]}, '"marks" must be'),
    ],
)
def test_bad_options_are_400(server, payload, message):
    command = "check" if "marks" in payload else "solve"
    status, answer = post(server, command, payload)
    assert status == 400
    assert answer["error"].startswith(message)


def test_check_marks_that_can_still_finish(server):
    marks = {"stars": SOLUTION[:2], "blanks": [[1, 1], [6, 6]]}
    status, answer = post(server, "check", {"board": URL, "marks": marks})
    assert status == 200
    assert answer["records"] == [
        {
            "type": "partial",
            "stars": 2,
            "blanks": 2,
            "violations": [],
            "extendable": True,
            "conflict": [],
            "first_wrong": None,
        }
    ]


def test_check_names_the_first_wrong_mark(server):
    marks = {"stars": [[1, 1]], "blanks": [[1, 2]]}
    payload = {"board": URL, "marks": marks, "against_solution": True}
    status, answer = post(server, "check", payload)
    (record,) = answer["records"]
    assert (status, record["extendable"], record["violations"]) == (200, False, [])
    assert record["first_wrong"] == ["star", [1, 1]]
    assert record["conflict"] == [["star", [1, 1]]]


def test_check_touching_stars_is_a_violation(server):
    status, answer = post(server, "check", {"board": URL, "marks": {"stars": [[1, 1], [2, 2]]}})
    (record,) = answer["records"]
    assert status == 200
    assert [v["cells"] for v in record["violations"]] == [[[1, 1], [2, 2]]]


def test_check_a_complete_answer_text(server):
    answer_text = "\n".join(
        "".join("*" if [r, c] in SOLUTION else "." for c in range(1, 7)) for r in range(1, 7)
    )
    status, answer = post(server, "check", {"board": URL, "answer": answer_text})
    assert (status, answer["records"][0]["type"], answer["records"][0]["valid"]) == (
        200,
        "check",
        True,
    )


def test_board_record_carries_the_picture_colours(server):
    status, answer = post(server, "board", {"board": URL})
    (record,) = answer["records"]
    board = read_board(URL)
    colours = region_colours(board, tuple(PAGE_PALETTE))
    assert status == 200
    assert record["url"] == URL
    assert record["regions"][0] == "000111"
    assert record["colours"] == [[colours[label] for label in row] for row in board.regions]


def test_board_record_names_a_colour_of_its_own_for_every_region(server):
    board = read_board(str(ROOT / "instances" / "generated-25x25-6star.lp"))
    (record,) = post(server, "board", {"board": write_board(board, "url")})[1]["records"]
    words = record["colour_words"]
    names = {name for row in record["regions"] for name in row}
    assert set(words) == names and len(set(words.values())) == 25
    shades = {}
    for row, colours in zip(record["regions"], record["colours"], strict=True):
        for name, colour in zip(row, colours, strict=True):
            shades.setdefault(name, set()).add(colour)
    assert all(len(colour) == 1 for colour in shades.values())
    assert len({colour for (colour,) in shades.values()}) == 25
    assert {PAGE_PALETTE[colour] for (colour,) in shades.values()} == set(words.values())


def test_the_daily_puzzle_is_the_same_for_the_same_date(server):
    # idle it takes 0.4 s; on a machine loaded 5-fold it once took 22 s (the limit is 10 s
    # unless asked, and the test client waits 30 s)
    asked = {"tier": "easy", "timeout": 25}
    first = post(server, "daily", {"date": "2026-01-31", **asked})
    again = post(server, "daily", {"date": "2026-01-31", **asked})
    other = post(server, "daily", {"date": "2026-02-01", **asked})
    assert first[0] == again[0] == other[0] == 200
    (made,) = first[1]["records"]
    assert made["type"] == "daily" and (made["date"], made["tier"]) == ("2026-01-31", "easy")
    assert made == again[1]["records"][0]
    assert made["regions"] != other[1]["records"][0]["regions"]
    board = read_board(json.dumps(made))
    assert grade(board).tier == "easy"
    assert next(Solver(board).solutions(1)).grid() == made["solution"]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"date": "2026-02-30", "tier": "easy"}, "'2026-02-30' is no date: write it as YYYY-MM-DD"),
        ({"date": "20260201", "tier": "easy"}, "'20260201' is no date: write it as YYYY-MM-DD"),
        (
            {"date": "2026-02-01", "tier": "hardest"},
            "unknown tier 'hardest': choose one of easy, medium, hard, expert, extreme",
        ),
        ({"date": 20260201}, '"date" must be a string, not 20260201'),
    ],
)
def test_a_daily_puzzle_of_no_date_is_refused_in_one_line(server, payload, message):
    assert post(server, "daily", payload) == (400, {"error": message})


def test_makeable_offers_sizes_5_to_25_with_measured_tiers(server):
    status, body, _ = request(f"{server.url}api/makeable")
    boards = json.loads(body)["boards"]
    assert status == 200 and {b["size"] for b in boards} <= set(range(5, 26))
    assert {(b["size"], b["stars"]) for b in boards} >= {(5, 1), (10, 2), (14, 3), (25, 6)}
    assert all(b["stars"] <= king_capacity(b["size"]) for b in boards)
    assert all(tuple(b["tiers"]) == REACHABLE.get((b["size"], b["stars"]), ()) for b in boards)
    assert {(b["size"], b["stars"]) for b in boards} >= set(REACHABLE)
    assert (7, 2) not in {(b["size"], b["stars"]) for b in boards}


def test_techniques_are_the_registry_with_names_for_people(server):
    status, body, _ = request(f"{server.url}api/techniques")
    assert status == 200
    assert json.loads(body) == {
        "type": "techniques",
        "techniques": [{"name": t.name, "level": t.level, "plain": t.plain} for t in TECHNIQUES],
    }


def test_setter_gives_the_page_colours_efforts_and_star_counts(server):
    status, body, _ = request(f"{server.url}api/setter")
    record = json.loads(body)
    assert status == 200 and record["type"] == "setter"
    assert [(p["colour"], p["word"]) for p in record["palette"]] == list(PAGE_PALETTE.items())
    assert record["efforts"] == list(EFFORTS)
    assert record["stars"] == {str(n): king_capacity(n) for n in range(5, 26)}
    assert (record["stars"]["5"], record["stars"]["10"], record["stars"]["25"]) == (1, 2, 6)


def test_convert(server):
    status, answer = post(server, "convert", {"board": SEVERAL.read_text(), "to": "url"})
    assert status == 200
    assert answer["records"][0]["text"] == cli_text("convert", str(SEVERAL), "--to", "url")
    status, answer = post(server, "convert", {"board": URL, "to": "png"})
    assert base64.b64decode(answer["records"][0]["base64"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert post(server, "convert", {"board": URL, "to": "gif"})[0] == 400


def test_generate_makes_a_unique_puzzle(server):
    status, answer = post(server, "generate", {"size": 5, "stars": 1, "seed": "web"})
    (record,) = answer["records"]
    assert status == 200
    board = read_board(json.dumps({"stars": 1, "regions": record["regions"]}))
    grid = record["solution"]
    stars = [
        (r, c) for r, row in enumerate(grid, 1) for c, mark in enumerate(row, 1) if mark == "*"
    ]
    assert len(stars) == 5 and check(board, stars) == []
    status, answer = post(server, "solve", {"board": json.dumps(record), "count": True})
    assert answer["records"][-1]["solutions"] == 1


def test_generate_to_a_tier_makes_a_puzzle_of_that_grade(server):
    status, answer = post(server, "generate", {"size": 6, "stars": 1, "seed": "tier"})
    board = json.dumps({"stars": 1, "regions": answer["records"][0]["regions"]})
    tier = post(server, "grade", {"board": board})[1]["records"][0]["tier"]
    status, answer = post(server, "generate", {"size": 6, "stars": 1, "seed": "t", "tier": tier})
    (record,) = answer["records"]
    assert status == 200 and record["note"].startswith(f"puzzle 1: {tier}, score ")
    board = json.dumps({"stars": 1, "regions": record["regions"]})
    assert post(server, "grade", {"board": board})[1]["records"][0]["tier"] == tier
    status, answer = post(server, "generate", {"size": 6, "stars": 1, "tier": "trivial"})
    assert status == 400
    assert answer["error"].startswith('"tier" must be one of easy, medium, hard, expert, extreme')


def test_optional_commands_follow_the_features(server):
    status, body, _ = request(f"{server.url}api/features")
    features = json.loads(body)
    assert status == 200 and features == {"import": api.available(api.OPTIONAL["import"])}
    for command, there in features.items():
        status, answer = post(server, command, {"board": URL})
        if there:
            assert status in (200, 400)
        else:
            assert (status, answer) == (
                501,
                {"error": f"{command} is not available in this version"},
            )


def test_hint_and_explain_records(server):
    status, answer = post(server, "hint", {"board": URL, "marks": {"stars": [], "blanks": []}})
    (step,) = answer["records"]
    assert status == 200 and step["type"] == "step"
    status, answer = post(server, "explain", {"board": URL})
    assert answer["records"][-1]["type"] == "explain" and answer["records"][-1]["solved"] is True


def test_only_the_page_files_are_served(server):
    status, body, kind = request(server.url)
    assert (status, kind) == (200, "text/html; charset=utf-8") and b"/static/main.js" in body
    for module in ("main", "api", "state", "board", "input", "hints", "play", "sources", "ui"):
        status, script, kind = request(f"{server.url}static/{module}.js")
        assert (status, kind) == (200, "text/javascript; charset=utf-8"), module
        for imported in re.findall(rb'from "\./([a-z]+)\.js"', script):
            assert request(f"{server.url}static/{imported.decode()}.js")[0] == 200
    for path in ("static/../server.py", "static/%2e%2e/api.py", "static/", "api.py", "x"):
        assert request(server.url + path)[0] == 404, path
    assert json.loads(request(f"{server.url}api/start")[1]) == {"board": URL}
    assert request(f"{server.url}api/nothing", b"{}")[0] == 404


def test_requests_that_are_no_json_object(server):
    assert request(f"{server.url}api/solve", b"{not json")[0] == 400
    assert post(server, "solve", ["a list"])[0] == 400


def test_a_request_too_large_is_refused_before_it_is_read(server):
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=10)
    connection.putrequest("POST", "/api/solve")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(9 * 1024 * 1024))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read()) == {"error": "the request is larger than 8 MiB"}
    connection.close()


def test_a_slow_puzzle_does_not_block_other_clients(server):
    answers = {}

    def slow() -> None:
        answers["slow"] = post(server, "solve", {"board": ROWS_20, "count": True, "timeout": 5})

    thread = threading.Thread(target=slow)
    thread.start()
    wait_for(lambda: server.pool.status()["busy"] == 1, seconds=10)  # the count runs
    assert post(server, "solve", {"board": URL})[0] == 200
    assert thread.is_alive()  # answered while the slow count still ran, not after it
    thread.join(30)
    status, answer = answers["slow"]
    summary = answer["records"][-1]
    assert (status, summary["complete"], summary["unique"]) == (200, False, False)
    assert summary["solutions"] > 2


def test_serve_command_starts_and_stops_on_ctrl_c():
    process = subprocess.Popen(
        [sys.executable, "-m", "starbattle", "serve", URL, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:") and line.endswith("(Ctrl-C stops)\n")
        url = line.split()[1]
        assert json.loads(request(f"{url}api/start")[1]) == {"board": URL}
        process.send_signal(signal.SIGINT)
        assert process.wait(5) == 130
        assert process.stderr.read() == ""
    finally:
        process.kill()


def test_serve_refuses_a_port_in_use(server):
    port = server.server_address[1]
    result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"starbattle-asp: error: cannot listen on 127.0.0.1:{port}:")


NONE = ROOT / "instances" / "crafted-6x6-no-solution.lp"
NORVIG = ROOT / "instances" / "norvig-5x5-1star.lp"


@pytest.mark.parametrize(
    ("board", "solutions", "valid"),
    [
        (URL, 1, True),
        (NORVIG.read_text(), 2, True),
        (NONE.read_text(), 0, True),
        ('{"stars": 1, "regions": ["AAB", "AAB", "AAB"]}', None, False),
        ('{"stars": 1, "regions": ["ABA", "BBB", "CCC"]}', None, False),
    ],
    ids=["unique", "several", "none", "count", "split"],
)
def test_verdict_is_the_library_verdict_record(server, board, solutions, valid):
    from starbattle.io.inputs import parse_board
    from starbattle.io.records import record
    from starbattle.logic.verdict import drawn, verdict

    status, answer = post(server, "verdict", {"board": board, "fixed": True})
    assert status == 200
    (made,) = answer["records"]
    assert (made["type"], made["solutions"], made["valid"]) == ("verdict", solutions, valid)
    expected = record(verdict(drawn(lambda: parse_board(board)), fixed=True))
    assert without_seconds([made]) == without_seconds([expected])


def test_suggest_returns_the_records_of_suggest_json(server):
    status, answer = post(server, "suggest", {"board": NORVIG.read_text(), "most": 2})
    expected = cli_records("suggest", str(NORVIG), "-n", "2", "-f", "json")
    assert status == 200 and len(expected) == 3
    assert without_seconds(answer["records"]) == without_seconds(expected)


def test_suggest_stops_at_its_time_limit(server):
    payload = {"board": SEVERAL.read_text(), "timeout": 0.05}
    status, answer = post(server, "suggest", payload)
    assert status == 200
    assert answer["records"][-1] == {**answer["records"][-1], "type": "suggested",
                                     "complete": False, "suggestions": 0}  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"board": URL, "max_moves": 3}, '"max_moves" must be 1 or 2'),
        ({"board": URL, "most": -1}, '"most" must be 0 to 100'),
        ({"board": URL, "tier": "harder"}, '"tier" must be one of easy'),
        ({"board": URL, "split": 1}, '"split" must be true or false'),
        ({"board": URL, "max_move": 1}, 'unknown field "max_move" for suggest (did you mean'),
        ({"board": "stars: 1\nAAA\nAAA\nBBB\n"}, "the board is 3x3 but has 2 regions"),
    ],
)
def test_suggest_refuses_bad_fields(server, payload, message):
    status, answer = post(server, "suggest", payload)
    assert status == 400
    assert answer["error"].startswith(message)


@pytest.mark.parametrize("target", ["url", "sbn", "pzprv3", "txt", "svg", "png"])
def test_a_suggested_board_exports_to_every_format(server, target):
    status, answer = post(server, "suggest", {"board": NORVIG.read_text(), "most": 1})
    fixed = json.dumps(answer["records"][0]["board"])
    status, answer = post(server, "convert", {"board": fixed, "to": target})
    (converted,) = answer["records"]
    assert (status, converted["format"]) == (200, target)
    if target in ("url", "sbn", "pzprv3", "txt"):
        assert canonical(read_board(converted["text"], stars=1)) == canonical(read_board(fixed))


def test_verdict_without_the_grade(server):
    status, answer = post(server, "verdict", {"board": URL, "grade": False})
    (made,) = answer["records"]
    assert (status, made["solutions"], made["grade"], made["hardest"]) == (200, 1, None, None)
