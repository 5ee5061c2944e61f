"""Auto Tour records (`rallyc-tour/1`, schemas/tour.schema.json): `rallyc replay tour.json` replays each event,
prints the standings after each event and the winner; a wrong score sheet, order, car or event kind is refused
with its rule ID, located. Real input: the four-event Auto Tour 1 of examples/games/tours (its events are the
custom-race examples of examples/games)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from helpers.paths import EXAMPLES, ROOT
from rallyc.records.load import RecordError, load_record, parse_record
from rallyc.records.replay import replay_record
from rallyc.records.tour import load_tour, parse_tour, replay_tour

GAMES = EXAMPLES / "games"
TOUR = GAMES / "tours" / "auto-tour-1.json"


def rallyc(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT,
                          input=stdin)


def inline_tour() -> dict:
    """The example tour with its events' games inline (their tracks relative to examples/games)."""
    data = load_tour(TOUR)
    for event in data["events"]:
        event["game"] = load_record(TOUR.parent / event.pop("record"))
    return data


def test_the_auto_tour_replays_with_its_standings_and_winner():
    """TOUR-01 TOUR-02 TOUR-03 TOUR-05 TOUR-06 TOUR-07 TOUR-08 TOUR-09 TOUR-10 TOUR-11: the four-event Auto Tour 1
    (Time Trial SS1, Head-to-Head Track 1, Time Trial SS2, Head-to-Head Track 2) replays with exit 0."""
    run = rallyc("replay", str(TOUR))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.count("Standings:") == 4
    for k, where in enumerate(("Auto Tour 1 SS1", "Track 1", "Auto Tour 1 SS2", "Track 2"), start=1):
        assert f"Event {k}: " in out and where in out
    data = json.loads(TOUR.read_text(encoding="utf-8"))
    assert f"Winner: {data['winner']}" in out
    report = replay_tour(load_tour(TOUR), TOUR.parent)
    assert report.ok and report.winner == data["winner"]
    assert [e["race_type"] for e in report.events] == ["time-trial", "head-to-head", "time-trial", "head-to-head"]
    # the score sheet: a Time Trial adds the final time, a Head-to-Head 0 s / 20 s by place (TOUR-06/07)
    tt = load_record(GAMES / "auto-tour-1-event-1-ss1-time-trial.json")["stages"][0]["times"]
    assert report.events[0]["seconds"] == tt
    assert sorted(report.events[1]["seconds"].values()) == [0, 20]
    # from the second event on, the lowest tour time starts first (TOUR-09)
    first = report.events[0]["standings"][0]["name"]
    assert report.events[1]["start"][0] == first


def test_the_auto_tour_as_json():
    run = rallyc("replay", str(TOUR), "--format", "json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ok"] is True
    assert len(out["tour"]["events"]) == 4
    assert out["tour"]["winner"] == out["tour"]["standings"][0]["name"]
    assert rallyc("replay", str(TOUR), "--format", "json").stdout == run.stdout  # deterministic


def test_inline_events_replay_alike():
    report = replay_tour(inline_tour(), GAMES)
    assert report.ok, report.error
    assert report.to_json() == replay_tour(load_tour(TOUR), TOUR.parent).to_json()


def _refused(data: dict, rule: str, path: str) -> None:
    report = replay_tour(data, GAMES)
    assert report.error is not None, "the mutant replayed cleanly"
    assert (report.error.rule_id, report.error.path) == (rule, path), report.error


def test_a_wrong_tour_score_is_refused():
    """TOUR-07: a Head-to-Head place's seconds; TOUR-06: a Time Trial's final time; TOUR-11: the winner."""
    data = inline_tour()
    bad = copy.deepcopy(data)
    name = next(iter(bad["events"][1]["tour_seconds"]))
    bad["events"][1]["tour_seconds"][name] += 10
    _refused(bad, "TOUR-07", f"$.events[1].tour_seconds.{name}")
    bad = copy.deepcopy(data)
    bad["events"][0]["totals"][name] -= 1
    _refused(bad, "TOUR-06", f"$.events[0].totals.{name}")
    bad = copy.deepcopy(data)
    bad["winner"] = bad["standings"][-1]["name"]
    _refused(bad, "TOUR-11", "$.winner")
    bad = copy.deepcopy(data)
    bad["standings"][0]["total"] += 60
    _refused(bad, "TOUR-11", "$.standings[0].total")


def test_a_wrong_tour_score_in_the_file_is_located(tmp_path):
    """The CLI prints file:line:column, the JSON path and the rule; exit 1."""
    text = TOUR.read_text(encoding="utf-8")
    data = json.loads(text)
    data["events"][3]["tour_seconds"] = {k: v + 5 for k, v in data["events"][3]["tour_seconds"].items()}
    (tmp_path / "tours").mkdir()
    for f in GAMES.glob("auto-tour-1-event-*.json"):
        rec = json.loads(f.read_text(encoding="utf-8"))
        rec["track"] = str((GAMES / rec["track"]).resolve())
        (tmp_path / f.name).write_text(json.dumps(rec), encoding="utf-8")
    bad = tmp_path / "tours" / "tour.json"
    bad.write_text(json.dumps(data, indent=1), encoding="utf-8")
    run = rallyc("replay", str(bad))
    assert run.returncode == 1
    assert "TOUR-07" in run.stderr and "$.events[3].tour_seconds." in run.stderr
    assert f"{bad}:" in run.stderr and "Event 3:" in run.stdout
    js = json.loads(rallyc("replay", str(bad), "-f", "json").stdout)
    assert js["ok"] is False and js["error"]["rule"] == "TOUR-07" and js["error"]["line"] > 1


def test_events_must_alternate():
    """TOUR-01: two Time Trials in a row; fewer than two events."""
    data = inline_tour()
    bad = copy.deepcopy(data)
    bad["events"][1] = copy.deepcopy(bad["events"][2])
    _refused(bad, "TOUR-01", "$.events")
    with pytest.raises(RecordError) as err:
        parse_tour(json.dumps(dict(data, events=data["events"][:1])))
    assert err.value.path == "$.events"


def test_an_event_of_the_wrong_kind_is_refused():
    """TOUR-05: a Head-to-Head event given a Time Trial's game (stages), and the other way round."""
    data = inline_tour()
    bad = copy.deepcopy(data)
    bad["events"][0]["race_type"], bad["events"][1]["race_type"] = "head-to-head", "time-trial"
    bad["events"][2]["race_type"], bad["events"][3]["race_type"] = "head-to-head", "time-trial"
    _refused(bad, "TOUR-05", "$.events[0].game")


def test_the_car_category_is_kept_across_events():
    """TOUR-03: a player who changes car category between events; the same players in every event."""
    data = inline_tour()
    bad = copy.deepcopy(data)
    players = bad["events"][2]["game"]["players"]
    players[0]["car"] = "r6" if players[0]["car"] != "r6" else "r5"
    _refused(bad, "TOUR-03", "$.events[2].game.players[0].car")
    bad = copy.deepcopy(data)
    bad["players"][0]["name"] = "Zed"
    _refused(bad, "TOUR-03", "$.events[0].game.players")


def test_the_starting_order_follows_the_tour_times():
    """TOUR-09: from the second event on, the lowest tour time starts first; TOUR-08: the first event in the
    order drawn for the Tour."""
    data = inline_tour()
    bad = copy.deepcopy(data)
    game = bad["events"][2]["game"]  # a Time Trial: its stage's order
    game["stages"][0]["order"] = list(reversed(game["stages"][0]["order"]))
    game["players"] = list(reversed(game["players"]))
    _refused(bad, "TOUR-09", "$.events[2].game.stages[0].order")
    bad = copy.deepcopy(data)
    bad["players"] = list(reversed(bad["players"]))
    _refused(bad, "TOUR-08", "$.events[0].game.players")


def test_an_illegal_turn_in_an_event_is_located_in_the_tour():
    """An event's own illegal turn is the tour's error, at its path inside the event (inline) or its file."""
    data = inline_tour()
    bad = copy.deepcopy(data)
    turn = bad["events"][1]["game"]["race"]["turns"][0]
    turn["end"] = turn["start"] if "start" in turn else "1.1.l"
    report = replay_tour(bad, GAMES)
    assert report.error is not None and report.error.path.startswith("$.events[1].game.race.turns[0]")


def test_unknown_keys_are_errors(tmp_path):
    """Unknown top-level keys in a tour or a game record: a located message, exit 1 (never ignored)."""
    text = TOUR.read_text(encoding="utf-8").replace('"format": "rallyc-tour/1"', '"format": "rallyc-tour/1", "bonus": 1')
    with pytest.raises(RecordError) as err:
        parse_tour(text, "t.json")
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if '"bonus"' in row)
    assert "unknown key `bonus`" in err.value.message and err.value.line == line and err.value.path == "$.bonus"
    with pytest.raises(RecordError) as err:
        replay_tour(dict(load_tour(TOUR), bonus=1), GAMES)
    assert err.value.path == "$.bonus"
    game = load_record(GAMES / "rx-1-race.json")
    with pytest.raises(RecordError) as err:
        replay_record(dict(game, tour={"events": []}), GAMES)
    assert err.value.path == "$.tour"
    bad = tmp_path / "g.json"
    bad.write_text(json.dumps(dict(game, tour={}, track=str((GAMES / game["track"]).resolve()))), encoding="utf-8")
    run = rallyc("replay", str(bad))
    assert run.returncode == 1 and "unknown key `tour`" in run.stderr
    assert f"{bad}:" in run.stderr
    with pytest.raises(RecordError):
        parse_record(json.dumps(dict(game, tour={})))


def test_a_missing_event_file_is_located(tmp_path):
    data = json.loads(TOUR.read_text(encoding="utf-8"))
    for event in data["events"]:
        event["record"] = str((TOUR.parent / event["record"]).resolve())
    data["events"][1]["record"] = "nowhere.json"
    f = tmp_path / "tour.json"
    f.write_text(json.dumps(data, indent=1), encoding="utf-8")
    run = rallyc("replay", str(f))
    assert run.returncode == 1
    assert "$.events[1].record" in run.stderr and "nowhere.json" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_technical_head_to_head_is_a_tour_event():
    """TOUR-05 TOUR-07 CUSTOM-14: a short tour (Time Trial, then Head-to-Head) whose Head-to-Head is played under
    Technical Track rules with Time cards, recorded stage by stage: its places give the tour seconds (+0, +20)."""
    from rallyc.records.custom_examples import CUSTOM_PLAYERS, custom_example

    data = load_tour(TOUR)
    first = data["events"][0]
    totals = first["totals"]
    order = sorted(CUSTOM_PLAYERS, key=lambda p: totals[p.name])  # TOUR-09: the lowest tour time starts first
    game = custom_example("track-2.rally", None, "head-to-head", "technical", None, order, 0, EXAMPLES)
    places = [row["name"] for row in replay_record(game, GAMES).classification]
    game = json.loads(json.dumps(game))
    game["track"] = "../../track-2.rally"  # inline: relative to the tour's folder
    short = {k: v for k, v in data.items() if k not in ("standings", "winner")}
    short["events"] = [dict(first), {"race_type": "head-to-head", "game": game}]
    report = replay_tour(short, TOUR.parent)
    assert report.error is None, report.error
    assert report.events[1]["seconds"] == {places[0]: 0, places[1]: 20}
    # the same game without its Head-to-Head choice is a Time Trial: not this event's kind
    bad = copy.deepcopy(short)
    bad["events"][1]["game"]["options"].pop("race_type")
    report = replay_tour(bad, TOUR.parent)
    assert report.error is not None
    assert (report.error.rule_id, report.error.path) == ("TOUR-05", "$.events[1].game")
