"""Write one benchmark's section of benchmarks/RESULTS.md (or another results file), leaving
the other sections alone."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(
    begin: str, end: str, section: str, results: Path = RESULTS, title: str = "Benchmark results"
) -> None:
    """Replace the text from `begin` to `end` (markers included in `section`), or append it."""
    text = results.read_text() if results.is_file() else f"# {title}\n\n"
    if begin in text:
        text = text[: text.index(begin)] + section + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    results.write_text(text)


def descendants(pid: int) -> list[int]:
    """Every process below this one (Linux /proc; a server's workers are its children's)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return []
    return [p for child in children for p in (int(child), *descendants(int(child)))]
