"""Write one benchmark's section of benchmarks/RESULTS.md, leaving the other sections alone."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(begin: str, end: str, section: str) -> None:
    """Replace the text from `begin` to `end` (markers included in `section`), or append it."""
    text = RESULTS.read_text() if RESULTS.is_file() else "# Benchmark results\n\n"
    if begin in text:
        text = text[: text.index(begin)] + section + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    RESULTS.write_text(text)
