"""The replay's fast path agrees with the full referee (issue 9, speed).

The fast path: a replay that prints no rule IDs (``replay_record(..., explain=False)``, ``rallyc replay`` without
``--explain``) plays with the engine's ``explaining`` off (no rule-ID snapshot per turn). The full path works
the rule IDs out. These tests replay every recorded game of
``examples/games`` and a seeded slice of the mutation corpus (``rallyc.records.mutate``) both ways and compare
the reports turn by turn: the same turns, states and outcome (or the same first refusal, word for word).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rallyc.records import load_record, replay_record
from rallyc.records.load import RecordError
from rallyc.records.mutate import mutants
from rallyc.records.replay import record_stages
from rallyc.rules.outcome import RulesNotWorkedOut
from rallyc.rules.rally import Rally
from rallyc.rules.trace import observe, unobserve

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


@pytest.fixture(autouse=True)
def _nobody_listens(monkeypatch, request):
    """The test session's rule-coverage observer (tests/helpers/rule_trace.py) would have every turn's rule IDs
    worked out: these tests play as a replay without observers does (except the one about observers)."""
    if "observer" not in request.node.name:
        monkeypatch.setattr("rallyc.rules.engine.observing", lambda: False)


def _both(data: dict, base: Path, monkeypatch, tracks=None) -> tuple:
    """The report played fast (no rule IDs), twice (the second time with the tables of the one rule warm), and
    played with the rule IDs worked out, as JSON without rule IDs (or the RecordError's text)."""

    def play(explain: bool):
        try:
            return replay_record(data, base, tracks=tracks, explain=explain).to_json(explain=False)
        except RecordError as exc:
            return f"RecordError {exc}"

    fast = play(False), play(False)
    return fast + (play(True),)


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_example_game_replays_the_same_on_the_fast_path(game, monkeypatch):
    cold, warm, full = _both(load_record(game), game.parent, monkeypatch)
    assert cold == full and warm == full
    assert isinstance(full, dict) and full["ok"], full


def test_the_mutation_corpus_replays_the_same_on_the_fast_path(monkeypatch):
    """A seeded slice of every kind of mutant of every stage record: refused at the same place for the same
    reason, or accepted with the same report."""
    compared = refused = 0
    for path in GAMES:
        rec = load_record(path)
        if "stages" not in rec:
            continue
        tracks, _, _ = record_stages(rec, path.parent)
        for m in mutants(rec, random.Random(f"fast:{path.name}"), per_kind=2):
            cold, warm, full = _both(m.record, path.parent, monkeypatch, tracks)
            assert cold == full and warm == full, f"{path.name}: {m.kind} at {m.where}"
            compared += 1
            refused += isinstance(full, str) or not full["ok"]
    assert compared > 100 and 0 < refused < compared


def _first_turn_outcome(explaining: bool):
    from rallyc.records.convert import turn_from_json
    from rallyc.records.replay import default_components
    from rallyc.rules.stage import Player

    path = ROOT / "examples" / "games" / "rally-4-ss1-shortcut.json"
    data = load_record(path)
    tracks, _, flippers = record_stages(data, path.parent)
    players = [Player(p["name"], p["colour"]) for p in data["players"]]
    stage = Rally(tracks, players, components=default_components(), flippers=flippers).start_stage(
        data["stages"][0].get("order"))
    stage.explaining = explaining
    return stage.play(turn_from_json(data["stages"][0]["turns"][0]))


def test_an_outcome_played_without_explaining_refuses_to_give_rule_ids():
    assert _first_turn_outcome(True).applied  # worked out: the turn applied rules
    with pytest.raises(RulesNotWorkedOut):
        _first_turn_outcome(False).applied


def test_a_trace_observer_still_gets_the_rule_ids_without_explaining():
    seen: list[tuple[str, ...]] = []
    observe(seen.append)
    try:
        out = _first_turn_outcome(False)
    finally:
        unobserve(seen.append)
    assert seen and seen[-1] == out.applied and out.applied
