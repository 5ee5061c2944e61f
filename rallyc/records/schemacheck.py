# mypy: disable-error-code="misc"
"""A JSON Schema compiled once into Python closures: the fast yes/no check of a game record.

``jsonschema`` walks the schema afresh for every value (about 2.7 ms per turn of a record on the
2-core test machine); the closures here check the same keywords in a few microseconds. They only
say *whether* a record is valid: when it is not, :mod:`rallyc.records.load` asks ``jsonschema`` for
the messages, so the error text stays the one users know. The two are kept in step by a test that
runs both on every fuzzed record (``tests/test_records_load.py``).

Only the keywords the record schema uses are compiled; any other keyword is refused when the schema
is compiled (``SchemaNotSupported``), so a schema change can never silently weaken the check.
"""

from __future__ import annotations

import re
from typing import Any, Callable

__all__ = ["compile_schema", "SchemaNotSupported"]

Check = Callable[[Any], bool]

#: keywords that say nothing about validity
_ANNOTATIONS = {"description", "default", "title", "$schema", "$id", "$comment", "examples", "$defs"}


class SchemaNotSupported(ValueError):
    """The schema uses a keyword this compiler does not know."""


def _is_integer(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float))


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def compile_schema(schema: dict) -> Check:
    """A function value -> bool that is True exactly when ``value`` is valid under ``schema``."""
    root = schema
    cache: dict[str, Check] = {}

    def ref(pointer: str) -> Check:
        if pointer not in cache:
            if not pointer.startswith("#/"):
                raise SchemaNotSupported(f"$ref {pointer!r}: only local references are compiled")
            node: Any = root
            for part in pointer[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            cache[pointer] = lambda v: False  # a placeholder while a recursive reference compiles
            compiled = build(node)
            cache[pointer] = compiled
        return lambda v: cache[pointer](v)

    def build(node: Any) -> Check:
        if node is True:
            return lambda v: True
        if node is False:
            return lambda v: False
        checks: list[Check] = []
        for key, value in node.items():
            if key in _ANNOTATIONS:
                continue
            if key == "$ref":
                checks.append(ref(value))
            elif key == "type":
                names = [value] if isinstance(value, str) else list(value)
                tests = [_TYPES[n] for n in names]
                checks.append(tests[0] if len(tests) == 1 else (lambda v, ts=tuple(tests): any(t(v) for t in ts)))
            elif key == "enum":
                if all(isinstance(e, str) for e in value):
                    members = frozenset(value)
                    checks.append(lambda v, m=members: isinstance(v, str) and v in m)
                else:
                    checks.append(lambda v, es=tuple(value): any(_same(v, e) for e in es))
            elif key == "const":
                checks.append(lambda v, c=value: _same(v, c))
            elif key == "minimum":
                checks.append(lambda v, m=value: not _is_number(v) or v >= m)
            elif key == "maximum":
                checks.append(lambda v, m=value: not _is_number(v) or v <= m)
            elif key == "minLength":
                checks.append(lambda v, m=value: not isinstance(v, str) or len(v) >= m)
            elif key == "maxLength":
                checks.append(lambda v, m=value: not isinstance(v, str) or len(v) <= m)
            elif key == "pattern":
                checks.append(lambda v, p=re.compile(value): not isinstance(v, str) or p.search(v) is not None)
            elif key == "minItems":
                checks.append(lambda v, m=value: not isinstance(v, list) or len(v) >= m)
            elif key == "maxItems":
                checks.append(lambda v, m=value: not isinstance(v, list) or len(v) <= m)
            elif key == "items":
                item = build(value)
                checks.append(lambda v, c=item: not isinstance(v, list) or all(c(x) for x in v))
            elif key == "required":
                needed = tuple(value)
                checks.append(lambda v, n=needed: not isinstance(v, dict) or all(k in v for k in n))
            elif key in ("properties", "patternProperties", "additionalProperties"):
                continue  # compiled together below
            elif key == "anyOf":
                subs = tuple(build(s) for s in value)
                checks.append(lambda v, ss=subs: any(s(v) for s in ss))
            elif key == "oneOf":
                subs = tuple(build(s) for s in value)
                checks.append(lambda v, ss=subs: sum(1 for s in ss if s(v)) == 1)
            elif key == "allOf":
                subs = tuple(build(s) for s in value)
                checks.append(lambda v, ss=subs: all(s(v) for s in ss))
            elif key == "not":
                sub = build(value)
                checks.append(lambda v, s=sub: not s(v))
            else:
                raise SchemaNotSupported(f"schema keyword {key!r} is not compiled")
        if any(k in node for k in ("properties", "patternProperties", "additionalProperties")):
            checks.append(_object(node, build))
        if not checks:
            return lambda v: True
        if len(checks) == 1:
            return checks[0]
        all_checks = tuple(checks)
        return lambda v: all(c(v) for c in all_checks)

    return build(schema)


def _object(node: dict, build: Callable[[Any], Check]) -> Check:
    props = {k: build(s) for k, s in node.get("properties", {}).items()}
    patterns = [(re.compile(p), build(s)) for p, s in node.get("patternProperties", {}).items()]
    extra_schema = node.get("additionalProperties", True)
    extra: Check | None = None if extra_schema is True else build(extra_schema)

    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for key, value in v.items():
            known = False
            c = props.get(key)
            if c is not None:
                known = True
                if not c(value):
                    return False
            for p, pc in patterns:
                if p.search(key):
                    known = True
                    if not pc(value):
                        return False
            if not known and extra is not None and not extra(value):
                return False
        return True

    return check
