"""Monte-Carlo Weather (MC-WEATHER-01..07): Weather tokens in the Damage bag flip the snow and asphalt
tiles ahead of the leading car, in place. Games are played by the bot on Auto Tour 1 SS2 (asphalt and
snow tiles, a gravel Assistance tile) and replayed from their records."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import rallyc
from rallyc.records import RecordError, replay_record
from rallyc.records.convert import turn_from_json
from rallyc.records.generate import bot_record
from rallyc.rules import Options, Player
from rallyc.rules.drivers.bot import RandomBot
from rallyc.rules.rally import Rally
from rallyc.rules.core.stage import Stage
from rallyc.rules.variants.weather import weather_flips

ROOT = Path(__file__).resolve().parent.parent
TRACK = ROOT / "examples" / "auto-tour-1.rally"
PLAYERS = [Player("A", "red", "r6", "asphalt"), Player("B", "blue", "r6", "snow")]


@pytest.fixture(scope="module")
def ss2():
    design = rallyc.compile(TRACK).designs[0]
    return design, design.track("SS2"), design.flipper("SS2")


_GAMES: dict[int, dict] = {}


def game(ss2, seed: int) -> dict:
    """A bot game with the weather option (Weather tokens drawn often at Shortcuts, to see flips)."""
    if seed not in _GAMES:
        design, track, flipper = ss2
        rec = bot_record([track], PLAYERS, seed=seed, options=Options(weather=True), flippers=[flipper],
                         bot=RandomBot(seed, weather=0.6), header={"track": "../auto-tour-1.rally", "design": design.title})
        rec["stages"][0]["stage"] = "SS2"
        _GAMES[seed] = json.loads(json.dumps(rec))
    return copy.deepcopy(_GAMES[seed])


def replay(rec: dict):
    return replay_record(rec, base_dir=ROOT / "examples" / "games")


def test_weather_tokens_join_the_damage_bag(ss2):
    """MC-WEATHER-01: the option adds the 6 Weather tokens to the DIRT bag; without a flipper the stage cannot
    use it (a clear error)."""
    _, track, flipper = ss2
    plain = Stage(track, PLAYERS)
    wet = Stage(track, PLAYERS, Options(weather=True), flipper=flipper)
    assert "weather" not in plain.damage_bag()
    assert wet.damage_bag()["weather"] == 6
    assert sum(wet.damage_bag().values()) == sum(plain.damage_bag().values()) + 6
    with pytest.raises(ValueError, match="weather option"):
        Stage(track, PLAYERS, Options(weather=True))


def test_bot_weather_games_replay_and_flip_ahead_of_the_leader(ss2):
    """MC-WEATHER-02 MC-WEATHER-03 MC-WEATHER-04 MC-WEATHER-05: replayed turn by turn, every flip turns over
    only snow/asphalt tiles ahead of the leading car's tile (the finish tile included, the gravel Assistance
    tile never), in place; a tile flipped an even number of times shows its first side again."""
    _, track, flipper = ss2
    original = {p.step: p for p in track.placed}
    seen_flips = 0
    for seed in (2, 3, 6):
        rec = game(ss2, seed)
        assert replay(rec).ok
        stage = Stage(track, PLAYERS, Options(weather=True), flipper=flipper)
        count = {s: 0 for s in original}
        for tj in rec["stages"][0]["turns"]:
            out = stage.play(turn_from_json(tj))
            if not out.flipped:
                continue
            seen_flips += 1
            racing = [c for c in stage.cars.values() if c.on_stage]
            lead = max(racing, key=lambda c: stage.index.spaces[c.space].progress) if racing else None
            if lead is not None:
                assert min(out.flipped) > stage.index.spaces[lead.space].step
            for s in out.flipped:
                count[s] += 1
            for p in stage.track.placed:
                o = original[p.step]
                assert (p.q, p.r, p.rot, p.entry, p.exit) == (o.q, o.r, o.rot, o.entry, o.exit)
                assert (p.tile == o.tile) == (count[p.step] % 2 == 0)
            assert 9 not in out.flipped  # 201b, gravel
        assert count[1] == 0
    assert seen_flips >= 3


def test_finish_tile_flips_too(ss2):
    """MC-WEATHER-02: the finish tile (302a, step 8) is among the tiles flipped."""
    flips = [t["flipped"] for t in game(ss2, 2)["stages"][0]["turns"] if t.get("flipped")]
    assert flips and all(8 in f for f in flips)


def test_several_weather_tokens_flip_once(ss2):
    """MC-WEATHER-06: two Weather tokens drawn in one turn flip the same tiles as one."""
    _, track, flipper = ss2
    stage = Stage(track, PLAYERS, Options(weather=True), flipper=flipper)
    car = stage.cars["A"]
    one = SimpleNamespace(tokens=["weather"], damage=[], end="3.1.l")
    two = SimpleNamespace(tokens=["weather"], damage=["weather", "gear"], end="3.1.l")
    none = SimpleNamespace(tokens=["ok"], damage=["gear"], end="3.1.l")
    assert weather_flips(stage, car, one, "road") == weather_flips(stage, car, two, "road") == [4, 5, 6, 7, 8]
    assert weather_flips(stage, car, none, "road") == []
    # the leader's own tile and the tiles behind it stay (Ambiguity 21)
    assert weather_flips(stage, car, SimpleNamespace(tokens=["weather"], damage=[], end="6.1.l"), "road") == [7, 8]
    # a finished car leaves the road: B, still waiting behind the Starting Line (step 1), leads
    done = SimpleNamespace(tokens=[], damage=["weather"], end="8.3.l")
    assert weather_flips(stage, car, done, "finished") == [2, 3, 4, 5, 6, 7, 8]


def test_weather_tokens_stay_on_the_dashboard_and_are_not_carried(ss2):
    """MC-WEATHER-07: drawn Weather tokens go on the drawer's Dashboard with no dice effect, and the rally
    carries none of them into the next stage."""
    _, track, flipper = ss2
    rec = game(ss2, 2)
    rally = Rally([track], PLAYERS, Options(weather=True), flippers=[flipper])
    stage = rally.start_stage()
    drawn = {"A": 0, "B": 0}
    for tj in rec["stages"][0]["turns"]:
        out = stage.play(turn_from_json(tj))
        drawn[out.player] += out.tokens.count("weather") + out.damage.count("weather")
    assert sum(drawn.values()) >= 1
    for name, car in stage.cars.items():
        assert car.damage.get("weather", 0) == drawn[name]
    end = rally.end_stage()
    assert all("weather" not in c["damage"] for c in end.carried.values())
    assert all("weather" not in k.damage for k in rally.carry.values())


def test_record_flipped_claim_is_checked(ss2):
    """MC-WEATHER-02: a record may state the flipped steps; a wrong claim is an error."""
    rec = game(ss2, 2)
    turns = rec["stages"][0]["turns"]
    i = next(k for k, t in enumerate(turns) if t.get("flipped"))
    turns[i]["flipped"] = [8]
    rep = replay(rec)
    assert rep.error.rule_id == "MC-WEATHER-02" and rep.error.path.endswith(f"turns[{i}].flipped")
    rec = game(ss2, 2)
    del rec["stages"][0]["turns"][i]["flipped"]  # derivable: leaving it out is fine
    assert replay(rec).ok


def test_weather_token_without_the_option(ss2):
    """MC-WEATHER-01: without the option the bag holds no Weather token."""
    rec = game(ss2, 2)
    rec["options"]["weather"] = False
    rep = replay(rec)
    assert rep.error.rule_id == "MC-WEATHER-01"


def test_weather_refused_on_a_sketch():
    """MC-WEATHER-04: a sketch has no tile sides to turn over: the weather option is refused with a clear error."""
    rec = {"format": "rallyc-game/1", "sketch": ["N S N N | N N F N"], "options": {"weather": True},
           "players": [{"name": "A", "colour": "red"}], "stages": [{"turns": []}]}
    with pytest.raises(RecordError, match="weather"):
        replay_record(rec)
