"""Read a game record: JSON syntax errors with line:column, schema violations with a JSON path."""

from __future__ import annotations

import json
import re
from typing import Any
from functools import lru_cache
from itertools import repeat
from pathlib import Path

import jsonschema
from json.decoder import scanstring  # type: ignore[attr-defined]  # no stub; stdlib since 2.6

from rallyc.fileio import StrictJSONError, decode_utf8, strict_json
from rallyc.records.schemacheck import compile_counting_schema, compile_schema
from rallyc.resources import schemas_dir

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


def json_path(parts) -> str:
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
def record_schema() -> dict:
    with (schemas_dir() / "game.schema.json").open(encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=1)
def _known_keys() -> frozenset[str]:
    """The top-level keys of a game record."""
    return frozenset(record_schema()["properties"])


@lru_cache(maxsize=1)
def _fast_check():
    """The record schema compiled once into closures (a yes/no answer in microseconds per turn)."""
    return compile_schema(record_schema())


#: the optional keys of a record's objects in the order the counting check looks for them: those a usual die, turn
#: (stage or race) or Time card has first, then the others most often met (a usual object is then found whole with
#: no look-up for a key it has not)
USUAL_KEYS = ("face", "round", "colour", "mode", "dice", "end", "gear", "seconds", "card", "laps", "joker",
              "seconds_gained", "focus_gained", "seconds_spent", "focus_spent", "secured", "boost", "boost_face",
              "brake", "brake_face", "damage", "relaid", "replans", "token", "land")


@lru_cache(maxsize=1)
def _counting_check():
    """The compiled schema check that also counts keys and colons, and refuses ints of more than
    :data:`MAX_RECORD_DIGITS` digits (:func:`_read_checked`); the keys of :data:`USUAL_KEYS` looked for first."""
    return compile_counting_schema(record_schema(), MAX_RECORD_DIGITS, USUAL_KEYS)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    """The jsonschema validator, built once: it words the messages of a record the fast check refused."""
    return jsonschema.Draft202012Validator(record_schema())


def _document_order(data: object, path) -> tuple:
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


def _first_schema_error(data: object):
    """The schema error that comes first in the record (turns[2] before turns[10]), or None."""
    errors = list(_validator().iter_errors(data))
    if not errors:
        return None
    return min(errors, key=lambda e: _document_order(data, list(e.absolute_path)))


class _DuplicateKey(Exception):
    """A key written twice in one object (the strict reader locates it)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _DuplicateKey
    return out


#: every byte that is a digit -> ``0``, any other -> ``.``: a run of zeros is a run of digits
_DIGIT_BYTES = bytes(48 if 48 <= i <= 57 else 46 for i in range(256))
_TOO_MANY_DIGITS = b"0" * (MAX_RECORD_DIGITS + 1)


def _quick_json(text: str) -> Any:
    """The record's JSON, read by the C parser with only the duplicate-key hook, when the text can hold nothing
    else :func:`~rallyc.fileio.strict_json` refuses (no run of more than :data:`MAX_RECORD_DIGITS` digits, no
    ``NaN``, no ``Infinity``); ``None`` when it might, or when it is not valid: the strict reader then reads it
    again and locates the problem."""
    if "NaN" in text or "Infinity" in text:
        return None
    if _TOO_MANY_DIGITS in text.encode("utf-8", "replace").translate(_DIGIT_BYTES):
        return None
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError, _DuplicateKey):
        return None


def _no_constant(word: str) -> Any:
    """``NaN``, ``Infinity`` or ``-Infinity`` met by :data:`_PLAIN_JSON`: refused (the strict reader words it)."""
    raise ValueError(f"{word} is not a JSON number")


#: the longest number with a fraction or an exponent :func:`~rallyc.fileio.strict_json` reads
_MAX_FLOAT_TEXT = 400


def _short_float(text: str) -> float:
    """A number with a fraction or an exponent met by :data:`_PLAIN_JSON` (records have none): one longer than
    :func:`~rallyc.fileio.strict_json` reads is refused (the strict reader words it)."""
    if len(text) > _MAX_FLOAT_TEXT:
        raise ValueError("too long a number")
    return float(text)


#: the C parser, refusing NaN and Infinity as it meets them, and numbers with a fraction or an exponent too long for
#: the strict reader (no scan of the text for them); too long an int is the counting check's to refuse
_PLAIN_JSON = json.JSONDecoder(parse_constant=_no_constant, parse_float=_short_float)


def _read_checked(text: str) -> Any:
    """The record's JSON when it is valid, holds no key written twice and is valid under the schema, read in one
    pass of the C parser (no Python call per object) and one of the compiled schema check; ``None`` when any of
    that is not so or cannot be known this way: :func:`parse_record` then reads it as before, which finds and
    locates the problem.

    A key written twice is lost by the parser, so it is known by counting: outside strings a colon of JSON text
    separates a key from its value and nothing else, so the text's colons are the keys written plus the colons of
    its strings; the counting check adds up the keys of the objects and the colons of the strings it met, each
    at most once (:func:`~rallyc.records.schemacheck.compile_counting_schema`), which is at most the keys read
    plus the colons of the strings read, themselves at most the keys written plus the colons of the text's
    strings (without a ``\\u`` escape, which could make a colon in a string read that the text has not). The
    two counts are equal only when no key was lost.

    Numbers: the parser refuses a fraction or an exponent longer than the strict reader reads (:func:`_short_float`),
    and the counting check an int of more than :data:`MAX_RECORD_DIGITS` digits (JSON writes no leading zero: such
    an int is at least ``10 ** MAX_RECORD_DIGITS`` in size), so the text is not scanned for runs of digits."""
    if "\\" in text and "\\u" in text:  # one byte looked for first: a backslash is rare, and quickly found
        return None
    try:
        data = _PLAIN_JSON.decode(text)
    except (ValueError, RecursionError):
        return None
    counts = [0, 0]
    if not _counting_check()(data, counts) or counts[0] + counts[1] != text.count(":"):
        return None
    return data


def parse_record(text: str, file: str = "<record>") -> dict:
    """Parse and schema-check a record's text; raise :class:`RecordError` at the first problem.

    Refused besides schema violations: a key written twice in one object, numbers of more than
    :data:`MAX_RECORD_DIGITS` digits, ``NaN`` and ``Infinity`` (:func:`rallyc.fileio.strict_json`), Spare Tires of players not in the record.
    Schema violations are located twice: the JSON path and the line:column of the value.
    """
    if text.startswith("\ufeff"):  # a byte-order mark (Windows editors): not part of the JSON
        text = text[1:]
    data: Any = _read_checked(text)
    if data is not None:  # read, no key twice, valid under the schema: what remains of the checks below
        if isinstance(data, dict) and _known_keys().issuperset(data):
            problem = record_problem(data)
            if problem is None:
                return data
        data = None  # not so: the checks below, in their order
    data = _quick_json(text)
    try:
        if data is None:
            data = strict_json(text, MAX_RECORD_DIGITS)
    except StrictJSONError as exc:
        raise RecordError(f"invalid JSON: {exc.message}", file=file, path="", line=exc.line, column=exc.column) from None
    if isinstance(data, dict) and not _known_keys().issuperset(data):
        path, message = record_problem(data) or ("$", "unknown key")  # located at the key, not the whole record
        line, column = locate(text, path)
        raise RecordError(message, file=file, path=path, line=line, column=column)
    if not _fast_check()(data):
        err = _first_schema_error(data)
        if err is not None:
            line, column = locate(text, list(err.absolute_path))
            raise RecordError(f"schema: {err.message}", file=file, path=json_path(err.absolute_path),
                              line=line, column=column)
    problem = record_problem(data)
    if problem is not None:
        path, message = problem
        line, column = locate(text, path)
        raise RecordError(message, file=file, path=path, line=line, column=column)
    return data


def record_problem(data: dict) -> tuple[str, str] | None:
    """(JSON path, message) of the first thing a schema cannot say about a record, or None.

    Top-level keys the format does not know (for a record built in Python, which no schema check saw),
    Spare Tires (``stages[i].spare_tire``) given to a player who is not in ``players``, and Improvisation's
    re-plans in a ``rallyc-game/1`` record (they came with ``rallyc-game/2``).
    """
    if not isinstance(data, dict):
        return "$", "a game record is a JSON object"
    known = set(record_schema()["properties"])
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


def _replans_problem(data: dict) -> tuple[str, str] | None:
    """The first turn of a ``rallyc-game/1`` record stating re-plans (IMPROV-01), which that format has not."""
    race = data.get("race")
    parts = [("$.race", race)] if isinstance(race, dict) else \
        [(f"$.stages[{i}]", s) for i, s in enumerate(data.get("stages") or []) if isinstance(s, dict)]
    for where, part in parts:
        turns = part.get("turns") or []
        try:  # the usual answer, none, in one C loop (no Python step per turn)
            if not any(map(dict.__contains__, turns, repeat("replans"))):
                continue
        except TypeError:  # a turn that is not an object: each looked at below
            pass
        for j, turn in enumerate(turns):
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


def load_record(path: str | Path) -> dict:
    """Read and check a record file (raise :class:`RecordError`)."""
    return parse_record(read_record_text(path), str(Path(path)))
