"""Writing output files atomically (a temporary file beside the target, then a rename).

Every command that writes a file goes through :func:`write_atomic`, so an interrupted run
never leaves half a file and never loses what the user had.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (UTF-8; bytes as they are) so a reader never sees half a file.

    A new file gets the usual permissions (0666 less the umask), an existing one keeps its own.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(folder))
    try:
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as fb:
                fb.write(text)
                fb.flush()
                os.fsync(fb.fileno())
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset, both counted from 1."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def decode_utf8(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """The bytes as UTF-8 text and None, or None and the (line, column) of the first byte that is not UTF-8.

    A leading byte-order mark is kept: each reader decides what it means for its format.
    """
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, position(data, e.start)
