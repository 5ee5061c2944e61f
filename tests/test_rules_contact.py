"""RX Full Contact (rallyc.rules.variants.full_contact): pushes, Push Through, impact damage, Danger tokens, the contact roll.

Positions are the RX rulebook's Full Contact examples laid on the published RX 2 circuit (examples/rx-2.rally);
the recorded Full Contact race is examples/games/rx-2-full-contact.json (rallyc.records.examples, bot seed).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rallyc
from rallyc.commands.cli import app
from rallyc.records.load import parse_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_race
from rallyc.rules.variants.full_contact import ContactClaim, ContactKind
from rallyc.rules.core.dice import Die
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.options import Options
from rallyc.rules.core.race import Race
from rallyc.rules.core.stage import Player
from rallyc.rules.core.turn import Roll, Turn

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples/games/rx-2-full-contact.json"
SLOW = os.environ.get("RALLYC_SLOW") == "1"


@pytest.fixture(scope="module")
def rx2():
    return rallyc.load(ROOT / "examples/rx-2.rally").tracks[0]


def race_at(track, cars: dict[str, tuple[str, int]], full_contact: bool = True) -> Race:
    """A two-lap race on RX 2 with each car put on a space in lap 1 with a Gear marker."""
    race = Race(track, [Player(n, c) for n, c in zip(cars, ("blue", "yellow", "red", "orange"))],
                Options(full_contact=full_contact))
    for name, (space, gear) in cars.items():
        race.set_car(name, space, gear=gear, crossed=1)
    return race


def push(car: str | None = None, danger: int | None = None, damage: dict | None = None,
         impact: list | None = None) -> ContactClaim:
    return ContactClaim(ContactKind.PUSH, car, danger, damage or {}, impact or [])


def through(damage: dict | None = None, impact: list | None = None) -> ContactClaim:
    return ContactClaim(ContactKind.THROUGH, None, None, damage or {}, impact or [])


def refused(race: Race, turn: Turn) -> IllegalMove:
    with pytest.raises(IllegalMove) as e:
        race.play(turn)
    return e.value


# -- pushing (RX-PUSH)

def test_the_rulebook_push_a_gear_4_die_onto_the_car_ahead(rx2):
    """RX-PUSH-01/02/03: Blue, directly behind Yellow, lays its Gear 4 die on Yellow's space: Yellow moves one
    space straight forward with its Gear marker; same gears, no impact damage (RX-IMPACT-01)."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4)})
    assert race.to_move() == "Blue"
    assert (Die("gear4", "6.2.l"),) in set(race.legal_plans(max_dice=1))
    out = race.play(Turn("Blue", [Roll(Die("gear4", "6.2.l"), "ok", contact=push("Yellow"))]))
    assert race.cars["Yellow"].space == "6.3.l" and race.cars["Yellow"].gear == 4
    assert race.cars["Blue"].space == "6.2.l"
    assert [(e.pusher, e.cars[0]["car"], e.cars[0]["from"], e.cars[0]["to"]) for e in out.contact] == \
        [("Blue", "Yellow", "6.2.l", "6.3.l")]
    assert {"RX-ADV-01", "RX-PUSH-01", "RX-PUSH-02", "RX-PUSH-03", "RX-PUSH-04"} <= set(out.applied)
    assert "RX-IMPACT-01" not in out.applied and not race.cars["Yellow"].damage


def test_without_full_contact_the_push_is_an_occupied_space(rx2):
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4)}, full_contact=False)
    assert (Die("gear4", "6.2.l"),) not in set(race.legal_plans(max_dice=1))
    assert refused(race, Turn("Blue", [Roll(Die("gear4", "6.2.l"), "ok")])).rule_id == "CORE-MOVE-02"


def test_a_car_diagonally_ahead_cannot_be_pushed(rx2):
    """RX-PUSH-01 (the rulebook's Blue behind Red, diagonally)."""
    race = race_at(rx2, {"Blue": ("6.1.r", 5), "Yellow": ("6.2.l", 4)})
    e = refused(race, Turn("Blue", [Roll(Die("gear4", "6.2.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-01" and "not directly ahead" in e.message and e.path == "dice[0].to"
    assert (Die("gear4", "6.2.l"),) not in set(race.legal_plans(max_dice=1))


def test_a_push_needs_the_pushed_cars_gear_or_more(rx2):
    """RX-PUSH-02: a Gear 3 (Brake pair) die cannot push a Gear 4 marker."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4)})
    e = refused(race, Turn("Blue", [Roll(Die("gear3", "6.2.l", brake=True), "ok", "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-02"


def test_a_car_with_a_car_directly_in_front_cannot_be_pushed(rx2):
    """RX-PUSH-05 (the rulebook's Blue cannot push Yellow because Red is directly in front of it)."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4), "Red": ("6.3.l", 3)})
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-05"


def test_a_push_onto_an_empty_space_is_refused(rx2):
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4)})
    e = refused(race, Turn("Blue", [Roll(Die("gear4", "6.2.r"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-01" and "no car" in e.message


def test_impact_damage_is_the_gear_difference_for_both(rx2):
    """RX-IMPACT-01 (the rulebook's Gear 5 die into a Gear 4 marker: one token each)."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4)})
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-IMPACT-01" and "draws 1 Damage token(s), not 0" in e.message
    out = race.play(Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok",
                                       contact=push("Yellow", damage={"Yellow": ["gear"]}, impact=["brake"]))]))
    assert "RX-IMPACT-01" in out.applied
    assert race.cars["Yellow"].damage["gear"] == 1 and race.cars["Blue"].damage["brake"] == 1


def test_pushed_into_a_corner_either_method_even_when_one_lies_diagonally(rx2):
    """RX-PUSH-12: "If a car is pushed into a Corner, the targeted car's player may decide whether they wish to
    drift around the outside or cut through the inside". On RX 2, 8.1.l leads straight into 8.2's inside and
    diagonally into its outside: Yellow pushed from 8.1.l may be put on either."""
    race = race_at(rx2, {"Blue": ("7.3.l", 4), "Yellow": ("8.1.l", 3)})
    plans = set(race.legal_plans(max_dice=1))
    assert {(Die("gear3", "8.1.l", push="8.2.in1"),), (Die("gear3", "8.1.l", push="8.2.out1"),)} <= plans
    e = refused(race, Turn("Blue", [Roll(Die("gear3", "8.1.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-12" and "8.2.in1, 8.2.out1" in e.message
    race.play(Turn("Blue", [Roll(Die("gear3", "8.1.l", push="8.2.out1"), "ok", contact=push("Yellow"))]))
    assert race.cars["Yellow"].space == "8.2.out1" and race.cars["Blue"].space == "8.1.l"


def test_impact_draws_take_tokens_out_of_the_bag_at_once(rx2):
    """RX-IMPACT-01 with RX-SETUP-02 and the core bag (CORE-SETUP-03: a drawn token stays out): "both players must
    draw a number of Damage tokens". With five of the bag's six Brake tokens on Red's Dashboard, Yellow's impact draw
    takes the last one: Blue's draw in the same push cannot be a Brake token too (it was counted only from the next
    turn)."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4), "Red": ("1.3.l", 1)})
    assert race.damage_bag()["brake"] == 6
    race.cars["Red"].damage["brake"] = 5
    turn = Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok",
                              contact=push("Yellow", damage={"Yellow": ["brake"]}, impact=["brake"]))])
    e = refused(race, turn)
    assert e.rule_id == "RX-SETUP-02" and e.path == "dice[0].push.impact[0]" and "no brake token is left" in e.message
    race.play(Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok",
                                 contact=push("Yellow", damage={"Yellow": ["brake"]}, impact=["gear"]))]))
    assert race.cars["Yellow"].damage["brake"] == 1 and race.cars["Blue"].damage["gear"] == 1


def test_danger_tokens_pushed_into_a_corner(rx2):
    """RX-PUSH-12, RX-DANGER-01 (the rulebook's Yellow pushed into a corner and choosing its method): Gear 4
    on the inside limit 2 takes two Danger tokens; the record must say where and how many."""
    race = race_at(rx2, {"Blue": ("1.2.in1", 5), "Yellow": ("1.3.l", 4)})
    plans = set(race.legal_plans(max_dice=1))
    assert {(Die("gear4", "1.3.l", push="2.1.in1"),), (Die("gear4", "1.3.l", push="2.1.out1"),)} <= plans
    e = refused(race, Turn("Blue", [Roll(Die("gear4", "1.3.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-12" and e.path == "dice[0].push_to"
    e = refused(race, Turn("Blue", [Roll(Die("gear4", "1.3.l", push="2.1.in1"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-DANGER-01" and "record `danger: 2`" in e.message
    out = race.play(Turn("Blue", [Roll(Die("gear4", "1.3.l", push="2.1.in1"), "ok",
                                       contact=push("Yellow", danger=2))]))
    assert {"RX-PUSH-12", "RX-PUSH-06", "RX-DANGER-01"} <= set(out.applied)
    assert race.cars["Yellow"].space == "2.1.in1" and race.contact is not None
    assert race.contact.danger["Yellow"] == 2
    # RX-DANGER-02/06: no automatic LoC on the corner; the two tokens are two Warnings of this turn's dice
    assert race.to_move() == "Yellow"
    out = race.play(Turn("Yellow", [Roll(Die("gear3", "3.1.out1"), "warning")], damage=["gear"]))
    assert out.loc is not None and out.loc.cause == "3 Warnings" and out.gear == 0
    assert {"RX-DANGER-02", "RX-DANGER-06", "RX-DANGER-07"} <= set(out.applied)
    assert race.contact.danger["Yellow"] == 0  # discarded at the end of the turn


def test_danger_tokens_at_the_limit_lose_control_before_any_die(rx2):
    """RX-DANGER-05 (the rulebook's Gear 5 pushed onto limit 2: 3 tokens, its limit): a Loss of Control on its
    space at its Gear marker's speed; no die is laid."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 4)})
    assert race.contact is not None
    race.contact.danger["Blue"] = 3
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.r"), "ok")]))
    assert e.rule_id == "RX-DANGER-05"
    out = race.play(Turn("Blue", [], damage=["gear", "green"]))
    assert out.loc is not None and out.loc.space == "6.1.l" and out.loc.gear == 5 and out.gear == 0
    assert "RX-DANGER-05" in out.applied and race.contact.danger["Blue"] == 0


def _water_push(rx2, held: int) -> Race:
    race = race_at(rx2, {"Blue": ("5.1.l", 5), "Yellow": ("4.1.in1", 4)})
    race.set_car("Yellow", "5.1.r", gear=4, crossed=1)
    race.set_car("Blue", "4.1.out2", gear=5, crossed=1)
    assert race.contact is not None
    race.contact.danger["Yellow"] = held
    return race


def test_at_most_three_danger_tokens(rx2):
    """RX-DANGER-04: holding 3 Danger tokens, a push onto Water adds none."""
    race = _water_push(rx2, 3)
    e = refused(race, Turn("Blue", [Roll(Die("gear4", "5.1.r"), "ok", contact=push("Yellow", danger=1))]))
    assert e.rule_id == "RX-DANGER-03" and "holding 3 of at most 3" in e.message
    out = race.play(Turn("Blue", [Roll(Die("gear4", "5.1.r"), "ok", contact=push("Yellow"))]))
    assert "RX-DANGER-04" in out.applied and race.contact is not None and race.contact.danger["Yellow"] == 3


def test_danger_tokens_for_a_jump_or_water_and_at_most_three(rx2):
    """RX-DANGER-03: pushed onto Water, one Danger token and no Water effect."""
    race = _water_push(rx2, 2)
    assert race.contact is not None
    out = race.play(Turn("Blue", [Roll(Die("gear4", "5.1.r"), "ok", contact=push("Yellow", danger=1))]))
    assert race.cars["Yellow"].space == "5.2.r" and race.contact.danger["Yellow"] == 3
    assert {"RX-DANGER-03", "RX-PUSH-06"} <= set(out.applied)


# -- Push Through (RX-THROUGH)

def test_push_through_two_cars_across_the_track(rx2):
    """RX-THROUGH-01/02/04/07/08, RX-PUSH-11: blocked by Yellow (Gear 3) and Red (Gear 4), Blue pushes through
    with its Gear 5 die; Yellow draws 2, Red 1, Blue 2 (its die minus the lowest gear)."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 3), "Red": ("6.2.r", 4)})
    e = refused(race, Turn("Blue", [Roll(Die("gear4", "6.2.l"), "ok", contact=through())]))
    assert e.rule_id == "RX-THROUGH-02"
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.l", push="6.3.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-11"
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok", contact=push("Yellow"))]))
    assert e.rule_id == "RX-PUSH-11"
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok",
                                         contact=through({"Yellow": ["gear", "gear"], "Red": ["green"]}))]))
    assert e.rule_id == "RX-THROUGH-08"
    out = race.play(Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok",
                                       contact=through({"Yellow": ["gear", "gear"], "Red": ["green"]},
                                                       ["coast", "brake"]))]))
    assert race.cars["Blue"].space == race.cars["Yellow"].space == "6.2.l"  # sharing (RX-THROUGH-04)
    assert {"RX-THROUGH-01", "RX-THROUGH-02", "RX-THROUGH-04", "RX-THROUGH-07", "RX-THROUGH-08",
            "RX-PUSH-11"} <= set(out.applied)
    assert race.cars["Yellow"].damage["gear"] == 2 and race.cars["Red"].damage["green"] == 1
    assert race.cars["Blue"].damage == {"coast": 1, "brake": 1}


def test_push_through_then_further_dice(rx2):
    """RX-THROUGH-03: further dice are laid as normal after the Push Through."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 3), "Red": ("6.2.r", 4)})
    dice = [Roll(Die("gear5", "6.2.l"), "ok", contact=through({"Yellow": ["gear", "gear"], "Red": ["green"]},
                                                                 ["coast", "brake"])),
            Roll(Die("gear4", "6.3.l"), "ok")]
    plans = set(race.legal_plans(max_dice=2))
    assert tuple(r.die for r in dice) in plans
    assert (Die("coast", "6.2.l"),) not in plans  # the Push Through die is a Gear die (RX-THROUGH-02)
    out = race.play(Turn("Blue", dice))
    assert out.end == "6.3.l" and "RX-THROUGH-03" in out.applied


def test_push_through_onto_a_space_two_cars_share_goes_on(rx2):
    """RX-THROUGH-05/06 (reading 30): Yellow and Cleo share 6.2.l, Red is beside them: Blue may Push Through onto
    6.2.l but not end its move there."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.2.l", 3), "Red": ("6.2.r", 4), "Cleo": ("6.2.l", 3)})
    assert race.to_move() == "Blue"
    claim = through({"Yellow": ["gear", "gear"], "Cleo": ["green", "green"], "Red": ["coast"]}, ["brake", "gear"])
    plans = set(race.legal_plans(max_dice=2))
    assert (Die("gear5", "6.2.l"),) not in plans and (Die("gear5", "6.2.l"), Die("gear4", "6.3.l")) in plans
    e = refused(race, Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok", contact=copy.deepcopy(claim))]))
    assert e.rule_id == "RX-THROUGH-06"
    out = race.play(Turn("Blue", [Roll(Die("gear5", "6.2.l"), "ok", contact=claim),
                                  Roll(Die("gear4", "6.3.l"), "ok")]))
    assert out.end == "6.3.l" and {"RX-THROUGH-03", "RX-THROUGH-05", "RX-THROUGH-06"} <= set(out.applied)
    assert race.cars["Cleo"].damage["green"] == 2


def test_a_car_is_pushed_out_of_a_shortcut_never_into_one(rx2):
    """RX-PUSH-07/15: Yellow in RX 2's Shortcut is pushed out by Blue entering it the same way."""
    race = race_at(rx2, {"Blue": ("11.1.r", 5), "Yellow": ("11.cut1", 4)})
    out = race.play(Turn("Blue", [Roll(Die("gear4", "11.cut1"), "ok", token="ok", contact=push("Yellow"))]))
    assert race.cars["Yellow"].space == "11.3.r"
    assert {"RX-PUSH-07", "RX-PUSH-15"} <= set(out.applied)


# -- the contact roll (RX-CONTACTROLL-01)

def test_a_push_not_reached_has_no_effect(rx2):
    """RX-CONTACTROLL-01: the car stops before the car it meant to push: nobody moves or draws."""
    race = race_at(rx2, {"Blue": ("6.1.l", 5), "Yellow": ("6.3.l", 4)})
    claim = push("Yellow", damage={"Yellow": ["gear"]}, impact=["gear"])
    dice = [Roll(Die("gear5", "6.2.l"), "warning"), Roll(Die("gear4", "6.3.l"), None, contact=claim)]
    e = refused(race, Turn("Blue", copy.deepcopy(dice)))
    assert e.rule_id == "RX-CONTACTROLL-01"
    dice[1].contact = push("Yellow")
    out = race.play(Turn("Blue", dice))
    assert out.end == "6.2.l" and race.cars["Yellow"].space == "6.3.l" and not out.contact
    assert "RX-CONTACTROLL-01" in out.applied


# -- the recorded race and its mutations

def _game() -> dict:
    return json.loads(GAME.read_text(encoding="utf-8"))


def _replay(data: dict):
    return replay_race(parse_record(json.dumps(data)), GAME.parent)


def test_the_recorded_full_contact_race_replays_cleanly():
    data = _game()
    assert data["format"] == "rallyc-game/2" and data["options"]["full_contact"] is True
    dice = [d for t in data["race"]["turns"] for d in t.get("relaid", t.get("dice", []))]
    assert any("push" in d for d in dice) and any("through" in d for d in dice)
    assert any(d.get("push", {}).get("danger") for d in dice)
    report = _replay(data)
    assert report.ok, report.error
    assert report.result["order"]
    r = CliRunner().invoke(app, ["replay", str(GAME), "--explain"])
    assert r.exit_code == 0, r.output
    for rule in ("RX-PUSH-01", "RX-IMPACT-01", "RX-THROUGH-07", "RX-DANGER-03"):
        assert rule in r.output
    assert "pushes through" in r.output and "warning: option" not in r.output


def _pushes(data: dict):
    for ti, t in enumerate(data["race"]["turns"]):
        key = "relaid" if "relaid" in t else "dice"
        for di, d in enumerate(t.get(key, [])):
            if "push" in d and (d.get("face") or d.get("secured")):
                yield ti, key, di, d


def test_mutation_a_push_onto_an_empty_space():
    """A push claimed on a die whose space is free: RX-PUSH-01."""
    data = _game()
    hits = 0
    for ti, t in enumerate(data["race"]["turns"]):
        for di, d in enumerate(t.get("dice", [])):
            if "push" in d or "through" in d or "relaid" in t or not d.get("face"):
                continue
            bad = copy.deepcopy(data)
            bad["race"]["turns"][ti]["dice"][di]["push"] = {"car": "Bob"}
            report = _replay(bad)
            assert not report.ok and report.error.rule_id == "RX-PUSH-01", report.error
            assert report.error.path == f"$.race.turns[{ti}].dice[{di}].push"
            hits += 1
            if hits >= 5:
                return
    assert hits


def test_mutation_a_push_of_a_car_not_directly_ahead(rx2):
    """The die before a push moved to the other lane, so the push comes diagonally: RX-PUSH-01."""
    data = _game()
    g = rx2.graph
    mutants = 0
    for ti, key, di, d in _pushes(data):
        if di == 0:
            continue
        dice = data["race"]["turns"][ti][key]
        prev = dice[di - 1]
        if prev.get("land"):
            continue
        before = dice[di - 2]["to"] if di >= 2 else None
        for side in sorted(g.predecessors(d["to"])):
            if g.edges[side, d["to"]].get("move") != "diagonal":
                continue
            if before is not None and not g.has_edge(before, side):
                continue
            bad = copy.deepcopy(data)
            bad["race"]["turns"][ti][key][di - 1]["to"] = side
            report = _replay(bad)
            assert not report.ok
            if report.error.rule_id == "RX-PUSH-01":
                assert report.error.path == f"$.race.turns[{ti}].{key}[{di}].to"
                assert "not directly ahead" in report.error.message
                mutants += 1
    assert mutants >= 1


def test_mutation_a_missing_danger_token():
    """A push's Danger tokens left out (or changed): RX-DANGER-01 or RX-DANGER-03."""
    data = _game()
    found = 0
    for ti, key, di, d in _pushes(data):
        if not d["push"].get("danger"):
            continue
        for change in (None, d["push"]["danger"] + 1):
            bad = copy.deepcopy(data)
            claim = bad["race"]["turns"][ti][key][di]["push"]
            if change is None:
                del claim["danger"]
            else:
                claim["danger"] = change
            report = _replay(bad)
            assert not report.ok and report.error.rule_id in ("RX-DANGER-01", "RX-DANGER-03"), report.error
            assert report.error.path == f"$.race.turns[{ti}].{key}[{di}].push.danger"
            found += 1
    assert found


def test_mutation_impact_tokens_dropped():
    data = _game()
    for ti, key, di, d in _pushes(data):
        if d["push"].get("impact"):
            bad = copy.deepcopy(data)
            del bad["race"]["turns"][ti][key][di]["push"]["impact"]
            report = _replay(bad)
            assert not report.ok and report.error.rule_id == "RX-IMPACT-01"
            return
    pytest.fail("the recorded race has no impact damage")


def test_pushes_need_format_2(tmp_path):
    data = _game()
    data["format"] = "rallyc-game/1"
    data["track"] = str(ROOT / "examples/rx-2.rally")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    r = CliRunner().invoke(app, ["replay", str(path)])
    assert r.exit_code == 1 and "rallyc-game/2" in r.output and "old.json:" in r.output


# -- the bot pushes (default: a seeded slice; RALLYC_SLOW=1: more)

@pytest.mark.parametrize("seed", range(30) if SLOW else range(3))
def test_bot_full_contact_races_replay_cleanly(rx2, seed):
    players = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "yellow"), Player("Dan", "green")]
    rec = bot_race_record(rx2, players, seed=seed, options=Options(full_contact=True),
                          header={"track": "../rx-2.rally", "design": "RX 2"})
    contact = any("push" in d or "through" in d for t in rec["race"]["turns"]
                  for d in t.get("dice", []) + t.get("relaid", []))
    assert rec["format"] == ("rallyc-game/2" if contact else "rallyc-game/1")
    report = _replay(rec)
    assert report.ok, report.error
    assert report.result == {k: v for k, v in report.result.items()}  # a result was computed
    if not SLOW:
        assert any("push" in d for t in rec["race"]["turns"] for d in t.get("dice", []))


# -- the overlay and the viewer show who pushed whom (rallyc.render)

def test_the_overlay_and_viewer_show_who_pushed_whom(rx2):
    from rallyc.render.overlay import race_cars_after_round
    from rallyc.render.viewer import viewer_data

    data = _game()
    report = _replay(data)
    colours = {p["name"]: p["colour"] for p in data["players"]}
    # the first round in which a push moved a car that had played before it in that round
    for rnd in report.rounds:
        played: list[str] = []
        for turn in rnd["turns"]:
            for ev in turn.get("contact", []):
                moved = [c for c in ev["cars"] if c["from"] != c["to"] and c["car"] in played]
                if ev["kind"] == "push" and moved:
                    cars = {c.name: c for c in race_cars_after_round(report.grid, report.rounds, rnd["round"],
                                                                     colours, report.laps)}
                    pushed = moved[0]["car"]
                    own = max(i for i, t in enumerate(rnd["turns"]) if t["player"] == pushed)
                    ends = [c["to"] for t in rnd["turns"][own + 1:] for e in t.get("contact", []) for c in e["cars"]
                            if c["car"] == pushed]
                    assert cars[pushed].space == ends[-1]  # where the push put it, not its own turn's end
                    assert f"pushed by {ev['pusher']}" in cars[pushed].note
                    assert f"pushed {pushed}" in cars[ev["pusher"]].note
                    view = viewer_data(data, report, [rx2], None)
                    steps = [s for s in view["stages"][0]["steps"] if s["contact"]]
                    assert steps and steps[0]["contact"][0]["pusher"] == \
                        next(t for r in report.rounds for t in r["turns"] if t.get("contact"))["player"]
                    return
            played.append(turn["player"])
    pytest.fail("no push of a car that had already played in its round")
