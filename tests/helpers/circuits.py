"""Helpers for the tests of the laps and the End of the Turn: the example circuits and seeded paths along a track."""

from __future__ import annotations

import random

import rallyc
from helpers.paths import EXAMPLES

#: the example files with circuits (RX, Ice, the custom races' tracks)
CIRCUITS = ("rx-1.rally", "rx-2.rally", "ice-track-1.rally", "track-1.rally", "track-2.rally")


def example_tracks(file: str) -> list:
    """Every compiled track (stage or circuit) of the example ``file``."""
    return list(rallyc.load(str(EXAMPLES / file)).tracks)


def random_path(index, start: str, rng: random.Random, steps: int) -> list[str]:
    """Up to ``steps`` spaces driven from ``start``, each a random successor (with handbrake moves) of the one before."""
    path, here = [], start
    for _ in range(steps):
        nxt = index.succ_handbrake.get(here) or []
        if not nxt:
            break
        here = rng.choice(nxt)
        path.append(here)
    return path
