"""The turn readers agree with the long ways they skip.

- ``convert.turn_from_json`` / ``race.rx_turn_from_json`` (positional, words looked up in one go) build the same
  turns as the keyword-built reference, for every turn of every example game and for dice whose words are wrong
  (the same error).
"""

from __future__ import annotations

import copy
from dataclasses import fields
from pathlib import Path

import pytest

from rallyc.records import load as L
from rallyc.records.convert import TURN_FIELDS, _face, _roll_worded, turn_from_json
from rallyc.records.race import rx_turn_from_json
from rallyc.rules.turn import CardClaim, Replan, Turn, ZeroSide

GAMES = sorted((Path(__file__).resolve().parent.parent / "examples" / "games").glob("*.json"))


def _reference_turn(d: dict) -> Turn:
    """turn_from_json as it was: keyword arguments, a call per word."""
    card = None
    if "card" in d:
        c = d["card"]
        zero = None
        if "zero" in c:
            z = c["zero"]
            zero = ZeroSide(z["icon"], dict(z.get("marks", {})), z.get("gear"), z.get("seconds"))
        card = CardClaim(c.get("gear"), c.get("seconds"), zero)
    return Turn(player=d["player"], dice=[_roll_worded(x) for x in d.get("dice", [])],
                flat_out=d.get("mode", "one-by-one") == "flat-out", start=d.get("start"),
                relaid=[_roll_worded(x) for x in d["relaid"]] if "relaid" in d else None,
                sisu=bool(d.get("sisu", False)), spare_tire=bool(d.get("spare_tire", False)), card=card,
                damage=list(d.get("damage", [])), round=d.get("round"), end=d.get("end"), gear=d.get("gear"),
                seconds_gained=d.get("seconds_gained"), seconds_spent=d.get("seconds_spent"),
                flipped=list(d["flipped"]) if "flipped" in d else None,
                replans=[Replan(int(x["after"]), [_roll_worded(r) for r in x.get("dice", [])])
                         for x in d.get("replans", [])])


def _reference_rx_turn(d: dict) -> Turn:
    return Turn(player=d["player"], dice=[_roll_worded(x) for x in d.get("dice", [])],
                flat_out=d.get("mode", "one-by-one") == "flat-out",
                relaid=[_roll_worded(x) for x in d["relaid"]] if "relaid" in d else None,
                damage=list(d.get("damage", [])), round=d.get("round"), end=d.get("end"), gear=d.get("gear"),
                seconds_gained=d.get("focus_gained"), seconds_spent=d.get("focus_spent"),
                replans=[Replan(int(x["after"]), [_roll_worded(r) for r in x.get("dice", [])])
                         for x in d.get("replans", [])])


def test_turn_fields_are_in_the_order_given():
    assert tuple(f.name for f in fields(Turn)) == TURN_FIELDS


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_turns_convert_as_the_reference_does(path):
    data = L.load_record(path)
    if "race" in data:
        pairs = [(rx_turn_from_json, _reference_rx_turn, t) for t in data["race"]["turns"]]
    else:
        pairs = [(turn_from_json, _reference_turn, t) for s in data["stages"] for t in s["turns"]]
    assert pairs
    for fast, reference, t in pairs:
        _same_object(fast(t), reference(t))
        # every key of a die left out, and every word made wrong, raises what the reference raises
        for d in t.get("dice", [])[:2]:
            for key in list(d):
                for value in (None, "nonsense", ["list"], 1):
                    bad = copy.deepcopy(t)
                    bad["dice"][0] = dict(d, **{key: value})
                    _same_outcome(fast, reference, bad)
                bad = copy.deepcopy(t)
                bad["dice"][0] = {k: v for k, v in d.items() if k != key}
                _same_outcome(fast, reference, bad)


def _same_object(got, want):
    """``got`` is ``want`` field for field, and also as an instance: the same class, the same attributes stored in
    the same order (the order the dataclass's ``__init__`` stores them; what ``vars`` and ``copy`` see) or, for a
    slotted class, every slot set (one left unset would raise at its first read), the dataclasses within (dice,
    re-plans, card) alike."""
    assert type(got) is type(want)
    if isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same_object(g, w)
    elif hasattr(want, "__dataclass_fields__"):
        if hasattr(want, "__slots__"):
            names = [f.name for f in fields(want)]
            assert list(want.__slots__) == names
        else:
            names = list(vars(want))
            assert list(vars(got)) == names
        for name in names:
            _same_object(getattr(got, name), getattr(want, name))
    else:
        assert got == want


def _same_outcome(fast, reference, t):
    try:
        want = reference(t)
    except Exception as exc:  # noqa: BLE001 - the same exception, whatever it is
        with pytest.raises(type(exc)) as got:
            fast(t)
        assert str(got.value) == str(exc)
        return
    _same_object(fast(t), want)


def test_face_words():
    assert _face(None) is None and _face("ok") == "ok"
    with pytest.raises(ValueError):
        _face("nonsense")
