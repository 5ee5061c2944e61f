"""The CLI commands, one module per area; each module has ``register(app)``."""

from __future__ import annotations

from importlib import import_module

_NAMES = ("lang", "tiles", "build", "replay", "render", "interop", "authoring", "analyze")

COMMAND_MODULES = [import_module(f"rallyc.commands.{n}") for n in _NAMES]
