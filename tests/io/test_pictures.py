"""Pictures: SVG that parses with the right cells and stars, PNG of the right size, naming."""

from __future__ import annotations

import io
import os
import stat
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import INSTANCES

from starbattle import Solver, read_board
from starbattle.cli.main import cli
from starbattle.io.pictures import region_colours, render_png, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ElementTree.Element:
    """The SVG as an XML tree (fails on malformed XML)."""
    return ElementTree.fromstring(svg)


@pytest.mark.parametrize(
    "name", ["pzprjs-6x6-1star", "generated-10x10-2star", "cspuz-6x6-blocked", "norvig-5x5-given"]
)
def test_svg_cells_and_stars(name: str) -> None:
    board = read_board(str(INSTANCES / f"{name}.lp"))
    solution = next(Solver(board).solutions(1))
    root = parsed(render_svg(board, solution))
    cells = root.findall(f"{SVG}rect[@class='cell']")
    stars = root.findall(f"{SVG}polygon[@class='star']")
    assert len(cells) == board.size**2
    assert len(stars) == len(set(solution.stars) | board.given_stars)
    assert len(parsed(render_svg(board)).findall(f"{SVG}polygon[@class='star']")) == len(
        board.given_stars
    )


def test_neighbouring_regions_have_different_colours() -> None:
    for path in sorted(INSTANCES.glob("*.lp")):
        board = read_board(str(path))
        colours = region_colours(board)
        grid = board.regions
        for r in range(board.size):
            for c in range(board.size):
                for rr, cc in ((r + 1, c), (r, c + 1)):
                    if rr < board.size and cc < board.size:
                        a, b = grid[r][c], grid[rr][cc]
                        if a is not None and b is not None and a != b:
                            assert colours[a] != colours[b], (path.name, a, b)


def test_highlighted_cells_are_outlined() -> None:
    board = read_board(str(INSTANCES / "pzprjs-6x6-1star.lp"))
    plain, marked = render_svg(board), render_svg(board, highlight=[(2, 3), (4, 4)])
    assert marked.count('stroke="#CC3311"') == 8 and plain.count('stroke="#CC3311"') == 0


def test_png_size_and_content() -> None:
    image_module = pytest.importorskip("PIL.Image")
    board = read_board(str(INSTANCES / "generated-10x10-2star.lp"))
    data = render_png(board, next(Solver(board).solutions(1)), cell=20)
    image = image_module.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (10 * 20 + 6, 10 * 20 + 6)
    assert image.getpixel((3 + 10 * 20 // 2, 3 + 20 // 2)) != (255, 255, 255)


def test_solve_writes_numbered_pictures(tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    result = CliRunner().invoke(
        cli, [str(INSTANCES / "norvig-5x5-1star.lp"), "-n", "0", "-f", "svg", "-o", str(target)]
    )
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out-1.svg", "out-2.svg"]
    single = tmp_path / "one.svg"
    CliRunner().invoke(
        cli, [str(INSTANCES / "pzprjs-6x6-1star.lp"), "-f", "svg", "-o", str(single)]
    )
    assert parsed(single.read_text()).tag == f"{SVG}svg"
    mode = stat.S_IMODE(os.stat(single).st_mode)
    assert mode == 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_svg_on_standard_output_and_png_needs_a_file() -> None:
    board = str(INSTANCES / "pzprjs-6x6-1star.lp")
    result = CliRunner().invoke(cli, [board, "-f", "svg"])
    assert result.exit_code == 0 and parsed(result.stdout).tag == f"{SVG}svg"
    result = CliRunner().invoke(cli, [board, "-f", "png"])
    assert result.exit_code == 2 and "name the file with -o" in result.stderr
    result = CliRunner().invoke(cli, ["convert", board, "--to", "png"])
    assert result.exit_code == 2 and "binary file" in result.stderr
    result = CliRunner().invoke(cli, [board, "-f", "svg", "-n", "0"])
    assert result.exit_code == 2 and "add -o FILE.svg" in result.stderr
