"""The check the language server runs on every edit: the same as ``rallyc check`` on one file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rallyc.diagnostics import Diagnostic

if TYPE_CHECKING:  # for annotations only (imported where used, after the editor has started)
    from rallyc.project.loader import Loaded

__all__ = ["check_text", "option_specs"]


def check_text(text: str, display: str, base_dir: Path) -> tuple[Loaded, list[Diagnostic]]:
    """(loaded file, diagnostics) of source text whose includes are read relative to ``base_dir``
    (:func:`rallyc.api.check_text`: the project's settings and ``# rallyc: ignore`` comments apply)."""
    # start-up: the checker only once the editor has connected
    from rallyc.api import ConfigError, check_text as check

    try:
        return check(text, display, base_dir)
    except ConfigError:  # a broken settings file: `rallyc check` says what is wrong; the editor keeps checking
        return check(text, display, base_dir, settings=False)


def option_specs() -> dict:
    """The options a design may switch on, by name (from the one options registry)."""
    # start-up: the compiler and checks (networkx) only when a file is compiled
    from rallyc.checks.names import OPTIONS

    return OPTIONS
