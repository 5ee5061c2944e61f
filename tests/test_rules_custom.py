"""Customisable races (rallyc.rules.variants.custom): the three choices and what each fixes, on the published Auto
Tour 1 tracks and Ice Track 1. Each test names its CUSTOM IDs."""

from pathlib import Path

import pytest

import rallyc
from rallyc.checks.names import OPTIONS
from rallyc.data import load_components
from rallyc.rules.variants.custom import RACE_TYPES, TRACK_RULES, CustomRace
from rallyc.rules.core.race_format import ICE, damage_set

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tour_tracks():
    ss1 = [t for t in rallyc.load(ROOT / "examples/auto-tour-1.rally").tracks if t.name == "SS1"][0]
    track1 = rallyc.load(ROOT / "examples/track-1.rally").tracks[0]
    return ss1, track1


def test_choices_are_the_language_options():
    """CUSTOM-01 CUSTOM-15: the race type, track rules, repairs and Damage set are the option names and values
    the language knows; a wrong choice is refused with the rule named."""
    assert OPTIONS["race-type"].values == RACE_TYPES
    assert OPTIONS["track-rules"].values == TRACK_RULES
    assert set(OPTIONS["damage-bag"].values) == {"dirt", "gt", "light"}
    race = CustomRace.from_options("stage", {"race-type": "time-trial", "track-rules": "technical", "repairs": "yes"})
    assert race.repairs is True
    assert CustomRace.from_options("stage", {"race-type": "time-trial", "track-rules": "technical"}).repairs is False
    for bad in ({"race-type": "rally", "track-rules": "speed"}, {"race-type": "time-trial", "track-rules": "wet"},
                {"race-type": "time-trial", "track-rules": "speed", "damage-bag": "mud"}):
        with pytest.raises(ValueError, match="CUSTOM-"):
            CustomRace.from_options("circuit", bad)


def test_racetrack_is_the_track_kind(tour_tracks):
    """CUSTOM-02 CUSTOM-03 CUSTOM-04: Track 1 loops (a circuit with laps), SS1 is open (a stage); any race type
    runs on either."""
    ss1, track1 = tour_tracks
    assert track1.kind == "circuit" and track1.laps >= 1
    assert ss1.kind != "circuit"
    for track in (ss1, track1):
        kind = "circuit" if track.kind == "circuit" else "stage"
        for rt in RACE_TYPES:
            assert CustomRace(kind, rt, "speed").race_type == rt


def test_race_type_fixes_order_start_and_tokens():
    """CUSTOM-05 CUSTOM-06 CUSTOM-07: Head-to-Head: Speed > Distance > Position, same round, Focus tokens; Time
    Trial: Distance > Speed > Position, staggered start, Second tokens (Ambiguity 37)."""
    h2h = CustomRace("circuit", "head-to-head", "speed")
    tt = CustomRace("stage", "time-trial", "technical")
    assert (h2h.order_of_priority, h2h.start, h2h.flat_out_tokens) == (("speed", "distance", "position"),
                                                                       "same-round", "focus")
    assert (tt.order_of_priority, tt.start, tt.flat_out_tokens) == (("distance", "speed", "position"),
                                                                    "staggered", "seconds")


def test_track_rules_fix_dice_damage_and_time_cards():
    """CUSTOM-08 CUSTOM-09 CUSTOM-13 CUSTOM-14: Speed Tracks: surfaces cosmetic, LoC read from the Dashboard;
    Technical Tracks: surfaces change the dice, LoC from Time cards, so Time cards even in a Head-to-Head."""
    speed = CustomRace("circuit", "head-to-head", "speed")
    tech = CustomRace("circuit", "head-to-head", "technical")
    assert not speed.surfaces_change_dice and speed.loss_of_control == "dashboard" and not speed.time_cards
    assert tech.surfaces_change_dice and tech.loss_of_control == "time-cards" and tech.time_cards
    assert CustomRace("stage", "time-trial", "speed").time_cards


def test_damage_sets():
    """CUSTOM-18 CUSTOM-19 CUSTOM-22: GT set 6/6/6/12 Green/6 Yellow; DIRT set 24/6/7/11 (the core bag); the
    lighter Shortcut set is the DIRT set minus 18 Gear and 1 Coast Damage plus 6 Yellow Flags."""
    comp = load_components()
    gt, dirt, light = (damage_set(comp, n) for n in ("gt", "dirt", "light"))
    assert gt == {"gear": 6, "brake": 6, "coast": 6, "green": 12, "yellow": 6}
    assert dirt == comp.damage_bag
    expected = dict(dirt)
    expected["gear"] -= 18
    expected["coast"] -= 1
    expected["yellow"] = 6
    assert light == expected
    assert CustomRace("circuit", "head-to-head", "speed").bag(comp) == gt
    assert CustomRace("stage", "time-trial", "technical").bag(comp) == dirt
    assert CustomRace("stage", "time-trial", "speed", damage_bag="light").bag(comp) == light


def test_shortcut_tracks_use_the_dirt_set(tour_tracks):
    """CUSTOM-21: SS1 of Auto Tour 1 has a Shortcut (324a): the GT set chosen is refused there, DIRT and light
    pass, and with no set chosen the race takes the DIRT set."""
    ss1, track1 = tour_tracks
    has = any(ss1.space(s).kind == "shortcut" or ".cut" in s for s in ss1.spaces)
    assert has
    with pytest.raises(ValueError, match="CUSTOM-21"):
        CustomRace("stage", "time-trial", "speed", damage_bag="gt").check_track(has)
    CustomRace("stage", "time-trial", "speed").check_track(has)
    CustomRace("stage", "time-trial", "speed", damage_bag="light").check_track(has)
    CustomRace("stage", "time-trial", "technical").check_track(has)


def test_referee_of_each_pairing():
    """CUSTOM-04 CUSTOM-05 CUSTOM-06: a Speed Head-to-Head on a circuit is the RX/Ice race (an Ice race is one,
    ICE-01, with the Speed Tracks' GT set), a Technical Time Trial on a stage is the core stage."""
    ice = CustomRace("circuit", "head-to-head", "speed")
    assert ice.referee == "race" and ice.bag_name == ICE.bag
    assert CustomRace("stage", "time-trial", "technical").referee == "stage"
    assert CustomRace("stage", "head-to-head", "speed").referee == "race"
    assert CustomRace("circuit", "time-trial", "technical").referee == "stage"
    # a Time Trial under Speed Track rules is the core stage too (rules.speed_trial): Time cards, Dashboard damage
    assert CustomRace("stage", "time-trial", "speed").referee == "stage"
    assert CustomRace("circuit", "time-trial", "speed").referee == "stage"
