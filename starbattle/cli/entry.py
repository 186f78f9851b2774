"""The console script's first code: a Ctrl-C while the program loads ends it quietly (130).

It imports nothing but builtins before `main` runs (no `from __future__`: an import before
the `try` is a window where a Ctrl-C is a traceback no code can catch).
"""

import gc
import sys


def main() -> None:
    """Load the command line, then run it; an early Ctrl-C is no traceback."""
    gc.disable()  # loading makes many objects and no garbage: no collections while it runs
    try:
        from starbattle.cli.main import main as run
    except KeyboardInterrupt:
        sys.exit(130)
    gc.freeze()  # what loading made lives to the end: later collections skip it
    gc.enable()
    try:
        run()
    except KeyboardInterrupt:  # before the command line's own handling began
        sys.exit(130)
