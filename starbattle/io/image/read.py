"""Read a board from a screenshot: its grid and regions, and the star count chosen by solving."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starbattle.errors import BoardError, FormatError
from starbattle.io.image.debug import debug_format, write_debug_image
from starbattle.io.image.decode import libraries, pixels
from starbattle.io.image.grid import MAX_SIZE, MIN_SIZE, find_grid
from starbattle.io.image.names import region_words
from starbattle.io.image.regions import (
    cell_colours,
    drawn_marks,
    measure_borders,
    region_labels,
    regions_by_colour,
)
from starbattle.io.inputs import READ_PICTURES, picture_kind, unread_picture
from starbattle.model.board import Board, Cell, king_capacity

if TYPE_CHECKING:
    from starbattle.io.image.grid import Grid

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class ImageReading:
    """What was read from an image: the board, the drawn marks, and how it was decided."""

    board: Board
    kind: str
    """'colour' (regions told by colour, Queens-like) or 'wall' (thick borders, one colour)."""
    stars_from: str
    """'given' (the caller's), 'default' (1 on a colour board) or 'unique' (smallest unique)."""
    marked_stars: frozenset[Cell] = frozenset()
    marked_blanks: frozenset[Cell] = frozenset()
    notes: tuple[str, ...] = field(default=())


def _count(board: Board) -> int:
    """0, 1 or 2 (meaning two or more): how many solutions the board has."""
    from starbattle.asp.solver import Solver

    return sum(1 for _ in Solver(board).solutions(2))


def _choose_stars(board: Board, kind: str, stars: int | None) -> tuple[Board, str, int]:
    """The board with its star count, where the count came from, and its solutions (0-2).

    Without a given count: 1 when that has exactly one solution, else the smallest count
    that has; a colour board with no such count keeps 1 (and its 0 or 2+ solutions).
    """
    if stars is not None:
        board = board.with_stars(stars)
        return board, "given", _count(board)
    with_one = _count(board)
    if with_one == 1:
        return board, "default" if kind == "colour" else "unique", 1
    for count in range(2, king_capacity(board.size) + 1):
        if _count(board.with_stars(count)) == 1:
            return board.with_stars(count), "unique", 1
    if kind == "colour":
        return board, "default", with_one
    return board, "unique", 0


def read_image(
    data: bytes,
    *,
    name: str | None = None,
    stars: int | None = None,
    size: int | None = None,
    marks: bool = False,
    debug_path: str | None = None,
    unique: bool = True,
) -> ImageReading:
    """Read a board from a screenshot or photo; raise FormatError rather than guess.

    `size` fixes N; `stars` fixes S (else 1 on a colour board, and on a wall board the
    smallest S with exactly one solution); `marks` also reads drawn stars and X marks;
    `debug_path` receives a PNG or JPEG (by its extension) of what was read, also when
    reading fails; `unique` False accepts a board with several solutions.
    """
    picture = picture_kind(data)
    if picture is None:
        raise FormatError("not a picture: screenshots are read from PNG, JPEG or WebP", file=name)
    if picture not in READ_PICTURES:
        raise unread_picture(picture, name)
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        raise FormatError(
            f"the board size must be between {MIN_SIZE} and {MAX_SIZE}, not {size}", file=name
        )
    if debug_path is not None:
        debug_format(debug_path)
    cv2 = libraries()[1]
    rgb = pixels(data, picture, name)
    grid: Grid | None = None
    labels: list[list[int]] | None = None
    try:
        grid = find_grid(rgb, size)
        colours = cell_colours(grid)
        borders = measure_borders(grid, colours)
        labels, doubts = region_labels(grid.size, borders)
        n = grid.size
        found = len({label for row in labels for label in row})
        if found != n:
            raise FormatError(f"read a {n}x{n} grid but only {found} regions")
        if doubts:
            raise FormatError(
                f"read a {n}x{n} grid but the regions are unsure ({doubts[0]}"
                + (f" and {len(doubts) - 1} more" if len(doubts) > 1 else "")
                + ")"
            )
        colourful = regions_by_colour(borders.pairs, borders.change, n, borders.walls)
        kind = "wall" if borders.walls.any() and not colourful else "colour"
        rows = [[LABELS[k] for k in row] for row in labels]
        words = region_words(rows, colours) if kind == "colour" else None
        board = Board.from_rows(rows, 1, name=name, words=words)
        board, stars_from, solutions = _choose_stars(board, kind, stars)
        if solutions == 0 or (solutions > 1 and unique):
            what = "no solution" if solutions == 0 else "2 or more solutions"
            tried = (
                f" with {board.stars} star(s)" if stars_from != "unique" else " for any star count"
            )
            raise FormatError(f"read a {n}x{n} {kind} board that has {what}{tried}")
    except (FormatError, BoardError, cv2.error) as error:
        if debug_path is not None:
            write_debug_image(debug_path, rgb, grid, labels)
        hint = " (check it with --debug-image FILE.png, or pass --size N / --stars S)"
        reason = error.message if isinstance(error, FormatError | BoardError) else "OpenCV failed"
        raise FormatError(
            f"cannot read the board from the image: {reason}{hint}", file=name
        ) from None
    if debug_path is not None:
        write_debug_image(debug_path, rgb, grid, labels)
    notes = [f"read a {n}x{n} {kind} board from the image"]
    if stars_from == "unique":
        notes.append(f"stars: {board.stars}, the smallest count with exactly one solution")
    elif stars_from == "default":
        notes.append("stars: 1, the usual count for a colour board (pass --stars to change it)")
    if solutions > 1:
        notes.append("the board has 2 or more solutions")
    if debug_path is not None:
        notes.append(f"wrote {debug_path} (what was read: grid and regions)")
    marked_stars, marked_blanks = (
        drawn_marks(grid, colours) if marks else (frozenset(), frozenset())
    )
    return ImageReading(board, kind, stars_from, marked_stars, marked_blanks, tuple(notes))
