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


def _replay_with_loc_card(tmp_path: Path, seconds: int) -> subprocess.CompletedProcess:
    """The bundled failed Flat Out, its turn 11 (Ann's Loss of Control in Gear 4, a Spinout) claiming the seconds
    of the card's front."""
    data = json.loads(GAME.read_text())
    data["track"] = str(ROOT / "examples" / "rally-1.rally")
    data["stages"][0]["turns"][11]["card"]["seconds"] = seconds
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data, indent=1))
    return subprocess.run([sys.executable, "-m", "rallyc", "replay", str(path)], capture_output=True, text=True)


def test_the_front_of_a_loss_of_control_card_is_a_card_of_its_gear(tmp_path):
    """CORE-LOC-03: "the player takes a Time card of the gear the car was in at the LoC, flips it to its '0' side":
    the seconds a record states for that card's front are those of a Gear 4 card (20 s by the default table), never
    another gear's (CORE-TURNEND-04)."""
    r = _replay_with_loc_card(tmp_path, 50)
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "CORE-TURNEND-04" in out and "a Gear 4 card of this game adds 20 s, not 50 s" in out
    assert "turns[11].card.seconds" in out and "Traceback" not in out
    assert _replay_with_loc_card(tmp_path, 20).returncode == 0
