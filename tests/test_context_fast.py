"""The planning context built from per-car templates agrees with the context built from scratch (issue 9, speed).

The referee builds a car's planning context (:class:`~rallyc.rules.plans.PlanContext`) from a template of what its
Dashboard and state decide (``TurnEngine.context_template``, kept per track for every game of one form, components
and options), adds what the turn decides (``TurnEngine.new_context``: the start, the others' cars, the -1 tokens, the
variant's flags and Full Contact's board), and asks whether a corner left unusable by -1 tokens may need the floor of
1 (reading unusable_corner) only when a -1 token takes a corner's limit below 1 (``TurnEngine.creep_possible``).

The reference here is the context as the referee built it before: ``PlanContext(...)`` with every field worked out
on the spot, the floor tried whenever a -1 token lies on the track, each variant's fields set by
``dataclasses.replace``. At every turn of every recorded game of ``examples/games`` (a tour's events are among them) and of a seeded
slice of one-change mutants of each (stage and race turns), before the turn is played, both are built and compared
field by field (and the moves each reads, ``succ``), or both refuse alike.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from rallyc.records import load_record, replay_record
from rallyc.records.load import RecordError
from rallyc.records.mutate import KINDS, _mutate, mutation_sites
from rallyc.rules.circuit_trial import CircuitTimeTrial
from rallyc.rules.contact import ContactPlan
from rallyc.rules.dashboard import allowance, allowances
from rallyc.rules.engine import TurnEngine
from rallyc.rules.errors import RulesError
from rallyc.rules.plans import PlanContext, can_lay, start_walk
from rallyc.rules.race import Race
from rallyc.rules.rx_dashboard import rx_allowance
from rallyc.rules.speed_trial import SpeedTimeTrial
from rallyc.rules.stage import Stage
from rallyc.rules.yellow_flags import flag_limits

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


# -- the reference: the planning context built from scratch, as before the templates -----------------------------

def _plan_context(engine: TurnEngine, car: Any, start: str, allow: Any, car_kind: str, **variant: Any) -> PlanContext:
    comp = engine.components
    return PlanContext(
        index=engine.index, start=start, gear=car.gear, allowance=allow, top_gear=car.dashboard.top_gear,
        others={c.space: c.gear for c in engine.cars.values() if c.impedes and c is not car and c.space},
        minus1=dict(engine.minus1), flying_start=engine.options.flying_start, redline=engine.options.redline,
        brake_drop=comp.reading("brake_drop"), jump_landing_limit=comp.reading("jump_landing_limit"),
        car=car_kind, haybale_chicane=comp.reading("chicane_without_limit") == "haybale", **variant)


def _stage_reference(st: Stage, name: str, start: str | None) -> tuple[PlanContext, bool]:
    car = st.cars[name]
    space = st._start_space(car, start)
    surface = st.index.spaces[space].surface
    first = bool(st.order) and st.order[0] == name and st.leader_rule_active()
    leader = first and surface == "gravel"
    allow = allowance(car.dashboard, st.dice_surface(car, surface), first, st.options.one_shot, car.damage)
    by_surface = {}
    if len(st.index.surfaces) > 1 and st.surfaces_change_dice:
        every = allowances(car.dashboard, first, st.options.one_shot, car.damage)
        by_surface = {s: every[s] for s in st.index.surfaces if s in every}
    limits = {s: st.warning_limit(car, s, first) for s in st.index.surfaces}
    ctx = _plan_context(st, car, space, allow, car.dashboard.car, allowances=by_surface, limits=limits,
                        handbrake=st.options.handbrake)
    if st.minus1 and st.components.reading("unusable_corner") == "creep" and not can_lay(ctx, start_walk(ctx)):
        creep = replace(ctx, limit_floor=1, corner_methods={})
        if can_lay(creep, start_walk(creep)):
            ctx = creep
    if isinstance(st, CircuitTimeTrial):
        joker = {s.id: ("CUSTOM-02", f"the Joker lap is not a rule of this Time Trial: {s.id} is not part of the "
                                     f"racetrack (reading custom_circuit_joker)")
                 for s in st.index.spaces.values() if s.joker}
        if joker:
            ctx = replace(ctx, barred={**ctx.barred, **joker})
    if isinstance(st, SpeedTimeTrial) and st.yellow:
        no_alongside, before_flag = flag_limits(
            st.index, st._neighbours, st._in_force(car), st.yellow_pairs, car.name,
            [(c.name, c.space) for c in st.cars.values() if c is not car and c.impedes and c.space])
        ctx = replace(ctx, no_alongside=no_alongside, alongside_before_flag=before_flag)
    return ctx, leader


def _race_reference(race: Race, name: str) -> tuple[PlanContext, bool]:
    car = race.cars[name]
    spaces = race.index.spaces
    joker_done = car.joker == "done"
    barred = {}
    if joker_done:
        barred.update({s.id: ("RX-JOKER-02", f"{name} has driven the Joker: it may not enter it again ({s.id})")
                       for s in spaces.values() if s.joker})
    if car.left_pregrid:
        barred.update({s.id: ("RX-START-02", f"{name} has left the Pre-grid: it may not re-enter it ({s.id})")
                       for s in spaces.values() if s.pregrid})
    no_alongside, before_flag = flag_limits(
        race.index, race._neighbours, race._flags_in_force(name), race.yellow_pairs, name,
        [(c.name, c.space) for c in race.cars.values() if c is not car and c.impedes])
    allow = rx_allowance(car.dashboard, car.damage, race.weather)
    if race.components.reading("rx_boost_pairs") == "one" and allow.boost > 1:
        allow = replace(allow, boost=1)
    ctx = _plan_context(race, car, car.space, allow, "rx" if race.format.car else car.dashboard.car,
                        barred=barred, no_alongside=no_alongside, alongside_before_flag=before_flag)
    if race.contact is not None:
        at: dict[str, tuple[str, ...]] = {}
        for c in sorted(race.cars.values(), key=lambda c: c.name):
            if c.impedes and c.name != name:
                at[c.space] = at.get(c.space, ()) + (c.name,)
        pushed: dict[str, dict] = {}
        for c in race.cars.values():
            b: dict = {}
            if c.joker == "done":
                b.update({s.id: ("RX-JOKER-02", f"{c.name} has driven the Joker ({s.id})")
                          for s in spaces.values() if s.joker})
            if c.left_pregrid:
                b.update({s.id: ("RX-START-02", f"{c.name} has left the Pre-grid ({s.id})")
                          for s in spaces.values() if s.pregrid})
            pushed[c.name] = b
        plan = ContactPlan(name, at, {n: c.gear for n, c in race.cars.items()}, pushed)
        ctx = replace(ctx, contact=plan, others=plan.others(at), corner_methods={})
    return ctx, False


def _reference(engine: TurnEngine, name: str, turn: Any) -> tuple[PlanContext, bool]:
    if isinstance(engine, Race):
        return _race_reference(engine, name)
    assert isinstance(engine, Stage)
    return _stage_reference(engine, name, turn.start)


def _outcome(build) -> tuple[str, Any]:
    try:
        return "ok", build()
    except RulesError as exc:
        return "refused", (type(exc).__name__, str(exc))


def _same(fast: PlanContext, ref: PlanContext) -> str | None:
    """Where two contexts differ (None: every field equal, the same moves read)."""
    for f in fields(PlanContext):
        if getattr(fast, f.name) != getattr(ref, f.name):
            return f"{f.name}: {getattr(fast, f.name)!r} != {getattr(ref, f.name)!r}"
    if fast.succ is not ref.succ:
        return "succ"
    if set(vars(fast)) != set(vars(ref)):
        return f"attributes {sorted(set(vars(fast)) ^ set(vars(ref)))}"
    return None


@pytest.fixture
def compare(monkeypatch):
    """Every turn resolved compares the referee's planning context with the reference's; the differences found."""
    seen = {"turns": 0, "refused": 0, "creep": 0, "contact": 0, "flags": 0, "barred": 0, "differences": []}
    resolve = TurnEngine.resolve

    def checked(self, turn, driver=None):
        name = self.to_move()
        if name is not None:
            fast = _outcome(lambda: self.turn_context(name, turn))
            ref = _outcome(lambda: _reference(self, name, turn))
            seen["turns"] += 1
            if fast[0] != ref[0] or (fast[0] == "refused" and fast != ref):
                seen["differences"].append(f"{name}: {fast} != {ref}")
            elif fast[0] == "refused":
                seen["refused"] += 1
            else:
                (fctx, flead), (rctx, rlead) = fast[1], ref[1]
                diff = _same(fctx, rctx) or (None if flead == rlead else f"leader {flead} != {rlead}")
                if diff:
                    seen["differences"].append(f"round {getattr(self, 'round', '?')} {name}: {diff}")
                seen["creep"] += isinstance(self, Stage) and self.creep_possible()  # the floor tried
                seen["contact"] += rctx.contact is not None
                seen["flags"] += bool(rctx.no_alongside)
                seen["barred"] += bool(rctx.barred)
        return resolve(self, turn, driver)

    monkeypatch.setattr(TurnEngine, "resolve", checked)
    return seen


def _replay(data: dict, base: Path) -> None:
    try:
        replay_record(data, base, explain=False)
    except RecordError:
        pass


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_example_turn_has_the_reference_context(game, compare):
    _replay(load_record(game), game.parent)
    assert compare["turns"] > 0
    assert not compare["differences"], compare["differences"][:5]


def _mutants(rec: dict, rng: random.Random, per_kind: int) -> Iterator[dict]:
    """One-change mutants of stage and race turns (``rallyc.records.mutate``'s kinds), ``per_kind`` of each."""
    sites = mutation_sites(rec)
    for kind in KINDS:
        chosen = sites[kind]
        if len(chosen) > per_kind:
            chosen = rng.sample(chosen, per_kind)
        for where in chosen:
            m = _mutate(rec, kind, where, rng)
            if m is not None:
                yield m


def test_mutants_turns_have_the_reference_context(compare):
    """Seeded one-change mutants of every record: the turns played before a refusal (and after a change that is
    legal) are other states than the games', the contexts agree there too."""
    replays = 0
    for game in GAMES:
        rec = load_record(game)
        for m in _mutants(rec, random.Random(f"context:{game.name}"), per_kind=2):
            _replay(m, game.parent)
            replays += 1
    assert replays > 150 and compare["turns"] > 4_000
    assert not compare["differences"], compare["differences"][:5]
    # the cases the fast path treats apart were met
    assert compare["creep"] and compare["contact"] and compare["flags"] and compare["barred"], compare


def test_a_template_is_shared_by_the_games_of_one_form_on_a_track():
    """Two replays of one record: the second game's contexts come from the templates the first one built (kept on
    the track), and it plays the same."""
    game = ROOT / "examples" / "games" / "rally-1-ss1-failed-flat-out.json"
    rec = load_record(game)
    first = replay_record(rec, game.parent, explain=False).to_json(explain=False)
    built = []
    original = TurnEngine.context_template

    def counting(self, *args, **kwargs):
        built.append(1)
        return original(self, *args, **kwargs)

    try:
        TurnEngine.context_template = counting  # type: ignore[method-assign]
        again = replay_record(rec, game.parent, explain=False).to_json(explain=False)
    finally:
        TurnEngine.context_template = original  # type: ignore[method-assign]
    assert again == first and not built


@pytest.mark.parametrize("tokens, possible, floor", [({2: 1}, False, None), ({2: 3}, True, 1), ({4: 3}, True, None)])
def test_the_floor_for_a_corner_left_unusable_is_tried_only_when_a_limit_falls_below_1(tokens, possible, floor):
    """Reading unusable_corner (creep): -1 tokens on tile 2 taking both its corner's ways to 0 leave the car on 2.1.l
    nothing to lay but through that corner: the floor of 1; one token leaves every limit at 1 or more, and then the
    floor is not tried at all (it would change no limit); tokens on tile 4 are tried, not needed."""
    from helpers.rules import make_stage, put, turn_of

    st = make_stage("N S N N | D C(2,2;3,3,3)R D cut3(1,3) | N jump3 N N water N | C(3;4,4)R C(2;3,3)L | N N F N N")
    put(st, "B", "5.4.r", 1)
    put(st, "A", "2.1.l", 1)
    turn_of(st, "A", ["B", "A"])
    st.minus1 = dict(tokens)
    assert st.creep_possible() is possible
    (fast, lead), (ref, ref_lead) = st.context("A"), _stage_reference(st, "A", None)
    assert _same(fast, ref) is None and lead == ref_lead
    assert fast.limit_floor == floor
