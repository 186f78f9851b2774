"""Reading boards from screenshots: the real ones in the corpus, synthetic renders, refusals."""

from __future__ import annotations

import importlib.util
import io
import json
import random
import sys

import pytest
from helpers import CORPUS, INSTANCES, ROOT

from starbattle.asp.solver import solve
from starbattle.errors import FormatError
from starbattle.io.image.names import PALETTE
from starbattle.io.image.read import read_image
from starbattle.io.inputs import looks_like_image, picture_kind, read_board
from starbattle.logic.ladder import next_step
from starbattle.model.checker import check

Image = pytest.importorskip("PIL.Image")
pytest.importorskip("cv2")

SCREENSHOTS = CORPUS / "screenshots"
needs_screenshots = pytest.mark.skipif(
    not (SCREENSHOTS / "manifest.jsonl").is_file(),
    reason="../shared/corpus/screenshots is absent (shared/ must sit beside the checkout)",
)


def manifest() -> list[dict]:
    """The screenshots' true sizes, star counts and regions (empty without the corpus)."""
    path = SCREENSHOTS / "manifest.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []


def canonical(rows: object) -> list[list[int]]:
    """Region labels renumbered in first-appearance order, so two labellings compare."""
    seen: dict[object, int] = {}
    return [[seen.setdefault(label, len(seen)) for label in row] for row in rows]


def renderer() -> object:
    """benchmarks/images.py, the synthetic screenshot renderer (test and benchmark code)."""
    spec = importlib.util.spec_from_file_location("images_bench", ROOT / "benchmarks" / "images.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["images_bench"] = module
    spec.loader.exec_module(module)
    return module


@needs_screenshots
@pytest.mark.parametrize("shot", manifest(), ids=lambda shot: shot["file"])
def test_every_real_screenshot_reads_exactly(shot: dict) -> None:
    data = (SCREENSHOTS / shot["file"]).read_bytes()
    assert looks_like_image(data)
    reading = read_image(data, name=shot["file"], unique=shot["solution_count"] == 1)
    assert reading.board.size == shot["n"]
    assert canonical(reading.board.regions) == canonical(shot["regions"])
    assert reading.board.stars == shot["stars"]
    expected_kind = "wall" if shot["kind"] == "classic-starbattle" else "colour"
    assert reading.kind == expected_kind
    if shot["solution_count"] == 1:
        (solution,) = solve(reading.board, 2)
        assert check(reading.board, solution.stars) == []


@needs_screenshots
def test_a_board_with_several_solutions_is_refused_unless_allowed() -> None:
    data = (SCREENSHOTS / "queens_emmett_test9.png").read_bytes()
    with pytest.raises(FormatError, match=r"read a 9x9 colour board that has 2 or more solutions"):
        read_image(data, name="test9.png")
    assert "2 or more solutions" in " ".join(read_image(data, unique=False).notes)


@needs_screenshots
def test_wall_board_star_count_is_the_smallest_unique_one() -> None:
    reading = read_image((SCREENSHOTS / "starbattle_mason_10x10_2star.png").read_bytes())
    assert (reading.kind, reading.stars_from, reading.board.stars) == ("wall", "unique", 2)
    assert any("smallest count with exactly one solution" in note for note in reading.notes)


@needs_screenshots
def test_drawn_crowns_and_x_marks_are_read() -> None:
    shot = next(s for s in manifest() if s["file"] == "queens_emmett_test1.png")
    reading = read_image((SCREENSHOTS / shot["file"]).read_bytes(), marks=True)
    (solution,) = solve(reading.board, 2)
    assert reading.marked_stars == frozenset(solution.stars)
    every = {(r, c) for r in range(1, 8) for c in range(1, 8)}
    assert reading.marked_blanks == every - set(solution.stars)


@needs_screenshots
def test_marks_are_not_read_unless_asked_and_empty_boards_have_none() -> None:
    data = (SCREENSHOTS / "queens_an21p_phone_dark_10.jpg").read_bytes()
    assert read_image(data).marked_stars == frozenset()
    reading = read_image(data, marks=True)
    assert (reading.marked_stars, reading.marked_blanks) == (frozenset(), frozenset())


@pytest.mark.slow
@pytest.mark.parametrize("look", ["queens", "walls", "dark", "puzzlink", "project"])
def test_synthetic_renders_of_every_look_read_exactly(look: str) -> None:
    images = renderer()
    for name in ("pzprjs-6x6-1star.lp", "generated-10x10-2star.lp"):
        board = read_board(str(INSTANCES / name))
        solution = next(solve(board))
        record = {
            "id": name,
            "n": board.size,
            "stars": board.stars,
            "regions": ["".join(row) for row in board.regions],
            "solution": solution.grid(),
        }
        data, _ = images.render(record, look, random.Random(f"{look}-{name}"))
        stars = board.stars if look in ("queens", "dark") else None
        reading = read_image(data, name=name, stars=stars)
        assert canonical(reading.board.regions) == canonical(board.regions), (look, name)
        assert reading.board.stars == board.stars


def test_a_picture_without_a_board_is_refused_in_one_line(tmp_path: object) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(buffer, format="PNG")
    debug = tmp_path / "debug.png"  # type: ignore[operator]
    with pytest.raises(FormatError) as error:
        read_image(buffer.getvalue(), name="blank.png", debug_path=str(debug))
    message = str(error.value)
    assert message.startswith("blank.png: cannot read the board from the image: ")
    assert "\n" not in message and "--debug-image" in message
    assert debug.read_bytes().startswith(b"\x89PNG")


def test_bytes_that_are_not_an_image_are_refused() -> None:
    with pytest.raises(FormatError) as broken:
        read_image(b"\x89PNG\r\n\x1a\nbroken", name="broken.png")
    assert str(broken.value) == (
        "broken.png: the PNG picture is damaged (its header cannot be read): "
        "save or download it again"
    )
    with pytest.raises(FormatError) as other:
        read_image(b"hello")  # e.g. bytes posted to the web page's import
    assert str(other.value) == "not a picture: screenshots are read from PNG, JPEG or WebP"


def test_picture_kinds_by_their_first_bytes() -> None:
    picture = Image.new("RGB", (8, 8), "red")
    for fmt, kind in [("GIF", "GIF"), ("BMP", "BMP"), ("TIFF", "TIFF"), ("WEBP", "WebP")]:
        buffer = io.BytesIO()
        picture.save(buffer, format=fmt)
        assert picture_kind(buffer.getvalue()) == kind
    assert picture_kind(b"\0\0\0\x18ftypheic\0\0\0\0") == "HEIC"
    assert picture_kind(b"BMB\nBMB\nBMB\n") is None  # a board's picture, not a bitmap
    assert picture_kind(b"\0\0\0\x18ftypisom") is None  # a video
    with pytest.raises(FormatError, match=r"^an AVIF picture; screenshots are read from PNG"):
        read_image(b"\0\0\0\x1cftypavif\0\0\0\0")


@needs_screenshots
@pytest.mark.parametrize(
    ("file", "fmt"),
    [
        ("queens_emmett_test9.png", "PNG"),  # 3568x3568: reduced by 2, in strips
        ("queens_an21p_phone_light.jpeg", "JPEG"),  # 2880x6400: decoded at 1/2, reduced by 2
    ],
)
def test_a_large_screenshot_is_reduced_and_read_exactly(file: str, fmt: str) -> None:
    shot = next(s for s in manifest() if s["file"] == file)
    picture = Image.open(SCREENSHOTS / file)
    large = picture.resize((picture.width * 4, picture.height * 4), Image.Resampling.BICUBIC)
    buffer = io.BytesIO()
    large.save(buffer, format=fmt, quality=90)
    reading = read_image(buffer.getvalue(), unique=False)
    assert canonical(reading.board.regions) == canonical(shot["regions"])


@needs_screenshots
@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_a_photo_turned_by_its_exif_orientation_reads_upright(fmt: str) -> None:
    shot = next(s for s in manifest() if s["file"] == "queens_emmett_test4.png")
    turned = Image.open(SCREENSHOTS / shot["file"]).transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: shown turned a quarter clockwise, as phones save photos
    buffer = io.BytesIO()
    turned.save(buffer, format=fmt, exif=exif.tobytes(), quality=95)
    reading = read_image(buffer.getvalue())
    assert canonical(reading.board.regions) == canonical(shot["regions"])


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)
    with pytest.raises(FormatError) as error:
        read_image(b"\x89PNG\r\n\x1a\n")
    assert str(error.value) == (
        "reading a board from an image needs cv2: pip install 'starbattle-asp[image]' "
        "(or pip install '.[image]' from a checkout)"
    )


def test_looks_like_image_on_real_bytes_and_on_text() -> None:
    picture = Image.new("RGB", (8, 8), "red")
    for fmt in ("PNG", "JPEG", "WEBP"):
        buffer = io.BytesIO()
        picture.save(buffer, format=fmt)
        assert looks_like_image(buffer.getvalue()), fmt
    assert not looks_like_image((INSTANCES / "pzprjs-6x6-1star.lp").read_bytes())
    assert not looks_like_image(b"")
    assert not looks_like_image(b"RIFF0000WAVE")


def test_size_out_of_range_is_refused() -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(buffer, format="PNG")
    with pytest.raises(FormatError, match="between 4 and 25"):
        read_image(buffer.getvalue(), size=30)


def drawn_page(board: object, *, cell: int, dark: bool, walls: bool, quality: int) -> bytes:
    """A board drawn by hand inside a page with a frame close round it and buttons below.

    Regions are told by colour (muted in dark mode) or by thick black walls on white; the
    frame and the outlined buttons sit a few pixels from the board, as in phone apps.
    """
    from PIL import ImageDraw

    from starbattle.io.pictures import region_colours

    n, side = board.size, board.size * cell  # type: ignore[attr-defined]
    colours = region_colours(board)  # type: ignore[arg-type]
    picture = Image.new("RGB", (side + 1, side + 1), "white")
    draw = ImageDraw.Draw(picture)
    for r in range(n):
        for c in range(n):
            fill = "white"
            if not walls:
                rgb = Image.new("RGB", (1, 1), colours[board.regions[r][c]]).getpixel((0, 0))  # type: ignore[attr-defined]
                fill = tuple(int(v * (0.7 if dark else 1.0)) for v in rgb)
            draw.rectangle((c * cell, r * cell, (c + 1) * cell, (r + 1) * cell), fill=fill)
    line = (20, 20, 20) if dark else (150, 150, 150)
    for k in range(n + 1):
        draw.line((k * cell, 0, k * cell, side), fill=line, width=1)
        draw.line((0, k * cell, side, k * cell), fill=line, width=1)
    regions = board.regions  # type: ignore[attr-defined]
    for r in range(n):
        for c in range(n):
            if walls and c + 1 < n and regions[r][c] != regions[r][c + 1]:
                x = (c + 1) * cell
                draw.line((x, r * cell, x, (r + 1) * cell), fill="black", width=3)
            if walls and r + 1 < n and regions[r][c] != regions[r + 1][c]:
                y = (r + 1) * cell
                draw.line((c * cell, y, (c + 1) * cell, y), fill="black", width=3)
    ground = (24, 26, 30) if dark else (246, 246, 246)
    page = Image.new("RGB", (side + 120, side + 260), ground)
    draw = ImageDraw.Draw(page)
    draw.rectangle((0, 0, page.width, 40), fill=(55, 58, 64) if dark else (220, 220, 224))
    draw.rounded_rectangle((48, 88, 72 + side, 112 + side), radius=16, fill=(8, 8, 8))
    page.paste(picture, (60, 100))
    for x in (50, 70 + side // 2):  # buttons just under the frame, as wide as half the board
        draw.rounded_rectangle(
            (x, side + 116, x + side // 2 - 20, side + 164),
            radius=14,
            outline=(210, 210, 210) if dark else (60, 60, 60),
            width=2,
        )
    buffer = io.BytesIO()
    page.save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "cell", "dark", "walls"),
    [
        ("generated-10x10-2star.lp", 44, True, False),
        ("generated-10x10-2star.lp", 80, True, False),  # a cell's width of page round it
        ("generated-8x8-1star.lp", 100, True, False),
        ("generated-14x14-3star.lp", 30, True, False),
        ("generated-17x17-4star.lp", 26, False, True),
        ("generated-21x21-5star.lp", 30, False, False),
    ],
)
def test_boards_in_a_frame_with_buttons_read_exactly(
    name: str, cell: int, dark: bool, walls: bool
) -> None:
    board = read_board(str(INSTANCES / name))
    data = drawn_page(board, cell=cell, dark=dark, walls=walls, quality=75)
    reading = read_image(data, name=name, stars=board.stars)
    assert reading.board.size == board.size
    assert canonical(reading.board.regions) == canonical(board.regions)
    assert reading.kind == ("wall" if walls else "colour")


def test_an_opencv_failure_is_one_line_without_its_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    from starbattle.io.image import read

    def fail(*_: object) -> None:
        raise cv2.error("OpenCV(5.0.0) /io/opencv/modules/imgproc/src/resize.cpp:4223: error")

    monkeypatch.setattr(read, "find_grid", fail)
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(buffer, format="PNG")
    with pytest.raises(FormatError) as error:
        read_image(buffer.getvalue(), name="shot.png")
    assert str(error.value) == (
        "shot.png: cannot read the board from the image: OpenCV failed (check it with "
        "--debug-image FILE.png, or pass --size N / --stars S)"
    )


@needs_screenshots
@pytest.mark.parametrize("shot", manifest(), ids=lambda shot: shot["file"])
def test_colour_boards_name_their_regions_by_colour_words(shot: dict) -> None:
    reading = read_image((SCREENSHOTS / shot["file"]).read_bytes(), unique=False)
    words = reading.board.words
    if reading.kind == "wall":
        assert words == {}
        return
    assert set(words) == set(reading.board.region_labels)
    assert len(set(words.values())) == len(words)
    assert set(words.values()) <= set(PALETTE)


@needs_screenshots
def test_linkedin_colours_get_their_words_and_the_hint_says_them() -> None:
    reading = read_image((SCREENSHOTS / "queens_emmett_test1.png").read_bytes())
    board = reading.board
    assert [board.words[label] for label in board.region_labels] == [
        *("purple", "orange", "blue", "green", "grey", "red", "yellow"),
    ]
    step = next_step(board)
    assert step is not None
    assert step.sentence == (
        "A star at (1,2), (1,3), (1,4), (1,5), (1,6) or (1,7) would fill row 1 and the purple "
        "region and leave column 1 no room, but it needs 1, so they are empty"
    )
    assert [unit.name(board) for unit in step.units] == ["column 1", "row 1", "the purple region"]
