"""Text to typed syntax tree, with human-readable, located syntax errors.

``parse(text, path)`` never raises on bad input: it returns the document it
could build (possibly partial) and a list of diagnostics.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from difflib import get_close_matches
from functools import lru_cache

import lark
from lark import Lark, Token as LarkToken, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from rallyc.diagnostics import Diagnostic, Span
from rallyc.model import codes as rc
from rallyc.data.resources import grammar_path
from rallyc.cache.folder import cache_folder
from rallyc.syntax import ast
from rallyc.syntax.limits import Pieces, statement_too_large

__all__ = ["parse", "MAX_SOURCE_BYTES", "MAX_NESTING", "MAX_DIGITS", "MAX_CELL", "NOT_TEXT"]

#: Larger files are refused with RC101 rather than parsed (a track file is a few KB).
MAX_SOURCE_BYTES = 2_000_000
#: Braces nested deeper than the language ever needs are refused with RC103.
MAX_NESTING = 8
#: Stop collecting syntax errors after this many in one file.
MAX_SYNTAX_ERRORS = 20


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = grammar_path().read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True,
                cache=_cache_file(grammar))


def lark_version() -> str:
    """The Lark and Python versions, which shape what the parser builds (part of every cache key)."""
    return f"lark {lark.__version__} python {sys.version.split()[0]}"


def _cache_file(grammar: str) -> str | bool:
    """Where Lark keeps the built LALR tables (building them costs ~0.1 s at every start), or False.

    The file lives in the user's own cache folder (:mod:`rallyc.cache.folder`, never the shared temp
    folder: Lark stores it as a pickle). Its name hashes the grammar and the versions that shape it, so
    a changed grammar never reads stale tables. ``RALLYC_NO_CACHE=1`` turns it off.
    """
    key = "\0".join([grammar, lark.__version__, sys.version.split()[0]])
    folder = cache_folder()
    if folder is None:
        return False
    return os.path.join(folder, f"grammar-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:20]}.lark")


# What each terminal means to a person, for "expected ..." messages.
_HUMAN = {
    "TILEREF": "a tile like 210b",
    "INT": "a number",
    "NAME": "a name",
    "STRING": 'a quoted text like "Rally 1"',
    "EDGE": "an edge letter A to F",
    "SURFACE": "a surface (gravel, asphalt, snow or none)",
    "DANGER": "a danger colour (low, medium, high)",
    "TURN": "a turn (straight, left60, right60, left120, right120, s-bend, other)",
    "TURN_WORD": "a turn word (left, right, straight)",
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "MINUS": "`-`",
    "DOT": "`.`",
    "COMMA": "`,`",
    "LIMIT_VALUE": "a limit (a number, or - for none)",
    "LINE_KIND": "a line (start, finish, checkered, climb)",
    "TOKEN_NAME": "a token (water, jump, chicane, haybale, mud, ...)",
    "STANDEE": "a standee (finish, joker-entry, joker-exit)",
    "META_KEY": "source, note or author",
    "END": "`end`",
}

_STATEMENT_WORDS = {
    "top": "a statement such as `use`, `boxes`, `tileset`, `stage`, `rally`, `circuit` or `area`",
    "stage": "a tile like 210b or a keyword such as `token`, `scenery` or `source`",
    "road": "a zone such as `plain`, `slide`, `corner`, `wide` or a `shortcut`",
}


@lru_cache(maxsize=1)
def _terminal_words() -> dict[str, tuple[str, ...]]:
    """The words each keyword-like terminal matches (``STAGE`` -> stage, ``TURN_WORD`` -> left, right, straight)."""
    out: dict[str, tuple[str, ...]] = {}
    for t in _parser().terminals:
        value = t.pattern.value
        if t.pattern.type == "str":
            out[t.name] = (value,)
            continue
        m = re.fullmatch(r"\(\?:([a-z0-9\\\-|]+)\)", value)
        if m:
            out[t.name] = tuple(sorted(w.replace("\\-", "-") for w in m.group(1).split("|")))
    return out


def _candidate_words(expected: set[str]) -> list[str]:
    """Every word that could have come where a syntax error is (for did-you-mean hints)."""
    words = _terminal_words()
    return sorted({w for name in expected for w in words.get(name, ()) if w[:1].isalpha()})


def _describe_expected(expected: set[str]) -> str:
    words = _terminal_words()
    keywords = []
    others = []
    for n in sorted(expected):
        if n in _HUMAN:
            others.append(_HUMAN[n])
        elif n in words and len(words[n]) == 1:
            keywords.append(f"`{words[n][0]}`")
        else:
            others.append(n.lower())
    if "TILEREF" in expected and any(k in keywords for k in ("`token`", "`scenery`")):
        return _STATEMENT_WORDS["stage"]
    if {"`use`", "`stage`", "`rally`"} <= set(keywords):
        return _STATEMENT_WORDS["top"]
    if {"`plain`", "`slide`", "`corner`"} <= set(keywords):
        return _STATEMENT_WORDS["road"]
    parts = others + keywords
    if len(parts) > 6:
        parts = parts[:6] + ["..."]
    if not parts:
        return "something else"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _describe_token(tok: LarkToken) -> str:
    if tok.type == "$END":
        return "the end of the file"
    if tok.type == "_NL":
        return "the end of the line"
    text = str(tok)
    if len(text) > 30:
        text = text[:27] + "..."
    return f"`{text}`"


def _span_of_token(path: str, tok: LarkToken) -> Span:
    line = tok.line or 1
    col = tok.column or 1
    if tok.type == "_NL":
        return Span(path, line, col, line, col + 1)
    end_line = tok.end_line or line
    end_col = tok.end_column or col + max(1, len(str(tok)))
    if end_line != line:
        end_line, end_col = line, col + 1
    return Span(path, line, col, end_line, max(end_col, col + 1))


def _meta_span(path: str, meta) -> Span:
    if getattr(meta, "empty", True):
        return Span(path, 1, 1, 1, 2)
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(path: str, tok: LarkToken) -> Span:
    return _span_of_token(path, tok)


def _unquote(s: str) -> str:
    body = s[1:-1]
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            out.append({"n": "\n", "t": "\t", "r": "\r", "f": "\f"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class _Build(Transformer):
    """Lark tree to AST dataclasses. Spans come from Lark's position metadata."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _s(self, meta) -> Span:
        return _meta_span(self.path, meta)

    def _ident(self, tok: LarkToken) -> ast.Ident:
        return ast.Ident(str(tok), _tok_span(self.path, tok))

    # -- top level
    @v_args(meta=True)
    def start(self, meta, items):
        return [i for i in items if i is not None]

    @v_args(meta=True)
    def use(self, meta, children):
        (tok,) = children
        if tok.type == "STRING":
            return ast.Use(_unquote(str(tok)), True, self._s(meta))
        return ast.Use(str(tok), False, self._s(meta))

    @v_args(meta=True)
    def boxes(self, meta, children):
        return ast.Boxes([self._ident(t) for t in children], self._s(meta))

    # -- tilesets
    @v_args(meta=True)
    def tileset(self, meta, children):
        name, title, circuit, *tiles = children
        return ast.Tileset(self._ident(name), _unquote(title) if title else None,
                           [t for t in tiles if t is not None], self._s(meta), circuit is not None)

    def circuit_box(self, children):
        return True

    @v_args(meta=True)
    def tile(self, meta, children):
        ref, surface, danger, copies, *roads = children
        return ast.TileDef(self._ident(ref), str(surface), danger, int(copies) if copies is not None else None,
                           [r for r in roads if r is not None], self._s(meta))

    def danger(self, children):
        a, b = children
        return (str(a), str(b) if b is not None else str(a))

    @v_args(meta=True)
    def road(self, meta, children):
        entry, end, turn, lanes, *items = children
        flat: list = []
        for i in items:
            if isinstance(i, list):
                flat += i  # the spaces of one `shortcut` statement
            elif i is not None:
                flat.append(i)
        return ast.RoadDef(str(entry), end, str(turn) if turn is not None else None,
                           int(lanes) if lanes is not None else None, flat, self._s(meta))

    def road_end(self, children):
        return str(children[0])

    def _zone(self, kind, meta, children):
        z = ast.Zone(kind, span=self._s(meta))
        for opt in children:
            key, value = opt
            setattr(z, key, value)
        return z

    @v_args(meta=True)
    def plain(self, meta, children):
        return self._zone("plain", meta, children)

    @v_args(meta=True)
    def slide(self, meta, children):
        return self._zone("slide", meta, children)

    @v_args(meta=True)
    def wide(self, meta, children):
        return self._zone("wide", meta, children)

    @v_args(meta=True)
    def half(self, meta, children):
        return self._zone("half", meta, children)

    @v_args(meta=True)
    def junction(self, meta, children):
        return self._zone("junction", meta, children)

    @v_args(meta=True)
    def service(self, meta, children):
        return ast.Zone("service", span=self._s(meta))

    @v_args(meta=True)
    def corner(self, meta, children):
        return self._make_corner("corner", meta, children)

    @v_args(meta=True)
    def limited(self, meta, children):
        return self._make_corner("limited", meta, children)

    def _make_corner(self, kind, meta, children):
        side, inside, outside, *opts = children
        c = ast.Corner(kind, inside, outside, side=str(side) if side is not None else None, span=self._s(meta))
        for key, value in opts:
            setattr(c, key, value)
        return c

    def inside(self, children):
        return tuple(int(c) for c in children)

    def outside(self, children):
        return tuple(int(c) for c in children)

    @v_args(meta=True)
    def limitline(self, meta, children):
        return ast.LimitLine(int(children[0]), self._s(meta))

    @v_args(meta=True)
    def line(self, meta, children):
        return ast.Line(str(children[0]), self._s(meta))

    @v_args(meta=True)
    def shortcut(self, meta, children):
        # one Shortcut per space: several limits are spaces in a row between the same zones
        *limits, a, b = children
        span = self._s(meta)
        return [ast.Shortcut(int(limit), int(a), int(b), span) for limit in limits]

    def limit(self, children):
        return ("limits", tuple(None if str(c) == "-" else int(c) for c in children))

    def jump(self, children):
        return ("jump", int(children[0]))

    def water(self, children):
        return ("water", True)

    def zone_lanes(self, children):
        return ("lanes", int(children[0]))

    def merge(self, children):
        return ("merge", True)

    # -- designs
    @v_args(meta=True)
    def stage(self, meta, children):
        name, title, *items = children
        return ast.Stage(self._ident(name), _unquote(title) if title else None,
                         [i for i in items if i is not None], self._s(meta))

    @v_args(meta=True)
    def rally(self, meta, children):
        title, by, *items = children
        return ast.Rally(_unquote(title), by, [i for i in items if i is not None], self._s(meta))

    @v_args(meta=True)
    def circuit(self, meta, children):
        title, by, *items = children
        return ast.Circuit(_unquote(title), by, [i for i in items if i is not None], self._s(meta))

    @v_args(meta=True)
    def area(self, meta, children):
        title, by, *items = children
        return ast.Area(_unquote(title), by, [i for i in items if i is not None], self._s(meta))

    @v_args(meta=True)
    def on_area(self, meta, children):
        return ast.AreaRef(_unquote(children[0]), self._s(meta))

    @v_args(meta=True)
    def pick(self, meta, children):
        ref, word = children
        return ast.Pick(self._ident(ref), str(word), self._s(meta))

    @v_args(meta=True)
    def route_from(self, meta, children):
        return ast.RouteFrom(self._ident(children[0]), self._s(meta))

    def by(self, children):
        return _unquote(children[0])

    @v_args(meta=True)
    def step(self, meta, children):
        ref, *opts = children
        s = ast.Step(self._ident(ref), span=self._s(meta))
        for key, value in opts:
            setattr(s, key, value)
        return s

    def turn_word(self, children):
        return ("turn", str(children[0]))

    def reversed(self, children):
        return ("reversed", True)

    def road_pick(self, children):
        return ("road", int(children[0]))

    @v_args(meta=True)
    def position(self, meta, children):
        q, r, rot = children
        return ("position", ast.Position(int(q), int(r), int(rot), self._s(meta)))

    @v_args(meta=True)
    def scenery(self, meta, children):
        ref, pos = children
        return ast.Scenery(self._ident(ref), pos[1], self._s(meta))

    @v_args(meta=True)
    def token(self, meta, children):
        (kind, value, limit), at = children
        return ast.Token(kind, value, limit, at, self._s(meta))

    def token_kind(self, children):
        name, value, limit = children
        return (str(name), int(value) if value is not None else None, limit)

    def token_limit(self, children):
        return int(children[0])

    @v_args(meta=True)
    def space_ref(self, meta, children):
        step, zone, lane = children
        return ast.SpaceRef(int(step), int(zone), str(lane) if lane is not None else None, self._s(meta))

    @v_args(meta=True)
    def meta(self, meta, children):
        key, value = children
        return ast.Meta(str(key), _unquote(value), self._s(meta))

    @v_args(meta=True)
    def options(self, meta, children):
        return ast.Options(list(children), self._s(meta))

    @v_args(meta=True)
    def option(self, meta, children):
        name, value = children
        if value is not None:
            value = int(value) if value.type == "INT" else str(value)
        return ast.Option(str(name), value, self._s(meta))

    @v_args(meta=True)
    def laps(self, meta, children):
        return ast.Laps(int(children[0]), self._s(meta))

    @v_args(meta=True)
    def standee(self, meta, children):
        kind, at = children
        return ast.Standee(str(kind), at, self._s(meta))

    @v_args(meta=True)
    def joker(self, meta, children):
        return ast.Joker([int(c) for c in children], self._s(meta))

    @v_args(meta=True)
    def pregrid(self, meta, children):
        return ast.Pregrid([int(c) for c in children], self._s(meta))


def _top_level_chunks(text: str) -> list[tuple[int, str]]:
    """Split source text into top-level statements: (first line, text) pairs.

    A chunk ends at a newline outside any block; strings and comments are skipped
    so braces inside them do not count.
    """
    chunks: list[tuple[int, str]] = []
    depth = 0
    start = 0
    start_line = 1
    line = 1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            j = text.find("\n", i)
            i = n if j == -1 else j
            continue
        if ch == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            # an unclosed text ends at the end of its line; what follows the quote is read
            # as code so that a `{` after it still opens a block (one error, not a cascade)
            i = j + 1 if j < n and text[j] == '"' else i + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == "\n":
            line += 1
            if depth == 0:
                chunk = text[start:i + 1]
                if chunk.strip():
                    chunks.append((start_line, chunk))
                start, start_line = i + 1, line
        i += 1
    tail = text[start:]
    if tail.strip():
        chunks.append((start_line, tail))
    return chunks


def _check_limits(text: str, path: str) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    depth = 0
    line, col = 1, 0
    in_string = False
    in_comment = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            in_string = in_comment = False
            continue
        if in_comment:
            continue
        if in_string:
            if ch == '"':
                in_string = False
            continue
        if ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
            if depth > MAX_NESTING:
                diags.append(Diagnostic.of(
                    rc.RC103, f"blocks are nested {depth} deep; rallyc files nest at most {MAX_NESTING} deep",
                    Span(path, line, col, line, col + 1),
                    "a rally holds stages, a tileset holds tiles and a tile holds roads: close the blocks you opened"))
                return diags
        elif ch == "}":
            depth = max(0, depth - 1)
    return diags


def parse(text: str, path: str = "<input>") -> tuple[ast.Document, list[Diagnostic]]:
    """Parse rallyc source text. Returns the document and any syntax diagnostics (RC1xx)."""
    diags: list[Diagnostic] = []
    empty = ast.Document(path, [], Span(path, 1, 1, 1, 2))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        return empty, [Diagnostic.of(
            rc.RC101, f"file is {len(text.encode('utf-8', 'surrogatepass')) // 1024} KB; rallyc reads files up to "
            f"{MAX_SOURCE_BYTES // 1_000_000} MB", Span(path, 1, 1, 1, 2),
            "a track file is a few KB of text: is this the right file?")]
    bad = _find_control_chars(text, path)
    if bad:
        return empty, [bad]
    diags.extend(_check_limits(text, path))
    if diags:
        return empty, diags

    # Each top-level statement is parsed on its own, so one bad statement gives
    # one diagnostic and the others are still read (no cascades).
    items: list = []
    errors: list[Diagnostic] = []
    pieces = Pieces()  # the limits on what one file holds (rallyc.syntax.limits): RC101, and nothing more is read
    for index, (first_line, chunk) in enumerate(_top_level_chunks(text)):
        too_large = statement_too_large(index, first_line, chunk, path)
        if too_large is not None:
            return empty, [too_large]
        try:
            tree = _parser().parse(chunk)
        except UnexpectedInput:
            # parse again where the chunk really is, so the error has its real line (errors are few)
            padded = "\n" * (first_line - 1) + chunk
            try:
                _parser().parse(padded)
            except UnexpectedInput as e:
                errors.append(_syntax_diagnostic(e, path, padded))
            if len(errors) >= MAX_SYNTAX_ERRORS:
                break
            continue
        _shift_lines(tree, first_line - 1)
        out_of_range = _number_problems(tree, path)
        if out_of_range:
            errors.extend(out_of_range)
            continue
        try:
            built = _Build(path).transform(tree)
        except VisitError as e:  # pragma: no cover - a bug in the builder, reported, not raised
            errors.append(Diagnostic.of(rc.RC100, f"internal error while reading this statement: {e.orig_exc}",
                                           Span(path, first_line, 1, first_line, 2)))
            continue
        too_large = pieces.add(built)
        if too_large is not None:
            return empty, [too_large]
        items.extend(built)
    if errors:
        return ast.Document(path, items, Span(path, 1, 1, 1, 2)), errors
    lines = text.count("\n") + 1
    return ast.Document(path, items, Span(path, 1, 1, lines, 1)), []


#: characters no rallyc text holds: C0 controls but tab, line feed, form feed and carriage return; the
#: replacement character (bytes that were not UTF-8); the noncharacters U+FFFE and U+FFFF (not allowed in XML,
#: so a title holding one would make a map that is not well-formed)
NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\ufffd\ufffe\uffff]")


def _find_control_chars(text: str, path: str) -> Diagnostic | None:
    m = NOT_TEXT.search(text)
    if m is None:
        return None
    at = m.start()
    ch = m.group()
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    if ch == "\x00":
        what = "a NUL byte"
    elif ch == "\ufffd":
        what = "bytes that are not UTF-8 text"
    elif ch in "\ufffe\uffff":
        what = f"the noncharacter U+{ord(ch):04X}"
    else:
        what = f"the control character U+{ord(ch):04X}"
    return Diagnostic.of(rc.RC102, f"this file contains {what}; it does not look like rallyc text",
                            Span(path, line, col, line, col + 1),
                            "rallyc reads UTF-8 text files (.rally); is this a binary file?")


def _shift_lines(tree: lark.Tree, by: int) -> None:
    """Move every position in a statement parsed on its own down ``by`` lines (to where it is in the file)."""
    if by == 0:
        return
    for sub in tree.iter_subtrees():
        meta = sub.meta
        if not getattr(meta, "empty", True):
            meta.line += by
            meta.end_line += by
        for child in sub.children:
            if isinstance(child, LarkToken) and child.line is not None:
                child.line += by
                if child.end_line is not None:
                    child.end_line += by


#: a number in rallyc text has at most this many digits (the largest meaningful one, a step of a long
#: synthetic stage, has 6)
MAX_DIGITS = 7
#: cell coordinates ``at Q R`` lie within this many cells of the origin (a 50,000-tile stage in a row fits)
MAX_CELL = 100_000
#: token values (``token KIND N``) by kind; kinds not listed take no number
TOKEN_VALUES = {"jump": range(1, 7), "oxygen": range(1, 4)}
#: ``token chicane limit N``: a speed limit, a gear
CHICANE_LIMITS = range(1, 7)


def _number_problems(tree: lark.Tree, path: str) -> list[Diagnostic]:
    """Numbers out of range in one statement: too many digits (RC114), cells too far out (RC211), token values
    a token cannot have (RC606). Checked before the numbers are read, so no number is ever too big to read."""
    out: list[Diagnostic] = []
    for tok in tree.scan_values(lambda v: isinstance(v, LarkToken) and v.type == "INT"):
        if len(tok.lstrip("-")) > MAX_DIGITS:
            shown = tok if len(tok) <= 20 else f"{tok[:10]}...{tok[-4:]} ({len(tok.lstrip('-'))} digits)"
            out.append(Diagnostic.of(
                rc.RC114, f"the number {shown} is too long; numbers in rallyc files have at most {MAX_DIGITS} digits",
                _span_of_token(path, tok), "check for a typo (a missing space between two numbers?)"))
    if out:
        return out
    for sub in tree.iter_subtrees():
        if sub.data == "position":
            for tok in sub.children[:2]:
                if isinstance(tok, LarkToken) and abs(int(tok)) > MAX_CELL:
                    out.append(Diagnostic.of(
                        rc.RC211, f"cell coordinate {tok} is too far out; cells lie within {MAX_CELL:,} of 0 0",
                        _span_of_token(path, tok), "check the `at Q R` numbers; the first tile is usually at 0 0"))
        elif sub.data == "token_kind":
            out.extend(_token_value_problems(sub, path))
    return out


def _token_value_problems(node: lark.Tree, path: str) -> list[Diagnostic]:
    name, value, limit = node.children
    assert value is None or isinstance(value, LarkToken)
    kind = str(name)
    out: list[Diagnostic] = []
    allowed = TOKEN_VALUES.get(kind)
    if value is not None:
        if allowed is None:
            out.append(Diagnostic.of(
                rc.RC606, f"a {kind} token has no number; `{kind} {value}` is not a token", _span_of_token(path, value),
                f"write `token {kind} at STEP.ZONE`" + (" (a speed limit on a chicane is `limit N`)"
                                                        if kind == "chicane" else "")))
        elif int(value) not in allowed:
            out.append(Diagnostic.of(
                rc.RC606, f"`token {kind} {value}`: the number of a {kind} token is {allowed.start} to {allowed.stop - 1}",
                _span_of_token(path, value), "jumps are taken in a gear 1..6; oxygen tokens are 1 to 3"))
    if limit is not None:
        ltok = limit.children[0] if isinstance(limit, lark.Tree) else limit
        assert isinstance(ltok, LarkToken)
        if kind != "chicane":
            out.append(Diagnostic.of(
                rc.RC606, f"only a chicane token has a speed limit, not a {kind} token", _span_of_token(path, ltok),
                f"remove `limit {ltok}`"))
        elif int(ltok) not in CHICANE_LIMITS:
            out.append(Diagnostic.of(
                rc.RC606, f"`chicane limit {ltok}`: a speed limit is a gear, 1 to 6", _span_of_token(path, ltok),
                "a limit of 0 or above 6 can never be met; write limit 1 to 6"))
    return out


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.span, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _end_of_text(text: str, path: str) -> Span:
    """A span just after the last character of the last line that is not blank (for end-of-file errors)."""
    lines = text.rstrip().split("\n")
    line = max(1, len(lines))
    col = len(lines[-1].rstrip("\r")) + 1 if lines else 1
    return Span(path, line, col, line, col + 1)


#: Words that open a top-level statement or a block: seen inside a block, a `}` is probably missing.
_OPENERS = {"use", "boxes", "tileset", "stage", "rally", "circuit", "area", "tile", "road"}


def _syntax_diagnostic(e: UnexpectedInput, path: str, text: str = "") -> Diagnostic:
    if isinstance(e, UnexpectedCharacters):
        line, col = e.line, e.column
        ch = e.char
        span = Span(path, line, col, line, col + 1)
        if ch == '"':
            return Diagnostic.of(rc.RC105, "this text is not closed: a quoted text must end with `\"` on the same line",
                                    span, 'close the text with " before the end of the line')
        allowed = _describe_expected(set(e.allowed or ()))
        shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
        return Diagnostic.of(rc.RC104, f"unexpected character `{shown}`; expected {allowed}", span,
                                "check for a typo; comments start with #")
    if isinstance(e, UnexpectedEOF):
        return _eof(set(e.expected or ()), path, text)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        expected = set(e.expected or ())
        if tok.type == "$END":
            return _eof(expected, path, text)
        span = _span_of_token(path, tok)
        wanted = _describe_expected(expected)
        if tok.type == "_NL":
            return Diagnostic.of(rc.RC107, f"this statement ends too early; expected {wanted}", span,
                                    "something is missing at the end of the statement")
        word = str(tok)
        got = _describe_token(tok)
        close = get_close_matches(word.lower(), _candidate_words(expected), n=1, cutoff=0.6)
        hint = f"did you mean `{close[0]}`?" if close else None
        if "TURN_WORD" in expected and tok.type in ("NAME", "TILEREF", "TURN"):
            return Diagnostic.of(
                rc.RC107, f"`{word}` is not a turn word; after a tile come left, right or straight, "
                "reversed, road N or at Q R rot N", span,
                hint or "the turn word picks the direction a curve is driven: left or right")
        if word in _OPENERS and "RBRACE" in expected:
            return Diagnostic.of(
                rc.RC107, f"`{word}` cannot go here; expected {wanted}", span,
                "is a `}` missing above? the block opened before this line is still open")
        if hint is None:
            if tok.type == "NAME" and word.lower() in _candidate_words(expected):
                hint = "keywords are lowercase"
            elif tok.type == "NAME" and "TILEREF" in expected:
                hint = "keywords are lowercase; tiles are written as a number and a side, like 210b"
            elif tok.type == "RBRACE" and "RBRACE" not in expected:
                hint = "this `}` closes no block: remove it, or look for a missing `{` above"
            elif tok.type == "RBRACE":
                hint = "a statement is not finished before this `}`"
        return Diagnostic.of(rc.RC107, f"unexpected {got}; expected {wanted}", span, hint)
    return Diagnostic.of(rc.RC100, str(e), Span(path, 1, 1, 1, 2))


def _eof(expected: set[str], path: str, text: str) -> Diagnostic:
    span = _end_of_text(text, path)
    wanted = _describe_expected(expected)
    if "RBRACE" in expected:
        return Diagnostic.of(rc.RC106, f"the file ends before a block is closed; expected {wanted}", span,
                                "add the missing `}` (was the file cut short?)")
    return Diagnostic.of(rc.RC106, f"the file ends in the middle of a statement; expected {wanted}", span,
                            "finish the statement (was the file cut short?)")
