"""The RX race's cheaper End of the Turn agrees with the plain one (issue 9, speed; the race lane).

- :meth:`Laps.drive` (the end of a walk and the finishing space, without the list; the crossings of a walk that only
  goes forward taken as the difference of its first and last side of the line) gives what :meth:`Laps.walk` gives,
  on every example circuit and on the stage course of a Head-to-Head, for seeded random walks (forwards, over the
  Joker and the Pre-grid, backwards where a projected space lies behind, across the line after the last lap);
- :meth:`Race._drive` (the Joker and Pre-grid states from the track's sets of spaces unless the Joker state changes
  on the way) gives what :meth:`Race._walk` gives, from every Joker state, on and off the Pre-grid.

The replays of every example game and of the mutation corpus are compared byte for byte by
``benchmarks/replay_snapshot.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rallyc
from rallyc.rules.domain import JokerState
from rallyc.rules.race import Race
from rallyc.rules.rx_laps import Laps
from rallyc.rules.stage import Player
from rallyc.rules.stage_race import StageCourse
from rallyc.rules.state import index_of

ROOT = Path(__file__).resolve().parent.parent
CIRCUITS = ("rx-1.rally", "rx-2.rally", "ice-track-1.rally", "track-1.rally", "track-2.rally")


def _tracks(file: str) -> list:
    return list(rallyc.load(str(ROOT / "examples" / file)).tracks)


def _circuits() -> list:
    return [t for f in CIRCUITS for t in _tracks(f) if t.kind == "circuit" and t.lap_length]


def _random_path(index, start: str, rng: random.Random, steps: int) -> list[str]:
    path, here = [], start
    for _ in range(steps):
        nxt = index.succ_handbrake.get(here) or []
        if not nxt:
            break
        here = rng.choice(nxt)
        path.append(here)
    return path


def _from_walk(walk: list, start: tuple, laps: int) -> tuple:
    """The end of a walk (``start`` for an empty one) and the index of its first entry past ``laps`` crossings."""
    fin = next((i for i, w in enumerate(walk) if w[1] > laps), None)
    return (walk[-1] if walk else start), fin


def _walks(index, laps: Laps, rng: random.Random, n: int):
    """Seeded turns' paths: from anywhere, a few spaces to several laps, some with a space behind the one before."""
    ids = list(index.spaces)
    for _ in range(n):
        start = rng.choice(ids)
        path = _random_path(index, start, rng, rng.choice((0, 1, 3, 8, 12, 40)))
        if path and rng.random() < 0.2:  # a step back (a projected Joker or Pre-grid space, or a push)
            path.insert(rng.randrange(len(path)), rng.choice(ids))
        d = laps.start_distance(start) + rng.choice((0, 0, 1, 2, 3)) * laps.length
        yield start, d, rng.randint(0, laps.laps + 2), path


@pytest.mark.parametrize("track", _circuits(), ids=lambda t: t.name)
def test_laps_drive_is_the_end_of_walk(track):
    rng = random.Random(f"drive:{track.name}")
    laps, index = Laps(track), index_of(track)
    finishes = 0
    for _, d, crossed, path in _walks(index, laps, rng, 400):
        (end_d, end_c), fin = _from_walk(laps.walk(d, crossed, path), (d, crossed), laps.laps)
        assert laps.drive(d, crossed, path) == (end_d, end_c, fin), (d, crossed, path)
        finishes += fin is not None
    assert finishes  # the finish after the last lap was met


def test_stage_course_drive_is_the_end_of_walk():
    rng = random.Random("drive:stage")
    for track in _tracks("rally-1.rally")[:2]:
        course, index = StageCourse(track), index_of(track)
        for _, _, crossed, path in _walks(index, course, rng, 200):
            d = course.start_distance(rng.choice(list(index.start_spaces)))
            crossed = rng.choice((0, 0, 1))
            (end_d, end_c), fin = _from_walk(course.walk(d, crossed, path), (d, crossed), course.laps)
            assert course.drive(d, crossed, path) == (end_d, end_c, fin)


@pytest.mark.parametrize("track", [t for t in _circuits() if t.name.lower().startswith(("rx", "ice"))] or _circuits(),
                         ids=lambda t: t.name)
def test_race_drive_is_race_walk(track):
    rng = random.Random(f"race-drive:{track.name}")
    race = Race(track, [Player("Ann", "red"), Player("Bob", "blue")])
    car = race.cars["Ann"]
    index = race.index
    jokers = [s for s in index.spaces if index.spaces[s].joker]
    changed = 0
    for start, d, crossed, path in _walks(index, race.laps, rng, 400):
        if jokers and rng.random() < 0.3:  # into the Joker lap
            path = path[:rng.randrange(len(path) + 1)] + [rng.choice(jokers)] + path[:3]
        car.space, car.distance, car.crossed = start, d, crossed
        car.joker = rng.choice(list(JokerState))
        car.left_pregrid = rng.random() < 0.5
        walk = race._walk(car, path)
        end, fin = _from_walk(walk, (car.distance, car.crossed, car.joker, car.left_pregrid), race.laps.laps)
        assert race._drive(car, path) == (end, fin, walk[fin][2] if fin is not None else None)
        assert race.finish_index(car, [_Placed(s) for s in path]) == fin
        changed += end[2] != car.joker
    assert changed  # the Joker state changed along some paths


class _Placed:
    """A placed die's space, all :meth:`Race.finish_index` reads."""

    def __init__(self, space: str) -> None:
        self.space = space
