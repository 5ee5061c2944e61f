"""CUSTOM-21: "A race with Shortcut tiles must use the DIRT damage set." With no set chosen, a Speed Track race on
a track with Shortcut tiles draws from the DIRT set (it used to take the GT set and refuse its own game); choosing
the GT set there is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import rallyc
from rallyc.records import replay_record
from rallyc.records.generate import bot_record
from rallyc.records.load import RecordError
from rallyc.rules import Options, Player
from rallyc.rules.variants.custom import CustomRace

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue")]


@pytest.fixture(scope="module")
def shortcut_stage():
    track = rallyc.load(EXAMPLES / "rally-4.rally").tracks[0]
    assert any(s.kind == "shortcut" for s in track.spaces.values())
    return track


def test_the_default_set_of_a_speed_track_with_shortcuts_is_dirt():
    race = CustomRace("stage", "time-trial", "speed")
    assert race.bag_for(has_shortcuts=False) == "gt" and race.bag_for(has_shortcuts=True) == "dirt"
    assert CustomRace("stage", "time-trial", "speed", damage_bag="light").bag_for(True) == "light"


def test_a_speed_time_trial_on_a_shortcut_stage_replays(shortcut_stage):
    record = bot_record([shortcut_stage], PLAYERS, seed=1, options=Options(race_type="time-trial", track_rules="speed"))
    record["track"] = "rally-4.rally"
    assert replay_record(record, EXAMPLES).ok


def test_the_gt_set_chosen_on_a_shortcut_stage_is_refused(shortcut_stage):
    record = bot_record([shortcut_stage], PLAYERS, seed=1, options=Options(race_type="time-trial", track_rules="speed"))
    record["track"] = "rally-4.rally"
    record["options"]["damage_bag"] = "gt"
    with pytest.raises(RecordError) as err:
        replay_record(record, EXAMPLES)
    assert "CUSTOM-21" in str(err.value)
