"""The check the language server runs on every edit: the same as ``rallyc check`` on one file."""

from __future__ import annotations

from pathlib import Path

from rallyc.diagnostics import Diagnostic

__all__ = ["check_text", "option_specs"]


def check_text(text: str, display: str, base_dir: Path) -> tuple[object, list[Diagnostic]]:
    """(loaded file, diagnostics) of source text whose includes are read relative to ``base_dir``."""
    from rallyc.commands.lang import check_loaded
    from rallyc.project import load_text

    loaded = load_text(text, display, base_dir=base_dir)
    return loaded, check_loaded(loaded)


def option_specs() -> dict:
    """The options a design may switch on, by name (from the one options registry)."""
    from rallyc.checks.names import OPTIONS

    return OPTIONS
