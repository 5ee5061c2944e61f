"""The rulebooks' ready-to-play designs fit the bundled tiles (TRACK-TILE-01, TRACK-TILE-02).

``tests/data/published-layouts.tsv`` (a copy of the shared data file) lists every placed tile of Rally 1-6, RX 1, RX 2,
Auto Tour 1 SS3 and Ice Track 1 with its rotation and its roads in *world* edges. Each tile id must
exist in the bundled tilesets, and its roads turned by the rotation (``own_to_world``) must be exactly
the roads listed there; on stages, the tile must have a road joining the step's entry and exit edges.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rallyc.geometry.hexgrid import own_to_world
from rallyc.project.loader import bundled_tilesets
from rallyc.tiles.catalogue import Catalogue

LAYOUTS = Path(__file__).parent / "data" / "published-layouts.tsv"

CATALOGUE = Catalogue.from_tilesets(bundled_tilesets())


def rows() -> list[dict[str, str]]:
    lines = [ln for ln in LAYOUTS.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def listed_pairs(roads: str) -> set[frozenset[str]]:
    """``C>F,F>C`` -> {C-F}; forks ``B>E/F`` -> {B-E, B-F}; ``D>end`` -> {D-end}."""
    pairs: set[frozenset[str]] = set()
    for part in filter(None, roads.split(",")):
        entry, exits = part.split(">")
        pairs |= {frozenset((entry, x)) for x in exits.split("/")}
    return pairs


def placed_pairs(tile_id: str, rot: int) -> set[frozenset[str]]:
    tile = CATALOGUE.get(tile_id)
    return {frozenset((own_to_world(r.entry, rot), "end" if r.exit == "end" else own_to_world(r.exit, rot)))
            for r in tile.roads}


ROWS = rows()


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['design']}:{r['tile']}@{r['q']},{r['r']}" for r in ROWS])
def test_published_tile_fits(row):
    """TRACK-TILE-02: the tile exists and its rotated roads are the published ones."""
    tile = CATALOGUE.get(row["tile"])
    assert tile is not None, f"{row['tile']} is not in the bundled tilesets"
    rot = int(row["rot"]) % 6
    assert placed_pairs(row["tile"], rot) == listed_pairs(row["roads"])
    if row["step"] not in ("-", ""):
        exit_ = "end" if row["exit"] == "-" else row["exit"]
        assert frozenset((row["entry"], exit_)) in placed_pairs(row["tile"], rot)


def test_every_design_is_covered():
    designs = {r["design"] for r in ROWS}
    assert len(designs) == 22
    assert {"RX 1", "RX 2", "Auto Tour 1 SS3", "Ice Track 1", "Rally 6 SS3"} <= designs
