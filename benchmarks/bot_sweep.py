"""The bot sweep: random legal four-car games on every published stage must all finish.

Run: ``python benchmarks/bot_sweep.py [--seeds N] [--cars K] [--json]``. For every stage of every published
rally and of the Auto Tour (``examples/rally-*.rally``, ``examples/auto-tour-1.rally``) it plays ``N`` seeded
games with ``K`` bot cars (options varied by seed) and counts the stages that finished, the ones that did not
(a turn limit reached: a deadlock such as the CORE-OVERTAKE-05 one of issue 9), and every game whose bot turn
the referee refused or whose record did not replay cleanly. Exit 1 when a game did not finish or did not replay. ``tests/test_bot_published.py`` runs a
seeded slice of it by default and the whole of it with ``RALLYC_SLOW=1``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rallyc  # noqa: E402
from rallyc.records import parse_record, replay_record  # noqa: E402
from rallyc.records.generate import bot_record  # noqa: E402
from rallyc.rules import Options, Player, RulesError  # noqa: E402

FILES = sorted((ROOT / "examples").glob("rally-*.rally")) + [ROOT / "examples" / "auto-tour-1.rally"]
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cat", "green"), Player("Dan", "yellow")]
#: a stage that needs more turns than this never ends (the longest published stage needs a few hundred)
MAX_TURNS = 3000


@dataclass
class Sweep:
    """What a sweep found."""

    games: int = 0
    finished: int = 0
    stuck: list[str] = field(default_factory=list)
    bad_replays: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"games": self.games, "finished": self.finished, "stuck": self.stuck, "bad_replays": self.bad_replays,
                "seconds": round(self.seconds, 1)}


def stages() -> list[tuple[str, object]]:
    """(label, track) of every published stage."""
    return [(f"{f.stem}/{t.name}", t) for f in FILES for t in rallyc.load(f).tracks]


def options_for(seed: int) -> Options:
    """The advanced rules a seed plays with (each combination turns up)."""
    return Options(flying_start=seed % 2 == 0, redline=seed % 3 == 0, sisu="per-stage" if seed % 4 == 3 else None)


def play(label: str, track, seed: int, cars: int, sweep: Sweep, replay: bool = True) -> None:
    """One game: counted as finished or stuck; its record replayed."""
    sweep.games += 1
    try:
        record = bot_record([track], PLAYERS[:cars], seed=seed, options=options_for(seed), header={},
                            max_turns=MAX_TURNS)
    except RuntimeError:
        sweep.stuck.append(f"{label} seed {seed}")
        return
    except RulesError as exc:  # the referee refused its own bot's turn: a referee bug
        sweep.bad_replays.append(f"{label} seed {seed}: the bot's turn was refused: {exc}")
        return
    sweep.finished += 1
    if replay:
        report = replay_record(parse_record(json.dumps(record)), tracks=[track])
        if not report.ok:
            sweep.bad_replays.append(f"{label} seed {seed}: {report.error.path}: {report.error}")


def run(seeds: range, cars: int = 4, replay: bool = True) -> Sweep:
    sweep = Sweep()
    t0 = time.perf_counter()
    for label, track in stages():
        for seed in seeds:
            play(label, track, seed, cars, sweep, replay)
    sweep.seconds = time.perf_counter() - t0
    return sweep


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=50, help="games per stage (default 50)")
    ap.add_argument("--cars", type=int, default=4)
    ap.add_argument("--no-replay", action="store_true", help="only play (faster)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sweep = run(range(args.seeds), args.cars, not args.no_replay)
    if args.json:
        print(json.dumps(sweep.to_json(), indent=2, sort_keys=True))
    else:
        print(f"{sweep.games} games of {args.cars} cars on {len(stages())} published stages: {sweep.finished} "
              f"finished, {len(sweep.stuck)} never ended, {len(sweep.bad_replays)} did not replay "
              f"({sweep.seconds:.0f} s)")
        for line in sweep.stuck + sweep.bad_replays:
            print("  " + line)
    return 0 if not sweep.stuck and not sweep.bad_replays else 1


if __name__ == "__main__":
    raise SystemExit(main())
