"""Build the custom-race and Auto Tour examples of ``examples/games/`` from seeded bot play.

The Auto Tour 1 of the RX rulebook, four events in the long tour's order (TOUR-02: Time Trial, Head-to-Head,
Time Trial, Head-to-Head) on its designs: SS1 (``auto-tour-1.rally``), Track 1, SS2, Track 2. Each event is a
custom race (TOUR-05): the Time Trials on stages under Technical Track rules, the Head-to-Heads on circuits under
Speed Track rules with each player's own Rally car (TOUR-03). Each event is a game record of its own (so it is
also an example of that custom race) and the tour record ``tours/auto-tour-1.json`` lists them with the score
sheet. Run ``python -m rallyc.records.tour_examples`` to rewrite them; the tests replay the committed files.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from rallyc.compilation.compiled import load_design
from rallyc.records.generate import bot_race_record, bot_record, write_record
from rallyc.rules.variants.custom import CustomRace
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player
from rallyc.rules.variants.tour import Tour

__all__ = ["TOUR_PLAYERS", "TOUR_EVENTS", "build_tour_example"]

#: the Tour's field: car categories chosen once for every event (TOUR-03); the first event's drawn order (TOUR-08)
#: (two players: Track 2 has a grid of two places)
TOUR_PLAYERS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow")]

#: (file, track file, stage name or None for a circuit, race type)
TOUR_EVENTS: list[tuple[str, str, str | None, str]] = [
    ("auto-tour-1-event-1-ss1-time-trial.json", "auto-tour-1.rally", "SS1", "time-trial"),
    ("auto-tour-1-event-2-track-1-head-to-head.json", "track-1.rally", None, "head-to-head"),
    ("auto-tour-1-event-3-ss2-time-trial.json", "auto-tour-1.rally", "SS2", "time-trial"),
    ("auto-tour-1-event-4-track-2-head-to-head.json", "track-2.rally", None, "head-to-head"),
]

#: tires fitted per event: cars are repaired and may change tires between events (TOUR-10)
EVENT_TIRES = [{}, {}, {"Ann": "gravel"}, {"Ann": "gravel"}]


def _event(track_file: str, stage: str | None, race_type: str, players: list[Player], seed: int,
           examples_dir: Path, tag: str) -> tuple[dict[str, Any], Any]:
    """One event's game record, played by the seeded bot."""
    design = load_design(examples_dir / track_file)
    header = {"track": f"../{track_file}", "design": design.title,
              "title": f"{design.title}: {tag} (bot seed {seed})"}
    if race_type == "time-trial":
        tracks = [t for t in design.tracks if t.name == stage]
        options = Options(race_type="time-trial", track_rules="technical")
        rec = bot_record(tracks, players, seed=seed, options=options, header=header)
        rec["stages"][0]["stage"] = stage
        return rec, tracks[0]
    track = design.tracks[0]
    custom = CustomRace("circuit", "head-to-head", "speed", damage_bag="light")
    fmt = custom.race_format(any(s.kind == "shortcut" for s in track.spaces.values()))
    options = Options(race_type="head-to-head", track_rules="speed", damage_bag="light")
    return bot_race_record(track, players, seed=seed, options=options, race_format=fmt, header=header), track


def build_tour_example(out_dir: Path, examples_dir: Path, max_seed: int = 200) -> dict[str, int]:
    """Play the four events (seeds searched from 0 until the bot's game ends), write each event and the tour
    record ``tours/auto-tour-1.json``; return the seed used per file."""
    tour = Tour([p.name for p in TOUR_PLAYERS], [e[3] for e in TOUR_EVENTS])
    used: dict[str, int] = {}
    events: list[dict[str, Any]] = []
    for k, (name, track_file, stage, race_type) in enumerate(TOUR_EVENTS):
        order = tour.starting_order()  # TOUR-08, then TOUR-09 (ties drawn with a fixed seed)
        by_name = {p.name: p for p in TOUR_PLAYERS}
        players = [replace(by_name[n], tires=EVENT_TIRES[k].get(n, by_name[n].tires)) for n in order]
        tag = f"Auto Tour event {k + 1}, custom {race_type}"
        for seed in range(max_seed):
            try:
                rec, _ = _event(track_file, stage, race_type, players, seed, examples_dir, tag)
            except RuntimeError:
                continue
            # the first event is won by the second in the draw, so the next starting order changes (TOUR-09)
            if k > 0 or rec["stages"][0]["times"]["Bob"] < rec["stages"][0]["times"]["Ann"]:
                break
        else:  # pragma: no cover - the bot finishes within a few seeds
            raise RuntimeError(f"no seed below {max_seed} finishes {name}")
        write_record(rec, out_dir / name)
        used[name] = seed
        if race_type == "time-trial":
            line = tour.add_time_trial(dict(rec["stages"][0]["times"]), order)
        else:
            res = rec["race"]["result"]
            line = tour.add_places(res["order"], res["disqualified"] + res["retired"], order)
        events.append({"race_type": race_type, "record": f"../{name}", "tour_seconds": dict(line.seconds),
                       "totals": tour.totals()})
    record: dict[str, Any] = {
        "format": "rallyc-tour/1",
        "title": "Auto Tour 1 (RX rulebook, Ready to Play pp. 23-27): the long tour on SS1, Track 1, SS2, Track 2",
        "players": [{"name": p.name, "colour": p.colour, "car": p.car} for p in TOUR_PLAYERS],
        "repairs": "full",
        "events": events,
        "standings": [{"name": n, "total": t} for n, t in tour.standings()],
        "winner": tour.winner(),
    }
    (out_dir / "tours").mkdir(parents=True, exist_ok=True)
    write_record(record, out_dir / "tours" / "auto-tour-1.json")
    return used


if __name__ == "__main__":  # pragma: no cover
    root = Path(__file__).resolve().parents[2]
    print(build_tour_example(root / "examples" / "games", root / "examples"), file=sys.stderr)
