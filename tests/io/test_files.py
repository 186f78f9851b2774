"""Output files (-o): written whole or not at all, devices, FIFOs, links, full disks."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import PZPRJS

from starbattle import UsageError, read_board, write_board
from starbattle.cli.main import cli
from starbattle.io.files import open_output, write_atomic


def char_device(folder: Path, name: str, minor: int) -> Path:
    """A private copy of /dev/null (minor 3) or /dev/full (minor 7); skips unless allowed."""
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except (PermissionError, AttributeError):
        pytest.skip("creating a device node needs root")
    return path


def test_d1_output_to_a_device_writes_into_it(tmp_path: Path) -> None:
    null = char_device(tmp_path, "null", 3)
    write_atomic(null, "solution\n")
    assert stat.S_ISCHR(null.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary file left


def test_d1_full_device_is_a_one_line_error(tmp_path: Path) -> None:
    full = char_device(tmp_path, "full", 7)
    with pytest.raises(UsageError, match=r"^cannot write .*full: No space left on device$"):
        write_atomic(full, "solution\n")
    assert stat.S_ISCHR(full.stat().st_mode)


def test_d1_output_to_a_fifo_streams_into_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    with open_output(fifo) as stream:
        stream.write("line 1\n")
        stream.write("line 2\n")
    reader.join(timeout=10)
    assert received == [b"line 1\nline 2\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_d1_symlink_is_written_through_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and link.readlink() == target
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "made.txt")
    write_atomic(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.txt").read_text() == "made"


def test_d1_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="it is a folder"):
        write_atomic(tmp_path, "x")


def test_d26_output_streams_into_a_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    chunk = "x" * 1023 + "\n"
    with open_output(target) as stream:
        for _ in range(1024):
            stream.write(chunk)
        (temporary,) = (p for p in tmp_path.iterdir() if p != target)
        assert temporary.stat().st_size >= 1024 * 1024 - 64 * 1024  # on disk, not in memory
        assert target.read_text() == "old"
    assert target.read_text() == chunk * 1024
    assert list(tmp_path.iterdir()) == [target]


def test_d26_error_while_streaming_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt), open_output(target) as stream:
        stream.write("half")
        raise KeyboardInterrupt
    assert target.read_text() == "old" and list(tmp_path.iterdir()) == [target]


def test_d1_output_equal_to_the_input_is_replaced_after_reading(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_text(str(write_board(read_board(PZPRJS), "txt")))
    with open_output(path) as stream:
        stream.write(str(write_board(read_board(str(path)), "json")))
    assert read_board(str(path)).regions == read_board(PZPRJS).regions
    assert path.read_text().startswith("{")


def test_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "board.json"
    target.write_text("the good old content")

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new content")
    assert target.read_text() == "the good old content"
    assert [p.name for p in tmp_path.iterdir()] == ["board.json"]  # no temporary file left


def test_unwritable_output_is_a_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["convert", PZPRJS, "--to", "json", "-o", str(tmp_path / "missing" / "x.json")]
    )
    assert result.exit_code == 2 and "cannot write" in result.stderr
