"""The one options registry (rallyc.model.options): names, aliases, rule IDs, who sets what, variants."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rallyc.checks.names import OPTIONS as LANGUAGE_OPTIONS
from rallyc.model import options as registry
from rallyc.model.options import OPTIONS, Chooser, Variant, canonical, lookup, unrefereed

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = set(re.findall(r"^\| ([A-Z][A-Z0-9-]*-\d+) ", (ROOT / "tests/data/rules/INVENTORY.md")
                           .read_text(encoding="utf-8"), re.M))


def test_every_rule_id_of_an_option_is_in_the_inventory():
    missing = {o.name: [r for r in o.rules if r not in INVENTORY] for o in OPTIONS.values()}
    assert {k: v for k, v in missing.items() if v} == {}
    assert all(o.rules for o in OPTIONS.values())


def test_the_records_underscored_spelling_is_an_alias():
    assert lookup("flying_start") is OPTIONS["flying-start"]
    assert lookup("flying-start") is OPTIONS["flying-start"]
    assert canonical("one_shot") == "one-shot" and canonical("race_type") == "race-type"
    assert lookup("flyingstart") is None and canonical("nope") is None


def test_who_sets_what():
    """Advanced rules and weather are the players' choice; a custom race's choices and laps are the design's."""
    players = {n for n, o in OPTIONS.items() if o.chooser is Chooser.PLAYERS}
    design = {n for n, o in OPTIONS.items() if o.chooser is Chooser.DESIGN}
    assert {"sisu", "flying-start", "redline", "checkpoints", "one-shot", "handbrake", "weather"} <= players
    assert design == {"race-type", "track-rules", "repairs", "damage-bag", "laps"}


def test_full_contact_is_refereed_by_rx_and_improvisation_too():
    names = [o.name for o in unrefereed(OPTIONS)]
    assert "full-contact" not in names and "improvisation" not in names
    assert "sisu" not in names
    assert OPTIONS["full-contact"].variants == {Variant.RX}  # rallyc.rules.variants.full_contact
    assert [o.name for o in unrefereed(["full-contact"], Variant.RALLY)] == ["full-contact"]
    assert [o.name for o in unrefereed(["sisu", "flying-start"], Variant.RX)] == ["sisu"]


def test_the_language_reads_the_registry():
    """The check's option table is the registry's (minus what has a statement of its own, like laps)."""
    assert all(LANGUAGE_OPTIONS[n] is OPTIONS[n] for n in LANGUAGE_OPTIONS)
    assert set(OPTIONS) - set(LANGUAGE_OPTIONS) == {"laps"}


def test_record_schema_of_an_option():
    assert OPTIONS["redline"].record_schema()["type"] == "boolean"
    assert OPTIONS["sisu"].record_schema()["enum"] == [False, True, None, "per-stage", "per-rally", "assistance"]
    assert OPTIONS["race-type"].record_schema()["enum"] == [None, "head-to-head", "time-trial"]
    assert OPTIONS["laps"].record_schema()["type"] == "integer"


def test_the_model_imports_nothing_else_of_rallyc():
    tree = ast.parse(Path(registry.__file__).read_text(encoding="utf-8"))
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)] + \
               [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m and m.startswith("rallyc")]


def test_the_record_schema_options_are_the_registry():
    """schemas/game.schema.json holds the registry's options (regenerate with record_options_schema())."""
    import json

    schema = json.loads((ROOT / "schemas/game.schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["options"] == registry.record_options_schema()
