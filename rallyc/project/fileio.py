"""Files in and out: atomic writes, UTF-8 decoding with the bad byte located, strict JSON.

Every command that writes a file goes through :func:`write_atomic`, so an interrupted run
never leaves half a file and never loses what the user had. Every JSON input (game records,
Rekee and RGT track files) is read by :func:`strict_json`: a key written twice, a number too
long to mean anything, ``NaN`` and ``Infinity`` are refused with their line and column.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from pathlib import Path

from rallyc.diagnostics import Diagnostic, Span

__all__ = ["scan_folder", "write_atomic", "is_special", "decode_utf8", "looks_like_utf16", "read_limited", "position",
           "strict_json",
           "StrictJSONError"]


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (UTF-8; bytes as they are) so a reader never sees half a file.

    A new file gets the usual permissions (0666 less the umask), an existing one keeps its own.
    A target that exists and is not a regular file (a FIFO, ``/dev/null``, a terminal) is written
    through, never replaced: renaming over it would turn a pipe or a device into a plain file.
    Only :func:`os.replace` and :mod:`tempfile` are used, so this works the same on Windows.
    """
    path = Path(path)
    if is_special(path):
        if isinstance(text, bytes):
            with open(path, "wb") as fb:
                fb.write(text)
        else:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return
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


def is_special(path: str | os.PathLike) -> bool:
    """True when ``path`` exists (after symbolic links) and is not a regular file or a folder: a FIFO, a device, a socket."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset, both counted from 1."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def decode_utf8(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """The bytes as text and None, or None and the (line, column) of the first byte that is not UTF-8.

    UTF-8 is what rallyc reads. Text that starts with a UTF-16 byte-order mark (Windows editors save
    "Unicode" text so) is decoded as UTF-16: the mark says what the bytes are, so nothing is guessed.
    A leading UTF-8 byte-order mark is kept: each reader decides what it means for its format.
    """
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError as e:
            return None, (1, e.start // 2 + 1)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, position(data, e.start)


def looks_like_utf16(data: bytes) -> bool:
    """True for bytes that look like UTF-16 text without a byte-order mark (every other byte NUL)."""
    sample = data[:512]
    if len(sample) < 4:
        return False
    even, odd = sample[0::2], sample[1::2]
    return (odd.count(0) >= len(odd) * 0.6 and even.count(0) == 0) or (even.count(0) >= len(even) * 0.6
                                                                       and odd.count(0) == 0)


def read_limited(path: str | os.PathLike, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of a file: enough to say it is too large without reading a gigabyte of it."""
    with open(path, "rb") as f:
        return f.read(limit + 1)


class StrictJSONError(ValueError):
    """JSON text :func:`strict_json` refuses: ``message``, and ``line``/``column`` from 1."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{message} at line {line} column {column}")
        self.message, self.line, self.column = message, line, column


class _Refused(Exception):
    """Raised inside ``json.loads`` hooks: ``what`` says why; ``needle`` or ``key`` locate it afterwards."""

    def __init__(self, what: str, needle: str | None = None, key: str | None = None) -> None:
        super().__init__(what)
        self.what, self.needle, self.key = what, needle, key


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"the key {json.dumps(key)} appears twice in one object (the last would win silently)",
                               key=key)
            seen.add(key)
    return out


def _refuse_constant(name: str) -> float:
    raise _Refused(f"`{name}` is not a JSON number", needle=name)


def strict_json(text: str, max_digits: int) -> object:
    """``json.loads`` that refuses duplicate keys, integers of more than ``max_digits`` digits, NaN and Infinity.

    Raises :class:`StrictJSONError` with the line and column of the problem (never ValueError from
    Python's 4,300-digit limit, never RecursionError).
    """

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > max_digits:
            shown = digits if len(digits) <= 24 else f"{digits[:12]}... ({len(digits.lstrip('-'))} digits)"
            raise _Refused(f"the number {shown} is too long (at most {max_digits} digits)", needle=digits)
        return int(digits)

    def real(digits: str) -> float:
        if len(digits) > 400:  # float() of a long literal is slow and means nothing here
            raise _Refused(f"the number {digits[:12]}... ({len(digits)} characters) is too long", needle=digits)
        return float(digits)

    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_int=whole, parse_float=real,
                          parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise StrictJSONError(exc.msg, exc.lineno, exc.colno) from None
    except _Refused as exc:
        line, column = _text_position(text, _offset_of(text, exc))
        raise StrictJSONError(exc.what, line, column) from None
    except RecursionError:
        raise StrictJSONError("nested too deeply", 1, 1) from None


def _text_position(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _offset_of(text: str, refused: _Refused) -> int:
    """Where in ``text`` the thing a hook refused is (for a number: the first place it stands as a value)."""
    if refused.key is not None:
        return _duplicate_offset(text, refused.key)
    if refused.needle:
        m = re.search(r"(?<![\w.\"-])" + re.escape(refused.needle) + r"(?![\w.])", text)
        if m:
            return m.start()
    return 0


def _duplicate_offset(text: str, key: str) -> int:
    """Where the second ``key`` of one object is: a scan of the document's objects in order."""
    decoder = json.JSONDecoder()
    stack: list[set[str] | None] = []  # per open container: the keys seen so far (None for an array)
    expect_key = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            stack.append(set())
            expect_key = True
            i += 1
        elif ch == "[":
            stack.append(None)
            expect_key = False
            i += 1
        elif ch in "}]":
            if stack:
                stack.pop()
            i += 1
        elif ch == ",":
            expect_key = bool(stack) and stack[-1] is not None
            i += 1
        elif ch == '"':
            value, j = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]  # not in the stubs
            top = stack[-1] if stack else None
            if expect_key and top is not None:
                if value == key and value in top:
                    return i
                top.add(value)
                expect_key = False
            i = j
        elif ch in "-0123456789tfnNI":
            try:
                _, i = decoder.raw_decode(text, i)
            except ValueError:
                i += 1
        else:
            i += 1
    return 0


def _within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False


def _skip_dir(name: str) -> bool:
    return name.startswith(".") or name in ("__pycache__", "node_modules")


def scan_folder(folder: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The ``*.rally`` files below ``folder`` (sorted, hidden folders skipped) and what was left out, and why.

    Like ``use``, a folder scan stays in its folder: a symbolic link that leads out of it is not
    followed (RC119), and a pipe, device or socket named ``*.rally`` is not read (RC118), so a
    scan never blocks and never prints another file's lines. A link in a loop or to nothing is left out
    too (RC118); each left-out entry is a warning naming it, and the rest of the folder is checked.
    """
    root = folder.resolve()
    found: list[Path] = []
    left_out: list[Diagnostic] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not _skip_dir(d))
        for name in sorted(filenames):
            if not name.endswith(".rally"):
                continue
            path = Path(dirpath) / name
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13), or a link to nothing
                left_out.append(_broken_link(path))
                continue
            if not _within(real, root):
                left_out.append(_warning(
                    "RC119", f"{path} is a link to {real}, outside the folder {folder}: not checked", _entry(path),
                    f"check {real} by naming it, or copy it into the folder"))
                continue
            try:
                mode = path.stat().st_mode
            except OSError:
                mode = 0
            if not stat.S_ISREG(mode):
                left_out.append(_warning(
                    "RC118", f"{path} is not a regular file (a pipe, a device or a socket): not checked", _entry(path),
                    "only .rally files are checked"))
                continue
            found.append(path)
    return found, left_out




def _entry(path: Path) -> Span:
    """Where a left-out folder entry is reported: the entry itself (its first line, as for RC118 at a `use`), so
    that a CI annotation lands on it."""
    return Span.point(str(path), 1, 1)


def _broken_link(path: Path) -> Diagnostic:
    """RC118 for a folder entry that is a link in a loop, or a link to nothing (or that vanished meanwhile)."""
    try:
        target = os.readlink(path)
    except OSError:
        return _warning("RC118", f"{path} cannot be read: not checked", _entry(path), "only .rally files are checked")
    try:
        path.stat()
    except OSError as e:
        if e.errno == errno.ELOOP:
            return _warning("RC118", f"{path} is a symbolic link in a loop (to {target}): not checked", _entry(path),
                            "remove the link, or point it at a .rally file")
    return _warning("RC118", f"{path} is a symbolic link to {target}, which does not exist: not checked", _entry(path),
                    "remove the link, or point it at a .rally file")


def _warning(code: str, message: str, span: Span | None, hint: str) -> Diagnostic:
    return Diagnostic.warning(code, message, span, hint)
