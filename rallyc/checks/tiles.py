"""Checks of tile definitions written by the user (RC15x).

Tiles are data, and a designer who owns a tile may correct its definition in a
tileset of their own. These checks catch definitions that cannot describe a
printed tile: a shortcut between zones that are not there, a limit no die can
reach, a turn that contradicts the road's edges. The bundled tilesets pass
them too (a test runs them over every bundled tile).
"""

from __future__ import annotations

from rallyc.diagnostics import Diagnostic
from rallyc.geometry.hexgrid import turn_of
from rallyc.model import codes as rc
from rallyc.project.loader import Loaded
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["check_tiles", "check_tileset"]

#: Gears run 1..6; a limit or a jump outside that range can never be met.
GEARS = range(1, 7)
#: Roads have 1 to 4 lanes (4 on some Rallyman: GT tiles).
LANES = range(1, 5)

def check_tiles(loaded: Loaded, catalogue: Catalogue | None = None) -> list[Diagnostic]:
    """Diagnostics for every tile defined in the files of ``loaded`` (bundled tilesets are not re-checked;
    the definitions are read as written, so ``catalogue`` is not needed)."""
    out: list[Diagnostic] = []
    for doc in loaded.documents:
        for ts in doc.tilesets:
            out += check_tileset(ts)
    return out


def check_tileset(ts: ast.Tileset) -> list[Diagnostic]:
    """Diagnostics for the tiles of one tileset."""
    out: list[Diagnostic] = []
    for tile in ts.tiles:
        seen: dict[tuple[str, str], ast.RoadDef] = {}
        for road in tile.roads:
            out += _road(tile, road)
            key = (road.entry, road.exit)
            if key in seen or (road.exit, road.entry) in seen:
                out.append(Diagnostic.of(
                    rc.RC156, f"{tile.id.text} has two roads between edges {road.entry} and {road.exit}",
                    road.span, "a tile has one road between two edges; merge the two roads into one"))
            seen[key] = road
    return out


def _road(tile: ast.TileDef, road: ast.RoadDef) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    name = tile.id.text
    if road.exit != "end" and road.entry == road.exit:
        out.append(Diagnostic.of(rc.RC153, f"a road of {name} enters and leaves by the same edge {road.entry}",
                                    road.span, "a road leaves by another edge; use `-> end` for a dead end"))
    if road.lanes is not None and road.lanes not in LANES:
        out.append(_lanes_error(name, road.lanes, road.span))
    zones = road.zones
    if not zones:
        out.append(Diagnostic.of(rc.RC154, f"a road of {name} has no zones", road.span,
                                    "list the zones from the entry edge to the exit edge: plain, slide, corner ..."))
    out += _turn(name, road)
    for zone in zones:
        out += _zone(name, road, zone)
    for item in road.items:
        if isinstance(item, ast.LimitLine) and item.value not in GEARS:
            out.append(_gear_error(name, "limit line", item.value, item.span))
    told: set = set()  # the spaces of one `shortcut 5 5 ...` statement share its span: its zones told once
    for cut in road.shortcuts:
        if not (1 <= cut.from_zone < cut.to_zone <= len(zones)) and (cut.span, cut.from_zone, cut.to_zone) not in told:
            told.add((cut.span, cut.from_zone, cut.to_zone))
            out.append(Diagnostic.of(
                rc.RC150, f"shortcut {cut.limit} from {cut.from_zone} to {cut.to_zone}: {name}'s road has zones "
                f"1 to {len(zones)}, and a shortcut runs from a zone to a later one",
                cut.span, "count the zones from the road's entry edge (lines are not zones), e.g. `from 1 to 3`"))
        if cut.limit not in GEARS:
            out.append(_gear_error(name, "shortcut limit", cut.limit, cut.span))
    return out


def _turn(name: str, road: ast.RoadDef) -> list[Diagnostic]:
    if road.exit in ("end", road.entry) or road.turn in (None, "other"):
        return []
    turn = turn_of(road.entry, road.exit)
    if road.turn == "s-bend":
        ok = turn == "straight"
        expected = "an s-bend joins opposite edges"
    else:
        ok = turn == road.turn
        expected = f"from {road.entry} to {road.exit} the road is `{turn}`"
    if ok:
        return []
    return [Diagnostic.of(rc.RC157, f"{name}: road {road.entry} -> {road.exit} is written `{road.turn}`, "
                             f"but {expected}", road.span,
                             "write the turn the edges make, or leave the turn out and rallyc works it out")]


def _zone(name: str, road: ast.RoadDef, zone: ast.Zone | ast.Corner) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    lanes = zone.lanes or road.lanes or 2
    if zone.lanes is not None and zone.lanes not in LANES:
        out.append(_lanes_error(name, zone.lanes, zone.span))
    limits = list(zone.limits or ())
    if isinstance(zone, ast.Corner):
        limits += list(zone.inside) + list(zone.outside)
    for value in limits:
        if value is not None and value not in GEARS:
            out.append(_gear_error(name, "speed limit", value, zone.span))
    if zone.jump is not None and zone.jump not in GEARS:
        out.append(_gear_error(name, "jump", zone.jump, zone.span))
    if isinstance(zone, ast.Zone) and zone.limits and zone.kind not in ("wide", "junction") \
            and len(zone.limits) not in (1, lanes):
        out.append(Diagnostic.of(
            rc.RC152, f"{name}: a {zone.kind} zone with {lanes} lanes has {len(zone.limits)} limits",
            zone.span, f"give one limit for every lane ({lanes}, `-` for a lane without one) or one for all"))
    return out


def _gear_error(name: str, what: str, value: int, span) -> Diagnostic:
    return Diagnostic.of(rc.RC151, f"{name}: {what} {value} is not a gear (gears run 1 to 6)", span,
                            "write the number printed on the tile")


def _lanes_error(name: str, lanes: int, span) -> Diagnostic:
    return Diagnostic.of(rc.RC155, f"{name}: {lanes} lanes; roads have 1 to 4 lanes", span,
                            "write the number of lanes where the road meets the tile edge")
