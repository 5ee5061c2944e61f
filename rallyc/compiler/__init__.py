"""The build: AST to Track, placement of tiles on the hex grid and the graph of spaces.

A stage or circuit is built into a complete :class:`~rallyc.compiler.stage.StageBuild` /
:class:`~rallyc.compiler.stage.CircuitBuild` (:func:`~rallyc.compiler.stage.build_stage`,
:func:`~rallyc.compiler.circuit.build_circuit`) that the checks (:mod:`rallyc.checks`) only read;
:mod:`rallyc.compilation.pipeline` compiles a whole file (build, then checks).

- ``compile_flipped(stage_ast, catalogue, flipped_steps) -> Track``: a stage with some tiles on
  their other side, in place (Monte-Carlo Weather); ``Design.flipper(name)`` keeps what it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The same names imported for the type checker, each from the module __getattr__ loads it from: import-linter and
# grimp count these imports, so the edges from the package to those modules stay in the contracts' import graph
# (tests/test_layers.py)
if TYPE_CHECKING:
    from rallyc.compiler.design import AreaDesign, CompileResult, Design
    from rallyc.compiler.flipper import Flipper, compile_flipped
    from rallyc.compiler.placed import PlacedTile
    from rallyc.compiler.track import Space, Track

__all__ = ["CompileResult", "Design", "AreaDesign", "compile_flipped", "Flipper", "Track", "Space", "PlacedTile"]

# start-up: the names are read from their modules on first use (PEP 562), so that importing one module of the
# package (the placement, for `rallyc suggest`) does not import the track's graph (networkx) with it
_HOME = {"CompileResult": "design", "Design": "design", "AreaDesign": "design", "compile_flipped": "flipper",
         "Flipper": "flipper", "Track": "track", "Space": "track", "PlacedTile": "placed"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
