"""Make tests/helpers.py importable as `helpers`; Ctrl-C as a terminal gives it; say when the
real-puzzle corpus is absent."""

import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

sys.path.insert(0, str(Path(__file__).resolve().parent))

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal gives it, whoever started the run: a shell's background job
    inherits SIGINT ignored, and the tests that send SIGINT would then see nothing."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name the skipped real-puzzle tests at the end, not only among the skips."""
    if not (CORPUS / "real-puzzles.jsonl").is_file():
        skipped = len(terminalreporter.stats.get("skipped", []))
        terminalreporter.write_sep(
            "=", f"{skipped} tests skipped: ../shared/corpus is absent (real puzzles untested)"
        )


@pytest.fixture
def run() -> Callable[..., Result]:
    """The command line, run in this process: run("solve", FILE, ..., stdin=TEXT)."""
    from starbattle.cli.main import cli

    def invoke(*args: str, stdin: str | None = None) -> Result:
        """Invoke the CLI with these arguments (and standard input)."""
        return CliRunner().invoke(cli, list(args), input=stdin)

    return invoke
