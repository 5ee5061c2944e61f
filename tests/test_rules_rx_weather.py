"""The RX Weather rule (an RX advanced rule, not the Monte-Carlo Weather: Ambiguity 22): the starting weather,
tire choice, Weather tokens in the bag, the Dashboards turned over, only the first token counting."""

import json
from pathlib import Path

import pytest

import rallyc
from rallyc.records.load import parse_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_race
from rallyc.rules import IllegalMove, Player
from rallyc.rules.core.dice import Die
from rallyc.rules.core.race import Race
from rallyc.rules.core.rx_dashboard import loc_damage
from rallyc.rules.core.turn import Roll, Turn

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rx1():
    return rallyc.load(ROOT / "examples/rx-1.rally").tracks[0]


def go(die, to, face="ok"):
    return Roll(Die(die, to), face)


def test_start_weather_and_tires(rx1):
    """RX-WEATHER-01 RX-WEATHER-02 RX-SETUP-04 RX-DASH-02: the race starts Dry or Wet; each player picks Asphalt
    or Rain tires, Rain tires only with the Weather rule; the Dashboard side follows the weather."""
    with pytest.raises(ValueError, match="Rain tires only"):
        Race(rx1, [Player("Ann", "red", tires="rain")])
    with pytest.raises(ValueError, match="dry or wet"):
        Race(rx1, [Player("Ann", "red")], weather="snowy")
    dry = Race(rx1, [Player("Ann", "red"), Player("Bob", "blue", tires="rain")], weather="dry")
    a, _ = dry.context("Ann")
    assert (a.allowance.coast_die, a.allowance.brake) == ("coast", 1)
    dry.play(Turn("Ann", [go("gear1", "12.3.l")]))
    b, _ = dry.context("Bob")
    assert b.allowance.brake == 2  # RX-WEATHER-06: Rain tires in the dry, 1+1 Brake dice
    wet = Race(rx1, [Player("Ann", "red"), Player("Bob", "blue", tires="rain")], weather="wet")
    a, _ = wet.context("Ann")
    assert a.allowance.coast_die == "leader" and a.allowance.coast == 3  # RX-WEATHER-05


def test_asphalt_tires_in_the_wet_use_leader_dice(rx1):
    """RX-WEATHER-05: Asphalt tires in the wet coast with Leader dice, not the Coast die."""
    r = Race(rx1, [Player("Ann", "red")], weather="wet")
    r.set_car("Ann", "1.1.l", gear=2, crossed=1)
    with pytest.raises(IllegalMove):
        r.play(Turn("Ann", [go("coast", "1.2.l")]))
    assert r.play(Turn("Ann", [go("leader", "1.2.l")])).gear == 2


def test_weather_token_turns_every_dashboard(rx1):
    """RX-WEATHER-03 RX-WEATHER-04 RX-WEATHER-07: the 6 Weather tokens are in the bag; the first one drawn (here
    at a Loss of Control) turns every Dashboard over from the next turn; a later one is discarded and
    replaced by another draw."""
    r = Race(rx1, [Player("Ann", "red"), Player("Bob", "blue")], weather="dry")
    assert r.damage_bag()["weather"] == 6
    r.set_car("Ann", "4.2.r", gear=4, crossed=1)
    r.set_car("Bob", "1.1.l", gear=2, crossed=1)
    n = loc_damage(r.components, 5, "medium")
    assert n == 2
    out = r.play(Turn("Ann", [go("gear5", "4.3.out1")], damage=["weather", "gear"]))
    assert out.weather == "wet" and r.weather == "wet" and r.cars["Ann"].damage == {"gear": 1}
    ctx, _ = r.context("Bob")
    assert ctx.allowance.coast_die == "leader"
    r.play(Turn("Bob", [go("gear2", "1.2.l")]))
    # a second Weather token: discarded, replaced; the weather does not change back
    r.set_car("Bob", "4.2.r", gear=4, crossed=1)
    r.set_car("Ann", "1.1.l", gear=1, crossed=1)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Bob", [go("gear5", "4.3.out1")], damage=["weather", "gear"]))
    assert e.value.rule_id == "RX-LOC-04" and "RX-WEATHER-07" in e.value.message
    out = r.play(Turn("Bob", [go("gear5", "4.3.out1")], damage=["weather", "gear", "brake"]))
    assert out.weather is None and r.weather == "wet" and r.cars["Bob"].damage == {"gear": 1, "brake": 1}
    assert r.bag_left() == 48 + 6 - 5


def test_no_weather_token_without_the_rule(rx1):
    """RX-WEATHER-03: without the Weather rule the bag holds no Weather token."""
    r = Race(rx1, [Player("Ann", "red")])
    assert "weather" not in r.damage_bag()
    r.set_car("Ann", "4.2.r", gear=4, crossed=1)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [go("gear5", "4.3.out1")], damage=["weather", "gear"]))
    assert e.value.rule_id == "RX-WEATHER-03"


@pytest.mark.parametrize("seed", [0, 4])
def test_bot_weather_races_replay(rx1, seed):
    """RX-WEATHER-04 RX-WEATHER-07: bot races with the Weather rule replay from JSON, the weather changing once."""
    players = [Player("Ann", "red", tires="rain"), Player("Bob", "blue"), Player("Cleo", "green", tires="rain")]
    rec = bot_race_record(rx1, players, seed=seed, weather="dry", header={"track": "../rx-1.rally"})
    assert rec["race"]["weather"] == "dry" and rec["players"][0]["tires"] == "rain"
    changes = [t for t in rec["race"]["turns"] if "weather" in t]
    assert len(changes) == 1 and changes[0]["weather"] == "wet"
    report = replay_race(parse_record(json.dumps(rec)), ROOT / "examples/games")
    assert report.ok, f"{report.error.path}: {report.error}"
    assert "the weather turns wet" in report.to_text()
    bad = json.loads(json.dumps(rec))
    i = rec["race"]["turns"].index(changes[0])
    bad["race"]["turns"][i]["weather"] = "dry"
    report = replay_race(parse_record(json.dumps(bad)), ROOT / "examples/games")
    assert report.error.rule_id == "RX-WEATHER-04" and report.error.path == f"$.race.turns[{i}].weather"
