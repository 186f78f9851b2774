"""Formatters: what each format prints of the values."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import SIX


def test_ids_are_escaped_in_text_output(run, tmp_path: Path) -> None:
    record = {"id": "evil\x1b[31m\nid", "stars": 1, "regions": SIX.splitlines()[1:]}
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps({**record, "id": "fine"}) + "\n")
    result = run(str(path))
    assert "== evil\\x1b[31m\\nid ==" in result.stdout and "\x1b" not in result.stdout
