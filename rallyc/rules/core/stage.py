"""A Special Stage being played: cars, rounds, order of play, turns (python-chess's ``Board`` for Rallyman).

>>> stage = Stage(track, [Player("Ann", "red"), Player("Bob", "blue")])   # doctest: +SKIP
>>> stage.to_move(); plans = list(stage.legal_plans(max_dice=2)); stage.play(turn)  # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any, Callable, ClassVar

from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Column, Components, DashboardData, load_components
from rallyc.rules.core.cards import CardTable
from rallyc.rules.core.domain import CarStatus
from rallyc.rules.core.dashboard import Allowance, allowance, allowances, column_name
from rallyc.rules.core.errors import IllegalMove, StageOver
from rallyc.rules.core.options import Options
from rallyc.rules.core.order import order_rules, round_order
from rallyc.rules.core.damage_bag import on_dashboards
from rallyc.rules.core.engine import SECONDS, TrackContexts, TurnEngine
from rallyc.rules.core.plans import PlanContext, Placed, can_lay, start_walk
from rallyc.rules.core.setup import player_problem
from rallyc.rules.core.state import WEATHER, Car, TrackIndex, index_of
from rallyc.rules.core.timecards import StageChange, time_card_end
from rallyc.rules.core.rolling import Movement
from rallyc.rules.core.turn import Outcome, Turn

__all__ = ["Player", "Carry", "Stage", "StageResult"]

#: a Placed die's space
_space_of = attrgetter("space")
_NO_SPACES: frozenset[str] = frozenset()
#: the rules of a turn that starts a car, or starts it again (CORE-START-01/03, CORE-LOC-08, CORE-SPARE-05,
#: CORE-OVERTAKE-09)
_STATUS_RULES = {"waiting": ("CORE-START-01", "CORE-START-03"), "crashed": ("CORE-LOC-08",),
                 "tire": ("CORE-SPARE-05",), "spun": ("CORE-OVERTAKE-09",)}


def _allowance_rules(rules: list[str], ctx: PlanContext, dmg: Counter[str]) -> None:
    """The Dashboard's dice (CORE-DICE-02), Damage tokens taking dice away (CORE-DAMAGE-02..05), -1 tokens on the
    stage (CORE-SHORTCUT-08)."""
    rules.append("CORE-DICE-02")
    if dmg:
        a = ctx.allowance
        printed = a.printed
        for kind, rule, have in (("gear", "CORE-DAMAGE-02", printed.gear), ("brake", "CORE-DAMAGE-03", printed.brake),
                                 ("coast", "CORE-DAMAGE-04", printed.coast + printed.leader)):
            n = dmg.get(kind, 0)
            if n:
                rules += (rule, "CORE-DAMAGE-01", "CORE-DAMAGE-07")
                if n > have:
                    rules.append("CORE-DAMAGE-05")
    if ctx.minus1:
        rules.append("CORE-SHORTCUT-08")


@dataclass(frozen=True)
class Player:
    """A player at setup (CORE-SETUP-06): name, colour, car category and tires."""

    name: str
    colour: str
    car: str = "r6"
    tires: str = "gravel"


@dataclass
class Carry:
    """What a car brings into a stage of a rally (CORE-RALLY-11/12)."""

    damage: Counter[str] = field(default_factory=Counter)
    spare: bool = True
    sisu: bool = True
    #: turns already driven on the soft tires fitted (MC-SOFT-03, Ambiguity 23: wear carries over)
    wear: int = 0


@dataclass
class StageResult:
    """Times of a finished stage (CORE-STAGEEND-08, CORE-RETIRE-03)."""

    times: dict[str, int | None]
    finished: list[str]
    retired: list[str]
    cards: dict[str, int]
    tokens: dict[str, int]
    #: the order that ranks the stage when its times do not: a Head-to-Head's finishing order (CUSTOM-05)
    ranking: list[str] | None = None


class Stage(TurnEngine[Outcome]):
    """The state of one stage: who is where, in which gear, with which cards, whose turn it is.

    The DIRT variant of the core turn engine: Second tokens, Time cards, the Leader dice, the Monte-Carlo
    options."""

    tokens = SECONDS
    gear_rule = "CORE-TURNEND-05"
    over_message = "the stage is over: every car has finished or retired"
    #: surfaces and tires change the dice (Technical Track rules, CUSTOM-09); see :meth:`dice_surface`
    surfaces_change_dice: ClassVar[bool] = True

    cars: dict[str, Car]
    components: Components
    index: TrackIndex
    options: Options

    def __init__(self, track: Track, players: list[Player], options: Options | None = None,
                 components: Components | None = None, carry: dict[str, Carry] | None = None,
                 one_off: bool = True, flipper: Flipper | None = None, cards: CardTable | None = None) -> None:
        """``flipper`` (:class:`rallyc.compiler.Flipper`, from ``Design.flipper``) recompiles the stage with
        tiles flipped; the ``weather`` option needs it (MC-WEATHER-04). ``cards`` is the game's Time-card
        table (the named assumptions by default)."""
        if not players:
            raise ValueError("a stage needs at least one player")
        names = [p.name for p in players]
        problem = player_problem(players)
        if problem is not None:
            raise ValueError(problem[2])
        self.track = track
        self.index = index_of(track)
        self.options = options or Options()
        self.components = components or load_components()
        #: the seconds of the Time cards in this game (CORE-TURNEND-04, CORE-LOC-04, CORE-SPARE-03)
        self.cards = cards or CardTable.from_components(self.components)
        if self.options.weather and flipper is None:
            raise ValueError(f"the weather option flips tiles of {track.name} in mid-stage: build the Stage with "
                             "flipper=design.flipper(name) (a stage compiled from rallyc source)")
        self.flipper = flipper
        #: route steps currently showing their other side (MC-WEATHER-04/05)
        self.flipped: set[int] = set()
        self.one_off = one_off
        self.players = list(players)
        #: starting order: the order of ``players`` (CORE-SETUP-07, CORE-RALLY-13)
        self.start_order = names
        self.cars: dict[str, Car] = {}
        for p in players:
            dash = self.components.dashboard(p.car, p.tires)
            c = Car(p.name, p.colour, dash)
            c.sisu = self.options.sisu is not None  # CORE-ADV-11
            if carry and p.name in carry:
                k = carry[p.name]
                c.damage = Counter(k.damage)
                c.spare = k.spare
                c.sisu = c.sisu and k.sisu
                c.wear = k.wear
            if self.options.repairs == "no":  # CUSTOM-15: no repairs and no tire change in this race
                c.spare = False
            self.cars[p.name] = c
        #: -1 Shortcut tokens per route step (CORE-SHORTCUT-08)
        self.minus1: dict[int, int] = {}
        self.finished_any = False
        self.round = 0
        self.order: list[str] = []
        self.position = 0
        self.outcomes: list[Outcome] = []
        self.rounds: list[list[str]] = []
        self.round_rules: tuple[str, ...] = ()
        #: the Gear dice of a car's Dashboard column per surface (the retirement check, CORE-RETIRE-01)
        self._gear_dice: dict[tuple[str, str], tuple[DashboardData, int]] = {}
        self.next_round()

    # -- rounds and order of play
    def next_round(self) -> None:
        previous = self.order
        offroad_tie = self.__dict__.get("_offroad_tie")
        if offroad_tie is None:  # the game's components do not change: read once per game
            offroad_tie = self.__dict__["_offroad_tie"] = self.components.reading("offroad_tie")
        while not self.is_over():
            self.round += 1
            cars = list(self.cars.values())
            self.order = round_order(cars, self.start_order, self.round, self.index, previous, offroad_tie,
                                     self.distance_of)
            self.position = 0
            if self.order:
                self.rounds.append(list(self.order))
                #: the rules that decided this round's order, recorded with its first turn's
                self.round_rules = order_rules(cars, self.start_order, self.round, self.index, self.distance_of)
                return
            if self.round > len(self.start_order) + 10_000:  # pragma: no cover - defensive
                raise StageOver("no car can play")

    #: a car's Distance for the order of play (CORE-ORDER-04): None, its space's progress (a circuit counts laps)
    distance_of: Callable[[Car], float] | None = None

    def is_over(self) -> bool:
        """Every car has finished or retired (CORE-STAGEEND-01, CORE-ORDER-09)."""
        # a plain loop: asked about three times a turn, and cheaper than ``issuperset(map(...))``, whose map and
        # iterator cost more than 3.11's specialised loop (callgrind: about 3,250 against 4,050 instructions a call)
        for c in self.cars.values():
            if c.status != "finished" and c.status != "retired":
                return False
        return True

    def check_stopped(self) -> None:
        """A stage stops once every car has crossed the finish line or retired (CORE-STAGEEND-01)."""
        if not self.is_over():
            raise IllegalMove("CORE-STAGEEND-01", f"the record stops before every car has crossed the finish "
                                                  f"line (next: {self.to_move()}, round {self.round})")

    @property
    def leader(self) -> str | None:
        """The round's first player (CORE-DICE-15)."""
        return self.order[0] if self.order and not self.is_over() else None

    def leader_rule_active(self) -> bool:
        """Leader dice are in use (CORE-DICE-16, reading 1; CORE-ADV-16 changes only the die type)."""
        if (self._plan_readings or self.plan_readings()).leader_rule_ends == "first-finisher":
            return not self.finished_any
        return True

    # -- dashboards and the bag
    def dice_surface(self, car: Car, surface: str) -> str:
        """The surface whose Dashboard column gives ``car`` its dice on a space of ``surface``: that surface, as
        surfaces and tires change the dice (CORE-DICE-02, CUSTOM-09); a variant under Speed Track rules reads one
        column everywhere (:class:`~rallyc.rules.variants.speed_trial.SpeedTimeTrial`, CUSTOM-08)."""
        return surface

    def column_for(self, surface: str, leader: bool, car: Car | None = None) -> Column:
        """The Dashboard column of ``car`` (the first car by default) for a surface."""
        car = car or next(iter(self.cars.values()))
        dash = car.dashboard
        return dash.columns.get(column_name(self.dice_surface(car, surface), leader)) or dash.columns["gravel"]

    def warning_limit(self, car: Car, surface: str, leader: bool) -> int:
        """The Warning limit of ``car`` on ``surface`` this turn (MC-WARN-01); on soft tires the Wear marker's
        limit on the worn surfaces while a marker is on the Dashboard (MC-SOFT-04..06)."""
        limit = self.column_for(surface, leader, car).warnings
        if car.dashboard.tires == "soft" and surface in self.components.assumption("soft_wear_surfaces"):
            marker = self.components.soft_wear_limit(car.wear)
            if marker is not None:
                return marker
        return limit

    def damage_bag(self) -> dict[str, int]:
        """The Damage bag's contents at the start of the stage: the DIRT bag, plus the Weather tokens with the
        weather option (MC-WEATHER-01)."""
        bag = dict(self.components.damage_bag)
        if self.options.weather:
            bag[WEATHER] = int(self.components.raw.get("weather_tokens", {}).get("count", 6))
        return bag

    def damage_out(self) -> Counter[str]:
        """The Damage tokens of each kind out of the bag (:mod:`rallyc.rules.core.damage_bag`): those on the Dashboards,
        but a Shortcut's "coast" token, whose Damage side is unseen (reading ``shortcut_token_kind``)."""
        return on_dashboards(self.cars.values(), self.outcomes)

    def bag_left(self) -> int:
        """Tokens still in the Damage bag (CORE-SETUP-02/03)."""
        total = sum(self.damage_bag().values())
        out = sum(sum(c.damage.values()) + c.shortcut_ok for c in self.cars.values())
        return total - out - sum(self.minus1.values())

    # -- planning
    def _start_space(self, car: Car, chosen: str | None) -> str:
        if car.status == "waiting":
            occupied = {c.space for c in self.cars.values() if c.impedes and c is not car}
            starts = self.index.start_spaces
            if chosen is not None:
                if chosen not in starts:
                    raise IllegalMove("CORE-START-03", f"a starting car is placed on a space behind the Starting Line "
                                                       f"({', '.join(starts)}), not {chosen}", "start")
                if chosen in occupied:
                    raise IllegalMove("CORE-MOVE-01", f"start space {chosen} is occupied", "start")
                return chosen
            free = [s for s in starts if s not in occupied]
            if not free:
                raise IllegalMove("CORE-START-03", "every space behind the Starting Line is occupied", "start")
            return free[0]
        if chosen is not None and chosen != car.space:
            raise IllegalMove("CORE-START-03", f"only a starting car chooses its space; {car.name} is on {car.space}",
                              "start")
        if car.space is None:  # pragma: no cover - a car on the stage always has a space
            raise StageOver(f"{car.name} is not on the stage")
        return car.space

    def context(self, name: str | None = None, start: str | None = None) -> tuple[PlanContext, bool]:
        """The planning context of ``name``'s turn (the player to move by default) and whether it leads.

        What the car's Dashboard decides (the allowance of each surface, the Warning limits, the advanced rules) is
        built once per car and state (surface, leading, damage, wear: a template in :meth:`context_cache`); the
        turn adds the start, the others' cars and the -1 tokens (:meth:`new_context`)."""
        car = self._car_to_plan(name)
        space = car.space if start is None and car.status != "waiting" and car.space is not None \
            else self._start_space(car, start)
        surface = self.index.spaces[space].surface
        # the round's first player uses the Gravel (leader) column wherever it lays dice on gravel (CORE-DICE-03)
        first = bool(self.order) and self.order[0] == car.name and self.leader_rule_active()
        cache = self._contexts
        if cache is None or cache.index is not self.index:
            cache = self.context_cache()
        key = (surface, first, tuple(car.damage.items()), car.wear)
        template = cache.templates.get((car.name,) + key)
        if template is None:
            template = cache.template(car, key, lambda: self._context_template(car, surface, first))
        # the cars that impede (CORE-OVERTAKE-08/09): their spaces and gears
        others = {c.space: c.gear for c in self.cars.values() if c.impedes and c is not car and c.space}
        variant = self.context_variant(car, cache.track)
        if self.minus1 and self.creep_possible():
            ctx = self._creep_floor(self.new_context(template, car, space, others, gear=car.gear))
            if variant:
                ctx = replace(ctx, **variant)
        else:
            ctx = self.new_context(template, car, space, others, variant, car.gear)
        return ctx, first and surface == "gravel"

    def _car_to_plan(self, name: str | None) -> Car:
        """The car of ``name`` (the player to move by default), still on the stage."""
        name = name or self.to_move()
        if name is None:
            raise StageOver("the stage is over")
        car = self.cars[name]
        if car.status in ("finished", "retired"):
            raise StageOver(f"{name} has {car.status}")
        return car

    @staticmethod
    def _creep_floor(ctx: PlanContext) -> PlanContext:
        """A corner left unusable by -1 tokens: its limit floors at 1 when nothing else is legal (reading
        creep), ``ctx`` otherwise."""
        if not can_lay(ctx, start_walk(ctx)):
            creep = replace(ctx, limit_floor=1, corner_methods={})
            if can_lay(creep, start_walk(creep)):
                return creep
        return ctx

    def _context_template(self, car: Car, surface: str, first: bool) -> dict[str, Any]:
        """The fields of ``car``'s planning context its Dashboard decides, on a space of ``surface``, leading the
        round or not (:meth:`TurnEngine.context_template`)."""
        allow = allowance(car.dashboard, self.dice_surface(car, surface), first, self.options.one_shot, car.damage)
        by_surface: dict[str, Allowance] = {}
        if len(self.index.surfaces) > 1 and self.surfaces_change_dice:
            # MC-DICE-01: each die keeps to the column of its own surface
            every = allowances(car.dashboard, first, self.options.one_shot, car.damage)
            by_surface = {s: every[s] for s in self.index.surfaces if s in every}
        limits = {s: self.warning_limit(car, s, first) for s in self.index.surfaces}
        return self.context_template(car, car.dashboard.car, allow, allowances=by_surface, limits=limits,
                                     handbrake=self.options.handbrake)

    def context_variant(self, car: Car, track: TrackContexts) -> dict[str, Any]:
        """The fields a variant adds to ``car``'s planning context this turn (barred spaces, Yellow Flags), set
        after the core stage's floor for unusable corners is decided; none in the core stage. ``track``: what the
        game's contexts keep on the track (:meth:`context_cache`), for what a variant builds once per track."""
        return {}

    # -- playing: the hooks of the core turn engine (:mod:`rallyc.rules.core.engine`)
    def check_turn(self, turn: Turn, name: str) -> None:
        """Only the player to move plays, in this round (CORE-ORDER-01/03, CORE-START-04)."""
        if turn.player != name:
            rule = "CORE-START-04" if self.cars.get(turn.player) and self.cars[turn.player].status == "waiting" \
                else "CORE-ORDER-03"
            if turn.player not in self.cars:
                rule = "CORE-SETUP-06"
            raise IllegalMove(rule, f"round {self.round}: it is {name}'s turn (order {', '.join(self.order)}), "
                                    f"not {turn.player}'s", "player")
        if turn.round is not None and turn.round != self.round:
            raise IllegalMove("CORE-ORDER-01", f"this turn is in round {self.round}, not round {turn.round}", "round")
        if turn.spare_tire and self.options.repairs == "no":
            raise IllegalMove("CUSTOM-15", "this race allows no repairs and no tire change (option repairs no): "
                                           "no Spare Tire", "spare_tire")

    def turn_context(self, name: str, turn: Turn) -> tuple[PlanContext, bool]:
        """A starting car chooses its start space (reading 3)."""
        return self.context(name, turn.start)

    def holds_sisu(self, car: Car) -> bool:
        return car.sisu

    def finish_index(self, car: Car, placed: list[Placed]) -> int | None:
        """The die that takes the car past the Finish Line (CORE-STAGEEND-02/03)."""
        beyond = self.index.beyond_finish
        if beyond.isdisjoint(map(_space_of, placed)):  # most turns: no die beyond the line (no Python loop)
            return None
        for i, p in enumerate(placed):
            if p.space in beyond:
                return i
        return None  # pragma: no cover - isdisjoint said one is

    #: the End of the Turn: a Time card (:mod:`rallyc.rules.core.timecards`) and the Weather flips (MC-WEATHER-02); the
    #: function itself, whose arguments are the hook's (a method that only called it cost a call a turn)
    end_of_turn = time_card_end

    def crashed_spaces(self, car: Car) -> frozenset[str]:
        """The spaces of the other cars that crashed or change a tire: a car may pass them (CORE-OVERTAKE-08)."""
        crashed = [c.space for c in self.cars.values()
                   if (c.status == "crashed" or c.status == "tire") and c is not car and c.space]
        return frozenset(crashed) if crashed else _NO_SPACES

    def restarting(self, car: Car) -> bool:
        """A car spun out, crashed or changing a tire starts again (CORE-ADV-04)."""
        return car.status in ("spun", "crashed", "tire")

    def log_start(self, car: Car, turn: Turn, ctx: PlanContext, leader: bool) -> None:
        """The round's order of play (with its first turn), the order of the turn, the car's state (starting,
        after a Crash, a tire change or a spin), the Leader dice, the Dashboard's dice (CORE-DICE-02, damage)."""
        head = self.log.head
        if self.position == 0:
            head += self.round_rules
        head += ("CORE-DICE-01", "CORE-ORDER-01", "CORE-ORDER-02")
        status = car.status
        if status != "road":
            head += _STATUS_RULES.get(status, ())
        if leader:
            head.append("CORE-DICE-03")
        if self.options.one_shot and ctx.allowance.column == "gravel-leader":
            head.append("CORE-ADV-16")  # the Leader column's dice are normal Coast dice
        if self.finished_any and (self._plan_readings or self.plan_readings()).leader_rule_ends == "first-finisher":
            head.append("CORE-DICE-16")
        _allowance_rules(head, ctx, car.damage)
        for c in self.cars.values():
            if c.status == "spun" and c is not car:
                head.append("CORE-OVERTAKE-09")  # a spun-out car impedes
                break

    def log_end(self, car: Car, turn: Turn, ctx: PlanContext, move: Movement, out: Outcome,
                change: StageChange) -> None:
        """The Weather flips (MC-WEATHER-02..06), after what the Time card recorded
        (:func:`~rallyc.rules.core.timecards.card_rules`)."""
        end = self.log.end
        if out.flipped:
            end += ("MC-WEATHER-02", "MC-WEATHER-03", "MC-WEATHER-04")
            if self.flipped & set(out.flipped):
                end.append("MC-WEATHER-05")  # turned over again
            if (out.damage + out.tokens).count(WEATHER) > 1:
                end.append("MC-WEATHER-06")  # several tokens drawn, one flip

    def commit(self, car: Car, turn: Turn, out: Outcome, change: StageChange) -> None:
        """The car's move, card, tokens, damage and status; the -1 tokens; the retirement check (CORE-RETIRE-01);
        the Weather flips; the round's rule IDs with its first turn's."""
        car.space = out.end
        car.cards.append(out.card)
        car.seconds += out.gained - out.spent  # (seconds_gained - seconds_spent)
        car.turns += 1
        if car.dashboard.tires == "soft":
            car.wear += 1  # MC-SOFT-03: the Wear marker advances when the Time card is taken
        car.status = change.status
        self.minus1 = change.minus1
        self._take_tokens(car, out)
        if out.finished:
            self.finished_any = True
        elif change.status != "finished" and self._no_gear_dice(car):
            car.status = CarStatus.RETIRED  # CORE-RETIRE-01
            out.retired = True
        if out.flipped:
            self._flip(out.flipped)
        if out.retired:
            out.rules += ("CORE-RETIRE-01", "CORE-RETIRE-02")

    @staticmethod
    def _take_tokens(car: Car, out: Outcome) -> None:
        """The tokens the turn drew go on the car's Dashboard: Shortcut sides (CORE-SHORTCUT-07), Weather tokens
        with no dice effect (MC-WEATHER-07, Ambiguity 21), Damage tokens; a SISU card played, the Spare Tire
        fitted (CORE-SPARE-04)."""
        for t in out.tokens:
            if t == "ok":
                car.shortcut_ok += 1
            elif t == "coast":
                car.damage["coast"] += 1
            elif t == WEATHER:
                car.damage[WEATHER] += 1
        for d in out.damage:
            car.damage[d] += 1
        if out.sisu:
            car.sisu = False
        if out.spare_tire:
            car.spare = False
            car.damage["coast"] -= 1

    def _no_gear_dice(self, car: Car) -> bool:
        """No Gear die left in the column where the car stands, once its Gear Damage tokens are taken off
        (CORE-RETIRE-01, Ambiguity 11a); the column's Gear dice looked up once per car and surface."""
        assert car.space is not None, "a car that may retire stands on a space"
        surface = self.index.spaces[car.space].surface
        known = self._gear_dice.get((car.name, surface))
        if known is None or known[0] is not car.dashboard:
            known = self._gear_dice[(car.name, surface)] = (car.dashboard, self.column_for(surface, False, car).gear)
        return known[1] - car.damage.get("gear", 0) <= 0

    def _flip(self, steps: list[int]) -> None:
        """Turn these steps' tiles over in place and rebuild the space graph (MC-WEATHER-04/05)."""
        self.flipped ^= set(steps)
        assert self.flipper is not None, "__init__ refuses the weather option without a flipper"
        self.track = self.flipper.track(self.flipped)
        self.index = index_of(self.track)

    # -- results
    def result(self) -> StageResult:
        """Stage times: cards minus unspent Second tokens; retired cars get the slowest time + 60 s."""
        times: dict[str, int | None] = {}
        done: dict[str, int] = {}
        finished = [n for n, c in self.cars.items() if c.status == "finished"]
        retired = [n for n, c in self.cars.items() if c.status == "retired"]
        for n in finished:
            c = self.cars[n]
            done[n] = times[n] = c.card_seconds - c.seconds  # CORE-STAGEEND-08, CORE-SECONDS-11
        slowest = max(done.values(), default=None)
        for n in retired:
            times[n] = None if slowest is None else slowest + 60  # CORE-RETIRE-03
        for n in self.cars:
            times.setdefault(n, None)
        return StageResult(times, finished, retired, {n: c.card_seconds for n, c in self.cars.items()},
                           {n: c.seconds for n, c in self.cars.items()})
