"""Images wherever a board is read: solve, convert, check and hint a screenshot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import CORPUS, INSTANCES

SHOTS = CORPUS / "screenshots"
pytest.importorskip("cv2", reason="the image extra (opencv-python-headless) is not installed")
needs_shots = pytest.mark.skipif(
    not (SHOTS / "manifest.jsonl").is_file(), reason="../shared/corpus/screenshots is absent"
)


@needs_shots
def test_a_screenshot_is_a_board_for_solve_and_convert(run) -> None:
    result = run(str(SHOTS / "queens_emmett_test1.png"), "-f", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout.splitlines()[-1])["unique"] is True
    assert "starbattle-asp: read a 7x7 colour board from the image" in result.stderr
    walls = run("convert", str(SHOTS / "starbattle_mason_10x10_2star.png"), "--to", "json")
    assert walls.exit_code == 0 and json.loads(walls.stdout)["stars"] == 2
    assert "stars: 2, the smallest count with exactly one solution" in walls.stderr


@needs_shots
def test_drawn_marks_are_a_state_for_check_and_hint(run, tmp_path: Path) -> None:
    shot = str(SHOTS / "queens_emmett_test1.png")  # queens and X marks placed: solved
    checked = run("check", shot, "--marks")
    assert checked.exit_code == 0 and "the marks can still become a solution" in checked.stdout
    assert run("hint", shot, "--marks").stdout == "solved: the marks hold every star\n"
    debug = tmp_path / "read.png"
    assert run("convert", shot, "--to", "txt", "--debug-image", str(debug)).exit_code == 0
    assert debug.read_bytes().startswith(b"\x89PNG")


def test_from_image_on_text_and_an_image_as_answer_are_one_line_errors(run, tmp_path: Path) -> None:
    board = str(INSTANCES / "pzprjs-6x6-1star.lp")
    forced = run(board, "--from", "image")
    assert forced.exit_code == 2 and "is not an image (PNG, JPEG or WebP)" in forced.stderr
    picture = tmp_path / "answer.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    answer = run("check", board, str(picture))
    assert answer.exit_code == 2 and "is an image: give the image as the board" in answer.stderr
    broken = run(str(picture))
    assert broken.exit_code == 2 and broken.stderr.count("\n") == 1


@needs_shots
def test_a_screenshot_with_several_solutions_is_counted_but_not_solved_as_one(run) -> None:
    shot = str(SHOTS / "queens_emmett_test9.png")  # a 9x9 colour board with 12 solutions
    counted = run(shot, "--count")
    assert counted.exit_code == 0 and counted.stdout.startswith("12 solutions, not unique")
    assert "the board has 2 or more solutions" in counted.stderr
    every = run(shot, "-n", "0", "-f", "json")
    assert json.loads(every.stdout.splitlines()[-1])["solutions"] == 12
    one = run(shot)
    assert one.exit_code == 2 and "has 2 or more solutions with 1 star(s)" in one.stderr


@needs_shots
def test_the_debug_image_is_png_or_jpeg_by_its_name_and_a_failed_write_is_one_line(
    run,
    tmp_path: Path,
) -> None:
    shot = str(SHOTS / "queens_emmett_test1.png")
    for name, start in [("read.jpg", b"\xff\xd8\xff"), ("read.JPEG", b"\xff\xd8\xff")]:
        assert run(shot, "--debug-image", str(tmp_path / name)).exit_code == 0
        assert (tmp_path / name).read_bytes().startswith(start)
    wrong = run(shot, "--debug-image", "read.gif")
    assert (wrong.exit_code, wrong.stderr) == (
        2,
        "starbattle-asp: error: --debug-image read.gif: the debug picture is written as PNG "
        "or JPEG: name it FILE.png or FILE.jpg\n",
    )
    missing = str(tmp_path / "no" / "read.png")
    unwritten = run(shot, "--debug-image", missing)
    assert (unwritten.exit_code, unwritten.stderr) == (
        2,
        f"starbattle-asp: error: cannot write {missing}: No such file or directory\n",
    )


@needs_shots
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_debug_image_on_a_full_disk_is_one_line(run) -> None:
    full = run(str(SHOTS / "queens_emmett_test1.png"), "--debug-image", "/dev/full")
    assert (full.exit_code, full.stderr) == (
        2,
        "starbattle-asp: error: cannot write /dev/full: No space left on device\n",
    )


@needs_shots
def test_a_hint_on_a_coloured_picture_names_regions_by_colour(run) -> None:
    said = run("hint", str(SHOTS / "queens_emmett_test1.png"), "--ascii").stdout.splitlines()
    assert said[1] == "look at: column 1, row 1, the purple region"
    assert said[-1] == ("(regions: A purple, B orange, C blue, D green, E grey, F red, G yellow)")
    record = json.loads(run("hint", str(SHOTS / "queens_emmett_test1.png"), "-f", "json").stdout)
    assert record["premises"]["units"] == ["column 1", "row 1", "the purple region"]
