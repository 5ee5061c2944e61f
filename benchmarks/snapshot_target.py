"""The folder a snapshot script writes into (``replay_snapshot.py``, ``render_snapshot.py``,
``snapshot_outputs.py``), checked before anything in it is removed.

A snapshot is written into an empty folder, so one written before is emptied first. Only a folder that is
absent, empty, or holds nothing but what that script writes (its top-level folders) is used; any other folder
is refused with a message and exit code 2, so that a mistyped path (the home folder, a project) never loses
what it held. The repository itself and folders inside it are refused too: the snapshot would snapshot itself.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

__all__ = ["prepare"]


def prepare(parser: argparse.ArgumentParser, given: Path, root: Path, entries: frozenset[str]) -> Path:
    """The absolute folder to write into, emptied and created; ``parser.error`` (exit 2) if it may not be used.

    ``entries`` are the top-level folders the script writes (a folder holding only those is a snapshot written
    before, and is emptied)."""
    target = given.resolve()
    if target == root or root in target.parents:
        parser.error("write the snapshot outside the repository")
    if target.exists() or target.is_symlink():
        if not target.is_dir() or target.is_symlink():
            parser.error(f"{given}: not a folder")
        found = sorted(p.name for p in target.iterdir())
        strange = [name for name in found if name not in entries or not (target / name).is_dir()
                   or (target / name).is_symlink()]
        if strange:
            parser.error(f"{given}: not empty and not a snapshot written before (it holds {', '.join(strange[:3])}"
                         f"{', ...' if len(strange) > 3 else ''}); give an empty or new folder")
        for name in found:
            shutil.rmtree(target / name)
    target.mkdir(parents=True, exist_ok=True)
    return target
