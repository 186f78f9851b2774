"""Decode every line of the StarBattleLab collection and write the result down.

    python benchmarks/sbn_decode.py [CORPUS_DIR] [RESULT_FILE]

Defaults: ../shared/corpus/starbattlelab and benchmarks/sbn-decode.md. Every line must
decode to a valid board (N regions, the size and star count its file name says).
"""

from __future__ import annotations

import platform
import re
import sys
import time
import warnings
from pathlib import Path

from starbattle import StarBattleError, __version__
from starbattle.io.formats import sbn

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    """Decode the collection, print a table and write it to the result file."""
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared/corpus/starbattlelab"
    result = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "benchmarks" / "sbn-decode.md"
    rows, failures, total_lines, started = [], [], 0, time.perf_counter()
    for path in sorted(folder.glob("*.sbn")):
        size, stars = (int(x) for x in re.match(r"(\d+)x\d+-(\d+)star", path.name).groups())
        decoded = annotated = 0
        begun = time.perf_counter()
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, start=1):
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    board = sbn.read(line, name=f"{path.name}:{number}")
                if board.size != size or board.stars != stars:
                    raise StarBattleError(
                        f"decodes to {board.size}x{board.size} {board.stars} stars"
                    )
                annotated += bool(caught)
                decoded += 1
            except StarBattleError as error:
                failures.append(f"{path.name}:{number}: {error}")
        total_lines += len(lines)
        rows.append(
            f"| {path.name} | {len(lines)} | {decoded} | {annotated} | "
            f"{time.perf_counter() - begun:.1f} s |"
        )
    seconds = time.perf_counter() - started
    text = "\n".join(
        [
            "# Decoding the StarBattleLab collection (SBN)",
            "",
            f"`python benchmarks/sbn_decode.py`: starbattle-asp {__version__}, Python "
            f"{platform.python_version()}, {platform.machine()}; {total_lines} lines in "
            f"{seconds:.1f} s. A line counts as decoded when it gives a valid board (exactly N "
            "regions) of the size and star count of its file.",
            "",
            "| file | lines | decoded | with annotations (ignored) | time |",
            "|---|---|---|---|---|",
            *rows,
            "",
            f"Failures: {len(failures)}.",
            *(f"- {failure}" for failure in failures[:50]),
            "",
        ]
    )
    result.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
