"""JSON with positions: every value knows the line and column it was written at.

Other tools' track files are JSON. To point a diagnostic at ``tiles[3].id`` we
need where that element is in the text, which :mod:`json` does not keep. The
text is first checked with :func:`rallyc.project.fileio.strict_json` (``json.loads``'s error messages and
line:column are the reference for syntax errors; a key written twice and numbers too long to be
coordinates are refused there too); a valid text is then walked
once more by a small scanner that records the span of every value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]  # not in the stubs
from typing import Any, cast

from rallyc.project.fileio import StrictJSONError, strict_json

__all__ = ["JNode", "JSONSyntaxError", "parse", "type_name"]

#: a number in a track file has at most this many digits (coordinates, rotations)
MAX_DIGITS = 15
_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")


@dataclass
class JNode:
    """A JSON value with where it was written (1-based line and column, end exclusive).

    ``value`` is the plain value for scalars, a list of JNode for arrays and a
    dict of key -> JNode for objects (the last of duplicate keys wins, as in
    :func:`json.loads`). ``path`` is the JSON path, e.g. ``tiles[3].id``.
    """

    value: Any
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)

    def plain(self) -> Any:
        """The value without positions (as :func:`json.loads` would give it)."""
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        return self.value


class JSONSyntaxError(ValueError):
    """The text is not JSON: ``message`` at ``line``:``column``."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(f"{message} at {line}:{column}")
        self.message = message
        self.line = line
        self.column = column


def type_name(value: Any) -> str:
    """The JSON name of a value's type (``string``, ``number``, ``object``...)."""
    if isinstance(value, JNode):
        value = value.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def parse(text: str) -> JNode:
    """Parse JSON text into positioned nodes; raise :class:`JSONSyntaxError` if it is not JSON."""
    try:
        strict_json(text, MAX_DIGITS)
    except StrictJSONError as e:
        raise JSONSyntaxError(e.message, e.line, e.column) from None
    try:
        return _Scanner(text).document()
    except RecursionError:
        raise JSONSyntaxError("nesting too deep", 1, 1) from None


class _Scanner:
    """Walks text already known to be valid JSON, recording spans."""

    def __init__(self, text: str):
        self.text = text
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def _pos(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self._line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self._line_starts[lo] + 1

    def _ws(self, i: int) -> int:
        return cast(re.Match[str], _WS.match(self.text, i)).end()  # the pattern matches the empty string

    def document(self) -> JNode:
        node, _ = self._value(self._ws(0), "")
        return node

    def _node(self, value: Any, path: str, start: int, end: int) -> JNode:
        line, col = self._pos(start)
        end_line, end_col = self._pos(end)
        return JNode(value, path, line, col, end_line, end_col)

    def _value(self, i: int, path: str) -> tuple[JNode, int]:
        ch = self.text[i]
        if ch == "{":
            return self._object(i, path)
        if ch == "[":
            return self._array(i, path)
        if ch == '"':
            s, end = scanstring(self.text, i + 1)
            return self._node(s, path, i, end), end
        words: tuple[tuple[str, Any], ...] = (("true", True), ("false", False), ("null", None), ("NaN", float("nan")),
                                              ("Infinity", float("inf")), ("-Infinity", float("-inf")))
        for word, val in words:
            if self.text.startswith(word, i):
                return self._node(val, path, i, i + len(word)), i + len(word)
        m = cast(re.Match[str], _NUMBER.match(self.text, i))  # strict_json has accepted the text
        lit = m.group(0)
        number: Any = float(lit) if (m.group(1) or m.group(2)) else int(lit)
        return self._node(number, path, i, m.end()), m.end()

    def _array(self, start: int, path: str) -> tuple[JNode, int]:
        items: list[JNode] = []
        i = self._ws(start + 1)
        if self.text[i] == "]":
            return self._node(items, path, start, i + 1), i + 1
        while True:
            node, i = self._value(i, f"{path}[{len(items)}]")
            items.append(node)
            i = self._ws(i)
            if self.text[i] == "]":
                return self._node(items, path, start, i + 1), i + 1
            i = self._ws(i + 1)  # the comma

    def _object(self, start: int, path: str) -> tuple[JNode, int]:
        members: dict[str, JNode] = {}
        keys: dict[str, tuple[int, int]] = {}
        i = self._ws(start + 1)
        if self.text[i] == "}":
            node = self._node(members, path, start, i + 1)
            return node, i + 1
        while True:
            key_at = i
            key, i = scanstring(self.text, i + 1)
            i = self._ws(i)
            i = self._ws(i + 1)  # the colon
            child_path = f"{path}.{key}" if path else key
            node, i = self._value(i, child_path)
            members.pop(key, None)
            members[key] = node
            keys[key] = self._pos(key_at)
            i = self._ws(i)
            if self.text[i] == "}":
                out = self._node(members, path, start, i + 1)
                out.keys = keys
                return out, i + 1
            i = self._ws(i + 1)  # the comma
