"""The CLI commands, one module per area; each module has ``register(app)``.

The modules are imported by :func:`command_modules` (when the typer app is built), not on importing
this package, so that the typer-free fast path (:mod:`rallyc.commands.checking`) stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

NAMES = ("lang", "tiles", "build", "replay", "play", "serve", "sheet", "render", "interop", "authoring", "analyze",
         "generate")


def command_modules() -> list[ModuleType]:
    """The command modules, in the order their commands are listed by ``rallyc --help``."""
    return [import_module(f"rallyc.commands.{n}") for n in NAMES]
