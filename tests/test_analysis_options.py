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


def test_safe_gears_are_the_highest_that_meet_every_limit_ahead_on_a_stage_and_around_a_circuit():
    """The strong stage and RX drivers share one table (rallyc.analysis.lookahead.safe_gears): a space's safe
    gear is its own limit (or Chicane limit), or one more than the safe gear of a space after it, whichever is
    lower; around a closed circuit the limits after the finish line count too."""
    from rallyc.analysis.lookahead import TOP_GEAR, safe_gears
    from rallyc.rules.state import index_of

    for file, name in (("rally-1.rally", "SS1"), ("rx-1.rally", "RX 1")):
        index = index_of(rallyc.load(str(ROOT / "examples" / file)).track(name))
        safe = safe_gears(index)
        for sid, sp in index.spaces.items():
            own = min(TOP_GEAR if sp.limit is None else sp.limit, TOP_GEAR if sp.chicane is None else sp.chicane)
            bound = min([own, *[safe[t] + 1 for t in index.succ.get(sid, ())]])
            assert safe[sid] == bound, (file, sid, safe[sid], bound)
        assert min(safe.values()) <= 2 < max(safe.values())  # hairpins ahead of fast stretches
