"""Ice racing (rallyc.rules.core.race with the ICE race format) on the published Ice Track 1: a Head-to-Head on a
closed circuit under Speed Track rules, ICE Dashboards, Boost die, no weather, no pit stops. Each test names
its ICE (and CUSTOM) rule IDs."""

import json
from pathlib import Path

import jsonschema
import pytest

import rallyc
from rallyc.data import load_components
from rallyc.records.load import RecordError
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_record
from rallyc.rules import Player
from rallyc.rules.core.race import Race
from rallyc.rules.core.race_format import ICE, RX, damage_set
from rallyc.rules.core.rx_dashboard import loc_damage, rx_allowance

ROOT = Path(__file__).resolve().parents[1]
PRO = [Player("Ann", "red", "ice", "pro"), Player("Bob", "blue", "ice", "pro")]


@pytest.fixture(scope="module")
def ice1():
    return rallyc.load(ROOT / "examples/ice-track-1.rally").tracks[0]


def test_ice_track_is_a_closed_circuit_without_joker(ice1):
    """ICE-01 ICE-02: Ice Track 1 is a circuit of snow tiles; with no Joker on it, a car finishes without one."""
    assert ice1.kind == "circuit"
    surfaces = {ice1.space(s).surface for s in ice1.spaces}
    assert surfaces == {"snow"}
    race = Race(ice1, PRO, race_format=ICE)
    assert race.joker_rule is False
    assert Race(rallyc.load(ROOT / "examples/rx-1.rally").tracks[0], [Player("Ann", "red")]).joker_rule is True


def test_ice_dashboards_one_side_for_all(ice1):
    """ICE-03: every player takes an ICE Dashboard, all on the same side (ICE or ICE PRO)."""
    race = Race(ice1, [Player("Ann", "red", "ice", "standard"), Player("Bob", "blue", "ice", "standard")],
                race_format=ICE)
    assert {c.dashboard.name for c in race.cars.values()} == {"ice-standard"}
    with pytest.raises(ValueError, match="ICE-03"):
        Race(ice1, [Player("Ann", "red", "ice", "standard"), Player("Bob", "blue", "ice", "pro")], race_format=ICE)
    with pytest.raises(ValueError, match="ICE-03"):
        Race(ice1, [Player("Ann", "red", "ice", "rain")], race_format=ICE)


def test_ice_dashboard_has_boost_die_and_one_pool(ice1):
    """ICE-04 CUSTOM-08: the ICE Dashboard has a green Boost die and one dice pool on every surface."""
    comp = load_components()
    for side in ("standard", "pro"):
        dash = comp.dashboard("ice", side)
        assert list(dash.columns) == ["dry"]
        assert rx_allowance(dash, {}).boost >= 1
    assert rx_allowance(comp.dashboard("ice", "pro"), {}).boost > rx_allowance(comp.dashboard("ice", "standard"),
                                                                                {}).boost
    race = Race(ice1, PRO, race_format=ICE)
    ctx, _ = race.context()
    assert ctx.allowance.boost == 2


def test_no_weather_in_an_ice_race(ice1):
    """ICE-05: no weather changes: the Weather rule is refused and the bag holds no Weather token."""
    with pytest.raises(ValueError, match="ICE-05"):
        Race(ice1, PRO, race_format=ICE, weather="dry")
    assert "weather" not in Race(ice1, PRO, race_format=ICE).damage_bag()


def test_ice_bag_is_the_gt_set_and_loc_is_forgiving(ice1):
    """ICE-01 CUSTOM-13 CUSTOM-18: Speed Track rules: the GT Damage set, LoC damage read from the ICE Dashboard
    (assumption ice_loc_damage), never more than the RX table."""
    comp = load_components()
    race = Race(ice1, PRO, race_format=ICE)
    assert race.damage_bag() == damage_set(comp, "gt")
    assert sum(race.damage_bag().values()) == 36
    for danger in ("low", "medium", "high"):
        for gear in range(6):
            assert loc_damage(comp, gear, danger, ICE.loc_table) <= loc_damage(comp, gear, danger, RX.loc_table)
    assert loc_damage(comp, 4, "medium", ICE.loc_table) < loc_damage(comp, 4, "medium", RX.loc_table)


def test_no_pit_stops_in_an_ice_race(ice1):
    """ICE-06: no repairs during an Ice race: a turn with a Spare Tire is refused."""
    from rallyc.rules import IllegalMove
    from rallyc.rules.core.turn import Turn

    race = Race(ice1, PRO, race_format=ICE)
    with pytest.raises(IllegalMove):
        race.play(Turn(player=race.to_move(), dice=[], spare_tire=True))


@pytest.mark.parametrize("seed", [0, 1])
def test_bot_ice_race_replays_cleanly(ice1, seed):
    """ICE-01..06: a bot race on Ice Track 1 is recorded (schema-valid), replays cleanly from JSON and
    finishes both cars without a Joker lap."""
    rec = bot_race_record(ice1, PRO, seed=seed, race_format=ICE, header={"track": "ice-track-1.rally"})
    data = json.loads(json.dumps(rec))
    jsonschema.validate(data, json.loads((ROOT / "schemas/game.schema.json").read_text()))
    assert data["race"]["format"] == "ice" and {p["car"] for p in data["players"]} == {"ice"}
    report = replay_record(data, ROOT / "examples")
    assert report.ok, report.error
    assert sorted(report.result["order"]) == ["Ann", "Bob"]
    assert "Ice race on Ice Track 1" in report.to_text()


def test_ice_record_tampered_is_refused(ice1):
    """ICE-03: a record claiming RX cars in an Ice race, or an unknown format, is a located error."""
    rec = bot_race_record(ice1, PRO, seed=0, race_format=ICE, header={"track": "ice-track-1.rally"})
    bad = json.loads(json.dumps(rec))
    bad["players"][0]["car"] = "rx"
    with pytest.raises(RecordError) as e:
        replay_record(bad, ROOT / "examples")
    assert e.value.path == "$.players[0].car"
    bad = json.loads(json.dumps(rec))
    bad["race"]["format"] = "gt"
    with pytest.raises(RecordError) as e:
        replay_record(bad, ROOT / "examples")
    assert e.value.path == "$.race.format"
    # the same turns under RX rules (RX Dashboards, RX bag) are not this game
    bad = json.loads(json.dumps(rec))
    del bad["race"]["format"]
    for p in bad["players"]:
        p["car"], p["tires"] = "rx", "asphalt"
    assert not replay_record(bad, ROOT / "examples").ok


def test_recorded_ice_race_example_replays():
    """ICE-01 ICE-04: the recorded Ice Track 1 race (examples/games, rallyc.records.examples) replays cleanly
    through the CLI, with no Joker owed on a circuit without one and Boost dice rolled."""
    import subprocess
    import sys

    path = ROOT / "examples/games/ice-track-1-race.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    report = replay_record(data, path.parent)
    assert report.ok, report.error
    assert report.result["order"] and not report.result["disqualified"]
    assert {t["joker"] for t in data["race"]["turns"]} == {"none"}
    assert any(d.get("boost") for t in data["race"]["turns"] for d in t["dice"])
    r = subprocess.run([sys.executable, "-m", "rallyc", "replay", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Ice race on Ice Track 1" in r.stdout and "Joker" not in r.stdout
