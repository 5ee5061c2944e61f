"""Regression tests for the referee bugs of issue 9 found by playing and fuzzing (each failed before its fix)."""

import copy
import json
from pathlib import Path

import pytest

import rallyc
from rallyc.records.load import RecordError, parse_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_race, replay_record
from rallyc.rules import IllegalMove, Options, Player
from rallyc.rules.core.dice import Die
from rallyc.rules.core.race import Race
from rallyc.rules.core.turn import Roll, Turn

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


def test_two_cars_sharing_a_space_when_the_yellow_flag_is_placed_are_alongside(rx1):
    """RX-DAMAGE-06 ("Cars that are already alongside others when this token is placed may move normally") with
    RX-THROUGH-04 (a car ending a Push Through shares the space, "set to one side of the car already in it"): Bob and
    Cleo share 4.1.l when Ann's Yellow Flag goes down; they are alongside each other and may drive on side by side.
    The pairs were read one car a space, so the second car on a space was left out."""
    r = Race(rx1, FOUR, Options(full_contact=True))
    r.set_car("Ann", "4.2.r", gear=3, crossed=1)
    r.set_car("Bob", "4.1.l", gear=2, crossed=1)
    r.set_car("Cleo", "4.1.l", gear=2, crossed=1)
    r.set_car("Dan", "1.1.l", gear=1, crossed=1)
    assert r.order[0] == "Ann"
    r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["yellow", "green"]))
    assert r.yellow == {4: ["Ann"]} and r.yellow_pairs[4] == {frozenset(("Bob", "Cleo"))}
    first, second = r.order[1:3]
    r.play(Turn(first, [roll("gear2", "4.2.l")]))
    out = r.play(Turn(second, [roll("gear2", "4.2.r")]))  # beside `first` again: allowed
    assert out.end == "4.2.r"


def _cards(data: dict):
    """(stage index, turn index, turn) of every turn whose record states a card."""
    for si, st in enumerate(data["stages"]):
        for ti, t in enumerate(st["turns"]):
            if "card" in t:
                yield si, ti, t


def test_claimed_card_seconds_must_match_the_games_card_table():
    """CORE-TURNEND-04 CORE-LOC-04 CORE-SPARE-03: a record that turns a Gear 3 card from 30 s into 0 s and edits
    the stage times to match is refused (before the fix it replayed with exit 0 and changed the winner); so are a
    tampered "0" side and Spare Tire card."""
    data = game("rally-1-ss1-failed-flat-out.json")
    si, ti, t = next((si, ti, t) for si, ti, t in _cards(data) if t["card"].get("gear") == 3 and "seconds" in t["card"])
    t["card"]["seconds"] = 0
    data["stages"][si]["times"][t["player"]] -= 30
    data.pop("classification")
    report = replay_record(data, GAMES)
    assert report.error is not None and report.error.rule_id == "CORE-TURNEND-04"
    assert report.error.path == f"$.stages[{si}].turns[{ti}].card.seconds"
    data = game("rally-1-ss1-failed-flat-out.json")
    si, ti, t = next((si, ti, t) for si, ti, t in _cards(data) if "zero" in t["card"])
    t["card"]["zero"]["seconds"] = 5
    report = replay_record(data, GAMES)
    assert report.error.rule_id == "CORE-LOC-04" and report.error.path.endswith("card.zero.seconds")
    # an example game where a Spare Tire is played (which one depends on the bot's seeded play)
    data = next(d for d in (game(p.name) for p in sorted(GAMES.glob("*.json")))
                if "stages" in d and any(t.get("spare_tire") for _, _, t in _cards(d)))
    si, ti, t = next((si, ti, t) for si, ti, t in _cards(data) if t.get("spare_tire"))
    t["card"]["seconds"] = 10
    report = replay_record(data, GAMES)
    assert report.error.rule_id == "CORE-SPARE-03"


def test_a_game_declares_its_card_table():
    """CORE-TURNEND-04: a rallyc-game/2 record declares the seconds of its decks once (a deck may mix values);
    every card must match it; a rallyc-game/1 record replays with the named assumptions and cannot carry one."""
    before = replay_record(game("rally-1-ss1-failed-flat-out.json"), GAMES)
    data = game("rally-1-ss1-failed-flat-out.json")
    data["format"] = "rallyc-game/2"
    data["cards"] = {"gears": {"3": [30, 35]}, "zero": 60}
    same = replay_record(parse_record(json.dumps(data)), GAMES)
    assert same.ok and same.to_json() == before.to_json()
    for _, _, t in _cards(data):
        if t["card"].get("gear") == 3 and "seconds" in t["card"]:
            del t["card"]["seconds"]  # a mixed deck: the record must say which card was drawn
            break
    report = replay_record(data, GAMES)
    assert report.error.rule_id == "CORE-TURNEND-04" and "record which" in report.error.message
    data = game("rally-1-ss1-failed-flat-out.json")
    data["format"] = "rallyc-game/2"
    data["cards"] = {"gears": {"1": 55}}
    report = replay_record(parse_record(json.dumps(data)), GAMES)
    assert report.error.rule_id == "CORE-TURNEND-04" and "55 s" in report.error.message
    data = game("rally-1-ss1-failed-flat-out.json")
    data["cards"] = {"zero": 60}
    with pytest.raises(RecordError) as exc:
        replay_record(parse_record(json.dumps(data)), GAMES)
    assert exc.value.path == "$.cards" and "rallyc-game/2" in exc.value.message
    data["format"] = "rallyc-game/2"
    data["cards"] = {"zero": 40}
    with pytest.raises(RecordError) as exc:
        replay_record(parse_record(json.dumps(data)), GAMES)
    assert exc.value.path == "$.cards.zero" and "CORE-LOC-04" in exc.value.message


def test_reading_rx_boost_pairs(rx1):
    """MC-BOOST-01 RX-DICE-01 reading rx_boost_pairs: with the assumed Dashboard an RX turn may lay two Boost pairs
    (`dashboard`); with `one` (the box's one Boost die) the second pair is refused."""
    from rallyc.data import load_components

    two = [Roll(Die("gear2", "12.3.l", boost=True), "ok", boost_face="ok"),
           Roll(Die("gear4", "12.4.l", boost=True), "ok", boost_face="ok")]
    r = Race(rx1, FOUR[:1])
    assert r.play(Turn("Ann", copy.deepcopy(two))).gear == 4
    one = load_components(overrides={"readings": {"rx_boost_pairs": {"value": "one"}}})
    r = Race(rx1, FOUR[:1], components=one)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", copy.deepcopy(two)))
    assert e.value.path == "dice[1].boost"


@pytest.mark.parametrize("reading,left", [("stays", {4: ["Ann"]}), ("removed", {})])
def test_reading_rx_retired_flag(rx1, reading, left):
    """RX-DAMAGE-03 RX-DAMAGE-08 CORE-RETIRE-01 reading rx_retired_flag: Ann draws a Yellow Flag and her last Gear
    Damage in one Loss of Control and retires; her flag stays on the track (`stays`) or goes with her car."""
    from rallyc.data import load_components

    comp = load_components(overrides={"readings": {"rx_retired_flag": {"value": reading}}})
    r = Race(rx1, FOUR[:2], components=comp)
    r.set_car("Ann", "4.2.r", gear=3, crossed=1)
    r.set_car("Bob", "1.1.l", gear=1, crossed=1)
    r.cars["Ann"].damage["gear"] = 4
    out = r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["yellow", "gear"]))
    assert out.retired and out.yellow == [4]
    assert r.yellow == left


def test_a_driver_draws_the_shortcut_token_of_a_flying_start_warning():
    """CORE-ADV-02 CORE-SHORTCUT-05 (found by the bot sweep): a Flat Out whose Flying Start die enters a Shortcut
    and shows a Warning stops there; the driver draws that Shortcut's token (before the fix the referee did not
    ask the driver and refused its own bot's turn)."""
    from helpers.rules import make_stage, put, turn_of

    from rallyc.rules.drivers.bot import RandomBot

    st = make_stage("N S N N | D C(2,2;3,3,3)R D cut3(1,3) | N N N N | N F N N", 2, flying_start=True)
    put(st, "B", "4.3.r", 1)
    put(st, "A", "2.1.r", 0)
    turn_of(st, "A", ["B", "A"])
    bot = RandomBot(0)
    bot._stage = st
    t = Turn("A", [Roll(Die("gear2", "2.cut1"), "warning")], flat_out=True)
    out = st.play(t, driver=bot)
    assert out.end == "2.cut1" and out.gear == 2 and len(out.tokens) == 1
    assert t.dice[0].token is None and out.turn is not None and out.turn.dice[0].token == out.tokens[0]
