"""A replay makes no cyclic garbage: what it made and dropped is freed by reference counting as it goes, so
``replay_record`` pauses the collector without a collection afterwards (:mod:`rallyc.compilation.collector`), on every example
record, accepted or refused (the report keeps its error without the frames that raised it).

A game form that keeps a reference to itself (a bound method of its own as an attribute, a part holding its
owner that the owner holds) would make each game, its turns and outcomes a cycle, left to the next automatic
collection: these tests find it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers.memory import cyclic_garbage
from rallyc.records import load_record, replay_record
from rallyc.records.load import RecordError
from rallyc.records.mutate import KINDS, _mutate, mutation_sites

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def _cyclic_garbage(replay: Callable[[], object]) -> list[str]:
    """The types of what ``replay`` left for the cyclic collector."""
    return sorted({type(o).__name__ for o in cyclic_garbage(replay)})


def _replayed(data: dict, base: Path, explain: bool) -> Callable[[], object]:
    def replay() -> object:
        try:
            return replay_record(data, base_dir=base, explain=explain)
        except RecordError:
            return None
    return replay


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
@pytest.mark.parametrize("explain", [False, True], ids=["no-ids", "explain"])
def test_an_example_replay_leaves_no_cyclic_garbage(game, explain):
    data = load_record(game)
    replay = _replayed(data, game.parent, explain)
    report = replay()  # the track compiled (a compile may leave some) and the per-track tables filled first
    assert report is not None and report.ok  # type: ignore[attr-defined]
    assert _cyclic_garbage(replay) == []


def _some_mutants(rec: dict, rng: random.Random, per_kind: int) -> Iterator[tuple[str, dict]]:
    sites = mutation_sites(rec)
    for kind in KINDS:
        chosen = sites[kind]
        for where in rng.sample(chosen, min(per_kind, len(chosen))):
            m = _mutate(rec, kind, where, rng)
            if m is not None:
                yield f"{kind} at {where}", m


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_a_refused_replay_leaves_no_cyclic_garbage(game):
    """Seeded mutants of every example, stage and race records alike (most are refused)."""
    rec = load_record(game)
    _replayed(rec, game.parent, False)()
    refused = 0
    for what, m in _some_mutants(rec, random.Random(f"garbage:{game.name}"), per_kind=2):
        for explain in (False, True):
            replay = _replayed(m, game.parent, explain)
            report = replay()
            refused += report is None or not report.ok  # type: ignore[attr-defined]
            assert _cyclic_garbage(replay) == [], what
    assert refused
