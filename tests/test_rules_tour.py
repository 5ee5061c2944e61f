"""The Auto Tour score sheet (rallyc.rules.variants.tour) with events played by the referee on Auto Tour 1: a Time
Trial on SS1 (core Stage, Time cards) and a Head-to-Head on Track 1 (Race). Each test names its TOUR IDs."""

import json
from pathlib import Path

import pytest

import rallyc
from rallyc.records.generate import bot_race_record, bot_record
from rallyc.records.replay import replay_record
from rallyc.rules import Player
from rallyc.rules.core.race import RaceResult
from rallyc.rules.variants.tour import Tour, check_events, head_to_head_seconds

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ann", "Bob", "Cleo"]


def test_events_alternate():
    """TOUR-01 TOUR-02: at least 2 events, alternating Head-to-Head and Time Trial; the suggested tours pass."""
    for ok in (["time-trial", "head-to-head"], ["head-to-head", "time-trial", "head-to-head"],
               ["time-trial", "head-to-head", "time-trial", "head-to-head"]):
        check_events(ok)
    for bad, word in ((["time-trial"], "at least 2"), (["head-to-head", "head-to-head"], "alternates"),
                      (["time-trial", "rally"], "not 'rally'")):
        with pytest.raises(ValueError, match=word):
            check_events(bad)


def test_head_to_head_seconds_by_place():
    """TOUR-07: 1st +0, 2nd +20, 3rd +30 ... 6th +60; unplaced cars rank after every finisher (Ambiguity 39)."""
    six = [f"P{i}" for i in range(6)]
    assert list(head_to_head_seconds(six, []).values()) == [0, 20, 30, 40, 50, 60]
    assert head_to_head_seconds(["Bob"], ["Ann", "Cleo"]) == {"Bob": 0, "Ann": 20, "Cleo": 30}
    with pytest.raises(ValueError, match="TOUR-07"):
        head_to_head_seconds(six + ["P7"], [])


def test_starting_order_lowest_time_first_ties_drawn():
    """TOUR-08 TOUR-09: the first event in the drawn order, then the lowest tour time first; ties drawn at random
    (deterministic for a seed, and both orders happen over seeds)."""
    tour = Tour(NAMES, ["time-trial", "head-to-head"])
    assert tour.starting_order() == NAMES
    tour.add_time_trial({"Ann": 300, "Bob": 280, "Cleo": 300})
    orders = {tuple(tour.starting_order(seed)) for seed in range(20)}
    assert all(o[0] == "Bob" for o in orders)
    assert orders == {("Bob", "Ann", "Cleo"), ("Bob", "Cleo", "Ann")}
    assert tour.starting_order(3) == tour.starting_order(3)


def test_events_in_order_only():
    """TOUR-01 TOUR-06: an event of the wrong type, a missing time or a race of other players is refused."""
    tour = Tour(NAMES, ["time-trial", "head-to-head"])
    with pytest.raises(ValueError, match="time-trial"):
        tour.add_head_to_head(RaceResult(NAMES, [], [], {}, {}))
    with pytest.raises(ValueError, match="Cleo"):
        tour.add_time_trial({"Ann": 1, "Bob": 2})
    tour.add_time_trial({"Ann": 1, "Bob": 2, "Cleo": 3})
    with pytest.raises(ValueError, match="players"):
        tour.add_head_to_head(RaceResult(["Ann", "Bob", "Dan"], [], [], {}, {}))


def test_short_tour_played_on_auto_tour_1():
    """TOUR-05 TOUR-06 TOUR-07 TOUR-09 TOUR-11: a Time Trial on SS1 (stage times, Second tokens deducted) then a
    Head-to-Head on Track 1 started in tour order; both games replay from JSON; the totals add up."""
    design = rallyc.load(ROOT / "examples/auto-tour-1.rally")
    ss1 = [t for t in design.tracks if t.name == "SS1"]
    players = [Player(n, c) for n, c in zip(NAMES, ("red", "blue", "green"))]
    tt = bot_record(ss1, players, seed=1, header={"track": "auto-tour-1.rally"})
    assert replay_record(json.loads(json.dumps(tt)), ROOT / "examples").ok
    times = tt["stages"][0]["times"]
    tour = Tour(NAMES, ["time-trial", "head-to-head"])
    tour.add_time_trial(times)
    start = tour.starting_order()
    assert [times[n] for n in start] == sorted(times.values())
    track1 = rallyc.load(ROOT / "examples/track-1.rally").tracks[0]
    grid = [next(p for p in players if p.name == n) for n in start]
    h2h = bot_race_record(track1, grid, seed=2, header={"track": "track-1.rally"})
    report = replay_record(json.loads(json.dumps(h2h)), ROOT / "examples")
    assert report.ok, report.error
    assert [p["name"] for p in h2h["players"]] == start
    res = RaceResult(report.result["order"], report.result["disqualified"], report.result["retired"], {}, {})
    ev = tour.add_head_to_head(res, start)
    ranked = res.order + res.disqualified + res.retired
    assert [ev.seconds[n] for n in ranked] == [0, 20, 30]
    assert tour.is_over()
    assert tour.totals() == {n: times[n] + ev.seconds[n] for n in NAMES}
    assert tour.winner() == min(NAMES, key=lambda n: (tour.totals()[n], NAMES.index(n)))
