"""A Time Trial under Speed Track rules (RX book, Customisable Races: CUSTOM-06/08/13), on a stage or a circuit.

The Time Trial is the core stage's (:class:`~rallyc.rules.core.stage.Stage`): a staggered start, the order Distance >
Speed > Position, a Time card every turn, Second tokens deducted from the time, the lowest time wins (CUSTOM-06/07).
What the Speed Track rules change:

- the surfaces are cosmetic (CUSTOM-08): each car takes its dice from one column of its Dashboard, the column of
  the tires fitted, on every surface (named assumption ``custom_crossover_dashboard``, as in the custom Head-to-Head
  under Speed Track rules); so there are no Leader dice (a Gravel-column rule) and no per-surface limits;
- a Loss of Control's consequences are the Dashboard's (CUSTOM-13, GT method), not the Time card's: the car stays on
  its space and plays its next turn from Gear 0, and draws the Damage tokens of its Dashboard's cell for its gear and
  the tile's danger colour (assumption ``rx_loc_damage``, RX-LOC-02..04). Named reading ``custom_speed_trial_loc``:
  the turn still takes the Time card of the gear at the Loss of Control on its "0" side, which adds the "0" side's
  seconds (CORE-LOC-03/04: a Time Trial is timed by its cards); its icon and black marks are not read (no Spin Out,
  Crash or SISU), so a record states no ``card.zero``.

The Damage set is the chosen one, the GT set by default (the standard one of Speed Tracks, CUSTOM-18); a Yellow Flag
drawn is placed on the track as in a race (:mod:`rallyc.rules.variants.yellow_flags`, RX-DAMAGE-03..08) and goes to its
drawer's Dashboard when it starts a later turn in Gear 0 (after the Loss of Control that drew it, its next turn).

On a circuit the car runs its laps first (:class:`CircuitSpeedTimeTrial`, with
:class:`~rallyc.rules.variants.circuit_trial.CircuitTimeTrial`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components
from rallyc.rules.core.cards import CardTable
from rallyc.rules.variants.circuit_trial import CircuitTimeTrial
from rallyc.rules.core.damage_bag import check_drawn
from rallyc.rules.core.domain import CarStatus
from rallyc.rules.core.driver import Driver
from rallyc.rules.core.engine import TrackContexts, check_claims
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.plans import PlanContext
from rallyc.rules.core.race_format import damage_set, standard_bag
from rallyc.rules.core.rolling import Movement
from rallyc.rules.core.rx_dashboard import loc_damage
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Carry, Player, Stage
from rallyc.rules.core.state import DAMAGE_KINDS, Card, Car
from rallyc.rules.core.timecards import StageChange, card_rules
from rallyc.rules.core.turn import LossOfControl, Outcome, Turn
from rallyc.rules.variants.yellow_flags import Flags, Pairs, flag_limits, flags_in_force, pairs_alongside

__all__ = ["SpeedTimeTrial", "CircuitSpeedTimeTrial", "SPEED_LOC_TABLE", "SPEED_TRACK_BAG"]

#: the named assumption holding a Rally car's Dashboard Loss-of-Control table (CUSTOM-13)
SPEED_LOC_TABLE = "rx_loc_damage"
#: the standard Damage set of Speed Tracks (CUSTOM-18), when the race chooses none
SPEED_TRACK_BAG = "gt"
#: the Yellow Flag token of the GT and light sets (RX-DAMAGE-03)
YELLOW = "yellow"
#: the rules a Loss of Control applies when the Dashboard gives its consequences (CUSTOM-13; RX-LOC-02..04: the car
#: stays on its space, restarts from Gear 0, draws its Dashboard cell's Damage tokens)
_DASHBOARD_LOC = ("CUSTOM-13", "RX-LOC-02", "RX-LOC-03", "RX-LOC-04")


class SpeedTimeTrial(Stage):
    """A Time Trial under Speed Track rules on a stage: the core stage with one Dashboard column on every surface
    and Loss-of-Control damage from the Dashboard (CUSTOM-06/08/13)."""

    surfaces_change_dice: ClassVar[bool] = False

    def __init__(self, track: Track, players: list[Player], options: Options | None = None,
                 components: Components | None = None, carry: dict[str, Carry] | None = None,
                 one_off: bool = True, flipper: Flipper | None = None, cards: CardTable | None = None) -> None:
        super().__init__(track, players, options, components, carry, one_off, flipper, cards)
        if self.options.weather:
            raise ValueError("the Monte-Carlo weather turns snow and asphalt tiles over: under Speed Track rules "
                             "surfaces never change the dice (CUSTOM-08/16)")
        #: the Damage set (CUSTOM-18/19/22)
        shortcuts = any(s.kind == "shortcut" for s in self.index.spaces.values())
        self.bag_name = self.options.damage_bag or standard_bag("speed", shortcuts)
        #: Yellow Flags on the track, and the pairs of cars alongside when each was placed (RX-DAMAGE-03/06)
        self.yellow: Flags = {}
        self.yellow_pairs: Pairs = {}
        #: Yellow Flags drawn (on the track, then on their drawer's Dashboard: out of the bag either way)
        self.yellow_drawn = 0
        self._neighbours = self.index.step_neighbours

    # -- Speed Track dice (CUSTOM-08)
    def dice_surface(self, car: Car, surface: str) -> str:
        """The column of the tires fitted, whatever the surface (CUSTOM-08, assumption custom_crossover_dashboard)."""
        return car.dashboard.tires

    def leader_rule_active(self) -> bool:
        """No Leader dice: the Gravel (leader) column is a surface's, and surfaces are cosmetic (CUSTOM-08)."""
        return False

    def damage_bag(self) -> dict[str, int]:
        """The chosen Damage set, the GT set by default (CUSTOM-18/19/20/22)."""
        return damage_set(self.components, self.bag_name)

    def damage_out(self) -> Counter[str]:
        """The core stage's, with the Yellow Flags drawn (on the track or a Dashboard)."""
        out = super().damage_out()
        out[YELLOW] = max(out[YELLOW], self.yellow_drawn)
        return out

    def bag_left(self) -> int:
        """The core stage's count, less the Yellow Flags drawn (on the track or a Dashboard)."""
        return super().bag_left() - self.yellow_drawn

    # -- Yellow Flags (RX-DAMAGE-03..08)
    def _in_force(self, car: Car) -> Flags:
        """The flags at the start of ``car``'s turn: its own go to its Dashboard if it starts in Gear 0."""
        return flags_in_force(self.yellow, car.name, car.gear == 0)

    def context_variant(self, car: Car, track: TrackContexts) -> dict[str, Any]:
        """The core stage's, with what the Yellow Flags in force forbid (RX-DAMAGE-04..06)."""
        variant = super().context_variant(car, track)
        if self.yellow:
            variant["no_alongside"], variant["alongside_before_flag"] = flag_limits(
                self.index, self._neighbours, self._in_force(car), self.yellow_pairs, car.name,
                [(c.name, c.space) for c in self.cars.values() if c is not car and c.impedes and c.space],
                track.flagged)
        return variant

    # -- Loss of Control from the Dashboard (CUSTOM-13)
    def end_of_turn(self, car: Car, turn: Turn, ctx: PlanContext, move: Movement, driver: Driver | None
                    ) -> tuple[Outcome, StageChange]:
        """The core stage's End of the Turn; a Loss of Control before the finish is the Dashboard's (CUSTOM-13,
        reading custom_speed_trial_loc)."""
        run = move.run
        if run.loc is None or self.finish_index(car, [p for p, _ in run.resolved]) is not None:
            return super().end_of_turn(car, turn, ctx, move, driver)
        loc = run.loc
        seconds = self.cards.zero
        self._check_loc_claims(turn, loc, seconds)
        self._dashboard_damage(turn, loc, driver)
        path = [p.space for p, _ in run.resolved]
        out = Outcome(
            player=car.name, round=self.round, start=ctx.start, path=path, end=path[-1] if path else ctx.start,
            gear=0, card=Card(loc.gear, seconds, True), warnings=run.warnings, loc=loc, blocked=not turn.dice,
            stopped=run.stopped, flat_out=turn.flat_out, flat_out_failed=move.failed, gained=move.gained,
            spent=move.spent, damage=list(turn.damage), tokens=run.tokens, sisu=move.sisu, leader=False)
        check_claims(self.tokens, self.gear_rule, turn, out)
        # the "0" side's icon is not read: the Dashboard gives the consequences (CUSTOM-13)
        self.log.end += card_rules(self, car, turn, ctx, move, out, None, icon_read=False)
        return out, StageChange(CarStatus.ROAD, run.minus1)  # stays on the road, on its space (RX-LOC-02)

    @staticmethod
    def _check_loc_claims(turn: Turn, loc: LossOfControl, seconds: int) -> None:
        """What a record says of a Loss of Control from the Dashboard: no "0" side read (CUSTOM-13), the card of
        the gear at the Loss of Control (CORE-LOC-03) adding the game's "0" side seconds (CORE-LOC-04); no tire
        change after it (CORE-SPARE-01)."""
        claim = turn.card
        if claim is not None and claim.zero is not None:
            raise IllegalMove("CUSTOM-13", "under Speed Track rules the Dashboard gives a Loss of Control's "
                                           "consequences: the card's \"0\" side is not read (no `card.zero`)",
                              "card.zero")
        if claim is not None and claim.gear is not None and claim.gear != loc.gear:
            raise IllegalMove("CORE-LOC-03", f"the Loss of Control card is of Gear {loc.gear} (the gear at the Loss "
                                             f"of Control on {loc.space}), not Gear {claim.gear}", "card.gear")
        if claim is not None and claim.seconds is not None and claim.seconds != seconds:
            raise IllegalMove("CORE-LOC-04", f"a \"0\" side of this game adds {seconds} s, not {claim.seconds} s "
                                             f"(the game's card table)", "card.seconds")
        if turn.spare_tire:
            raise IllegalMove("CORE-SPARE-01", "a tire change is declared at the end of a movement, not after a "
                                               "Loss of Control", "spare_tire")

    def _dashboard_damage(self, turn: Turn, loc: LossOfControl, driver: Driver | None) -> None:
        """The Damage tokens of a Loss of Control from the Dashboard (CUSTOM-13, RX-LOC-04), drawn (driver) or
        checked: as many as the table gives for the gear and the tile's danger, of the kinds the bag holds
        (CORE-SETUP-03)."""
        danger = self.index.spaces[loc.space].danger
        n = min(loc_damage(self.components, loc.gear, danger, SPEED_LOC_TABLE), self.bag_left())
        if driver is not None and not turn.damage and n:
            turn.damage = driver.damage(n)
        if len(turn.damage) != n:
            raise IllegalMove("RX-LOC-04", f"a Loss of Control in Gear {loc.gear} on a {danger} tile draws {n} Damage "
                                           f"token(s) from the Dashboard (CUSTOM-13, assumption {SPEED_LOC_TABLE}), "
                                           f"not {len(turn.damage)}", "damage")
        bag = self.damage_bag()
        for i, d in enumerate(turn.damage):
            if (d not in DAMAGE_KINDS and d != YELLOW) or d not in bag:
                raise IllegalMove("CORE-SETUP-03", f"the {self.bag_name} Damage set holds "
                                                   f"{', '.join(sorted(bag))} tokens, not {d!r}", f"damage[{i}]")
        check_drawn(bag, self.damage_out(), turn.damage, "CORE-SETUP-03")

    def commit(self, car: Car, turn: Turn, out: Outcome, change: StageChange) -> None:
        """The core stage's commit; the car's own Yellow Flags go to its Dashboard when it starts in Gear 0
        (RX-DAMAGE-08), a Yellow Flag drawn goes on the tile of the Loss of Control (RX-DAMAGE-03), not among the
        Damage tokens that take dice away."""
        self.yellow = self._in_force(car)
        super().commit(car, turn, out, change)
        flags = out.damage.count(YELLOW)
        if flags and out.loc is not None:
            car.damage[YELLOW] -= flags
            del car.damage[YELLOW]
            self.yellow_drawn += flags
            step = self.index.spaces[out.loc.space].step
            if step not in self.yellow:
                self.yellow_pairs[step] = pairs_alongside(
                    self.index, self._neighbours, step, [(c.name, c.space) for c in self.cars.values()
                                                         if c.impedes and c.space])
            self.yellow.setdefault(step, []).extend([car.name] * flags)
        if out.retired and self.components.reading("rx_retired_flag") == "removed":
            self.yellow = {s: keep for s, h in self.yellow.items() if (keep := [n for n in h if n != car.name])}
        self.yellow_pairs = {step: pairs for step, pairs in self.yellow_pairs.items() if step in self.yellow}

    def log_end(self, car: Car, turn: Turn, ctx: PlanContext, move: Movement, out: Outcome,
                change: StageChange) -> None:
        """The core stage's, with a Loss of Control from the Dashboard (CUSTOM-13; its "0" side's time stays,
        CORE-LOC-03/04), Speed Track dice (CUSTOM-08) and the Yellow Flags (RX-DAMAGE-03/04/08)."""
        super().log_end(car, turn, ctx, move, out, change)
        end = self.log.end
        dashboard = out.loc is not None and not out.finished
        if dashboard:
            end += _DASHBOARD_LOC
        end.append("CUSTOM-08")
        if out.gained or out.spent:
            end.append("CUSTOM-07")
        if car.gear == 0 and any(car.name in h for h in self.yellow.values()):
            end.append("RX-DAMAGE-08")
        if ctx.no_alongside:
            end.append("RX-DAMAGE-04")
        if dashboard and YELLOW in out.damage:
            end.append("RX-DAMAGE-03")


class CircuitSpeedTimeTrial(SpeedTimeTrial, CircuitTimeTrial):
    """A Time Trial under Speed Track rules on a circuit: the laps of :class:`CircuitTimeTrial`, the Speed Track of
    :class:`SpeedTimeTrial` (CUSTOM-02/06/08/13)."""
