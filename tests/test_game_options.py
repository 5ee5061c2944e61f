"""A design's options are in force when its games replay (rallyc.records.game_options, rallyc.model.options).

Real inputs: the published rallies and circuits of examples/ and the recorded games of examples/games,
copied to a temporary folder where the design's `options` line (or the record) is changed.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.rules.core.options import Options

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"


def _copy(tmp_path: Path, game: str, track: str, options_line: str | None = None,
          edit=None) -> Path:
    (tmp_path / "games").mkdir()
    text = (ROOT / "examples" / track).read_text(encoding="utf-8")
    if options_line is not None:  # the design's options line, as the last statement of the rally or circuit
        head, _, tail = text.rstrip().rpartition("}")
        text = head + f"  {options_line}\n}}" + tail + "\n"
    (tmp_path / track).write_text(text, encoding="utf-8")
    data = json.loads((GAMES / game).read_text(encoding="utf-8"))
    if edit is not None:
        edit(data)
    out = tmp_path / "games" / game
    out.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return out


def _replay(path: Path, *args: str):
    r = CliRunner().invoke(app, ["replay", str(path), *args])
    return r.exit_code, r.stdout, r.stderr


def test_the_design_options_are_the_defaults_of_its_games(tmp_path):
    """rally-4-full was played with SISU per rally and Flying Start: with those on the design's options line,
    a record that says nothing of them replays to the same results (CORE-ADV-01, CORE-ADV-15)."""
    def drop(data):
        for key in ("sisu", "flying_start"):
            del data["options"][key]
    original = _replay(GAMES / "rally-4-full.json", "--format", "json")
    path = _copy(tmp_path, "rally-4-full.json", "rally-4.rally", "options sisu per-rally, flying-start", drop)
    code, out, _ = _replay(path, "--format", "json")
    assert original[0] == 0 and code == 0
    assert json.loads(out) == json.loads(original[1])
    # without them on the design line the same record is refused: its turns need the options
    bare = tmp_path / "bare"
    bare.mkdir()
    path = _copy(bare, "rally-4-full.json", "rally-4.rally", None, drop)
    assert _replay(path)[0] == 1


def test_a_record_may_set_what_the_players_choose(tmp_path):
    """The design proposes Redline; the record of a game played without it says so, and replays (CORE-ADV-07)."""
    path = _copy(tmp_path, "rally-1-ss1-failed-flat-out.json", "rally-1.rally", "options redline")
    assert _replay(path)[0] == 0


def test_a_record_contradicting_the_circuit_laps_is_a_located_error(tmp_path):
    """rx-1 is a 3-lap circuit: a record that says 2 laps is refused at the option, file:line:column."""
    def two_laps(data):
        data["options"]["laps"] = 2
    path = _copy(tmp_path, "rx-1-race.json", "rx-1.rally", None, two_laps)
    code, _, err = _replay(path)
    assert code == 1
    assert re.search(r"rx-1-race\.json:\d+:\d+: error(\[[A-Z0-9-]+\])?: \$\.options\.laps: .*fixes `laps` to 3", err), err


def test_a_record_agreeing_with_the_circuit_laps_replays(tmp_path):
    def three_laps(data):
        data["options"]["laps"] = 3
    path = _copy(tmp_path, "rx-1-race.json", "rx-1.rally", None, three_laps)
    assert _replay(path)[0] == 0


def test_a_record_contradicting_the_race_type_is_a_located_error(tmp_path):
    def h2h(data):
        data["options"]["race-type"] = "head-to-head"
    path = _copy(tmp_path, "rally-1-ss1-failed-flat-out.json", "rally-1.rally", "options race-type time-trial", h2h)
    code, _, err = _replay(path)
    assert code == 1
    assert re.search(r"\.json:\d+:\d+: error(\[[A-Z0-9-]+\])?: \$\.options\.race-type: the design fixes `race-type` to `time-trial`", err), err


def test_an_option_given_twice_in_a_record(tmp_path):
    def twice(data):
        data["options"]["flying-start"] = True
    path = _copy(tmp_path, "rally-1-ss1-failed-flat-out.json", "rally-1.rally", None, twice)
    code, _, err = _replay(path)
    assert code == 1 and "given twice" in err


def test_repairs_in_force_are_refereed_at_replay(tmp_path):
    """CUSTOM-15: `repairs no` is refereed (a race has no repairs anyway): the race replays, no warning; `repairs
    yes` asks for GT Pit Stops in a race without Time cards: refused at the option, naming CUSTOM-15."""
    path = _copy(tmp_path, "rx-1-race.json", "rx-1.rally", "options repairs no")
    code, out, err = _replay(path)
    assert code == 0 and "not refereed" not in err
    (tmp_path / "yes").mkdir()
    path = _copy(tmp_path / "yes", "rx-1-race.json", "rx-1.rally", "options repairs yes")
    code, out, err = _replay(path)
    assert code == 1 and "CUSTOM-15" in out + err


def test_full_contact_in_force_is_refereed_at_replay(tmp_path):
    """RX-ADV-01: the design's `options full-contact` is in force: rx-1-race, played without it, has a car that
    stayed blocked where it could now push the car ahead (CORE-MOVE-07); no warning."""
    path = _copy(tmp_path, "rx-1-race.json", "rx-1.rally", "options full-contact")
    code, out, err = _replay(path)
    assert code == 1 and "full-contact" not in err
    assert "error[CORE-MOVE-07]: " in err and ": the car must move at least one space" in err


def test_improvisation_in_force_is_refereed_at_replay(tmp_path):
    """IMPROV-01: the design's `options improvisation` is in force: its games replay with no warning (the
    example game never re-plans, which the option allows)."""
    path = _copy(tmp_path, "rally-1-ss1-failed-flat-out.json", "rally-1.rally", "options improvisation")
    code, out, err = _replay(path)
    assert code == 0 and "improvisation" not in err


def test_the_design_weather_word_is_the_rx_start_weather(tmp_path):
    """A circuit's `options weather wet` starts its races wet (RX-WEATHER-01): rx-1-race was played dry on
    Asphalt tires, so in the wet its Coast die is refused (RX-WEATHER-05); the players may play without the
    Weather rule by saying so in the record, and then it replays."""
    path = _copy(tmp_path, "rx-1-race.json", "rx-1.rally", "options weather wet")
    code, out, _ = _replay(path, "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["race"]["weather"] == "wet"
    assert data["error"]["message"] == "on wet this Dashboard coasts with Leader dice, not Coast dice"

    def no_weather(data):
        data["options"]["weather"] = False
    other = tmp_path / "dry"
    other.mkdir()
    path = _copy(other, "rx-1-race.json", "rx-1.rally", "options weather wet", no_weather)
    code, out, _ = _replay(path, "--format", "json")
    assert code == 0 and json.loads(out)["race"]["weather"] is None


def test_check_warns_about_repairs_in_a_race(tmp_path):
    """RC162: `repairs yes` on a circuit raced without Time cards (GT Pit Stops, CUSTOM-15); `repairs no` is
    refereed: no warning."""
    shutil.copy(ROOT / "examples" / "rx-1.rally", tmp_path / "rx-1.rally")
    p = tmp_path / "rx-1.rally"
    text = p.read_text(encoding="utf-8").rstrip()
    p.write_text(text[:-1] + "  options repairs yes\n}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(p)])
    assert r.exit_code == 0
    assert re.search(r"rx-1\.rally:\d+:\d+: warning\[RC162\]: repairs in a race without Time cards", r.output)
    assert "CUSTOM-15" in r.output
    p.write_text(text[:-1] + "  options repairs no\n}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(p)])
    assert r.exit_code == 0 and "RC160" not in r.output and "RC162" not in r.output


def test_full_contact_on_a_circuit_is_refereed_no_warning(tmp_path):
    """RX-ADV-01: Full Contact is played by the RX referee (rallyc.rules.variants.full_contact): no RC160 on a circuit."""
    shutil.copy(ROOT / "examples" / "rx-2.rally", tmp_path / "rx-2.rally")
    p = tmp_path / "rx-2.rally"
    text = p.read_text(encoding="utf-8").rstrip()
    p.write_text(text[:-1] + "  options full-contact\n}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(p)])
    assert r.exit_code == 0, r.output
    assert "RC160" not in r.output and "RC161" not in r.output


@pytest.mark.parametrize("data", [{"full-contact": True}, {"full_contact": True}, {"improvisation": True},
                                  {"race-type": "time-trial"}, {"sisu": True}, {"laps": 3}])
def test_options_from_any_spelling(data):
    opts = Options.from_dict(data)
    assert isinstance(opts, Options)


def test_options_unknown_or_bad_value_is_a_value_error():
    with pytest.raises(ValueError):
        Options.from_dict({"full_contactt": True})
    with pytest.raises(ValueError):
        Options.from_dict({"sisu": "per-lap"})
    assert Options.from_dict({"repairs": "no"}).unrefereed() == []
    assert Options.from_dict({"race-type": "time-trial"}).unrefereed() == []
    assert Options.from_dict({"full-contact": True, "improvisation": True}).unrefereed() == []


def test_compiled_json_values_options_as_the_registry(tmp_path):
    """`rallyc compile`: a switch is true, a bare worded option its first word (sisu: per-stage, CORE-ADV-15)."""
    text = (ROOT / "examples" / "rally-1.rally").read_text(encoding="utf-8").rstrip()
    p = tmp_path / "r.rally"
    p.write_text(text[:-1] + "  options sisu, flying-start, weather wet\n}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["compile", str(p)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["design"]["options"] == {"flying-start": True, "sisu": "per-stage", "weather": "wet"}


@pytest.mark.parametrize("design, option, code", [
    ("rx-1.rally", "sisu per-rally", "RC161"),       # SISU is a DIRT rule, not an RX one (RX-ADV-01)
    ("rx-1.rally", "handbrake", "RC161"),
    ("rx-1.rally", "flying-start", None),            # RX-ADV-01
    ("rally-1.rally", "improvisation", None),        # IMPROV-01: any race
    ("rx-1.rally", "improvisation", None),
    ("rally-1.rally", "race-type time-trial", None),  # a custom Time Trial on a stage: the core stage
    ("rally-1.rally", "repairs no", None),           # CUSTOM-15: no Spare Tire, no tire change, no repairs
    ("rally-1.rally", "handbrake", None),
])
def test_check_says_which_options_the_referee_plays_for_this_design(tmp_path, design, option, code):
    text = (ROOT / "examples" / design).read_text(encoding="utf-8").rstrip()
    p = tmp_path / design
    p.write_text(text[:-1] + f"  options {option}\n}}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(p), "--format", "json"])
    assert r.exit_code == 0, r.output
    found = {d["code"] for d in json.loads(r.stdout)["diagnostics"]} & {"RC160", "RC161"}
    assert found == ({code} if code else set())
