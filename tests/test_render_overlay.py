"""The replay overlay: cars at their spaces after a round, their gear, the path of their last turn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rallyc.render.document import render_map
from rallyc.render.overlay import cars_after_round, last_round

from test_render_fixtures import mini_track

SVG = "{http://www.w3.org/2000/svg}"

REPORT = {
    "stage": "SS1",
    "rounds": [
        {"round": 1, "turns": [
            {"player": "Ann", "start": None, "path": ["1.1.l", "1.2.l"], "end": "1.2.l", "gear": 2}]},
        {"round": 2, "turns": [
            {"player": "Ann", "start": "1.2.l", "path": ["1.3.l", "2.1.l", "2.1.r"], "end": "2.1.r", "gear": 3},
            {"player": "Bob", "start": None, "path": ["1.1.r"], "end": "1.1.r", "gear": 1}]},
        {"round": 3, "turns": [
            {"player": "Ann", "start": "2.1.r", "path": ["2.2.out1"], "end": "2.2.out1", "gear": 2}]},
    ],
}


def test_cars_after_a_round_take_their_last_turn():
    cars = cars_after_round(REPORT, 2, {"Ann": "red", "Bob": "blue"})
    assert [(c.name, c.space, c.gear) for c in cars] == [("Ann", "2.1.r", 3), ("Bob", "1.1.r", 1)]
    assert cars[0].path == ("1.2.l", "1.3.l", "2.1.l", "2.1.r")
    assert cars_after_round(REPORT, 0, {}) == []
    assert last_round(REPORT) == 3


def test_overlay_draws_each_car_with_its_gear_and_path():
    track = mini_track()
    cars = cars_after_round(REPORT, 2, {"Ann": "red", "Bob": "blue"})
    svg = render_map(track, None, title="t", cars=cars)[0]
    root = ET.fromstring(svg)
    drawn = {g.get("data-space"): g for g in root.iter(f"{SVG}g") if g.get("class") == "car"}
    assert sorted(drawn) == ["1.1.r", "2.1.r"]
    assert drawn["2.1.r"].find(f"{SVG}text").text == "3"
    paths = [p for p in root.iter(f"{SVG}path") if p.get("class") == "car-path"]
    assert [p.get("data-car") for p in paths] == ["red"]  # Bob's one-space turn has no line to draw
