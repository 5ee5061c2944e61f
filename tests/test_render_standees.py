"""RX standees on the map: each word (FINISH LINE, JOKER IN, JOKER OUT) is drawn beside its arch, never over
the arch or its end posts, on every circuit in examples/ (issue 13: RX labels not cut off)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.render.measure import measure, parse_path, rect_hits_polygon
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
CIRCUITS = ["rx-1", "rx-2", "ice-track-1", "track-1", "track-2"]


def _around(a: tuple[float, float], b: tuple[float, float], pad: float) -> list[tuple[float, float]]:
    """The arch from ``a`` to ``b`` with its posts: the segment widened by ``pad`` on every side."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    ux, uy = dx / n * pad, dy / n * pad
    return [(a[0] - ux - uy, a[1] - uy + ux), (b[0] + ux - uy, b[1] + uy + ux),
            (b[0] + ux + uy, b[1] + uy - ux), (a[0] - ux + uy, a[1] - uy - ux)]


@pytest.mark.parametrize("stem", CIRCUITS)
def test_standee_words_clear_their_arches(stem):
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    tracks = [t for d in compile_loaded(loaded).designs for t in d.tracks if getattr(t, "standees", ())]
    assert tracks, f"{stem} has no RX standee"
    for track in tracks:
        svg = render_map(track, Catalogue.from_tilesets(loaded.tilesets), title=stem, options=MapOptions(page="a4"))[0]
        page = measure(svg)
        arches = []
        for g in ET.fromstring(svg).iter(f"{SVG}g"):
            if g.get("class") == "standee":
                post = g.find(f"{SVG}circle")
                path = g.find(f"{SVG}path")
                assert post is not None and path is not None
                a, b = parse_path(path.get("d"))[:2]
                arches.append(_around(a, b, float(post.get("r"))))
        words = [t for t in page.texts if "standee-word" in t.classes]
        assert len(words) == len(arches) == len({(s.kind, s.at) for s in track.standees})
        for word in words:
            hit = [arch for arch in arches if rect_hits_polygon(word.x0, word.y0, word.x1, word.y1, arch)]
            assert not hit, f"{stem}: {word.text} drawn over a standee"
