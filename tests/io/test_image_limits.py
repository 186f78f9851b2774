"""Pictures with bounded cost: hostile and broken files are one line, memory stays bounded."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from helpers import CORPUS

Image = pytest.importorskip("PIL.Image")
pytest.importorskip("cv2")

SHOT = CORPUS / "screenshots" / "queens_emmett_test1.png"
needs_shot = pytest.mark.skipif(not SHOT.is_file(), reason="../shared/corpus is absent")
PEAK_MIB = 300
"""What reading any picture may take at most (the whole command, maximum resident size)."""
CROP = "crop it to the board or scale it down"
UNREAD = "screenshots are read from PNG, JPEG or WebP: save it as PNG"


def chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk with its length and CRC."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(
    width: int, height: int, *, colour: int = 6, depth: int = 8, rows: int | None = None
) -> bytes:
    """A PNG of blank rows, compressed as it is made (a large one never sits in memory).

    `colour` is the PNG colour type (0 grey, 2 RGB, 6 RGBA); `rows` fewer than `height` makes
    a file whose header promises more than its data holds (a bomb's tiny file).
    """
    channels = {0: 1, 2: 3, 6: 4}[colour]
    row = bytes(1 + (width * channels * depth + 7) // 8)
    squash = zlib.compressobj(9)
    data = b"".join(squash.compress(row) for _ in range(height if rows is None else rows))
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", data + squash.flush())
        + chunk(b"IEND", b"")
    )


def jpeg_declaring(width: int, height: int, *, progressive: bool = False) -> bytes:
    """A small JPEG whose frame header (SOF0, SOF2) is changed to declare another size."""
    encoded = io.BytesIO()
    Image.new("RGB", (16, 16), "white").save(encoded, format="JPEG", progressive=progressive)
    data = bytearray(encoded.getvalue())
    frame = data.index(b"\xff\xc2" if progressive else b"\xff\xc0")
    data[frame + 5 : frame + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def webp_declaring(width: int, height: int) -> bytes:
    """A small lossy WebP whose frame header is changed to declare another size."""
    encoded = io.BytesIO()
    Image.new("RGB", (16, 16), "white").save(encoded, format="WEBP")
    data = bytearray(encoded.getvalue())
    assert data[12:16] == b"VP8 " and data[23:26] == b"\x9d\x01\x2a"  # a key frame's start
    data[26:30] = struct.pack("<HH", width, height)
    return bytes(data)


def saved(fmt: str) -> bytes:
    """A small picture in a format of Pillow's."""
    encoded = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(encoded, format=fmt)
    return encoded.getvalue()


MEASURED = """
import atexit, sys

report = sys.argv.pop(1)


def peak() -> None:
    with open("/proc/self/status") as status:
        high = next(line for line in status if line.startswith("VmHWM:"))
    with open(report, "w") as out:
        out.write(high.split()[1])


atexit.register(peak)
from starbattle.cli.entry import main

main()
"""
"""The command line, writing its peak resident size (kB) at exit into the file named first.

VmHWM is this process's own peak: ru_maxrss would count the test process it was forked from.
"""
measurable = pytest.mark.skipif(
    not Path("/proc/self/status").is_file(), reason="no /proc/self/status to read VmHWM from"
)


def solve(path: Path, *args: str) -> tuple[int, str, int | None]:
    """Run `starbattle-asp solve FILE` in the file's folder: exit code, stderr, peak MiB."""
    report = path.parent / "peak.txt"
    report.unlink(missing_ok=True)
    command = [sys.executable, "-c", MEASURED, str(report), "solve", path.name, *args]
    if not Path("/proc/self/status").is_file():
        command = [sys.executable, "-m", "starbattle", "solve", path.name, *args]
    done = subprocess.run(command, cwd=path.parent, capture_output=True, text=True, check=False)
    peak = int(report.read_text()) // 1024 if report.is_file() else None
    return done.returncode, done.stderr, peak


def damaged(offset: int) -> bytes:
    """The real screenshot with one byte flipped `offset` bytes in."""
    data = bytearray(SHOT.read_bytes())
    data[offset] ^= 0xFF
    return bytes(data)


ATTACKS = {
    "bits.png": (
        lambda: png(13000, 13000, colour=0, depth=1),
        f"the picture is 13000x13000 pixels (169 million); PNG pictures are read up to 40 "
        f"million pixels: {CROP}",
    ),
    "rgba.png": (
        lambda: png(9000, 9000, rows=1),
        f"the picture is 9000x9000 pixels (81 million); PNG pictures are read up to 40 million "
        f"pixels: {CROP}",
    ),
    "bomb.png": (
        lambda: png(60000, 60000, rows=1),
        f"the picture has over 178 million pixels; PNG pictures are read up to 40 million "
        f"pixels: {CROP}",
    ),
    "huge.jpg": (
        lambda: jpeg_declaring(20000, 20000),
        f"the picture has over 178 million pixels; JPEG pictures are read up to 40 million "
        f"pixels: {CROP}",
    ),
    "progressive.jpg": (
        lambda: jpeg_declaring(6000, 6000, progressive=True),  # its coefficients kept whole
        f"the picture is 6000x6000 pixels (36 million); progressive JPEG pictures are read up "
        f"to 16 million pixels: {CROP}",
    ),
    "large.webp": (
        lambda: webp_declaring(6000, 6000),
        f"the picture is 6000x6000 pixels (36 million); WebP pictures are read up to 10 million "
        f"pixels: {CROP}",
    ),
    "one.png": (
        lambda: png(1, 1),
        "the picture is 1x1 pixels: too small to hold a board (at least 24 pixels each way)",
    ),
    "wide.png": (
        lambda: png(100000, 10, colour=2),
        "the picture is 100000x10 pixels: too small to hold a board (at least 24 pixels each way)",
    ),
    "strip.png": (
        lambda: png(3000, 100),
        "the picture is 3000x100 pixels: too long and thin to hold a board "
        "(at most 20 times as long as wide)",
    ),
    "truncated.png": (
        lambda: SHOT.read_bytes()[: SHOT.stat().st_size // 2],
        "the PNG picture is cut short: save or download it again",
    ),
    "header.png": (
        lambda: damaged(20),  # inside IHDR: its CRC no longer matches
        "the PNG picture is damaged (its header cannot be read): save or download it again",
    ),
    "pixels.png": (
        lambda: damaged(SHOT.stat().st_size // 2),
        "the PNG picture is damaged (its pixels cannot be decoded): save or download it again",
    ),
    "shot.gif": (lambda: saved("GIF"), f"a GIF picture; {UNREAD}"),
    "shot.bmp": (lambda: saved("BMP"), f"a BMP picture; {UNREAD}"),
    "shot.tiff": (lambda: saved("TIFF"), f"a TIFF picture; {UNREAD}"),
}


@needs_shot
@pytest.mark.parametrize("name", ATTACKS)
def test_a_hostile_or_broken_picture_is_one_line(tmp_path: Path, name: str) -> None:
    make, message = ATTACKS[name]
    path = tmp_path / name
    path.write_bytes(make())
    code, stderr, peak = solve(path)
    assert (code, stderr) == (2, f"starbattle-asp: error: {name}: {message}\n")
    assert peak is None or peak < PEAK_MIB


@measurable
def test_the_13000_square_png_is_refused_from_its_header(tmp_path: Path) -> None:
    path = tmp_path / "bits.png"
    path.write_bytes(png(13000, 13000, colour=0, depth=1))
    assert path.stat().st_size < 40_000
    code, _, peak = solve(path)
    assert code == 2
    assert peak is not None and peak < 150  # only its header is read (it took 1.8 GiB)


def pillow_saved(size: int, fmt: str, **options: object) -> bytes:
    """A blank picture of size x size pixels in one of Pillow's formats."""
    encoded = io.BytesIO()
    Image.new("RGBA" if fmt == "WEBP" else "RGB", (size, size), "white").save(
        encoded, format=fmt, **options
    )
    return encoded.getvalue()


LARGEST = {  # each near its decoder's limit (image.DECODE_COST)
    "largest.png": lambda: png(6300, 6300),  # 39.7 million RGBA pixels: 160 MB decoded
    "largest.jpg": lambda: pillow_saved(4000, "JPEG", progressive=True, subsampling=0),
    "largest.webp": lambda: pillow_saved(3250, "WEBP", lossless=True),
}


@measurable
@pytest.mark.slow
@pytest.mark.parametrize("name", LARGEST)
def test_the_largest_pictures_read_stay_within_their_memory(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(LARGEST[name]())
    code, stderr, peak = solve(path)
    assert code == 2 and stderr.startswith(f"starbattle-asp: error: {name}: cannot read the")
    assert peak is not None and peak < PEAK_MIB


def test_a_picture_given_as_text_says_it_is_a_picture(tmp_path: Path) -> None:
    path = tmp_path / "board.png"
    path.write_bytes(png(64, 64))
    code, stderr, _ = solve(path, "--from", "lp")
    assert (code, stderr) == (
        2,
        "starbattle-asp: error: board.png: --from lp reads a board written as text, "
        "but this file is a PNG picture: leave out --from lp\n",
    )
    drawing = tmp_path / "board.svg"
    drawing.write_text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
    code, stderr, _ = solve(drawing)
    assert (code, stderr) == (2, f"starbattle-asp: error: board.svg: an SVG picture; {UNREAD}\n")
