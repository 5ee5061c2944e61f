"""The board around a car, as text: the road's zones from just behind the car to a few zones ahead, each with its
tile, surface, danger colour, speed limit and hazards (jump, water, Shortcut, chicane, the finish), the spaces of
the zone and which car stands on each; above them the whole route in two lines, one character a zone (where each car
is along it); and one line per car (space, gear, damage, tokens, Time cards).

A text rendering for the terminal; the browser surface draws the map itself (``rallyc render``'s SVG).
"""

from __future__ import annotations

from typing import Any

__all__ = ["board_text", "car_line", "route_lines"]

#: zones shown behind and ahead of the car
BEHIND, AHEAD = 1, 6


def _zones(track: Any) -> list[tuple[str, list[Any]]]:
    """The track's zones in driving order (by their spaces' progress), each with its spaces."""
    zones: dict[str, list[Any]] = {}
    for space in track.spaces.values():
        zones.setdefault(space.zone_key, []).append(space)
    return sorted(zones.items(), key=lambda kv: (min(s.progress for s in kv[1]), kv[0]))


def _hazards(spaces: list[Any]) -> str:
    """What a zone holds that the rules act on."""
    out: list[str] = []
    limits = sorted({s.limit for s in spaces if s.limit is not None})
    if limits:
        out.append("limit " + "/".join(str(x) for x in limits))
    jumps = sorted({s.jump for s in spaces if s.jump is not None})
    if jumps:
        out.append("jump " + "/".join(str(x) for x in jumps))
    if any(s.water for s in spaces):
        out.append("water")
    if any(s.kind == "shortcut" for s in spaces):
        out.append("Shortcut")
    if any(s.kind in ("slide", "wide") for s in spaces):
        out.append("slide")
    chicanes = sorted({s.chicane for s in spaces if s.chicane is not None})
    if chicanes:
        out.append("chicane " + "/".join(str(x) for x in chicanes))
    if any(s.joker for s in spaces):
        out.append("Joker")
    if any(s.after_finish for s in spaces):
        out.append("past the finish")
    tokens = sorted({t for s in spaces for t in s.tokens})
    if tokens:
        out.append("tokens " + ",".join(tokens))
    return ", ".join(out)


def _zone_mark(spaces: list[Any]) -> str:
    """A zone of the route as one character: past the finish ``#``, a corner's lowest speed limit (a digit), a jump
    ``J``, water ``~``, a Shortcut ``s``, else ``-``."""
    if all(s.past_finish for s in spaces):
        return "#"
    limits = [s.limit for s in spaces if s.limit is not None]
    if limits:
        return str(min(limits)) if min(limits) < 10 else "+"
    if any(s.jump is not None for s in spaces):
        return "J"
    if any(s.water for s in spaces):
        return "~"
    if any(s.kind == "shortcut" for s in spaces):
        return "s"
    return "-"


def route_lines(game: Any) -> list[str]:
    """The whole route in two lines, one character a zone in driving order (the Joker lap and the Pre-grid left
    out): the road (:func:`_zone_mark`) and, under it, each car's initial where it stands (``*`` where several do);
    a car off the route (not started, on the Joker lap) is named after."""
    zones = [(key, spaces) for key, spaces in _zones(game.track)
             if not any(s.joker or s.pregrid for s in spaces) and any(s.zone is not None for s in spaces)]
    column = {s.id: i for i, (_, spaces) in enumerate(zones) for s in spaces}
    road = "".join(_zone_mark(spaces) for _, spaces in zones)
    cars = [" "] * len(zones)
    off = []
    for name, car in game.cars.items():
        i = column.get(getattr(car, "space", None) or "")
        if i is None:
            off.append(name)
        else:
            cars[i] = name[:1].upper() if cars[i] == " " else "*"
    lines = [f"  road |{road}|  (digits: corner limits, J jump, ~ water, s Shortcut, # past the finish)",
             f"  cars |{''.join(cars)}|" + (f"  not on the route: {', '.join(off)}" if off else "")]
    return lines


def board_text(game: Any, name: str) -> str:
    """The road around ``name``'s car in ``game`` (a stage or a race), and who stands where."""
    track = game.track
    car = game.cars[name]
    where = {c.space: n for n, c in game.cars.items() if getattr(c, "space", None)}
    zones = _zones(track)
    here = next((i for i, (_, spaces) in enumerate(zones) if any(s.id == car.space for s in spaces)), None)
    if here is None:  # not on the road yet: the start of the road
        here = 0
        lines = [f"{name}'s car is not on the road yet (it starts behind the Starting Line)."]
    else:
        lines = [f"{name}'s car on {car.space}:"]
    lines += route_lines(game)
    lo, hi = max(0, here - BEHIND), min(len(zones), here + AHEAD + 1)
    for key, spaces in zones[lo:hi]:
        first = spaces[0]
        cells = []
        for s in sorted(spaces, key=lambda s: s.id):
            who = where.get(s.id)
            mark = f"[{who}]" if who else ""
            cells.append(f"{s.id}{mark}")
        arrow = "->" if any(s.id == car.space for s in spaces) else "  "
        hazard = _hazards(spaces)
        lines.append(f" {arrow} {key:<8} {first.tile:<6} {first.surface:<7} {first.danger:<6} "
                     f"{'  '.join(cells)}" + (f"   ({hazard})" if hazard else ""))
    return "\n".join(lines)


def car_line(game: Any, name: str, driver: str = "person") -> str:
    """One car: status, space, gear, damage, tokens, Time cards (a stage) or laps and Joker (a race)."""
    car = game.cars[name]
    damage = ", ".join(f"{k} {v}" for k, v in sorted(car.damage.items()) if v) or "no damage"
    who = "" if driver == "person" else f" ({driver} bot)"
    head = f"{name}{who}: {car.status}, {car.space or 'not on the road'}, Gear {car.gear}, {damage}"
    if hasattr(car, "cards"):
        seconds = sum(c.seconds for c in car.cards)
        return head + f", {car.seconds} s tokens, {len(car.cards)} Time card(s) {seconds} s"
    return head + f", {car.crossed} line crossing(s), Joker {car.joker}, {car.focus} Focus token(s)"
