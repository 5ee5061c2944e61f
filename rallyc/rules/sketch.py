"""Small hand-made tracks for tests, examples and bot games (no tiles needed).

A sketch is a line of zones, tiles separated by ``|``::

    N N S N | !medium D C(2;3,3,3)R D cut3(1,3) | N jump4 water F N N

Zones (each one route zone, 2 lanes ``l``/``r``): ``N`` plain, ``N/3`` plain with limit 3 on both lanes,
``D`` slide zone (lanes + full-width halves ``s1``/``s2``), ``C(IN;OUT)R`` or ``...L`` a corner turning
right/left (inside limits; outside limits; e.g. ``C(2;3,3,3)R``), ``jumpN`` a plain zone with a Gear N
jump, ``water`` a plain zone with a Water Hazard. Markers: ``S`` the Starting Line (the zone before it
holds the start spaces), ``F`` the finish line (the next zone is the first after the line). Per tile:
``!low``/``!medium``/``!high`` danger colour, ``cutN(a,b)`` a Shortcut of limit N joining zones a and b
of that tile. ``sketch(..., assistance=True)`` adds the Assistance tile. Space ids follow the Track
contract: ``STEP.ZONE.LANE`` and ``STEP.cutK``.
"""

from __future__ import annotations

import re

import networkx as nx

from rallyc.compiler.track import PlacedTile, Track

__all__ = ["sketch"]

_CORNER = re.compile(r"C\(([\d,]*);([\d,]*)\)([LR]?)$")
_CUT = re.compile(r"cut(\d+)\((\d+),(\d+)\)$")


def _nums(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def sketch(text: str, name: str = "sketch", *, surface: str = "gravel", assistance: bool = False) -> Track:
    """Build a :class:`Track` from a sketch (see the module docstring)."""
    g = nx.DiGraph()
    placed: list[PlacedTile] = []
    zones: list[dict] = []  # in route order: {"spaces": [...], "kind":..., "inside": lane}
    cuts: list[tuple[int, int, int, int]] = []
    pending_start = False
    finish_seen = 0  # 0 before F; 1 right after F (next zone is after_finish); 2 later
    progress = 0.0
    for step, tile in enumerate(text.split("|"), start=1):
        danger = "low"
        zone_no = 0
        placed.append(PlacedTile(step, f"T{step}", step, 0, 0, 1, "D", "A"))
        for tok in tile.split():
            if tok.startswith("!"):
                danger = tok[1:]
                continue
            if tok == "S":
                for sid in zones[-1]["spaces"]:
                    g.nodes[sid]["start"] = True
                continue
            if tok == "F":
                finish_seen = 1
                continue
            m = _CUT.match(tok)
            if m:
                cuts.append((step, int(m.group(1)), int(m.group(2)), int(m.group(3))))
                continue
            zone_no += 1
            key = f"{step}.{zone_no}"
            base = dict(step=step, tile=f"T{step}", road=1, zone=zone_no, surface=surface, danger=danger,
                        past_finish=finish_seen > 0, after_finish=finish_seen == 1)
            z: dict = {"key": key, "spaces": [], "inside": None, "step": step, "zone": zone_no}
            cm = _CORNER.match(tok)
            if cm:
                ins, outs, turn = _nums(cm.group(1)), _nums(cm.group(2)), cm.group(3) or "R"
                z["kind"] = "corner"
                z["inside"] = "r" if turn == "R" else "l"
                z["in"], z["out"] = [], []
                for meth, lims in (("in", ins), ("out", outs)):
                    for j, lim in enumerate(lims, start=1):
                        sid = f"{key}.{meth}{j}"
                        g.add_node(sid, **base, lane=f"{meth}{j}", kind="corner", limit=lim, method=meth,
                                   corner=key, progress=progress + j / len(lims))
                        z[meth].append(sid)
                        z["spaces"].append(sid)
            else:
                limit = None
                kind_tok = tok
                if "/" in tok:
                    kind_tok, lim = tok.split("/")
                    limit = int(lim)
                jump = int(kind_tok[4:]) if kind_tok.startswith("jump") else None
                water = kind_tok == "water"
                z["kind"] = "slide" if kind_tok == "D" else "plain"
                for lane in ("l", "r"):
                    sid = f"{key}.{lane}"
                    g.add_node(sid, **base, lane=lane, kind="lane", limit=limit, jump=jump, water=water,
                               progress=progress + 1)
                    z["spaces"].append(sid)
                if kind_tok == "D":
                    for half, frac in (("s1", 0.5), ("s2", 1.0)):
                        sid = f"{key}.{half}"
                        g.add_node(sid, **base, lane=half, kind="slide", progress=progress + frac)
                        z["spaces"].append(sid)
            progress += 1
            if finish_seen == 1:
                finish_seen = 2
            zones.append(z)
    # edges between consecutive zones
    for a, b in zip(zones, zones[1:]):
        _join(g, a, b)
    for z in zones:
        if z["kind"] == "corner":
            for meth in ("in", "out"):
                for x, y in zip(z[meth], z[meth][1:]):
                    g.add_edge(x, y, move="straight")
        if z["kind"] == "slide":
            g.add_edge(f"{z['key']}.s1", f"{z['key']}.s2", move="slide")
    for step, limit, za, zb in cuts:
        k = sum(1 for c in cuts if c[0] == step and cuts.index(c) <= cuts.index((step, limit, za, zb)))
        sid = f"{step}.cut{k}"
        zs = {(z["step"], z["zone"]): z for z in zones}
        a, b = zs[(step, za)], zs[(step, zb)]
        g.add_node(sid, step=step, tile=f"T{step}", road=1, zone=None, lane=f"cut{k}", kind="shortcut",
                   surface=surface, danger=g.nodes[a["spaces"][0]]["danger"], limit=limit,
                   progress=(g.nodes[a["spaces"][0]]["progress"] + g.nodes[b["spaces"][0]]["progress"]) / 2,
                   past_finish=False, after_finish=False)
        for s in a["spaces"]:
            if g.nodes[s]["kind"] != "corner":
                g.add_edge(s, sid, move="shortcut")
        for s in b["spaces"]:
            if g.nodes[s]["kind"] != "corner":
                g.add_edge(sid, s, move="shortcut")
    if assistance:
        placed.append(PlacedTile(len(placed) + 1, "201a", len(placed) + 1, 0, 0, 1, "D", None))
    return Track(name, "stage", g, placed)


def _lanes(z: dict) -> list[str]:
    return [s for s in z["spaces"] if s.rsplit(".", 1)[1] in ("l", "r")]


def _exits(z: dict) -> list[tuple[str, str | None]]:
    """(space, lane it is in or None for full width) that lead out of a zone."""
    if z["kind"] == "corner":
        inside = z["inside"]
        outside = "l" if inside == "r" else "r"
        return [(z["in"][-1], inside), (z["out"][-1], outside)]
    out = [(s, s.rsplit(".", 1)[1]) for s in _lanes(z)]
    if z["kind"] == "slide":
        out.append((f"{z['key']}.s2", None))
    return out


def _join(g: nx.DiGraph, a: dict, b: dict) -> None:
    for src, lane in _exits(a):
        if b["kind"] == "corner":
            inside = b["inside"]
            for meth, first in (("in", b["in"][0]), ("out", b["out"][0])):
                want = inside if meth == "in" else ("l" if inside == "r" else "r")
                g.add_edge(src, first, move="straight" if lane in (want, None) else "diagonal")
            continue
        for dst in _lanes(b):
            dl = dst.rsplit(".", 1)[1]
            g.add_edge(src, dst, move="straight" if lane in (dl, None) else "diagonal")
        if b["kind"] == "slide":
            g.add_edge(src, f"{b['key']}.s1", move="slide")
