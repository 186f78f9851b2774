"""The one input path: arguments as files, text, URLs; collections line by line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers import INSTANCES, SIX

from starbattle import read_board, write_board
from starbattle.cli.main import cli


def test_huge_input_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"A" * (17 * 1024 * 1024))
    result = CliRunner().invoke(cli, [str(path)])
    assert result.exit_code == 2 and "larger than 16 MiB" in result.stderr


def test_a_long_board_argument_is_text_not_a_file_name(run) -> None:
    seventeen = read_board(str(INSTANCES / "generated-17x17-4star.lp"))
    board = json.dumps(json.loads(str(write_board(seventeen, "json"))))  # one line, no file
    assert len(board) > 255
    result = run(board)
    assert result.exit_code == 0 and "1 solution, unique" in result.output
    assert read_board(board).size == 17
    long_name = run("a" * 300)
    assert long_name.exit_code == 2 and "cannot read: File name too long" in long_name.stderr


def test_collection_lines_that_are_no_record_are_reported_and_the_rest_solved(
    run,
    tmp_path: Path,
) -> None:
    good = json.dumps({"id": "six", "stars": 1, "regions": SIX.splitlines()[1:]})
    path = tmp_path / "mixed.jsonl"
    path.write_text(f"# a comment\n{good}\n{good[:30]}\n{good.replace('six', 'again')}\nstray\n")
    result = run(str(path), "-f", "json")
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record.get("id") for record in out if record["type"] == "summary"] == ["six", "again"]
    assert out[-1]["puzzles"] == 4 and out[-1]["unique"] == 2 and out[-1]["error"] == 2
    assert f"{path}:3: not a JSON record" in result.stderr
    assert f"{path}:5: not a JSON record: 'stray'" in result.stderr
