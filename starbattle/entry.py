"""The console script's first code: a Ctrl-C while the program loads ends it quietly (130)."""

from __future__ import annotations

import sys


def main() -> None:
    """Load the command line, then run it; an early Ctrl-C is no traceback."""
    try:
        from starbattle.cli import main as run
    except KeyboardInterrupt:
        sys.exit(130)
    run()
