"""Writing output files atomically: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
from pathlib import Path

from starbattle.errors import UsageError


def _mode(target: Path) -> int:
    """The permissions a new file gets (those of the file it replaces, else 0666 - umask)."""
    if target.exists():
        return target.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write data to path so that an interrupted run never leaves a half-written file."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        import tempfile  # ~5 ms: only when a file is written

        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.chmod(temporary, _mode(target))
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise UsageError(f"cannot write {path}: {error.strerror}") from None
        raise
