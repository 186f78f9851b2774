"""Units: a row, a column or a region of a board, as a value; names only when shown."""

from __future__ import annotations

from typing import NamedTuple

from starbattle.model.board import Board, Cell

LABEL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
"""The names regions get when their own labels are longer than a character."""
KINDS = ("row", "column", "region")


def region_names(board: Board) -> dict[str, str]:
    """Map each region label to the name a picture of the board shows for it.

    Labels stay when all are one character; else regions get letters and digits in order of
    first appearance; past 62 regions they stay as words.
    """
    labels = board.region_labels
    if all(len(label) == 1 and not label.isspace() for label in labels):
        return {label: label for label in labels}
    if len(labels) <= len(LABEL_ALPHABET):
        return dict(zip(labels, LABEL_ALPHABET, strict=False))
    return {label: label for label in labels}


class Unit(NamedTuple):
    """A row (key: its number), a column (its number) or a region (its label on the board).

    Its clingo term is the ASP layer's to say (`starbattle.asp.facts.unit_term`).
    """

    kind: str
    key: int | str

    def name(self, board: Board) -> str:
        """'row 3', 'column 4', 'region B' (or 'the red region'): as the board shows it."""
        if self.kind == "region":
            word = board.words.get(str(self.key))
            return f"the {word} region" if word else f"region {region_names(board)[str(self.key)]}"
        return f"{self.kind} {self.key}"

    def cells(self, board: Board) -> list[Cell]:
        """The unit's playable cells, in reading order."""
        n = range(1, board.size + 1)
        if self.kind == "row":
            line = [(int(self.key), c) for c in n]
        elif self.kind == "column":
            line = [(r, int(self.key)) for r in n]
        else:
            return board.region_cells()[str(self.key)]
        return [cell for cell in line if board.region_of(cell) is not None]


def units_of(board: Board) -> list[Unit]:
    """Every unit of a board: its rows, then its columns, then its regions as first met."""
    lines = range(1, board.size + 1)
    return [
        *(Unit("row", r) for r in lines),
        *(Unit("column", c) for c in lines),
        *(Unit("region", label) for label in board.region_labels),
    ]
