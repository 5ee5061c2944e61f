"""What rallyc reads from disk: a file with its includes and the tilesets in scope
(:mod:`rallyc.project.loader`), the settings file (:mod:`rallyc.project.config`), reading files and folders
(:mod:`rallyc.project.fileio`). Importing the package imports none of them.

Until issue 30 ``rallyc.project`` was the loader: its public names (``rallyc.project.load``, ...) are still read
through the package for one release, with a ``DeprecationWarning``; import them from :mod:`rallyc.project.loader`.
"""

from __future__ import annotations

import warnings
from importlib import import_module
from typing import Any

#: the loader's public names when it moved (its ``__all__``): deprecated aliases, read on first use
_MOVED = ("Loaded", "load", "load_text", "read_source", "decode_source", "bundled_tilesets", "scan_folder",
          "MAX_INCLUDE_DEPTH")


def __getattr__(name: str) -> Any:
    """A name of the loader read through the package (deprecated), or AttributeError as for any module."""
    if name not in _MOVED:
        raise AttributeError(f"module 'rallyc.project' has no attribute {name!r}")
    warnings.warn(f"rallyc.project.{name} is deprecated: import it from rallyc.project.loader (moved in rallyc's "
                  "issue 30)", DeprecationWarning, stacklevel=2)
    # by name, as rallyc.commands loads its modules: the loader (and the parser) only when an old name is read
    return getattr(import_module("rallyc.project.loader"), name)
