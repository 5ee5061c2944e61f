"""Mutations of Improvisation's re-plans (IMPROV-01..03) in examples/games/rally-2-ss1-improvisation.json: for
every re-planned turn, the option switched off, a face on a die taken back, the re-plan moved one die later,
an empty re-plan, the first re-planned die moved back onto the turn's first space, the turn made a Flat Out.
Prints, per kind, the rule each mutant was refused with (None: accepted). Exit 1 if any mutant is accepted.

Run: ``python benchmarks/improv_mutations.py``.
"""

import sys
import collections
import copy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from rallyc.records import load_record  # noqa: E402
from rallyc.records.replay import record_stages, replay_record  # noqa: E402

G = ROOT / "examples/games/rally-2-ss1-improvisation.json"
rec0 = load_record(G); tracks, _, fl = record_stages(rec0, G.parent)
def err(rec):
    r = replay_record(rec, G.parent, tracks=tracks, flippers=fl)
    return None if r.ok else r.error.rule_id
tally = collections.Counter()
turns = [i for i, t in enumerate(rec0["stages"][0]["turns"]) if t.get("replans")]
for i in turns:
    for kind in ("option-off", "face-on-taken-back", "after-shifted", "empty", "die-moved-back", "flat-out"):
        rec = copy.deepcopy(rec0); t = rec["stages"][0]["turns"][i]; rp = t["replans"][0]
        if kind == "option-off": rec["options"]["improvisation"] = False
        elif kind == "face-on-taken-back":
            if rp["after"] >= len(t["dice"]): continue
            t["dice"][rp["after"]]["face"] = "ok"
        elif kind == "after-shifted": rp["after"] += 1
        elif kind == "empty": rp["dice"] = []
        elif kind == "die-moved-back": rp["dice"][0]["to"] = t["dice"][0]["to"]
        elif kind == "flat-out": t["mode"] = "flat-out"
        tally[(kind, err(rec))] += 1
for k, v in sorted(tally.items(), key=str): print(f"{k[0]:20} {str(k[1]):16} {v}")
print("re-planned turns:", len(turns))
sys.exit(1 if any(rule is None for _, rule in tally) else 0)
