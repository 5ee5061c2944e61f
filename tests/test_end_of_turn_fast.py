"""The End of the Turn's cheaper paths agree with the plain ones (issue 9, speed).

- :meth:`Laps.walk` (the laps along a path in one loop, the line's side of each distance worked out once) gives,
  space by space, what :meth:`Laps.advance` then :meth:`Laps.crossings` give, on every example circuit and on the
  stage course of a Head-to-Head, for seeded random walks along the graph over several laps;
- the Time cards taken from the game's table of cards met before (``CardTable.taken``) are those the full check
  gives: a game replayed twice on one table reports the same, and a claim the deck refuses is refused the second
  time too (the table keeps only cards that passed).

The replays of every example game and of the mutation corpus, with and without rule IDs, are compared byte for
byte by ``benchmarks/replay_snapshot.py``; ``tests/test_replay_fast.py`` compares the fast and full paths.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers.circuits import CIRCUITS, example_tracks, random_path
from rallyc.rules.rx_laps import Laps
from rallyc.rules.stage_race import StageCourse
from rallyc.rules.state import index_of

ROOT = Path(__file__).resolve().parent.parent
def _plain_walk(laps: Laps, distance: float, crossed: int, path: list[str]) -> list[tuple[float, int]]:
    out = []
    d = distance
    for sid in path:
        nd = laps.advance(d, sid)
        crossed += laps.crossings(d, nd)
        d = nd
        out.append((d, crossed))
    return out


@pytest.mark.parametrize("file", CIRCUITS)
def test_laps_walk_is_advance_then_crossings(file):
    rng = random.Random(f"laps:{file}")
    for track in example_tracks(file):
        if track.kind != "circuit" or not track.lap_length:
            continue
        laps, index = Laps(track), index_of(track)
        starts = list(index.start_spaces) or list(index.spaces)
        for _ in range(40):
            start = rng.choice(starts)
            d = laps.start_distance(start) + rng.choice((0, 0, 1, 3)) * laps.length
            crossed = rng.randint(0, 3)
            path = random_path(index, start, rng, rng.randint(0, int(laps.length) * 3))
            for cut in range(0, len(path), 7):  # a turn's path from anywhere along the way
                base = _plain_walk(laps, d, crossed, path[:cut])
                d0, c0 = base[-1] if base else (d, crossed)
                assert laps.walk(d0, c0, path[cut:cut + 9]) == _plain_walk(laps, d0, c0, path[cut:cut + 9])


def test_stage_course_walk_is_advance_then_crossings():
    rng = random.Random("laps:stage")
    for track in example_tracks("rally-1.rally")[:2]:
        course, index = StageCourse(track), index_of(track)
        for _ in range(20):
            start = rng.choice(list(index.start_spaces))
            path = random_path(index, start, rng, 200)
            d = course.start_distance(start)
            assert course.walk(d, 0, path) == _plain_walk(course, d, 0, path)


def test_a_card_table_met_before_gives_the_same_cards_and_refusals():
    from rallyc.records import load_record, replay_record
    from rallyc.records.replay import record_stages

    path = ROOT / "examples" / "games" / "rally-4-full.json"
    data = load_record(path)
    tracks, _, flippers = record_stages(data, path.parent)
    first = replay_record(data, tracks=tracks, flippers=flippers, explain=False).to_json()
    again = replay_record(data, tracks=tracks, flippers=flippers, explain=False).to_json()
    assert first == again and first["ok"]
    # a claim of seconds the Gear deck does not hold: refused on a fresh table and on one that has met the deck
    bad = dict(data)
    stage = dict(data["stages"][0])
    turns = [dict(t) for t in stage["turns"]]
    changed = next(t for t in turns if "card" in t and "zero" not in t["card"] and "seconds" in t["card"])
    changed["card"] = {**changed["card"], "seconds": 1}
    stage["turns"] = turns
    bad["stages"] = [stage] + list(data["stages"][1:])
    refusals = [replay_record(bad, tracks=tracks, flippers=flippers, explain=False).to_json() for _ in range(2)]
    assert refusals[0] == refusals[1] and not refusals[0]["ok"]
    assert "CORE-TURNEND-04" in str(refusals[0]["error"])
