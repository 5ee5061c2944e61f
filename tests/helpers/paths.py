"""Where the tests' inputs live: all inside the repository (no test reads a path outside it)."""

from __future__ import annotations

from pathlib import Path

#: the repository's top folder
ROOT = Path(__file__).resolve().parents[2]
#: the published stages, rallies and circuits, and the recorded games (``examples/games``)
EXAMPLES = ROOT / "examples"
#: one bad file per kind of mistake (``tests/bad``)
BAD = ROOT / "tests" / "bad"
#: copies of the shared facts the tests check against (``tests/data``, see its README)
DATA = ROOT / "tests" / "data"
