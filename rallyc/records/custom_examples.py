"""Build the custom races of ``examples/games/`` that the Auto Tour's events do not show, from seeded bot play.

The Auto Tour events (:mod:`rallyc.records.tour_examples`) are a Time Trial on a stage and a Head-to-Head on a
circuit; these are the other racetrack for each race type (CUSTOM-04, "a Head-to-Head race on a Stage or a Time
Trial on a circuit"), on the same Auto Tour 1 designs:

- a Head-to-Head on SS1 (a stage) under Speed Track rules, each player's own Rally car, the lighter Shortcut Damage
  set (SS1 has a Shortcut, CUSTOM-21/22): recorded as a ``race``;
- a Time Trial on Track 1 (a circuit, two laps) under Technical Track rules, Time cards and Second tokens: recorded
  as ``stages``;
- a Head-to-Head on Track 2 (a circuit) under Technical Track rules: Time cards in a Head-to-Head (CUSTOM-14), the
  Head-to-Head's start, order and Focus tokens (CUSTOM-05/07), recorded as ``stages``;
- a Time Trial under Speed Track rules on SS1 (a stage, the lighter Shortcut set) and on Track 1 (a circuit, the GT
  set, standard for Speed Tracks): Time cards and Second tokens, one Dashboard column on every surface, Loss-of-Control
  damage from the Dashboard and Yellow Flags on the track (CUSTOM-08/13/18/22), recorded as ``stages``.

Seeds are searched from 0 until the bot's game ends with every car classified (a Speed Time Trial: and with a Loss of
Control that drew Damage tokens from the Dashboard, a Yellow Flag among them). Run
``python -m rallyc.records.custom_examples`` to rewrite them; the tests replay the committed files.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rallyc.compilation.compiled import load_design
from rallyc.records.generate import bot_race_record, bot_record, write_record
from rallyc.rules.variants.custom import CustomRace
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player

__all__ = ["CUSTOM_EXAMPLES", "CUSTOM_PLAYERS", "custom_example", "build_custom_examples"]

#: two Rally cars of different categories on different tires (the Auto Tour's field, TOUR-03)
CUSTOM_PLAYERS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow")]

#: (file, track file, stage name or None for a circuit, race type, track rules, Damage set or None)
CUSTOM_EXAMPLES: list[tuple[str, str, str | None, str, str, str | None]] = [
    ("auto-tour-1-ss1-head-to-head.json", "auto-tour-1.rally", "SS1", "head-to-head", "speed", "light"),
    ("auto-tour-1-track-1-time-trial.json", "track-1.rally", None, "time-trial", "technical", None),
    ("auto-tour-1-track-2-technical-head-to-head.json", "track-2.rally", None, "head-to-head", "technical", None),
    ("auto-tour-1-ss1-speed-time-trial.json", "auto-tour-1.rally", "SS1", "time-trial", "speed", "light"),
    ("auto-tour-1-track-1-speed-time-trial.json", "track-1.rally", None, "time-trial", "speed", None),
]


def custom_example(track_file: str, stage: str | None, race_type: str, track_rules: str, bag: str | None,
                   players: list[Player], seed: int, examples_dir: Path) -> dict[str, Any]:
    """One custom race's record, played by the seeded bot (``RuntimeError`` when the bot's game runs too long)."""
    design = load_design(examples_dir / track_file)
    track = next(t for t in design.tracks if stage is None or t.name == stage)
    custom = CustomRace(track.kind, race_type, track_rules, damage_bag=bag)
    where = f"{stage} (a stage)" if track.kind == "stage" else f"{track.name} (a circuit, {track.laps or 2} laps)"
    header = {"track": f"../{track_file}", "design": design.title,
              "title": f"{design.title}: custom {race_type}, {track_rules} Track rules, on {where} (bot seed {seed})"}
    options = Options(race_type=race_type, track_rules=track_rules, damage_bag=bag)
    if custom.referee == "race":
        fmt = custom.race_format(any(s.kind == "shortcut" for s in track.spaces.values()))
        return bot_race_record(track, players, seed=seed, options=options, race_format=fmt, header=header)
    rec = bot_record([track], players, seed=seed, options=options, header=header)
    rec["stages"][0]["stage"] = track.name
    return rec


def _classified(rec: dict[str, Any]) -> bool:
    if "race" in rec:
        return len(rec["race"]["result"]["order"]) == len(rec["players"])
    return all(t is not None for t in rec["stages"][0]["times"].values())


def _dashboard_damage(rec: dict[str, Any]) -> bool:
    """A Loss of Control before the finish drew Damage tokens from the Dashboard, a Yellow Flag among them (a Time
    Trial under Speed Track rules: its card's "0" side states no icon, CUSTOM-13; RX-DAMAGE-03)."""
    drawn = [d for st in rec.get("stages", []) for t in st["turns"] if "card" in t and "zero" not in t["card"]
             for d in t.get("damage", [])]
    return "yellow" in drawn and len(drawn) > 1


def build_custom_examples(out_dir: Path, examples_dir: Path, max_seed: int = 200) -> dict[str, int]:
    """Write each of :data:`CUSTOM_EXAMPLES` from the first seed whose game classifies every car; the seed used per
    file."""
    used: dict[str, int] = {}
    for name, track_file, stage, race_type, rules, bag in CUSTOM_EXAMPLES:
        for seed in range(max_seed):
            try:
                rec = custom_example(track_file, stage, race_type, rules, bag, CUSTOM_PLAYERS, seed, examples_dir)
            except RuntimeError:
                continue
            if _classified(rec) and (rules != "speed" or race_type != "time-trial" or _dashboard_damage(rec)):
                break
        else:  # pragma: no cover - the bot finishes within a few seeds
            raise RuntimeError(f"no seed below {max_seed} finishes {name}")
        write_record(rec, out_dir / name)
        used[name] = seed
    return used


if __name__ == "__main__":  # pragma: no cover
    root = Path(__file__).resolve().parents[2]
    print(build_custom_examples(root / "examples" / "games", root / "examples"), file=sys.stderr)
