"""Locate the shipped encodings; compose a program (files, constants); load it into clingo.

The shipped files are inside the installed package, or in a checkout. The default program's
files are found with os.path: pathlib (with the urllib.parse it imports) is ~4 ms of a cold
start, so it is imported only for variants and user programs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from starbattle.errors import EncodingError, UsageError

if TYPE_CHECKING:
    from pathlib import Path

    import clingo

_INCLUDE = re.compile(r'^#include\s+"(?P<path>[^"]+)"\s*\.', re.MULTILINE)
_REPLACES = re.compile(r"^%\s*replaces:(?P<files>.*)$", re.MULTILINE)
_NOT_ASCII_CODE = re.compile(
    r'%\*.*?\*%|%[^\n]*|"(?:\\.|[^"\\\n])*"|#script.*?#end\s*\.|(?P<char>[^\x00-\x7f])', re.DOTALL
)
"""Comments, strings and scripts (skipped), or a character beyond ASCII outside them."""
_NAME = r"(?!not(?:=|\Z))_*[a-z][A-Za-z0-9_']*"
"""A clingo name: underscores, then a lowercase letter (`_`, `_X`, `_1` are none), not `not`."""
_CONSTANT = re.compile(rf"""{_NAME}=(-?[0-9]{{1,9}}|{_NAME}|"[^"\\\n\x00]*")\Z""")
"""NAME=VALUE, the value an integer, a name or a string on one line (clingo's -c takes terms)."""


def read_program(path: Path) -> str:
    """The text of a program file; an EncodingError naming the place of a byte that is not UTF-8.

    clingo itself would abort the whole process on such a byte (its messages cannot be decoded).
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise EncodingError(f"cannot read the program: {error.strerror}", file=str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        raise EncodingError(
            f"not UTF-8 text (byte {error.start}): save the program as UTF-8",
            file=str(path),
            line=data.count(b"\n", 0, error.start) + 1,
            column=error.start - line_start + 1,
        ) from None


def check_program(path: Path, seen: frozenset[Path] = frozenset()) -> str:
    """The text of a program file, checked with the files it #includes (found beside it).

    They must be UTF-8, and ASCII outside strings and comments: clingo aborts the process
    on its own message about any other character (it cuts the character in half).
    """
    text = read_program(path)
    for match in _NOT_ASCII_CODE.finditer(text):
        if match["char"]:
            line = text.count("\n", 0, match.start()) + 1
            raise EncodingError(
                f"the character {match['char']!r} (U+{ord(match['char']):04X}) is not allowed "
                "here: clingo reads only ASCII outside strings and comments",
                file=str(path),
                line=line,
                column=match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1,
            )
    seen |= {path.resolve()}
    for match in _INCLUDE.finditer(text):
        included = path.parent / match["path"]
        if included.is_file() and included.resolve() not in seen:
            check_program(included, seen)
    return text


@cache
def encodings_folder() -> str:
    """The folder holding starbattle.lp: inside the installed package, else the checkout's."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    tried = [os.path.join(package, "encodings"), os.path.join(package, os.pardir, "encodings")]
    for candidate in map(os.path.normpath, tried):
        if os.path.isfile(os.path.join(candidate, "starbattle.lp")):
            return candidate
    raise EncodingError(
        f"the shipped encodings are missing (looked in {' and '.join(map(os.path.normpath, tried))}"
        "): reinstall starbattle-asp"
    )


def encodings_dir() -> Path:
    """The folder holding starbattle.lp, as a Path."""
    from pathlib import Path

    return Path(encodings_folder())


def default_program() -> Path:
    """The default program, encodings/starbattle.lp."""
    return encodings_dir() / "starbattle.lp"


@cache
def default_files() -> tuple[str, ...]:
    """The rule files starbattle.lp includes, in order (paths as strings)."""
    folder = encodings_folder()
    with open(os.path.join(folder, "starbattle.lp"), encoding="utf-8") as program:
        text = program.read()
    return tuple(
        os.path.normpath(os.path.join(folder, match["path"])) for match in _INCLUDE.finditer(text)
    )


def base_files() -> list[Path]:
    """The rule files starbattle.lp includes, in order."""
    from pathlib import Path

    return [Path(path) for path in default_files()]


def header_title(text: str) -> str:
    """The title of a rule file: its first comment line, without the '%'."""
    first = next((line for line in text.splitlines() if line.startswith("%")), "%")
    return first.lstrip("% ").strip()


class Variant(NamedTuple):
    """A rule file in encodings/variants/ (or given by path) with what its header declares."""

    name: str
    path: Path
    purpose: str
    replaces: tuple[str, ...]
    """The default program's files it takes the place of (e.g. base/notouch.lp), if any."""

    @classmethod
    def from_path(cls, path: Path) -> Variant:
        """Read a variant's header: its title line and an optional `replaces:` line of files."""
        text = check_program(path)
        replaces = _REPLACES.search(text)
        title = header_title(text)
        named, _, said = title.partition(":")
        purpose = said.strip() or named if title.startswith("Variant ") else title
        return cls(path.stem, path, purpose, tuple(replaces["files"].split()) if replaces else ())


def shipped_variants() -> dict[str, Variant]:
    """The shipped variants by name."""
    folder = encodings_dir() / "variants"
    return {path.stem: Variant.from_path(path) for path in sorted(folder.glob("*.lp"))}


def resolve_variant(name_or_path: str) -> Variant:
    """A shipped variant by name, or a variant file by path."""
    from pathlib import Path

    shipped = shipped_variants()
    if name_or_path in shipped:
        return shipped[name_or_path]
    path = Path(name_or_path)
    if path.is_file():
        return Variant.from_path(path)
    raise UsageError(
        f"unknown variant {name_or_path!r}: choose one of {', '.join(shipped)} or give a file"
    )


def compose(encoding: str | None = None, variants: tuple[str, ...] = ()) -> list[Path]:
    """The files of the program to run: the default rules (or `encoding`) plus the variants.

    A variant whose header says `replaces: base/X.lp [base/Y.lp ...]` takes those files'
    place in the default program; it cannot be combined with a user's own encoding, whose
    files we cannot see into.
    """
    from pathlib import Path

    chosen = [resolve_variant(item) for item in variants]
    if encoding is not None:
        path = Path(encoding)
        if not path.is_file():
            what = "no such encoding file" if not path.exists() else "not a file of rules"
            raise UsageError(f"{what}: {encoding}")
        check_program(path)
        for variant in chosen:
            if variant.replaces:
                raise UsageError(
                    f"variant {variant.name} replaces {' '.join(variant.replaces)} of the "
                    "default program and cannot be added to your own encoding: include the rule "
                    "files you want in it instead"
                )
        return [path, *(variant.path for variant in chosen)]
    if not chosen:
        return base_files()
    root = encodings_dir()
    base = {path.resolve() for path in base_files()}
    replaced = {(root / name).resolve() for variant in chosen for name in variant.replaces}
    for variant in chosen:
        for name in variant.replaces:
            if (root / name).resolve() not in base:
                raise EncodingError(
                    f"variant {variant.name} replaces {name}, which the default "
                    "program does not include: fix its 'replaces:' line",
                    file=str(variant.path),
                )
    return [
        *(path for path in base_files() if path.resolve() not in replaced),
        *(variant.path for variant in chosen),
    ]


def program_error(messages: list[str], error: RuntimeError, files: Sequence[str]) -> EncodingError:
    """Turn clingo's failure into an EncodingError naming its first error message and place."""
    detail = next((m for m in messages if "error" in m), None) or str(error)
    match = re.match(
        r"(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+)(-[\d:]+)?: (?P<rest>.*)", detail
    )
    if match:
        return EncodingError(
            match["rest"],
            file=match["file"],
            line=int(match["line"]),
            column=int(match["column"]),
        )
    names = ", ".join(files)
    return EncodingError(f"clingo could not ground the program ({names}): {detail}")


_TEXTS: dict[str, str | None] = {}
"""The text of each shipped file read so far (None: it #includes others, so it is loaded)."""


def add_program(control: clingo.Control, files: Sequence[str]) -> None:
    """Load a program's files into a Control.

    A shipped file is read once per process and its text added: a new Control with the
    program takes 0.4 ms instead of 0.6 (measured), which counts when a collection or the
    hint engine grounds thousands of boards. The ground program is the same as `load` gives,
    atom for atom (a test checks it), so searches and the first of several solutions do not
    change. (clingo's parsed statements, added by a ProgramBuilder, number the atoms
    differently.) A file that #includes others is loaded (they are found beside it), and so
    is a user's file, which may change.
    """
    for path in files:
        text = _TEXTS.get(path) if path in _TEXTS else _shipped_text(path)
        if text is None:
            control.load(path)
        else:
            control.add("base", [], text)


def _shipped_text(path: str) -> str | None:
    """The text of a shipped file without #include (kept for the next Control), else None."""
    if not _shipped(path):
        return None
    with open(path, encoding="utf-8") as program:
        text = program.read()
    _TEXTS[path] = None if "#include" in text else text
    return _TEXTS[path]


def _shipped(path: str) -> bool:
    """Whether a file is one of the shipped encodings."""
    folder = encodings_folder()
    return os.path.commonpath([os.path.abspath(path), folder]) == folder


def constant_options(constants: Sequence[str]) -> list[str]:
    """The `-c NAME=VALUE` options of a program's constants: each checked, each name given once."""
    given: dict[str, str] = {}
    options: list[str] = []
    for constant in constants:
        if not _CONSTANT.match(constant):
            raise UsageError(
                f"constant {constant!r} must look like NAME=VALUE, e.g. n=3 (the value an "
                "integer, a lowercase name or a quoted string)"
            )
        name = constant.split("=", 1)[0]
        if name in given:  # clingo refuses a redefinition
            raise UsageError(
                f"constant {name} is given twice ({given[name]!r} and {constant!r}): "
                "give each name once"
            )
        given[name] = constant
        options += ["-c", constant]
    return options
