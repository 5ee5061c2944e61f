"""The drivers' next-dice tables (rallyc.analysis.options) give exactly die_options' dice, in its order."""

from __future__ import annotations

from pathlib import Path

import rallyc
from rallyc.analysis.options import DiceOptions
from rallyc.rules import Player, Stage
from rallyc.rules.plans import die_options, start_walk
from rallyc.rules.state import Card

ROOT = Path(__file__).resolve().parent.parent


def _contexts():
    for name in ("rally-1.rally", "rally-5.rally", "auto-tour-1.rally"):
        for track in rallyc.load(ROOT / "examples" / name).tracks[:2]:
            st = Stage(track, [Player("A", "red"), Player("B", "blue")])
            ids = sorted(st.index.spaces)
            b = st.cars["B"]
            b.space, b.status, b.cards = ids[len(ids) // 2], "road", [Card(3, 30)]
            for k, sid in enumerate(ids[::23]):
                if sid == b.space:
                    continue
                a = st.cars["A"]
                a.space, a.status, a.cards = sid, "road", [Card(1 + k % 5, 10)]
                st.order, st.position = ["B", "A"], 1
                yield st.context("A")[0]


def test_options_match_die_options_two_dice_deep():
    compared = 0
    for ctx in _contexts():
        table = DiceOptions(ctx)
        frontier = [(start_walk(ctx), table.start(ctx))]
        for _ in range(2):
            nxt = []
            for walk, state in frontier:
                old = die_options(ctx, walk)
                new = table(state)
                assert [p for p, _ in old] == [o.placed for o in new]
                assert [bool(w.ended) for _, w in old] == [o.ended for o in new]
                assert [(w.pos, w.gear, w.n) for _, w in old] == [(o.state.pos, o.state.gear, o.state.n) for o in new]
                compared += len(new)
                nxt += [(w, o.state) for (_, w), o in zip(old, new) if not o.ended]
            frontier = nxt
    assert compared > 1000
