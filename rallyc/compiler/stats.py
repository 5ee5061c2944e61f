"""Figures about a compiled stage: length, rulebook class, surfaces, danger, tiles needed, pacenotes."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Iterator

import networkx as nx

from rallyc.compiler.track import PlacedTile, Track
from rallyc.model.stage_length import stage_class
from rallyc.model.tiles import TileRole
from rallyc.tiles.catalogue import Catalogue

__all__ = ["track_stats", "driving_lines", "pacenotes", "stage_class"]



def _moves(track: Track) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The track's moves ``(from, to, attributes)`` in the graph's order. Read from the adjacency, not through
    ``graph.edges``: that view, once read, is kept on the graph and refers back to it, a reference cycle that
    keeps the track's graph alive until the next garbage collection (`rallyc stats` reads each track once
    checked, while the collector is paused, and drops it)."""
    for a, ahead in track.graph.succ.items():
        for b, d in ahead.items():
            yield a, b, d


def _moves_graph(moves: Iterable[tuple[str, str]]) -> nx.DiGraph:
    """A graph of the moves ``(a, b)`` alone (no attributes), built anew: a copy of an edge-subgraph view would
    refer to the track's graph through the view's filters in the same way."""
    g = nx.DiGraph()
    g.add_edges_from(moves)
    return g


def _driving_graph(track: Track) -> nx.DiGraph:
    """The graph without handbrake (optional rule) and lap-closing edges: a DAG ordered by progress."""
    return _moves_graph((a, b) for a, b, d in _moves(track) if not d.get("handbrake") and not d.get("lap"))


def driving_lines(track: Track) -> tuple[int | None, int | None]:
    """Spaces entered on the shortest and the longest line from a start space to beyond the finish line."""
    g = _driving_graph(track)
    starts = [s for s in track.start_spaces if s in g]
    finish = {s for s in track.finish_spaces if s in g}
    if not starts or not finish:
        return None, None
    dist = nx.multi_source_dijkstra_path_length(g, starts)
    reached = [dist[f] for f in finish if f in dist]
    if not reached:
        return None, None
    longest: dict[str, int] = {s: 0 for s in starts}
    for n in nx.topological_sort(g):
        if n not in longest:
            continue
        if n in finish:
            continue  # the line is crossed: stop counting here
        for m in g.successors(n):
            longest[m] = max(longest.get(m, -1), longest[n] + 1)
    return int(min(reached)), max(longest[f] for f in finish if f in longest)


def lap_lines(track: Track) -> tuple[int | None, int | None]:
    """Circuits: spaces entered on the shortest and the longest lap, from the finish line round to it."""
    g = track.graph
    finish = set(track.finish_spaces)
    if not finish:
        return None, None
    cut = _moves_graph((a, b) for a, b, d in _moves(track) if b not in finish and not d.get("handbrake")
                       and not g.nodes[a].get("pregrid"))
    ends = {a for a, b, _ in _moves(track) if b in finish and not g.nodes[a].get("pregrid")}
    if not nx.is_directed_acyclic_graph(cut):
        return None, None
    starts = [f for f in finish if f in cut]
    if not starts:
        return None, None
    dist = nx.multi_source_dijkstra_path_length(cut, starts)
    longest = {s: 1 for s in starts}
    for n in nx.topological_sort(cut):
        if n in longest:
            for m in cut.successors(n):
                longest[m] = max(longest.get(m, 0), longest[n] + 1)
    short = [dist[e] + 1 for e in ends if e in dist]
    long_ = [longest[e] for e in ends if e in longest]
    return (min(short) if short else None), (max(long_) if long_ else None)


def _turn_words(turn: str) -> str:
    if turn.endswith("120"):
        return "hairpin " + turn[:-3]
    if turn.endswith("60"):
        return turn[:-2]
    return turn


def pacenotes(track: Track) -> list[str]:
    """Speed limits and road effects in driving order, one note per tile that has any.

    e.g. ``3: 210b hairpin right in 1/out 2``.
    """

    notes = []
    for p in track.steps:
        spaces = track.spaces_of_step(p.step)
        parts: list[str] = []
        corners: dict[str, dict[str, list[int]]] = {}
        for s in spaces:
            if s.kind == "corner" and s.corner and s.method is not None and s.limit is not None:
                corners.setdefault(s.corner, {"in": [], "out": []})[s.method].append(s.limit)
        for key in sorted(corners, key=lambda k: int(k.split(".")[1])):
            c = corners[key]
            parts.append(f"in {min(c['in'])}/out {min(c['out'])}" if c["in"] and c["out"] else "corner")
        other = sorted({s.limit for s in spaces if s.limit is not None and s.kind not in ("corner", "shortcut")})
        if other:
            parts.append("limit " + "/".join(map(str, other)))
        cuts = sorted({s.limit for s in spaces if s.kind == "shortcut" and s.limit is not None})
        if cuts:
            parts.append("shortcut " + "/".join(map(str, cuts)))
        jumps = sorted({s.jump for s in spaces if s.jump})
        if jumps:
            parts.append("jump " + "/".join(map(str, jumps)))
        if any(s.water for s in spaces):
            parts.append("water")
        if not parts:
            continue
        turn = track.graph.graph.get("turns", {}).get(p.step)
        head = f"{p.step}: {p.tile}" + (f" {_turn_words(turn)}" if turn and turn not in ("straight", "other") else "")
        notes.append(head + " " + ", ".join(parts))
    return notes


def road_steps(track: Track) -> list[PlacedTile]:
    """The steps a track's length counts: not the Assistance tile, and on a circuit not the tiles of the Joker lap
    or the Pre-grid alone (TRACK-RX-10..12: the guideline counts the loop's tiles)."""
    road = [p for p in track.steps if TileRole.ASSISTANCE not in p.roles]
    if track.kind == "circuit":
        branch = {s.step for s in track if (s.joker or s.pregrid) and s.zone is not None and
                  all(x.joker or x.pregrid for x in track.spaces_of_step(s.step))}
        road = [p for p in road if p.step not in branch]
    return road


def length_words(track: Track) -> str:
    """A track's length as `stats` and the map's title say it: "10 tiles (Short)", "12 tiles, 2 laps"."""
    tiles = len(road_steps(track))
    if track.kind == "stage":
        return f"{tiles} tiles ({stage_class(tiles)})"
    return f"{tiles} tiles" + (f", {track.laps} laps" if track.laps else "")


def track_stats(track: Track, catalogue: Catalogue | None = None) -> dict[str, Any]:
    """Length (tiles, spaces on the shortest/longest line), class, surfaces, danger, tiles needed, pacenotes."""
    road = road_steps(track)
    if track.kind == "circuit":
        shortest, longest = lap_lines(track)
    else:
        shortest, longest = driving_lines(track)
    surfaces: Counter[str] = Counter()
    danger: Counter[str] = Counter()
    for p in road:
        spaces = track.spaces_of_step(p.step)
        if spaces:
            surfaces[spaces[0].surface] += 1
            danger[spaces[0].danger] += 1
    needed: dict[str, Counter[str]] = {}
    seen = set()
    for p in track.placed:
        key = (p.q, p.r, p.tile)
        if key in seen:
            continue
        seen.add(key)
        box = "?"
        if catalogue is not None:
            info = catalogue.get(p.tile)
            box = info.box if info else "?"
        needed.setdefault(box, Counter())[p.tile] += 1
    out = {
        "name": track.name,
        "kind": track.kind,
        "title": track.title,
        "tiles": len(road),
        "class": stage_class(len(road)) if track.kind == "stage" else None,
        "spaces": {"shortest": shortest, "longest": longest, "total": len(track.graph)},
        "surfaces": dict(sorted(surfaces.items())),
        "danger": dict(sorted(danger.items())),
        "boxes": {b: dict(sorted(c.items())) for b, c in sorted(needed.items())},
        "pacenotes": pacenotes(track),
    }
    if track.kind == "circuit":
        out["laps"] = track.laps
    return out
