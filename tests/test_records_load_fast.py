"""The record reader's fast paths agree with the long ways they skip.

- ``load._read_checked`` (the C parser without a hook, the counting schema check, the colon count) accepts a record
  only when the hooked parser and the compiled check accept it too, with the same data; a key written twice
  anywhere, colons in strings or not, a ``\\u`` escape, are never taken for a valid record;
- ``convert.turn_from_json`` / ``race.rx_turn_from_json`` (positional, words looked up in one go) build the same
  turns as the keyword-built reference, for every turn of every example game and for dice whose words are wrong
  (the same error).
"""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import fields
from pathlib import Path

import pytest

from helpers.records import json_paths
from rallyc.records import load as L
from rallyc.records.convert import TURN_FIELDS, _face, _roll_worded, turn_from_json
from rallyc.records.race import rx_turn_from_json
from rallyc.records.schemacheck import compile_counting_schema, compile_schema
from rallyc.rules.turn import CardClaim, Replan, Turn, ZeroSide

GAMES = sorted((Path(__file__).resolve().parent.parent / "examples" / "games").glob("*.json"))


def _objects(node):
    """Every object of a JSON value, depth first."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _objects(v)
    elif isinstance(node, list):
        for v in node:
            yield from _objects(v)


def _with_twice(text: str, rng: random.Random) -> str:
    """The record's text with one key of one object written twice (the copy first, its value another's)."""
    data = json.loads(text)
    target = rng.choice([o for o in _objects(data) if o])
    key = rng.choice(list(target))
    marker = "__twice__"
    target[marker] = None
    dumped = json.dumps(data, indent=rng.choice([None, 2]))
    value = rng.choice([json.dumps(key), "1", "true", '"a:b"', '{"x": 1}', "[]"])
    return dumped.replace(f'"{marker}": null', f'{json.dumps(key)}: {value}', 1)


def _old_read(text: str):
    """The reader before the fast path: the hooked parser and the compiled check."""
    data = L._quick_json(text)
    return data if data is not None and compile_schema(L.record_schema())(data) else None


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_fast_read_takes_every_example_and_no_key_written_twice(path):
    text = path.read_text(encoding="utf-8")
    fast = L._read_checked(text)
    assert fast is not None and fast == _old_read(text) == L.load_record(path)
    rng = random.Random(path.name)
    for _ in range(40):
        twice = _with_twice(text, rng)
        assert L._read_checked(twice) is None
        with pytest.raises(L.RecordError) as exc:
            L.parse_record(twice, "game.json")
        assert "appears twice" in exc.value.message


def test_counts_are_keys_and_colons_met_once():
    check = compile_counting_schema(L.record_schema())
    data = json.loads(GAMES[0].read_text(encoding="utf-8"))
    counts = [0, 0]
    assert check(data, counts)
    assert counts[0] == sum(len(o) for o in _objects(data))
    data["title"] = "a: b: c"
    counts = [0, 0]
    assert check(data, counts) and counts[1] == 2


@pytest.mark.parametrize("text", [
    '{"format": "rallyc-game/1", "title": "x\\u003a", "title": "y"}',  # an escaped colon cannot pay for a lost key
    '{"format": "rallyc-game/1", "title": "a:b", "title": "c"}',
])
def test_no_escape_or_colon_hides_a_key_written_twice(text):
    assert L._read_checked(text) is None
    with pytest.raises(L.RecordError):
        L.parse_record(text, "game.json")


def test_mutated_records_read_the_same_both_ways():
    rng = random.Random(9)
    values = ["1", "true", "null", '"x"', '"ok"', "[]", "{}", '"a:b"', "1.5", "-3"]
    texts = [p.read_text(encoding="utf-8") for p in GAMES]
    for _ in range(300):
        text = rng.choice(texts)
        i = rng.randrange(len(text))
        j = text.find(",", i)
        if j < 0:
            continue
        k = text.rfind(":", 0, j)
        mutant = text[:k + 1] + " " + rng.choice(values) + text[j:]
        fast = L._read_checked(mutant)
        if fast is not None:
            assert fast == _old_read(mutant)


def _reference_turn(d: dict) -> Turn:
    """turn_from_json as it was: keyword arguments, a call per word."""
    card = None
    if "card" in d:
        c = d["card"]
        zero = None
        if "zero" in c:
            z = c["zero"]
            zero = ZeroSide(z["icon"], dict(z.get("marks", {})), z.get("gear"), z.get("seconds"))
        card = CardClaim(c.get("gear"), c.get("seconds"), zero)
    return Turn(player=d["player"], dice=[_roll_worded(x) for x in d.get("dice", [])],
                flat_out=d.get("mode", "one-by-one") == "flat-out", start=d.get("start"),
                relaid=[_roll_worded(x) for x in d["relaid"]] if "relaid" in d else None,
                sisu=bool(d.get("sisu", False)), spare_tire=bool(d.get("spare_tire", False)), card=card,
                damage=list(d.get("damage", [])), round=d.get("round"), end=d.get("end"), gear=d.get("gear"),
                seconds_gained=d.get("seconds_gained"), seconds_spent=d.get("seconds_spent"),
                flipped=list(d["flipped"]) if "flipped" in d else None,
                replans=[Replan(int(x["after"]), [_roll_worded(r) for r in x.get("dice", [])])
                         for x in d.get("replans", [])])


def _reference_rx_turn(d: dict) -> Turn:
    return Turn(player=d["player"], dice=[_roll_worded(x) for x in d.get("dice", [])],
                flat_out=d.get("mode", "one-by-one") == "flat-out",
                relaid=[_roll_worded(x) for x in d["relaid"]] if "relaid" in d else None,
                damage=list(d.get("damage", [])), round=d.get("round"), end=d.get("end"), gear=d.get("gear"),
                seconds_gained=d.get("focus_gained"), seconds_spent=d.get("focus_spent"),
                replans=[Replan(int(x["after"]), [_roll_worded(r) for r in x.get("dice", [])])
                         for x in d.get("replans", [])])


def test_turn_fields_are_in_the_order_given():
    assert tuple(f.name for f in fields(Turn)) == TURN_FIELDS


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_turns_convert_as_the_reference_does(path):
    data = L.load_record(path)
    if "race" in data:
        pairs = [(rx_turn_from_json, _reference_rx_turn, t) for t in data["race"]["turns"]]
    else:
        pairs = [(turn_from_json, _reference_turn, t) for s in data["stages"] for t in s["turns"]]
    assert pairs
    for fast, reference, t in pairs:
        _same_object(fast(t), reference(t))
        # every key of a die left out, and every word made wrong, raises what the reference raises
        for d in t.get("dice", [])[:2]:
            for key in list(d):
                for value in (None, "nonsense", ["list"], 1):
                    bad = copy.deepcopy(t)
                    bad["dice"][0] = dict(d, **{key: value})
                    _same_outcome(fast, reference, bad)
                bad = copy.deepcopy(t)
                bad["dice"][0] = {k: v for k, v in d.items() if k != key}
                _same_outcome(fast, reference, bad)


def _same_object(got, want):
    """``got`` is ``want`` field for field, and also as an instance: the same class, the same attributes stored in
    the same order (the order the dataclass's ``__init__`` stores them; what ``vars`` and ``copy`` see) or, for a
    slotted class, every slot set (one left unset would raise at its first read), the dataclasses within (dice,
    re-plans, card) alike."""
    assert type(got) is type(want)
    if isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same_object(g, w)
    elif hasattr(want, "__dataclass_fields__"):
        if hasattr(want, "__slots__"):
            names = [f.name for f in fields(want)]
            assert list(want.__slots__) == names
        else:
            names = list(vars(want))
            assert list(vars(got)) == names
        for name in names:
            _same_object(getattr(got, name), getattr(want, name))
    else:
        assert got == want


def _same_outcome(fast, reference, t):
    try:
        want = reference(t)
    except Exception as exc:  # noqa: BLE001 - the same exception, whatever it is
        with pytest.raises(type(exc)) as got:
            fast(t)
        assert str(got.value) == str(exc)
        return
    _same_object(fast(t), want)


def test_face_words():
    assert _face(None) is None and _face("ok") == "ok"
    with pytest.raises(ValueError):
        _face("nonsense")


_VALUES = [None, True, False, 0, 1, -1, 2.5, 3.0, "", "x", "gear3", "warning", "ok", "crash", [], {}, [1], {"a": 1},
           10**6, "red", "SS1", "a:b", "1-2"]


@pytest.mark.parametrize("path", GAMES[::3], ids=lambda p: p.name)
def test_counting_check_agrees_with_jsonschema_on_mutated_records(path):
    import jsonschema

    schema = L.record_schema()
    check = compile_counting_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    data = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(path.name)
    paths = list(json_paths(data))[1:]
    invalid = 0
    for _ in range(150):
        m = copy.deepcopy(data)
        p = rng.choice(paths)
        node = m
        for k in p[:-1]:
            node = node[k]
        r = rng.random()
        if r < 0.6:
            node[p[-1]] = copy.deepcopy(rng.choice(_VALUES))
        elif r < 0.8 and isinstance(node, dict):
            del node[p[-1]]
        elif isinstance(node, dict):
            node["unknown_key"] = rng.choice(_VALUES)
        else:
            node.append(copy.deepcopy(rng.choice(_VALUES)))
        m = json.loads(json.dumps(m))  # what the parser makes: the counting check's only input
        expected = validator.is_valid(m)
        counts = [0, 0]
        assert check(m, counts) == expected
        if expected:
            assert counts[0] == sum(len(o) for o in _objects(m))
        invalid += not expected
    assert 20 < invalid < 150


def _turn_lists(data):
    """The record's lists of turns (the race's, or each stage's)."""
    if "race" in data:
        return [data["race"]["turns"]]
    return [s["turns"] for s in data["stages"]]


def _shape_mutant(data, rng):
    """A copy of the record cut down to three turns of one list, with one object of a turn changed as a shape
    check could get it wrong: a key left out (a required one too), an unknown key, keys in another order, a die
    with both ``push`` and ``through``, a value of another type."""
    m = copy.deepcopy(data)
    for turns in _turn_lists(m):
        turns[:] = []
    lists = _turn_lists(data)
    turns = rng.choice([t for t in lists if t])
    at = rng.randrange(len(turns))
    kept = copy.deepcopy(turns[max(0, at - 1):at + 2])
    _turn_lists(m)[lists.index(turns)][:] = kept
    target = rng.choice([o for o in _objects(kept) if o])
    r = rng.random()
    key = rng.choice(list(target))
    if r < 0.25:
        del target[key]
    elif r < 0.4:
        target[rng.choice(["unknown_key", "push", "through", "land", "note", "colour"])] = rng.choice(_VALUES)
    elif r < 0.55:
        items = list(target.items())
        rng.shuffle(items)
        target.clear()
        target.update(items)
    elif r < 0.65 and "die" in target:
        target["push"], target["through"] = {}, {}
    else:
        target[key] = copy.deepcopy(rng.choice(_VALUES))
    return json.loads(json.dumps(m))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_keyed_objects_check_as_jsonschema_does(path):
    """The counting check's function per closed object schema (schemacheck._Generator.keyed: required properties
    read, the others looked for until every key is met, a key no property names found by counting) and its quick
    tests of words and space names answer as jsonschema does and count every key of a valid record, on turns of
    every example changed where a keyed function could go wrong (keys left out, added, unknown, reordered; push and
    through together; values of other types)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(L.record_schema())
    data = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(f"shapes {path.name}")
    mutants = [_shape_mutant(data, rng) for _ in range(40)]
    expected = [validator.is_valid(m) for m in mutants]
    assert 5 < sum(expected) < len(mutants)
    check = compile_counting_schema(L.record_schema())
    for m, want in zip(mutants, expected):
        counts = [0, 0]
        assert check(m, counts) == want, m
        if want:
            assert counts[0] == sum(len(o) for o in _objects(m))
            assert counts[1] == sum(s.count(":") for s in _strings(m))


def _strings(node):
    """Every string value of a JSON value (not its keys)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_fast_read_refuses_nan_and_infinity_where_met(word):
    text = GAMES[0].read_text(encoding="utf-8")
    assert '"round": 1' in text
    assert L._read_checked(text.replace('"round": 1', f'"round": {word}', 1)) is None
    with pytest.raises(ValueError):
        L._PLAIN_JSON.decode(f'{{"note": [1, {word}]}}')
    with pytest.raises(L.RecordError) as exc:
        L.parse_record(text.replace('"round": 1', f'"round": {word}', 1), "game.json")
    assert "is not a JSON number" in exc.value.message


def test_fast_read_takes_escapes_but_unicode_ones():
    data = json.loads(GAMES[0].read_text(encoding="utf-8"))
    data["title"] = 'a "quoted" title\\with a backslash'
    text = json.dumps(data)
    assert "\\\\" in text and L._read_checked(text) == data
    assert L._read_checked(text.replace("quoted", "\\u0071uoted")) is None


def _reference_replans_problem(data):
    """load._replans_problem as it was: each turn looked at in Python."""
    race = data.get("race")
    parts = [("$.race", race)] if isinstance(race, dict) else \
        [(f"$.stages[{i}]", s) for i, s in enumerate(data.get("stages") or []) if isinstance(s, dict)]
    for where, part in parts:
        for j, turn in enumerate(part.get("turns") or []):
            if isinstance(turn, dict) and "replans" in turn:
                return f"{where}.turns[{j}].replans", "re-plans (Improvisation) need format rallyc-game/2"
    return None


def test_replans_problem_as_the_turn_by_turn_look():
    rng = random.Random(5)
    oddities = [1, "replans", ["replans"], None, {"replans": []}, {"player": "A"}, True]
    for path in GAMES:
        data = json.loads(path.read_text(encoding="utf-8"))
        data["format"] = "rallyc-game/1"
        assert L._replans_problem(data) == _reference_replans_problem(data)
        for _ in range(15):
            m = copy.deepcopy(data)
            turns = rng.choice(_turn_lists(m))
            if rng.random() < 0.2:
                (m["race"] if "race" in m else m["stages"][0])["turns"] = rng.choice(oddities)
            elif turns:
                turns[rng.randrange(len(turns))] = copy.deepcopy(rng.choice(oddities))
            try:
                want = _reference_replans_problem(m)
            except TypeError as exc:
                with pytest.raises(TypeError, match=str(exc)):
                    L._replans_problem(m)
                continue
            assert L._replans_problem(m) == want


def _strict_read(text: str):
    """The record's data as the strict reader reads it when it is valid under the schema, else None."""
    from rallyc.fileio import StrictJSONError, strict_json

    try:
        data = strict_json(text, L.MAX_RECORD_DIGITS)
    except StrictJSONError:
        return None
    return data if compile_schema(L.record_schema())(data) else None


_LONG = ["1" * 14, "9" * 15, "-" + "9" * 15, "1" + "0" * 15, "-1" + "0" * 15, "9" * 17, "1" * 40, "7" * 4400,
         "1." + "0" * 20, "1" + "0" * 20 + ".0", "2." + "0" * 398, "2." + "0" * 399, "1e999", "0.5e-3",
         '"12345678901234567890"', '"a1234567890123456789:0"']


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_long_numbers_read_as_the_strict_reader_does(path):
    """The fast read does not scan the text for runs of digits: an int of more than MAX_RECORD_DIGITS digits is the
    counting check's to refuse, a fraction or exponent longer than the strict reader reads the parser's. Whatever it
    takes is what the strict reader reads and the schema accepts, and it never takes an int of too many digits."""
    text = path.read_text(encoding="utf-8")
    spots = [m.span() for m in re.finditer(r'(?<=": )(-?\d+|"[^"]*")', text)]
    rng = random.Random(f"digits {path.name}")
    taken = 0
    for _ in range(60):
        start, end = rng.choice(spots)
        value = rng.choice(_LONG)
        mutant = text[:start] + value + text[end:]
        fast = L._read_checked(mutant)
        if fast is None:
            continue
        taken += 1
        assert json.dumps(fast) == json.dumps(_strict_read(mutant))
        assert not re.fullmatch(r"-?\d{16,}", value)
    assert taken
