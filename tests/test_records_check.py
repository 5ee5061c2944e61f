"""Reading a game record: what a user sees for a record that breaks the format, and that every valid one is read.

Each bad record is a small record (``RECORD``) with one thing changed; the message is the whole located line
``rallyc replay`` prints (file:line:column, the JSON path, the words), so a change to any of them shows here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.commands.cli import app
from rallyc.records.load import RecordError, load_record, parse_record

GAMES = sorted((EXAMPLES / "games").glob("*.json"))

RECORD = """{
 "format": "rallyc-game/2",
 "title": "a: small record",
 "sketch": ["N N S N | N N | F N N"],
 "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}],
 "stages": [{"turns": [
  {"player": "Ann", "round": 1, "dice": [{"die": "gear1", "to": "1.a", "face": "ok"}]},
  {"player": "Bob", "round": 1, "dice": [{"die": "gear1", "to": "1.b", "face": null}]}
 ]}]
}
"""
#: the start of Bob's turn (line 8), where several cases change something
BOB = '"round": 1, "dice": [{"die": "gear1", "to": "1.b"'


def _read(text: str) -> dict:
    return parse_record(text, "game.json")


def _changed(old: str, new: str) -> str:
    assert old in RECORD, old
    return RECORD.replace(old, new, 1)


def test_the_small_record_is_read_as_written():
    assert _read(RECORD) == json.loads(RECORD)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_example_record_is_read_as_written(path):
    assert load_record(path) == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("old, new", [
    (BOB, BOB.replace('"round": 1', '"round": 123456789012345')),  # 15 digits: a number, if not a likely one
    ('"title": "a: small record"', '"title": "a \\"quoted\\" \\\\ title"'),
    ('"title": "a: small record"', '"title": "\\u0071uoted: \\u003a"'),
    ('"face": "ok"', '"face": "warning", "brake": true, "brake_face": null, "land": "2.x"'),
    (BOB, BOB.replace('"round": 1', '"round": 1, "replans": [{"after": 1, "dice": []}]')),  # rallyc-game/2 has them
])
def test_valid_records_are_read(old, new):
    text = _changed(old, new)
    assert _read(text) == json.loads(text)


@pytest.mark.parametrize("old, new, message", [
    (BOB, BOB.replace('"round": 1', '"round": "one"'),
     "game.json:8:30: $.stages[0].turns[1].round: schema: 'one' is not of type 'integer'"),
    (BOB, BOB.replace('"round": 1', '"round": 0'),
     "game.json:8:30: $.stages[0].turns[1].round: schema: 0 is less than the minimum of 1"),
    ('"to": "1.b"', '"to": "1b"',
     "game.json:8:65: $.stages[0].turns[1].dice[0].to: schema: '1b' does not match '^[0-9]+\\\\.[A-Za-z0-9.]+$'"),
    ('"die": "gear1", "to": "1.a"', '"die": "gear7", "to": "1.a"',
     "game.json:7:50: $.stages[0].turns[0].dice[0].die: schema: 'gear7' is not one of ['gear1', 'gear2', 'gear3', "
     "'gear4', 'gear5', 'gear6', 'coast', 'leader', 'brake']"),
    ('"die": "gear1", "to": "1.a"', '"die": "gear1"',
     "game.json:7:42: $.stages[0].turns[0].dice[0]: schema: 'to' is a required property"),
    ('"face": "ok"', '"face": "ok", "colour": "red"',
     "game.json:7:42: $.stages[0].turns[0].dice[0]: schema: Additional properties are not allowed ('colour' was "
     "unexpected)"),
    ('"face": "ok"', '"face": "ok", "push": {}, "through": {}',
     "game.json:7:42: $.stages[0].turns[0].dice[0]: schema: {'die': 'gear1', 'to': '1.a', 'face': 'ok', 'push': {}, "
     "'through': {}} should not be valid under {'required': ['push', 'through']}"),
    ('"face": null', '"face": "maybe"',
     "game.json:8:80: $.stages[0].turns[1].dice[0].face: schema: 'maybe' is not valid under any of the given schemas"),
    ('{"name": "Bob", "colour": "blue"}', '{"name": "Bob"}',
     "game.json:5:48: $.players[1]: schema: 'colour' is a required property"),
    ('"format": "rallyc-game/2"', '"format": "rallyc-game/3"',
     "game.json:2:12: $.format: schema: 'rallyc-game/3' is not one of ['rallyc-game/1', 'rallyc-game/2']"),
    (' "title"', ' "colour_scheme": "dark",\n "title"',
     "game.json:3:19: $.colour_scheme: unknown key `colour_scheme` in a game record (known: assistance, cards, "
     "classification, design, format, options, players, race, sketch, stages, title, track)"),
    ('{"turns": [', '{"spare_tire": ["Cleo"], "turns": [',
     'game.json:6:29: $.stages[0].spare_tire[0]: a Spare Tire for "Cleo", who is not a player of this record '
     "(players: Ann, Bob)"),
])
def test_a_record_against_the_format_is_refused_where_it_is(old, new, message):
    with pytest.raises(RecordError) as raised:
        _read(_changed(old, new))
    assert raised.value.located() == message


def test_a_record_with_both_stages_and_a_race_is_refused_as_a_whole():
    with pytest.raises(RecordError) as raised:
        _read(_changed(' "sketch"', ' "race": {"turns": []},\n "sketch"'))
    assert raised.value.located().startswith("game.json:1:1: $: schema: {'format': 'rallyc-game/2', ")
    assert raised.value.located().endswith("} should not be valid under {'required': ['stages', 'race']}")


def test_replans_in_a_first_format_record_are_refused():
    text = _changed('"rallyc-game/2"', '"rallyc-game/1"').replace(BOB, BOB.replace('"round": 1', '"round": 1, "replans": []'))
    with pytest.raises(RecordError) as raised:
        _read(text)
    assert raised.value.located() == ("game.json:8:44: $.stages[0].turns[1].replans: re-plans (Improvisation) need "
                                      "format rallyc-game/2")


@pytest.mark.parametrize("old, new, message", [
    (BOB, BOB.replace('"round": 1', '"round": 1, "round": 2'),
     'game.json:8:33: invalid JSON: the key "round" appears twice in one object (the last would win silently)'),
    ('"face": "ok"', '"face": "ok", "face": "ok"',
     'game.json:7:86: invalid JSON: the key "face" appears twice in one object (the last would win silently)'),
    # a colon in a string, an escaped one, hide no key written twice
    ('"title": "a: small record"', '"title": "a: \\u003a", "title": "b"',
     'game.json:3:24: invalid JSON: the key "title" appears twice in one object (the last would win silently)'),
    (BOB, BOB.replace('"round": 1', '"round": NaN'), "game.json:8:30: invalid JSON: `NaN` is not a JSON number"),
    (BOB, BOB.replace('"round": 1', '"round": -Infinity'),
     "game.json:8:30: invalid JSON: `-Infinity` is not a JSON number"),
    (BOB, BOB.replace('"round": 1', '"round": 1234567890123456'),
     "game.json:8:30: invalid JSON: the number 1234567890123456 is too long (at most 15 digits)"),
    (']}]\n}', ']}],\n}', "game.json:10:1: invalid JSON: Expecting property name enclosed in double quotes"),
])
def test_a_record_that_is_not_strict_json_is_refused_where_it_is(old, new, message):
    with pytest.raises(RecordError) as raised:
        _read(_changed(old, new))
    assert raised.value.located() == message


def test_replay_prints_the_located_message_of_a_bad_record_and_exits_1(tmp_path: Path):
    source = EXAMPLES / "games" / "rx-1-race.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    data["track"] = str((source.parent / data["track"]).resolve())
    data["race"]["turns"][3]["joker"] = "maybe"
    record = tmp_path / "game.json"
    record.write_text(json.dumps(data, indent=1), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(record)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    line = next(i for i, text in enumerate(record.read_text().splitlines(), 1) if '"maybe"' in text)
    assert (f"{record}:{line}:14: error: $.race.turns[3].joker: schema: 'maybe' is not one of ['todo', 'in', 'done', "
            "'none']") in result.output
