"""The hooks a variant fills in the core turn: one :class:`typing.Protocol` per hook family, the race variants
an option plays, the flags on an RX race's track and the weather of a stage.

The core turn (the race, the plans, the turn, the bot, the machine) knows a variant only through these protocols;
it imports none (``.importlinter``'s ``core-imports-no-variant`` contract). RX Full Contact
(:mod:`rallyc.rules.variants.full_contact`) fills the first three families, the Yellow Flags
(:mod:`rallyc.rules.variants.yellow_flags`) and the Monte-Carlo weather (:mod:`rallyc.rules.variants.weather`) the
last two:

- laying dice (:class:`OccupiedSpaces`, a planning context's ``contact``): a die laid on a space that holds a car,
  and the board as the plan's earlier dice left it; what such a die does, as laid (:class:`CarsMoved`, a
  :class:`~rallyc.rules.core.plans.Placed`'s ``contact``);
- the record (:class:`DieClaim`, a :class:`~rallyc.rules.core.turn.Roll`'s ``contact``): what a die says it did to the
  other cars, and what the turn reports of it (:class:`TurnEvent`, an RX outcome's ``contact``);
- the race (:class:`RaceVariant`, ``Race.contact``): the board a turn plans on, the start of a turn (Warnings, a
  Loss of Control before any die), resolution, commit and the rules applied;
- the flags on the track (:class:`TrackFlags`, ``Race.flag_rule``, in every RX race: the Yellow Flags,
  :class:`~rallyc.rules.variants.yellow_flags.YellowFlags`): the spaces where no car moves alongside on the board of
  a turn, and the flags lifted and placed at its commit; the race keeps the flags (``Race.yellow``,
  ``Race.yellow_pairs``);
- the weather of a stage (:class:`StageWeather`, at the stage's End of the Turn, when a Weather token is drawn on a
  stage that can flip its tiles): the route steps it flips; the stage keeps the tiles flipped and turns them.

What the RX race keeps in its own code and could move here (see docs/api.md): the RX Weather rule would fill the
draws of ``resolve`` and the ``commit`` of the weather turned.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.dice import Die
    from rallyc.rules.core.driver import Driver
    from rallyc.rules.core.plans import PlanContext, Placed, Walk
    from rallyc.rules.core.race import Race, RxCar, RxOutcome
    from rallyc.rules.core.rolling import Movement
    from rallyc.rules.core.stage import Stage
    from rallyc.rules.core.state import Car, TrackIndex
    from rallyc.rules.core.turn import Outcome, Turn

__all__ = ["Refusal", "Moved", "CarsMoved", "OccupiedSpaces", "DieClaim", "TurnEvent", "RaceVariant",
           "RACE_VARIANTS", "race_variant", "Flags", "Pairs", "TrackFlags", "TRACK_FLAGS", "track_flags",
           "StageWeather", "STAGE_WEATHER", "stage_weather"]

#: why a die may not be laid: (rule ID, message, the die's field at fault)
Refusal = tuple[str, str, str]
#: a car moved by a die laid: (name, from, to)
Moved = tuple[str, str, str]
#: flags on the track: route step -> the players who drew one there (RX-DAMAGE-03/07)
Flags = dict[int, list[str]]
#: route step -> the pairs of cars already alongside each other when a flag was placed there (RX-DAMAGE-06)
Pairs = dict[int, set[frozenset[str]]]


class CarsMoved(Protocol):
    """What a die laid on a space that holds a car does, as the core reads it (a Full Contact push or Push
    Through, :class:`~rallyc.rules.variants.full_contact.ContactMove`)."""

    @property
    def moved(self) -> tuple[Moved, ...]:
        """The cars it moved, in order: the dice laid after it see them there."""

    @property
    def no_end(self) -> bool:
        """The move may not end on this die (RX-THROUGH-06: a space two cars share)."""


class OccupiedSpaces(Protocol):
    """Laying dice where cars stand: a planning context's ``contact`` (Full Contact's
    :class:`~rallyc.rules.variants.full_contact.ContactPlan`). Without one, a space that holds a car is refused
    (CORE-MOVE-02)."""

    def view(self, ctx: PlanContext, w: Walk) -> PlanContext:
        """``ctx`` with the cars where the plan ``w``'s dice so far have moved them (called when ``w.moved``)."""

    def place(self, ctx: PlanContext, w: Walk, die: Die, gear: int) -> tuple[Placed | None, Refusal | None]:
        """``die`` laid after ``w`` in ``gear`` on ``die.to``, which holds a car: where it takes the car (its
        ``contact`` a :class:`CarsMoved`), or why it may not be laid."""

    def choices(self, ctx: PlanContext, w: Walk, die: Die) -> list[str]:
        """The places the die may name for the car it moves (``push_to``), for plan enumeration."""


class DieClaim(Protocol):
    """What a record says a die did to the other cars (a :class:`~rallyc.rules.core.turn.Roll`'s ``contact``: Full
    Contact's :class:`~rallyc.rules.variants.full_contact.ContactClaim`), checked and completed by the variant."""

    @property
    def kind(self) -> str:
        """The record's key for it on the die (``push``, ``through``)."""

    def to_json(self) -> Mapping[str, object]:
        """The record's object under that key."""


class TurnEvent(Protocol):
    """What a variant did in a turn, for the text replay and the report (an RX outcome's ``contact``)."""

    def describe(self) -> str:
        """A few words for the text replay."""

    def to_json(self) -> Mapping[str, object]:
        """The report's object."""


class RaceVariant(Protocol):
    """A variant of the RX race (``Race.contact``, Full Contact's :class:`~rallyc.rules.variants.full_contact.Contact`): the race
    calls it at these points of every turn."""

    def board(self, mover: str) -> tuple[OccupiedSpaces, dict[str, int]]:
        """What ``mover``'s turn plans on: the planning context's ``contact`` and ``others`` (space -> gear)."""

    def warnings(self, name: str) -> int:
        """Warnings added to the player's turn before any die is rolled."""

    def loses_control(self, name: str, ctx: PlanContext) -> bool:
        """The player's turn is a Loss of Control before any die (the bot then lays none)."""

    def start_of_turn(self, car: RxCar, turn: Turn, ctx: PlanContext) -> Movement | None:
        """A movement imposed before any die (a Loss of Control), or None: the dice are played."""

    def start_rules(self, car: RxCar, ctx: PlanContext, loc: bool) -> tuple[str, ...]:
        """The rules applied at the start of ``car``'s turn (``loc``: a Loss of Control before any die)."""

    def resolve(self, car: RxCar, turn: Turn, ctx: PlanContext, move: Movement, out: RxOutcome,
                driver: Driver | None) -> None:
        """Check the turn's claims against the dice the car reached; draw (``driver``) or check chance; keep what
        changes for :meth:`commit` (nothing is changed here)."""

    def commit(self, car: RxCar, out: RxOutcome) -> tuple[str, ...]:
        """Apply the resolved turn to the race (after the race's own commit); the rule IDs applied."""


class TrackFlags(Protocol):
    """The flags on an RX race's track as the race reads them (``Race.flag_rule``: the Yellow Flags,
    :class:`~rallyc.rules.variants.yellow_flags.YellowFlags`, RX-DAMAGE-03..08), built on the race's track index. The
    race keeps the flags (:data:`Flags`, :data:`Pairs`) and calls these on the board of a turn and at its commit."""

    def in_force(self, flags: Flags, mover: str, from_gear0: bool) -> Flags:
        """The flags at the start of ``mover``'s turn (``from_gear0``: it starts in Gear 0): the board it plans on,
        and the flags the commit keeps (a new mapping: the caller keeps and extends it)."""

    def board(self, in_force: Flags, pairs: Pairs, mover: str, others: Iterable[tuple[str, str]],
              covered: dict[frozenset[int], frozenset[str]]) -> tuple[frozenset[str], frozenset[str]]:
        """What the flags ``in_force`` forbid ``mover`` this turn (``others``: (name, space) of the other cars on
        the track): the planning context's ``no_alongside`` and ``alongside_before_flag``; ``covered``: the caller's
        per-track memo of the spaces of each set of flagged route steps."""

    def placed(self, step: int, cars: Iterable[tuple[str, str]]) -> set[frozenset[str]]:
        """The commit of a flag placed on ``step`` (``cars``: (name, space) of the cars on the track): the pairs of
        cars it finds alongside each other, which keep moving normally while it stays (:data:`Pairs`)."""


#: The flags on an RX race's track: the module and the class (called with the race's track index) that play them,
#: named, not imported, like :data:`RACE_VARIANTS`. Every RX race has them (its Damage bag holds Yellow Flags).
TRACK_FLAGS: tuple[str, str] = ("rallyc.rules.variants.yellow_flags", "YellowFlags")


def track_flags(index: TrackIndex) -> TrackFlags:
    """The flags on a race's track (:data:`TRACK_FLAGS`), built for its ``index``."""
    module, name = TRACK_FLAGS
    factory: Callable[[TrackIndex], TrackFlags] = getattr(import_module(module), name)
    return factory(index)


class StageWeather(Protocol):
    """The weather of a stage (the Monte-Carlo weather, :func:`~rallyc.rules.variants.weather.weather_flips`,
    MC-WEATHER-02..06), called at the stage's End of the Turn when a Weather token is drawn."""

    def __call__(self, stage: Stage, car: Car, out: Outcome, status: str) -> list[int]:
        """The route steps the Weather token(s) drawn in ``car``'s turn (``out``, the car ending it ``status``) flip,
        sorted: the stage turns those tiles over."""


#: The weather of a stage: the module and the function that says which tiles a Weather token flips, named, not
#: imported, like :data:`RACE_VARIANTS`; loaded when one is drawn on a stage that can flip its tiles.
STAGE_WEATHER: tuple[str, str] = ("rallyc.rules.variants.weather", "weather_flips")


def stage_weather() -> StageWeather:
    """The weather of a stage (:data:`STAGE_WEATHER`)."""
    module, name = STAGE_WEATHER
    flips: StageWeather = getattr(import_module(module), name)
    return flips


#: The race variants an option plays: its field of :class:`~rallyc.rules.core.options.Options` -> the module and the
#: class (called with the race) that plays it. Named, not imported: the core turn imports no variant; the race loads
#: a variant's module when the option is on (the way ``rallyc.rules`` loads its names, PEP 562).
RACE_VARIANTS: dict[str, tuple[str, str]] = {
    "full_contact": ("rallyc.rules.variants.full_contact", "Contact"),
}


def race_variant(race: Race, option: str) -> RaceVariant | None:
    """The variant ``option`` plays (:data:`RACE_VARIANTS`), built for ``race``; None when the option is off."""
    if not getattr(race.options, option):
        return None
    module, name = RACE_VARIANTS[option]
    factory: Callable[[Race], RaceVariant] = getattr(import_module(module), name)
    return factory(race)
