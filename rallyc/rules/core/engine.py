"""The core turn engine: one ``play`` for every game form, variants override its hooks.

Like python-chess's ``Board`` and its variant subclasses: :class:`TurnEngine` owns the order of a turn
(whose turn it is, the planning context, the roll, the End of the Turn, the commit, the next player) and
the movement itself (:func:`rallyc.rules.core.rolling.roll_and_move`: dice, plans, corners, jumps, Warnings, Loss
of Control). A variant says only what it does differently, by overriding hooks:

=====================  ===========================================================================
hook                   what it decides
=====================  ===========================================================================
``check_turn``         who may play now and what a turn of this form may not contain
``turn_context``       the planning context: dashboards, the others' cars, flags, barred spaces
``mover``              what a turn costs and earns (:attr:`tokens`: Second or Focus tokens)
``finish_index``       which die takes the car across the finish line
``forced_movement``    a movement the rules impose before any die (Full Contact's Danger tokens)
``end_of_turn``        what the move leaves: a Time card, or a Gear marker, damage, laps...
``log_start``          the rule IDs the start of the turn applied (the turn's :class:`RuleLog`, ``head``)
``log_end``            the rule IDs the End of the Turn applied (the turn's :class:`RuleLog`, ``end``)
``commit``             writing the resolved turn into the state (the only place state changes)
``next_round``         the order of play of the next round; ``is_over``: the end of the game
=====================  ===========================================================================

:class:`~rallyc.rules.core.stage.Stage` (DIRT stages, rallies, the Monte-Carlo options) and
:class:`~rallyc.rules.core.race.Race` (RX and Ice races) are the variants; ``docs/referee.md`` lists the hooks
for new ones.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, NamedTuple, TypeVar

from rallyc.rules.core.errors import IllegalMove, StageOver
from rallyc.rules.core.invariants import card_seconds, check_after_turn, checking
from rallyc.rules.core.movelog import roll_rules
from rallyc.rules.core.outcome import TurnOutcome
from rallyc.rules.core.plans import SITUATION_FIELDS, PlanContext, Placed, can_lay, corner_methods, situation, start_walk
from rallyc.rules.core.state import TrackIndex
from rallyc.rules.core.planner import Planner
from rallyc.rules.core.rolling import IMPROV_RULES, Mover, roll_and_move
from rallyc.rules.core.rulelog import RuleLog
from rallyc.rules.core.trace import _OBSERVERS, observing, report

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.driver import Driver
    from rallyc.rules.core.rolling import Movement
    from rallyc.rules.core.turn import LossOfControl, Turn

__all__ = ["TokenKind", "SECONDS", "FOCUS", "TurnOutcome", "TurnEngine", "check_claims", "stuck_at_water",
           "PlanReadings", "ContextCache", "TrackContexts"]


@dataclass(frozen=True)
class TokenKind:
    """What a Flat Out earns and securing dice costs: Second tokens in a stage (CORE-SECONDS), Focus tokens in
    an RX race (RX-ROLL-03/04). The rules and the words a refusal uses."""

    #: the rule a Flat Out's tokens follow, and the one securing dice follows
    earn_rule: str
    spend_rule: str
    #: the rule broken when the car holds too few tokens to secure the dice
    lack_rule: str
    #: the tokens' unit in messages
    unit: str
    #: the record's fields stating the tokens gained and spent
    gained_field: str
    spent_field: str

    def amount(self, n: int) -> str:
        """``3`` -> ``3 s`` or ``3 Focus token(s)``."""
        return f"{n} {self.unit}"


SECONDS = TokenKind("CORE-SECONDS-01", "CORE-SECONDS-07", "CORE-SECONDS-08", "s", "seconds_gained", "seconds_spent")
FOCUS = TokenKind("RX-ROLL-03", "RX-ROLL-04", "RX-ROLL-04", "Focus token(s)", "focus_gained", "focus_spent")


def check_claims(kind: TokenKind, gear_rule: str, turn: "Turn", out: TurnOutcome) -> None:
    """The derivable claims a record may state (end space, gear, tokens gained and spent) against the outcome."""
    if turn.end is not None and turn.end != out.end:
        raise IllegalMove("CORE-ROLL-08", f"the car ends on {out.end}, not {turn.end}", "end")
    if turn.gear is not None and turn.gear != out.gear:
        raise IllegalMove(gear_rule, f"the car ends in Gear {out.gear}, not Gear {turn.gear}", "gear")
    if turn.seconds_gained is not None and turn.seconds_gained != out.gained:
        raise IllegalMove(kind.earn_rule, f"the Flat Out earns {kind.amount(out.gained)}, not "
                                          f"{kind.amount(turn.seconds_gained)}", kind.gained_field)
    if turn.seconds_spent is not None and turn.seconds_spent != out.spent:
        raise IllegalMove(kind.spend_rule, f"securing costs {kind.amount(out.spent)}, not "
                                           f"{kind.amount(turn.seconds_spent)}", kind.spent_field)


def stuck_at_water(ctx: PlanContext) -> bool:
    """No die can be laid, but some could if the Water Hazard ahead were a plain space (reading water_stuck)."""
    dry = replace(ctx, ignore_water=True, corner_methods={})
    return can_lay(dry, start_walk(dry))


class PlanReadings(NamedTuple):
    """The readings a planning context uses (:meth:`TurnEngine.plan_readings`, read once per game)."""

    brake_drop: str
    jump_landing_limit: bool
    #: a hay-bale space is also a chicane token without a limit (reading chicane_without_limit)
    haybale_chicane: bool
    #: a corner made unusable by -1 tokens is driven at limit 1 when nothing else can be laid (unusable_corner)
    creep: bool
    #: when the Leader dice stop (reading leader_rule_ends)
    leader_rule_ends: str


_new = object.__new__


class TrackContexts:
    """The parts of planning contexts that one game form under one set of components and options keeps on one
    track, shared by every game of them on it (:meth:`TurnEngine.context_cache`; kept while the track's index
    lives, like its dice placed before): the templates of the cars' contexts per Dashboard and state
    (:meth:`TurnEngine.context_template`), and what the track alone decides (the corners' limits, the spaces a
    variant bars, the spaces under each set of Yellow Flags)."""

    __slots__ = ("index", "components", "templates", "dashboards", "_corner_limits", "_unusable", "barred",
                 "flagged")

    def __init__(self, index: TrackIndex, components: Any) -> None:
        self.index = index
        #: the game's components (kept: the key holds its identity)
        self.components = components
        #: (the Dashboard's identity, the variant's key of the car's state) -> the template
        self.templates: dict[tuple[object, ...], dict[str, Any]] = {}
        #: the Dashboards the templates were built for, by identity (kept: the keys hold their identity)
        self.dashboards: dict[int, Any] = {}
        self._corner_limits: dict[int, int] | None = None
        self._unusable = False
        #: spaces the variant bars on this track (reason -> space -> (rule, why)), built once
        self.barred: dict[str, dict[str, tuple[str, str]]] = {}
        #: the spaces of each set of route steps under Yellow Flags (:func:`~rallyc.rules.variants.yellow_flags.flag_limits`)
        self.flagged: dict[frozenset[int], frozenset[str]] = {}

    def corner_limits(self) -> tuple[dict[int, int], bool]:
        """Route step -> the lowest printed limit of its corner spaces that -1 tokens lower (no chicane token,
        :func:`~rallyc.rules.core.plans.effective_limit`), and whether a printed one is already below 1."""
        if self._corner_limits is None:
            low: dict[int, int] = {}
            for s in self.index.spaces.values():
                if s.kind == "corner" and s.chicane is None and s.limit is not None:
                    if s.step not in low or s.limit < low[s.step]:
                        low[s.step] = s.limit
            self._corner_limits = low
            self._unusable = any(v < 1 for v in low.values())
        return self._corner_limits, self._unusable


class ContextCache:
    """What a game's planning contexts keep on the current track (:meth:`TurnEngine.context_cache`): its cars'
    templates by the variant's key of a car's state (name first), in front of the :class:`TrackContexts` its
    games share."""

    __slots__ = ("index", "track", "templates")

    def __init__(self, index: TrackIndex, track: TrackContexts) -> None:
        self.index = index
        self.track = track
        #: (car name, the variant's key of its state) -> the template
        self.templates: dict[tuple[object, ...], dict[str, Any]] = {}

    def template(self, car: Any, key: tuple[object, ...], build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """``car``'s template for its state ``key`` (without the name: the variant's key of what the template
        reads besides the Dashboard), built by ``build`` once for every game sharing :attr:`track`."""
        dash = car.dashboard
        shared = (id(dash),) + key
        track = self.track
        got = track.templates.get(shared)
        if got is None or track.dashboards[id(dash)] is not dash:
            got = track.templates[shared] = build()
            track.dashboards[id(dash)] = dash
        self.templates[(car.name,) + key] = got
        return got


O = TypeVar("O", bound=TurnOutcome)


class TurnEngine(Planner, Generic[O]):
    """One core turn engine; a game form is a subclass that overrides the hooks (module docstring)."""

    #: what a Flat Out earns and securing costs in this game form
    tokens: ClassVar[TokenKind] = SECONDS
    #: the rule a wrong gear claim breaks (the Time card's gear, or RX's Gear marker)
    gear_rule: ClassVar[str] = "CORE-TURNEND-05"
    #: what :meth:`play` says once the game is over
    over_message: ClassVar[str] = "the game is over"
    #: the rule a turn played once the game is over breaks, and how the refusal words it
    over_rule: ClassVar[str] = "CORE-ORDER-09"
    no_more_turns: ClassVar[str] = "every car has finished or retired: no more turns"
    #: the rules the roll records for the tokens a Flat Out earns and securing costs
    log_tokens: ClassVar[TokenKind] = SECONDS
    #: the rule log of the turn being resolved (:meth:`resolve`)
    log: RuleLog

    # state every game form keeps (set by the variant's __init__)
    cars: dict[str, Any]
    components: Any
    index: Any
    options: Any
    #: -1 Shortcut tokens per route step (CORE-SHORTCUT-08)
    minus1: dict[int, int]
    round: int
    order: list[str]
    position: int
    outcomes: list[O]
    rounds: list[list[str]]
    #: the readings and the parts of the planning contexts, kept per game (:meth:`plan_readings`, :meth:`context_cache`)
    _plan_readings: PlanReadings | None = None
    _contexts: ContextCache | None = None

    # -- order of play
    def is_over(self) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_move(self) -> str | None:
        """The player whose turn it is, None once the game is over."""
        return None if self.is_over() else self.order[self.position]

    def next_round(self) -> None:  # pragma: no cover - abstract
        """Start the next round: its order of play."""
        raise NotImplementedError

    def plan_context(self, car: Any, start: str, allowance: Any, car_kind: str, **variant: Any) -> PlanContext:
        """The planning context every game form shares (the road, the others' cars, the -1 tokens, the advanced
        rules and the readings), with the variant's own fields (``variant``: flags, barred spaces...)."""
        return self.new_context(self.context_template(car, car_kind, allowance, **variant), car, start)

    def plan_readings(self) -> PlanReadings:
        """The readings the planning context uses, read once per game (the game's components do not change)."""
        readings = self._plan_readings
        if readings is None:
            comp = self.components
            readings = self._plan_readings = PlanReadings(
                comp.reading("brake_drop"), comp.reading("jump_landing_limit"),
                comp.reading("chicane_without_limit") == "haybale", comp.reading("unusable_corner") == "creep",
                comp.reading("leader_rule_ends"))
        return readings

    def context_cache(self) -> ContextCache:
        """The planning contexts' parts kept for this game on the current track (:class:`ContextCache`), in front
        of those every game of this form, components and options shares on the track (:class:`TrackContexts`); a
        new one whenever the track changes (the Monte-Carlo weather flips tiles, MC-WEATHER-04)."""
        cache = self._contexts
        index = self.index
        if cache is None or cache.index is not index:
            # kept on the index, not in a cache keyed weakly by it: a TrackContexts refers to its index, so such a
            # cache's entry never let the index, its track and the contexts go
            shared = index.__dict__.get("_track_contexts")
            if shared is None:
                shared = index.__dict__["_track_contexts"] = {}
            key = (type(self), id(self.components), self.options, self.context_key())
            track = shared.get(key)
            if track is None or track.components is not self.components:
                track = shared[key] = TrackContexts(index, self.components)
            cache = self._contexts = ContextCache(index, track)
        return cache

    def context_key(self) -> Any:
        """What else than its class, components and options decides a game's planning contexts (kept with
        :meth:`context_cache`): nothing in the core."""
        return None

    def context_template(self, car: Any, car_kind: str, allowance: Any, **variant: Any) -> dict[str, Any]:
        """Every field of ``car``'s planning context: built once per car and state of its Dashboard (the variants
        keep them in their :meth:`context_cache`), through :class:`PlanContext` itself so that every default holds.
        Those of the turn (``start``, ``gear``, ``others``, ``minus1`` and the corner methods they decide) hold
        placeholders that :meth:`new_context` replaces: a turn's copy of the template then has every key already
        (no key added to the copy, whose table would grow and be rebuilt each turn)."""
        brake_drop, jump_landing_limit, haybale_chicane = self.plan_readings()[:3]
        made = PlanContext(
            index=self.index, start="", gear=0, allowance=allowance, top_gear=car.dashboard.top_gear,
            flying_start=self.options.flying_start, redline=self.options.redline, brake_drop=brake_drop,
            jump_landing_limit=jump_landing_limit, car=car_kind, haybale_chicane=haybale_chicane, **variant)
        made.situation = situation(made)  # (the key of its dice placed before, for every turn of the template)
        return dict(made.__dict__)

    def new_context(self, template: dict[str, Any], car: Any, start: str, others: dict[str, int] | None = None,
                    variant: dict[str, Any] | None = None, gear: int | None = None) -> PlanContext:
        """``car``'s planning context this turn from its ``template`` (:meth:`context_template`): the start, the
        car's gear (``gear``, ``car.gear`` by default), the others' cars (``others``: space -> gear of the cars
        that impede, the other cars on the road by default), the -1 tokens, and the variant's fields of this turn
        (``variant``: flags...). The same context as ``PlanContext(...)`` with those fields, without its
        ``__init__``."""
        if others is None:
            others = {}
            for c in self.cars.values():
                if c.impedes and c is not car and c.space:
                    others[c.space] = c.gear
        # CORE-OVERTAKE-05: the corner methods of the cars in a corner (as PlanContext.__post_init__); most turns no
        # other car is on a corner space (a set's C-level test, no call)
        methods = corner_methods(self.index, others) if others and not self.index.corner_spaces.isdisjoint(others) \
            else {}
        # (a copy of a dict is a block copy; ``{**template, ...}`` inserts key by key); the fields of the turn below
        # replace the template's placeholders
        fields = dict(template)
        if variant:
            fields.update(variant)
            if not SITUATION_FIELDS.isdisjoint(variant):  # not the template's planning situation
                fields["situation"] = None
        fields["start"] = start
        fields["gear"] = car.gear if gear is None else gear
        fields["others"] = others
        fields["minus1"] = self.minus1  # (not a copy: the game and the roll make a new dict to change the tokens)
        fields["corner_methods"] = methods
        ctx = _new(PlanContext)
        ctx.__dict__ = fields
        return ctx

    def creep_possible(self) -> bool:
        """A -1 Shortcut token leaves a corner space's limit below 1 (reading unusable_corner ``creep``): only
        then may the planning context need the floor of 1 (otherwise the floor changes no limit)."""
        if not self.minus1 or not (self._plan_readings or self.plan_readings()).creep:
            return False
        lowest, printed = self.context_cache().track.corner_limits()
        if printed:
            return True
        for step, n in self.minus1.items():
            low = lowest.get(step)
            if low is not None and low - n < 1:
                return True
        return False

    def check_stopped(self) -> None:  # pragma: no cover - abstract
        """Refuse to stop play here (a record's last turn played) before the game form's end."""
        raise NotImplementedError

    # -- hooks
    def check_turn(self, turn: "Turn", name: str) -> None:
        """Refuse a turn that is not ``name``'s to play now or holds what this game form does not use."""

    def turn_context(self, name: str, turn: "Turn") -> tuple[PlanContext, bool]:
        """The planning context of ``name``'s turn and whether the car leads the round (CORE-DICE-15)."""
        return self.context(name)

    def finish_index(self, car: Any, placed: list[Placed]) -> int | None:  # pragma: no cover - abstract
        """Index of the die that takes ``car`` across the finish line, None if none does."""
        raise NotImplementedError

    def holds_sisu(self, car: Any) -> bool:
        """``car`` holds a SISU token (CORE-ADV-11/12); no game form but a stage has them."""
        return False

    def mover(self, car: Any) -> "Mover":
        """What the roll needs to know about ``car``: its name, its tokens (:attr:`tokens`), no Warnings before any
        die; the rest (its SISU token: :meth:`holds_sisu`; its finish: :meth:`finish_index`) the mover asks of this
        game when the roll needs it (not kept on the game either, which would make every game a reference cycle
        left to the garbage collector)."""
        m = _new(Mover)  # (Mover's __init__ without its call: one is made per turn)
        m.name = car.name
        m.tokens = car.tokens
        m.warnings = 0
        m.game = self
        m.car = car
        return m

    def forced_movement(self, car: Any, turn: "Turn", ctx: PlanContext) -> "Movement | None":
        """A movement the rules impose before any die (Full Contact's Danger Loss of Control, RX-DANGER-05), or
        None: the dice are rolled."""
        return None

    def end_of_turn(self, car: Any, turn: "Turn", ctx: PlanContext, move: "Movement", driver: "Driver | None"
                    ) -> tuple[O, Any]:  # pragma: no cover - abstract
        """The End of the Turn: the outcome and the state change to commit (nothing is changed here)."""
        raise NotImplementedError

    def crashed_spaces(self, car: Any) -> frozenset[str]:
        """The spaces of the cars other than ``car`` that crashed or change a tire (CORE-OVERTAKE-08): none but in a
        stage."""
        return frozenset()

    def restarting(self, car: Any) -> bool:
        """``car`` starts again this turn after a stop it did not choose (CORE-ADV-04)."""
        return False

    def log_start(self, car: Any, turn: "Turn", ctx: PlanContext, leader: bool) -> None:
        """Record in :attr:`log` (``head``) the rules the start of ``car``'s turn applied: the order of play, the
        car's state and Dashboard."""

    def log_end(self, car: Any, turn: "Turn", ctx: PlanContext, move: "Movement", out: O, change: Any) -> None:
        """Record in :attr:`log` (``end``) the rules the End of the Turn applied (``car`` not yet changed by it)."""

    def commit(self, car: Any, turn: "Turn", out: O, change: Any) -> None:  # pragma: no cover - abstract
        """Write the resolved turn into the state."""
        raise NotImplementedError

    # -- the turn
    def resolve(self, turn: "Turn", driver: "Driver | None" = None) -> tuple[Any, O, Any]:
        """Validate ``turn`` (the player to move's) without changing the state: the car, the outcome and the
        change :meth:`commit` would write."""
        if self.is_over():  # to_move
            raise StageOver(self.no_more_turns, self.over_rule)
        name = self.order[self.position]
        self.check_turn(turn, name)
        car = self.cars[name]
        log = self.log = RuleLog()
        ctx, leader = self.turn_context(name, turn)
        self.log_start(car, turn, ctx, leader)
        move = self.forced_movement(car, turn, ctx)
        if move is None:
            move = roll_and_move(self, self.mover(car), turn, ctx, leader=leader, driver=driver)
        out, change = self.end_of_turn(car, turn, ctx, move, driver)
        moved = move.run.log
        if moved is not None:
            log.dice, log.road = moved.dice, moved.road
        log.roll = roll_rules(ctx, turn, move, self.restarting(car), self.log_tokens)
        self.log_end(car, turn, ctx, move, out, change)
        if move.replans:
            log.end += IMPROV_RULES  # the dice re-planned while rolling one by one
        out.rules = log.ids()
        return car, out, change

    def play(self, turn: "Turn", driver: "Driver | None" = None) -> O:
        """Validate and apply one turn; raise :class:`IllegalMove` (state unchanged) if it breaks a rule.

        ``driver`` (:class:`~rallyc.rules.core.driver.Driver`) decides and draws the chance the turn leaves open; it
        completes a copy of ``turn`` (returned as ``outcome.turn``), never ``turn`` itself.
        """
        if driver is not None:
            turn = turn.copy()
        car, out, change = self.resolve(turn, driver)
        before = card_seconds(self) if checking() else None
        self.commit(car, turn, out, change)
        if _OBSERVERS and observing():
            report(out.applied)
        out.turn = turn
        self.outcomes.append(out)
        self.position += 1
        if self.position >= len(self.order) or self.is_over():
            self.next_round()
        if before is not None:
            check_after_turn(self, before)
        return out
