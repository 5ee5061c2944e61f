"""The bundled tilesets agree with the component catalogue (TRACK-TILE-01..06).

Every tile side written in ``tilesets/*.rally`` is checked against an independent
copy of the catalogue (``tests/data/catalogue.tsv``, from the Rekee editor's tile
table): the set of ids, surface (TRACK-TILE-05), danger colour (TRACK-TILE-04),
copies (TRACK-TILE-06), the road connections (entry/exit edges, forks, the dead
end of 201), the lanes at each edge (TRACK-TILE-03) and the printed features
(limits, shortcuts, jumps, water, climb lines).

Where the tile artwork is the better witness and disagrees with the catalogue,
``ART_OVER_CATALOGUE`` lists the difference and why; an entry that no longer
differs fails too, so the list cannot go stale.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from rallyc.data.resources import tilesets_dir
from rallyc.syntax import ast
from rallyc.syntax.parser import parse

EDGES = "ABCDEF"
DATA = Path(__file__).parent / "data" / "catalogue.tsv"

#: tile id -> {check name: reason}. Each listed check must really differ from the catalogue.
ART_OVER_CATALOGUE: dict[str, dict[str, str]] = {
    "408b": {"limits": "the art's second limit line reads 2 (checked at 6x against the 3 on 408a); "
                       "the catalogue gives limit1 limit3"},
    "215b": {"shortcut-count": "the art has two cut-3 shortcut spaces; the catalogue lists cut3 once"},
    "314a": {"shortcut-count": "the art has two cut-3 shortcut spaces; the catalogue lists cut3 once"},
    "224b": {"shortcut-count": "the art has two cut-5 shortcut spaces in a row (`shortcut 5 5 from 1 to 3`); "
                               "the catalogue lists cut5 once"},
}
# 412 and 414 have two separate roads: the catalogue's connections already say so (two edge pairs).

TURN_OFFSET = {"straight": 0, "s-bend": 0, "other": 0, "right60": 1, "left60": -1, "right120": 2, "left120": -2}


def read_catalogue(path: Path = DATA) -> dict[str, dict[str, str]]:
    """Rows of the catalogue TSV by tile id (comment lines skipped)."""
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return {row["tile"]: row for row in csv.DictReader(lines, delimiter="\t")}


def parse_tilesets() -> tuple[dict[str, ast.TileDef], list[str]]:
    """Every bundled tile side by id, and every problem met while reading the files."""
    tiles: dict[str, ast.TileDef] = {}
    problems: list[str] = []
    for f in sorted(tilesets_dir().glob("*.rally")):
        doc, diags = parse(f.read_text(encoding="utf-8"), f.name)
        problems += [f"{f.name}: {d.code} {d.message} at {d.span}" for d in diags]
        if [ts.name.text for ts in doc.tilesets] != [f.stem]:
            problems.append(f"{f.name}: must define exactly one tileset named {f.stem}")
        for ts in doc.tilesets:
            for t in ts.tiles:
                if t.id.text in tiles:
                    problems.append(f"{f.name}: tile {t.id.text} defined twice")
                tiles[t.id.text] = t
    return tiles, problems


CATALOGUE = read_catalogue()
TILES, READ_PROBLEMS = parse_tilesets()


# ------------------------------------------------------------------ what the catalogue says

def catalogue_exits(edge: str, code: str) -> list[str]:
    """Exit edges of a road entering by ``edge`` under a Rekee connection code (``[]`` = dead end)."""
    i = EDGES.index(edge)
    if code == "S3":
        return []
    m = re.fullmatch(r"J\((-?\d+),(-?\d+)\)", code)
    if m:
        return [EDGES[(i + 3 + int(m.group(k))) % 6] for k in (1, 2)]
    m = re.fullmatch(r"([SLR])([+-]?\d)", code)
    assert m, code
    v = int(m.group(2)) * (-1 if m.group(1) == "L" else 1)
    return [EDGES[(i + 3 + v) % 6]]


def expected_connections(row: dict[str, str]) -> set[frozenset[str]]:
    pairs: set[frozenset[str]] = set()
    for edge, code in zip(EDGES, row["connections"].split()):
        if code == "-":
            continue
        exits = catalogue_exits(edge, code)
        pairs |= {frozenset((edge, x)) for x in exits} if exits else {frozenset((edge, "end"))}
    return pairs


def expected_lanes(row: dict[str, str]) -> dict[str, int]:
    return {e: int(v[0]) for e, v in zip(EDGES, row["lanes"].split()) if v != "-"}


def expected_features(row: dict[str, str]) -> dict[str, object]:
    feats = row["features"].split()
    return {
        "limits": sorted({int(m.group(1)) for f in feats if (m := re.fullmatch(r"limit(\d)!?", f))}),
        "shortcuts": sorted(int(f[8:]) for f in feats if f.startswith("shortcut")),
        "jumps": sorted({int(f[4:]) for f in feats if f.startswith("jump")}),
        "water": "water" in feats,
        "climb": "climb" in feats,
    }


# ------------------------------------------------------------------ what the tileset says

def lanes_at(road: ast.RoadDef, at_entry: bool) -> int:
    """Lanes where the road meets its entry (or exit) edge: the zone touching that edge decides."""
    zones = road.zones
    if zones:
        z = zones[0] if at_entry else zones[-1]
        if isinstance(z, ast.Zone) and z.lanes is not None:
            return z.lanes
    return road.lanes or 2


def tile_connections(t: ast.TileDef) -> set[frozenset[str]]:
    return {frozenset((r.entry, r.exit)) for r in t.roads}


def tile_lanes(t: ast.TileDef) -> dict[str, int]:
    """Lanes per edge; where several roads share an edge (forks) the widest decides."""
    out: dict[str, int] = {}
    for r in t.roads:
        for edge, at_entry in ((r.entry, True), (r.exit, False)):
            if edge in EDGES:
                out[edge] = max(out.get(edge, 0), lanes_at(r, at_entry))
    return out


def tile_features(t: ast.TileDef) -> dict[str, object]:
    limits: set[int] = set()
    jumps: set[int] = set()
    shortcuts: list[int] = []
    water = climb = False
    for r in t.roads:
        for item in r.items:
            if isinstance(item, (ast.Zone, ast.Corner)):
                limits |= {v for v in (item.limits or ()) if v is not None}
                if isinstance(item, ast.Corner):
                    limits |= set(item.inside) | set(item.outside)
                if item.jump is not None:
                    jumps.add(item.jump)
                water = water or item.water
            elif isinstance(item, ast.LimitLine):
                limits.add(item.value)
            elif isinstance(item, ast.Shortcut):
                shortcuts.append(item.limit)
            elif isinstance(item, ast.Line) and item.kind == "climb":
                climb = True
    return {"limits": sorted(limits), "shortcuts": sorted(shortcuts), "jumps": sorted(jumps),
            "water": water, "climb": climb}


# ------------------------------------------------------------------ the comparison

def tile_problems(t: ast.TileDef, row: dict[str, str]) -> dict[str, str]:
    """Every way a tile side differs from its catalogue row, by check name."""
    out: dict[str, str] = {}
    if t.surface != row["terrain"]:
        out["surface"] = f"surface {t.surface}, catalogue {row['terrain']}"
    if set(t.danger) != {row["danger"]}:
        out["danger"] = f"danger {' '.join(t.danger)}, catalogue {row['danger']}"
    if (t.copies or 1) != int(row["copies"]) or t.copies is None:
        out["copies"] = f"copies {t.copies}, catalogue {row['copies']}"
    if tile_connections(t) != expected_connections(row):
        got = sorted("-".join(sorted(p)) for p in tile_connections(t))
        want = sorted("-".join(sorted(p)) for p in expected_connections(row))
        out["connections"] = f"roads {got}, catalogue {want}"
    for r in t.roads:
        if r.exit == "end":
            continue
        offset = (EDGES.index(r.exit) - EDGES.index(r.entry) - 3) % 6
        if r.turn is not None and TURN_OFFSET[r.turn] % 6 != offset:
            out["turn"] = f"road {r.entry} -> {r.exit} says {r.turn}"
        if not r.zones:
            out["zones"] = f"road {r.entry} -> {r.exit} has no zones"
        n = len(r.zones)
        for s in r.shortcuts:
            if not (1 <= s.from_zone < s.to_zone <= n):
                out["shortcut-zones"] = f"shortcut from {s.from_zone} to {s.to_zone} on a road of {n} zones"
    if tile_lanes(t) != expected_lanes(row):
        out["lanes"] = f"lanes {tile_lanes(t)}, catalogue {expected_lanes(row)}"
    have, want = tile_features(t), expected_features(row)
    if have["limits"] != want["limits"]:
        out["limits"] = f"limits {have['limits']}, catalogue {want['limits']}"
    if sorted(set(have["shortcuts"])) != sorted(set(want["shortcuts"])):
        out["shortcuts"] = f"shortcut limits {have['shortcuts']}, catalogue {want['shortcuts']}"
    elif len(have["shortcuts"]) != len(want["shortcuts"]):
        out["shortcut-count"] = f"{len(have['shortcuts'])} shortcuts, catalogue {len(want['shortcuts'])}"
    for key in ("jumps", "water", "climb"):
        if have[key] != want[key]:
            out[key] = f"{key} {have[key]}, catalogue {want[key]}"
    return out


def test_every_tileset_parses_without_diagnostics():
    """TRACK-TILE-01: one file per box, each parses cleanly and names its tileset after the file."""
    assert READ_PROBLEMS == []
    assert len(list(tilesets_dir().glob("*.rally"))) == 11


def test_tile_ids_are_the_catalogue_ids():
    """TRACK-TILE-01: every catalogue side is defined, and nothing else."""
    assert sorted(TILES) == sorted(CATALOGUE)
    assert len(TILES) == 271


BOXES = {
    "gt-core": ["101"] + [f"{n}{s}" for n in range(102, 121) for s in "ab"],
    "gt-championship": [f"{n}{s}" for n in range(121, 131) for s in "ab"],
    "gt-world-tour": [f"{n}{s}" for n in range(131, 139) for s in "ab"],
    "gt-team-challenge": [f"{n}{s}" for n in range(139, 151) for s in "ab"],
    "gt-adrenaline": [f"{n}{s}" for n in (151, 152, 153, 154, 901) for s in "ab"],
    "dirt-core": [f"{n}{s}" for n in range(201, 233) for s in "ab"],
    "dirt-110": [f"{n}{s}" for n in range(301, 325) for s in "ab"],
    "dirt-rx": [f"{n}{s}" for n in range(401, 416) for s in "ab"],
    "dirt-monte-carlo": ["416a", "416b", "417a", "417b"],
    "dirt-the-climb": [f"{n}{s}" for n in (325, 326, 418, 419) for s in "ab"],
    "scenery": [f"{n}{s}" for n in range(902, 906) for s in "ab"],
}


def test_each_box_holds_its_tile_range():
    """TRACK-TILE-06: copies are counted per box, so each tile must sit in its own box's file."""
    for box, ids in BOXES.items():
        doc, _ = parse((tilesets_dir() / f"{box}.rally").read_text(encoding="utf-8"), box)
        assert [t.id.text for t in doc.tilesets[0].tiles] == ids, box


@pytest.mark.parametrize("tile_id", sorted(CATALOGUE))
def test_tile_side_agrees_with_catalogue(tile_id):
    """TRACK-TILE-03/04/05/06: surface, danger, copies, connections, lanes and features of one side."""
    problems = tile_problems(TILES[tile_id], CATALOGUE[tile_id])
    allowed = ART_OVER_CATALOGUE.get(tile_id, {})
    assert {k: v for k, v in problems.items() if k not in allowed} == {}
    stale = set(allowed) - set(problems)
    assert not stale, f"{tile_id}: allow-list entries {stale} no longer differ; remove them"


def test_scenery_and_service_have_no_driving_road():
    """Fillers have no road; 201 (Assistance) is a dead end of one `service` zone."""
    for tid in ("101", "901a", "901b", "902a", "902b", "903a", "903b", "904a", "904b", "905a", "905b"):
        assert TILES[tid].roads == [], tid
    for tid in ("201a", "201b"):
        (road,) = TILES[tid].roads
        assert (road.entry, road.exit) == ("D", "end")
        assert [z.kind for z in road.zones] == ["service"]


def test_start_and_finish_tiles_have_one_line():
    """CORE-START: the start tiles (202, 301) carry the start line, the finish tiles (203, 302) the finish."""
    def lines(tid):
        return [i.kind for r in TILES[tid].roads for i in r.items if isinstance(i, ast.Line)]
    for tid in ("202a", "202b", "301a", "301b"):
        assert lines(tid) == ["start"], tid
    for tid in ("203a", "203b", "302a", "302b"):
        assert lines(tid) == ["finish"], tid


# ------------------------------------------------------------------ the checks can fail

def _edited(tile_id: str, old: str, new: str) -> ast.TileDef:
    """The tile as it would parse after a wrong edit of its tileset text."""
    for f in sorted(tilesets_dir().glob("*.rally")):
        text = f.read_text(encoding="utf-8")
        start = text.find(f"tile {tile_id} ")
        if start < 0:
            continue
        end = text.find("\n  }\n", start)
        block = text[start:end]
        assert old in block, (tile_id, old)
        doc, diags = parse(text[:start] + block.replace(old, new, 1) + text[end:], f.name)
        assert diags == []
        return next(t for ts in doc.tilesets for t in ts.tiles if t.id.text == tile_id)
    raise AssertionError(tile_id)


@pytest.mark.parametrize("tile_id,old,new,check", [
    ("217a", "corner inside 2 outside 3 3 3", "corner inside 2 outside 4 4 4", "limits"),
    ("217a", "road B -> D left60", "road B -> E left60", "connections"),
    ("217a", "danger low", "danger medium", "danger"),
    ("217a", "gravel", "asphalt", "surface"),
    ("217b", "shortcut 3 from 1 to 3", "shortcut 4 from 1 to 3", "shortcuts"),
    ("217b", "shortcut 3 from 1 to 3", "shortcut 3 from 1 to 9", "shortcut-zones"),
    ("205b", "plain jump 4", "plain jump 5", "jumps"),
    ("208b", "plain water", "plain", "water"),
    ("401b", "plain lanes 3\n      plain lanes 3", "plain\n      plain lanes 3", "lanes"),
    ("208a", "right60", "left60", "turn"),
    ("402a", "limitline 4", "limitline 5", "limits"),
    ("201a", "road D -> end", "road A -> end", "connections"),
    ("230a", "copies 1", "copies 2", "copies"),
])
def test_a_wrong_edit_is_caught(tile_id, old, new, check):
    """The comparison is not vacuous: each kind of wrong edit to a tile is reported."""
    edited = _edited(tile_id, old, new)
    assert check in tile_problems(edited, CATALOGUE[tile_id])


def test_removing_the_climb_lines_is_caught():
    """A climb tile without its climb lines is reported (one line less is still a climb tile)."""
    edited = _edited("419a", "climb\n", "")
    assert tile_problems(edited, CATALOGUE["419a"]) == {}
    edited.roads[0].items = [i for i in edited.roads[0].items if not isinstance(i, ast.Line)]
    assert "climb" in tile_problems(edited, CATALOGUE["419a"])
