"""Name checks (check_names): duplicates, unknown tiles/boxes/options, malformed ids (RC12x-RC14x)."""

from __future__ import annotations

from rallyc.checks.names import OPTIONS, check_names
from rallyc.codes import all_codes
from rallyc.project.loader import load_text
from rallyc.tiles.catalogue import Catalogue


def names(text: str, tmp_path=None):
    loaded = load_text(text, "t.rally", base_dir=tmp_path)
    assert loaded.diagnostics == [], loaded.diagnostics
    return check_names(loaded, Catalogue.from_tilesets(loaded.tilesets))


def codes(text: str, tmp_path=None):
    return [(d.code, d.span.line if d.span else None) for d in names(text, tmp_path)]


def test_clean_rally_has_no_name_problems():
    text = """use dirt-core
boxes dirt-core
rally "R" {
  stage SS1 {
    202a
    210b left
  }
  stage SS2 {
    202a
  }
  options sisu per-rally, flying-start, redline
}
"""
    assert names(text) == []


def test_duplicate_stage_in_rally_points_at_second_with_note_on_first():
    """CORE-RALLY-01: each stage's time is recorded by stage, so names must differ."""
    d = names('rally "R" {\n  stage SS1 {\n    202a\n  }\n  stage SS1 {\n    202a\n  }\n}\n')
    assert [(x.code, x.span.line) for x in d] == [("RC120", 5)]
    assert d[0].related[0][0].line == 2


def test_duplicate_one_off_stages_in_a_file():
    assert codes("stage A {\n  202a\n}\nstage A {\n  202a\n}\n") == [("RC120", 4)]


def test_same_stage_name_in_two_rallies_is_fine():
    assert codes('rally "R1" {\n  stage SS1 {}\n}\nrally "R2" {\n  stage SS1 {}\n}\n') == []


def test_unknown_tile_with_did_you_mean():
    d = names("stage A {\n  202a\n  210c left\n  299a\n}\n")
    assert [(x.code, x.span.line, x.span.column) for x in d] == [("RC131", 3, 3), ("RC130", 4, 3)]
    assert "`210a` or `210b`" in d[0].hint
    assert "did you mean" in d[1].hint


def test_unknown_scenery_tile():
    assert codes("stage A {\n  202a\n  scenery 999a at 1 1 rot 0\n}\n") == [("RC130", 3)]


def test_malformed_tile_ids():
    assert codes("stage A {\n  21b\n  2100a\n}\n") == [("RC131", 2), ("RC131", 3)]


def test_aliases_and_case_are_accepted():
    assert codes("stage A {\n  202A\n}\n") == []


def test_duplicate_tile_in_tileset_and_duplicate_tileset(tmp_path):
    text = ("tileset mine {\n  tile 210b gravel danger low {}\n  tile 210B gravel danger low {}\n}\n"
            "tileset mine {\n}\n")
    assert sorted(codes(text, tmp_path)) == [("RC121", 5), ("RC122", 3)]


def test_project_tileset_may_replace_a_bundled_one_once():
    assert codes("tileset dirt-core {\n  tile 202a gravel danger low {}\n}\n") == []


def test_unknown_box_with_hint():
    d = names("boxes dirt-core dirt-cor\n")
    assert [(x.code, x.span.column) for x in d] == [("RC140", 17)]
    assert "dirt-core" in d[0].hint


def test_box_listed_twice_is_a_warning():
    d = names("boxes dirt-core dirt-core\n")
    assert [(x.code, x.severity.value) for x in d] == [("RC145", "warning")]


def test_unknown_option_with_did_you_mean():
    """CORE-ADV-01 Flying Start is spelt flying-start."""
    d = names('rally "R" {\n  options sisu, flyingstart\n}\n')
    assert [(x.code, x.span.line) for x in d] == [("RC141", 2)]
    assert "flying-start" in d[0].hint


def test_duplicate_option():
    assert codes('rally "R" {\n  options sisu per-rally\n  options sisu per-stage\n}\n') == [("RC142", 3)]


def test_option_values():
    """CORE-ADV-15: SISU comes back per stage, per rally or after Assistance."""
    assert codes('rally "R" {\n  options sisu per-lap\n}\n') == [("RC143", 2)]
    assert codes('rally "R" {\n  options redline 3\n}\n') == [("RC143", 2)]
    assert codes('circuit "C" {\n  options race-type\n}\n') == [("RC143", 2)]
    assert codes('rally "R" {\n  options sisu assistance, weather wet\n}\n') == []


def test_laps_repeated():
    """TRACK-RX-09: a race has one number of laps."""
    assert codes('circuit "C" {\n  laps 3\n  laps 4\n}\n') == [("RC144", 3)]


def test_every_name_code_and_option_is_registered():
    registry = all_codes()
    for code in ("RC001", "RC100", "RC101", "RC102", "RC103", "RC104", "RC105", "RC106", "RC107", "RC108",
                 "RC110", "RC111", "RC112", "RC113", "RC120", "RC121", "RC122", "RC130", "RC131",
                 "RC140", "RC141", "RC142", "RC143", "RC144", "RC145"):
        info = registry[code]
        assert info.summary and info.explanation and info.example and info.fix
    assert {"sisu", "flying-start", "redline", "checkpoints", "one-shot", "handbrake", "weather",
            "full-contact", "improvisation"} <= set(OPTIONS)


def test_every_code_the_language_modules_emit_is_registered():
    """Codes written in the parser, loader, formatter, name checks and language commands all exist."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "rallyc"
    files = ["syntax/parser.py", "syntax/formatter.py", "project/loader.py", "checks/names.py", "commands/lang.py"]
    emitted = {c for f in files for c in re.findall(r'"(RC\d{3})"', (root / f).read_text(encoding="utf-8"))}
    assert emitted and emitted <= set(all_codes())
