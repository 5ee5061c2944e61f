"""Draw docs/img/architecture.svg from the table of docs/architecture.md: ``python docs/architecture.py``.

One box per part of the table, in the rows of :data:`ROWS` (top to bottom, the layers of docs/layers.md), each
box naming the part and the paths the table gives it. The same table gives the same bytes (no date, integer
coordinates), so ``tests/test_architecture.py`` checks the committed picture against the table.
"""

from __future__ import annotations

import re
import sys
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE = HERE / "architecture.md"
PICTURE = HERE / "img" / "architecture.svg"

#: the picture's rows, top to bottom; every part of the table is in one row
ROWS = [
    ["commands", "lsp", "facade"],
    ["table", "records", "analysis", "drivers"],
    ["core turn", "RX race's order of play", "variants", "custom races"],
    ["render", "interop", "suggest"],
    ["compilation"],
    ["checks"],
    ["compiler"],
    ["project"],
    ["language"],
    ["model"],
]
#: a row's frame and the words on it, for the rows that are one folder
ROW_NOTES = {2: "the referee: rules/ (and the custom races' table and records)"}

WIDTH = 1040
MARGIN = 20
GAP = 12
LINE = 15
MAX_PATHS = 8
CHAR = 6.7  # width of a character of the paths' monospace font at 11 px


def parts(page: str) -> dict[str, list[str]]:
    """The table between ``<!-- parts:start -->`` and ``<!-- parts:end -->``: part -> the paths of its row."""
    block = re.search(r"<!-- parts:start -->\n(.*?)<!-- parts:end -->", page, re.S)
    if block is None:
        raise ValueError("docs/architecture.md has no parts table")
    found: dict[str, list[str]] = {}
    for line in block.group(1).splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        found[cells[0]] = re.findall(r"`([^`]+)`", cells[1])
    return found


def _box(x: int, y: int, w: int, h: int, name: str, paths: list[str]) -> list[str]:
    shown = paths[:MAX_PATHS] + ([f"+{len(paths) - MAX_PATHS} more"] if len(paths) > MAX_PATHS else [])
    out = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="#ffffff" stroke="#333333"/>',
           f'<text x="{x + 8}" y="{y + 18}" class="part">{escape(name)}</text>']
    for i, path in enumerate(shown):
        path = path.removeprefix("rallyc/")  # the picture's paths are under rallyc/ (its caption says so)
        fitted = path if len(path) * CHAR <= w - 16 else "…" + path[-int((w - 16) / CHAR) + 1:]
        out.append(f'<text x="{x + 8}" y="{y + 36 + i * LINE}" class="path">{escape(fitted)}</text>')
    return out


def svg(table: dict[str, list[str]]) -> str:
    """The picture of ``table`` (part -> paths) in :data:`ROWS`, as SVG text."""
    placed = [p for row in ROWS for p in row]
    if sorted(placed) != sorted(table):
        raise ValueError(f"ROWS and the table differ: {sorted(set(placed) ^ set(table))}")
    body: list[str] = []
    y = MARGIN
    for r, row in enumerate(ROWS):
        h = 28 + max(min(len(table[p]), MAX_PATHS + 1) for p in row) * LINE
        if r in ROW_NOTES:  # a frame around the row, the note above its boxes
            body += [f'<rect x="{MARGIN - 8}" y="{y - 4}" width="{WIDTH - 2 * MARGIN + 16}" height="{h + 26}" rx="8" '
                     f'fill="#eef3fa" stroke="#8aa4c8"/>',
                     f'<text x="{MARGIN}" y="{y + 11}" class="note">{escape(ROW_NOTES[r])}</text>']
            y += 18
        w = (WIDTH - 2 * MARGIN - GAP * (len(row) - 1)) // len(row)
        for i, name in enumerate(row):
            body += _box(MARGIN + i * (w + GAP), y, w, h, name, table[name])
        y += h + (4 if r in ROW_NOTES else 0)
        if r < len(ROWS) - 1:
            mid = WIDTH // 2
            body.append(f'<path d="M {mid} {y + 3} L {mid} {y + GAP + 9}" class="down"/>')
            y += GAP + 14
    body.append(f'<text x="{MARGIN}" y="{y + 14}" class="note">paths in rallyc/ but grammar/; rows top to bottom as '
                'the layers of docs/layers.md</text>')
    height = y + 20 + MARGIN
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            "<style>.part{font-size:13px;font-weight:bold;fill:#111111}"
            ".path{font-size:11px;font-family:DejaVu Sans Mono, monospace;fill:#333333}"
            ".note{font-size:12px;font-style:italic;fill:#2d4a73}"
            ".down{stroke:#666666;stroke-width:2;fill:none;marker-end:url(#arrow)}</style>",
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="6" markerHeight="6" '
            'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#666666"/></marker></defs>',
            f'<rect width="{WIDTH}" height="{height}" fill="#fafafa"/>']
    return "\n".join(head + body + ["</svg>"]) + "\n"


def main() -> int:
    PICTURE.write_text(svg(parts(PAGE.read_text(encoding="utf-8"))), encoding="utf-8")
    print(PICTURE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
