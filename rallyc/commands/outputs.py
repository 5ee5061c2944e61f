"""Output files of the commands: never write over an input, and say plainly why a write failed.

Every command with ``-o FILE`` asks :func:`output_problem` before it writes anything, then writes
with :func:`write_output` (atomic, through :func:`rallyc.project.fileio.write_atomic`). Messages name the
file the user typed, never the temporary file beside it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from rallyc.project.fileio import write_atomic

__all__ = ["output_problem", "write_output", "write_error"]


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def output_problem(output: Path, inputs: Iterable[Path | None] = ()) -> str | None:
    """Why ``output`` must not be written (a folder, or one of ``inputs``), or None when it may be."""
    if output.is_dir():
        return f"{output} is a folder; name a file to write"
    if output.exists():
        for given in inputs:
            if given is not None and _same(output, given):
                return f"{output} is the input file {given}: writing it would overwrite the input; name another file"
    return None


def write_error(output: Path, e: OSError) -> str:
    """A message for a failed write of ``output`` that names it (not the temporary file)."""
    parent = output.parent if str(output.parent) else Path(".")
    if not parent.exists():
        return f"cannot write {output}: folder {parent} does not exist"
    if not parent.is_dir():
        return f"cannot write {output}: {parent} is not a folder"
    if output.is_dir():
        return f"cannot write {output}: it is a folder"
    return f"cannot write {output}: {e.strerror or e}"


def write_output(output: Path, text: str) -> str | None:
    """Write ``text`` to ``output`` atomically (through a symbolic link to its target); None or why not."""
    target = Path(os.path.realpath(output)) if output.is_symlink() else output
    try:
        write_atomic(target, text)
    except OSError as e:
        return write_error(output, e)
    return None
