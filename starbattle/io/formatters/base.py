"""What every formatter shares: the pieces it returns, dispatch by type, words for summaries.

A formatter turns a value into pieces (a line for standard output, a `Note` for standard
error, a `Document` for a file) and writes nothing itself: `show` hands the pieces to the
Output, the one writer. Each formatter names, for every result type of
`starbattle.model.values.RESULTS`, the method that formats it or that it says nothing about
it; a type it does not name is an error when its class is made (at import), never silence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from starbattle.io.output import Note, Piece
from starbattle.model.values import RESULTS, Message, Summary
from starbattle.words import plural

if TYPE_CHECKING:
    from starbattle.io.output import Output


def shows(*kinds: type) -> Callable[[Callable[..., list[Piece]]], Callable[..., list[Piece]]]:
    """Mark a formatter method as the one that formats values of these types."""

    def mark(method: Callable[..., list[Piece]]) -> Callable[..., list[Piece]]:
        method.formats = kinds  # type: ignore[attr-defined]
        return method

    return mark


def printable(text: str) -> str:
    """Text safe for one terminal line: control characters (escapes, newlines) escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


PREFIXES = {
    "error": "starbattle-asp: error: ",
    "warning": "starbattle-asp: warning: ",
    "note": "starbattle-asp: ",
    "clingo": "starbattle-asp: clingo: ",
}
"""How each kind of message starts on standard error."""


class Formatter:
    """Shows values in one format; the base says messages and nothing else."""

    name: ClassVar[str] = ""
    comment: ClassVar[str] = ""
    """What starts a comment line in this format (for summaries), if anything."""
    silent: ClassVar[frozenset[type]] = frozenset()
    """The result types this format says nothing about."""
    methods: ClassVar[dict[type, str]] = {}
    """The name of the method that formats each result type (made from `shows` marks)."""

    def __init_subclass__(cls, *, partial: bool = False) -> None:
        """Gather the `shows` marks; refuse a format that forgets a result type.

        `partial`: a base of formats, which its subclasses complete.
        """
        super().__init_subclass__()
        cls.methods = {
            kind: name
            for klass in reversed(cls.__mro__)
            for name, method in vars(klass).items()
            for kind in getattr(method, "formats", ())
        }
        missing = set(RESULTS) - set(cls.methods) - cls.silent
        if missing and not partial:
            names = ", ".join(sorted(kind.__name__ for kind in missing))
            raise TypeError(f"{cls.__name__} neither formats nor names as silent: {names}")

    def __init__(
        self,
        output: Output,
        *,
        collection: bool = False,
        ascii_only: bool = False,
        models: int = 1,
        target: str | None = None,
    ) -> None:
        self.output = output
        self.target = target
        """Where pictures go (-o with a picture format); their lines go to `output`."""
        self.collection = collection
        """Several puzzles: each one's output carries its id."""
        self.ascii_only = ascii_only
        self.models = models
        self.identifier: str | None = None

    def begin(self, identifier: str) -> list[Piece]:
        """A puzzle's output starts: what to say first (nothing, in most formats)."""
        self.identifier = identifier if self.collection else None
        return []

    def format(self, item: object) -> list[Piece]:
        """The pieces that show one value (none for a type this format is silent about)."""
        method = self.methods.get(type(item))
        if method is None:
            if type(item) not in self.silent:
                raise TypeError(f"{type(self).__name__} cannot format {type(item).__name__}")
            return []
        pieces: list[Piece] = getattr(self, method)(item)
        return pieces

    def show(self, item: object) -> None:
        """Format a value and hand its pieces to the output."""
        self.output.put(self.format(item))

    def start(self, identifier: str) -> None:
        """Begin a puzzle and show what its beginning says."""
        self.output.put(self.begin(identifier))

    @shows(Message)
    def message(self, message: Message) -> list[Piece]:
        """A message, on standard error in every format."""
        if message.kind == "interrupted" and self.collection:
            return []  # the run says how far it got, in one line
        return [Note(printable(PREFIXES.get(message.kind, "") + message.text))]

    @shows(Summary)
    def summary(self, summary: Summary) -> list[Piece]:
        """The closing line of a search (an interrupted one is said on stderr only)."""
        if summary.interrupted:
            return []
        lead = "" if summary.counted else "\n" if summary.shown else ""
        return [lead + self.comment + summary_text(summary)]


def summary_text(summary: Summary) -> str:
    """One line saying how many solutions there are and whether the board is unique."""
    seconds = f"({summary.seconds:.3f} s)"
    found, shown = summary.found, summary.shown
    if summary.counted:
        if summary.exhausted:
            if found == 0:
                return f"no solution {seconds}"
            verdict = "unique" if found == 1 else "not unique"
            return f"{plural(found, 'solution')}, {verdict} {seconds}"
        return (
            f"at least {plural(found, 'solution')}: time limit of {summary.timeout:g} s "
            f"reached, the count is incomplete {seconds}"
        )
    if summary.exhausted:
        if found == 0:
            return f"no solution {seconds}"
        if found == 1:
            return f"1 solution, unique {seconds}"
        return f"{plural(found, 'solution')} in all, not unique {seconds}"
    if summary.timed_out:
        return (
            f"time limit of {summary.timeout:g} s reached after {plural(found, 'solution')}: "
            f"the search is incomplete {seconds}"
        )
    if found > shown:
        if shown == 1:
            return (
                f"not unique: 2 or more solutions {seconds}; "
                "-n 0 lists them all, --count counts them"
            )
        return f"{plural(shown, 'solution')} shown, not unique: there are more {seconds}"
    return f"{plural(found, 'solution')} found; the search stopped there {seconds}"
