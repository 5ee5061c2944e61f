"""The referee's folders (issue 30): the core turn, the variants and the drivers, the rally and the sketches beside
them; the old module paths the docs named still import, as the moved module, with a DeprecationWarning; the race
variant an option names exists."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from rallyc.rules.core.hooks import RACE_VARIANTS
from rallyc.rules.core.options import Options

RULES = Path(__file__).resolve().parent.parent / "rallyc" / "rules"

#: the folders of rallyc/rules/, and the modules beside them
FOLDERS = ["core", "drivers", "variants"]
BESIDE = ["__init__.py", "rally.py", "sketch.py"]

#: the module paths the docs named before the move (issue 30) -> where each module is now; aliases for one release
MOVED = {
    "bot": "drivers.bot", "contact": "variants.full_contact", "custom": "variants.custom",
    "damage_bag": "core.damage_bag", "dice": "core.dice", "domain": "core.domain", "driver": "core.driver",
    "engine": "core.engine", "invariants": "core.invariants", "machine": "core.machine", "options": "core.options",
    "plans": "core.plans", "race": "core.race", "race_format": "core.race_format", "rolling": "core.rolling",
    "rulelog": "core.rulelog", "state": "core.state", "tour": "variants.tour", "trace": "core.trace",
}


def test_the_referee_is_three_folders_and_the_rally_beside_them():
    folders = sorted(p.name for p in RULES.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == FOLDERS
    loose = sorted(p.name for p in RULES.glob("*.py") if p.name not in BESIDE)
    assert loose == sorted(f"{old}.py" for old in MOVED), "a module beside the folders that is no deprecated alias"


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_is_the_moved_module_with_a_warning(old):
    new = f"rallyc.rules.{MOVED[old]}"
    sys.modules.pop(f"rallyc.rules.{old}", None)  # (imported before by another test: import it again)
    with pytest.warns(DeprecationWarning, match=f"rallyc.rules.{old} is deprecated: import {new}"):
        got = importlib.import_module(f"rallyc.rules.{old}")
    assert got is importlib.import_module(new)


def test_each_race_variant_an_option_names_exists():
    for option, (module, name) in RACE_VARIANTS.items():
        assert hasattr(Options(), option)
        assert module.startswith("rallyc.rules.variants.")
        assert callable(getattr(importlib.import_module(module), name))
