"""Regression tests for the referee bugs of issue 9 found by playing and fuzzing (each failed before its fix)."""

import copy
import json
from pathlib import Path

import pytest

import rallyc
from rallyc.records.load import RecordError, parse_record
from rallyc.records.race import bot_race_record, replay_race
from rallyc.records.replay import replay_record
from rallyc.rules import IllegalMove, Options, Player
from rallyc.rules.dice import Die
from rallyc.rules.race import Race
from rallyc.rules.turn import Roll, Turn

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "examples" / "games"
FOUR = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]


@pytest.fixture(scope="module")
def rx1():
    return rallyc.load(ROOT / "examples/rx-1.rally").tracks[0]


def roll(die, to, face="ok"):
    return Roll(Die(die, to), face)


def game(name: str) -> dict:
    return json.loads((GAMES / name).read_text(encoding="utf-8"))


def test_rally_is_importable_from_rallyc_rules():
    """The README's `from rallyc.rules import Rally` works."""
    from rallyc.rules import Rally
    from rallyc.rules.rally import Rally as Defined

    assert Rally is Defined


def test_two_players_with_one_colour_are_refused(rx1):
    """CORE-SETUP-06: each player takes the car of one colour; a record giving two players the same colour is a
    located error, and so is a Stage, a Rally or a Race built that way."""
    data = game("rally-5-ss1-jump-water.json")
    data["players"][1]["colour"] = data["players"][0]["colour"].upper()
    with pytest.raises(RecordError) as exc:
        replay_record(data, GAMES)
    assert exc.value.path == "$.players[1].colour" and "CORE-SETUP-06" in exc.value.message
    race_data = game("rx-1-race.json")
    race_data["players"][2]["colour"] = race_data["players"][0]["colour"]
    with pytest.raises(RecordError) as exc:
        replay_race(race_data, GAMES)
    assert exc.value.path == "$.players[2].colour"
    with pytest.raises(ValueError, match="CORE-SETUP-06"):
        Race(rx1, [Player("Ann", "red"), Player("Bob", "red")])


def _first_finish(report) -> int:
    """Index (in the record's turn list) of the turn in which the first car finished."""
    i = 0
    for rnd in report.rounds:
        for t in rnd["turns"]:
            if t["finished"]:
                return i
            i += 1
    raise AssertionError("nobody finished")


def test_a_race_record_may_stop_once_the_winner_has_crossed_the_line(rx1):
    """RX-END-03 RX-END-04: the first car across the line after its last lap wins; the other places may be played
    out or not ("you may of course continue the race"). A record that stops before anyone has won is refused."""
    rec = bot_race_record(rx1, FOUR[:3], seed=1, header={"track": "../rx-1.rally"})
    full = replay_race(parse_record(json.dumps(rec)), GAMES)
    assert full.ok, full.error
    cut = _first_finish(full)
    assert cut < len(rec["race"]["turns"]) - 1  # the others were still racing
    short = copy.deepcopy(rec)
    short["race"]["turns"] = short["race"]["turns"][: cut + 1]
    short["race"]["result"] = {"order": full.result["order"][:1]}
    report = replay_race(parse_record(json.dumps(short)), GAMES)
    assert report.ok, report.error
    assert report.result["order"] == full.result["order"][:1]
    assert report.result["racing"] and full.result["order"][0] not in report.result["racing"]
    assert "still racing when play stopped" in report.to_text()
    early = copy.deepcopy(rec)
    early["race"]["turns"] = early["race"]["turns"][:cut]
    del early["race"]["result"]
    report = replay_race(parse_record(json.dumps(early)), GAMES)
    assert report.error is not None and report.error.rule_id == "RX-END-03"
    assert "racing" not in full.result  # a race played out is reported as before


def test_cars_alongside_when_the_yellow_flag_is_placed_move_normally(rx1):
    """RX-DAMAGE-06: Bob and Cleo are side by side on the tile before the flag when Ann's Yellow Flag goes down;
    they may drive on side by side (before the fix the second was refused under RX-DAMAGE-04). Dan, who was
    alongside nobody, gets no such exemption."""
    r = Race(rx1, FOUR, Options())
    r.set_car("Ann", "4.2.r", gear=3, crossed=1)
    r.set_car("Bob", "4.1.l", gear=2, crossed=1)
    r.set_car("Cleo", "4.1.r", gear=2, crossed=1)
    r.set_car("Dan", "1.1.l", gear=1, crossed=1)
    assert r.order[0] == "Ann"
    r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["yellow", "green"]))
    assert r.yellow == {4: ["Ann"]} and r.yellow_pairs[4] == {frozenset(("Bob", "Cleo"))}
    first, second = r.order[1:3]
    lane = {"Bob": "l", "Cleo": "r"}
    r.play(Turn(first, [roll("gear2", f"4.2.{lane[first]}")]))
    assert r.context("Dan")[0].alongside_before_flag == frozenset()  # Dan was alongside nobody
    assert r.context(second)[0].alongside_before_flag == {f"4.2.{lane[first]}"}
    out = r.play(Turn(second, [roll("gear2", f"4.2.{lane[second]}")]))  # beside `first` again: allowed
    assert out.end == f"4.2.{lane[second]}"
