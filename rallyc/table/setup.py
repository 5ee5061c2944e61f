"""What a game at the table is before its first step: the design file, which stage (or the whole rally, or the race),
the seats (each player's name, colour, car, tires and who drives: a person or a bot), the options, the dice (typed
from the physical dice, or rolled by rallyc with a seed).

A :class:`TableSetup` is the first line of a journal (:mod:`rallyc.table.journal`) and the header of the record the
game exports: the game is set up from that record header by the same functions that set a replay up
(:func:`rallyc.records.start.start_rally`, :func:`rallyc.records.start.race_setup`), so a game played at the table
replays as it was played.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rallyc.records.game_options import game_options, record_design
from rallyc.records.load import RecordError
from rallyc.rules.variants.custom import custom_race

__all__ = ["Seat", "TableSetup", "SetupError", "DRIVERS", "DICE", "COLOURS", "RACE_FORMATS", "GameForm", "plan_game"]

#: who may sit in a seat: a person at the table, or a bot (rallyc.rules.drivers.bot, rallyc.analysis.drivers)
DRIVERS = ("person", "random", "greedy", "strong")
#: where the faces come from: typed as the players roll the physical dice, or rolled by rallyc (seeded)
DICE = ("typed", "auto")
#: the cars' colours, in the order seats take them when none is given
COLOURS = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple")
#: the race formats of a race on a circuit (rallyc.rules.core.race_format; a custom race's comes from its options)
RACE_FORMATS = ("rx", "ice")


class SetupError(ValueError):
    """A game the referee cannot set up: the message says what to change (and the rule, where one refuses it)."""


@dataclass(frozen=True)
class Seat:
    """One player at the table: name, car colour, car and tires (None: the game's own), and who drives it."""

    name: str
    colour: str
    car: str | None = None
    tires: str | None = None
    #: ``person`` or a bot: ``random``, ``greedy``, ``strong`` (:data:`DRIVERS`)
    driver: str = "person"

    @property
    def is_bot(self) -> bool:
        return self.driver != "person"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "colour": self.colour, "driver": self.driver}
        if self.car is not None:
            out["car"] = self.car
        if self.tires is not None:
            out["tires"] = self.tires
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Seat":
        return cls(str(data["name"]), str(data["colour"]), data.get("car"), data.get("tires"),
                   str(data.get("driver", "person")))


@dataclass(frozen=True)
class TableSetup:
    """A game at the table before its first step (see the module docstring).

    ``file`` is the design file (a path; a journal keeps it relative to itself); ``stage`` one stage (or circuit)
    of the design by name (None: the first); ``rally``: every stage of the design, one after the other;
    ``race_format``: ``rx`` or ``ice`` for a race on a circuit (None: ``rx``); ``design``: the design's title when
    the file holds several; ``options``: the record's options (names of ``rallyc explain --options``);
    ``seed``: the seed of the bots and of ``dice="auto"``."""

    file: str
    seats: tuple[Seat, ...]
    stage: str | None = None
    rally: bool = False
    race_format: str | None = None
    design: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    dice: str = "typed"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "seats": [s.to_json() for s in self.seats],
                               "options": dict(sorted(self.options.items())), "seed": self.seed, "dice": self.dice}
        for key in ("stage", "race_format", "design"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.rally:
            out["rally"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TableSetup":
        return cls(str(data["file"]), tuple(Seat.from_json(s) for s in data["seats"]), data.get("stage"),
                   bool(data.get("rally", False)), data.get("race_format"), data.get("design"),
                   dict(data.get("options", {})), int(data.get("seed", 0)), str(data.get("dice", "typed")))

    def with_file(self, file: str) -> "TableSetup":
        """The same setup with the design file named otherwise (a path relative to another folder)."""
        return replace(self, file=file)

    def problem(self) -> str | None:
        """What is wrong with the setup itself (before the design is read), or None."""
        if not self.seats:
            return "a game needs at least one player (--players)"
        for s in self.seats:
            if s.driver not in DRIVERS:
                return f"{s.name}: a seat is driven by {', '.join(DRIVERS)}, not {s.driver!r}"
        if self.dice not in DICE:
            return f"the dice are {' or '.join(DICE)}, not {self.dice!r}"
        if self.race_format is not None and self.race_format not in RACE_FORMATS:
            return f"a race's format is {' or '.join(RACE_FORMATS)}, not {self.race_format!r}"
        if self.rally and self.stage is not None:
            return "--stage plays one stage, --rally every stage: choose one"
        return None


@dataclass
class GameForm:
    """What :func:`plan_game` found: whether the game is a race, the design and the stages played."""

    race: bool
    design: Any
    stages: list[str]
    header: dict[str, Any]


def plan_game(setup: TableSetup, base: Path) -> GameForm:
    """The record header of the game ``setup`` describes (``track`` as an absolute path), whether it is a race
    (``race``) or stages (``stages``), and the stages' names; :class:`SetupError` saying what to change."""
    problem = setup.problem()
    if problem is not None:
        raise SetupError(problem)
    path = (base / setup.file).resolve()
    if not path.is_file():
        raise SetupError(f"{setup.file}: no such design file")
    probe: dict[str, Any] = {"track": str(path), "options": dict(setup.options)}
    if setup.design is not None:
        probe["design"] = setup.design
    design = record_design(probe, base)
    if design is None:
        raise SetupError(f"{setup.file}: the design does not compile (rallyc check {setup.file} says why)"
                         if setup.design is None else f"{setup.file}: no design titled {setup.design!r}")
    names = [t.name for t in design.tracks]
    if setup.stage is not None and setup.stage not in names:
        raise SetupError(f"{design.title} has no stage {setup.stage!r} (it has {', '.join(names)})")
    stages = names if setup.rally else [setup.stage or names[0]]
    track = next(t for t in design.tracks if t.name == stages[0])
    try:
        _, in_force = game_options(probe, design)
    except RecordError as exc:
        raise SetupError(f"--options: {exc.message}") from None
    custom = custom_race(track.kind, in_force)
    race = (track.kind == "circuit" and custom is None) or (custom is not None and custom.referee == "race")
    if race and setup.rally:
        raise SetupError(f"{design.title} is raced ({track.name} is a circuit or a Head-to-Head): --rally is for "
                         "stages")
    header: dict[str, Any] = {"format": "rallyc-game/2", "track": str(path), "design": design.title,
                              "title": f"{design.title}: " + (", ".join(stages) if not race else track.name)
                              + " at the table",
                              "players": [_player(s, race, setup.race_format) for s in setup.seats],
                              "options": dict(setup.options)}
    if race:
        header["race"] = {"turns": []}
        if custom is not None:
            header["race"]["format"] = "custom"
        elif setup.race_format not in (None, "rx"):
            header["race"]["format"] = setup.race_format
        if track.kind == "stage":
            header["race"]["stage"] = track.name
    else:
        header["stages"] = [{"stage": name, "turns": []} for name in stages]
    return GameForm(race, design, stages, header)


def _player(seat: Seat, race: bool, race_format: str | None) -> dict[str, Any]:
    """A seat as a record's player (a race's car is the format's unless the seat names one)."""
    out: dict[str, Any] = {"name": seat.name, "colour": seat.colour}
    if seat.car is not None:
        out["car"] = seat.car
    elif race and race_format == "ice":
        out["car"] = "ice"
    if seat.tires is not None:
        out["tires"] = seat.tires
    return out
