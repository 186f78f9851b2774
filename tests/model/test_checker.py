"""The independent checker: which rule breaks where, named as the board shows it."""

from __future__ import annotations

import json
from pathlib import Path


def test_check_names_regions_as_solve_draws_them(run, tmp_path: Path) -> None:
    top, bottom = ["red", "red", "blue", "blue"], ["green", "green", "gold", "gold"]
    board = tmp_path / "words.json"
    board.write_text(json.dumps({"stars": 1, "regions": [top, top, bottom, bottom]}))
    answer = tmp_path / "answer.txt"
    answer.write_text("....\n....\n....\n....\n")
    result = run("check", str(board), str(answer))
    assert "region red" not in result.stdout and "too few stars in region A" in result.stdout
