"""Every rule file of encodings/ in one form: a header with its title, the facts it reads,
the atoms it defines and the commands that run it (each run here), then sections Generate /
Define / Test / Display (Output for hint programs), in that order."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

ENCODINGS = ROOT / "encodings"
FILES = sorted(ENCODINGS.rglob("*.lp"))
FIELDS = ("level:", "replaces:", "Concludes", "Premises", "Reads", "Defines", "Shows")
FIELDS += ("Constant", "Part", "Run")
"""The header's fields, in their order (`level:` and `replaces:` are the ones the host reads)."""
SECTION = re.compile(r"% (?P<kind>Generate|Define|Test|Display|Output)(:| \(|$)")
DIRECTIVE = re.compile(r'#(const|defined|include|program) |technique\("')
"""What may come before the first section: directives, and a hint program's name."""


def header(text: str) -> list[str]:
    """The comment lines a file opens with."""
    lines = text.splitlines()
    code = [i for i, line in enumerate(lines) if not line.startswith("%")]
    return lines[: code[0] if code else len(lines)]


def fields(lines: list[str]) -> list[tuple[str, str]]:
    """The header's fields from the first on, each (name, text with its continuation lines)."""
    found: list[tuple[str, str]] = []
    for line in lines[2:]:
        name = next((field for field in FIELDS if line.startswith(f"% {field}")), None)
        if name is not None:
            found.append((name, line[2 + len(name) :].strip()))
        elif found:
            assert line.startswith("%    "), f"not a field or its continuation: {line!r}"
            found[-1] = (found[-1][0], f"{found[-1][1]}\n{line[1:].strip()}")
    return found


def commands(run: str) -> list[str]:
    """The commands of a Run field: lines joined after a `\\` or a `|`, up to a note in ()."""
    run = run.split("\n(")[0]
    return re.sub(r"(\\|\|)\n", lambda match: " | " if match[1] == "|" else " ", run).split("\n")


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ENCODINGS)))
def test_each_header_has_its_fields_in_order(path: Path) -> None:
    lines = header(path.read_text())
    assert re.fullmatch(r"% [A-Z0-9].*\.", lines[0]) and lines[1] == "%", "a title line, then '%'"
    names = [name for name, _ in fields(lines)]
    assert names == sorted(names, key=FIELDS.index), "fields out of order"
    assert {"Reads", "Defines", "Run"} <= set(names)
    assert ("level:" in names) == (path.parent.name == "hints" and path.name != "state.lp")
    assert "replaces:" not in names or path.parent.name == "variants"
    for line in lines:  # the host reads `replaces:` lines only: no other key names base files
        assert not re.match(r"%\s*([a-z][a-z ]*):\s*base/", line) or "replaces:" in line, line


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ENCODINGS)))
def test_each_file_has_its_sections_in_order(path: Path) -> None:
    text = path.read_text()
    body = text.splitlines()[len(header(text)) :]
    kinds = ["Generate", "Define", "Test", "Output" if path.parent.name == "hints" else "Display"]
    found, before = [], True
    for previous, line in zip(["", *body], body, strict=False):
        if line.startswith("%") and not previous.startswith("%"):
            section = SECTION.match(line)
            assert section and section["kind"] in kinds, f"not a section of {kinds}: {line}"
            found.append(kinds.index(section["kind"]))
            before = False
        elif before and line.strip():
            assert DIRECTIVE.match(line), f"code before the first section: {line}"
    assert found == sorted(found), "sections out of order"
    if path.parent.name == "hints" and path.name != "state.lp":
        assert found[-1] == kinds.index("Output"), "a hint program ends with its Output"


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ENCODINGS)))
def test_each_constant_has_a_default_the_header_names(path: Path) -> None:
    text = path.read_text()
    declared = re.findall(r"^#const (\w+) = (\w+)\.$", text, re.MULTILINE)
    assert len(declared) == text.count("#const")
    named = [
        re.match(r"(\w+) \(default (\w+)\)", said).groups()
        for name, said in fields(header(text))
        if name == "Constant"
    ]
    assert named == declared


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ENCODINGS)))
def test_each_command_of_a_header_runs(path: Path) -> None:
    run = dict(fields(header(path.read_text())))["Run"]
    for command in commands(run):
        clingo = "python -m clingo" in command
        command = command.replace("python -m clingo", f"{sys.executable} -m clingo")
        command = command.replace("starbattle-asp", f"{sys.executable} -m starbattle")
        result = subprocess.run(
            ["bash", "-c", f"{command} --outf=0 -V0 --warn=none" if clingo else command],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, (command, result.stderr)
        if not clingo:
            continue
        assert result.stdout.splitlines()[-1] == "SATISFIABLE", command
        shown = result.stdout.splitlines()[0].split()
        if path.name == "state.lp":
            assert "still_needs(row(1),0)" in shown
        elif path.parent.name == "hints":
            assert f'technique("{path.stem}")' in shown
            assert any(atom.startswith("conclude(") for atom in shown)
