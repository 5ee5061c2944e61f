"""`rallyc replay --explain`: under each turn, the rule IDs its outcome applied (recorded games of examples/games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"


def _replay(*args: str):
    r = CliRunner().invoke(app, ["replay", *args])
    return r.exit_code, r.stdout


def _turns(data: dict) -> list[dict]:
    if "race" in data:
        return [t for rnd in data["race"]["rounds"] for t in rnd["turns"]]
    return [t for st in data["stages"] for rnd in st["rounds"] for t in rnd["turns"]]


@pytest.mark.parametrize("game", ["rally-5-ss1-jump-water.json", "rx-1-race.json"])
def test_explain_prints_a_rules_line_under_every_turn(game):
    code, plain = _replay(str(GAMES / game))
    code_x, explained = _replay(str(GAMES / game), "--explain")
    assert code == code_x == 0
    lines = explained.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("      rules: ")]
    _, js = _replay(str(GAMES / game), "--format", "json")
    assert len(rules) == len(_turns(json.loads(js))) > 0
    # one line of the game's own rules; take the rules lines away and the text is the plain replay, turn lines
    # right above their rules
    game_lines = [i for i, line in enumerate(lines) if line.startswith("Rules of the game: ")]
    assert len(game_lines) == 1
    assert [line for i, line in enumerate(lines) if i not in set(rules + game_lines)] == plain.splitlines()
    assert all(lines[i - 1].startswith("    ") and not lines[i - 1].startswith("      ") for i in rules)


@pytest.mark.parametrize("game", ["rally-5-ss1-jump-water.json", "rx-1-race.json"])
def test_explain_in_json_keeps_applied_per_turn_and_default_json_does_not(game):
    _, plain = _replay(str(GAMES / game), "--format", "json")
    _, explained = _replay(str(GAMES / game), "--format", "json", "--explain")
    plain_turns, explained_turns = _turns(json.loads(plain)), _turns(json.loads(explained))
    assert all("applied" not in t for t in plain_turns)
    assert all(isinstance(t["applied"], list) for t in explained_turns)
    assert [{k: v for k, v in t.items() if k != "applied"} for t in explained_turns] == plain_turns


@pytest.mark.parametrize("record,family,expected", [
    ("tours/auto-tour-1.json", "TOUR", {"TOUR-01", "TOUR-05", "TOUR-06", "TOUR-07", "TOUR-08", "TOUR-09", "TOUR-11"}),
    ("auto-tour-1-ss1-head-to-head.json", "CUSTOM", {"CUSTOM-01", "CUSTOM-05", "CUSTOM-08", "CUSTOM-13", "CUSTOM-21"}),
    ("rally-4-full.json", "CORE-RALLY", {"CORE-RALLY-01", "CORE-STAGEEND-08"}),
])
def test_explain_prints_the_rules_the_game_applied_outside_its_turns(record, family, expected):
    """The Auto Tour's score sheet, a custom race's choices, the end of a rally's stages: in the report's own
    ``applied`` (JSON) and its ``Rules of the game:`` line (text), only with --explain."""
    code, explained = _replay(str(GAMES / record), "--format", "json", "--explain")
    _, plain = _replay(str(GAMES / record), "--format", "json")
    assert code == 0
    game = json.loads(explained)["applied"]
    assert expected <= set(game) and len(game) == len(set(game))
    assert "applied" not in json.loads(plain)
    _, text = _replay(str(GAMES / record), "--explain")
    line = next(line for line in text.splitlines() if line.startswith("Rules of the game: "))
    assert line.removeprefix("Rules of the game: ").split(", ") == game


@pytest.mark.parametrize("game", ["rx-1-race.json", "ice-track-1-race.json"])
def test_explain_names_the_damage_a_race_car_keeps(game):
    """RX-DAMAGE-09 (no repairs during an RX race) and RX-DAMAGE-02 (each Boost Damage token removes a Boost die):
    a turn lists them exactly when its car holds Damage tokens drawn in its earlier turns (a Yellow Flag goes on the
    track, not the Dashboard), Boost Damage for the second; the RX Damage bag's race lists RX-SETUP-02 at its
    first turn."""
    _, explained = _replay(str(GAMES / game), "--format", "json", "--explain")
    turns = _turns(json.loads(explained))
    held: dict[str, list[str]] = {}
    for t in turns:
        tokens = [d for d in held.setdefault(t["player"], []) if d != "yellow"]
        assert ("RX-DAMAGE-09" in t["applied"]) == bool(tokens), t["text"]
        assert ("RX-DAMAGE-02" in t["applied"]) == ("boost" in tokens), t["text"]
        held[t["player"]] += t["damage"] or []
    assert any("RX-DAMAGE-09" in t["applied"] for t in turns)
    assert ("RX-SETUP-02" in turns[0]["applied"]) == (game == "rx-1-race.json")
    if game == "rx-1-race.json":
        assert any("RX-DAMAGE-02" in t["applied"] for t in turns)


@pytest.mark.parametrize("game,weather", [("rx-2-rx-weather-wet.json", True), ("rx-2-rx-weather-dry.json", True),
                                          ("rx-2-rx-plain.json", False)])
def test_explain_names_the_rx_weather_chosen_at_setup(game, weather):
    """RX-WEATHER-01: a race played with the RX Weather rule starts in the weather chosen at setup; its first turn
    lists the rule with the setup's, a race without the rule does not."""
    code, explained = _replay(str(ROOT / "tests" / "data" / "corpus" / game), "--format", "json", "--explain")
    assert code == 0
    turns = _turns(json.loads(explained))
    assert ("RX-WEATHER-01" in turns[0]["applied"]) == weather
    assert not any("RX-WEATHER-01" in t["applied"] for t in turns[1:])
