"""An RX race being played: the grid, white and black rounds, order of play, turns, laps, the Joker, the
finish (python-chess style, like :class:`~rallyc.rules.core.stage.Stage`).

>>> race = Race(track, [Player("Ann", "red"), Player("Bob", "blue")])   # doctest: +SKIP
>>> race.to_move(); plans = list(race.legal_plans(max_dice=2)); race.play(turn); race.result()  # doctest: +SKIP

Moving, corners, slides, shortcuts, jumps, water, overtaking and blocking are the core rules
(:mod:`rallyc.rules.core.plans`, :func:`rallyc.rules.core.rolling.roll_and_move`, RX-DICE-01); this module adds what
RX changes: no Time cards (RX-SETUP-10), Focus tokens (RX-ROLL-03/04), Loss of Control from the Dashboard
(RX-LOC), Yellow Flags (RX-DAMAGE-03..08), laps, the Joker (RX-JOKER) and the finish (RX-END). ``Race`` is
the RX variant of :class:`~rallyc.rules.core.engine.TurnEngine`: ``play`` is the engine's; this module fills its
hooks (``check_turn``, ``finish_index``, ``end_of_turn``, ``log_start``, ``log_end``, ``commit``, ``next_round``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from weakref import WeakKeyDictionary

from rallyc.compiler.track import Track
from rallyc.data.components import Components, DashboardData, load_components
from rallyc.model.options import OPTIONS, Variant
from rallyc.rules.core.claims import check_left
from rallyc.rules.core.damage_bag import check_count, check_drawn, count_draw, draw, on_dashboards
from rallyc.rules.core.errors import IllegalMove, StageOver
from rallyc.rules.core.options import Options
from rallyc.rules.core.race_format import RX, RaceFormat
from rallyc.rules.core.engine import FOCUS, TurnEngine, TurnOutcome, check_claims, stuck_at_water
from rallyc.rules.core.hooks import RaceVariant, TrackFlags, TurnEvent, race_variant, track_flags
from rallyc.rules.core.plans import PlanContext, Placed
from rallyc.rules.core.rx_dashboard import RX_CAR, RX_DAMAGE_KINDS, loc_damage, rx_allowance, rx_bag
from rallyc.rules.core.rx_laps import Laps
from rallyc.rules.core.rx_order import grid, is_inside, order_key
from rallyc.rules.core.setup import player_problem
from rallyc.rules.core.stage import Player
from rallyc.rules.core.state import SHORTCUT_RESULTS, WEATHER, TrackIndex, index_of
from rallyc.rules.core.domain import JokerState, RaceStatus
from rallyc.rules.core.driver import Driver
from rallyc.rules.core.rolling import Movement, Mover
from rallyc.rules.core.turn import LossOfControl, Turn

__all__ = ["Race", "RxCar", "RxOutcome", "RaceResult", "round_colour"]

#: RX statuses: racing, finished, disqualified (no Joker, RX-JOKER-04), retired (no Gear die left)
RX_STATUSES = tuple(RaceStatus)
#: the Round marker's colour by the round's parity (:func:`round_colour`: round 1 white)
_COLOURS = ("black", "white")
_JOKER_DONE = JokerState.DONE
_ROAD, _FINISHED = RaceStatus.ROAD, RaceStatus.FINISHED


class RaceTrack(NamedTuple):
    """What a race reads of its track every turn, worked out once per track (:func:`race_track`)."""

    #: the Joker lap's spaces (RX-JOKER-01) and the Pre-grid's (RX-SETUP-05, RX-START-02)
    joker: frozenset[str]
    pregrid: frozenset[str]
    #: the same in the track's order of spaces (the barred spaces' messages are built in that order)
    joker_ids: tuple[str, ...]
    pregrid_ids: tuple[str, ...]


_RACE_TRACKS: WeakKeyDictionary[TrackIndex, RaceTrack] = WeakKeyDictionary()


def race_track(index: TrackIndex) -> RaceTrack:
    """The track's :class:`RaceTrack`, kept while its index lives (one scan of its spaces per track, not per race)."""
    got = _RACE_TRACKS.get(index)
    if got is None:
        joker = tuple(s.id for s in index.spaces.values() if s.joker)
        pregrid = tuple(s.id for s in index.spaces.values() if s.pregrid)
        got = _RACE_TRACKS[index] = RaceTrack(frozenset(joker), frozenset(pregrid), joker, pregrid)
    return got


def round_colour(round_no: int) -> str:
    """White rounds and black rounds alternate, round 1 white (RX-ROUND-01, RX-SETUP-08)."""
    return _COLOURS[round_no % 2]


class RaceChange(NamedTuple):
    """What a resolved RX turn changes besides its :class:`RxOutcome` (committed by ``Race.commit``). A named
    tuple: the End of the Turn builds one per turn."""

    status: RaceStatus
    #: distance along the circuit and finish-line crossings after the move (RX-END-01, reading rx_distance)
    distance: float
    crossed: int
    joker: JokerState
    left_pregrid: bool
    #: -1 Shortcut tokens per route step (CORE-SHORTCUT-08)
    minus1: dict[int, int]
    #: Damage tokens that go on the Dashboard (RX-DAMAGE-01/02)
    damage: list[str]
    #: route steps of the Yellow Flags drawn (RX-DAMAGE-03)
    yellow: list[int]
    #: Weather tokens drawn (RX-WEATHER-04/07)
    weather_drawn: int


@dataclass
class RxCar:
    """One car in an RX race."""

    name: str
    colour: str
    dashboard: DashboardData
    space: str
    distance: float
    gear: int = 0
    status: RaceStatus = RaceStatus.ROAD
    #: finish-line crossings (the first one starts lap 1, RX-END-01)
    crossed: int = 0
    #: to drive, driving it, or driven (the Joker token on its OK side, RX-JOKER-03)
    joker: JokerState = JokerState.TODO
    left_pregrid: bool = False
    #: Focus tokens held (RX-ROLL-03/04)
    focus: int = 0
    damage: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    #: the round in which the car last played (its Gear marker shows the next round's colour, RX-ROUND-02)
    played: int = 0

    @property
    def tokens(self) -> int:
        """Tokens held to secure dice: Focus tokens (RX-ROLL-04)."""
        return self.focus

    @property
    def impedes(self) -> bool:
        """On the track (a car after a Loss of Control stays on its space, RX-LOC-02)."""
        return self.status == "road"


@dataclass(kw_only=True)
class RxOutcome(TurnOutcome):
    """What one RX turn did: the core outcome with the round's colour, laps, the Joker, flags and weather."""

    colour: str
    laps: int = 0
    joker: JokerState = JokerState.TODO
    disqualified: bool = False
    position: int | None = None
    yellow: list[int] = field(default_factory=list)
    #: the weather the Dashboards turn to at the end of this turn (RX-WEATHER-04), None when unchanged
    weather: str | None = None
    #: what the race variant did to the cars (Full Contact: the pushes and Push Throughs that took effect,
    #: :mod:`rallyc.rules.variants.full_contact`)
    contact: list[TurnEvent] = field(default_factory=list)
    #: the racetrack has laps (a circuit); a Head-to-Head on a stage has none (CUSTOM-03): the text leaves them out
    lapped: bool = True

    @property
    def focus_gained(self) -> int:
        """Focus tokens earned by a Flat Out (RX-ROLL-03)."""
        return self.gained

    @property
    def focus_spent(self) -> int:
        """Focus tokens spent securing dice (RX-ROLL-04)."""
        return self.spent

    def describe(self) -> str:
        """One line for the text replay: the move, then what else the turn did, separated by commas."""
        text = self.move_text()
        if self.lapped:
            text += f", {self.laps} lap(s) done"
        if self.joker != "none":
            text += f", Joker {self.joker}"
        if self.flat_out_failed:
            text += ", Flat Out failed"
        if self.loc:
            text += f", Loss of Control ({self.loc.cause}) on {self.loc.space} in Gear {self.loc.gear}"
        if self.damage:
            text += ", damage " + "+".join(self.damage)
        if self.yellow:
            text += ", Yellow Flag on step " + ", ".join(map(str, self.yellow))
        if self.weather:
            text += f", Weather token: the weather turns {self.weather}"
        for e in self.contact:
            text += ", " + e.describe()
        if self.tokens:
            text += ", shortcut " + "+".join(self.tokens)
        if self.gained:  # (focus_gained)
            text += f", +{self.gained} Focus"
        if self.spent:  # (focus_spent)
            text += f", -{self.spent} Focus secured"
        if self.finished:
            text += f", FINISHED {self.position}"
        if self.disqualified:
            text += ", DISQUALIFIED (no Joker)"
        if self.retired:
            text += ", RETIRED"
        return text


@dataclass
class RaceResult:
    """The finishing order and who did not finish (RX-END-02..04, RX-JOKER-04)."""

    order: list[str]
    disqualified: list[str]
    retired: list[str]
    laps: dict[str, int]
    joker: dict[str, bool]
    #: cars still racing when play stopped after the winner crossed the line (RX-END-04: unplaced)
    racing: list[str] = field(default_factory=list)

    @property
    def winner(self) -> str | None:
        """The first eligible car across the line (Ambiguity 34)."""
        return self.order[0] if self.order else None


def _race_options(options: Options, race_format: RaceFormat, weather: str | None) -> Options:
    """The game options of a race, checked: only the RX Advanced Rules (RX-ADV-01), no repairs (RX-DAMAGE-09),
    a weather only in a format that has one (ICE-05) and only dry or wet (RX-WEATHER-01); the weather option set
    when the RX Weather rule is played (Weather tokens are Shortcut sides too: the core turn code accepts them
    then, RX-WEATHER-03)."""
    # the registry says which options an RX race plays; the Weather rule comes in by ``weather``, not the options
    bad = [o.record_name for o in options.specs_on() if Variant.RX not in o.variants or o.name == "weather"]
    if bad:
        raise ValueError(f"option(s) {', '.join(bad)} are not RX race rules (RX-ADV-01: Flying Start, "
                         f"Redline and Full Contact)")
    if options.repairs == "yes":
        raise ValueError("option repairs yes: repairs in a race are GT Pit Stops (CUSTOM-15), not refereed; a "
                         "race has no repairs (RX-DAMAGE-09)")
    if weather is not None and not race_format.weather:
        raise ValueError(f"there are no weather changes in an {race_format.name} race (ICE-05)")
    if weather is not None and weather not in (OPTIONS["weather"].values or ()):
        raise ValueError(f"the RX weather is dry or wet, not {weather!r} (RX-WEATHER-01)")
    rule = weather is not None
    # Options are frozen: no copy when already so
    return options if options.weather is rule else replace(options, weather=rule)


#: the Weather tokens of a turn's draws so far (RX-WEATHER-03/04/07): may one still turn the weather, how many
#: were drawn, the weather the first turned the Dashboards to (None: unchanged)
_Weather = tuple[bool, int, "str | None"]


class Race(TurnEngine[RxOutcome]):
    """The state of one RX race: the RX variant of the core turn engine (Focus tokens, no Time cards, laps,
    the Joker, Yellow Flags, the RX Weather)."""

    tokens = FOCUS
    gear_rule = "RX-TURNEND-02"
    over_message = "the race is over: every car has finished, been disqualified or retired"
    over_rule = "RX-END-04"
    no_more_turns = "every car has finished, been disqualified or retired: no more turns"
    index: TrackIndex

    def __init__(self, track: Track, players: list[Player], options: Options | None = None,
                 components: Components | None = None, weather: str | None = None,
                 race_format: RaceFormat = RX) -> None:
        """``players`` in the order their Gear markers were drawn (RX-SETUP-05): the first takes Pole Position.

        ``race_format`` is :data:`~rallyc.rules.core.race_format.RX` or :data:`~rallyc.rules.core.race_format.ICE` (ICE-01):
        it picks the Dashboards, the Damage bag and the damage table.

        ``weather`` (``dry`` or ``wet``) plays with the RX Weather rule, starting in that weather (RX-WEATHER-01);
        players then drive on ``asphalt`` or ``rain`` tires (RX-WEATHER-02). Without it, Asphalt tires in the
        dry (RX-SETUP-03/04)."""
        if not players:
            raise ValueError("a race needs at least one player")
        names = [p.name for p in players]
        problem = player_problem(players)
        if problem is not None:
            raise ValueError(problem[2])
        self.options = _race_options(options or Options(), race_format, weather)
        self.format = race_format
        #: the RX Weather rule is in force; the weather the Dashboards show (RX-WEATHER-01/04)
        self.weather_rule = weather is not None
        self.weather = weather or "dry"
        self.weather_changed = False
        self.weather_drawn = 0
        self.track = track
        self.index = index_of(track)
        self._marks = race_track(self.index)
        self._barred_cache: dict[tuple[str, bool, bool], dict[str, tuple[str, str]]] = {}
        #: per car: the Dashboard and Damage tokens last checked for a Gear die left, and the answer (CORE-RETIRE-01)
        self._gear_left: dict[str, tuple[DashboardData, dict[str, int], bool]] = {}
        self.laps = self.course(track)
        self.components = components or load_components()
        slots = self.start_grid()
        if len(players) > len(slots):
            raise ValueError(f"{track.name}'s Pre-grid has {len(slots)} places for {len(players)} cars")
        self.players = list(players)
        self.grid_order = names
        self.cars: dict[str, RxCar] = self._grid(players, slots)
        #: no Joker on the circuit (Ice Track 1): finishing does not ask for one (RX-JOKER-04 does not apply)
        self.joker_rule = bool(self._marks.joker)
        if not self.joker_rule:
            for car in self.cars.values():
                car.joker = JokerState.NONE
        self.minus1: dict[int, int] = {}
        #: Yellow Flags: route step -> the players who drew one there (RX-DAMAGE-03/07)
        self.yellow: dict[int, list[str]] = {}
        #: Yellow Flags: route step -> the pairs of cars already alongside when a flag was placed (RX-DAMAGE-06)
        self.yellow_pairs: dict[int, set[frozenset[str]]] = {}
        self.shortcut_ok: Counter[str] = Counter()
        #: Yellow Flags drawn (on the track, then on their drawer's Dashboard: out of the bag either way)
        self.yellow_drawn = 0
        self.finishers: list[str] = []
        self.round = 0
        self.order: list[str] = []
        self.position = 0
        self.outcomes: list[RxOutcome] = []
        self.rounds: list[list[str]] = []
        #: the Yellow Flags' rule on this track (:data:`~rallyc.rules.core.hooks.TRACK_FLAGS`)
        self.flag_rule: TrackFlags = track_flags(self.index)
        #: the Full Contact variant (RX-ADV-01, :data:`~rallyc.rules.core.hooks.RACE_VARIANTS`), None without the option
        self.contact: RaceVariant | None = race_variant(self, "full_contact")
        self.next_round()

    def _grid(self, players: list[Player], slots: list[str]) -> dict[str, RxCar]:
        """Each player's car on its Pre-grid place, in draw order from Pole Position, in Gear 0, with the
        Dashboard of its tires (RX-SETUP-05..08); one Dashboard side for all where the format says so (ICE-03)."""
        cars: dict[str, RxCar] = {}
        sides = set()
        for p, slot in zip(players, slots):
            tires = self._side(p)
            sides.add(tires)
            dash = self.components.dashboard(self.format.car or p.car, tires)  # custom: the player's own car
            cars[p.name] = RxCar(p.name, p.colour, dash, slot, self.laps.start_distance(slot))
        if self.format.same_side and len(sides) > 1:
            raise ValueError(f"every player uses the same Dashboard side, not {', '.join(sorted(sides))} (ICE-03)")
        return cars

    # -- the racetrack (a Head-to-Head on a stage overrides these: rallyc.rules.variants.stage_race)
    def course(self, track: Track) -> Laps:
        """Distance and finish-line crossings along the racetrack: the laps of a circuit (RX-END-01)."""
        return Laps(track)

    def start_grid(self) -> list[str]:
        """The places cars take at the start, Pole Position first (RX-SETUP-05..07: the Pre-grid)."""
        return grid(self.index)

    def _side(self, p: Player) -> str:
        """The Dashboard side ``p`` drives with; ValueError when not allowed here."""
        fmt = self.format
        if not fmt.car:  # a custom race: the player's own Dashboard, the side of the tires fitted (CUSTOM-10)
            if p.tires not in fmt.sides:
                raise ValueError(f"{p.name}: {p.car} tires are {' or '.join(fmt.sides)}, not {p.tires!r} ({fmt.car_rule})")
            return p.tires
        if fmt.name == "rx":
            tires = "asphalt" if p.tires in ("gravel", "asphalt") else p.tires
            if tires != "asphalt" and not (self.weather_rule and tires == "rain"):
                raise ValueError(f"{p.name}: RX cars race on Asphalt tires, Rain tires only with the RX Weather "
                                 f"rule (RX-SETUP-04, RX-WEATHER-02), not {p.tires!r}")
            return tires
        side = fmt.sides[0] if p.tires in ("gravel", "asphalt") else p.tires
        if side not in fmt.sides:
            raise ValueError(f"{p.name}: an {fmt.name} Dashboard side is {' or '.join(fmt.sides)}, not {p.tires!r} "
                             f"({fmt.car_rule})")
        return side

    # -- rounds and order of play
    @property
    def colour(self) -> str:
        """The Round marker's colour (RX-ROUND-01)."""
        return _COLOURS[self.round % 2]  # (round_colour)

    def marker(self, name: str) -> str:
        """The colour a car's Gear marker shows: the next round's once it has played this round (RX-ROUND-02)."""
        return round_colour(self.round + 1) if self.cars[name].played == self.round else self.colour

    def next_round(self) -> None:
        """Flip the Round marker and order the cars still racing (RX-ROUND-03, RX-ORDER-01..04)."""
        if self.is_over():
            return
        previous = {}  # name -> its place in the previous order (a loop: a comprehension's frame costs more)
        for i, n in enumerate(self.order or self.grid_order):
            previous[n] = i
        self.round += 1
        keyed = []  # (order key, name): the ranks differ, so the name never decides
        for c in self.cars.values():
            if c.status != "road":
                continue
            rank = previous.get(c.name)
            if rank is None:
                rank = len(previous) + self.grid_order.index(c.name)
            keyed.append((order_key(c.gear, c.distance, is_inside(self.index, c.space), rank), c.name))
        keyed.sort()
        self.order = [name for _, name in keyed]
        self.position = 0
        self.rounds.append(list(self.order))

    def is_over(self) -> bool:
        """No car is still racing (RX-END-04: play continues for the other places)."""
        # (asked about 3 times a turn: a loop that stops at the first car racing costs about 1,500 machine
        # instructions, the C-level ``"road" not in map(...)`` about 2,600)
        for c in self.cars.values():
            if c.status == "road":
                return False
        return True

    def check_stopped(self) -> None:
        """A race may stop once a car has won (RX-END-03), or once no car is racing."""
        if not self.is_over() and not self.decided():
            raise IllegalMove("RX-END-03", f"the record stops before any car has won: {self.to_move()} is still "
                                           f"racing (round {self.round})")

    def decided(self) -> bool:
        """A car has won: the first eligible car has crossed the line after its last lap (RX-END-03). Play may
        go on for the other places (RX-END-04) or stop here ("you may of course continue the race")."""
        return bool(self.finishers)

    # -- the bag (duck-typed like Stage for the bot and the core turn code)
    def damage_bag(self) -> dict[str, int]:
        """The RX Damage bag's contents at the start (RX-SETUP-02)."""
        if self.format.bag == "rx":
            return rx_bag(self.components, self.weather_rule)
        return self.format.bag_contents(self.components)

    def check_kinds(self, tokens: list[str], path: str) -> None:
        """Each token drawn is of a kind the race's Damage bag holds (RX-SETUP-02); a Weather token only under the
        RX Weather rule, whose 6 Weather tokens are added to the bag (RX-WEATHER-03). :class:`IllegalMove` at
        ``path[i]``."""
        bag = self.damage_bag()
        for i, d in enumerate(tokens):
            if d not in RX_DAMAGE_KINDS or d not in bag:
                rule = "RX-WEATHER-03" if d == WEATHER else "RX-SETUP-02"
                raise IllegalMove(rule, f"the RX Damage bag holds {', '.join(sorted(bag))} tokens, not {d!r}",
                                  f"{path}[{i}]")

    @property
    def weather_open(self) -> bool:
        """A Weather token drawn now would change the weather (RX-WEATHER-07: only the first one counts)."""
        return self.weather_rule and not self.weather_changed

    def damage_out(self) -> Counter[str]:
        """The Damage tokens of each kind out of the bag (:mod:`rallyc.rules.core.damage_bag`): on the Dashboards (but a
        Shortcut's "coast" token, reading ``shortcut_token_kind``), the Yellow Flags and the Weather tokens drawn."""
        out = on_dashboards(self.cars.values(), self.outcomes)
        out["yellow"] += self.yellow_drawn
        out[WEATHER] += self.weather_drawn
        return out

    def bag_left(self) -> int:
        """Tokens still in the bag (drawn tokens stay on Dashboards or the track: no repairs, RX-DAMAGE-09)."""
        total = self.__dict__.get("_bag_total")
        if total is None:  # the bag at the start is the game's: counted once per game
            total = self.__dict__["_bag_total"] = sum(self.damage_bag().values())
        out = self.yellow_drawn + self.weather_drawn
        for c in self.cars.values():
            out += sum(c.damage.values())
        return total - out - sum(self.minus1.values()) - sum(self.shortcut_ok.values())

    # -- planning
    def _flags_in_force(self, mover: str) -> dict[int, list[str]]:
        """Yellow Flags at the start of ``mover``'s turn: its own go to its Dashboard if it starts in Gear 0
        (RX-DAMAGE-08)."""
        return self.flag_rule.in_force(self.yellow, mover, self.cars[mover].gear == 0)

    def _pairs_alongside(self, step: int) -> set[frozenset[str]]:
        """Pairs of cars alongside each other under a flag on ``step`` as it is placed (RX-DAMAGE-06)."""
        return self.flag_rule.placed(step, [(c.name, c.space) for c in self.cars.values() if c.impedes])

    def _barred(self, name: str, joker_done: bool, left_pregrid: bool) -> dict[str, tuple[str, str]]:
        """The spaces ``name`` may not enter: the Joker once driven (RX-JOKER-02), the Pre-grid once left
        (RX-START-02). Built once per player and state (read-only: every context of that state shares it)."""
        key = (name, joker_done, left_pregrid)
        got = self._barred_cache.get(key)
        if got is None:
            marks = self._marks
            got = {}
            if joker_done:
                got.update({sid: ("RX-JOKER-02", f"{name} has driven the Joker: it may not enter it again ({sid})")
                            for sid in marks.joker_ids})
            if left_pregrid:
                got.update({sid: ("RX-START-02", f"{name} has left the Pre-grid: it may not re-enter it ({sid})")
                            for sid in marks.pregrid_ids})
            self._barred_cache[key] = got
        return got

    def context(self, name: str | None = None) -> tuple[PlanContext, bool]:
        """The planning context of ``name``'s turn (the player to move by default); RX has no leader (False).

        What the car's Dashboard and its Joker and Pre-grid decide (the allowance, the barred spaces) is built once
        per car and state (a template in :meth:`context_cache`); the turn adds the start, the others' cars, the -1
        tokens, the Yellow Flags and Full Contact's board (:meth:`new_context`)."""
        name = name or self.to_move()
        if name is None:
            raise StageOver("the race is over", "RX-END-04")
        car = self.cars[name]
        if car.status != "road":
            raise StageOver(f"{name} has {car.status}", "RX-END-04")
        joker_done = car.joker == _JOKER_DONE
        cache = self._contexts
        if cache is None or cache.index is not self.index:
            cache = self.context_cache()
        # the templates' key: the car's name, then the variant's key of its state (name first), built at once
        key = (name, name, self.weather, tuple(car.damage.items()) if car.damage else (), joker_done, car.left_pregrid)
        template = cache.templates.get(key)
        if template is None:
            template = cache.template(car, key[1:], lambda: self._context_template(car, joker_done))
        variant: dict[str, object] | None = None  # (most turns: none, no dict)
        if self.yellow:
            variant = {}
            variant["no_alongside"], variant["alongside_before_flag"] = self.flag_rule.board(
                self._flags_in_force(name), self.yellow_pairs, name,
                [(c.name, c.space) for c in self.cars.values() if c is not car and c.status == "road"]
                if self.yellow_pairs else (), cache.track.flagged)  # (no pair kept: the other cars are not read)
        if self.contact is not None:
            if variant is None:
                variant = {}
            variant["contact"], others = self.contact.board(name)
        else:
            others = {}
            for c in self.cars.values():  # (a loop, not a comprehension: no frame of its own)
                if c.status == "road" and c is not car and c.space:
                    others[c.space] = c.gear
        return self.new_context(template, car, car.space, others, variant), False

    def context_key(self) -> RaceFormat:
        """The race's format also decides its planning contexts (the Dashboards' car category)."""
        return self.format

    def _context_template(self, car: RxCar, joker_done: bool) -> dict[str, object]:
        """The fields of ``car``'s planning context its Dashboard, the weather and its Joker and Pre-grid decide
        (:meth:`TurnEngine.context_template`)."""
        allow = rx_allowance(car.dashboard, car.damage, self.weather)
        if self.components.reading("rx_boost_pairs") == "one" and allow.boost > 1:
            allow = replace(allow, boost=1)  # the box's one Boost die (reading rx_boost_pairs)
        return self.context_template(car, RX_CAR if self.format.car else car.dashboard.car, allow,
                                     barred=self._barred(car.name, joker_done, car.left_pregrid))

    # -- laps along a path
    def _drive(self, car: RxCar, path: list[str]
               ) -> tuple[tuple[float, int, JokerState, bool], int | None, JokerState | None]:
        """The car's (distance, crossings, Joker state, left the Pre-grid) after ``path`` (as it stands for an empty
        path), the index of the space where it crosses the line after its last lap and its Joker state there (None,
        None if it does not): the laps by :meth:`Laps.drive`, the Joker (RX-JOKER-03) and the Pre-grid space by
        space."""
        d, crossed, fin = self.laps.drive(car.distance, car.crossed, path)
        joker, left = car.joker, car.left_pregrid
        fin_joker = None
        spaces = self.index.spaces
        for i, sid in enumerate(path):
            s = spaces[sid]
            if s.joker:
                joker = JokerState.IN
            elif joker == JokerState.IN:
                joker = JokerState.DONE  # RX-JOKER-03: left the Joker
            left = left or not s.pregrid
            if i == fin:
                fin_joker = joker
        return (d, crossed, joker, left), fin, fin_joker

    def finish_index(self, car: RxCar, placed: list[Placed]) -> int | None:
        """Index of the die that takes ``car`` across the line after its last lap (RX-END-02)."""
        return self.laps.drive(car.distance, car.crossed, [p.space for p in placed])[2]

    # -- playing: the hooks of the core turn engine (:mod:`rallyc.rules.core.engine`)
    def check_turn(self, turn: Turn, name: str) -> None:
        """Only the player to move plays, in this round (RX-ORDER-01, RX-ROUND-01); no Time cards, repairs or
        SISU in RX (RX-SETUP-10, RX-DAMAGE-09, RX-ADV-01); a car starts where it stands (RX-START-01)."""
        if turn.colour is not None and turn.colour != self.colour:
            raise IllegalMove("RX-ROUND-01", f"round {self.round} is a {self.colour} round, not {turn.colour}",
                              "colour")
        if turn.player not in self.cars:
            raise IllegalMove("RX-SETUP-05", f"no player {turn.player!r} in this race", "player")
        if turn.player != name:
            raise IllegalMove("RX-ORDER-01", f"round {self.round} ({self.colour}): it is {name}'s turn (order "
                                             f"{', '.join(self.order)}), not {turn.player}'s", "player")
        if turn.round is not None and turn.round != self.round:
            raise IllegalMove("RX-ROUND-01", f"this turn is in round {self.round}, not round {turn.round}", "round")
        if turn.card is not None:
            raise IllegalMove("RX-SETUP-10", "Time cards are not used in RX: a turn has no `card`", "card")
        if turn.spare_tire:
            raise IllegalMove("RX-DAMAGE-09", "no repairs and no tire change during an RX race", "spare_tire")
        if turn.sisu:
            raise IllegalMove("RX-ADV-01", "SISU is not an RX rule", "sisu")
        if turn.start is not None and turn.start != self.cars[name].space:
            raise IllegalMove("RX-START-01", f"{name} starts the turn on {self.cars[name].space}, not {turn.start}",
                              "start")

    def play(self, turn: Turn, driver: Driver | None = None) -> RxOutcome:
        """The core's turn (:meth:`TurnEngine.play`), then the turn's claims of what it left, which the commit
        settles (the weather after Full Contact's draws): laps, weather, Joker (:func:`check_left`). A claim
        refused is raised once the turn is played."""
        out = TurnEngine.play(self, turn, driver)
        check_left(turn, out)
        return out

    def mover(self, car: RxCar) -> Mover:
        """The core's mover, with the Warnings of the car's Danger tokens (Full Contact, RX-DANGER-06)."""
        m = TurnEngine.mover(self, car)  # (super() builds a proxy object each call)
        if self.contact is not None:
            warnings = self.contact.warnings(car.name)
            if warnings:  # (none held: the core's mover, whose Warnings are 0)
                return m.with_warnings(warnings)
        return m

    def forced_movement(self, car: RxCar, turn: Turn, ctx: PlanContext) -> Movement | None:
        """Full Contact: Danger tokens up to the Warning limit, a Loss of Control before any die (RX-DANGER-05)."""
        return self.contact.start_of_turn(car, turn, ctx) if self.contact is not None else None

    def restarting(self, car: RxCar) -> bool:
        """A car in Gear 0 after its first turn starts again after a Loss of Control (CORE-ADV-04)."""
        return car.gear == 0 and car.turns > 0

    def log_start(self, car: RxCar, turn: Turn, ctx: PlanContext, leader: bool) -> None:
        """The dice and the order of play of an RX round (RX-DICE-01, RX-ROUND-01, RX-ORDER-01), no Time cards
        (RX-SETUP-10); the Damage tokens the car holds, kept (no repairs, RX-DAMAGE-09), a Boost Damage token taking
        a Boost die away (RX-DAMAGE-02, :func:`~rallyc.rules.core.rx_dashboard.rx_allowance`)."""
        self.log.head += ("CORE-DICE-01", "RX-DICE-01", "RX-ROUND-01", "RX-ORDER-01", "RX-SETUP-10")
        if any(car.damage.values()):
            self.log.head.append("RX-DAMAGE-09")
            if car.damage.get("boost"):
                self.log.head.append("RX-DAMAGE-02")

    def log_end(self, car: RxCar, turn: Turn, ctx: PlanContext, move: Movement, out: RxOutcome,
                change: RaceChange) -> None:
        """The End of the Turn of an RX race (:func:`_end_rules`), then what the round, the RX Dashboard, the Boost
        die, the forks, the Yellow Flags, the Joker, the finish and the RX Weather did (:meth:`_rx_rules`), then
        Full Contact's Danger tokens (``car`` not yet changed by the turn)."""
        end = self.log.end
        _end_rules(end, car, ctx, move, out, self.format.name == "ice")
        end += self._rx_rules(car, turn, ctx, move, out, change)
        if self.contact is not None:
            end += self.contact.start_rules(car, ctx, not move.run.resolved and move.run.loc is not None)

    def _setup_rules(self) -> tuple[str, ...]:
        """The setup the referee laid out before round 1 (reported with the race's first turn): the cars on the
        Pre-grid in draw order from Pole Position, then across and down the rows (RX-SETUP-05..07), each in Gear 0 with
        no Focus token from the bank (RX-SETUP-01, RX-SETUP-08); the RX Damage bag (RX-SETUP-02) when the race draws
        from it; RX Dashboards, Rain tires only with the RX Weather rule, which starts in the weather chosen at setup
        (RX-SETUP-03/04, RX-WEATHER-01/02)."""
        rules = ["RX-SETUP-01", "RX-SETUP-05", "RX-SETUP-06", "RX-SETUP-08"]
        if len(self.cars) > 1:
            rules.append("RX-SETUP-07")  # each next car beside the previous one, then the next row back
        if self.format.bag == "rx":
            rules.append("RX-SETUP-02")  # the tokens drawn are checked against this bag (damage_bag)
        if self.format.name == "rx":
            rules += ["RX-SETUP-03", "RX-SETUP-04"]
            if self.weather_rule:
                rules += ["RX-WEATHER-01", "RX-WEATHER-02", "RX-WEATHER-03"]
        return tuple(rules)

    def _rx_rules(self, car: RxCar, turn: Turn, ctx: PlanContext, move: Movement, out: RxOutcome,
                  change: RaceChange) -> list[str]:
        """What the round, the RX Dashboard, the Boost die, the forks, the Yellow Flags, the Joker, the finish and the
        RX Weather did this turn (``car`` as it was before the turn)."""
        rules = self._round_rules(car, out, change)
        self._fork_rules(rules, ctx, move)
        if self.joker_rule and out.joker == JokerState.IN and car.joker == JokerState.TODO:
            rules.append("RX-JOKER-01")  # the Joker lap, driven once on a lap of the player's choice
        if out.finished and self.finishers:
            rules.append("RX-END-04")  # play goes on for the places after the winner
        if out.loc is not None and self.format.name == "rx":
            rules.append("RX-LOC-01")  # the consequences come from the Dashboard, not from Time cards
        if self.format.name == "rx":
            self._boost_rules(rules, car, move)
        if ctx.no_alongside:
            self._flag_rules(rules, car, ctx, move)
        if self.format.name == "ice":
            rules.append("ICE-02")  # any tiles race as an Ice track: their surfaces do not change the dice
        if self.weather_rule:
            tires = car.dashboard.tires
            if tires == "asphalt" and self.weather == "wet":
                rules.append("RX-WEATHER-05")
            elif tires == "rain" and self.weather == "dry":
                rules.append("RX-WEATHER-06")
        return rules

    def _round_rules(self, car: RxCar, out: RxOutcome, change: RaceChange) -> list[str]:
        """The setup (with the race's first turn), the round and its Gear markers, the RX Dashboard, a Weather token
        discarded, the car's own Yellow Flag (RX-SETUP, RX-ROUND, RX-DASH, RX-WEATHER-07, RX-DAMAGE-08)."""
        rules: list[str] = list(self._setup_rules()) if not self.outcomes else []
        rules += ("RX-ROLL-01", "RX-ROUND-02")  # rolled as in the core; its Gear marker showed the round's colour
        if self.position == 0 and self.round > 1:
            rules.append("RX-ROUND-03")  # no marker showed the last round's colour: flipped, a new order
        if self.round == 1:
            rules.append("RX-START-01")  # no staggered start: every car plays in round 1 from Gear 0
        if self.format.name in ("rx", "ice"):
            rules += ("RX-DASH-01", "RX-SETUP-09")  # one pool on every surface, the Dashboard's damage table
        if any(car.damage.values()):
            rules.append("RX-DASH-03")  # Damage tokens on the Dashboard take dice away
        if self.weather_rule:
            rules.append("RX-DASH-02")  # the side of the weather and the tires fitted give the dice
            drawn = change.weather_drawn + sum(t == WEATHER for t in out.tokens)
            if drawn > (1 if out.weather else 0):
                rules.append("RX-WEATHER-07")  # a later Weather token is discarded, another drawn
        if car.gear == 0 and any(car.name in holders for holders in self.yellow.values()):
            rules.append("RX-DAMAGE-08")  # its own Yellow Flag goes to its Dashboard
        return rules

    def _fork_rules(self, rules: list[str], ctx: PlanContext, move: Movement) -> None:
        """Forks and half-line spaces (RX-FORK-01/02/04), speed-limit lines (RX-FORK-03/05)."""
        path = [ctx.start] + [p.space for p, _ in move.run.resolved]
        spaces = self.index.spaces
        if not self.index.fork_spaces.isdisjoint(path[1:]):
            rules.append("RX-FORK-01")
            if any(spaces[sid].kind == "half" for sid in path[1:]):
                rules.append("RX-FORK-02")
                if any(o in ctx.others for sid in path[1:] if spaces[sid].kind == "half"
                       for o in self.index.alongside[sid]):
                    rules.append("RX-FORK-04")  # round another car by the half-line spaces
        line_limit = self.index.line_limit
        if line_limit and any((a, b) in line_limit for a, b in zip(path, path[1:])):
            rules += ("RX-FORK-03", "RX-FORK-05")  # the line's limit for the next space, not a corner

    def _boost_rules(self, rules: list[str], car: RxCar, move: Movement) -> None:
        """The RX Boost die (RX-DICE-03..05)."""
        resolved = move.run.resolved
        if any(p.die.boost for p, _ in resolved):
            rules.append("RX-DICE-03")
            if any(r.secured and r.die.boost for _, r in resolved):
                rules.append("RX-DICE-04")  # secured with its Gear die: both dice paid for
            if self.options.flying_start and car.gear == 0:
                rules.append("RX-DICE-05")  # a Boost from Gear 0 is not a Flying Start

    def _flag_rules(self, rules: list[str], car: RxCar, ctx: PlanContext, move: Movement) -> None:
        """Yellow Flags in force (RX-DAMAGE-05/07)."""
        entered = {p.space for p, _ in move.run.resolved}
        if any(o in ctx.others and not ctx.others[o] for sid in entered & ctx.no_alongside
               for o in self.index.alongside[sid]):
            rules.append("RX-DAMAGE-05")  # alongside a car in Gear 0 under a Yellow Flag
        if any(len(holders) > 1 for holders in self._flags_in_force(car.name).values()):
            rules.append("RX-DAMAGE-07")  # several flags on one tile: one flag's effect

    def end_of_turn(self, car: RxCar, turn: Turn, ctx: PlanContext, move: Movement, driver: Driver | None
                    ) -> tuple[RxOutcome, RaceChange]:
        """End of the Turn (RX-TURNEND-01/02): the Gear marker, Loss of Control, laps, Joker, finish."""
        run = move.run
        path = [p.space for p, _ in run.resolved]
        (distance, crossed, joker, left), fin, fin_joker = self._drive(car, path)
        weather = self._shortcut_weather(run.tokens)
        damage: list[str] = []
        yellow: list[int] = []
        status = _ROAD
        if fin is not None:
            gear, status = self._finish(turn, move, fin, fin_joker)
        elif not path and self._pushed_across(car):
            gear, status = self._finish_pushed(turn, car)
        elif run.loc is not None:
            gear = 0  # RX-LOC-02/03: the car stays on its space, "0" Gear marker
            damage, yellow, weather = self._loc_damage(turn, run.loc, run.tokens, driver, weather)
        else:
            gear = self._end_gear(car, turn, ctx, move)
        self._check_bag(turn, run.tokens)
        out = RxOutcome(
            player=car.name, round=self.round, start=ctx.start, path=path, end=path[-1] if path else ctx.start,
            gear=gear, warnings=run.warnings, loc=run.loc, blocked=not turn.dice, flat_out=turn.flat_out,
            flat_out_failed=move.failed, gained=move.gained, spent=move.spent, damage=list(turn.damage),
            tokens=list(run.tokens), finished=status == "finished", colour=self.colour,
            laps=min(self.laps.laps_done(crossed), self.laps.laps), joker=joker,
            disqualified=status == "disqualified", yellow=yellow, weather=weather[2], lapped=self.laps.laps > 0)
        check_claims(FOCUS, "RX-TURNEND-02", turn, out)
        change = RaceChange(status, distance, crossed, joker, left, run.minus1, damage, yellow, weather[1])
        if self.contact is not None:  # Full Contact: the pushes reached, checked (committed with the turn)
            self.contact.resolve(car, turn, ctx, move, out, driver)
        return out, change

    def _shortcut_weather(self, tokens: list[str]) -> _Weather:
        """The Shortcut sides drawn this turn, checked (RX-SETUP-02); a Weather token among them turns the weather
        (RX-WEATHER-04): only with the RX Weather rule (RX-WEATHER-03) and only the first (RX-WEATHER-07)."""
        weather_open = self.weather_open
        drawn, new_weather = 0, None
        for t in tokens:
            if t == WEATHER:
                if not self.weather_rule:
                    raise IllegalMove("RX-WEATHER-03", "no Weather token is in the bag without the RX Weather rule",
                                      "dice")
                if not weather_open:
                    raise IllegalMove("RX-WEATHER-07", "only the first Weather token counts: a later one is "
                                                       "replaced by another draw; record that token's side", "dice")
                weather_open = False
                drawn += 1
                new_weather = self._turned_weather()
            elif t not in SHORTCUT_RESULTS:
                raise IllegalMove("RX-SETUP-02", f"a Shortcut side shows ok, coast or minus1, not {t!r}", "dice")
        return weather_open, drawn, new_weather

    def _turned_weather(self) -> str:
        """The weather the Dashboards turn to when a Weather token counts (RX-WEATHER-04)."""
        return "wet" if self.weather == "dry" else "dry"

    def _finish(self, turn: Turn, move: Movement, fin: int, fin_joker: JokerState | None) -> tuple[int, RaceStatus]:
        """The car crossed the line after its last lap (RX-END-02/03, Ambiguity 34; a Loss of Control beyond it
        still finishes): the gear of the die that took it across, finished once it drove the Joker, else
        disqualified (RX-JOKER-04); no Damage token is drawn."""
        if turn.damage:
            raise IllegalMove("RX-END-02", "the car has finished: no Damage token is drawn", "damage")
        done = fin_joker == JokerState.DONE or not self.joker_rule
        return move.run.resolved[fin][0].gear, RaceStatus.FINISHED if done else RaceStatus.DISQUALIFIED

    def _pushed_across(self, car: RxCar) -> bool:
        """The car starts its turn across the line after its last lap: pushed there in another car's turn (Full
        Contact), it has not crossed it "during their turn" (RX-END-03)."""
        return car.crossed > self.laps.laps and self.components.reading("pushed_across_finish") == "next-turn"

    def _finish_pushed(self, turn: Turn, car: RxCar) -> tuple[int, RaceStatus]:
        """Reading pushed_across_finish: a car pushed across the line after its last lap finishes at its next turn
        in which it lays no die (on a stage there is no space to drive on past the Finish Line), as that turn's
        crossing, in its Gear marker; finished once it drove the Joker, else disqualified (RX-JOKER-04)."""
        if turn.damage:
            raise IllegalMove("RX-END-02", "the car has finished: no Damage token is drawn", "damage")
        done = car.joker == JokerState.DONE or not self.joker_rule
        return car.gear, RaceStatus.FINISHED if done else RaceStatus.DISQUALIFIED

    def _loc_damage(self, turn: Turn, loc: LossOfControl, tokens: list[str], driver: Driver | None,
                    weather: _Weather) -> tuple[list[str], list[int], _Weather]:
        """A Loss of Control's Damage tokens (RX-LOC-04), drawn (driver) or checked (:mod:`rallyc.rules.core.damage_bag`:
        the draw stops when the bag is empty; a Weather token after the first is discarded and another drawn,
        RX-WEATHER-07): the tokens for the Dashboard, the route steps of the Yellow Flags drawn (RX-DAMAGE-03), the
        weather after them. ``tokens``: the Shortcut sides the turn drew before, out of the bag too."""
        weather_open, drawn, new_weather = weather
        danger = self.index.spaces[loc.space].danger
        left = self.bag_left() - len(tokens)
        n = min(loc_damage(self.components, loc.gear, danger, self.format.loc_table), left)
        if driver is not None and not turn.damage and n:
            turn.damage = draw(driver, n, left, weather_open)
        self.check_kinds(turn.damage, "damage")
        counted = count_draw(turn.damage, n, weather_open)
        check_count(counted, turn.damage, n, left, "RX-LOC-04",
                    f"a Loss of Control in Gear {loc.gear} on a {danger} tile draws {n} Damage token(s) (assumption "
                    f"{self.format.loc_table})", "damage")
        if counted.turns_weather:
            weather_open, new_weather = False, self._turned_weather()
        step = self.index.spaces[loc.space].step
        yellow = [step for d in counted.counted if d == "yellow"]  # RX-DAMAGE-03
        damage = [d for d in counted.counted if d not in (WEATHER, "yellow")]
        return damage, yellow, (weather_open, drawn + counted.weather, new_weather)

    def _end_gear(self, car: RxCar, turn: Turn, ctx: PlanContext, move: Movement) -> int:
        """The Gear marker after a turn without a finish nor a Loss of Control (no Damage token drawn, RX-LOC-04):
        the gear of the last die rolled, the car's own when it rolled none, one lower when it is stuck at water
        (reading water_stuck)."""
        if turn.damage:
            raise IllegalMove("RX-LOC-04", "no Loss of Control this turn: no Damage token is drawn", "damage")
        resolved = move.run.resolved
        gear = resolved[-1][0].gear if resolved else car.gear
        if not turn.dice and gear > 1 and self.components.reading("water_stuck") == "gear-down" \
                and stuck_at_water(ctx):
            gear -= 1
        return gear

    def _check_bag(self, turn: Turn, tokens: list[str]) -> None:
        """The bag holds the tokens the turn drew (RX-SETUP-02)."""
        if (turn.damage or tokens) and len(turn.damage) + len(tokens) > self.bag_left():
            # (nothing drawn: the bag never holds fewer than none)
            raise IllegalMove("RX-SETUP-02", f"the Damage bag holds {self.bag_left()} token(s)", "damage")
        if turn.damage:
            check_drawn(self.damage_bag(), self.damage_out(), turn.damage, "RX-SETUP-02")

    def commit(self, car: RxCar, turn: Turn, out: RxOutcome, c: RaceChange) -> None:
        """Write the resolved turn into the race: the car, the -1 tokens, the flags, the weather, the finish or its
        retiring, then Full Contact's pushes, draws and Danger tokens."""
        if self.yellow or self.yellow_pairs:  # (no flag on the track: nothing to take off)
            self.yellow = self._flags_in_force(car.name)  # RX-DAMAGE-08: taken off at the start of the turn
            self.yellow_pairs = {step: pairs for step, pairs in self.yellow_pairs.items() if step in self.yellow}
        car.space = out.end
        car.gear = out.gear
        car.distance = c.distance
        car.crossed = c.crossed
        car.joker = c.joker
        car.left_pregrid = c.left_pregrid
        car.focus += out.gained - out.spent
        car.turns += 1
        car.played = self.round
        self.minus1 = c.minus1
        self._take_tokens(car, out, c)
        car.status = c.status
        if c.status == _FINISHED:
            self.finishers.append(car.name)
            out.position = len(self.finishers)
        elif c.status == _ROAD and self._no_gear_left(car):
            car.status = RaceStatus.RETIRED  # CORE-RETIRE-01
            out.retired = True
            if self.components.reading("rx_retired_flag") == "removed":
                self._remove_flags(car.name)
            out.rules.append("CORE-RETIRE-01")
        if self.contact is not None:
            out.rules += self.contact.commit(car, out)

    def _take_tokens(self, car: RxCar, out: RxOutcome, c: RaceChange) -> None:
        """The tokens the turn drew: Shortcut sides (CORE-SHORTCUT-07), Damage tokens on the Dashboard from the next
        turn (RX-DAMAGE-01/02/10), Yellow Flags on the track (RX-DAMAGE-03), Weather tokens out of the bag and
        every Dashboard turned over once the draws are done (RX-WEATHER-04)."""
        for t in out.tokens:
            if t == "ok":
                self.shortcut_ok[car.name] += 1
            elif t == "coast":
                car.damage["coast"] += 1
        for d in c.damage:
            car.damage[d] += 1
        for step in c.yellow:
            if step not in self.yellow:
                self.yellow_pairs[step] = self._pairs_alongside(step)
            self.yellow.setdefault(step, []).append(car.name)
            self.yellow_drawn += 1
        self.weather_drawn += c.weather_drawn
        if out.weather:
            self.weather = out.weather
            self.weather_changed = True

    def _no_gear_left(self, car: RxCar) -> bool:
        """The car has no Gear die left (CORE-RETIRE-01); worked out again only when its Dashboard or Damage tokens
        changed since the last check (most turns draw none; dict.__eq__: the plain comparison, not Counter's)."""
        known = self._gear_left.get(car.name)
        if known is None or known[0] is not car.dashboard or not dict.__eq__(known[1], car.damage):
            known = self._gear_left[car.name] = (car.dashboard, dict(car.damage),
                                                 rx_allowance(car.dashboard, car.damage).gear <= 0)
        return known[2]

    def _remove_flags(self, name: str) -> None:
        """Take ``name``'s Yellow Flags off the track (reading rx_retired_flag ``removed``)."""
        kept = {step: [h for h in holders if h != name] for step, holders in self.yellow.items()}
        self.yellow = {step: holders for step, holders in kept.items() if holders}
        self.yellow_pairs = {step: pairs for step, pairs in self.yellow_pairs.items() if step in self.yellow}

    # -- setting up positions (tests, puzzles: like python-chess's set_piece_at)
    def set_car(self, name: str, space: str, *, gear: int = 0, crossed: int = 0, joker: str | None = None,
                focus: int | None = None) -> None:
        """Put ``name``'s car on ``space`` in ``gear`` having crossed the finish line ``crossed`` times, then
        re-order the current round (call before anyone has played in it)."""
        car = self.cars[name]
        if space not in self.index.spaces:
            raise ValueError(f"there is no space {space!r} on {self.track.name}")
        origin = min(self.laps.start_distance(s) for s in self.index.start_spaces)
        p = self.index.spaces[space].progress
        for wraps in range(0, self.laps.laps + 3):
            d = p + wraps * self.laps.length
            if self.laps.crossings(origin, d) == crossed:
                break
        else:
            raise ValueError(f"{space} cannot be reached with {crossed} finish-line crossing(s)")
        car.space, car.gear, car.distance, car.crossed = space, gear, d, crossed
        car.left_pregrid = car.left_pregrid or not self.index.spaces[space].pregrid
        if joker is not None:
            car.joker = JokerState(joker)
        if focus is not None:
            car.focus = focus
        self.order = []
        self.round -= 1
        if self.rounds:
            self.rounds.pop()
        self.next_round()

    # -- results
    def result(self) -> RaceResult:
        """Finishing order (RX-END-03/04), disqualified cars (RX-JOKER-04), retired cars, laps and Jokers."""
        return RaceResult(
            order=list(self.finishers),
            disqualified=[n for n, c in self.cars.items() if c.status == "disqualified"],
            retired=[n for n, c in self.cars.items() if c.status == "retired"],
            laps={n: min(self.laps.laps_done(c.crossed), self.laps.laps) for n, c in self.cars.items()},
            joker={n: c.joker == "done" for n, c in self.cars.items()},
            racing=[n for n in self.order if self.cars[n].status == "road"],
        )


def _end_rules(rules: list[str], car: RxCar, ctx: PlanContext, move: Movement, out: RxOutcome, ice: bool) -> None:
    """The End of an RX turn (``car`` as it was before it): the Gear marker (RX-TURNEND), Focus tokens
    (RX-ROLL-03/04), Yellow Flags in force (RX-DAMAGE-04/06), barred spaces (RX-JOKER-02, RX-START-02), a Loss of
    Control (RX-LOC), the Joker, laps and the finish (RX-JOKER, RX-END), the weather, Ice (ICE)."""
    if out.blocked:
        rules.append("RX-TURNEND-01")
    rules.append("RX-TURNEND-02")
    if out.gained:
        rules.append("RX-ROLL-03")
    if out.spent:
        rules.append("RX-ROLL-04")
    if ctx.no_alongside:
        rules.append("RX-DAMAGE-04")
        if ctx.alongside_before_flag:
            rules.append("RX-DAMAGE-06")
    if ctx.barred:
        rules.append(_barred_rule(ctx.barred))
    if out.loc is not None:
        rules += ("CORE-LOC-01", "RX-LOC-02", "RX-LOC-03", "RX-LOC-04")
        if out.damage:
            rules += ("RX-DAMAGE-01", "RX-DAMAGE-10")
        if out.yellow:
            rules.append("RX-DAMAGE-03")
    _lap_rules(rules, car, move, out, ice)


def _lap_rules(rules: list[str], car: RxCar, move: Movement, out: RxOutcome, ice: bool) -> None:
    """The Joker, laps and the finish (RX-JOKER-03/04, RX-END-01..03), the weather turned (RX-WEATHER-04), Ice
    (ICE)."""
    if out.joker == "done" and car.joker != "done":
        rules.append("RX-JOKER-03")
    if out.laps > 0 or out.finished:
        rules.append("RX-END-01")
    if out.finished:
        rules += ("RX-END-02", "RX-END-03")
    if out.disqualified:
        rules.append("RX-JOKER-04")
    if out.weather:
        rules.append("RX-WEATHER-04")
    if ice:
        rules += ("ICE-01", "ICE-03", "ICE-05", "ICE-06")
        if any(p.die.boost for p, _ in move.run.resolved):
            rules.append("ICE-04")


#: the rule of each barred-spaces table seen (:meth:`Race._barred` builds one per player and state), by identity
_BARRED_RULES: dict[int, tuple[dict[str, tuple[str, str]], str]] = {}


def _barred_rule(barred: dict[str, tuple[str, str]]) -> str:
    """What bars spaces to the car: the Joker driven (RX-JOKER-02), else the Pre-grid left (RX-START-02)."""
    got = _BARRED_RULES.get(id(barred))
    if got is None or got[0] is not barred:
        if len(_BARRED_RULES) >= 256:
            _BARRED_RULES.clear()
        rule = "RX-JOKER-02" if any(r == "RX-JOKER-02" for r, _ in barred.values()) else "RX-START-02"
        got = _BARRED_RULES[id(barred)] = (barred, rule)
    return got[1]
