"""Monte-Carlo Weather (MC-WEATHER-01..07): which tiles a Weather token drawn this turn flips.

When a Weather token comes out of the Damage bag (at a Shortcut or a Crash), every Snow and
Asphalt tile ahead of the tile of the car furthest along the road is turned to its other side
in place, the finish tile included (MC-WEATHER-02/04); gravel tiles and the leader's own tile stay
(MC-WEATHER-03, Ambiguity 21: only cars still racing count, so no car ever sits on a flipped
tile). Several Weather tokens drawn in one turn cause one flip (MC-WEATHER-06); a tile may flip
again later (MC-WEATHER-05). The drawn tokens stay on the drawer's Dashboard with no dice effect
and go back to the bag at the end of the stage (MC-WEATHER-07; a rally carries only real damage).

Readings (`weather_scope`, `weather_timing` in rallyc/data/components.toml; see the README): the flip happens at the end of the drawer's turn, after its movement
is resolved (the dice laid on the spaces ahead keep their meaning), and the leading car is the
one furthest along at that moment; a tile whose other side has no road on the edges the route
uses (416a's A-D road: 416b has B-E and C-F) stays as it is, the layout must remain unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rallyc.rules.core.state import WEATHER
from rallyc.rules.core.trace import report

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.stage import Stage
    from rallyc.rules.core.state import Car
    from rallyc.rules.core.turn import Outcome

__all__ = ["FLIPPING_SURFACES", "weather_drawn", "leading_step", "weather_flips"]

#: the surfaces a Weather token turns over (MC-WEATHER-02)
FLIPPING_SURFACES = ("asphalt", "snow")

#: statuses of a car still racing with a space on the stage (Ambiguity 21)
_RACING = ("road", "spun", "crashed", "tire")


def weather_drawn(out: "Outcome") -> int:
    """Weather tokens drawn this turn: Shortcut draws and Crash damage (MC-WEATHER-02, MC-WEATHER-07)."""
    return out.tokens.count(WEATHER) + out.damage.count(WEATHER)


def leading_step(stage: "Stage", car: "Car", end: str, status: str) -> int | None:
    """The route step of the tile of the car furthest along the road once this turn is over (``car`` on
    ``end`` with ``status``), among cars still racing; cars not yet started wait behind the Starting Line.
    None when no car is still racing."""
    spaces = stage.index.spaces
    best: tuple[float, int] | None = None
    waiting = False
    for c in stage.cars.values():
        st, space = (status, end) if c is car else (c.status, c.space)
        if st == "waiting":
            waiting = True
        if st not in _RACING or space is None or space not in spaces:
            continue
        s = spaces[space]
        key = (s.progress, s.step)
        if best is None or key > best:
            best = key
    if best is not None:
        return best[1]
    if waiting and stage.index.start_spaces:
        return min(spaces[s].step for s in stage.index.start_spaces)
    return None


def weather_flips(stage: "Stage", car: "Car", out: "Outcome", status: str) -> list[int]:
    """The route steps the Weather token(s) drawn in this turn flip (sorted; empty without a draw)."""
    if not weather_drawn(out) or stage.flipper is None:
        return []
    lead = leading_step(stage, car, out.end, status)
    if lead is None:
        return []
    steps = sorted({p.step for p in stage.track.placed if not p.scenery and p.step > lead})
    flips = [s for s in steps
             if stage.flipper.surface(s, stage.flipped) in FLIPPING_SURFACES and stage.flipper.can_flip(s)]
    if weather_drawn(out) > 1:
        report(("MC-WEATHER-06",))  # several tokens, one flip
    return flips
