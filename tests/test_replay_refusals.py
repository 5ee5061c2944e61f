"""What a player sees when a record claims what the rules did not decide, or stops too early or runs on: the
report's error names the rule and the place in the record, in JSON and in the text ``rallyc replay`` prints.

Each case is a published record of ``examples/games`` changed in one place; the referee refuses it (the replay
driver checks no rule of its own: ``rallyc.records.drive``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from rallyc.records import load_record, replay_record
from rallyc.records.load import RecordError

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"


def _set(where: Callable[[dict], dict], key: str, value: Any) -> Callable[[dict], None]:
    def change(rec: dict) -> None:
        where(rec)[key] = value
    return change


def _race_turn(i: int) -> Callable[[dict], dict]:
    return lambda rec: rec["race"]["turns"][i]


def _cut(n: int, stage: int | None = None) -> Callable[[dict], None]:
    def change(rec: dict) -> None:
        turns = rec["race"]["turns"] if stage is None else rec["stages"][stage]["turns"]
        del turns[-n:]
    return change


def _again(stage: int | None = None) -> Callable[[dict], None]:
    """The last turn recorded once more, after the end."""
    def change(rec: dict) -> None:
        turns = rec["race"]["turns"] if stage is None else rec["stages"][stage]["turns"]
        turns.append(copy.deepcopy(turns[-1]))
    return change


CASES = [
    # a race turn's claims (RX-ROUND-01, RX-END-01, RX-JOKER-03)
    ("rx-1-race", _set(_race_turn(0), "colour", "black"), "RX-ROUND-01", "$.race.turns[0].colour",
     "round 1 is a white round, not black"),
    ("rx-1-race", _set(_race_turn(0), "laps", 1), "RX-END-01", "$.race.turns[0].laps",
     "Ann has completed 0 lap(s), not 1"),
    ("rx-1-race", _set(_race_turn(0), "joker", "done"), "RX-JOKER-03", "$.race.turns[0].joker",
     "Ann's Joker is todo, not done"),
    # a race stopped before anyone won, or run on after every car is done (RX-END-03, RX-END-04)
    ("rx-1-race", _cut(1), "RX-END-03", "$.race.turns",
     "the record stops before any car has won: Bob is still racing (round 32)"),
    ("rx-1-race", _again(), "RX-END-04", "$.race.turns[123]",
     "every car has finished, been disqualified or retired: no more turns"),
    # a race's result (CORE-RETIRE-01)
    ("rx-1-race", _set(lambda rec: rec["race"]["result"], "retired", []), "CORE-RETIRE-01",
     "$.race.result.retired", "the retired is ['Dan'], not []"),
    # a stage stopped before every car crossed the line, or run on (CORE-STAGEEND-01, CORE-ORDER-09)
    ("rally-4-full", _cut(1, stage=1), "CORE-STAGEEND-01", "$.stages[1].turns",
     "the record stops before every car has crossed the finish line (next: Ann, round 15)"),
    ("rally-4-full", _again(stage=0), "CORE-ORDER-09", "$.stages[0].turns[24]",
     "every car has finished or retired: no more turns"),
    # a stage time and the rally classification (CORE-STAGEEND-08, CORE-RALLY-01, CORE-RALLY-15)
    ("rally-4-full", _set(lambda rec: rec["stages"][0].setdefault("times", {}), "Ann", 1), "CORE-STAGEEND-08",
     "$.stages[0].times.Ann", "Ann's stage time is 413 s (6:53), not 1 s"),
    ("rally-4-full", _set(lambda rec: rec["stages"][0].setdefault("times", {}), "Zed", 1), "CORE-RALLY-01",
     "$.stages[0].times.Zed", "no player 'Zed'"),
    ("rally-4-full", _set(lambda rec: rec, "classification", [{"name": "Ann"}]), "CORE-RALLY-15",
     "$.classification[0].name", "position 1 is Cleo"),
    # a Technical Head-to-Head is won by the first car across the line (CUSTOM-05)
    ("auto-tour-1-track-2-technical-head-to-head", _set(lambda rec: rec, "classification", [{"name": "Bob"}]),
     "CUSTOM-05", "$.classification[0].name", "position 1 is Ann"),
]


@pytest.mark.parametrize("game, change, rule, path, message", CASES,
                         ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in CASES])
def test_a_changed_record_is_refused_naming_the_rule_and_place(game, change, rule, path, message):
    rec = load_record(GAMES / f"{game}.json")
    report = replay_record(rec, GAMES)
    assert report.ok, report.to_text()
    change(rec)
    report = replay_record(rec, GAMES)
    assert report.to_json()["error"] == {"rule": rule, "path": path, "message": message}
    assert report.to_text().endswith(f"error: {path}: {rule}: {message}\n")


def test_the_turns_before_a_refusal_stay_in_the_report():
    """The report keeps every round and turn played before the refused one: a player sees where the game was."""
    rec = load_record(GAMES / "rx-1-race.json")
    rec["race"]["turns"][5]["laps"] = 3
    got = replay_record(rec, GAMES).to_json()
    turns = [t for rnd in got["race"]["rounds"] for t in rnd["turns"]]
    assert len(turns) == 5 and got["error"]["path"] == "$.race.turns[5].laps"
    assert [rnd["colour"] for rnd in got["race"]["rounds"]] == ["white", "black"][:len(got["race"]["rounds"])]


def test_a_wrong_time_card_claim_is_refused_every_time_it_is_replayed():
    """A card's seconds that the game's Gear deck does not hold (CORE-TURNEND-04): refused on the first replay and
    again on the next, whatever the first one left behind."""
    rec = load_record(GAMES / "rally-4-full.json")
    turn = next(t for t in rec["stages"][0]["turns"] if "card" in t and "zero" not in t["card"]
                and "seconds" in t["card"])
    turn["card"]["seconds"] = 1
    first, again = (replay_record(copy.deepcopy(rec), GAMES).to_json() for _ in range(2))
    assert first == again
    assert first["error"]["rule"] == "CORE-TURNEND-04" and first["error"]["path"].endswith(".card.seconds")


def test_a_full_contact_key_needs_format_2():
    """A rallyc-game/1 race record with a push (RX-PUSH) on a die is refused at that key, before any turn."""
    rec = json.loads((GAMES / "rx-2-full-contact.json").read_text(encoding="utf-8"))
    rec["format"] = "rallyc-game/1"
    for t in rec["race"]["turns"]:
        for key in ("dice", "relaid"):
            for d in t.get(key, []):
                for k in ("push", "through", "push_to"):
                    d.pop(k, None)
    rec["race"]["turns"][3]["dice"][1]["push"] = {}
    rec["race"]["turns"][7]["dice"][0]["through"] = {}
    with pytest.raises(RecordError) as got:
        replay_record(rec, GAMES)
    assert got.value.path == "$.race.turns[3].dice[1].push"
    assert got.value.message == "a Full Contact `push` needs format rallyc-game/2"
