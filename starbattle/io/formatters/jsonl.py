"""JSON Lines: one DESIGN.md record a line (`starbattle.io.records`), ids in collections."""

from __future__ import annotations

from starbattle.io.formats.json_board import dumps
from starbattle.io.formatters.base import Formatter, Piece, shows
from starbattle.io.records import NO_RECORD, RECORDS, program_run, record, solution_line
from starbattle.model.values import Comparison, Found, Message, Tally


class JsonFormatter(Formatter):
    """JSON Lines: every value that has a record, one a line."""

    name = "json"
    silent = NO_RECORD - {Message}

    @shows(*(set(RECORDS) - {Found, Tally, Comparison}))
    def recorded(self, item: object) -> list[Piece]:
        """An item's record, carrying the puzzle's id in a collection."""
        made = RECORDS[type(item)](item)
        return [dumps(made if self.identifier is None else {"id": self.identifier, **made})]

    @shows(Found)
    def found(self, found: Found) -> list[Piece]:
        """A solution record (formatted directly: the fast path of long enumerations)."""
        return [solution_line(found, self.identifier)]

    @shows(Comparison)
    def comparison(self, comparison: Comparison) -> list[Piece]:
        """Each program's row, then whether they agree."""
        rows = [dumps(program_run(run)) for run in comparison.runs]
        return [*rows, dumps(record(comparison))]

    @shows(Tally)
    def overall(self, tally: Tally) -> list[Piece]:
        """The overall record (no id: it is the whole collection's)."""
        return [dumps(record(tally))]
