"""The rally sheet printed: SVG pages (A4 landscape, the maps' fonts and colours; PDF through
:func:`rallyc.render.export.svgs_to_pdf`) and a self-contained HTML page.

Column widths are worked out from the text they hold with the renderer's generous estimate of a text's width
(:func:`rallyc.render.measure.text_width`), so nothing overlaps on paper; a sheet too wide for the page at the
smallest type it allows goes on several pages, the position and the driver repeated on each. Numbers are written
with a fixed format and nothing depends on the time or the machine: the same sheet gives the same bytes. Every
text from a record (names, titles) is XML-escaped.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

from rallyc.render import style
from rallyc.render.measure import text_width
from rallyc.table.sheet import Cell, Column, Row, Sheet

__all__ = ["sheet_svgs", "sheet_html", "sheet_table_html", "PAGE_MM"]

#: A4 landscape, in mm
PAGE_MM = (297.0, 210.0)
MARGIN = 12.0
#: type sizes in mm at full size: the title, the line under it, a cell's main line, its notes, the heads
TITLE, SUBTITLE, MAIN, NOTE, HEAD = 6.0, 3.4, 3.6, 2.6, 3.2
#: the smallest the table's type may be scaled to before it goes on more pages
MIN_SCALE = 0.7
PAD = 2.0
BAND = "#f0f0f0"
RULE = "#999999"


def _n(v: float) -> str:
    """A length as written: two decimals at most, no trailing zeros."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _colour(c: str) -> str:
    """A record's colour name as the maps draw it (grey when unknown)."""
    c = c.lower()
    if c in style.CAR_COLOURS:
        return style.CAR_COLOURS[c]
    if c.startswith("#") and len(c) in (4, 7) and all(ch in "0123456789abcdef" for ch in c[1:]):
        return c
    return "#8a8a8a"


@dataclass(frozen=True)
class _Layout:
    """Widths of the position column, the driver column and each sheet column (mm at full size)."""

    pos: float
    name: float
    cols: tuple[float, ...]


def _cell_width(cell: Cell) -> float:
    return max([text_width(cell.main, MAIN, bold=True)] + [text_width(t, NOTE) for t in cell.notes]) + 2 * PAD


def _widths(sheet: Sheet) -> _Layout:
    pos = max([text_width("Pos", HEAD, bold=True)] + [text_width(r.position, MAIN, bold=True) for r in sheet.rows]) \
        + 2 * PAD
    name = max([text_width("Driver", HEAD, bold=True)] + [text_width(r.name, MAIN, bold=True) + 6 for r in sheet.rows]) \
        + 2 * PAD
    cols = []
    for k, col in enumerate(sheet.columns):
        w = max(text_width(col.head, HEAD, bold=True), text_width(col.sub, NOTE)) + 2 * PAD
        for r in sheet.rows:
            if k < len(r.cells):
                w = max(w, _cell_width(r.cells[k]))
        cols.append(w)
    return _Layout(pos, name, tuple(cols))


def _pages_of_columns(layout: _Layout, width: float) -> list[list[int]]:
    """The sheet's columns grouped into pages: all on one when they fit at :data:`MIN_SCALE` or more."""
    fixed = layout.pos + layout.name
    if (fixed + sum(layout.cols)) * MIN_SCALE <= width:
        return [list(range(len(layout.cols)))]
    pages: list[list[int]] = [[]]
    used = fixed
    for k, w in enumerate(layout.cols):
        if pages[-1] and (used + w) * MIN_SCALE > width:
            pages.append([])
            used = fixed
        pages[-1].append(k)
        used += w
    return pages


def _wrap(text: str, size: float, width: float, most: int = 3) -> list[str]:
    """``text`` in lines no wider than ``width`` at ``size`` (cut at spaces; a word too long for a line, or a
    line beyond the ``most``-th, is shortened with an ellipsis)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size, bold=True) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] += " ..."
    out = []
    for line in lines:
        while len(line) > 1 and text_width(line, size, bold=True) > width:
            line = line[:-5].rstrip() + " ..."
        out.append(line)
    return out or [""]


def _row_height(rows: Sequence[Row], cols: Sequence[int]) -> float:
    notes = max([len(r.cells[k].notes) for r in rows for k in cols if k < len(r.cells)], default=0)
    return MAIN * 1.5 + notes * NOTE * 1.3 + PAD


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "start", bold: bool = False,
          fill: str = style.TEXT, cls: str = "") -> str:
    weight = ' font-weight="bold"' if bold else ""
    klass = f' class="{cls}"' if cls else ""
    return (f'<text{klass} x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}"{weight} '
            f'fill="{fill}">{_esc(text)}</text>')


def sheet_svgs(sheet: Sheet, source: str = "") -> list[str]:
    """The sheet as SVG pages, A4 landscape; ``source`` (a file name) is printed at the foot of each page."""
    pw, ph = PAGE_MM
    width = pw - 2 * MARGIN
    layout = _widths(sheet)
    groups = _pages_of_columns(layout, width)
    pages = []
    for n, cols in enumerate(groups, start=1):
        pages.append(_page(sheet, layout, cols, n, len(groups), source))
    return pages


def _anchor(col: Column, left: float, right: float, scale: float) -> tuple[float, str]:
    """Where a column's texts stand: numbers against its right edge, words against its left."""
    return (right - PAD * scale, "end") if col.numeric else (left + PAD * scale, "start")


def _page(sheet: Sheet, layout: _Layout, cols: list[int], n: int, total: int, source: str) -> str:
    pw, ph = PAGE_MM
    width = pw - 2 * MARGIN
    used = layout.pos + layout.name + sum(layout.cols[k] for k in cols)
    scale = min(1.0, width / used)
    main, note, head = MAIN * scale, NOTE * scale, HEAD * scale
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(pw)}mm" height="{_n(ph)}mm" '
           f'viewBox="0 0 {_n(pw)} {_n(ph)}" font-family="{style.FONT}">',
           f"<title>{_esc(sheet.title)} - rally sheet, page {n} of {total}</title>",
           f'<rect x="0" y="0" width="{_n(pw)}" height="{_n(ph)}" fill="#ffffff"/>',
           ]
    y = MARGIN
    for line in _wrap(sheet.title, TITLE, width):
        out.append(_text(MARGIN, y + TITLE * 0.8, line, TITLE, bold=True, cls="sheet-title"))
        y += TITLE * 1.2
    out.append(_text(MARGIN, y + SUBTITLE * 1.1, f"{sheet.kind} - rally sheet", SUBTITLE,
                     fill=style.MUTED, cls="sheet-kind"))
    y += SUBTITLE * 2.1 + 3.0
    # the edges of the columns: position, driver, then the sheet's
    edges = [MARGIN, MARGIN + layout.pos * scale, MARGIN + (layout.pos + layout.name) * scale]
    for k in cols:
        edges.append(edges[-1] + layout.cols[k] * scale)
    head_h = head * 1.4 + note * 1.4 + PAD * scale
    out.append('<g class="sheet-head">')
    out.append(_text(edges[0] + PAD * scale, y + head * 1.1, "Pos", head, bold=True))
    out.append(_text(edges[1] + PAD * scale, y + head * 1.1, "Driver", head, bold=True))
    for i, k in enumerate(cols):
        col: Column = sheet.columns[k]
        at, anchor = _anchor(col, edges[i + 2], edges[i + 3], scale)
        out.append(_text(at, y + head * 1.1, col.head, head, anchor=anchor, bold=True))
        if col.sub:
            out.append(_text(at, y + head * 1.1 + note * 1.3, col.sub, note, anchor=anchor, fill=style.MUTED))
    out.append("</g>")
    y += head_h
    out.append(f'<path class="sheet-rule" d="M{_n(edges[0])} {_n(y)}H{_n(edges[-1])}" stroke="{RULE}" '
               f'stroke-width="0.4" fill="none"/>')
    rh = _row_height(sheet.rows, cols) * scale
    for r, row in enumerate(sheet.rows):
        out.append(f'<g class="sheet-row" data-player="{_esc(row.name)}">')
        if r % 2 == 1:
            out.append(f'<rect class="sheet-band" x="{_n(edges[0])}" y="{_n(y)}" width="{_n(edges[-1] - edges[0])}" '
                       f'height="{_n(rh)}" fill="{BAND}"/>')
        base = y + PAD * scale / 2 + main * 1.05
        out.append(_text(edges[0] + PAD * scale, base, row.position, main, bold=True, cls="sheet-pos"))
        sw = 4 * scale
        out.append(f'<rect class="sheet-swatch" x="{_n(edges[1] + PAD * scale)}" y="{_n(base - main * 0.72)}" '
                   f'width="{_n(sw)}" height="{_n(main * 0.72)}" fill="{_colour(row.colour)}" stroke="#000000" '
                   f'stroke-width="0.2"/>')
        out.append(_text(edges[1] + PAD * scale + sw + 2 * scale, base, row.name, main, bold=True, cls="sheet-name"))
        for i, k in enumerate(cols):
            if k >= len(row.cells):
                continue
            cell = row.cells[k]
            at, anchor = _anchor(sheet.columns[k], edges[i + 2], edges[i + 3], scale)
            out.append(_text(at, base, cell.main, main, anchor=anchor, bold=True, cls="sheet-main"))
            for j, line in enumerate(cell.notes, start=1):
                out.append(_text(at, base + j * note * 1.3, line, note, anchor=anchor, fill=style.MUTED,
                                 cls="sheet-note"))
        out.append("</g>")
        y += rh
    out.append(f'<path class="sheet-rule" d="M{_n(edges[0])} {_n(y)}H{_n(edges[-1])}" stroke="{RULE}" '
               f'stroke-width="0.4" fill="none"/>')
    y += 5.0
    for note_text in sheet.notes:
        for line in _wrap(note_text, NOTE, width, most=4):
            out.append(_text(MARGIN, y, line, NOTE, fill="#b00000", cls="sheet-notes"))
            y += NOTE * 1.5
    foot = f"rallyc sheet{' - ' + source if source else ''} - page {n} of {total}"
    out.append(_text(MARGIN, ph - MARGIN / 2, foot, NOTE, fill=style.MUTED, cls="sheet-foot"))
    out.append("</svg>")
    return '<?xml version="1.0" encoding="utf-8" ?>\n' + "\n".join(out) + "\n"


def sheet_table_html(sheet: Sheet) -> str:
    """The sheet as an HTML ``<table>`` (escaped; the server's page shows it as it is)."""
    out = ['<table class="sheet">', "<thead><tr><th>Pos</th><th>Driver</th>"]
    for col in sheet.columns:
        klass = ' class="num"' if col.numeric else ""
        out.append(f'<th{klass}>{_esc(col.head)}<br><small>{_esc(col.sub)}</small></th>')
    out.append("</tr></thead><tbody>")
    for row in sheet.rows:
        out.append(f'<tr data-player="{_esc(row.name)}"><td class="pos">{_esc(row.position)}</td>'
                   f'<td class="name"><span class="swatch" style="background:{_colour(row.colour)}"></span>'
                   f"{_esc(row.name)}</td>")
        for col, cell in zip(sheet.columns, row.cells):
            notes = "".join(f"<br><small>{_esc(t)}</small>" for t in cell.notes)
            klass = ' class="num"' if col.numeric else ""
            out.append(f'<td{klass}><b>{_esc(cell.main)}</b>{notes}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    out += [f'<p class="sheet-note">{_esc(line)}</p>' for line in sheet.notes]
    return "\n".join(out)


#: the sheet's style, shared by the HTML page and the server's page
SHEET_CSS = """table.sheet { border-collapse: collapse; background: #fff; font-size: 14px; }
table.sheet th, table.sheet td { border-bottom: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }
table.sheet th { text-align: left; border-bottom: 2px solid #999; }
table.sheet .num { text-align: right; font-variant-numeric: tabular-nums; }
table.sheet tbody tr:nth-child(even) { background: #f0f0f0; }
table.sheet small { color: #555; font-weight: normal; }
table.sheet .swatch { display: inline-block; width: 14px; height: 10px; border: 1px solid #000; margin-right: 6px; }
.sheet-note { color: #b00; }"""


def sheet_html(sheet: Sheet, source: str = "") -> str:
    """The sheet as one self-contained HTML page (prints on A4 landscape)."""
    foot = f"rallyc sheet{' - ' + _esc(source) if source else ''}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{_esc(sheet.title)} - rally sheet</title>
<style>
body {{ font-family: {style.FONT}; color: #111; margin: 16px; }}
h1 {{ font-size: 22px; margin: 0 0 2px 0; }}
.kind {{ color: #555; margin: 0 0 12px 0; }}
footer {{ color: #555; font-size: 12px; margin-top: 12px; }}
@page {{ size: A4 landscape; margin: 12mm; }}
{SHEET_CSS}
</style>
</head>
<body>
<h1>{_esc(sheet.title)}</h1>
<p class="kind">{_esc(sheet.kind)} - rally sheet</p>
{sheet_table_html(sheet)}
<footer>{foot}</footer>
</body>
</html>
"""
