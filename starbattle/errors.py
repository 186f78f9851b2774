"""Typed errors of the starbattle library: each knows where in the input it happened."""

from __future__ import annotations


class StarBattleError(Exception):
    """Base of every error the library raises about its input; carries file, line and column."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    def location(self) -> str:
        """Return 'FILE:LINE:COL' with the parts that are known (empty when none is)."""
        parts = [str(p) for p in (self.file, self.line, self.column) if p is not None]
        return ":".join(parts)

    def with_file(self, file: str) -> StarBattleError:
        """Set the file name when the error does not name one yet, and return the error."""
        if self.file is None:
            self.file = file
        return self

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message}" if where else self.message


class FormatError(StarBattleError):
    """Input text that no reader understands, or that breaks the rules of its format."""


class BoardError(StarBattleError):
    """A board that is not a Star Battle board: shape, regions, stars or givens are wrong."""


class EncodingError(StarBattleError):
    """An encoding or variant that cannot be found, parsed, grounded or read back."""


class UsageError(StarBattleError):
    """Options that contradict each other or do not fit the input."""


class ClusterError(StarBattleError):
    """A Dask cluster that cannot be reached, started or used (or Dask is not installed)."""
