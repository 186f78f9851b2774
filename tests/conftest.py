"""Make tests/helpers.py importable as `helpers`; say when the real-puzzle corpus is absent."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name the skipped real-puzzle tests at the end, not only among the skips."""
    if not (CORPUS / "real-puzzles.jsonl").is_file():
        skipped = len(terminalreporter.stats.get("skipped", []))
        terminalreporter.write_sep(
            "=", f"{skipped} tests skipped: ../shared/corpus is absent (real puzzles untested)"
        )
