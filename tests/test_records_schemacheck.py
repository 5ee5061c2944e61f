"""The compiled record-schema check (rallyc.records.schemacheck) says valid exactly when jsonschema does, and the
quick JSON read refuses what the strict reader refuses, with the strict reader's located message."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import jsonschema
import pytest

from helpers.records import json_paths
from rallyc.records.load import RecordError, parse_record, record_schema
from rallyc.records.schemacheck import SchemaNotSupported, compile_schema

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"
VALUES = [None, True, False, 0, 1, -1, 2.5, 3.0, "", "x", "gear3", "warning", "ok", "crash", [], {}, [1], {"a": 1},
          10**6, "red", "SS1"]


def _mutants(data, rng, n):
    paths = list(json_paths(data))[1:]
    for _ in range(n):
        m = copy.deepcopy(data)
        p = rng.choice(paths)
        node = m
        for k in p[:-1]:
            node = node[k]
        r = rng.random()
        if r < 0.6:
            node[p[-1]] = rng.choice(VALUES)
        elif r < 0.8 and isinstance(node, dict):
            del node[p[-1]]
        elif isinstance(node, dict):
            node["unknown_key"] = rng.choice(VALUES)
        else:
            node.append(rng.choice(VALUES))
        yield m


@pytest.mark.parametrize("name", ["rally-4-ss1-shortcut.json", "rally-5-ss1-jump-water.json",
                                  "auto-tour-1-ss2-monte-carlo.json", "ice-track-1-race.json"])
def test_compiled_check_agrees_with_jsonschema_on_mutated_records(name):
    schema = record_schema()
    check = compile_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    data = json.loads((GAMES / name).read_text(encoding="utf-8"))
    assert check(data) and validator.is_valid(data)
    invalid = 0
    for m in _mutants(data, random.Random(name), 120):
        expected = validator.is_valid(m)
        assert check(m) == expected
        invalid += not expected
    assert 20 < invalid < 120  # both kinds were tried


def test_schema_keywords_cover_types_combinators_and_objects():
    schema = {"$defs": {"n": {"type": "integer", "minimum": 1}},
              "type": "object", "required": ["a"],
              "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"enum": [1, "x", None]},
                             "c": {"oneOf": [{"type": "string"}, {"type": "number", "maximum": 3}]},
                             "d": {"type": "array", "items": {"not": {"const": True}}, "maxItems": 2}},
              "patternProperties": {"^p[0-9]$": {"type": ["boolean", "null"]}},
              "additionalProperties": False}
    check = compile_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    cases = [{"a": 1}, {"a": 0}, {"a": 1.0}, {"a": True}, {}, {"a": 2, "b": 1.0}, {"a": 2, "b": True},
             {"a": 2, "b": None}, {"a": 2, "c": "s"}, {"a": 2, "c": 4}, {"a": 2, "c": 2}, {"a": 2, "d": [1, 2]},
             {"a": 2, "d": [1, True]}, {"a": 2, "d": [1, 2, 3]}, {"a": 2, "p1": None}, {"a": 2, "p1": 1},
             {"a": 2, "q": 1}, [], "a"]
    for case in cases:
        assert check(case) == validator.is_valid(case), case
    with pytest.raises(SchemaNotSupported):
        compile_schema({"type": "object", "dependentRequired": {}})


@pytest.mark.parametrize("text, words", [
    ('{"format": "rallyc-game/1", "format": "x"}', 'appears twice'),
    ('{"format": 1234567890123456}', 'too long'),
    ('{"format": NaN}', 'is not a JSON number'),
    ('{"format": -Infinity}', 'is not a JSON number'),
    ('{"format": "x",}', 'invalid JSON'),
])
def test_quick_read_refuses_what_the_strict_reader_refuses(text, words):
    with pytest.raises(RecordError) as exc:
        parse_record(text, "game.json")
    assert words in exc.value.located() and exc.value.line == 1


def test_counting_check_bounds_ints_where_no_type_test_does():
    """With ``max_int_digits``, an int of more digits is refused wherever it stands: under a type test, and where
    none bounds it (an array without ``items``, a place the schema says nothing of, under ``not``, an object without
    properties, an open object's other keys, an ``anyOf`` with an open branch)."""
    from rallyc.records.schemacheck import compile_counting_schema

    schema = {"type": "object", "properties": {
        "a": {"type": "array"}, "b": {}, "c": {"not": {"type": "string"}}, "d": {"type": "object"},
        "e": {"type": "integer"}, "f": {"anyOf": [{"type": "integer"}, {}]}, "h": {"type": "number"}}}
    check = compile_counting_schema(schema, max_int_digits=3)
    unbounded = compile_counting_schema(schema)
    for limit, ok in ((999, True), (1000, False), (-999, True), (-1000, False)):
        for value in ({"a": [limit]}, {"b": limit}, {"b": [{"x": [limit]}]}, {"c": limit}, {"d": {"x": limit}},
                      {"e": limit}, {"f": limit}, {"g": limit}, {"h": limit}):
            assert check(value, [0, 0]) is ok, value
            assert unbounded(value, [0, 0]) is True, value


@pytest.mark.parametrize("usual", [(), ("e", "d", "b"), ("d", "zz", "a", "c", "p", "b")])
def test_keyed_objects_as_jsonschema_on_a_synthetic_schema(usual):
    """The counting check's keyed functions (a closed object schema: required properties read, the others looked for
    until every key is met) and their form written in an array's loop answer as jsonschema does and count every key
    of a valid value, for every combination of keys present (required or not, a pair that must not be together, a
    key no property names) and of values valid or not; also a closed object without properties, one that requires
    a key it does not allow, and ints whose own minimum or maximum is or is not within the size bound. The same
    whatever order the optional keys are looked for in (``usual``: the schema's, some first, a required one named)."""
    import itertools

    from rallyc.records.schemacheck import compile_counting_schema

    item = {"type": "object", "required": ["a"], "additionalProperties": False,
            "properties": {"a": {"enum": ["x", "y"]}, "b": {"type": "boolean"}, "c": {"type": "integer", "minimum": 0},
                           "d": {"$ref": "#/$defs/inner"}, "e": {"type": "integer", "minimum": -5000,
                                                                  "maximum": 10**6}},
            "not": {"required": ["b", "d"]}}
    schema = {"$defs": {"inner": {"type": "object", "additionalProperties": False,
                                  "properties": {"p": {"type": "integer", "minimum": 1, "maximum": 6}}},
                        "item": item},
              "type": "object", "additionalProperties": False,
              "properties": {"one": {"$ref": "#/$defs/item"}, "many": {"type": "array", "items": {"$ref": "#/$defs/item"}},
                             "empty": {"type": "object", "additionalProperties": False},
                             "never": {"type": "object", "required": ["z"], "additionalProperties": False,
                                       "properties": {"y": {"type": "integer"}}}}}
    check = compile_counting_schema(schema, max_int_digits=3, usual=usual)
    validator = jsonschema.Draft202012Validator(schema)
    choices = {"a": ["x", "q", 1], "b": [True, 1], "c": [3, -1, 999, 1000, 2.0], "d": [{}, {"p": 2}, {"p": 7}, []],
               "e": [0, -1000, -999, 999, 1000], "zz": [1]}
    objects = []
    for keys in itertools.chain.from_iterable(itertools.combinations(choices, r) for r in range(4)):
        for values in itertools.product(*(choices[k][:2] if len(keys) > 2 else choices[k] for k in keys)):
            objects.append(dict(zip(keys, values)))

    def small(node):  # the counting check refuses an int of more digits than max_int_digits wherever it stands
        if isinstance(node, dict):
            return all(small(v) for v in node.values())
        if isinstance(node, list):
            return all(small(v) for v in node)
        return type(node) is not int or -1000 < node < 1000

    def keys_of(node):
        if isinstance(node, dict):
            return len(node) + sum(keys_of(v) for v in node.values())
        if isinstance(node, list):
            return sum(keys_of(v) for v in node)
        return 0

    valids = [o for o in objects if validator.is_valid({"one": o}) and small(o)]
    cases = [{"one": o} for o in objects] + [{"many": [v, o]} for v, o in zip(itertools.cycle(valids), objects)]
    cases += [{"many": valids[i:i + 3]} for i in range(len(valids))]
    cases += [{"empty": {}}, {"empty": {"a": 1}}, {"never": {}}, {"never": {"y": 1}}, {"never": {"z": 1}},
              {"many": [{"a": "x"}, 1]}, {"many": "x"}]
    valid = 0
    for case in cases:
        expected = validator.is_valid(case) and small(case)
        counts = [0, 0]
        assert check(case, counts) == expected, case
        if expected:
            valid += 1
            assert counts[0] == keys_of(case), case
    assert 40 < valid < len(cases) - 100
