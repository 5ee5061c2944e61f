"""Mutations of recorded games, to test the referee against illegal edits (issue 9's mutation run).

:func:`mutants` changes one thing in a record: a card's seconds, a die's space (another space of the same
zone), a die's lane, a Gear die's gear, a die's face. :func:`judge` replays a mutant and, when the referee
accepts it, checks it against rules that do not go through the referee's plan validator: every card taken
is one of the game's card table, every die enters a space one step ahead in the space graph, a Gear die
without Brake or Boost changes the gear by at most one, and every stage time is the cards' seconds minus the
unspent Second tokens. An accepted mutant that breaks one of them is a referee bug ("contradiction").
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from rallyc.compiler.track import Track
from rallyc.data.components import Components, load_components
from rallyc.records.load import RecordError
from rallyc.records.report import RaceReport
from rallyc.records.replay import ReplayReport, record_cards, replay_record
from rallyc.rules.core.cards import CardTable

__all__ = ["KINDS", "Mutant", "Tally", "turn_paths", "mutation_sites", "mutants", "judge"]

#: what a mutation changes
KINDS = ("card-seconds", "die-space", "lane", "gear", "face")


@dataclass
class Mutant:
    kind: str
    where: str
    record: dict[str, Any]


@dataclass
class Tally:
    """Counts per kind: mutants, refused by the referee, accepted (a legal alternative), contradictions."""

    mutants: dict[str, int] = field(default_factory=lambda: {k: 0 for k in KINDS})
    refused: dict[str, int] = field(default_factory=lambda: {k: 0 for k in KINDS})
    accepted: dict[str, int] = field(default_factory=lambda: {k: 0 for k in KINDS})
    contradictions: list[str] = field(default_factory=list)

    def add(self, kind: str, verdict: str, why: str = "") -> None:
        self.mutants[kind] += 1
        if verdict == "refused":
            self.refused[kind] += 1
        else:
            self.accepted[kind] += 1
            if verdict == "contradiction":
                self.contradictions.append(why)

    def lines(self) -> list[str]:
        out = [f"{k:13} {self.mutants[k]:6} mutants {self.refused[k]:6} refused {self.accepted[k]:6} accepted"
               for k in KINDS]
        out.append(f"accepted records that contradict the rules or the card table: {len(self.contradictions)}")
        return out


def turn_paths(rec: dict[str, Any], races: bool = True) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every turn of a record with its JSON path: the stages' turns, then (``races``) the race's."""
    for si, st in enumerate(rec.get("stages", [])):
        for ti, t in enumerate(st.get("turns", [])):
            yield f"$.stages[{si}].turns[{ti}]", t
    if races:
        for ti, t in enumerate(rec.get("race", {}).get("turns", [])):
            yield f"$.race.turns[{ti}]", t


def mutation_sites(rec: dict[str, Any], races: bool = True) -> dict[str, list[str]]:
    """Where each kind of mutation can go (JSON paths), in record order: on stage turns and (``races``) race
    turns. A die without a space (``to``) has no space or lane to change."""
    sites: dict[str, list[str]] = {k: [] for k in KINDS}
    for path, t in turn_paths(rec, races):
        if "seconds" in t.get("card", {}):
            sites["card-seconds"].append(path)
        for di, d in enumerate(t.get("dice", [])):
            here = f"{path}.dice[{di}]"
            if "to" in d:
                sites["die-space"].append(here)
                sites["lane"].append(here)
            if str(d.get("die", "")).startswith("gear"):
                sites["gear"].append(here)
            if "face" in d:
                sites["face"].append(here)
    return sites


def _lanes(space: str) -> tuple[str, str]:
    head, _, lane = space.rpartition(".")
    return head, lane


def mutants(rec: dict[str, Any], rng: random.Random, per_kind: int | None = None) -> Iterator[Mutant]:
    """One-change mutants of a stage record (``per_kind``: at most that many of each kind, picked by ``rng``)."""
    sites = mutation_sites(rec, races=False)
    for kind in KINDS:
        chosen = sites[kind]
        if per_kind is not None and len(chosen) > per_kind:
            chosen = rng.sample(chosen, per_kind)
        for where in chosen:
            m = _mutate(rec, kind, where, rng)
            if m is not None:
                yield Mutant(kind, where, m)


def _at(rec: dict[str, Any], where: str) -> dict[str, Any]:
    node: Any = rec
    for part in where.lstrip("$.").replace("[", ".").replace("]", "").split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    found: dict[str, Any] = node  # a mutant's site is an object of the record
    return found


def _mutate(rec: dict[str, Any], kind: str, where: str, rng: random.Random) -> dict[str, Any] | None:
    out = copy.deepcopy(rec)
    node = _at(out, where)
    if kind == "card-seconds":
        old = node["card"]["seconds"]
        node["card"]["seconds"] = rng.choice([v for v in (0, 10, 15, 20, 30, 40, 50, 60, old + 5) if v != old])
    elif kind == "die-space":
        head, lane = _lanes(node["to"])
        step, _, zone = head.rpartition(".")
        if not zone.isdigit():
            return None
        node["to"] = f"{step}.{int(zone) + rng.choice((1, -1, 2))}.{lane}"
    elif kind == "lane":
        head, lane = _lanes(node["to"])
        others = [x for x in ("l", "r", "m", "in1", "out1", "s1", "s2") if x != lane]
        node["to"] = f"{head}.{rng.choice(others)}"
    elif kind == "gear":
        g = int(node["die"][4:]) + rng.choice((1, -1))
        if not 1 <= g <= 6:
            return None
        node["die"] = f"gear{g}"
    elif kind == "face":
        node["face"] = "ok" if node["face"] == "warning" else "warning"
    return out


def judge(m: Mutant, base_dir: Path, tracks: list[Track]) -> tuple[str, str]:
    """("refused" | "accepted" | "contradiction", why) of one mutant."""
    try:
        report = replay_record(m.record, base_dir, tracks=tracks)
    except RecordError:
        return "refused", ""
    if report.error is not None:
        return "refused", ""
    why = _contradiction(m.record, report, tracks, record_cards(m.record, _components()))
    return ("contradiction", f"{m.kind} at {m.where}: {why}") if why else ("accepted", "")


def _components() -> Components:
    return load_components()


def _contradiction(rec: dict[str, Any], report: ReplayReport | RaceReport, tracks: list[Track], table: CardTable) -> str:
    """The first rule an accepted record breaks, checked without the plan validator; empty when none."""
    for si, st in enumerate(report.stages):
        graph = tracks[si].graph
        cards_by_player: dict[str, int] = {}
        for rnd in st["rounds"]:
            for t in rnd["turns"]:
                card = t["card"]
                secs = card["seconds"]
                if card["zero"]:
                    allowed = {table.zero, table.sisu, table.spare_tire}
                else:
                    allowed = set(table.gears.get(card["gear"], ())) | {table.zero, table.sisu, table.spare_tire}
                if secs not in allowed:
                    return f"a Gear {card['gear']} card of {secs} s is not in the game's card table"
                cards_by_player[t["player"]] = cards_by_player.get(t["player"], 0) + secs
                prev = t["start"]
                for space in t["path"]:
                    if not graph.has_edge(prev, space) and not any(graph.has_edge(prev, a) and
                                                                   (graph.has_edge(a, space) or
                                                                    any(graph.has_edge(b, space)
                                                                        for b in graph.successors(a)))
                                                                   for a in graph.successors(prev)):
                        return f"{prev} -> {space} is not a move ahead on the space graph"
                    prev = space
        for name, detail in st.get("detail", {}).items():
            if detail["status"] == "finished":
                want = cards_by_player.get(name, 0) - detail["tokens"] + detail.get("penalty", 0)
                if st["times"][name] != want:
                    return f"{name}'s stage time {st['times'][name]} is not cards minus tokens ({want})"
    gear_steps = _gear_steps(rec)
    return gear_steps


def _gear_steps(rec: dict[str, Any]) -> str:
    """A Gear die without Brake or Boost one gear at most from the previous die's (CORE-DICE-09), within a turn."""
    for path, t in turn_paths(rec, races=False):
        prev = None
        for d in t.get("dice", []):
            if d["die"].startswith("gear"):
                g = int(d["die"][4:])
                if prev is not None and not d.get("brake") and not d.get("boost") and abs(g - prev) > 1:
                    return f"{path}: Gear {prev} to Gear {g} without the Brake or Boost"
                prev = g
    return ""
