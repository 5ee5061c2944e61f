"""Build the recorded games of ``examples/games/`` from seeded bot play on the published rallies.

Each game is searched for deterministically (seeds 0, 1, 2...) until it shows the feature it is meant
to demonstrate; run ``python -m rallyc.records.examples`` to rewrite them. The files are committed and
the tests replay them.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from rallyc.compilation.compiled import load_design
from rallyc.compiler.track import Track
from rallyc.records.generate import bot_race_record, bot_record, write_record
from rallyc.records.replay import replay_record
from rallyc.rules.core.options import Options
from rallyc.rules.core.race_format import FORMATS
from rallyc.rules.core.stage import Player

__all__ = ["EXAMPLES", "RX_EXAMPLES", "build_examples", "build_rx_examples", "features", "race_features"]

PLAYERS = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]
#: a Monte-Carlo field: an R5 on asphalt tires, an R6 on snow tires, an R4 on gravel tires
MC_PLAYERS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r6", "snow"),
              Player("Cleo", "green", "r4", "gravel")]


def features(record: dict[str, Any], tracks: list[Track]) -> set[str]:
    """What a record shows: failed-flat-out, shortcut, jump, water, blocked, overtake, crash, damage-carried...
    and the Monte-Carlo boost, handbrake, snow-slide, surface-change."""
    found: set[str] = set()
    for si, st in enumerate(record["stages"]):
        pos: dict[str, str] = {}  # where each car stands after its last turn
        for t in st["turns"]:
            found |= _turn_features(tracks[si], t, pos)
            pos[t["player"]] = t["end"]
        if any(c["damage"] for c in _carried(record, si)):
            found.add("damage-carried")
    return found


def _turn_features(track: Track, t: dict[str, Any], pos: dict[str, str]) -> set[str]:
    """What one stage turn shows, the cars standing where ``pos`` says before it."""
    dice = t.get("relaid", t.get("dice", []))
    found = _mc_features(track, pos.get(t["player"]) or t.get("start"), dice)
    found |= _plan_features(t)
    found |= _dice_features(track.spaces, dice)
    if _overtakes(track.spaces, pos, t["player"], t["end"]):
        found.add("overtake")
    return found


def _plan_features(t: dict[str, Any]) -> set[str]:
    """What a turn's plan shows: a failed Flat Out (dice re-laid), Improvisation (IMPROV-01; IMPROV-02: more dice
    than were taken back), no die laid (blocked), a crash card, dice secured."""
    found: set[str] = set()
    if t.get("relaid") is not None:
        found.add("failed-flat-out")
    if t.get("replans"):
        found.add("improvisation")
        if any(len(rp["dice"]) > len(t["dice"]) - rp["after"] for rp in t["replans"]):
            found.add("improvisation-added")
    if not t.get("dice"):
        found.add("blocked")
    if t.get("card", {}).get("zero", {}).get("icon") == "crash":
        found.add("crash")
    if t.get("secured"):
        found.add("secured")
    return found


def _dice_features(spaces: dict[str, Any], dice: list[dict[str, Any]]) -> set[str]:
    """What a turn's dice show: a Shortcut token, a jump or water on a space reached, a die secured."""
    found: set[str] = set()
    reached = [d for d in dice if d.get("face") or d.get("secured")]
    if any("token" in d for d in dice):
        found.add("shortcut")
    if any("land" in d for d in reached):
        found.add("jump")
    if any(spaces[d["to"]].water for d in reached):
        found.add("water")
    if any(d.get("secured") for d in dice):
        found.add("secured")
    return found


def _overtakes(spaces: dict[str, Any], pos: dict[str, str], me: str, after: str) -> bool:
    """Whether ``me``, moving from where ``pos`` has it to ``after``, passes another car (by progress)."""
    before = pos.get(me)
    if before is None:
        return False
    p0, p1 = spaces[before].progress, spaces[after].progress
    return any(other != me and p0 < spaces[where].progress < p1 for other, where in pos.items())


def _mc_features(track: Track, start: str | None, dice: list[dict[str, Any]]) -> set[str]:
    """Monte-Carlo features of one turn's resolved dice."""
    out: set[str] = set()
    path = [start] if start else []
    for d in dice:
        if not (d.get("face") or d.get("secured")):
            break
        if d.get("boost"):
            out.add("boost")
        s = track.spaces[d["to"]]
        if s.kind == "wide" and s.surface == "snow":
            out.add("snow-slide")
        path.append(d["to"])
    for a, b in zip(path, path[1:]):
        edge = track.move(a, b)
        if edge and edge.get("handbrake"):
            out.add("handbrake")
        if track.spaces[a].surface != track.spaces[b].surface:
            out.add("surface-change")
    return out


def _carried(record: dict[str, Any], si: int) -> list[dict[str, Any]]:
    carried: list[dict[str, Any]] = record.get("_carried", {}).get(si, [])
    return carried


#: file -> (track file, players (a count of PLAYERS, or the players), options, features wanted[, stage name])
EXAMPLES: dict[str, tuple[Any, ...]] = {
    "rally-4-full.json": ("rally-4.rally", 3, {"flying_start": True, "sisu": "per-rally"},
                          {"failed-flat-out", "crash"}),
    "rally-1-ss1-failed-flat-out.json": ("rally-1.rally", 2, {}, {"failed-flat-out", "secured"}),
    "rally-4-ss1-shortcut.json": ("rally-4.rally", 2, {}, {"shortcut"}),
    "rally-5-ss1-jump-water.json": ("rally-5.rally", 2, {"redline": True}, {"jump", "water"}),
    "rally-3-ss1-overtake-blocked.json": ("rally-3.rally", 4, {}, {"overtake", "blocked"}),
    "auto-tour-1-ss2-monte-carlo.json": ("auto-tour-1.rally", MC_PLAYERS, {"handbrake": True},
                                         {"boost", "handbrake", "snow-slide", "surface-change"}, "SS2"),
    "rally-2-ss1-improvisation.json": ("rally-2.rally", 3, {"improvisation": True},
                                       {"improvisation", "improvisation-added", "secured"}),
}


def build_examples(out_dir: Path, examples_dir: Path, max_seed: int = 400) -> dict[str, int]:
    """Search seeds for each example and write it; return the seed used per file."""
    used = {}
    for name, (track_file, n_players, opts, wanted, *stage) in EXAMPLES.items():
        design = load_design(examples_dir / track_file)
        full = name.endswith("-full.json")
        tracks = design.tracks if full else [t for t in design.tracks if t.name == stage[0]] if stage \
            else design.tracks[:1]
        players = n_players if isinstance(n_players, list) else PLAYERS[:n_players]
        for seed in range(max_seed):
            try:
                rec = bot_record(tracks, players, seed=seed, options=Options(**opts),
                                 header={"track": f"../{track_file}", "design": design.title,
                                         "title": f"{design.title}: {name[:-5]} (bot seed {seed})"})
            except RuntimeError:
                continue
            if not full:
                for st in rec["stages"]:
                    st.pop("stage", None)
                    st["stage"] = tracks[0].name
            have = features(rec, tracks)
            if full:
                have |= _full_features(rec, tracks)
                wanted_now = wanted | {"damage-carried", "assistance"}
            else:
                wanted_now = wanted
            if wanted_now <= have:
                write_record(rec, out_dir / name)
                used[name] = seed
                break
        else:
            raise RuntimeError(f"no seed below {max_seed} gives {wanted} for {name}")
    return used


#: head-to-head races: file -> (circuit file, players, features wanted, race format[, options])
RX_EXAMPLES: dict[str, tuple[Any, ...]] = {
    "rx-1-race.json": ("rx-1.rally", 4, {"finished", "joker", "loss-of-control", "boost", "disqualified"}, "rx"),
    "ice-track-1-race.json": ("ice-track-1.rally", 2, {"finished", "loss-of-control", "boost"}, "ice"),
    # Full Contact (RX-ADV-01): pushes, a Push Through and Danger tokens on RX 2
    "rx-2-full-contact.json": ("rx-2.rally", 4, {"finished", "push", "push-through", "danger", "impact"}, "rx",
                               {"full_contact": True}),
}


def race_features(record: dict[str, Any], track: Track) -> set[str]:
    """What an RX race record shows: finished, disqualified, retired, joker, loss-of-control, boost,
    yellow-flag, secured, failed-flat-out; with Full Contact push, push-through, danger, impact."""
    found: set[str] = set()
    res = record["race"].get("result", {})
    for key in ("order", "disqualified", "retired"):
        if res.get(key):
            found.add({"order": "finished"}.get(key, key))
    for t in record["race"]["turns"]:
        found |= _race_turn_features(track, t)
    return found


def _race_turn_features(track: Track, t: dict[str, Any]) -> set[str]:
    """What one race turn shows: a Joker space reached, a Boost, dice secured, a failed Flat Out, a Loss of Control
    (gear 0 after moving), a yellow flag, and Full Contact."""
    found: set[str] = set()
    dice = t.get("relaid", t.get("dice", []))
    moved = [d for d in dice if d.get("face") or d.get("secured")]
    if any(track.spaces[d["to"]].joker for d in moved):
        found.add("joker")
    if any(d.get("boost") for d in moved):
        found.add("boost")
    if any(d.get("secured") for d in moved):
        found.add("secured")
    if "relaid" in t:
        found.add("failed-flat-out")
    if t.get("gear") == 0 and moved:
        found.add("loss-of-control")
    if "yellow" in t.get("damage", []):
        found.add("yellow-flag")
    return found | _contact_features(moved)


def _contact_features(moved: list[dict[str, Any]]) -> set[str]:
    """Full Contact (rallyc.rules.variants.full_contact) in the dice that moved: a push (with Danger, an impact), a Push
    Through."""
    found: set[str] = set()
    for d in moved:
        if "push" in d:
            found.add("push")
            if d["push"].get("danger"):
                found.add("danger")
            if d["push"].get("impact"):
                found.add("impact")
        if "through" in d:
            found.add("push-through")
    return found


def build_rx_examples(out_dir: Path, examples_dir: Path, max_seed: int = 400) -> dict[str, int]:
    """Search seeds for each RX or Ice race example and write it; return the seed used per file."""
    used = {}
    for name, (circuit_file, n_players, wanted, fname, *extra) in RX_EXAMPLES.items():
        options = Options(**extra[0]) if extra else None
        design = load_design(examples_dir / circuit_file)
        track = design.tracks[0]
        fmt = FORMATS[fname]
        players = PLAYERS[:n_players] if fname == "rx" else [replace(p, car=fmt.car, tires=fmt.sides[0])
                                                              for p in PLAYERS[:n_players]]
        kind = {"rx": "RX race", "ice": "Ice race"}[fname] + (" with Full Contact" if extra else "")
        for seed in range(max_seed):
            try:
                rec = bot_race_record(track, players, seed=seed, race_format=fmt, options=options,
                                      header={"track": f"../{circuit_file}", "design": design.title,
                                              "title": f"{design.title}: {kind} (bot seed {seed})"})
            except RuntimeError:
                continue
            if wanted <= race_features(rec, track):
                write_record(rec, out_dir / name)
                used[name] = seed
                break
        else:
            raise RuntimeError(f"no seed below {max_seed} gives {wanted} for {name}")
    return used


def _full_features(rec: dict[str, Any], tracks: list[Track]) -> set[str]:
    rep = replay_record(rec, tracks=tracks)
    out = set()
    if rep.ok:
        for st in rep.stages[:-1]:
            if st["assistance"]:
                out.add("assistance")
            elif any(c["damage"] for c in st["carried"].values()):
                out.add("damage-carried")
    return out


if __name__ == "__main__":  # pragma: no cover
    root = Path(__file__).resolve().parents[2]
    out = root / "examples" / "games"
    out.mkdir(parents=True, exist_ok=True)
    print(build_examples(out, root / "examples"), file=sys.stderr)
    print(build_rx_examples(out, root / "examples"), file=sys.stderr)
