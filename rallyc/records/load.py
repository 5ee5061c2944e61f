"""Read a game record: JSON syntax errors with line:column, schema violations with a JSON path.

The schema is checked by jsonschema-rs (its validator built once per process); the messages of a record it refuses
are jsonschema's, the error that comes first in the record (jsonschema is imported only then)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from json.decoder import scanstring  # type: ignore[attr-defined]  # no stub; stdlib since 2.6
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import jsonschema_rs

from rallyc.project.fileio import StrictJSONError, decode_utf8, strict_json
from rallyc.data.resources import schemas_dir

if TYPE_CHECKING:
    import jsonschema

#: numbers in a record are small (gears, rounds, seconds); more digits than this are refused before
#: Python reads them (reading a number of more than 4,300 digits is an error of its own)
MAX_RECORD_DIGITS = 15

__all__ = ["RecordError", "load_record", "read_record_text", "decode_record", "parse_record", "json_path",
           "path_parts", "locate", "record_schema", "record_problem", "MAX_RECORD_DIGITS"]


class RecordError(Exception):
    """A record that cannot be read: ``path`` is a JSON path, ``line``/``column`` are 1-based when known."""

    def __init__(self, message: str, *, file: str = "", path: str = "$", line: int | None = None,
                 column: int | None = None, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.rule_id = rule_id

    def located(self) -> str:
        where = self.file or "<record>"
        if self.line is not None:
            where += f":{self.line}:{self.column}"
        head = f"{where}: {self.path}: " if self.path else f"{where}: "
        return head + (f"{self.rule_id}: " if self.rule_id else "") + self.message


def json_path(parts: Iterable[str | int]) -> str:
    """``["stages", 0, "turns"]`` -> ``$.stages[0].turns``."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def path_parts(path: str) -> list[str | int]:
    """``$.stages[0].turns`` -> ``["stages", 0, "turns"]`` (the inverse of :func:`json_path`)."""
    return [int(m.group(2)) if m.group(2) is not None else m.group(1) for m in _PART.finditer(path.lstrip("$"))]


_WS = re.compile(r"[ \t\n\r]*")


def _skip_ws(text: str, i: int) -> int:
    """The first index at or after ``i`` that is not JSON white space."""
    m = _WS.match(text, i)
    return m.end() if m else i


def _offset(text: str, parts: list[str | int]) -> int:
    """Where the value at ``parts`` starts in ``text`` (a JSON document), or as near as can be found."""
    decoder = json.JSONDecoder()
    i = _skip_ws(text, 0)
    for part in parts:
        if i >= len(text) or text[i] not in "{[":
            return i
        opening, at = text[i], i
        j = _skip_ws(text, i + 1)
        index = 0
        while j < len(text) and text[j] not in "}]":
            if opening == "{":
                if text[j] != '"':
                    return at
                key, j = scanstring(text, j + 1)
                j = _skip_ws(text, j)
                if j >= len(text) or text[j] != ":":
                    return at
                j = _skip_ws(text, j + 1)
                hit = key == part
            else:
                hit = index == part
            if hit:
                i = j
                break
            _, j = decoder.raw_decode(text, j)
            j = _skip_ws(text, j)
            if j < len(text) and text[j] == ",":
                j = _skip_ws(text, j + 1)
            index += 1
        else:
            return at  # not there (a missing key): the object or array that lacks it
    return i


def locate(text: str, path: str | list[str | int]) -> tuple[int, int]:
    """(line, column), 1-based, of the value at a JSON path in a record's text (best effort, never raises)."""
    parts = path_parts(path) if isinstance(path, str) else list(path)
    try:
        offset = _offset(text, parts)
    except (ValueError, IndexError):
        offset = 0
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    with (schemas_dir() / "game.schema.json").open(encoding="utf-8") as f:
        schema: dict[str, Any] = json.load(f)
    return schema


@lru_cache(maxsize=1)
def _known_keys() -> frozenset[str]:
    """The top-level keys of a game record."""
    return frozenset(record_schema()["properties"])


@lru_cache(maxsize=1)
def _schema_check() -> jsonschema_rs.Draft202012Validator:
    """The record schema's validator in jsonschema-rs, built once: the yes/no check of every record read."""
    return jsonschema_rs.Draft202012Validator(record_schema())


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    """The jsonschema validator, built once: it words the message of a record the schema check refused."""
    # start-up: jsonschema (and its referencing, attrs, rpds) only for a record the yes/no check refused
    import jsonschema

    return jsonschema.Draft202012Validator(record_schema())


def _document_order(data: object, path: Iterable[str | int]) -> tuple[Any, ...]:
    """A sort key that orders JSON paths as their values appear in the record (keys in the order written)."""
    key = []
    node = data
    for part in path:
        if isinstance(node, dict):
            keys = list(node)
            key.append(keys.index(part) if part in node else len(keys))
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int):
            key.append(part)
            node = node[part] if 0 <= part < len(node) else None
        else:
            key.append(0)
            node = None
    return tuple(key)


def _valid(data: object) -> bool:
    """Whether the record is valid under the record schema (:func:`_schema_check`).

    Where jsonschema-rs is stricter than jsonschema (a pattern's ``$`` before a final newline, an infinite number) the
    record is refused here and accepted by :func:`_first_schema_error`, which finds nothing: jsonschema has the
    last word."""
    try:
        return _schema_check().is_valid(data)
    except ValueError:  # a value no JSON text gives (jsonschema-rs takes only what JSON has)
        return False


def _first_schema_error(data: object) -> jsonschema.ValidationError | None:
    """The schema error that comes first in the record (turns[2] before turns[10]), or None."""
    errors = list(_validator().iter_errors(data))
    if not errors:
        return None
    return min(errors, key=lambda e: _document_order(data, list(e.absolute_path)))


def parse_record(text: str, file: str = "<record>") -> dict[str, Any]:
    """Parse and schema-check a record's text; raise :class:`RecordError` at the first problem.

    Refused besides schema violations: a key written twice in one object, numbers of more than
    :data:`MAX_RECORD_DIGITS` digits, ``NaN`` and ``Infinity`` (:func:`rallyc.project.fileio.strict_json`), Spare Tires of players not in the record.
    Schema violations are located twice: the JSON path and the line:column of the value.
    """
    if text.startswith("\ufeff"):  # a byte-order mark (Windows editors): not part of the JSON
        text = text[1:]
    try:
        data: Any = strict_json(text, MAX_RECORD_DIGITS)
    except StrictJSONError as exc:
        raise RecordError(f"invalid JSON: {exc.message}", file=file, path="", line=exc.line, column=exc.column) from None
    if isinstance(data, dict) and not _known_keys().issuperset(data):
        path, message = record_problem(data) or ("$", "unknown key")  # located at the key, not the whole record
        line, column = locate(text, path)
        raise RecordError(message, file=file, path=path, line=line, column=column)
    if not _valid(data):
        err = _first_schema_error(data)
        if err is not None:  # else jsonschema, which words the messages, takes it: so do we
            line, column = locate(text, list(err.absolute_path))
            raise RecordError(f"schema: {err.message}", file=file, path=json_path(err.absolute_path),
                              line=line, column=column)
    problem = record_problem(data)
    if problem is not None:
        path, message = problem
        line, column = locate(text, path)
        raise RecordError(message, file=file, path=path, line=line, column=column)
    record: dict[str, Any] = data  # an object: the schema says so
    return record


def record_problem(data: dict[str, Any]) -> tuple[str, str] | None:
    """(JSON path, message) of the first thing a schema cannot say about a record, or None.

    Top-level keys the format does not know (for a record built in Python, which no schema check saw),
    Spare Tires (``stages[i].spare_tire``) given to a player who is not in ``players``, and Improvisation's
    re-plans in a ``rallyc-game/1`` record (they came with ``rallyc-game/2``).
    """
    if not isinstance(data, dict):
        return "$", "a game record is a JSON object"
    known = _known_keys()
    for key in data:
        if key not in known:
            return f"$.{key}", (f"unknown key `{key}` in a game record (known: {', '.join(sorted(known))})")
    names = {p.get("name") for p in data.get("players", []) if isinstance(p, dict)}
    for i, stage in enumerate(data.get("stages") or []):
        if not isinstance(stage, dict):
            continue
        for j, name in enumerate(stage.get("spare_tire") or []):
            if name not in names:
                return (f"$.stages[{i}].spare_tire[{j}]",
                        f"a Spare Tire for {json.dumps(name)}, who is not a player of this record "
                        f"(players: {', '.join(sorted(str(n) for n in names))})")
    if data.get("format") == "rallyc-game/1":
        return _replans_problem(data)
    return None


def _replans_problem(data: dict[str, Any]) -> tuple[str, str] | None:
    """The first turn of a ``rallyc-game/1`` record stating re-plans (IMPROV-01), which that format has not."""
    race = data.get("race")
    parts = [("$.race", race)] if isinstance(race, dict) else \
        [(f"$.stages[{i}]", s) for i, s in enumerate(data.get("stages") or []) if isinstance(s, dict)]
    for where, part in parts:
        for j, turn in enumerate(part.get("turns") or []):
            if isinstance(turn, dict) and "replans" in turn:
                return f"{where}.turns[{j}].replans", "re-plans (Improvisation) need format rallyc-game/2"
    return None


def decode_record(data: bytes, file: str) -> str:
    """A record's bytes as text (UTF-8, a leading byte-order mark dropped); not UTF-8 is located."""
    text, bad = decode_utf8(data)
    if text is None:
        line, column = bad or (1, 1)
        raise RecordError("not UTF-8 text: a game record is a JSON text file", file=file, path="",
                          line=line, column=column)
    return text[1:] if text.startswith("\ufeff") else text


def read_record_text(path: str | Path) -> str:
    """The text of a record file (raise :class:`RecordError`: unreadable, or not UTF-8 with line:column)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise RecordError("cannot read: it is a folder, not a game record", file=str(p), path="") from None
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror}", file=str(p), path="") from None
    return decode_record(data, str(p))


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and check a record file (raise :class:`RecordError`)."""
    return parse_record(read_record_text(path), str(Path(path)))
