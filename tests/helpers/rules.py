"""Helpers for the rules tests: small sketched tracks, cars put in place, turns written compactly."""

from __future__ import annotations

from rallyc.rules import Card, CardClaim, Die, Options, Player, Roll, Stage, Turn, ZeroSide
from rallyc.rules.sketch import sketch

STRAIGHT = "N S N N N N N N N N F N N"


def make_stage(text: str = STRAIGHT, players: int = 2, *, cars: list[tuple[str, str]] | None = None,
               tokens: tuple[str, ...] = (), components=None, **options) -> Stage:
    """A stage on a sketch; ``cars`` gives (car, tires) per player (default R6 on gravel tires)."""
    names = ["A", "B", "C", "D", "E", "F"][:players]
    colours = ["red", "blue", "green", "yellow", "white", "black"]
    kinds = list(cars or []) + [("r6", "gravel")] * players
    return Stage(sketch(text, tokens=tokens), [Player(n, c, *k) for n, c, k in zip(names, colours, kinds)],
                 Options(**options), components)


def put(stage: Stage, name: str, space: str, gear: int, status: str = "road", seconds: int = 0) -> None:
    """Place a car on ``space`` in ``gear`` (its top card), as if it had driven there."""
    car = stage.cars[name]
    car.space = space
    car.status = status
    car.seconds = seconds
    if gear or not car.cards:
        car.cards = [Card(gear, stage.components.time_card_seconds(gear) if gear else 60, zero=gear == 0,
                          icon="spinout" if gear == 0 else None)]


def turn_of(stage: Stage, name: str, order: list[str] | None = None) -> None:
    """Make it ``name``'s turn (first in the round unless ``order`` says otherwise)."""
    stage.order = order or [name] + [n for n in stage.start_order if n != name]
    stage.position = stage.order.index(name)


def dice(*specs: str) -> list[Roll]:
    """``"gear2@1.2.l"`` (face ok), ``":w"`` warning, ``":s"`` secured, ``":-"`` not rolled,
    ``"+b"`` paired Brake (``:w/w`` for both faces), ``"+B"`` paired Boost (same faces), ``">3.3.r"`` jump
    landing, ``"#minus1"`` shortcut token."""
    out = []
    for spec in specs:
        token = None
        if "#" in spec:
            spec, token = spec.split("#")
        face_part = "o"
        if ":" in spec:
            spec, face_part = spec.split(":")
        land = None
        if ">" in spec:
            spec, land = spec.split(">")
        name, to = spec.split("@")
        boost = name.endswith("+B")
        name = name.removesuffix("+B")
        brake = name.endswith("+b")
        name = name.removesuffix("+b")
        faces = face_part.split("/")
        conv = {"o": "ok", "w": "warning", "s": None, "-": None}
        face = conv[faces[0]]
        pair = brake or boost
        bface = conv[faces[1]] if len(faces) > 1 else (face if pair else None)
        if pair and len(faces) == 1 and face is not None:
            bface = "ok"
        out.append(Roll(Die(name, to, brake, land, boost), face, bface if brake else None, faces[0] == "s", token,
                        bface if boost else None))
    return out


def turn(player: str, *specs: str, flat_out: bool = False, relaid: list[str] | None = None,
         zero: ZeroSide | None = None, **kw) -> Turn:
    card = CardClaim(zero=zero) if zero else kw.pop("card", None)
    return Turn(player, dice(*specs), flat_out=flat_out, relaid=dice(*relaid) if relaid is not None else None,
                card=card, **kw)
