"""The bot on every published stage and circuit: random legal games on the real tiles replay cleanly.

The sketched stages of test_bot.py are small; these are the rulebooks' stages as compiled from
examples/ (corners, slides, shortcuts, jumps, water, mixed surfaces on Auto Tour 1). 4 games per
stage (8 with RALLYC_SLOW=1). The bot sweep (benchmarks/bot_sweep.py: every published stage and circuit, every game
form and rulebook option, the random, greedy and strong drivers, under the invariants) runs a seeded slice here and
the whole of it with RALLYC_SLOW=1.
"""

import json
import os
import sys
from pathlib import Path

import pytest

import rallyc
from rallyc.records import parse_record, replay_record
from rallyc.records.generate import bot_record
from rallyc.rules import Options, Player

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FILES = sorted(EXAMPLES.glob("rally-*.rally")) + [EXAMPLES / "auto-tour-1.rally"]
SEEDS = range(8 if os.environ.get("RALLYC_SLOW") else 4)
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cat", "green")]


def _stages():
    for f in FILES:
        for track in rallyc.load(f).tracks:
            yield pytest.param(track, id=f"{f.stem}-{track.name}")


@pytest.mark.parametrize("track", list(_stages()))
def test_random_games_on_published_stages_replay_cleanly(track):
    """CORE-ORDER-01 CORE-ROLL-13 CORE-ROLL-14 CORE-STAGEEND-01: every random legal game finishes and its
    JSON record replays with no error."""
    for seed in SEEDS:
        options = Options(flying_start=seed % 2 == 0, redline=seed % 3 == 0, sisu="per-stage" if seed == 3 else None)
        record = bot_record([track], PLAYERS[: 2 + seed % 2], seed=seed, options=options, header={})
        report = replay_record(parse_record(json.dumps(record)), tracks=[track])
        assert report.ok, f"seed {seed}: {report.error.path}: {report.error}"
        assert report.stages[0]["times"], f"seed {seed}: no stage times"


FOUR = PLAYERS + [Player("Dan", "yellow")]
SWEEP_SEEDS = range(86) if os.environ.get("RALLYC_SLOW") else range(100, 101)


@pytest.mark.parametrize("track", list(_stages()))
def test_four_car_games_on_published_stages_finish(track):
    """CORE-OVERTAKE-05 CORE-STAGEEND-01: four bot cars finish every published stage (the corner-method deadlock
    of issue 9 left 4 of 1,800 such stages unfinished); a seeded slice here, the whole sweep
    (benchmarks/bot_sweep.py --seeds 86) with RALLYC_SLOW=1."""
    for seed in SWEEP_SEEDS:
        options = Options(flying_start=seed % 2 == 0, redline=seed % 3 == 0, sisu="per-stage" if seed % 4 == 3 else None)
        record = bot_record([track], FOUR, seed=seed, options=options, header={}, max_turns=3000)
        report = replay_record(parse_record(json.dumps(record)), tracks=[track])
        assert report.ok, f"seed {seed}: {report.error.path}: {report.error}"
        assert sorted(report.stages[0]["times"]) == ["Ann", "Bob", "Cat", "Dan"]


sys.path.insert(0, str(EXAMPLES.parent / "benchmarks"))
import bot_sweep  # noqa: E402

SLOW = bool(os.environ.get("RALLYC_SLOW"))
#: the slice of the sweep run by default: every track and game form with all of its options together, random bot,
#: seed 0 (a case's every option alone and the greedy and strong drivers: the whole sweep)
SLICE = [c for c in bot_sweep.cases() if c.label == "all"]


@pytest.mark.parametrize("case", SLICE, ids=lambda c: c.name)
def test_the_sweep_slice_ends_keeps_the_invariants_and_replays(case):
    """CORE-STAGEEND-01 RX-END-03: a random four-car game of every track and game form with all its options ends,
    keeps the invariants after every turn and replays; the referee refuses none of the bot's turns (the bot plays
    what the referee offers)."""
    sweep = bot_sweep.Sweep()
    bot_sweep.play(case, "random", 0, 4, sweep)
    assert sweep.ok and sweep.finished == 1, bot_sweep.summary(sweep)


#: the planning drivers where they failed: the strong driver on a Head-to-Head raced on a stage (AttributeError: a
#: StageRace has no Time cards), the greedy and the strong driver under Full Contact (blocked by a car, they laid no
#: die, which CORE-MOVE-07 refuses; the strong RX driver refused to race)
PLANNED = [("auto-tour-1/SS1 [custom head-to-head speed] plain", "strong"),
           ("rx-2 [rx] full-contact", "greedy"), ("rx-2 [rx] full-contact", "strong"),
           ("auto-tour-1/SS1 [custom head-to-head speed light] full-contact", "greedy")]


@pytest.mark.parametrize("name, kind", PLANNED, ids=[f"{k}-{n}" for n, k in PLANNED])
def test_the_planning_drivers_end_their_games(name, kind):
    """CORE-MOVE-07 ("must move if able"), RX-PUSH-01, CUSTOM-05: a four-car game by the greedy or the strong driver
    ends, keeps the invariants and replays, under Full Contact and on a Head-to-Head raced on a stage."""
    case = next(c for c in bot_sweep.cases() if c.name == name)
    assert bot_sweep.drives(kind, case)
    sweep = bot_sweep.Sweep()
    bot_sweep.play(case, kind, 0, 4, sweep)
    assert sweep.ok and sweep.finished == 1, bot_sweep.summary(sweep)


if SLOW:  # the whole sweep: a few minutes

    def test_the_whole_sweep():
        """The whole sweep with its default seeds and budget: no game stuck, no traceback, no invariant broken,
        every record replays (``python benchmarks/bot_sweep.py`` prints the same figures)."""
        sweep = bot_sweep.run(bot_sweep.DEFAULT_SEEDS, budget=bot_sweep.DEFAULT_BUDGET)
        assert sweep.ok, bot_sweep.summary(sweep)

    @pytest.mark.parametrize("case", bot_sweep.bag_cases(bot_sweep.cases()), ids=lambda c: c.name)
    def test_four_car_races_under_full_contact_empty_the_bag_cleanly(case):
        """RX-SETUP-02 RX-LOC-04 RX-IMPACT-01 RX-WEATHER-07, reading empty_bag: four random cars under Full Contact
        (each impact draws, so the bag may run out, a Weather token discarded first) for the sweep's bag seeds: every
        game ends, keeps the invariants, replays, and the referee refuses none of the bot's turns (issue 31: it did at
        seeds 10 to 26 of RX 2 and the Auto Tour's circuits)."""
        sweep = bot_sweep.Sweep()
        driver = bot_sweep.make_driver("random", case, 0)
        for seed in range(bot_sweep.DEFAULT_BAG_SEEDS):
            bot_sweep.play(case, "random", seed, 4, sweep, driver)
        assert sweep.ok and sweep.finished == bot_sweep.DEFAULT_BAG_SEEDS, bot_sweep.summary(sweep)
