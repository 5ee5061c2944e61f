"""Canonical layout of rallyc text (``rallyc fmt``).

The layout rules, in full:

- two-space indentation, one statement per line (so one zone of a road per line,
  one tile of a stage per line), ``{`` on the header line, ``}`` on a line of its own;
- an empty block without comments is written ``{}``;
- statements keep their order (so comments never move away from their statement);
- one blank line around every top-level block (``tileset``, ``stage``, ``rally``,
  ``circuit``); elsewhere a run of blank lines becomes one blank line, and no blank
  line follows ``{`` or precedes ``}``;
- numbers are written in decimal, quoted text is re-escaped, optional parts are
  written in one order (e.g. ``plain limit 3 jump 4 water lanes 2 merge``,
  ``210b left reversed road 2 at 1 0 rot 3``), ``danger low low`` becomes ``danger low``;
- own-line comments stay above the statement they precede, at its indentation;
  end-of-line comments stay on the line of their statement (two spaces before ``#``);
  comments at the end of a block stay before its ``}``.

Formatting never changes meaning: :func:`format_text` parses its own output and
checks that the tree is equal to the input's (spans are not compared) and that
every comment survived, and refuses (RC108) otherwise.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from dataclasses import dataclass

from rallyc.diagnostics import Diagnostic, Span, has_errors
from rallyc.model import codes as rc
from rallyc.syntax import ast
from rallyc.syntax.comments import Comment, extract_comments
from rallyc.syntax.parser import parse

__all__ = ["format_document", "format_text", "quote", "Comment"]

_INDENT = "  "
_BLOCKS = (ast.Tileset, ast.Stage, ast.Rally, ast.Circuit, ast.Area)


def quote(text: str) -> str:
    """``text`` as a rallyc quoted text, escaped so that the parser reads back exactly ``text``."""
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\f":
            out.append("\\f")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# ------------------------------------------------------------------ one-line statements

def _opts(z) -> list[str]:
    parts = []
    if z.limits is not None:
        parts.append("limit " + " ".join("-" if v is None else str(int(v)) for v in z.limits))
    if z.jump is not None:
        parts.append(f"jump {int(z.jump)}")
    if z.water:
        parts.append("water")
    if z.lanes is not None:
        parts.append(f"lanes {int(z.lanes)}")
    if z.merge:
        parts.append("merge")
    return parts


def _ints(values) -> str:
    return " ".join(str(int(v)) for v in values)


def _position(p: ast.Position) -> str:
    return f"at {int(p.q)} {int(p.r)} rot {int(p.rot)}"


def _leaf(node) -> str:
    """The one-line text of a statement that is not a block."""
    if isinstance(node, ast.Zone):
        if node.kind == "service":
            return "service"
        return " ".join([node.kind, *_opts(node)])
    if isinstance(node, ast.Corner):
        side = [node.side] if node.side else []
        return " ".join([node.kind, *side, "inside", _ints(node.inside), "outside", _ints(node.outside), *_opts(node)])
    if isinstance(node, ast.LimitLine):
        return f"limitline {int(node.value)}"
    if isinstance(node, ast.Line):
        return node.kind
    if isinstance(node, ast.Shortcut):
        return f"shortcut {int(node.limit)} from {int(node.from_zone)} to {int(node.to_zone)}"
    if isinstance(node, _ShortcutRow):
        first = node.cuts[0]
        return f"shortcut {_ints(c.limit for c in node.cuts)} from {int(first.from_zone)} to {int(first.to_zone)}"
    if isinstance(node, ast.Step):
        parts = [node.tile.text]
        if node.turn:
            parts.append(node.turn)
        if node.reversed:
            parts.append("reversed")
        if node.road is not None:
            parts.append(f"road {int(node.road)}")
        if node.position is not None:
            parts.append(_position(node.position))
        return " ".join(parts)
    if isinstance(node, ast.Scenery):
        return f"scenery {node.tile.text} {_position(node.position)}"
    if isinstance(node, ast.Token):
        parts = ["token", node.kind]
        if node.value is not None:
            parts.append(str(int(node.value)))
        if node.limit is not None:
            parts.append(f"limit {int(node.limit)}")
        parts += ["at", _space_ref(node.at)]
        return " ".join(parts)
    if isinstance(node, ast.Meta):
        return f"{node.key} {quote(node.value)}"
    if isinstance(node, ast.Options):
        return "options " + ", ".join(_option(o) for o in node.options)
    if isinstance(node, ast.Laps):
        return f"laps {int(node.count)}"
    if isinstance(node, ast.Standee):
        return f"standee {node.kind} at {_space_ref(node.at)}"
    if isinstance(node, ast.Joker):
        return "joker " + _ints(node.steps)
    if isinstance(node, ast.Pregrid):
        return "pregrid " + _ints(node.steps)
    if isinstance(node, ast.AreaRef):
        return f"area {quote(node.title)}"
    if isinstance(node, ast.Pick):
        return f"junction {node.junction.text} {node.turn}"
    if isinstance(node, ast.RouteFrom):
        return f"from {node.tile.text}"
    if isinstance(node, ast.Use):
        return f"use {quote(node.target)}" if node.is_path else f"use {node.target}"
    if isinstance(node, ast.Boxes):
        return "boxes " + " ".join(n.text for n in node.names)
    raise TypeError(f"cannot format {type(node).__name__}")


def _space_ref(ref: ast.SpaceRef) -> str:
    return f"{int(ref.step)}.{int(ref.zone)}" + (f".{ref.lane}" if ref.lane else "")


def _option(o: ast.Option) -> str:
    if o.value is None:
        return o.name
    if isinstance(o.value, int):
        return f"{o.name} {int(o.value)}"
    return f"{o.name} {o.value}"


def _header(node) -> str:
    """The text of a block's header, without the ``{``."""
    if isinstance(node, ast.Tileset):
        return (f"tileset {node.name.text}" + (f" {quote(node.title)}" if node.title is not None else "")
                + (" circuit" if node.circuit else ""))
    if isinstance(node, ast.TileDef):
        a, b = node.danger
        danger = f"danger {a}" if a == b else f"danger {a} {b}"
        copies = f" copies {int(node.copies)}" if node.copies is not None else ""
        return f"tile {node.id.text} {node.surface} {danger}{copies}"
    if isinstance(node, ast.RoadDef):
        parts = [f"road {node.entry} -> {node.exit}"]
        if node.turn:
            parts.append(node.turn)
        if node.lanes is not None:
            parts.append(f"lanes {int(node.lanes)}")
        return " ".join(parts)
    if isinstance(node, ast.Stage):
        return f"stage {node.name.text}" + (f" {quote(node.title)}" if node.title is not None else "")
    if isinstance(node, (ast.Rally, ast.Circuit, ast.Area)):
        word = "rally" if isinstance(node, ast.Rally) else "circuit" if isinstance(node, ast.Circuit) else "area"
        by = f" by {quote(node.author)}" if node.author is not None else ""
        return f"{word} {quote(node.title)}{by}"
    raise TypeError(f"{type(node).__name__} is not a block")


@dataclass
class _ShortcutRow:
    """Shortcut spaces written in one statement (``shortcut 5 5 from 1 to 3``): written back on one line."""

    cuts: list
    span: Span | None


def _rows(items: list) -> list:
    """``items`` with the shortcut spaces of one statement (same span, same zones) grouped as one row."""
    out: list = []
    for item in items:
        last = out[-1] if out else None
        if (isinstance(item, ast.Shortcut) and item.span is not None and isinstance(last, (ast.Shortcut, _ShortcutRow))
                and last.span == item.span):
            cuts = last.cuts if isinstance(last, _ShortcutRow) else [last]
            if (cuts[0].from_zone, cuts[0].to_zone) == (item.from_zone, item.to_zone):
                out[-1] = _ShortcutRow([*cuts, item], item.span)
                continue
        out.append(item)
    return out


def _children(node) -> list:
    if isinstance(node, ast.Tileset):
        return node.tiles
    if isinstance(node, ast.TileDef):
        return node.roads
    if isinstance(node, ast.Document):
        return node.items
    if isinstance(node, (ast.RoadDef, ast.Stage, ast.Rally, ast.Circuit, ast.Area)):
        return node.items
    return []


def _is_block(node) -> bool:
    return isinstance(node, (ast.Tileset, ast.TileDef, ast.RoadDef, ast.Stage, ast.Rally, ast.Circuit, ast.Area))


def _lines_of(node, into: set[int]) -> None:
    """Source lines that hold a statement (or a block's header or ``}``)."""
    span = getattr(node, "span", None)
    if span is not None and not isinstance(node, ast.Document):
        into.add(span.line)
        if _is_block(node):
            into.add(span.end_line)
    for child in _children(node):
        _lines_of(child, into)


# ------------------------------------------------------------------ the formatter

@dataclass
class _Out:
    indent: int
    text: str
    src: int | None  # the source line the output line stands for (end-of-line comments attach to it)


class _Formatter:
    def __init__(self, doc: ast.Document, comments: list[Comment]):
        statement_lines: set[int] = set()
        _lines_of(doc, statement_lines)
        own, eol = [], {}
        for c in sorted(comments, key=lambda c: (c.line, c.column)):
            if not c.own_line and c.line in statement_lines and c.line not in eol:
                eol[c.line] = c
            else:
                own.append(c)
        self.pending = deque(own)
        self.eol = eol
        self.comment_lines = sorted(c.line for c in comments)
        self.out: list[_Out] = []
        self.last_src: int | None = None  # end line of the last unit written in the current block

    # -- helpers
    def _comment_in(self, first: int, last: int) -> bool:
        """Is there a comment on a line in first..last (inclusive)?"""
        if last < first:
            return False
        i = bisect_left(self.comment_lines, first)
        return i < len(self.comment_lines) and self.comment_lines[i] <= last

    def _blank(self, prev: int | None, start: int | None, force: bool = False) -> None:
        if self.out and self.out[-1].text == "":
            return
        if force or (prev is not None and start is not None and start > prev + 1):
            self.out.append(_Out(0, "", None))

    def _flush_comments(self, before: float, depth: int, prev: int | None, force_blank: bool) -> tuple[int | None, bool]:
        """Write the own-line comments that come before source line ``before``."""
        while self.pending and self.pending[0].line < before:
            c = self.pending.popleft()
            self._blank(prev, c.line, force_blank)
            force_blank = False
            self.out.append(_Out(depth, c.text, c.line))
            prev = c.line
        return prev, force_blank

    # -- writing
    def document(self, doc: ast.Document) -> str:
        prev: int | None = None
        prev_item = None
        for item in doc.items:
            span = item.span
            force = prev_item is not None and (isinstance(item, _BLOCKS) or isinstance(prev_item, _BLOCKS))
            if span is not None:
                prev, force = self._flush_comments(span.line, 0, prev, force)
            self._blank(prev, span.line if span else None, force)
            self.statement(item, 0)
            prev = span.end_line if span else None
            prev_item = item
        self._flush_comments(float("inf"), 0, prev, False)
        # end-of-line comments go on the last output line that stands for their source line
        last_for: dict[int, int] = {}
        for idx, o in enumerate(self.out):
            if o.src is not None and o.text:
                last_for[o.src] = idx
        leftovers = []
        for line, c in sorted(self.eol.items()):
            if line in last_for:
                self.out[last_for[line]].text += "  " + c.text
            else:  # pragma: no cover - statement_lines guarantees an output line
                leftovers.append(_Out(0, c.text, line))
        self.out.extend(leftovers)
        while self.out and self.out[-1].text == "":
            self.out.pop()
        return "".join((_INDENT * o.indent + o.text if o.text else "") + "\n" for o in self.out)

    def statement(self, node, depth: int) -> None:
        span = node.span
        if not _is_block(node):
            self.out.append(_Out(depth, _leaf(node), span.line if span else None))
            return
        items = _rows(_children(node)) if isinstance(node, ast.RoadDef) else _children(node)
        close = span.end_line if span else None
        if not items and (span is None or not self._comment_in(span.line, span.end_line - 1)):
            self.out.append(_Out(depth, _header(node) + " {}", close))
            return
        self.out.append(_Out(depth, _header(node) + " {", span.line if span else None))
        prev: int | None = None
        for item in items:
            ispan = item.span
            if ispan is not None:
                prev, _ = self._flush_comments(ispan.line, depth + 1, prev, False)
            self._blank(prev, ispan.line if ispan else None)
            self.statement(item, depth + 1)
            prev = ispan.end_line if ispan else None
        if close is not None:
            self._flush_comments(close, depth + 1, prev, False)
        self.out.append(_Out(depth, "}", close))


def format_document(doc: ast.Document, comments: list[Comment] | None = None) -> str:
    """The canonical text of ``doc``, with ``comments`` (from :func:`extract_comments`) put back.

    Works on trees without spans (built by importers): then there are no comments
    and the layout depends on the tree alone.
    """
    return _Formatter(doc, list(comments or ())).document(doc)


def format_text(text: str, path: str = "<input>") -> tuple[str | None, list[Diagnostic]]:
    """Format source text. Returns (new text, diagnostics); the text is None if the file has errors.

    The result is checked: it must parse to an equal tree and keep every comment.
    """
    doc, diags = parse(text, path)
    if has_errors(diags):
        return None, diags
    comments = extract_comments(text)
    out = format_document(doc, comments)
    again, again_diags = parse(out, path)
    same_comments = sorted(c.text for c in extract_comments(out)) == sorted(c.text for c in comments)
    if has_errors(again_diags) or again.items != doc.items or not same_comments:
        what = "comments" if not same_comments else "meaning"
        return None, diags + [Diagnostic.of(
            rc.RC108, f"rallyc fmt would change the {what} of this file, so it was left as it is",
            Span(path, 1, 1, 1, 2),
            "this is a bug in rallyc fmt: please report it with the file")]
    return out, diags
