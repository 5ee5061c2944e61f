"""The replay overlay: cars at their spaces after a round, their gear, the path of their last turn (stages and RX races)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.render.document import MapOptions, render_map
from rallyc.render.overlay import cars_after_round, last_round, race_cars_after_round

from helpers.render import mini_track

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"

REPORT = {
    "stage": "SS1",
    "rounds": [
        {"round": 1, "turns": [
            {"player": "Ann", "start": None, "path": ["1.1.l", "1.2.l"], "end": "1.2.l", "gear": 2}]},
        {"round": 2, "turns": [
            {"player": "Ann", "start": "1.2.l", "path": ["1.3.l", "2.1.l", "2.1.r"], "end": "2.1.r", "gear": 3},
            {"player": "Bob", "start": None, "path": ["1.1.r"], "end": "1.1.r", "gear": 1}]},
        {"round": 3, "turns": [
            {"player": "Ann", "start": "2.1.r", "path": ["2.2.out1"], "end": "2.2.out1", "gear": 2}]},
    ],
}


def test_cars_after_a_round_take_their_last_turn():
    cars = cars_after_round(REPORT, 2, {"Ann": "red", "Bob": "blue"})
    assert [(c.name, c.space, c.gear) for c in cars] == [("Ann", "2.1.r", 3), ("Bob", "1.1.r", 1)]
    assert cars[0].path == ("1.2.l", "1.3.l", "2.1.l", "2.1.r")
    assert cars_after_round(REPORT, 0, {}) == []
    assert last_round(REPORT) == 3


def test_overlay_draws_each_car_with_its_gear_and_path():
    track = mini_track()
    cars = cars_after_round(REPORT, 2, {"Ann": "red", "Bob": "blue"})
    svg = render_map(track, None, title="t", cars=cars)[0]
    root = ET.fromstring(svg)
    drawn = {g.get("data-space"): g for g in root.iter(f"{SVG}g") if g.get("class") == "car"}
    assert sorted(drawn) == ["1.1.r", "2.1.r"]
    assert drawn["2.1.r"].find(f"{SVG}text").text == "A3"  # Ann's letter and gear
    paths = [p for p in root.iter(f"{SVG}path") if p.get("class") == "car-path"]
    assert [p.get("data-car") for p in paths] == ["red"]  # Bob's one-space turn has no line to draw


def test_standings_key_sums_time_cards_and_damage_up_to_the_round():
    """The key under the map: each car's colour, letter, name, gear, damage tokens and Time-card seconds."""
    report = {"rounds": [
        {"round": 1, "turns": [{"player": "Ann", "start": None, "path": ["1.1.l"], "end": "1.1.l", "gear": 2,
                                "card": {"seconds": 12}, "damage": []}]},
        {"round": 2, "turns": [{"player": "Ann", "start": "1.1.l", "path": ["1.2.l"], "end": "1.2.l", "gear": 3,
                                "card": {"seconds": 9}, "damage": ["engine"]}]},
        {"round": 3, "turns": [{"player": "Ann", "start": "1.2.l", "path": ["1.3.l"], "end": "1.3.l", "gear": 4,
                                "card": {"seconds": 60}, "damage": ["tyre"]}]},
    ]}
    cars = cars_after_round(report, 2, {"Ann": "blue"})
    assert [(c.damage, c.seconds) for c in cars] == [(1, 21)]
    svg = render_map(mini_track(), None, title="t", cars=cars, options=MapOptions(page="a4"))[0]
    rows = [e.text for e in ET.fromstring(svg).iter(f"{SVG}text") if e.get("class") == "standings-row"]
    assert rows == ["A  Ann   gear 3   damage 1   cards 0:21"]


# -- RX race records (rallyc.records.replay.replay_race): the grid, rounds, laps done and the Joker

ROOT = Path(__file__).resolve().parent.parent
RX1 = str(ROOT / "examples" / "rx-1.rally")
RX1_RACE = ROOT / "examples" / "games" / "rx-1-race.json"


def _claimed_after(round_no: int) -> dict[str, dict]:
    """Each player's last turn up to ``round_no`` as the record claims it (the replay checks these claims)."""
    last: dict[str, dict] = {}
    for turn in json.loads(RX1_RACE.read_text(encoding="utf-8"))["race"]["turns"]:
        if turn["round"] <= round_no:
            last[turn["player"]] = turn
    return last


def test_rx_race_overlay_after_round_5_puts_each_car_where_the_replay_says(tmp_path: Path):
    """RX-ROUND-01, RX-END-01, RX-JOKER-03: each car after round 5 on its end space, with gear, laps and Joker."""
    out = tmp_path / "rx5.svg"
    res = runner.invoke(app, ["render", RX1, "--record", str(RX1_RACE), "--round", "5", "-o", str(out)])
    assert res.exit_code == 0, res.output
    root = ET.parse(out).getroot()
    assert "after round 5" in "".join(root.itertext())
    drawn = {g.get("data-car"): g for g in root.iter(f"{SVG}g") if g.get("class") == "car"}
    claims = _claimed_after(5)
    colours = {p["name"]: p["colour"] for p in json.loads(RX1_RACE.read_text(encoding="utf-8"))["players"]}
    assert sorted(drawn) == sorted(colours[name] for name in claims)
    for name, turn in claims.items():
        g = drawn[colours[name]]
        assert g.get("data-space") == turn["end"], name
        texts = {t.get("class"): t.text for t in g.iter(f"{SVG}text")}
        assert texts["car-letter"] == name[0].upper() + str(turn["gear"])
        assert g.get("data-name") == name
        key = {t.get("data-car"): t.text for t in root.iter(f"{SVG}text") if t.get("class") == "standings-row"}
        assert key[colours[name]].startswith(f"{name[0].upper()}  {name}   gear {turn['gear']}")
        assert key[colours[name]].endswith(f"{turn['laps']}/3 laps, Joker {turn['joker']}")
    assert {t["joker"] for t in claims.values()} >= {"todo", "in"}  # the example shows both Joker states
    paths = {p.get("data-car") for p in root.iter(f"{SVG}path") if p.get("class") == "car-path"}
    assert paths == set(drawn)  # every car moved in round 5: each has a last-turn path


def test_rx_race_overlay_labels_laps_done_late_in_the_race():
    """RX-END-01, RX-JOKER-04: laps done count up; a car that finishes without its Joker is marked DSQ."""
    from rallyc.records.load import load_record
    from rallyc.records.replay import replay_record

    data = load_record(RX1_RACE)
    report = replay_record(data, RX1_RACE.parent)
    last = max(r["round"] for r in report.rounds)
    colours = {p["name"]: p["colour"] for p in data["players"]}
    cars = {c.name: c for c in race_cars_after_round(report.grid, report.rounds, last, colours, report.laps)}
    assert cars["Bob"].note == "3/3 laps, Joker done, FINISHED 1"
    assert cars["Ann"].note == "3/3 laps, Joker todo, DSQ"
    before = {c.name: c for c in race_cars_after_round(report.grid, report.rounds, 0, colours, report.laps)}
    assert {n: c.space for n, c in before.items()} == {g["player"]: g["space"] for g in report.grid}
    assert all(c.gear is None and c.path == () and c.note == "0/3 laps, Joker todo" for c in before.values())


def test_rx_race_overlay_round_out_of_range_exits_2(tmp_path: Path):
    """RX-ROUND-01: a race has rounds 1..last; anything else is a usage error with the range named."""
    for bad in ("0", "99"):
        out = tmp_path / "never.svg"
        res = runner.invoke(app, ["render", RX1, "--record", str(RX1_RACE), "--round", bad, "-o", str(out)])
        assert res.exit_code == 2
        assert f"has rounds 1 to 32, not {bad}" in res.output
        assert "Traceback" not in res.output and not out.exists()


def test_rx_race_overlay_refuses_a_stage_map():
    """A race record drawn on a rally stage is refused (not silently drawn elsewhere)."""
    res = runner.invoke(app, ["render", str(ROOT / "examples" / "rally-1.rally"), "--record", str(RX1_RACE)])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
