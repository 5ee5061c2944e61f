"""A record's Time-card table (`cards`, rallyc-game/2) is checked against what the rulebooks allow, with a located
error: "higher gears add fewer seconds" (CORE-TURNEND-04), a "0" side adds more seconds than any gear card
(CORE-LOC-04), the Spare Tire card is turned to its "0" gear side (CORE-SPARE-03), a SISU card loses little time
(CORE-LOC-10: fewer seconds than a "0" side)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "games" / "rally-1-ss1-failed-flat-out.json"


def _replay(tmp_path: Path, cards: dict) -> subprocess.CompletedProcess:
    data = json.loads(GAME.read_text())
    data["format"] = "rallyc-game/2"
    data["track"] = str(ROOT / "examples" / "rally-1.rally")
    data["cards"] = cards
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data, indent=1))
    return subprocess.run([sys.executable, "-m", "rallyc", "replay", str(path)], capture_output=True, text=True)


@pytest.mark.parametrize("cards, where, words", [
    ({"gears": {"4": 45}}, "$.cards.gears.4", "higher gears add fewer seconds"),  # rises with the gear
    ({"gears": {"2": [40, 55]}}, "$.cards.gears.2", "a Gear 2 card adds 40 s or 55 s"),
    ({"sisu": 500}, "$.cards.sisu", "SISU card loses little time"),
    ({"spare_tire": 20}, "$.cards.spare_tire", "Spare Tire card"),
    ({"zero": 45}, "$.cards.zero", "CORE-LOC-04"),
])
def test_a_card_table_the_rulebooks_do_not_allow_is_refused_where_it_is_written(tmp_path, cards, where, words):
    r = _replay(tmp_path, cards)
    assert r.returncode == 1, r.stderr
    out = r.stdout + r.stderr
    assert where in out and words in out and "Traceback" not in out
    line = next(ln for ln in out.splitlines() if where in ln)
    assert "game.json:" in line  # file:line:col of the table in the record


def test_a_table_the_rulebooks_allow_replays(tmp_path):
    r = _replay(tmp_path, {"gears": {"3": [30, 35]}, "zero": 60, "sisu": 25, "spare_tire": 65})
    assert r.returncode == 0, r.stdout + r.stderr
