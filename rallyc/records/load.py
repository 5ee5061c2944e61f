"""Read a game record: JSON syntax errors with line:column, schema violations with a JSON path."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from rallyc.resources import schemas_dir

__all__ = ["RecordError", "load_record", "parse_record", "json_path", "record_schema"]


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


@lru_cache(maxsize=1)
def record_schema() -> dict:
    with (schemas_dir() / "game.schema.json").open(encoding="utf-8") as f:
        return json.load(f)


def parse_record(text: str, file: str = "<record>") -> dict:
    """Parse and schema-check a record's text; raise :class:`RecordError` at the first problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"invalid JSON: {exc.msg}", file=file, path="", line=exc.lineno, column=exc.colno) from None
    validator = jsonschema.Draft202012Validator(record_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(list(e.absolute_path)), list(map(str, e.absolute_path))))
    if errors:
        err = errors[0]
        raise RecordError(f"schema: {err.message}", file=file, path=json_path(err.absolute_path))
    return data


def load_record(path: str | Path) -> dict:
    """Read and check a record file (raise :class:`RecordError`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror}", file=str(p), path="") from None
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text", file=str(p), path="") from None
    return parse_record(text, str(p))
