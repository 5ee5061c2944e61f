"""The dedicated plan enumerator (rallyc.rules.enumerate) yields exactly the plans of the validator-based
legal_plans, in the same order, on the published stages and circuits, whatever the car, gear and traffic."""

import random

import pytest

import rallyc
from helpers.paths import EXAMPLES
from rallyc.rules import Options, Player, Stage
from rallyc.rules.enumerate import PlanEnumerator, enumerate_plans
from rallyc.rules.planner import _replans, legal_replans
from rallyc.rules.plans import check_die, legal_plans, start_walk
from rallyc.rules.race import Race
from rallyc.rules.state import Card

FILES = sorted(EXAMPLES.glob("rally-*.rally")) + [EXAMPLES / "auto-tour-1.rally"]
CARS = [("r6", "gravel"), ("r5", "asphalt"), ("r4", "snow"), ("r6", "soft")]


def _stage_contexts(track, seed):
    rng = random.Random(seed)
    car, tires = CARS[seed % len(CARS)]
    opts = Options(flying_start=seed % 2 == 0, redline=seed % 3 == 0, handbrake=seed % 2 == 1)
    st = Stage(track, [Player("A", "red", car, tires), Player("B", "blue"), Player("C", "green")], opts)
    ids = sorted(st.index.spaces)
    for _ in range(4):
        for name in ("B", "C"):  # traffic
            other = st.cars[name]
            other.space, other.status = rng.choice(ids), rng.choice(("road", "road", "spun", "crashed"))
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
def test_enumerator_matches_legal_plans_on_published_stages(path):
    n = 0
    for i, track in enumerate(rallyc.load(path).tracks):
        for ctx in _stage_contexts(track, i):
            want = list(legal_plans(ctx, max_dice=4))
            assert list(enumerate_plans(ctx, max_dice=4)) == want
            assert PlanEnumerator(ctx).count(4) == len(want)
            n += len(want)
    assert n > 0


@pytest.mark.parametrize("name", ["rx-1", "rx-2"])
def test_enumerator_matches_legal_plans_in_rx_races(name):
    track = rallyc.load(EXAMPLES / f"{name}.rally").tracks[0]
    rng = random.Random(name)
    race = Race(track, [Player("Ann", "red"), Player("Bob", "blue")], Options(flying_start=True))
    ids = sorted(s for s, sp in race.index.spaces.items() if not sp.pregrid)
    n = 0
    for _ in range(12):
        a, b = rng.sample(ids, 2)
        race.set_car("Bob", b, gear=rng.randint(0, 4), crossed=1)
        race.set_car("Ann", a, gear=rng.randint(0, 5), crossed=1)
        ctx, _ = race.context(race.to_move())
        want = list(legal_plans(ctx, max_dice=4))
        assert list(enumerate_plans(ctx, max_dice=4)) == want
        n += len(want)
    assert n > 0



@pytest.mark.parametrize("path", FILES[:3], ids=[p.stem for p in FILES[:3]])
def test_legal_replans_through_the_enumerator_match_the_validator(path):
    """Improvisation's re-plans (plans.legal_replans: the enumerator from where the dice done left the car) are
    the validator's (plans._replans), in the same order, after every legal start of one or two dice."""
    n = 0
    for i, track in enumerate(rallyc.load(path).tracks[:2]):
        for ctx in _stage_contexts(track, i):
            for done in list(legal_plans(ctx, max_dice=2))[:12]:
                w = start_walk(ctx)
                for d in done:
                    _, w = check_die(ctx, w, d)
                want = list(_replans(ctx, done, w, len(done) + 3))
                assert list(legal_replans(ctx, done, max_dice=len(done) + 3)) == want
                n += len(want)
    assert n > 0
