"""What a print shop asks of a page: a bleed around the trimmed sheet and crop marks (``--bleed MM``).

The page, as drawn, is the trimmed sheet (A4...). ``with_crop_marks`` sets it on a larger sheet: the
bleed on every side (the sheet's white ground carried into it: the maps keep a white margin, so
nothing is cut off when the trim drifts), then a slug of ``SLUG`` mm holding the crop marks: at each
corner two thin black lines in line with the trim edges, starting ``bleed`` mm outside the trim so
that none prints on the trimmed page.
"""

from __future__ import annotations

import re

from rallyc.render.geometry import fmt

__all__ = ["SLUG", "with_crop_marks"]

#: the width (mm) of the band beyond the bleed that holds the crop marks
SLUG = 8.0
#: length and thickness (mm) of a crop mark
_MARK, _LINE = 5.0, 0.25

_LENGTH = re.compile(r'\b(width|height)="([\d.]+)mm"')


def with_crop_marks(svg: str, bleed: float) -> str:
    """``svg`` (a page written by the renderer, sized in mm) on a sheet ``bleed`` + ``SLUG`` mm larger on
    every side, with crop marks at the trim corners."""
    body = svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg
    head_end = body.index(">") + 1
    size = dict(_LENGTH.findall(body[:head_end]))
    if set(size) != {"width", "height"}:
        raise ValueError("a page sized in millimetres was expected")
    w, h = float(size["width"]), float(size["height"])
    pad = bleed + SLUG
    W, H = w + 2 * pad, h + 2 * pad
    # the page in the sheet's millimetres: its size as plain user units, set in at the bleed and slug
    head = re.sub(r'\b(width|height)="([\d.]+)mm"', r'\1="\2"', body[:head_end])
    inner = head.replace("<svg ", f'<svg x="{fmt(pad)}" y="{fmt(pad)}" ', 1) + body[head_end:]
    marks = []
    for x in (pad, pad + w):
        for y in (pad, pad + h):
            sx = -1 if x == pad else 1
            sy = -1 if y == pad else 1
            # one mark in line with each trim edge through the corner, outside the bleed
            marks.append(f"M{fmt(x)},{fmt(y + sy * bleed)}L{fmt(x)},{fmt(y + sy * (bleed + _MARK))}")
            marks.append(f"M{fmt(x + sx * bleed)},{fmt(y)}L{fmt(x + sx * (bleed + _MARK))},{fmt(y)}")
    bleed_box = (f'<rect class="bleed" fill="#ffffff" height="{fmt(h + 2 * bleed)}" width="{fmt(w + 2 * bleed)}" '
                 f'x="{fmt(SLUG)}" y="{fmt(SLUG)}" />')
    return (f'<?xml version="1.0" encoding="utf-8" ?>\n'
            f'<svg baseProfile="full" height="{fmt(H)}mm" version="1.1" viewBox="0 0 {fmt(W)} {fmt(H)}" '
            f'width="{fmt(W)}mm" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
            f'{bleed_box}{inner.rstrip()}'
            f'<path class="crop-marks" d="{"".join(marks)}" fill="none" stroke="#000000" '
            f'stroke-width="{fmt(_LINE)}" /></svg>\n')
