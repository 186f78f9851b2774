"""The package's floors: every import of a module of ours, at the top of a file or inside a
function, goes to a lower floor (or stays inside its own folder), as DESIGN.md sets out."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "starbattle"

FLOORS = {
    "starbattle.errors": 0,
    "starbattle.limits": 0,
    "starbattle.words": 0,
    "starbattle.exits": 0,
    "starbattle.model": 1,
    "starbattle.asp": 2,
    "starbattle.io": 3,
    "starbattle.logic": 3,
    "starbattle.run": 4,
    "starbattle.web": 5,
    "starbattle.cli": 6,
    "starbattle.__main__": 7,
}
"""Each part of the package and its floor. A module imports only modules on floors below its
own, or modules of its own part (folder): io and logic share floor 3 and import neither
each other nor anything above. The package's __init__ names its public names lazily
(`import_module`) and imports nothing: it is no floor, and any module may read its
`__version__`."""


def part(module: str) -> str:
    """The part (a key of FLOORS) a module of ours belongs to."""
    for name in sorted(FLOORS, key=len, reverse=True):
        if module == name or module.startswith(name + "."):
            return name
    raise AssertionError(f"{module} belongs to no floor: add its part to FLOORS")


def module_name(path: Path) -> str:
    """The dotted name of one of the package's files."""
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module of ours a file imports (line, name), anywhere in it, lazily or not."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found += [(node.lineno, _module_of(name, node.module)) for name in names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((node.lineno, str(node.args[0].value)))
    return [(line, name) for line, name in found if name.split(".")[0] == "starbattle"]


def _module_of(name: str, module: str) -> str:
    """`from X import Y`: Y if it is a module of ours (a file or folder), else X."""
    path = PACKAGE.parent.joinpath(*name.split("."))
    return name if path.with_suffix(".py").is_file() or path.is_dir() else module


def upward_edges(root: Path = PACKAGE) -> list[str]:
    """Every import that goes up a floor or across to a part of the same floor."""
    edges = []
    for path in sorted(root.rglob("*.py")):
        source = module_name(path)
        if source == "starbattle":
            continue
        here = part(source)
        for line, target in imports(path):
            if target == "starbattle":
                continue
            there = part(target)
            if there != here and FLOORS[there] >= FLOORS[here]:
                edges.append(f"{path.relative_to(root.parent)}:{line}: {source} -> {target}")
    return edges


def test_no_module_imports_upward() -> None:
    assert upward_edges() == []


def test_every_module_belongs_to_a_floor() -> None:
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        if name != "starbattle":
            assert part(name) in FLOORS


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    """The test can fail: a model module that imports the solver, even inside a function."""
    copy = tmp_path / "starbattle"
    (copy / "model").mkdir(parents=True)
    (copy / "asp").mkdir()
    (copy / "__init__.py").write_text("")
    (copy / "asp" / "solver.py").write_text("")
    (copy / "model" / "board.py").write_text(
        "def solve():\n    from starbattle.asp.solver import Solver\n"
    )
    global PACKAGE
    saved, PACKAGE = PACKAGE, copy
    try:
        assert upward_edges(copy) == [
            "starbattle/model/board.py:2: starbattle.model.board -> starbattle.asp.solver"
        ]
    finally:
        PACKAGE = saved


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("__init__.py")), ids=str)
def test_subpackages_import_nothing(path: Path) -> None:
    if path.parent == PACKAGE:
        return
    tree = ast.parse(path.read_text())
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_module_is_over_500_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= 500
