"""Deprecated alias of :mod:`rallyc.commands.cli`, the typer app (moved in issue 30); it goes in the next release.

Importing it warns (``DeprecationWarning``) and gives the app and its ``main``.
"""

from __future__ import annotations

import warnings

from rallyc.commands.cli import app, main

__all__ = ["app", "main"]

warnings.warn("rallyc.cli is deprecated: import rallyc.commands.cli (moved in rallyc's issue 30)",
              DeprecationWarning, stacklevel=2)
