"""A compiled track as JSON: networkx node-link form, sorted, with fixed float formatting.

Same input, same bytes: nodes sorted by id, links by (source, target), keys
sorted, floats rounded to 6 decimals, no timestamps. The layout is described
by ``schemas/track.schema.json``.
"""

from __future__ import annotations

import json
from typing import Any

from rallyc.version import __version__
from rallyc.compiler.track import SPACE_FIELDS, PlacedTile, Standee, Track
from rallyc.compiler.design import Design
from rallyc.diagnostics import Span
from rallyc.model.options import lookup, normalize

__all__ = ["track_to_dict", "design_to_dict", "dumps", "FORMAT_VERSION"]

FORMAT_VERSION = 1


def _num(x: Any) -> Any:
    if isinstance(x, float):
        r = round(x, 6)
        return int(r) if r == int(r) and abs(r) < 1e15 else r
    return x


def _span(span: Span | None) -> dict[str, Any] | None:
    if span is None:
        return None
    return {"file": span.file, "line": span.line, "column": span.column}


def _placed(p: PlacedTile) -> dict[str, Any]:
    return {"step": p.step, "tile": p.tile, "q": p.q, "r": p.r, "rot": p.rot, "road": p.road,
            "entry": p.entry, "exit": p.exit, "scenery": p.scenery, "span": _span(p.span)}


def _standee(st: Standee) -> dict[str, Any]:
    return {"kind": st.kind, "at": st.at, "step": st.step, "zone": st.zone, "spaces": list(st.spaces),
            "span": _span(st.span)}


def track_to_dict(track: Track) -> dict[str, Any]:
    """The node-link form of one track (``directed``, ``graph``, ``nodes``, ``links``)."""
    g = track.graph
    nodes = []
    for nid in sorted(g.nodes):
        d = g.nodes[nid]
        node = {"id": nid}
        for k in SPACE_FIELDS:
            if k == "id":
                continue
            v = d.get(k)
            if k == "tokens":
                v = list(v or ())
            elif k == "progress":
                v = round(float(v), 6)
            node[k] = v
        node["span"] = _span(d.get("span"))
        nodes.append(node)
    links = []
    for a, b in sorted(g.edges):
        e = g.edges[a, b]
        link = {"source": a, "target": b, "move": e["move"]}
        for flag in ("handbrake", "lap"):
            if e.get(flag):
                link[flag] = True
        links.append(link)
    lap_length = getattr(track, "lap_length", None)
    return {
        "directed": True,
        "multigraph": False,
        "graph": {
            "name": track.name,
            "kind": track.kind,
            "title": track.title,
            "laps": track.laps,
            "lap_length": round(float(lap_length), 6) if lap_length is not None else None,
            "placed": [_placed(p) for p in track.placed],
            "standees": [_standee(st) for st in getattr(track, "standees", [])],
        },
        "nodes": nodes,
        "links": links,
    }


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """A design's options as the registry values them (``flying-start``: true, a bare ``sisu``: its first word)."""
    out: dict[str, Any] = {}
    for name, raw in sorted(options.items()):
        spec = lookup(name)
        try:
            out[name] = normalize(spec, raw) if spec is not None else raw
        except ValueError:  # a bad value, reported by the check (RC143)
            out[name] = raw
    return out


def design_to_dict(design: Design, stage: str | None = None) -> dict[str, Any]:
    """A design with its tracks (only ``stage`` when given)."""
    tracks = design.tracks if stage is None else [design.track(stage)]
    return {
        "format": "rallyc-track",
        "version": FORMAT_VERSION,
        "rallyc": __version__,
        "design": {"kind": design.kind, "title": design.title, "author": design.author,
                   "options": _options(design.options),
                   "meta": dict(sorted(design.meta.items()))},
        "tracks": [track_to_dict(t) for t in tracks],
    }


def dumps(doc: Any) -> str:
    """Deterministic JSON text (sorted keys, 2-space indent, trailing newline)."""
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
