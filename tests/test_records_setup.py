"""What a replay works out once per record before its turns: the Time-card table (the named assumptions, or the
record's own), the digest of a track file, a car's card seconds."""

from __future__ import annotations

import hashlib
from pathlib import Path

from rallyc.records import load_record
from rallyc.records import tracks
from rallyc.records.replay import record_cards
from rallyc.records.stages import default_components
from rallyc.rules.core.cards import CardTable

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def test_a_record_without_a_cards_table_plays_the_named_assumptions_and_its_header_overrides_them():
    comp = default_components()
    plain = CardTable.from_components(comp)
    assumed = record_cards({"format": "rallyc-game/2"}, comp)
    assert (dict(assumed.gears), assumed.zero, assumed.sisu, assumed.spare_tire) == \
        (dict(plain.gears), plain.zero, plain.sisu, plain.spare_tire)
    header = record_cards({"format": "rallyc-game/2", "cards": {"zero": 90}}, comp)
    assert header.zero == 90 and dict(header.gears) == dict(plain.gears)


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
    from rallyc.rules.core.state import Car, Card

    comp = default_components()
    car = Car("Ann", "red", comp.dashboard("r6", "gravel"))
    assert car.card_seconds == 0
    car.cards = [Card(3, 30), Card(0, 60, zero=True, icon="crash"), Card(5, 10), Card(0, 60, spare=True)]
    assert car.card_seconds == sum(c.seconds for c in car.cards) == 160
