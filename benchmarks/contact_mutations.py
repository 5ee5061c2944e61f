"""Mutations of the Full Contact race examples/games/rx-2-full-contact.json (rallyc.rules.variants.full_contact): for every
die that pushes or Pushes Through, and for dice that enter a free space:

- ``push-on-free-space``: a ``push`` claim on a die whose space holds no car;
- ``diagonal``: the die before a push moved to the neighbouring lane, so the pusher comes diagonally;
- ``danger-dropped`` / ``danger-plus-one``: a push's Danger tokens left out or one more;
- ``impact-dropped`` / ``impact-extra``: the pusher's Damage tokens left out, or one token more;
- ``hit-dropped``: the Damage tokens of a car hit left out;
- ``push-as-through`` / ``through-as-push``: a push recorded as a Push Through and back;
- ``claim-dropped``: the die's ``push`` or ``through`` object left out;
- ``full-contact-off``: the option switched off (the first push is then an occupied space).

Prints, per kind, the rule each mutant was refused with (None: accepted) and the counts. Exit 1 if any mutant
is accepted. Run: ``python benchmarks/contact_mutations.py``.
"""

from __future__ import annotations

import collections
import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from rallyc.records.load import parse_record  # noqa: E402
from rallyc.records.replay import replay_race  # noqa: E402
from rallyc.records.start import race_track  # noqa: E402

GAME = ROOT / "examples/games/rx-2-full-contact.json"


def main() -> int:
    rec0 = json.loads(GAME.read_text(encoding="utf-8"))
    track, _ = race_track(rec0, GAME.parent)
    g = track.graph

    def rule(rec: dict) -> str | None:
        report = replay_race(parse_record(json.dumps(rec)), GAME.parent, track=track)
        return None if report.ok else report.error.rule_id

    assert rule(rec0) is None, "the example must replay cleanly"
    tally: collections.Counter = collections.Counter()
    free = 0
    for ti, t in enumerate(rec0["race"]["turns"]):
        key = "relaid" if "relaid" in t else "dice"
        for di, d in enumerate(t.get(key, [])):
            if not (d.get("face") or d.get("secured")):
                continue
            kinds: list[str] = []
            if "push" in d:
                kinds += ["push-as-through", "claim-dropped", "impact-extra"]
                if d["push"].get("danger"):
                    kinds += ["danger-dropped", "danger-plus-one"]
                if d["push"].get("impact"):
                    kinds.append("impact-dropped")
                if d["push"].get("damage"):
                    kinds.append("hit-dropped")
                if di > 0 and not t[key][di - 1].get("land"):
                    kinds.append("diagonal")
            elif "through" in d:
                kinds += ["through-as-push", "claim-dropped", "impact-extra"]
                if d["through"].get("damage"):
                    kinds.append("hit-dropped")
            elif free < 40 and key == "dice" and "relaid" not in t:
                kinds.append("push-on-free-space")
                free += 1
            for kind in kinds:
                mutants = []
                rec = copy.deepcopy(rec0)
                die = rec["race"]["turns"][ti][key][di]
                claim = die.get("push", die.get("through"))
                if kind == "push-on-free-space":
                    die["push"] = {"car": rec0["players"][0]["name"]}
                elif kind == "push-as-through":
                    die["through"] = {"damage": die.pop("push").get("damage", {})}
                    die.pop("push_to", None)
                elif kind == "through-as-push":
                    die["push"] = {"damage": die.pop("through").get("damage", {})}
                elif kind == "claim-dropped":
                    die.pop("push", None)
                    die.pop("through", None)
                elif kind == "impact-extra":
                    claim["impact"] = list(claim.get("impact", [])) + ["green"]
                elif kind == "impact-dropped":
                    claim.pop("impact")
                elif kind == "hit-dropped":
                    claim["damage"] = {}
                elif kind == "danger-dropped":
                    claim.pop("danger")
                elif kind == "danger-plus-one":
                    claim["danger"] += 1
                if kind != "diagonal":
                    mutants.append(rec)
                else:
                    before = t[key][di - 2]["to"] if di >= 2 else None
                    for side in sorted(g.predecessors(d["to"])):
                        if g.edges[side, d["to"]].get("move") == "diagonal" and \
                                (before is None or g.has_edge(before, side)):
                            m = copy.deepcopy(rec0)
                            m["race"]["turns"][ti][key][di - 1]["to"] = side
                            mutants.append(m)
                for m in mutants:
                    tally[(kind, rule(m))] += 1
    rec = copy.deepcopy(rec0)
    rec["options"]["full_contact"] = False
    tally[("full-contact-off", rule(rec))] += 1
    for (kind, rid), n in sorted(tally.items(), key=str):
        print(f"{kind:20} {str(rid):20} {n}")
    total = sum(tally.values())
    accepted = sum(n for (_, rid), n in tally.items() if rid is None)
    print(f"mutants: {total}, accepted: {accepted}")
    return 1 if accepted else 0


if __name__ == "__main__":
    sys.exit(main())
