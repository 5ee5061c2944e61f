# mypy: disable-error-code="misc"
"""A JSON Schema compiled once into Python source: the fast yes/no check of a game record.

``jsonschema`` walks the schema afresh for every value (about 2.7 ms per turn of a record on the
2-core test machine). Here the schema is translated once into the source of a few Python functions
(one per object, array and ``$ref``; every other keyword inlined as an expression), compiled with
:func:`compile` and kept: a record is checked in a fraction of the time of parsing its JSON. The check
only says *whether* a record is valid: when it is not, :mod:`rallyc.records.load` asks ``jsonschema``
for the messages, so the error text stays the one users know. The two are kept in step by a test that
runs both on mutated example records (``tests/test_records_schemacheck.py``).

Only the keywords the record schema uses are compiled; any other keyword is refused when the schema
is compiled (``SchemaNotSupported``), so a schema change can never silently weaken the check. Nothing
from a record is ever part of the generated source: only the (bundled) schema's constants, and those
are passed to the functions as values, never spliced into the text.
"""

from __future__ import annotations

import re
from typing import Any, Callable

__all__ = ["compile_schema", "compile_counting_schema", "schema_source", "SchemaNotSupported"]

Check = Callable[[Any], bool]
#: ``check(value, counts)``: the check of :data:`Check`, that also adds to ``counts`` (a list ``[keys, colons]``)
#: the keys of the objects and the colons of the strings it met (see :func:`compile_counting_schema`)
CountingCheck = Callable[[Any, list], bool]

#: keywords that say nothing about validity
_ANNOTATIONS = {"description", "default", "title", "$schema", "$id", "$comment", "examples", "$defs"}
_OBJECT_KEYS = ("properties", "patternProperties", "additionalProperties")
_NUMERIC = ("integer", "number")


class SchemaNotSupported(ValueError):
    """The schema uses a keyword this compiler does not know."""


def _is_integer(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float))


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def _enum(v: Any, members: tuple) -> bool:
    return any(_same(v, e) for e in members)


def _matched(pattern: re.Pattern, seen: set, v: str) -> bool:
    """Whether ``pattern`` matches ``v`` somewhere; a string that matched is kept in ``seen`` (a bounded memo of the
    counting check: space names come back turn after turn)."""
    if pattern.search(v) is None:
        return False
    if len(seen) < _SEEN_MAX:
        seen.add(v)
    return True


#: how many strings each pattern of a counting check remembers as matched
_SEEN_MAX = 4096


def _colons(v: str, counts: list) -> bool:
    """Count the colons of a string (counting checks); always true."""
    counts[1] += v.count(":")
    return True


#: the test of each JSON type, on a value named ``{v}`` (``type(v) is int`` first: the common case, quickly)
_TYPES = {
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "integer": "(type({v}) is int or _is_integer({v}))",
    "number": "(type({v}) is int or type({v}) is float or _is_number({v}))",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
}

#: the same tests for the values the JSON parser makes (the counting check's): their exact types, with no call
#: (a subclass, which a record built in Python may hold, is not one of them: that check answers no)
_EXACT_TYPES = {
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "integer": "(type({v}) is int or type({v}) is float and {v}.is_integer())",
    "number": "(type({v}) is int or type({v}) is float)",
    "boolean": "type({v}) is bool",
    "null": "{v} is None",
}


class _Generator:
    """Writes the source of the check: ``lines`` of function definitions, ``values`` the constants they use."""

    def __init__(self, root: dict, counting: bool = False) -> None:
        self.root = root
        self.lines: list[str] = []
        self.values: dict[str, Any] = {"_is_integer": _is_integer, "_is_number": _is_number, "_same": _same,
                                       "_enum": _enum, "_colons": _colons, "_matched": _matched}
        #: the type tests written: exact (no call) for the counting check, which only sees the JSON parser's values
        self.types = _EXACT_TYPES if counting else _TYPES
        #: (pointer, counting) -> the name of its function
        self.refs: dict[tuple[str, bool], str] = {}
        #: the references being inlined (one met again is recursive: a function of its own)
        self.expanding: set[str] = set()
        #: whether the code written now counts keys and colons: each object and string of a value is then met once
        #: by it; never inside anyOf/oneOf/allOf/not (which may try a value more than once)
        self.counting = counting
        self.count = 0

    def call(self, name: str, v: str) -> str:
        """A call of a generated function on the value named ``v`` (with the counts when counting)."""
        return f"{name}({v}, n)" if self.counting else f"{name}({v})"

    def head(self, name: str) -> str:
        """The ``def`` line of a generated function."""
        return f"def {name}(v, n):" if self.counting else f"def {name}(v):"

    def target(self, pointer: str) -> Any:
        """The schema at a local ``$ref``."""
        if not pointer.startswith("#/"):
            raise SchemaNotSupported(f"$ref {pointer!r}: only local references are compiled")
        node: Any = self.root
        for part in pointer[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def uncounted(self, make: Callable[[], str]) -> str:
        """The code ``make`` writes, written not counting."""
        was, self.counting = self.counting, False
        try:
            return make()
        finally:
            self.counting = was

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"_{prefix}{self.count}"

    def value(self, v: Any) -> str:
        """A name in the functions' namespace bound to the constant ``v``."""
        name = self.name("k")
        self.values[name] = v
        return name

    def ref(self, pointer: str) -> str:
        """The function checking the schema at a local ``$ref`` (defined once; recursion resolves by name)."""
        key = (pointer, self.counting)
        if key not in self.refs:
            node = self.target(pointer)
            name = self.refs[key] = self.name("ref")
            head = self.head(name)
            body = self.expr(node, "v")
            self.lines += [head, f"    return {body}", ""]
        return self.refs[key]

    def reference(self, pointer: str, v: str) -> str:
        """The check of a ``$ref``: its schema's expression inlined (a call less per value), or a call of its
        function when it is recursive."""
        if pointer in self.expanding:
            return self.call(self.ref(pointer), v)
        node = self.target(pointer)
        self.expanding.add(pointer)
        try:
            return self.expr(node, v)
        finally:
            self.expanding.discard(pointer)

    def expr(self, node: Any, v: str) -> str:
        """A Python expression, true exactly when the value named ``v`` is valid under ``node``."""
        if node is True:
            return "True"
        if node is False:
            return "False"
        parts: list[str] = []
        known: str | None = None
        if "type" in node:  # first: the keywords after it may then rely on it
            names = [node["type"]] if isinstance(node["type"], str) else list(node["type"])
            for n in names:
                if n not in self.types:
                    raise SchemaNotSupported(f"type {n!r} is not compiled")
            if len(names) == 1:
                known = names[0]
                test = self.types[known].format(v=v)
                if known == "string" and self.counting:
                    test = f"({test} and (':' not in {v} or _colons({v}, n)))"
                parts.append(test)
            else:
                parts.append("(" + " or ".join(self.types[n].format(v=v) for n in names) + ")")
        numeric = known in _NUMERIC

        def guard(test: str, kind: str, cond: str) -> str:
            """``cond`` where the value has the type ``kind`` (the keyword says nothing of other values)."""
            ok = known == kind or (kind == "number" and numeric)
            return cond if ok else f"(not {test} or {cond})"

        for key, val in node.items():
            if key in _ANNOTATIONS or key == "type" or key in _OBJECT_KEYS:
                continue
            if key == "$ref":
                # a node that checks more than its reference counts on its own: its reference then does not
                alone = all(k in _ANNOTATIONS or k == "$ref" for k in node)
                parts.append(self.reference(val, v) if alone else self.uncounted(lambda: self.reference(val, v)))
            elif key == "enum":
                if all(isinstance(e, str) for e in val):
                    members = self.value(frozenset(val))
                    parts.append(f"{v} in {members}" if known == "string" else
                                 f"({self.types['string'].format(v=v)} and {v} in {members})")
                else:
                    parts.append(f"_enum({v}, {self.value(tuple(val))})")
            elif key == "const":
                parts.append(f"_same({v}, {self.value(val)})")
            elif key in ("minimum", "maximum"):
                op = ">=" if key == "minimum" else "<="
                parts.append(guard(f"_is_number({v})", "number", f"{v} {op} {self.value(val)}"))
            elif key in ("minLength", "maxLength"):
                op = ">=" if key == "minLength" else "<="
                parts.append(guard(self.types["string"].format(v=v), "string", f"len({v}) {op} {self.value(val)}"))
            elif key == "pattern":
                regex = self.value(re.compile(val))
                if known == "string" and self.counting:  # a string by now: a name matched before is not searched
                    seen = self.value(set())
                    parts.append(f"({v} in {seen} or _matched({regex}, {seen}, {v}))")
                else:
                    parts.append(guard(self.types["string"].format(v=v), "string",
                                       f"{regex}.search({v}) is not None"))
            elif key in ("minItems", "maxItems"):
                op = ">=" if key == "minItems" else "<="
                parts.append(guard(self.types["array"].format(v=v), "array", f"len({v}) {op} {self.value(val)}"))
            elif key == "items":
                parts.append(self.call(self.items(val), v))
            elif key == "required":
                if val:
                    parts.append(guard(self.types["object"].format(v=v), "object",
                                       "(" + " and ".join(f"{self.value(k)} in {v}" for k in val) + ")"))
            elif key == "anyOf":
                parts.append(self.uncounted(lambda: "(" + " or ".join(self.expr(s, v) for s in val) + ")"))
            elif key == "oneOf":
                parts.append(self.uncounted(lambda: "(" + " + ".join(f"bool({self.expr(s, v)})" for s in val)
                                            + " == 1)"))
            elif key == "allOf":
                parts.append(self.uncounted(lambda: "(" + " and ".join(self.expr(s, v) for s in val) + ")"))
            elif key == "not":
                parts.append(self.uncounted(lambda: f"not {self.expr(val, v)}"))
            else:
                raise SchemaNotSupported(f"schema keyword {key!r} is not compiled")
        if any(k in node for k in _OBJECT_KEYS):
            parts.append(self.call(self.object(node), v))
        if not parts:
            return "True"
        return parts[0] if len(parts) == 1 else "(" + " and ".join(parts) + ")"

    def items(self, node: Any) -> str:
        name = self.name("items")
        head = self.head(name)
        body = self.expr(node, "x")
        self.lines += [head,
                       f"    if not {self.types['array'].format(v='v')}:",
                       "        return True",
                       "    for x in v:",
                       f"        if not {body}:",
                       "            return False",
                       "    return True", ""]
        return name

    def object(self, node: dict) -> str:
        name = self.name("object")
        head = self.head(name)
        counting = self.counting
        props = [(k, self.expr(s, "x")) for k, s in node.get("properties", {}).items()]
        patterns = [(self.value(re.compile(p)), self.expr(s, "x")) for p, s in node.get("patternProperties", {}).items()]
        extra_schema = node.get("additionalProperties", True)
        extra = None if extra_schema is True else self.expr(extra_schema, "x")
        out = [head, f"    if not {self.types['object'].format(v='v')}:", "        return True"]
        if counting:
            out.append("    n[0] += len(v)")
        start = len(out)
        # the counting check: by key (no call of items() per object)
        out += ["    for k in v:", "        x = v[k]"] if counting else ["    for k, x in v.items():"]
        track = bool(patterns) and extra is not None  # whether a key matched a property or a pattern
        if track:
            out.append("        known = False")
        for i, (key, test) in enumerate(props):
            out.append(f"        {'if' if i == 0 else 'elif'} k == {self.value(key)}:")
            if track:
                out.append("            known = True")
            out += [f"            if not {test}:", "                return False"]
        if patterns:
            for regex, test in patterns:
                out.append(f"        if {regex}.search(k) is not None:")
                if track:
                    out.append("            known = True")
                out += [f"            if not {test}:", "                return False"]
            if track:
                out += ["        if not known:", f"            if not {extra}:", "                return False"]
        elif extra is not None:
            if props:
                out.append("        else:")
                out += [f"            if not {extra}:", "                return False"]
            else:
                out += [f"        if not {extra}:", "            return False"]
        if len(out) == start + (2 if counting else 1):  # no property, no pattern, any extra key: nothing to check
            out = out[:start]
        out += ["    return True", ""]
        self.lines += out
        return name


def schema_source(schema: dict, counting: bool = False) -> tuple[str, dict[str, Any]]:
    """The Python source of the check of ``schema`` (its entry point is ``check``) and the values it uses;
    ``counting``: of the counting check (:func:`compile_counting_schema`)."""
    gen = _Generator(schema, counting)
    head = gen.head("check")
    body = gen.expr(schema, "v")
    gen.lines += [head, f"    return {body}", ""]
    return "\n".join(gen.lines), gen.values


def compile_schema(schema: dict) -> Check:
    """A function value -> bool that is True exactly when ``value`` is valid under ``schema``."""
    source, values = schema_source(schema)
    namespace: dict[str, Any] = dict(values)
    exec(compile(source, "<record schema>", "exec"), namespace)  # the source is generated from the schema only
    return namespace["check"]


def compile_counting_schema(schema: dict) -> CountingCheck:
    """The check of :func:`compile_schema` as ``check(value, counts)``, which also adds to ``counts[0]`` the keys
    of objects and to ``counts[1]`` the colons of strings it meets, each object and string at most once: the
    objects and strings a keyword checks (``properties``, ``items``, a ``type`` ``string``...), not those met
    inside ``anyOf``, ``oneOf``, ``allOf`` or ``not`` (which may try a value more than once) nor those no keyword
    checks. So a valid value's counts are at most its keys and its strings' colons, and equal to them when every
    object and string of it is checked outside those: :func:`rallyc.records.load.parse_record` compares them with
    the colons of the JSON text to know that no key was written twice without reading the text a second time."""
    source, values = schema_source(schema, counting=True)
    namespace: dict[str, Any] = dict(values)
    exec(compile(source, "<record schema, counting>", "exec"), namespace)  # generated from the schema only
    return namespace["check"]
