"""What the language server knows about a document, without the protocol.

Everything here takes source text and a 0-based (line, character) position and
returns plain values (rallyc :class:`~rallyc.diagnostics.Diagnostic`, small
dataclasses), so it is tested without a client and the server
(:mod:`rallyc.lsp.server`) only translates to LSP types.

Columns: rallyc spans count code points from 1; the server converts to UTF-16.
A document being typed often does not parse; completion then reads the block
around the cursor on its own (:func:`block_at`), with the current line left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rallyc.project.config import ConfigError, load_config
from rallyc.diagnostics import Diagnostic, Span, sorted_diagnostics
from rallyc.lsp.checking import check_text, option_specs
from rallyc.data.resources import tilesets_dir
from rallyc.syntax import ast

if TYPE_CHECKING:  # for annotations only (the loader is imported where used)
    from rallyc.project.loader import Loaded

__all__ = ["Document", "Block", "Item", "HoverInfo", "Symbol", "Fix", "check_document", "block_at", "completions",
           "hover", "definition", "symbols", "format_document", "code_actions", "KEYWORDS"]

#: statements that may start a line, by the block they are in (``top`` = outside any block)
KEYWORDS: dict[str, tuple[str, ...]] = {
    "top": ("use", "boxes", "tileset", "stage", "rally", "circuit", "area"),
    "rally": ("stage", "options", "source", "note", "author"),
    "stage": ("scenery", "token", "source", "note", "author", "area", "junction", "from"),
    "area": ("scenery", "source", "note", "author"),
    "circuit": ("laps", "standee", "joker", "pregrid", "options", "scenery", "token", "source", "note", "author"),
    "tileset": ("tile",),
    "tile": ("road",),
    "road": ("plain", "slide", "wide", "half", "junction", "corner", "limited", "service", "limitline", "start",
             "finish", "checkered", "climb", "shortcut"),
}
TOKEN_KINDS = ("water", "jump", "chicane", "haybale", "mud", "climb-ascent", "climb-descent", "cloud", "oxygen")
STEP_WORDS = ("left", "right", "straight", "reversed", "road", "at")
STANDEES = ("finish", "joker-entry", "joker-exit")

_TILE = re.compile(r"\b\d{3}[ab]?\b", re.I)
_CODE = re.compile(r"\bRC\d{3}\b", re.I)


@dataclass
class Document:
    """An open document: its text, its file (None: unsaved), and what the last check found."""

    text: str
    path: Path | None
    display: str
    loaded: Loaded | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def base_dir(self) -> Path:
        return self.path.parent if self.path else Path.cwd()

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


@dataclass(frozen=True)
class Item:
    """A completion: the text to insert, its kind (keyword, tile, word, value, position) and what it is."""

    label: str
    kind: str
    detail: str = ""
    documentation: str = ""
    sort: str = ""
    insert: str | None = None


@dataclass(frozen=True)
class HoverInfo:
    """Markdown text for the word at a position, and the 0-based (line, start, end) it covers."""

    text: str
    line: int
    start: int
    end: int


@dataclass
class Symbol:
    """A rally, stage, circuit, tileset or tile, with its span and children."""

    name: str
    kind: str
    detail: str
    span: Span
    name_span: Span | None
    children: list["Symbol"] = field(default_factory=list)


@dataclass(frozen=True)
class Fix:
    """A code action: its title, the diagnostic it fixes, and (0-based line, start, end, new text) edits."""

    title: str
    diagnostic: Diagnostic
    edits: tuple[tuple[int, int, int, int, str], ...]
    preferred: bool = False


# ------------------------------------------------------------------ diagnostics


def check_document(doc: Document) -> list[Diagnostic]:
    """The diagnostics ``rallyc check`` gives for this text (includes read from disk), in order."""
    doc.loaded, diags = check_text(doc.text, doc.display, doc.base_dir)
    doc.diagnostics = sorted_diagnostics(dict.fromkeys(diags))
    return doc.diagnostics


# ------------------------------------------------------------------ where the cursor is


@dataclass
class Block:
    """The blocks open at a line: kinds from outermost, and the line (0-based) where the innermost opened."""

    kinds: list[str]
    starts: list[int]
    headers: list[str]

    @property
    def kind(self) -> str:
        return self.kinds[-1] if self.kinds else "top"

    @property
    def start(self) -> int:
        return self.starts[-1] if self.starts else -1


_STRING = re.compile(r'"([^"\\\n]|\\.)*"')


def _code(line: str) -> str:
    """A line without strings (blanked) and comments."""
    line = _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', line)
    return line.split("#", 1)[0]


def block_at(lines: list[str], line: int) -> Block:
    """The blocks open at the start of ``line`` (braces counted on the lines above it)."""
    kinds: list[str] = []
    starts: list[int] = []
    headers: list[str] = []
    for n, raw in enumerate(lines[:line]):
        code = _code(raw)
        for part in re.split(r"([{}])", code):
            if part == "{":
                words = code.split("{", 1)[0].split()
                kinds.append(words[0] if words and words[0] in KEYWORDS else "block")
                starts.append(n)
                headers.append(code.split("{", 1)[0].strip())
            elif part == "}" and kinds:
                kinds.pop()
                starts.pop()
                headers.pop()
    return Block(kinds, starts, headers)


def _stage_before(doc: Document, block: Block, line: int) -> ast.Stage | ast.Circuit | None:
    """The stage (or circuit) around ``line`` as written above it, parsed on its own (lines that do not parse
    are left out)."""
    # start-up: the parser (lark) only when text is read
    from rallyc.syntax.parser import parse

    body = doc.lines[block.start + 1:line]
    header = block.headers[-1]
    keep = list(range(len(body)))
    for _ in range(8):
        text = header + " {\n" + "\n".join(body[i] for i in keep) + "\n}\n"
        parsed, diags = parse(text, doc.display)
        found = parsed.stages or parsed.circuits
        if found and not any(d.code.startswith("RC1") and d.severity.value == "error" for d in diags):
            return found[0]
        bad = {d.span.line - 2 for d in diags if d.span is not None}
        drop = [keep[b] for b in sorted(bad) if 0 <= b < len(keep)]
        if not drop:
            return found[0] if found else None
        keep = [k for k in keep if k not in drop]
    return None


def _block_below(lines: list[str], line: int) -> list[str]:
    """The lines after ``line`` up to the line that closes the block open at ``line`` (braces counted)."""
    depth = 0
    out: list[str] = []
    for raw in lines[line + 1:]:
        code = _code(raw)
        depth += code.count("{") - code.count("}")
        if depth < 0:
            break
        out.append(raw)
    return out


def _scenery_below(doc: Document, block: Block, line: int) -> list[ast.Scenery]:
    """The ``scenery`` lines of the stage below ``line``: the cells they hold are taken for the next tile too (a
    published design lists its scenery after the route)."""
    # start-up: the parser (lark) only when text is read
    from rallyc.syntax.parser import parse

    below = [raw for raw in _block_below(doc.lines, line) if _code(raw).split()[:1] == ["scenery"]]
    if not below:
        return []
    parsed, _ = parse(block.headers[-1] + " {\n" + "\n".join(below) + "\n}\n", doc.display)
    found = parsed.stages or parsed.circuits
    return found[0].scenery if found else []


def _catalogue(doc: Document):
    # start-up: the parser (lark) only when a file is read
    from rallyc.project.loader import load_text
    from rallyc.tiles.catalogue import Catalogue

    loaded = doc.loaded
    if loaded is None:
        loaded = load_text(doc.text, doc.display, base_dir=doc.base_dir)
    return Catalogue.from_tilesets(loaded.tilesets), loaded


def _boxes(loaded, folder: Path) -> list[str] | None:
    """The file's ``boxes`` lines (a box listed twice holds twice its tiles), else the settings' default boxes (as
    ``rallyc check`` takes them)."""
    names = [b.text for d in loaded.documents for bx in d.boxes for b in bx.names]
    if names:
        return names
    try:
        boxes = load_config(folder).boxes
    except ConfigError:
        return None
    return list(boxes) if boxes else None


# ------------------------------------------------------------------ completion


def completions(doc: Document, line: int, character: int) -> list[Item]:
    """What may be written at this position: keywords, tile ids from ``suggest``, words, token kinds, positions."""
    lines = doc.lines
    text = lines[line][:character] if line < len(lines) else ""
    code = _code(text)
    if "#" in text.split('"')[0]:
        return []
    words = code.split()
    partial = "" if code.endswith((" ", "\t")) or not code.strip() else words[-1]
    before = words[:-1] if partial else words
    block = block_at(lines, line)
    kind = block.kind
    if not before:
        items = [Item(k, "keyword", f"a statement in {'the file' if kind == 'top' else 'a ' + kind}")
                 for k in KEYWORDS.get(kind, ())]
        if kind in ("stage", "circuit"):
            items = _tile_items(doc, block, line) + items
        return items
    head = before[0]
    if head == "use" and len(before) == 1:
        return [Item(n, "value", "a bundled tileset") for n in _tileset_names(doc)]
    if head == "boxes":
        return [Item(n, "value", "a box") for n in _tileset_names(doc) if n not in before]
    if head == "options":
        return _option_items(before)
    if head == "token":
        if len(before) == 1:
            return [Item(k, "value", "a token kind") for k in TOKEN_KINDS]
        if before[-1] == "at":
            return _position_items(doc, block, line)
        return [Item("at", "keyword", "where the token lies: at STEP.ZONE[.LANE]")]
    if head == "standee":
        if len(before) == 1:
            return [Item(k, "value", "an RX standee") for k in STANDEES]
        if before[-1] == "at":
            return _position_items(doc, block, line)
        return [Item("at", "keyword", "the line at the entry of a zone: at STEP.ZONE")]
    if kind in ("stage", "circuit") and _TILE.fullmatch(head):
        if before[-1] in ("road", "at", "rot"):
            return []
        said = set(before[1:])
        return [Item(w, "keyword", _WORD_HELP[w]) for w in STEP_WORDS if w not in said]
    return []


_WORD_HELP = {
    "left": "the road turns left as driven (picks the direction of a bend)",
    "right": "the road turns right as driven",
    "straight": "a straight or s-bend road",
    "reversed": "driven from its printed exit to its printed entry",
    "road": "road N: which road of a tile with several",
    "at": "at Q R rot N: an absolute cell and rotation",
}


def _tileset_names(doc: Document) -> list[str]:
    # start-up: the parser (lark) only when a file is read
    from rallyc.project.loader import bundled_tilesets

    names = set(bundled_tilesets())
    if doc.loaded is not None:
        names |= set(doc.loaded.tilesets)
    return sorted(names)


def _option_items(before: list[str]) -> list[Item]:
    specs = option_specs()
    last = before[-1].rstrip(",")
    if last in specs and not before[-1].endswith(",") and specs[last].values:
        return [Item(v, "value", f"a value of {last}") for v in specs[last].values]
    said = {w.rstrip(",") for w in before[1:]}
    return [Item(n, "keyword", s.description, "; ".join(s.rules)) for n, s in sorted(specs.items()) if n not in said]


def _tile_items(doc: Document, block: Block, line: int) -> list[Item]:
    """Tile ids that can follow the last step above the cursor, from :func:`rallyc.suggest.suggest_stage`."""
    # start-up: the route search only when a route is suggested
    from rallyc.suggest import SuggestError, suggest_stage

    stage = _stage_before(doc, block, line)
    if stage is None or not isinstance(stage, ast.Stage):
        return []
    scenery = _scenery_below(doc, block, line)
    if scenery:
        stage = replace(stage, items=[*stage.items, *scenery])
    catalogue, loaded = _catalogue(doc)
    try:
        result = suggest_stage(stage, catalogue, None, _boxes(loaded, doc.base_dir))
    except SuggestError:
        return []
    items = []
    for n, s in enumerate(x for x in result.suggestions if x.legal):
        notes = ", ".join(s.adds) or s.turn
        if not s.length_ok:
            notes += "; outside the length class"
        items.append(Item(s.text, "tile", f"{s.turn}: {notes}",
                          f"{s.tile} ({s.surface}, danger {'/'.join(dict.fromkeys(s.danger))}, box {s.box}) on cell "
                          f"{s.q} {s.r} rot {s.rot}; spaces {s.spaces[0]}-{s.spaces[1]}; finish {s.finish.value}"
                          + (f"; {s.copies_left} cop{'y' if s.copies_left == 1 else 'ies'} left"
                             if s.copies_left is not None else ""), f"{n:04d}"))
    return items


def _position_items(doc: Document, block: Block, line: int) -> list[Item]:
    """``STEP.ZONE`` for every zone of every step written above the cursor (as the tiles' roads are driven)."""
    # start-up: the compiler (networkx) only when a file is compiled
    from rallyc.compiler.placement import place_route

    stage = _stage_before(doc, block, line)
    if stage is None:
        return []
    catalogue, _ = _catalogue(doc)
    if any(catalogue.get(s.tile.text) is None for s in stage.steps):
        return []
    placement = place_route(stage.steps, [], catalogue)
    out = []
    for ps in placement.steps:
        for z in ps.driven.zones:
            extra = f", jump {z.jump}" if z.jump else ", water" if z.water else ""
            out.append(Item(f"{ps.index}.{z.index}", "position", f"step {ps.index} ({ps.info.id}) zone {z.index}: "
                            f"{z.kind}, {z.lanes} lanes{extra}", sort=f"{ps.index:03d}.{z.index:02d}"))
    return out


# ------------------------------------------------------------------ hover


def _word_at(text: str, character: int, pattern: re.Pattern) -> re.Match | None:
    for m in pattern.finditer(text):
        if m.start() <= character <= m.end():
            return m
    return None


def hover(doc: Document, line: int, character: int) -> HoverInfo | None:
    """A tile id (its definition and, on a step, the spaces it adds) or a code (``explain``)."""
    lines = doc.lines
    if line >= len(lines):
        return None
    text = lines[line]
    m = _word_at(text, character, _CODE)
    if m:
        # start-up: the codes' explain texts only when the editor asks for one
        from rallyc.codes.explain import explain_text

        explained = explain_text(m.group())
        if explained:
            return HoverInfo("```\n" + explained.rstrip() + "\n```", line, m.start(), m.end())
    m = _word_at(_code(text), character, _TILE)
    if not m:
        return None
    catalogue, _ = _catalogue(doc)
    info = catalogue.get(m.group())
    if info is None:
        return None
    body = "```\n" + info.describe().rstrip() + "\n```"
    step = _step_figures(doc, line, m.group())
    if step:
        body += "\n\n" + step
    return HoverInfo(body, line, m.start(), m.end())


def _step_figures(doc: Document, line: int, tile: str) -> str | None:
    """On a route step: the spaces it adds and the running shortest/longest line from the first step."""
    # start-up: the route search only when a route is suggested
    from rallyc.suggest import road_features, road_spaces

    block = block_at(doc.lines, line)
    if block.kind != "stage":
        return None
    stage = _stage_before(doc, block, line + 1)
    if stage is None or not stage.steps or stage.steps[-1].tile.text.lower() != tile.lower():
        return None
    # start-up: the compiler (networkx) only when a file is compiled
    from rallyc.compiler.placement import place_route

    catalogue, _ = _catalogue(doc)
    if any(catalogue.get(s.tile.text) is None for s in stage.steps):
        return None
    placement = place_route(stage.steps, [], catalogue)
    if not placement.steps or placement.steps[-1].index != len(stage.steps):
        return None
    short = long_ = 0
    for ps in placement.steps:
        a, b = road_spaces(ps.driven)
        short, long_ = short + a, long_ + b
    last = placement.steps[-1]
    a, b = road_spaces(last.driven)
    adds = ", ".join(road_features(last.driven)) or last.driven.turn
    return (f"**step {last.index}**: {last.driven.turn} on cell {last.cell.q} {last.cell.r} rot {last.rot}; "
            f"adds {a}-{b} spaces ({adds}); running line from step 1: shortest {short}, longest {long_} spaces "
            "(one space per zone, corners inside/outside, shortcuts taken)")


# ------------------------------------------------------------------ definition


def definition(doc: Document, line: int, character: int) -> tuple[Path, int, int] | None:
    """(file, 0-based line, column) of what the word at the position names: an included file or a tile."""
    lines = doc.lines
    if line >= len(lines):
        return None
    text = lines[line]
    m = re.match(r'\s*use\s+"([^"]+)"', text)
    if m and m.start(1) - 1 <= character <= m.end(1) + 1:
        return (doc.base_dir / m.group(1)).resolve(), 0, 0
    m = _word_at(_code(text), character, _TILE)
    if not m:
        return None
    catalogue, loaded = _catalogue(doc)
    info = catalogue.get(m.group())
    if info is None or info.definition.span is None:
        return None
    span = info.definition.span
    return _file_of(span.file, doc), span.line - 1, span.column - 1


def _file_of(display: str, doc: Document) -> Path:
    """The file on disk a span names (bundled tilesets are in the installed package)."""
    if display.startswith("<bundled>/tilesets/"):
        return tilesets_dir() / display.rsplit("/", 1)[1]
    if display == doc.display and doc.path is not None:
        return doc.path
    p = Path(display)
    return p if p.is_absolute() else (Path.cwd() / p).resolve()


# ------------------------------------------------------------------ symbols, formatting, fixes


def symbols(doc: Document) -> list[Symbol]:
    """Rallies (with their stages), one-off stages, circuits and tilesets (with their tiles), in file order."""
    # start-up: the parser (lark) only when text is read
    from rallyc.syntax.parser import parse

    parsed, _ = parse(doc.text, doc.display)
    out = []
    for item in parsed.items:
        if isinstance(item, ast.Rally):
            out.append(Symbol(item.title, "rally", f"{len(item.stages)} stage(s)", item.span, item.span,
                              [_stage_symbol(s) for s in item.stages]))
        elif isinstance(item, ast.Stage):
            out.append(_stage_symbol(item))
        elif isinstance(item, ast.Circuit):
            out.append(Symbol(item.title, "circuit", f"{len(item.steps)} tiles", item.span, item.span))
        elif isinstance(item, ast.Tileset):
            out.append(Symbol(item.name.text, "tileset", item.title or "", item.span, item.name.span,
                              [Symbol(t.id.text, "tile", f"{t.surface}, {len(t.roads)} road(s)", t.span, t.id.span)
                               for t in item.tiles]))
    return out


def _stage_symbol(s: ast.Stage) -> Symbol:
    return Symbol(s.name.text, "stage", f"{len(s.steps)} steps" + (f": {s.title}" if s.title else ""), s.span,
                  s.name.span)


def format_document(doc: Document) -> str | None:
    """The text ``rallyc fmt`` would write, or None when the text does not parse (or is already formatted)."""
    # start-up: the parser (lark) only when text is read
    from rallyc.syntax.formatter import format_text

    new, _ = format_text(doc.text, doc.display)
    return None if new is None or new == doc.text else new


_QUOTED = re.compile(r"`([^`]+)`")
_WORD = re.compile(r"[A-Za-z0-9_\-]+")


def _closest_word(line: str, start: int, end: int, choice: str) -> tuple[int, int]:
    """The columns of the word in ``line[start:end]`` that most looks like ``choice`` (the one a did-you-mean
    replaces: the span of ``use dirt-cor`` is the whole statement, the fix replaces ``dirt-cor``)."""
    from difflib import SequenceMatcher

    words = [m for m in _WORD.finditer(line, start, end)]
    if not words:
        return start, end
    best = max(words, key=lambda m: (SequenceMatcher(None, m.group(), choice).ratio(), -m.start()))
    return best.start(), best.end()


def code_actions(doc: Document, diagnostics: list[Diagnostic]) -> list[Fix]:
    """Fixes the hints name: a did-you-mean (tile, tileset, option value), the `at` an RC205 hint
    proposes, a missing `laps`."""
    out: list[Fix] = []
    lines = doc.lines
    for d in diagnostics:
        s = d.span
        if s is None or s.file != doc.display or not d.hint or s.line > len(lines):
            continue
        l0, c0 = s.line - 1, s.column - 1
        c1 = s.end_column - 1 if s.end_line == s.line else len(lines[l0])
        if "did you mean" in d.hint:
            tail = d.hint.split("did you mean", 1)[1].split("?")[0]
            for n, choice in enumerate(_QUOTED.findall(tail)):
                a, b = _closest_word(lines[l0], c0, c1, choice)
                out.append(Fix(f"Replace with {choice}", d, ((l0, a, l0, b, choice),), n == 0))
        elif d.code == "RC205":
            m = re.match(r"write `at (-?\d+) (-?\d+)", d.hint)
            old = lines[l0][c0:c1]
            if m:
                new = re.sub(r"at\s+-?\d+\s+-?\d+", f"at {m.group(1)} {m.group(2)}", old, count=1)
                out.append(Fix(f"Move to at {m.group(1)} {m.group(2)}", d, ((l0, c0, l0, c1, new),), True))
        elif d.code == "RC402" and "does not say how many laps" in d.message:
            head = l0
            while head < len(lines) and "{" not in _code(lines[head]):
                head += 1
            if head < len(lines):
                lead = re.match(r"\s*", lines[head])
                assert lead is not None  # \s* matches every line
                indent = lead.group() + "  "
                end = len(lines[head])
                out.append(Fix("Add `laps 2` (the fewest an RX race has)", d,
                               ((head, end, head, end, f"\n{indent}laps 2"),), True))
    return out
