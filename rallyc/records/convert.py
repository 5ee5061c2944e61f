"""Turns between their JSON form (the record) and :class:`rallyc.rules.Turn`."""

from __future__ import annotations

from typing import Any

from rallyc.rules.variants.full_contact import contact_claim_from_json
from rallyc.rules.core.dice import Die, DieKind, Face
from rallyc.rules.core.engine import FOCUS, SECONDS, TokenKind
from rallyc.rules.core.race import RxOutcome
from rallyc.rules.core.turn import CardClaim, Outcome, Replan, Roll, Turn, ZeroSide

__all__ = ["turn_from_json", "turn_to_json", "roll_to_json", "replans_from_json", "replans_to_json", "GAME_2",
           "record_format", "rx_turn_from_json", "rx_turn_to_json"]

#: the record format that adds the `cards` table and Improvisation's `replans` (rallyc-game/1 still replays)
GAME_2 = "rallyc-game/2"


#: the records' words -> members (a dictionary look-up; calling the enum class is several times slower)
_FACES: dict[str, Face] = {f.value: f for f in Face}
_DIE_KINDS: dict[str, DieKind] = {k.value: k for k in DieKind}


#: the words a face may be, and None (no face): the member (a dictionary look-up per face)
_FACE_OR_NONE: dict[str | None, Face | None] = {None: None}
_FACE_OR_NONE.update(_FACES)


def _face(value: str | None) -> Face | None:
    if value in _FACE_OR_NONE:
        return _FACE_OR_NONE[value]
    return Face(value)  # type: ignore[arg-type]  # an unknown word: the enum's own ValueError


#: an instance without its ``__init__`` (:func:`_rolls`, :func:`turn_from_json`): through the class's call, a
#: dataclass's ``__init__`` costs more than the stores it makes
_new = object.__new__


def _rolls(dice: list[Any]) -> list[Roll]:
    """A record's dice (their words checked by the schema) as typed :class:`Roll` objects."""
    return [_roll(d) for d in dice]


def _roll(d: dict[str, Any]) -> Roll:
    """A record's die as a :class:`Roll`: an unknown word raises the enum's own error, a missing one KeyError.
    Made without the dataclass's ``__init__`` (:data:`_new`), its fields stored in that order; ``k in d and d[k]``:
    no call for a key left out (most dice have only a kind, a face and a space)."""
    name = d["die"]
    kind = "push" if "push" in d else "through" if "through" in d else None
    r = _new(Roll)
    # tuple.__new__: the named tuple's own __new__ is a Python function, called for every die of every record
    r.die = tuple.__new__(Die, (_DIE_KINDS.get(name) or DieKind(name), d["to"], "brake" in d and bool(d["brake"]),
                                d["land"] if "land" in d else None, "boost" in d and bool(d["boost"]),
                                d["push_to"] if "push_to" in d else None))
    r.face = _face(d["face"]) if "face" in d else None
    r.brake_face = _face(d["brake_face"]) if "brake_face" in d else None
    r.secured = "secured" in d and bool(d["secured"])
    r.token = d["token"] if "token" in d else None
    r.boost_face = _face(d["boost_face"]) if "boost_face" in d else None
    r.contact = contact_claim_from_json(kind, d[kind]) if kind else None
    return r


def replans_from_json(d: dict[str, Any]) -> list[Replan]:
    """A turn's ``replans`` (Improvisation, IMPROV-01): after how many dice, and the dice laid instead."""
    if "replans" not in d:
        return []
    return [Replan(int(x["after"]), _rolls(x.get("dice", ()))) for x in d["replans"]]


def replans_to_json(t: Turn) -> list[dict[str, Any]]:
    """A turn's re-plans as the record states them."""
    return [{"after": rp.after, "dice": [roll_to_json(r) for r in rp.dice]} for rp in t.replans]


def record_format(turns: list[Turn]) -> str:
    """The format a generated record needs: ``rallyc-game/2`` once a turn re-plans or pushes (Full Contact),
    else ``rallyc-game/1``."""
    return GAME_2 if any(t.replans or any(r.contact for r in t.dice + (t.relaid or [])) for t in turns) \
        else "rallyc-game/1"


def _card_from_json(c: dict[str, Any]) -> CardClaim:
    """A turn's ``card`` claim (gear, seconds, the "0" side turned over)."""
    zero = None
    if "zero" in c:
        z = c["zero"]
        zero = ZeroSide(z["icon"], dict(z.get("marks", {})), z.get("gear"), z.get("seconds"))
    if type(c) is not dict:  # not an object (a record built in Python, which no schema check saw): what it raised before
        return CardClaim(c.get("gear"), c.get("seconds"), zero)
    card = _new(CardClaim)
    card.gear = c["gear"] if "gear" in c else None
    card.seconds = c["seconds"] if "seconds" in c else None
    card.zero = zero
    return card


def turn_from_json(d: dict[str, Any], tokens: TokenKind = SECONDS) -> Turn:
    """A record's turn object (a stage's or a race's) as a :class:`Turn`; ``tokens`` names the fields of the tokens
    claimed gained and spent (Second tokens in a stage, Focus tokens in a race)."""
    # made without the dataclasses' __init__ (_new), every field stored in the dataclass's order, the values worked
    # out in the order of its arguments; `k in d and d[k]`: no call for a key left out
    card = _card_from_json(d["card"]) if "card" in d else None
    gained, spent = tokens.gained_field, tokens.spent_field
    t = _new(Turn)
    t.player = d["player"]
    t.dice = _rolls(d["dice"]) if "dice" in d else []
    t.flat_out = "mode" in d and d["mode"] == "flat-out"
    t.start = d["start"] if "start" in d else None
    t.relaid = _rolls(d["relaid"]) if "relaid" in d else None
    t.sisu = "sisu" in d and not not d["sisu"]
    t.spare_tire = "spare_tire" in d and not not d["spare_tire"]
    t.card = card
    t.damage = list(d["damage"]) if "damage" in d else []
    t.round = d["round"] if "round" in d else None
    t.end = d["end"] if "end" in d else None
    t.gear = d["gear"] if "gear" in d else None
    t.seconds_gained = d[gained] if gained in d else None
    t.seconds_spent = d[spent] if spent in d else None
    t.flipped = list(d["flipped"]) if "flipped" in d else None
    t.replans = replans_from_json(d) if "replans" in d else []
    get = d.get  # a race's claims
    t.colour = get("colour")
    t.laps = get("laps")
    t.joker = get("joker")
    t.weather = get("weather")
    return t


def roll_to_json(r: Roll) -> dict[str, Any]:
    out: dict[str, Any] = r.die.to_dict()
    if r.secured:
        out["secured"] = True
    if r.face is not None:
        out["face"] = r.face
    if r.brake_face is not None:
        out["brake_face"] = r.brake_face
    if r.boost_face is not None:
        out["boost_face"] = r.boost_face
    if r.token is not None:
        out["token"] = r.token
    if r.contact is not None:  # Full Contact (RX-PUSH, RX-THROUGH)
        out[str(r.contact.kind)] = r.contact.to_json()
    return out


def _dice_to_json(out: dict[str, Any], t: Turn) -> None:
    """The dice of a turn, stage or race, into its record object ``out``: how they are rolled, the dice laid, the
    Improvisation re-plans and the dice re-laid after a failed Flat Out."""
    out["mode"] = "flat-out" if t.flat_out else "one-by-one"
    out["dice"] = [roll_to_json(r) for r in t.dice]
    if t.replans:
        out["replans"] = replans_to_json(t)
    if t.relaid is not None:
        out["relaid"] = [roll_to_json(r) for r in t.relaid]


def turn_to_json(t: Turn, outcome: Outcome | None = None) -> dict[str, Any]:
    """A :class:`Turn` as a record object; with its ``outcome``, the derivable claims are stated too."""
    out: dict[str, Any] = {"player": t.player}
    if outcome is not None:
        out["round"] = outcome.round
    if t.start is not None:
        out["start"] = t.start
    _dice_to_json(out, t)
    if t.sisu:
        out["sisu"] = True
    if t.spare_tire:
        out["spare_tire"] = True
    card = _card_to_json(t.card, outcome)
    if card:
        out["card"] = card
    if t.damage:
        out["damage"] = list(t.damage)
    if outcome is not None:
        _state_outcome(out, outcome)
    return out


def _card_to_json(claim: CardClaim | None, outcome: Outcome | None) -> dict[str, Any]:
    """The turn's Time card as the record states it: the card the outcome took (its seconds unless a "0" card not
    yet known), then what the turn claims of it; the Spare Tire's card (gear 0) when the outcome used one."""
    if outcome is not None and outcome.spare_tire:
        return {"gear": 0, "seconds": outcome.card.seconds}
    card: dict[str, Any] = {}
    if outcome is not None:
        card["gear"] = outcome.card.gear
        seconds = outcome.card.seconds if not outcome.card.zero or outcome.finished else None
        if seconds is not None:
            card["seconds"] = seconds
    if claim is not None:
        if claim.gear is not None:
            card["gear"] = claim.gear
        if claim.seconds is not None:
            card["seconds"] = claim.seconds
        if claim.zero is not None:
            card["zero"] = _zero_to_json(claim.zero, outcome)
    return card


def _zero_to_json(z: ZeroSide, outcome: Outcome | None) -> dict[str, Any]:
    """A Time card's "0" side turned over after a Loss of Control: its icon, marks, gear and seconds (the seconds
    of the card the outcome took when the side states none and the car did not finish)."""
    zd: dict[str, Any] = {"icon": z.icon}
    if z.marks:
        zd["marks"] = dict(sorted(z.marks.items()))
    if z.gear is not None:
        zd["gear"] = z.gear
    zs = z.seconds if z.seconds is not None else (outcome.card.seconds if outcome and outcome.loc and not outcome.finished else None)
    if zs is not None:
        zd["seconds"] = zs
    return zd


def _state_outcome(out: dict[str, Any], outcome: Outcome) -> None:
    """The claims a turn's outcome makes derivable, added to its record object: where the car ended, its gear,
    the Second tokens gained and spent, the tiles turned over."""
    out["end"] = outcome.end
    out["gear"] = outcome.gear
    if outcome.seconds_gained:
        out["seconds_gained"] = outcome.seconds_gained
    if outcome.seconds_spent:
        out["seconds_spent"] = outcome.seconds_spent
    if outcome.flipped:
        out["flipped"] = list(outcome.flipped)


def rx_turn_from_json(d: dict[str, Any]) -> Turn:
    """A record's RX turn object as a :class:`~rallyc.rules.core.turn.Turn` (Focus claims in the Seconds fields)."""
    return turn_from_json(d, FOCUS)


def rx_turn_to_json(t: Turn, out: RxOutcome | None = None) -> dict[str, Any]:
    """An RX turn as a record object; with its outcome, the derivable claims are stated too."""
    d: dict[str, Any] = {"player": t.player}
    if out is not None:
        d["round"] = out.round
        d["colour"] = out.colour
    _dice_to_json(d, t)
    if t.damage:
        d["damage"] = list(t.damage)
    if out is not None:
        d["end"] = out.end
        d["gear"] = out.gear
        if out.focus_gained:
            d["focus_gained"] = out.focus_gained
        if out.focus_spent:
            d["focus_spent"] = out.focus_spent
        d["laps"] = out.laps
        d["joker"] = out.joker
        if out.weather:
            d["weather"] = out.weather
    return d
