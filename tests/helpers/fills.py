"""Which fills of a rendered map touch: the surfaces (tiles, roads, filled spaces, the Assistance area) whose
shapes share an edge, as (colour, pattern) pairs (issue 36's colour and pattern test).

The map is drawn again with each surface in a colour of its own (its number), no strokes and no
anti-aliasing, and nothing else; two surfaces share an edge where at least ``least`` pixel pairs side
by side show them (a corner touching gives a few). A surface's pattern is the ``<pattern>`` its fill
names (``url(#...pat-NAME)``: NAME), its colour the pattern's ground (its first ``<rect>``) or its fill.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections import Counter

SVG = "{http://www.w3.org/2000/svg}"
_DRAWN = {f"{SVG}{t}" for t in ("path", "circle", "rect", "text", "line", "polyline", "polygon", "ellipse", "use")}

Fill = tuple[str, str]  # (colour #rrggbb, pattern name or "")


def _is_surface(el: ET.Element, in_assistance: bool) -> bool:
    kinds = set((el.get("class") or "").split())
    fill = el.get("fill") or ""
    if el.tag != f"{SVG}path" or fill in ("", "none"):
        return False
    return bool({"hex", "road"} & kinds) or ("space" in kinds) or in_assistance


def _patterns(root: ET.Element) -> dict[str, str]:
    """Pattern id -> its ground colour."""
    out = {}
    for p in root.iter(f"{SVG}pattern"):
        ground = next((r.get("fill") for r in p.iter(f"{SVG}rect")), None)
        out[p.get("id") or ""] = ground or "#ffffff"
    return out


def fill_of(el: ET.Element, patterns: dict[str, str]) -> Fill:
    fill = el.get("fill") or ""
    if fill.startswith("url(#"):
        pid = fill[5:-1]
        return patterns[pid].lower(), pid.rpartition("pat-")[2]
    return fill.lower(), ""


def touching_fills(svg: str, dpi: float = 100.0, least: int = 6) -> Counter:
    """Pairs of different fills whose surfaces share an edge on the page: {(fill, fill): pixel pairs}."""
    # optional dependency (cairo), as the PDF export: the test extras have it
    import cairosvg
    from PIL import Image

    root = ET.fromstring(svg)
    patterns = _patterns(root)
    fills: list[Fill] = []

    def walk(el: ET.Element, in_assistance: bool, in_defs: bool) -> None:
        here = in_assistance or "assistance" in (el.get("class") or "").split()
        defs = in_defs or el.tag in (f"{SVG}defs", f"{SVG}pattern")
        if not defs and el.tag in _DRAWN:
            if _is_surface(el, here):
                fills.append(fill_of(el, patterns))
                n = len(fills)
                el.set("fill", f"#{n >> 16 & 255:02x}{n >> 8 & 255:02x}{n & 255:02x}")
                el.set("stroke", "none")
                el.set("shape-rendering", "crispEdges")
            else:
                el.set("display", "none")
        for child in el:
            walk(child, here, defs)

    walk(root, False, False)
    png = cairosvg.svg2png(bytestring=ET.tostring(root), dpi=dpi)
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    w, h = image.size
    px = image.load()
    index = [[0] * w for _ in range(h)]
    for y in range(h):
        row = index[y]
        for x in range(w):
            r, g, b, a = px[x, y]
            if a == 255:
                row[x] = (r << 16) | (g << 8) | b
    pairs: Counter = Counter()
    for y in range(h):
        row = index[y]
        below = index[y + 1] if y + 1 < h else None
        for x in range(w):
            a = row[x]
            if not a:
                continue
            for b in (row[x + 1] if x + 1 < w else 0, below[x] if below is not None else 0):
                if b and b != a and 0 < a <= len(fills) and 0 < b <= len(fills):
                    fa, fb = fills[a - 1], fills[b - 1]
                    if fa != fb:
                        pairs[tuple(sorted((fa, fb)))] += 1
    return Counter({k: v for k, v in pairs.items() if v >= least})
