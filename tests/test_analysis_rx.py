"""The strong RX driver (``rallyc.analysis.circuit_driver``): a Joker lap never missed, Focus tokens, and races that beat
the greedy driver on the published circuits.

The default run plays a few seeded races; ``RALLYC_SLOW=1`` plays more (``benchmarks/analyze.py rx`` prints the
table).
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path

import pytest

import rallyc
from rallyc.analysis.circuit_driver import StrongRxDriver
from rallyc.analysis.circuit_runs import FINISHED, joker_plan, play_races
from rallyc.analysis.simulate import DriverKind
from rallyc.rules.core.domain import JokerState
from rallyc.rules.core.race import Race
from rallyc.rules.core.stage import Player

ROOT = Path(__file__).resolve().parents[1]
SLOW = os.environ.get("RALLYC_SLOW") == "1"


def _circuit(name: str):
    return rallyc.load(str(ROOT / "examples" / f"{name}.rally")).tracks[0]


@pytest.mark.parametrize("kind", [DriverKind.greedy, DriverKind.strong])
def test_no_car_misses_its_joker_in_the_four_car_race_that_disqualified_a_greedy_car(kind):
    """Regression: in four-car race 2 of seed 1 on RX 1 a greedy car standing on the space at the finish line
    (its progress is the line's) counted the lap at the fork one short, kept out of the Joker on its last lap
    and was disqualified crossing the line (RX-JOKER-04). Both drivers now count it as the referee does. (Since the
    bots draw Damage tokens from what the bag still holds, a car of this race may retire on its damage: no car is
    disqualified, and every car that finished drove its Joker.)"""
    race = play_races(_circuit("rx-1"), [2], seed=1, cars=4, kind=kind)[0]
    assert "disqualified" not in [c.status for c in race.cars], race
    assert [c.status for c in race.cars].count(FINISHED) >= 3, race
    assert all(c.joker_lap is not None for c in race.cars if c.status == FINISHED), race


@pytest.mark.parametrize("index", [2, 5] + ([0, 1, 3, 4, 6, 7, 8, 9, 10, 11] if SLOW else []))
def test_strong_cars_drive_every_joker_on_its_planned_lap_in_four_car_races(index):
    """The same four-car races (race 5 disqualified a car of an earlier version of the strong driver): every car
    drives the Joker (RX-JOKER-01) and finishes; a car on its last lap takes it then (a car kept off the fork by
    another may take it a lap after its plan, never before unless it has to move into it)."""
    race = play_races(_circuit("rx-1"), [index], seed=1, cars=4, kind=DriverKind.strong)[0]
    assert [c.status for c in race.cars] == [FINISHED] * 4, race
    for g, car in enumerate(race.cars):
        assert car.joker_lap is not None and car.joker_lap <= 3, race
        if joker_plan(index, g, 3) == 3:
            assert car.joker_lap == 3, race


def _race(*cars: tuple[str, str, int, int, str]) -> Race:
    """An RX 1 race with the cars set where the test says: (name, space, gear, crossings, Joker state); the first
    one is to move (highest gear)."""
    race = Race(_circuit("rx-1"), [Player(n, c) for (n, *_), c in zip(cars, ("red", "blue", "green", "yellow"))])
    for name, space, gear, crossed, joker in reversed(cars):
        race.set_car(name, space, gear=gear, crossed=crossed, joker=joker)
    return race


def test_the_lap_at_the_fork_counts_a_car_standing_on_the_finish_line():
    """A car on the space just before the line (its progress is the line's) reaches the fork on the next lap."""
    race = _race(("A", "10.3.r", 5, 2, "todo"))
    ahead = StrongRxDriver().ahead(race)
    assert race.index.spaces["10.3.r"].progress % race.laps.length == race.laps.line
    assert ahead.lap_at_fork(race.cars["A"]) == 3
    race2 = _race(("A", "1.1.l", 5, 3, "todo"))
    assert StrongRxDriver().ahead(race2).lap_at_fork(race2.cars["A"]) == 3


def test_on_its_joker_lap_the_car_keeps_out_of_the_bypassed_stretch_and_off_the_trap_spaces():
    """Last lap, Joker still to drive, the fork's only space into the Joker taken by another car: the strong
    driver's plan neither enters the stretch the Joker bypasses nor ends on a space from which a taken fork
    would force it past (RX 1's 1.3.l / 1.3.r)."""
    race = _race(("A", "10.3.r", 5, 2, "todo"), ("B", "2.1.l", 0, 3, "done"), ("C", "4.4.l", 0, 3, "done"))
    assert race.to_move() == "A"
    driver = StrongRxDriver(0)
    driver.plans = {"A": 3}
    ahead = driver.ahead(race)
    assert ahead.forks == {"2.1.l"} and {"1.3.l", "1.3.r"} <= {s for s, d in ahead.traps.items() if d == 1}
    turn = driver.turn(race)
    path = [r.die.to for r in turn.dice]
    assert path and not set(path) & ahead.bypassed, path
    assert ahead.traps.get(path[-1], 9) > 1, path


def test_a_car_trapped_before_a_taken_fork_still_plays_a_legal_turn():
    """On a trap space with the fork taken, the only legal moves run past the Joker: the car must move
    (CORE-MOVE-07), so the driver lays them rather than an empty plan the referee would refuse."""
    race = _race(("A", "1.3.l", 2, 3, "todo"), ("B", "2.1.l", 0, 3, "done"))
    driver = StrongRxDriver(0)
    driver.plans = {"A": 3}
    turn, out = driver.play_turn(race)
    assert turn.dice and out.path and out.path[0] == "2.1.r"
    assert race.cars["A"].joker == JokerState.TODO


def test_the_strong_driver_secures_dice_with_focus_tokens():
    """RX-ROLL-04: with Focus tokens in hand the strong driver secures a die where rolling it risks a Loss of
    Control; over a few solo races it spends tokens it earned by going Flat Out (RX-ROLL-03)."""
    track = _circuit("rx-2")
    driver = StrongRxDriver(0)
    gained = spent = 0
    for seed in range(3):
        driver.rng.seed(seed)
        race = Race(track, [Player("A", "red")])
        while not race.is_over():
            _, out = driver.play_turn(race)
            gained += out.focus_gained
            spent += out.focus_spent
    assert gained > 0 and spent > 0, (gained, spent)


CIRCUITS = ["rx-1", "rx-2"]


@pytest.mark.parametrize("name", CIRCUITS)
def test_the_strong_driver_beats_the_greedy_driver_on_the_published_circuits(name):
    """Solo races with the same seeds and Joker plans: the strong driver's median race is shorter (in turns; a
    race not finished counts as the longest) and it finishes at least as many."""
    track = _circuit(name)
    n = 40 if SLOW else 6
    medians, finished = {}, {}
    for kind in (DriverKind.strong, DriverKind.greedy):
        cars = [r.cars[0] for r in play_races(track, list(range(n)), seed=7, cars=1, kind=kind)]
        finished[kind] = sum(c.status == FINISHED for c in cars)
        medians[kind] = statistics.median(c.turns if c.status == FINISHED else 10**6 for c in cars)
    assert medians[DriverKind.strong] < medians[DriverKind.greedy], medians
    assert finished[DriverKind.strong] >= finished[DriverKind.greedy], finished


def test_strong_races_are_the_same_whatever_the_jobs():
    """Same seed, same races, in one process or two (the driver's memos are pure functions of the situation)."""
    from rallyc.analysis.circuit_runs import simulate_races

    track = _circuit("rx-2")
    one = simulate_races(track, 4, seed=3, cars=1, kind=DriverKind.strong)
    two = simulate_races(track, 4, seed=3, cars=1, kind=DriverKind.strong, jobs=2,
                         source=(ROOT / "examples" / "rx-2.rally", track.name))
    assert one == two
    alone = play_races(track, [3], seed=3, cars=1, kind=DriverKind.strong)
    assert alone[0] == one[3]  # a run does not depend on the runs played before it by the same driver


def test_a_circuit_without_a_joker_and_a_two_place_front_row_is_analysed():
    """Ice Track 1: its front row holds two cars, the row behind two more (RX-SETUP-07), and it has no Joker; the
    table races have four cars and the report says there is no Joker (it used to stop with a traceback asking for
    four cars)."""
    from rallyc.analysis.circuit_report import analyze_circuit, circuit_text

    c = analyze_circuit(_circuit("ice-track-1"), runs=2, table_runs=1, seed=0)
    assert c.table_cars == 4 and [g.car for g in c.grid] == ["Car 1", "Car 2", "Car 3", "Car 4"] and c.joker == []
    text = circuit_text(c)
    assert "  no Joker on this circuit" in text
    assert c.race_format == "ice" and text[1].startswith("  raced as an Ice race (no Joker, all snow: ICE-01/02)")


@pytest.mark.parametrize("name,fmt,dashboard", [("rx-1", "rx", "rx-asphalt"), ("ice-track-1", "ice", "ice-standard"),
                                                 ("track-1", "custom", "r6-asphalt")])
def test_each_published_circuit_is_raced_under_its_own_rules_and_dashboards(name, fmt, dashboard):
    """A circuit with a Joker lap is an RX circuit (TRACK-RX-07); Ice Track 1 (no Joker, all snow) is an Ice race:
    a Head-to-Head under Speed Track rules with ICE Dashboards, all on one side (ICE-01..05); Auto Tour 1's Track 1
    (no Joker, asphalt) is no RX circuit: the circuit's own custom Head-to-Head (CUSTOM-01/05). Until this session
    every circuit was raced with RX Dashboards."""
    from rallyc.analysis.circuit_runs import circuit_rules

    track = _circuit(name)
    rules = circuit_rules(track)
    assert rules.name == fmt
    race = play_races(track, [0], seed=3, cars=2, kind=DriverKind.strong)[0]
    assert [c.dashboard for c in race.cars] == [dashboard, dashboard]
    assert all(c.status == FINISHED for c in race.cars)


def test_a_design_s_custom_race_options_decide_how_its_circuit_is_raced(tmp_path):
    """The design's own custom-race choices win (CUSTOM-01): a Head-to-Head with the DIRT Damage set is raced so;
    a Time Trial is timed with Time cards, no race, and `rallyc analyze` says so (exit 2, no traceback)."""
    import subprocess
    import sys

    from rallyc.analysis.circuit_runs import circuit_rules

    text = (ROOT / "examples" / "ice-track-1.rally").read_text(encoding="utf-8")
    h2h = tmp_path / "h2h.rally"
    h2h.write_text(text.replace("  laps 2\n", "  laps 2\n  options race-type head-to-head, damage-bag dirt\n"),
                   encoding="utf-8")
    design = rallyc.load(str(h2h))
    rules = circuit_rules(design.tracks[0], design.options)
    assert rules.name == "custom" and rules.format.bag == "dirt" and "dirt Damage set" in rules.why
    trial = tmp_path / "trial.rally"
    trial.write_text(text.replace("  laps 2\n", "  laps 2\n  options race-type time-trial\n"), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "rallyc", "analyze", str(trial), "--runs", "1", "--table-runs", "0"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "trial.rally" in r.stderr, r.stderr
    assert r.stdout == ""


def test_the_analysis_drivers_implement_the_driver_protocol_themselves():
    """The strong and greedy drivers are not the random bot with its decisions overridden: their decisions
    (decide, replan, want_spare_tire, relay) are their own, their chance is the seeded draw shared with the bot
    (mypy checks the protocol in PlanningDriver.play_turn)."""
    from rallyc.analysis.drivers import GreedyDriver, PlanningDriver, StrongDriver
    from rallyc.analysis.circuit_driver import JokerDriver
    from rallyc.rules.drivers.bot import RandomBot, SeededChance

    for cls in (StrongDriver, GreedyDriver, JokerDriver, StrongRxDriver):
        assert RandomBot not in cls.__mro__ and issubclass(cls, PlanningDriver) and issubclass(cls, SeededChance)
        for name in ("decide", "replan", "want_spare_tire", "relay", "turn"):
            owner = next(k for k in cls.__mro__ if name in vars(k))
            assert owner is not SeededChance and issubclass(owner, PlanningDriver), (cls, name, owner)
    # the same seed draws the same chance as the random bot
    a, b = StrongDriver(11), RandomBot(11)
    assert [a.zero_side() for _ in range(5)] == [b.zero_side() for _ in range(5)]


def test_the_heat_map_draws_an_rx_circuit_with_its_losses_of_control(tmp_path):
    """`rallyc analyze CIRCUIT --heat-map` colours the spaces where the solo races lost control; JSON has the
    same per-space figures (Losses of Control per race)."""
    import json
    import re
    import subprocess
    import sys

    heat = tmp_path / "rx.svg"
    r = subprocess.run([sys.executable, "-m", "rallyc", "analyze", "examples/rx-1.rally", "--runs", "3", "--table-runs",
                        "0", "--heat-map", str(heat), "-f", "json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    risk = json.loads(r.stdout)["circuits"][0]["space_risk"]
    svg = heat.read_text(encoding="utf-8")
    coloured = set(re.findall(r'\[data-space="([^"]+)"\]\{fill:#', svg))
    assert risk and coloured == {s for s, v in risk.items() if v > 0}
    assert "RX 1: Losses of Control in 3 races" in svg


def test_the_python_api_analyses_circuits_too():
    """``rallyc.analysis.analyze`` on an RX design returns its circuits' figures (it used to refuse them)."""
    from rallyc.analysis import analyze

    result = analyze(ROOT / "examples" / "rx-2.rally", circuit_runs=2, circuit_table_runs=0, seed=4)
    assert result.stages == [] and [c.circuit for c in result.circuits] == ["RX 2"]
    c = result.circuits[0]
    assert c.runs == 2 and c.driver == "strong" and c.finished == 1.0 and c.laps == 2


def test_the_strong_driver_prices_retiring_and_finishes_the_race_it_retired_from():
    """Regression: solo race 21 of seed 7 on RX 2 retired (no Gear die left, CORE-RETIRE-01) after four Losses
    of Control in eight turns; a Loss of Control is now priced with the chance that its Damage tokens take the
    last Gear dice (RX-LOC-04), and the race finishes."""
    car = play_races(_circuit("rx-2"), [21], seed=7, cars=1, kind=DriverKind.strong)[0].cars[0]
    assert car.status == FINISHED and car.joker_lap is not None, car
