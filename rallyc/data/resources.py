"""Where the bundled grammar, tilesets and schemas are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _find(name: str) -> Path:
    # In a wheel the top-level folders are installed as rallyc/<name>;
    # in a checkout (editable install or running from source) they sit beside the package.
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"rallyc is installed without its {name}/ folder")


def grammar_path() -> Path:
    """The one grammar file, ``rallyc.lark``."""
    return _find("grammar") / "rallyc.lark"


def tilesets_dir() -> Path:
    """The folder of bundled tilesets (one ``.rally`` file per box)."""
    return _find("tilesets")


def examples_dir() -> Path:
    """The folder of bundled example designs (the published rallies the suggestions learn from)."""
    return _find("examples")


def schemas_dir() -> Path:
    """The folder of bundled JSON Schemas."""
    return _find("schemas")
