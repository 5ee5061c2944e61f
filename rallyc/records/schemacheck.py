# mypy: disable-error-code="misc"
"""A JSON Schema compiled once into Python source: the fast yes/no check of a game record.

``jsonschema`` walks the schema afresh for every value (about 2.7 ms per turn of a record on the
2-core test machine). Here the schema is translated once into the source of a few Python functions
(one per object, array and ``$ref``; every other keyword inlined as an expression), compiled with
:func:`compile` and kept: a record is checked in a fraction of the time of parsing its JSON. The check
only says *whether* a record is valid: when it is not, :mod:`rallyc.records.load` asks ``jsonschema``
for the messages, so the error text stays the one users know. The two are kept in step by a test that
runs both on mutated example records (``tests/test_records_schemacheck.py``).

The counting form (:func:`compile_counting_schema`, what a record read on the fast path is checked with) also
looks words up in a set without a type test, and checks an object whose keys are all named properties by reading
the properties it has (no loop over its keys, no test of each key against the property names; the keys it has
that no property names are found by counting: ``tests/test_records_load_fast.py`` runs it against ``jsonschema``
too).

Only the keywords the record schema uses are compiled; any other keyword is refused when the schema
is compiled (``SchemaNotSupported``), so a schema change can never silently weaken the check. Nothing
from a record is ever part of the generated source: only the (bundled) schema's constants, and those
are passed to the functions as values, never spliced into the text.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

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


def _pattern_string(pattern: re.Pattern, seen: set, v: Any, counts: list) -> bool:
    """Whether ``v`` is a string that ``pattern`` matches somewhere, its colons counted (counting checks); one that
    matched and has no colon is kept in ``seen`` (bounded), which the generated test looks in first."""
    if type(v) is not str:
        return False
    if ":" in v:
        counts[1] += v.count(":")
        return pattern.search(v) is not None
    if pattern.search(v) is None:
        return False
    if len(seen) < _SEEN_MAX:
        seen.add(v)
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
#: (a subclass, which a record built in Python may hold, is not one of them: that check answers no); an int also
#: below ``_int_limit`` in size (of at most so many digits: :func:`compile_counting_schema`'s ``max_int_digits``)
_EXACT_TYPES = {
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "integer": "(type({v}) is int and _int_floor < {v} < _int_limit or type({v}) is float and {v}.is_integer())",
    "number": "(type({v}) is int and _int_floor < {v} < _int_limit or type({v}) is float)",
    "boolean": "({v} is True or {v} is False)",
    "null": "{v} is None",
}


def _small_ints(v: Any, limit: int) -> bool:
    """Whether every int in a JSON value (not a bool) is below ``limit`` in size: the counting check's test of a
    value that no type test of it bounds (a schema that says nothing of a value there)."""
    if type(v) is int:
        return -limit < v < limit
    if type(v) is list:
        return all(_small_ints(x, limit) for x in v)
    if type(v) is dict:
        return all(_small_ints(x, limit) for x in v.values())
    return True


def _bounds_ints(node: Any, root: dict, limit: int, depth: int = 0) -> bool:
    """Whether every int a node accepts, at its place or in the arrays and objects it accepts there, passes a type
    test (or equals one of its small ``enum`` or ``const`` members): the node has a ``type`` (with ``items`` when it
    allows an array, a keyword of the object's keys when it allows an object: the values within then have places of
    their own, :meth:`_Generator.at`), such an ``enum`` or ``const``, a ``$ref`` or an ``allOf`` part that bounds them,
    or ``anyOf``/``oneOf`` parts that all do. False when unsure (a reference met too deep)."""
    if node is False:
        return True
    if not isinstance(node, dict) or depth > 16:
        return False
    if "type" in node:
        types = [node["type"]] if isinstance(node["type"], str) else list(node["type"])
        if ("array" not in types or "items" in node) and \
                ("object" not in types or any(k in node for k in _OBJECT_KEYS)):
            return True
    small = lambda e: type(e) is not int or -limit < e < limit  # noqa: E731
    if "enum" in node and all(small(e) for e in node["enum"]):
        return True
    if "const" in node and small(node["const"]):
        return True
    if "$ref" in node and isinstance(node["$ref"], str) and node["$ref"].startswith("#/"):
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        if _bounds_ints(target, root, limit, depth + 1):
            return True
    if any(_bounds_ints(s, root, limit, depth + 1) for s in node.get("allOf", ())):
        return True
    return any(k in node and node[k] and all(_bounds_ints(s, root, limit, depth + 1) for s in node[k])
               for k in ("anyOf", "oneOf"))


#: the keywords a closed object node may have for its keyed function to check it whole (:meth:`_Generator.keyed`)
_FOLDED = {"type", "required", "not", "properties", "additionalProperties"}


def _closed(node: dict) -> bool:
    """Whether an object schema names every key it allows (no pattern, no other key)."""
    return node.get("additionalProperties", True) is False and "patternProperties" not in node


def _exclusive(node: dict) -> tuple[tuple[str, ...], ...] | None:
    """The keys an object node must not have all of (its ``not: {required: [...]}``), () without ``not``, None when
    its ``not`` says something else."""
    if "not" not in node:
        return ()
    neg = node["not"]
    if isinstance(neg, dict) and set(neg) - _ANNOTATIONS == {"required"}:
        return (tuple(neg["required"]),)
    return None


class _Generator:
    """Writes the source of the check: ``lines`` of function definitions, ``values`` the constants they use."""

    def __init__(self, root: dict, counting: bool = False, max_int_digits: int | None = None,
                 usual: Sequence[str] = ()) -> None:
        self.root = root
        #: the keys of a closed object looked for first, in this order (:meth:`keyed_body`)
        self.usual = {k: i for i, k in enumerate(usual)}
        #: counting: ints of more digits are refused (their sizes bounded where no type test does: :meth:`at`)
        self.int_limit = None if max_int_digits is None else 10 ** max_int_digits
        self.lines: list[str] = []
        self.values: dict[str, Any] = {"_is_integer": _is_integer, "_is_number": _is_number, "_same": _same,
                                       "_enum": _enum, "_colons": _colons, "_matched": _matched,
                                       "_pattern_string": _pattern_string, "_small_ints": _small_ints,
                                       "_int_limit": self.int_limit if self.int_limit is not None else float("inf"),
                                       "_int_floor": -self.int_limit if self.int_limit is not None else float("-inf")}
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
        #: (the id of a closed object schema, folded) -> the name of its keyed function (:meth:`keyed`)
        self.keyed_names: dict[tuple[int, bool], str] = {}
        #: the id of a closed object schema -> the check of an array of such objects (:meth:`items`), written once
        self.keyed_items: dict[int, str] = {}

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

    def at(self, node: Any, v: str) -> str:
        """The expression of :meth:`expr` for the value of a place in a document (the root, a property, an item):
        in a counting check that bounds ints, with the sizes of the ints in the value checked when no type test of
        the node bounds them (never in this project's record schema: each place there has a type)."""
        test = self.expr(node, v)
        if self.int_limit is None or _bounds_ints(node, self.root, self.int_limit):
            return test
        return f"({test} and _small_ints({v}, _int_limit))"

    def bounded(self, node: dict, test: str) -> str:
        """An exact int test (:data:`_EXACT_TYPES`) without the bound of size that the node's own ``minimum`` or
        ``maximum`` makes (tested beside it, in the same expression): one comparison less for a gear or a round."""
        limit: float = self.int_limit if self.int_limit is not None else float("inf")
        low: Any = node.get("minimum")
        high: Any = node.get("maximum")
        v = test[len("(type("):test.index(")")]
        bounds = ("" if _is_number(low) and low > -limit else "_int_floor < ") + v + \
            ("" if _is_number(high) and high < limit else " < _int_limit")
        whole = f"type({v}) is int and _int_floor < {v} < _int_limit"
        return test.replace(whole, f"type({v}) is int" + (f" and {bounds}" if bounds != v else ""), 1)

    def expr(self, node: Any, v: str) -> str:
        """A Python expression, true exactly when the value named ``v`` is valid under ``node``."""
        if node is True:
            return "True"
        if node is False:
            return "False"
        if self.counting:
            quick = self.quick(node, v)
            if quick is not None:
                return quick
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
                if known in _NUMERIC and self.types is _EXACT_TYPES:
                    test = self.bounded(node, test)
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
            if self.counting and known == "object" and _closed(node):  # a dict by now
                parts.append(f"{self.keyed(node, folded=False)}({v}, n)")
            else:
                parts.append(self.call(self.object(node), v))
        if not parts:
            return "True"
        return parts[0] if len(parts) == 1 else "(" + " and ".join(parts) + ")"

    def quick(self, node: Any, v: str) -> str | None:
        """The counting check's test of three common kinds of node, or None for any other: a set of words (an enum
        of strings and null, alone or in an ``anyOf``), a string matching a pattern (a name met before is not
        searched again), an object whose keys are all named properties (its keyed function, :meth:`keyed`).
        A set of words is looked up without a type test: a list or an object met there raises TypeError, which
        the counting check answers with no (the value is not valid there, and a counted node is never an
        alternative that another could make good: combinators are not counted)."""
        words = self.words(node)
        if words is not None:
            return f"{v} in {self.value(words)}"
        keys = set(node) - _ANNOTATIONS
        if keys == {"type", "pattern"} and node["type"] == "string":
            seen = self.value(set())
            return f"({v} in {seen} or _pattern_string({self.value(re.compile(node['pattern']))}, {seen}, {v}, n))"
        if node.get("type") == "object" and _closed(node) and keys <= _FOLDED and _exclusive(node) is not None:
            return f"(type({v}) is dict and {self.keyed(node, folded=True)}({v}, n))"
        return None

    def words(self, node: Any, depth: int = 0) -> frozenset | None:
        """The values a node accepts when they are a set of strings and null (exactly those: no number equals a
        string or None), else None."""
        if not isinstance(node, dict) or depth > 16:
            return None
        keys = set(node) - _ANNOTATIONS
        if keys == {"enum"} and all(e is None or isinstance(e, str) for e in node["enum"]):
            return frozenset(node["enum"])
        if keys == {"type"} and node["type"] == "null":
            return frozenset([None])
        if keys == {"$ref"}:
            return self.words(self.target(node["$ref"]), depth + 1)
        if keys == {"anyOf"} and node["anyOf"]:
            sets = [self.words(s, depth + 1) for s in node["anyOf"]]
            return None if any(s is None for s in sets) else frozenset().union(*sets)  # type: ignore[arg-type]
        return None

    def keyed(self, node: dict, folded: bool) -> str:
        """The name of the counting check of a closed object schema (every key it allows is a named property) for an
        object ``v`` known to be a dict (:meth:`keyed_body`); ``folded``: its ``required`` and ``not: {required}``
        are checked there too (the node has no other keyword; else the node's expression checks them). One function
        per schema node, written when the schema is compiled (a definition used in several places shares it)."""
        key = (id(node), folded)
        if key not in self.keyed_names:
            name = self.keyed_names[key] = self.name("keyed")
            body = self.keyed_body(node, folded, "v", "    ", "n[0] += k", "return True")
            self.lines += [self.head(name)] + body + [""]
        return self.keyed_names[key]

    def keyed_body(self, node: dict, folded: bool, obj: str, indent: str, count: str, done: str) -> list[str]:
        """The lines (at ``indent``) checking the dict named ``obj`` against a closed object schema: ``count`` with
        its number of keys ``k``, each required property read (a missing one: no), each other property looked for
        (the generator's ``usual`` keys first, in that order, then the schema's) until as many keys were met as the
        object has (``done``: the usual object is done before the last property), each value tested as it is met;
        an object that has a key no property names has more keys than the properties found: no (``return False``).
        No loop over the object's keys and no dispatch on them."""
        props = node.get("properties", {})
        required = list(dict.fromkeys(node.get("required", ()))) if folded else []
        groups = [list(g) for g in (_exclusive(node) or ())] if folded else []
        if any(k not in props for k in required) or any(all(k in required for k in g) for g in groups):
            return [f"{indent}return False"]  # a key it must have that no property allows, or keys it must not have
        # the other properties in the order their keys are most often met (the usual object is done sooner)
        rank = self.usual.get
        order = required + sorted((k for k in props if k not in required), key=lambda k: rank(k, len(self.usual)))
        # each group of keys it must not have all of, checked where the last of them (in this order) is found
        last = {max(g, key=order.index): g for g in groups if all(k in props for k in g)}
        i1, i2 = indent + "    ", indent + "        "
        out = [f"{indent}k = len({obj})", f"{indent}{count}"]
        for i, prop in enumerate(order):
            const, test = self.value(prop), self.at(props[prop], "x")
            if prop in required:
                out += [f"{indent}try:", f"{i1}x = {obj}[{const}]", f"{indent}except KeyError:", f"{i1}return False",
                        f"{indent}if not {test}:", f"{i1}return False"]
                if i == len(required) - 1:
                    out += [f"{indent}if k == {len(required)}:", f"{i1}{done}", f"{indent}m = {len(required)}"]
                continue
            if i == 0:
                out += [f"{indent}if k == 0:", f"{i1}{done}", f"{indent}m = 0"]
            out += [f"{indent}if {const} in {obj}:", f"{i1}x = {obj}[{const}]", f"{i1}if not {test}:",
                    f"{i2}return False"]
            if prop in last:
                others = [self.value(k) for k in last[prop] if k != prop]
                out += [f"{i1}if {' and '.join(f'{c} in {obj}' for c in others)}:", f"{i2}return False"]
            out += [f"{i1}m += 1", f"{i1}if m == k:", f"{i2}{done}"]
        if not order:
            out += [f"{indent}if k == 0:", f"{i1}{done}"]
        out.append(f"{indent}return False")  # a key that no property names
        return out

    def items(self, node: Any) -> str:
        closed = self.closed_item(node)
        if closed is not None and id(closed) in self.keyed_items:  # the same loop (dice laid, re-laid...): once
            return self.keyed_items[id(closed)]
        name = self.name("items")
        head = self.head(name)
        if closed is not None:  # the object's check written in the loop (a call less per item), its keys added up
            self.keyed_items[id(closed)] = name
            inline = self.keyed_body(closed, True, "o", "        ", "c += k", "continue")
            self.lines += [head,
                           f"    if not {self.types['array'].format(v='v')}:",
                           "        return True",
                           "    c = 0",
                           "    for o in v:",
                           f"        if not {self.types['object'].format(v='o')}:",
                           "            return False"] + inline + [
                           "    n[0] += c",
                           "    return True", ""]
            return name
        body = self.at(node, "x")
        self.lines += [head,
                       f"    if not {self.types['array'].format(v='v')}:",
                       "        return True",
                       "    for x in v:",
                       f"        if not {body}:",
                       "            return False",
                       "    return True", ""]
        return name

    def closed_item(self, node: Any) -> dict | None:
        """The closed object schema (the kind :meth:`quick` checks by its keyed function) that the items of an array
        are, through ``$ref``s, when the counting check can write its test in the array's loop; else None."""
        if not self.counting or (self.int_limit is not None and not _bounds_ints(node, self.root, self.int_limit)):
            return None
        for _ in range(16):
            if not isinstance(node, dict) or set(node) - _ANNOTATIONS != {"$ref"} or node["$ref"] in self.expanding:
                break
            node = self.target(node["$ref"])
        if not isinstance(node, dict) or self.words(node) is not None:
            return None
        keys = set(node) - _ANNOTATIONS
        if node.get("type") == "object" and _closed(node) and keys <= _FOLDED and _exclusive(node) is not None:
            return node
        return None

    def object(self, node: dict, props: list[tuple[str, str]] | None = None) -> str:
        """The function checking an object's keys and their values (``props``: the names of the properties'
        constants and their tests, when written already)."""
        name = self.name("object")
        head = self.head(name)
        counting = self.counting
        if props is None:
            props = [(self.value(k), self.at(s, "x")) for k, s in node.get("properties", {}).items()]
        patterns = [(self.value(re.compile(p)), self.at(s, "x")) for p, s in node.get("patternProperties", {}).items()]
        extra_schema = node.get("additionalProperties", True)
        extra = None if extra_schema is True and self.int_limit is None else self.at(extra_schema, "x")
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
            out.append(f"        {'if' if i == 0 else 'elif'} k == {key}:")
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


def schema_source(schema: dict, counting: bool = False, max_int_digits: int | None = None,
                  usual: Sequence[str] = ()) -> tuple[str, dict[str, Any]]:
    """The Python source of the check of ``schema`` (its entry point is ``check``) and the values it uses;
    ``counting``: of the counting check (:func:`compile_counting_schema`, ``max_int_digits`` and ``usual`` its)."""
    gen = _Generator(schema, counting, max_int_digits if counting else None, usual if counting else ())
    head = gen.head("check")
    body = gen.at(schema, "v")
    if counting:  # a list or an object looked up in a set of words: not valid there (_Generator.quick)
        gen.lines += [head, "    try:", f"        return {body}", "    except TypeError:", "        return False", ""]
    else:
        gen.lines += [head, f"    return {body}", ""]
    return "\n".join(gen.lines), gen.values


def compile_schema(schema: dict) -> Check:
    """A function value -> bool that is True exactly when ``value`` is valid under ``schema``."""
    source, values = schema_source(schema)
    namespace: dict[str, Any] = dict(values)
    exec(compile(source, "<record schema>", "exec"), namespace)  # the source is generated from the schema only
    return namespace["check"]


def compile_counting_schema(schema: dict, max_int_digits: int | None = None, usual: Sequence[str] = ()
                            ) -> CountingCheck:
    """The check of :func:`compile_schema` as ``check(value, counts)``, which also adds to ``counts[0]`` the keys
    of objects and to ``counts[1]`` the colons of strings it meets, each object and string at most once: the
    objects and strings a keyword checks (``properties``, ``items``, a ``type`` ``string``...), not those met
    inside ``anyOf``, ``oneOf``, ``allOf`` or ``not`` (which may try a value more than once) nor those no keyword
    checks. So a valid value's counts are at most its keys and its strings' colons, and equal to them when every
    object and string of it is checked outside those: :func:`rallyc.records.load.parse_record` compares them with
    the colons of the JSON text to know that no key was written twice without reading the text a second time.

    ``max_int_digits``: a valid value also holds no int of more digits (written in JSON, without leading zeros: no
    int of that size), which :func:`~rallyc.records.load.parse_record` then need not look for in the text.

    ``usual``: keys that an object of the documents checked most often has, most often first: a closed object's
    optional properties are looked for in this order (the others after them, in the schema's), so the usual object
    is found whole after fewer look-ups for keys it has not. The answer and the counts are the same in any order."""
    source, values = schema_source(schema, counting=True, max_int_digits=max_int_digits, usual=usual)
    namespace: dict[str, Any] = dict(values)
    exec(compile(source, "<record schema, counting>", "exec"), namespace)  # generated from the schema only
    return namespace["check"]
