"""The public API: rallyc.load(path, stage=None) -> Design; DiagnosticError on errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import rallyc
from rallyc.diagnostics import DiagnosticError

ROOT = Path(__file__).resolve().parent.parent


def test_load_rally_in_order():
    """CORE-RALLY-01: a rally's stages in driving order, options and meta from the file."""
    design = rallyc.load(ROOT / "examples" / "rally-1.rally")
    assert design.kind == "rally" and design.title == "Rally 1"
    assert [t.name for t in design.tracks] == ["SS1", "SS2", "SS3"]
    assert design.meta["source"].startswith("Rallyman: DIRT rulebook")
    assert design.track("SS2").start_spaces


def test_load_one_stage():
    design = rallyc.load(ROOT / "examples" / "rally-1.rally", stage="SS3")
    assert [t.name for t in design.tracks] == ["SS3"]
    with pytest.raises(KeyError):
        rallyc.load(ROOT / "examples" / "rally-1.rally", stage="SS7")


def test_load_raises_with_located_diagnostics(tmp_path):
    f = tmp_path / "bad.rally"
    f.write_text("stage S {\n  202a\n  210b straight\n  203a\n}\n")
    with pytest.raises(DiagnosticError) as e:
        rallyc.load(f)
    assert [(d.code, d.span.line) for d in e.value.diagnostics] == [("RC202", 3)]


def test_options_and_author(tmp_path):
    f = tmp_path / "r.rally"
    f.write_text('rally "R" by "Me" {\n  stage S {\n    202a\n    205a\n    206a\n    207a\n'
                 '    204a\n    203a\n  }\n  options sisu per-rally, flying-start\n}\n')
    design = rallyc.load(f)
    assert design.author == "Me"
    assert design.options == {"sisu": "per-rally", "flying-start": None}
