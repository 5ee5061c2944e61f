"""What a replay works out once per record before its turns, done the quick way, against the plain way: whether a
track has a Shortcut space, the Time-card table of the named assumptions, the digest of a track file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rallyc.data.components import load_components
from rallyc.records import load_record
from rallyc.records import replay, tracks
from rallyc.records.custom import _has_shortcut
from rallyc.records.replay import _assumed_cards, record_cards
from rallyc.records.stages import default_components, record_stages
from rallyc.rules.cards import CardTable

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def _tracks(game: Path) -> list:
    data = load_record(game)
    probe = data if "stages" in data else dict(data, stages=[{"turns": []} if "stage" not in data["race"]
                                                             else {"stage": data["race"]["stage"], "turns": []}])
    return record_stages(probe, game.parent)[0]


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_a_shortcut_space_is_found_as_a_scan_of_every_space_finds_it(game):
    for track in _tracks(game):
        assert _has_shortcut(track) == any(s.kind == "shortcut" for s in track.spaces.values())


def test_shortcut_tracks_and_others_are_both_among_the_examples():
    answers = {_has_shortcut(t) for g in GAMES for t in _tracks(g)}
    assert answers == {True, False}


def test_the_assumed_card_table_is_the_components_own_made_once_per_components():
    comp = default_components()
    table = _assumed_cards(comp)
    plain = CardTable.from_components(comp)
    assert (dict(table.gears), table.zero, table.sisu, table.spare_tire) == \
        (dict(plain.gears), plain.zero, plain.sisu, plain.spare_tire)
    assert _assumed_cards(comp) is table
    assert record_cards({"format": "rallyc-game/2"}, comp) is table
    assert record_cards({"format": "rallyc-game/2", "cards": {}}, comp) is table
    other = load_components()  # equal numbers, another object: its own table
    assert _assumed_cards(other) is not table
    third = load_components()
    replay._ASSUMED[id(third)] = (comp, table)  # as if a freed components' id were reused
    assert _assumed_cards(third) is not table
    header = record_cards({"format": "rallyc-game/2", "cards": {"zero": 90}}, comp)
    assert header is not table and header.zero == 90 and dict(header.gears) == dict(plain.gears)


def test_a_track_file_digest_is_the_sha256_of_its_bytes(tmp_path):
    sources = [p for g in GAMES for t in [load_record(g)] if "track" in t
               for p in [tracks.track_file(g.parent, t["track"])[0]]]
    assert sources
    for p in sources:
        assert tracks._digest(p) == hashlib.sha256(p.read_bytes()).hexdigest()
    big = tmp_path / "big.rally"
    big.write_bytes(bytes(range(256)) * 9000)  # more than one read of 1 MiB
    assert tracks._digest(big) == hashlib.sha256(big.read_bytes()).hexdigest()
    empty = tmp_path / "empty.rally"
    empty.write_bytes(b"")
    assert tracks._digest(empty) == hashlib.sha256(b"").hexdigest()
    assert tracks._digest(tmp_path) is None  # a folder
    assert tracks._digest(tmp_path / "none.rally") is None


def test_a_car_s_card_seconds_are_the_sum_of_its_pile():
    from rallyc.rules.state import Car, Card

    comp = default_components()
    car = Car("Ann", "red", comp.dashboard("r6", "gravel"))
    assert car.card_seconds == 0
    car.cards = [Card(3, 30), Card(0, 60, zero=True, icon="crash"), Card(5, 10), Card(0, 60, spare=True)]
    assert car.card_seconds == sum(c.seconds for c in car.cards) == 160
