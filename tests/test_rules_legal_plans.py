"""Which dice plans are legal (rallyc.rules.core.plans: legal_plans, die_options, legal_replans): the plans listed for
positions of sketched and published stages and RX circuits, and the dice left out of them refused by the record
validator with their rule ID (CORE-DICE, CORE-MOVE, CORE-JUMP, CORE-LOC)."""

from __future__ import annotations

import random
import re

import pytest

import rallyc
from helpers.paths import EXAMPLES
from helpers.rules import make_stage, put, turn_of
from rallyc.analysis.options import DiceOptions
from rallyc.rules import IllegalMove, Options, Player, Stage
from rallyc.rules.core.dice import DIE_NAMES, GEAR_DICE, Die, DieKind
from rallyc.rules.core.planner import legal_replans
from rallyc.rules.core.plans import PlanContext, Walk, check_die, check_plan, die_options, legal_plans, start_walk
from rallyc.rules.core.race import Race
from rallyc.rules.core.state import Card

FILES = sorted(EXAMPLES.glob("rally-*.rally")) + [EXAMPLES / "auto-tour-1.rally"]
RULE_ID = re.compile(r"^(CORE|MC|RX|IMPROV|CUSTOM)-[A-Z0-9]+-\d\d$")


def _dice(name: str, to: str, brake: bool = False, boost: bool = False) -> Die:
    return Die(DieKind(name), to, brake, None, boost)


def test_one_die_from_gear_3_on_a_straight_for_the_rounds_first_player_on_gravel():
    """CORE-DICE-08/09/15/17: from Gear 3, a Gear 2, 3 or 4 die, the Gear 1 die with the Brake, or a Leader die
    (the round's first player on gravel), on either space one step ahead; listed die by die in the dice' order,
    each on the spaces ahead in the track's order."""
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A")
    ahead = ("1.4.l", "1.4.r")
    want = [(_dice("gear1", to, brake=True),) for to in ahead] + \
        [(_dice(g, to),) for g in ("gear2", "gear3", "gear4") for to in ahead] + \
        [(_dice("leader", to),) for to in ahead]
    assert list(st.legal_plans(max_dice=1)) == want


def test_the_second_player_coasts_with_coast_dice_and_plans_grow_depth_first():
    """CORE-DICE-11/15: the round's second player coasts with Coast dice; shorter plans come before their
    extensions, and every plan is accepted whole by the record validator."""
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", order=["B", "A"])
    plans = list(st.legal_plans(max_dice=3))
    assert (_dice("coast", "1.4.l"),) in plans and not any(d.die == "leader" for p in plans for d in p)
    for i, plan in enumerate(plans):
        if len(plan) > 1:
            assert plan[:-1] in plans[:i]  # its prefix was listed before it
    ctx, _ = st.context("A")
    for plan in plans:
        assert [p.die for p in check_plan(ctx, list(plan))] == list(plan)
    assert len(plans) == len(set(plans)) == 498


def test_from_gear_0_the_first_die_is_gear_1_or_the_flying_start():
    """CORE-DICE-10, CORE-ADV-01: from Gear 0 only the Gear 1 die starts a plan, and the Gear 2 die too with the
    Flying Start; after it, any die follows as from its gear."""
    for flying, first in ((False, {"gear1"}), (True, {"gear1", "gear2"})):
        st = make_stage(flying_start=flying)
        plans = list(st.legal_plans(max_dice=2))
        assert {p[0].die for p in plans} == first
        assert (_dice("gear1", "1.2.l"), _dice("gear2", "1.3.l")) in plans


def _options_refused_alike(ctx: PlanContext, w: Walk) -> tuple[int, int]:
    """Every die of the game on every space one step ahead of ``w`` (and each landing a jump offers) is either
    one of ``die_options`` (placed as ``check_die`` places it) or refused by ``check_die`` naming its rule."""
    listed = {p.die: (p, nw) for p, nw in die_options(ctx, w)}
    pairs = [(n, False, False) for n in DIE_NAMES] + [(g, b, not b) for g in GEAR_DICE for b in (True, False)]
    tried = refused = 0
    for name, brake, boost in pairs:
        for to in ctx.succ.get(w.pos, ()):
            die = Die(name, to, brake, None, boost)
            lands = {d.land for d in listed if d[:3] == die[:3] and d.boost == boost and d.land is not None}
            for d in [die] + [die._replace(land=land) for land in sorted(lands)]:
                tried += 1
                try:
                    placed, after = check_die(ctx, w, d)
                except IllegalMove as exc:
                    assert d not in listed, (d, exc.rule_id)
                    assert RULE_ID.match(exc.rule_id), exc.rule_id
                    refused += 1
                    continue
                assert listed[d] == (placed, after)
    return tried, refused


def _stage_contexts(track, seed: int):
    """Positions on ``track``: the car put on random spaces in random gears, damaged sometimes, among traffic."""
    rng = random.Random(seed)
    cars = [("r6", "gravel"), ("r5", "asphalt"), ("r4", "snow"), ("r6", "soft")]
    car, tires = cars[seed % len(cars)]
    opts = Options(flying_start=seed % 2 == 0, redline=seed % 3 == 0, handbrake=seed % 2 == 1)
    st = Stage(track, [Player("A", "red", car, tires), Player("B", "blue"), Player("C", "green")], opts)
    ids = sorted(st.index.spaces)
    for _ in range(3):
        for name in ("B", "C"):
            other = st.cars[name]
            other.space, other.status = rng.choice(ids), rng.choice(("road", "road", "spun"))
            other.cards = [Card(rng.randint(1, 5), 10)]
        a = st.cars["A"]
        a.space, a.status = rng.choice(ids), "road"
        if a.space in (st.cars["B"].space, st.cars["C"].space):
            continue
        g = rng.randint(0, 6 if car == "r6" else 4)
        a.cards = [Card(g, 10)] if g else []
        a.damage.clear()
        if rng.random() < 0.3:
            a.damage[rng.choice(("gear", "coast", "brake"))] += rng.randint(1, 2)
        st.order, st.position = ["B", "C", "A"], 2
        yield st.context("A")[0]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_dice_listed_on_published_stages_are_those_the_validator_accepts(path):
    """On every published stage, after the empty plan and after each listed first die: every die listed is laid
    by ``check_die`` as listed, every other die is refused with a rule ID; every plan of up to three dice is
    accepted whole."""
    tried = refused = plans = 0
    for i, track in enumerate(rallyc.load(path).tracks):
        for ctx in _stage_contexts(track, i):
            w = start_walk(ctx)
            for walk in [w] + [nw for _, nw in die_options(ctx, w)]:
                t, r = _options_refused_alike(ctx, walk)
                tried, refused = tried + t, refused + r
            for plan in legal_plans(ctx, max_dice=3):
                check_plan(ctx, list(plan))
                plans += 1
    assert 0 < refused < tried and plans > 0


@pytest.mark.parametrize("name", ["rx-1", "rx-2"])
def test_the_dice_listed_in_rx_races_are_those_the_validator_accepts(name):
    """The same on RX circuits, with the other car anywhere and the cars in any gear (no plan enters the
    Pre-grid once left, RX-START-02)."""
    track = rallyc.load(EXAMPLES / f"{name}.rally").tracks[0]
    rng = random.Random(name)
    race = Race(track, [Player("Ann", "red"), Player("Bob", "blue")], Options(flying_start=True))
    ids = sorted(s for s, sp in race.index.spaces.items() if not sp.pregrid)
    plans = 0
    for _ in range(8):
        a, b = rng.sample(ids, 2)
        race.set_car("Bob", b, gear=rng.randint(0, 4), crossed=1)
        race.set_car("Ann", a, gear=rng.randint(0, 5), crossed=1)
        ctx, _ = race.context(race.to_move())
        _options_refused_alike(ctx, start_walk(ctx))
        for plan in legal_plans(ctx, max_dice=3):
            check_plan(ctx, list(plan))
            assert not any(race.index.spaces[d.to].pregrid for d in plan)
            plans += 1
    assert plans > 0


def test_illegal_plans_are_refused_with_their_rule_and_words():
    """The refusals a record gets, word for word, at the die that breaks the rule."""
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A")
    ctx, _ = st.context("A")
    cases = [
        ([_dice("gear5", "1.4.l")], ("CORE-DICE-09", "Gear 5 is more than one gear from Gear 3", "dice[0].die")),
        ([_dice("gear3", "1.4.l"), _dice("gear3", "1.5.l")],
         ("CORE-DICE-05", "the gear3 die is already used this turn", "dice[1].die")),
        ([_dice("gear2", "1.4.l", brake=True)],
         ("CORE-DICE-18", "with the Brake the Gear die must be Gear 1 (two below Gear 3), not Gear 2", "dice[0].die")),
        ([_dice("coast", "1.4.l")],
         ("CORE-DICE-15", "the round's first player on gravel must use Leader dice, not Coast dice", "dice[0].die")),
        ([_dice("gear3", "1.5.l")],
         ("CORE-MOVE-03", "1.5.l is not one step ahead of 1.3.l (straight or diagonal: 1.4.l, 1.4.r)", "dice[0].to")),
        ([_dice("gear3", "1.2.l")],
         ("CORE-MOVE-04", "1.2.l is not further along the road than 1.3.l (one step ahead: 1.4.l, 1.4.r)",
          "dice[0].to")),
        ([_dice("brake", "1.4.l")], ("CORE-DICE-19", "the Brake die cannot be used on its own", "dice[0].die")),
    ]
    for dice, want in cases:
        with pytest.raises(IllegalMove) as exc:
            check_plan(ctx, dice)
        assert (exc.value.rule_id, exc.value.message, exc.value.path) == want
        assert tuple(dice) not in set(legal_plans(ctx, max_dice=len(dice)))


@pytest.mark.parametrize("path", FILES[:3], ids=[p.stem for p in FILES[:3]])
def test_improvisations_replans_are_the_legal_plans_that_go_on_from_the_dice_done(path):
    """IMPROV-01..03: after a legal start of one or two dice, the re-plans are the rest of every legal plan that
    begins with those dice, in the same order; a start that is no legal plan is refused with its rule."""
    n = 0
    for i, track in enumerate(rallyc.load(path).tracks[:2]):
        for ctx in _stage_contexts(track, i):
            every = list(legal_plans(ctx, max_dice=4))
            for done in every[:10]:
                if len(done) > 2:
                    continue
                want = [p[len(done):] for p in every if len(p) > len(done) and p[:len(done)] == done]
                assert list(legal_replans(ctx, done, max_dice=4)) == want
                n += len(want)
    assert n > 0
    st = make_stage()
    ctx, _ = st.context("A")
    with pytest.raises(IllegalMove) as exc:
        list(legal_replans(ctx, [_dice("gear2", "1.2.l")]))
    assert exc.value.rule_id == "CORE-DICE-10" and exc.value.path == "dice[0].die"


def test_the_drivers_see_the_referees_options():
    """rallyc.analysis.options.DiceOptions: each next die a driver may lay is laid by ``check_die`` as offered,
    and one marked as a certain Loss of Control (over the limit of the space it enters) ends the plan: any die
    after it is refused (CORE-LOC-02)."""
    track = rallyc.load(EXAMPLES / "rally-1.rally").tracks[0]
    st = Stage(track, [Player("A", "red")])
    ended = 0
    for k, sid in enumerate(sorted(st.index.spaces)[::17]):
        a = st.cars["A"]
        a.space, a.status, a.cards = sid, "road", [Card(1 + k % 6, 10)]
        ctx, _ = st.context("A")
        options = DiceOptions(ctx)
        for opt in options(options.start(ctx)):
            placed, after = check_die(ctx, start_walk(ctx), opt.placed.die)
            assert (placed, after) == (opt.placed, opt.state)
            assert opt.ended == (after.ended is not None)
            if opt.ended:
                ended += 1
                assert die_options(ctx, after) == []
                rules = set()
                for name in DIE_NAMES:
                    for to in ctx.succ.get(placed.space, ()):
                        with pytest.raises(IllegalMove) as exc:
                            check_die(ctx, after, Die(name, to))
                        rules.add(exc.value.rule_id)
                assert "CORE-LOC-02" in rules or not ctx.succ.get(placed.space)
    assert ended > 0
