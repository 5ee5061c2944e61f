"""A rally: stages one after another, with registered times, Assistance, damage and the Spare Tire
carried over, and the starting order from the overall classification (CORE-RALLY, CORE-RETIRE-04,
CORE-ADV-09/10/15); tires changed only at the start of the rally or after Assistance, soft-tire wear
carried (MC-TIRE-03..06, MC-SOFT-07).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TypedDict

from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components, ComponentsError, load_components
from rallyc.rules.core.cards import CardTable
from rallyc.rules.variants.circuit_trial import CircuitTimeTrial
from rallyc.rules.variants.custom import custom_race
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.options import Options
from rallyc.rules.variants.speed_trial import CircuitSpeedTimeTrial, SpeedTimeTrial
from rallyc.rules.core.stage import Carry, Player, Stage, StageResult
from rallyc.rules.core.state import Car
from rallyc.rules.variants.technical_h2h import CircuitHeadToHead, TechnicalHeadToHead
from rallyc.rules.core.trace import applied as record_applied

__all__ = ["Rally", "StageRecord", "CarriedOver", "stage_engine"]


def stage_engine(racetrack: str, options: Options) -> type[Stage]:
    """The variant of the core stage a game of Time cards on this racetrack is played by: the core stage; lap by
    lap on a circuit (a custom Time Trial, CUSTOM-02/04); the Technical Head-to-Head when the options make the game
    one (CUSTOM-05/14); a Time Trial under Speed Track rules (CUSTOM-08/13)."""
    custom = custom_race(racetrack, {"race-type": options.race_type, "track-rules": options.track_rules,
                                     "damage-bag": options.damage_bag})
    h2h = custom is not None and custom.race_type == "head-to-head"
    speed = custom is not None and custom.track_rules == "speed" and not h2h  # CUSTOM-08/13
    if racetrack == "circuit":
        return CircuitHeadToHead if h2h else CircuitSpeedTimeTrial if speed else CircuitTimeTrial
    return TechnicalHeadToHead if h2h else SpeedTimeTrial if speed else Stage


class CarriedOver(TypedDict):
    """What a car takes from a stage to the next (CORE-RALLY-04/07), as the replay report writes it."""

    damage: dict[str, int]
    spare_tire: bool


@dataclass
class StageRecord:
    """One played stage of the rally: its result and what each car carries out of it."""

    name: str
    order: list[str]
    result: StageResult
    penalties: dict[str, int] = field(default_factory=dict)
    times: dict[str, int | None] = field(default_factory=dict)
    assistance: bool = False
    carried: dict[str, CarriedOver] = field(default_factory=dict)
    #: the rule IDs the end of the stage applied
    applied: tuple[str, ...] = ()


class Rally:
    """Chains :class:`Stage` s over the tracks of a rally."""

    def __init__(self, tracks: list[Track], players: list[Player], options: Options | None = None,
                 components: Components | None = None, flippers: list[Flipper | None] | None = None,
                 cards: CardTable | None = None) -> None:
        """``flippers``: per track, what recompiles it with tiles flipped (``Design.flipper``), for the
        Monte-Carlo ``weather`` option (MC-WEATHER-04). ``cards``: the game's Time-card table, the same in every
        stage (the named assumptions by default)."""
        self.tracks = tracks
        self.flippers = list(flippers) if flippers is not None else [None] * len(tracks)
        self.players = list(players)
        self.options = options or Options()
        self.components = components or load_components()
        self.cards = cards or CardTable.from_components(self.components)
        self.carry: dict[str, Carry] = {p.name: Carry(Counter(), True, True) for p in players}
        self.overall: dict[str, int | None] = {p.name: 0 for p in players}
        self.stages: list[StageRecord] = []
        self.current: Stage | None = None
        self._order: list[str] = [p.name for p in players]
        #: tires fitted per player (MC-TIRE-02); the car category never changes (MC-TIRE-06)
        self.tires: dict[str, str] = {p.name: p.tires for p in players}

    @property
    def one_off(self) -> bool:
        return len(self.tracks) == 1

    def next_order(self) -> list[str]:
        """Starting order of the next stage: the players' order first (CORE-SETUP-07), then best overall
        time first (CORE-RALLY-13); ties keep the previous starting order (reading 18)."""
        if not self.stages:
            return list(self._order)
        prev = self._order
        big = 10 ** 9
        return sorted(prev, key=lambda n: (self.overall[n] if self.overall[n] is not None else big, prev.index(n)))

    def change_tires(self, tires: dict[str, str]) -> None:
        """Fit tires at the start of the next stage: at the first stage freely (MC-TIRE-03), later only after a
        stage with Assistance (MC-TIRE-04); same car category (MC-TIRE-06); soft tires fitted or renewed get
        the T1 Wear marker (MC-SOFT-02, MC-SOFT-07)."""
        by_name = {p.name: p for p in self.players}
        for name, kind in tires.items():
            if name not in by_name:
                raise IllegalMove("CORE-SETUP-06", f"no player {name!r}", f"tires.{name}")
            if self.stages and self.options.repairs == "no":
                raise IllegalMove("CUSTOM-15", f"no tire change in this game (option repairs no): {name} keeps "
                                               f"{self.tires[name]}", f"tires.{name}")
            if self.stages and not self.stages[-1].assistance:
                raise IllegalMove("MC-TIRE-04", f"no Assistance after {self.stages[-1].name}: {name} cannot change "
                                                f"tires (keeps {self.tires[name]})", f"tires.{name}")
            try:
                self.components.dashboard(by_name[name].car, kind)
            except ComponentsError as exc:
                raise IllegalMove("MC-TIRE-06", f"{exc}: a tire change keeps the car category", f"tires.{name}")
            self.tires[name] = kind
            self.carry[name].wear = 0
            record_applied(("MC-TIRE-03", "MC-TIRE-06") if not self.stages else ("MC-TIRE-04", "MC-TIRE-06", "MC-SOFT-07"))

    def start_stage(self, order: list[str] | None = None, tires: dict[str, str] | None = None) -> Stage:
        """Set up the next stage; ``order`` (a recorded draw) must agree with the classification; ``tires``
        are the tire changes made before it (see :meth:`change_tires`)."""
        if tires:
            self.change_tires(tires)
        k = len(self.stages)
        if k >= len(self.tracks):
            raise IllegalMove("CORE-RALLY-15", f"the rally has {len(self.tracks)} stage(s)", "")
        expected = self.next_order()
        if order is not None:
            if sorted(order) != sorted(expected):
                raise IllegalMove("CORE-SETUP-06", f"the starting order must name every player once: {expected}", "order")
            if k > 0:
                key = {n: self.overall[n] for n in expected}
                if [key[n] for n in order] != [key[n] for n in expected]:
                    raise IllegalMove("CORE-RALLY-13", f"the starting order follows the overall times: "
                                                       f"{', '.join(expected)}", "order")
            expected = list(order)
        self._order = expected
        # a Player is frozen: the same one serves again unless its tires were changed (no dataclasses.replace)
        by_name = {p.name: p if p.tires == self.tires[p.name] else replace(p, tires=self.tires[p.name])
                   for p in self.players}
        engine = stage_engine(self.tracks[k].kind, self.options)
        self.current = engine(self.tracks[k], [by_name[n] for n in expected], self.options, self.components,
                              carry=self.carry, one_off=self.one_off, flipper=self.flippers[k], cards=self.cards)
        return self.current

    def end_stage(self, *, spare_between: tuple[str, ...] | list[str] = (), penalties: dict[str, int] | None = None) -> StageRecord:
        """Close the current stage: register times (CORE-RALLY-01), Assistance or carried damage, the Spare
        Tire between stages (CORE-RALLY-08), Checkpoint penalties (CORE-ADV-09/10)."""
        stage = self.current
        if stage is None or not stage.is_over():
            raise IllegalMove("CORE-STAGEEND-01", "the stage is not over: some cars have not crossed the finish line", "")
        penalties = dict(penalties or {})
        if penalties and not self.options.checkpoints:
            raise IllegalMove("CORE-ADV-09", "Checkpoint penalties need the checkpoints option", "checkpoint")
        res = stage.result()
        times = self._register_times(res.times, penalties)
        assistance = stage.track.has_assistance  # CORE-RALLY-02
        carried: dict[str, CarriedOver] = {}
        for name, car in stage.cars.items():
            k = self._carry_over(name, car, assistance)
            if name in spare_between:
                self._spare_between(name, k, assistance)
            sisu = self.options.sisu
            if sisu == "per-stage" or (sisu == "assistance" and assistance):
                k.sisu = True
            elif sisu is not None:
                k.sisu = car.sisu
            carried[name] = {"damage": dict(sorted(k.damage.items())), "spare_tire": k.spare}
        rec = StageRecord(stage.track.name, list(self._order), res, penalties, times, assistance, carried)
        rec.applied = self._end_rules(stage, rec, bool(spare_between))
        record_applied(rec.applied)
        self.stages.append(rec)
        self.current = None
        return rec

    def _register_times(self, stage_times: dict[str, int | None], penalties: dict[str, int]
                        ) -> dict[str, int | None]:
        """Each player's stage time with its Checkpoint penalties, 5 seconds a token (CORE-ADV-09/10), added to its
        overall time (CORE-RALLY-14; none once it has none)."""
        times: dict[str, int | None] = {}
        for name, t in stage_times.items():
            p = penalties.get(name, 0)
            if p < 0:
                raise IllegalMove("CORE-ADV-09", "a Checkpoint penalty is 0 or more 5-second tokens", f"checkpoint.{name}")
            timed = None if t is None else t + 5 * p
            times[name] = timed
            before = self.overall[name]
            if before is not None:
                self.overall[name] = None if timed is None else before + timed
        return times

    def _carry_over(self, name: str, car: Car, assistance: bool) -> Carry:
        """What ``name``'s car carries to the next stage: repaired at Assistance or after retiring (CORE-RALLY-03,
        CORE-RETIRE-04, CORE-RALLY-10; no repairs at Assistance with repairs no, CUSTOM-15), else its Gear,
        Coast/Leader, Brake and Boost Damage and its Spare Tire (CORE-RALLY-04/07: OK!, -1 and flags go back);
        the soft tires' wear (Ambiguity 23: carried unless the tires are renewed)."""
        k = self.carry[name]
        if car.status == "retired" or (assistance and self.options.repairs != "no"):
            k.damage = Counter()
            k.spare = True
        else:
            k.damage = Counter({d: car.damage.get(d, 0) for d in ("gear", "coast", "brake", "boost")
                                if car.damage.get(d, 0) > 0})
            k.spare = car.spare
        k.wear = car.wear
        return k

    def _spare_between(self, name: str, k: Carry, assistance: bool) -> None:
        """The Spare Tire fitted between stages takes one Coast/Leader Damage token off (CORE-RALLY-08): only
        without Assistance, with repairs allowed (CUSTOM-15) and the card still held (CORE-SPARE-06)."""
        if self.options.repairs == "no":
            raise IllegalMove("CUSTOM-15", "no repairs in this game (option repairs no): no Spare Tire",
                              "spare_tire")
        if assistance:
            raise IllegalMove("CORE-RALLY-08", "the Spare Tire between stages is for stages without Assistance",
                              "spare_tire")
        if not k.spare:
            raise IllegalMove("CORE-SPARE-06", f"{name} has no Spare Tire card", "spare_tire")
        if k.damage.get("coast", 0) < 1:
            raise IllegalMove("CORE-RALLY-08", f"{name} has no Coast/Leader Damage token to remove", "spare_tire")
        k.damage["coast"] -= 1
        if not k.damage["coast"]:
            del k.damage["coast"]
        k.spare = False

    def _end_rules(self, stage: Stage, rec: StageRecord, spare_between: bool) -> tuple[str, ...]:
        """The rule IDs the end of a stage applied (times, Assistance, what is carried, CORE-RALLY)."""
        out = ["CORE-STAGEEND-01", "CORE-STAGEEND-08", "CORE-STAGEEND-09", "CORE-SECONDS-11", "CORE-RALLY-01",
               "CORE-RALLY-05", "CORE-RALLY-06", "CORE-RALLY-07"]
        if rec.result.retired:
            out += ["CORE-RETIRE-03", "CORE-RETIRE-04"]
        if not self.one_off:
            out += ["CORE-RALLY-02", "CORE-RALLY-09", "CORE-RALLY-10", "CORE-RALLY-11", "CORE-RALLY-12",
                    "CORE-RALLY-13", "CORE-RALLY-14", "CORE-RALLY-15"]
            out.append("CORE-RALLY-03" if rec.assistance else "CORE-RALLY-04")
        if spare_between:
            out.append("CORE-RALLY-08")
        if self.options.checkpoints:
            out += ["CORE-ADV-09", "CORE-ADV-10"]
        if self.options.sisu is not None:
            out.append("CORE-ADV-15")
        if any(c.dashboard.tires == "soft" for c in stage.cars.values()):
            out += ["MC-SOFT-01", "MC-SOFT-02"]
        return tuple(out)

    def classification(self) -> list[tuple[str, int | None]]:
        """Players by overall time, best first (CORE-RALLY-15); a Head-to-Head's by its finishing order (CUSTOM-05)."""
        ranking = self.current.ranking() if isinstance(self.current, TechnicalHeadToHead) else \
            self.stages[-1].result.ranking if self.stages else None
        if ranking is not None:  # the first car across the Finish Line wins, whatever its Time cards add up to
            return sorted(self.overall.items(), key=lambda kv: ranking.index(kv[0]))
        big = 10 ** 9
        return sorted(self.overall.items(), key=lambda kv: (kv[1] if kv[1] is not None else big,
                                                            self._order.index(kv[0])))
