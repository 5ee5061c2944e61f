"""The RX race's cheaper End of the Turn agrees with the plain one (issue 9, speed; the race lane).

- :meth:`Laps.drive` (the end of a walk and the finishing space, without the list; the crossings of a walk that only
  goes forward taken as the difference of its first and last side of the line) gives what :meth:`Laps.walk` gives,
  on every example circuit and on the stage course of a Head-to-Head, for seeded random walks (forwards, over the
  Joker and the Pre-grid, backwards where a projected space lies behind, across the line after the last lap);
- :meth:`Race._drive` (the Joker and Pre-grid states from the track's sets of spaces unless the Joker state changes
  on the way) gives what :meth:`Race._walk` gives, from every Joker state, on and off the Pre-grid.

The replays of every example game and of the mutation corpus are compared byte for byte by
``benchmarks/replay_snapshot.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers.circuits import CIRCUITS, example_tracks, random_path
from helpers.memory import cyclic_garbage
from rallyc.rules.domain import JokerState
from rallyc.rules.race import Race
from rallyc.rules.rx_laps import Laps
from rallyc.rules.stage import Player
from rallyc.rules.stage_race import StageCourse
from rallyc.rules.state import index_of

ROOT = Path(__file__).resolve().parent.parent
def _circuits() -> list:
    return [t for f in CIRCUITS for t in example_tracks(f) if t.kind == "circuit" and t.lap_length]


def _from_walk(walk: list, start: tuple, laps: int) -> tuple:
    """The end of a walk (``start`` for an empty one) and the index of its first entry past ``laps`` crossings."""
    fin = next((i for i, w in enumerate(walk) if w[1] > laps), None)
    return (walk[-1] if walk else start), fin


def _walks(index, laps: Laps, rng: random.Random, n: int):
    """Seeded turns' paths: from anywhere, a few spaces to several laps, some with a space behind the one before."""
    ids = list(index.spaces)
    for _ in range(n):
        start = rng.choice(ids)
        path = random_path(index, start, rng, rng.choice((0, 1, 3, 8, 12, 40)))
        if path and rng.random() < 0.2:  # a step back (a projected Joker or Pre-grid space, or a push)
            path.insert(rng.randrange(len(path)), rng.choice(ids))
        d = laps.start_distance(start) + rng.choice((0, 0, 1, 2, 3)) * laps.length
        yield start, d, rng.randint(0, laps.laps + 2), path


@pytest.mark.parametrize("track", _circuits(), ids=lambda t: t.name)
def test_laps_drive_is_the_end_of_walk(track):
    rng = random.Random(f"drive:{track.name}")
    laps, index = Laps(track), index_of(track)
    finishes = 0
    for _, d, crossed, path in _walks(index, laps, rng, 400):
        (end_d, end_c), fin = _from_walk(laps.walk(d, crossed, path), (d, crossed), laps.laps)
        assert laps.drive(d, crossed, path) == (end_d, end_c, fin), (d, crossed, path)
        finishes += fin is not None
    assert finishes  # the finish after the last lap was met


@pytest.mark.parametrize("bound", [4096, 5])
def test_laps_drive_table_is_the_walk(monkeypatch, bound):
    """:meth:`Laps.drive` reads each step from the track's table of steps: every entry of the table is the step
    :meth:`Laps.walk` takes from its distance onto its space (the distance there, the crossings added, the new
    distance's own entry), on every example circuit, for seeded walks by two Laps of the track sharing the table,
    with the table kept and cleared (``STEP_BOUND``); a cleared table leaves no cycle to the garbage collector."""
    import rallyc.rules.rx_laps as rx_laps

    monkeypatch.setattr(rx_laps, "STEP_BOUND", bound)
    for track in _circuits():
        rng = random.Random(f"steps:{track.name}:{bound}")
        one, two, index = Laps(track), Laps(track), index_of(track)
        assert one.steps is two.steps
        rx_laps._forget(one.steps)
        for _, d, crossed, path in _walks(index, one, rng, 300):
            laps = rng.choice((one, two))
            (end_d, end_c), fin = _from_walk(laps.walk(d, crossed, path), (d, crossed), laps.laps)
            assert laps.drive(d, crossed, path) == (end_d, end_c, fin), (d, crossed, path)
            assert len(laps.steps) <= max(bound, 1)
        entries = 0
        for distance, entry in one.steps.items():
            for sid, (nd, added, after) in entry.items():
                assert one.walk(distance, 0, [sid]) == [(nd, added)]
                assert one.steps.get(nd) is after or after is not None and bound < 4096
                entries += 1
        assert entries > 20 or bound < 4096
        kept = list(one.steps.values())
        rx_laps._forget(one.steps)
        assert not one.steps and not any(kept)
    track = _circuits()[0]
    laps = Laps(track)
    made: set[int] = set()

    def drive_and_drop() -> None:
        for _, d, crossed, path in _walks(index_of(track), laps, random.Random("garbage"), 200):
            laps.drive(d, crossed, path)
        made.update(id(e) for e in laps.steps.values())
        rx_laps._forget(laps.steps)

    left = cyclic_garbage(drive_and_drop)
    assert made and not [o for o in left if id(o) in made]


def test_stage_course_drive_is_the_end_of_walk():
    rng = random.Random("drive:stage")
    for track in example_tracks("rally-1.rally")[:2]:
        course, index = StageCourse(track), index_of(track)
        for _, _, crossed, path in _walks(index, course, rng, 200):
            d = course.start_distance(rng.choice(list(index.start_spaces)))
            crossed = rng.choice((0, 0, 1))
            (end_d, end_c), fin = _from_walk(course.walk(d, crossed, path), (d, crossed), course.laps)
            assert course.drive(d, crossed, path) == (end_d, end_c, fin)


@pytest.mark.parametrize("track", [t for t in _circuits() if t.name.lower().startswith(("rx", "ice"))] or _circuits(),
                         ids=lambda t: t.name)
def test_race_drive_is_race_walk(track):
    rng = random.Random(f"race-drive:{track.name}")
    race = Race(track, [Player("Ann", "red"), Player("Bob", "blue")])
    car = race.cars["Ann"]
    index = race.index
    jokers = [s for s in index.spaces if index.spaces[s].joker]
    changed = 0
    for start, d, crossed, path in _walks(index, race.laps, rng, 400):
        if jokers and rng.random() < 0.3:  # into the Joker lap
            path = path[:rng.randrange(len(path) + 1)] + [rng.choice(jokers)] + path[:3]
        car.space, car.distance, car.crossed = start, d, crossed
        car.joker = rng.choice(list(JokerState))
        car.left_pregrid = rng.random() < 0.5
        walk = race._walk(car, path)
        end, fin = _from_walk(walk, (car.distance, car.crossed, car.joker, car.left_pregrid), race.laps.laps)
        assert race._drive(car, path) == (end, fin, walk[fin][2] if fin is not None else None)
        assert race.finish_index(car, [_Placed(s) for s in path]) == fin
        changed += end[2] != car.joker
    assert changed  # the Joker state changed along some paths


class _Placed:
    """A placed die's space, all :meth:`Race.finish_index` reads."""

    def __init__(self, space: str) -> None:
        self.space = space


# -- the report's turn object ------------------------------------------------------------------------------

GAMES = ROOT / "examples" / "games"


def _race_records() -> list[Path]:
    import json

    return [g for g in sorted(GAMES.glob("*.json")) if "race" in json.loads(g.read_text(encoding="utf-8"))]


def _outcome_json_literal(o, explain: bool = True) -> dict:
    """The report's turn as ``_outcome_json`` built it before, as a dict literal: the reference."""
    from rallyc.records.explain import applied_of

    d = {"player": o.player, "start": o.start, "path": o.path, "end": o.end, "gear": o.gear, "warnings": o.warnings,
         "blocked": o.blocked, "flat_out": o.flat_out, "flat_out_failed": o.flat_out_failed,
         "focus_gained": o.gained, "focus_spent": o.spent, "damage": o.damage, "shortcut_tokens": o.tokens,
         "yellow_flags": o.yellow, "laps": o.laps, "joker": o.joker, "finished": o.finished,
         "position": o.position, "disqualified": o.disqualified, "retired": o.retired, "weather": o.weather,
         "text": o.describe()}
    if explain:
        d["applied"] = applied_of(o)
    if o.loc is not None:
        d["loss_of_control"] = {"space": o.loc.space, "gear": o.loc.gear, "cause": o.loc.cause}
    if o.contact:
        d["contact"] = [e.to_json() for e in o.contact]
    return d


def test_outcome_json_is_the_literal(monkeypatch):
    """The report's turn object (a copy of the keyed template, its values replaced) is the dict literal it replaced:
    the same keys in the same order, the same values, every turn of every race record, with and without the rule
    IDs; and a dict of its own each turn (the template itself never handed out nor changed)."""
    import rallyc.records.race as race_records
    from rallyc.records import load_record, replay_record

    plain = race_records._outcome_json
    template = dict(race_records._TURN_KEYS)
    seen = []

    def checked(o, explain=True):
        got = plain(o, explain)
        ref = _outcome_json_literal(o, explain)
        assert list(got) == list(ref) and got == ref
        assert got is not race_records._TURN_KEYS
        seen.append(got)
        return got

    monkeypatch.setattr(race_records, "_outcome_json", checked)
    for g in _race_records():
        for explain in (False, True):
            replay_record(load_record(g), base_dir=g.parent, explain=explain)
    assert race_records._TURN_KEYS == template
    assert len({id(d) for d in seen}) == len(seen) > 600
    assert any("loss_of_control" in d for d in seen) and any("contact" in d for d in seen)


def test_is_over_is_no_car_racing():
    """``Race.is_over`` (a loop that stops at the first car racing) says what "no car's status is road" says, for
    seeded statuses of two to four cars."""
    from rallyc.rules.domain import RaceStatus

    rng = random.Random("is-over")
    track = _circuits()[0]
    slots = len(Race(track, [Player("Ann", "red")]).start_grid())
    names = ["Ann", "Bob", "Cid", "Dee"]
    overs = 0
    for n in range(1, min(4, slots) + 1):
        race = Race(track, [Player(name, c) for name, c in zip(names[:n], ("red", "blue", "green", "yellow"))])
        for _ in range(50):
            for car in race.cars.values():
                car.status = rng.choice(list(RaceStatus))
            expected = not any(c.status == "road" for c in race.cars.values())
            assert race.is_over() is expected
            overs += expected
    assert 0 < overs < 50 * min(4, slots)


# -- a rallyc-game/1 record's Full Contact keys -----------------------------------------------------------------

def _first_contact_key(data: dict) -> str | None:
    """The path of the first Full Contact key the plain loop finds (what replay_race words), None if none."""
    for ti, tj in enumerate(data["race"]["turns"]):
        for key in ("dice", "relaid"):
            for di, d in enumerate(tj.get(key, [])):
                for k in ("push", "through", "push_to"):
                    if k in d:
                        return f"$.race.turns[{ti}].{key}[{di}].{k}"
    return None


def test_game1_contact_keys_refused_as_the_plain_loop_does():
    """A rallyc-game/1 race record holding a die with ``push``, ``through`` or ``push_to`` (or a die that is not an
    object) is refused at the first one, as the plain loop over every die finds it; seeded variants of the Full
    Contact example."""
    import copy
    import json

    from rallyc.records.load import RecordError
    from rallyc.records.race import replay_race

    base = json.loads((GAMES / "rx-2-full-contact.json").read_text(encoding="utf-8"))
    base["format"] = "rallyc-game/1"
    rng = random.Random("game1-contact")
    sites = [(ti, key, di) for ti, tj in enumerate(base["race"]["turns"]) for key in ("dice", "relaid")
             for di, _ in enumerate(tj.get(key, []))]
    cases = 0
    for trial in range(120):
        data = copy.deepcopy(base)
        for tj in data["race"]["turns"]:  # no Full Contact key left...
            for key in ("dice", "relaid"):
                for d in tj.get(key, []):
                    for k in ("push", "through", "push_to"):
                        d.pop(k, None)
        for _ in range(rng.choice((0, 1, 1, 2))):  # ...but one or two
            ti, key, di = rng.choice(sites)
            if rng.random() < 0.3:  # on a re-laid die
                t = data["race"]["turns"][ti]
                t["relaid"] = [dict(d) for d in t.get("dice", [])] or [{"die": "gear1", "to": "x"}]
                key, di = "relaid", rng.randrange(len(t["relaid"]))
            die = data["race"]["turns"][ti][key]
            k = rng.choice(("push", "through", "push_to", "push_to", "not-an-object"))
            if k == "not-an-object":
                die[di] = rng.choice(("push", ["through"], "gear3"))
            else:
                die[di][k] = {} if k != "push_to" else "x"
        want = _first_contact_key(data)
        if want is None:
            continue  # (replayed by the mutation runs; here only the refusal is compared)
        cases += 1
        with pytest.raises(RecordError) as got:
            replay_race(data, GAMES)
        assert got.value.path == want
        assert "needs format rallyc-game/2" in got.value.message
    assert cases > 50


# -- Full Contact: a turn without a push checked, drawn and committed as nothing ----------------------------------

def _contact_mutants(rec: dict, rng: random.Random, n: int):
    """Seeded one-change mutants of the Full Contact example: the corpus's kinds on race turns, and pushes and Push
    Throughs claimed, dropped, changed or moved to another die."""
    import copy

    from rallyc.records.mutate import KINDS, _mutate, mutation_sites

    sites = mutation_sites(rec, races=True)
    for kind in KINDS:
        for where in rng.sample(sites[kind], min(len(sites[kind]), n)):
            m = _mutate(rec, kind, where, rng)
            if m is not None:
                yield m
    dice = [(ti, key, di) for ti, t in enumerate(rec["race"]["turns"]) for key in ("dice", "relaid")
            for di, _ in enumerate(t.get(key, []))]
    pushes = [s for s in dice if {"push", "through"} & set(rec["race"]["turns"][s[0]][s[1]][s[2]])]
    for _ in range(3 * n):
        m = copy.deepcopy(rec)
        ti, key, di = rng.choice(pushes if rng.random() < 0.5 else dice)
        d = m["race"]["turns"][ti][key][di]
        change = rng.choice(("drop", "claim", "through", "danger", "damage", "move", "no-impact"))
        if change == "drop":
            for k in ("push", "through", "push_to"):
                d.pop(k, None)
        elif change == "claim":
            d["push"] = {}
        elif change == "through":
            d["through"] = {}
        elif change == "danger":
            d.setdefault("push", {})["danger"] = rng.randint(0, 3)
        elif change == "damage":
            d.setdefault("push", {})["impact"] = rng.choice(([], ["gear"], ["gear", "coast"]))
        elif change == "move":
            claim = {k: d.pop(k) for k in ("push", "through") if k in d}
            ti2, key2, di2 = rng.choice(dice)
            m["race"]["turns"][ti2][key2][di2].update(claim or {"push": {}})
        else:
            d.get("push", {}).pop("impact", None)
        yield m


def test_contact_without_push_is_the_full_check(monkeypatch):
    """Every turn of the Full Contact example and of seeded mutants replays the same, report and refusal word for
    word, with and without rule IDs, whether the turns without a push take the short way (``_no_contact``) or all go
    through the full check, draw and commit."""
    import json

    from rallyc.records import replay_record
    from rallyc.records.load import RecordError
    from rallyc.rules import contact

    rec = json.loads((GAMES / "rx-2-full-contact.json").read_text(encoding="utf-8"))
    rng = random.Random("contact-fast")

    def play(data: dict) -> tuple:
        try:
            out = []
            for explain in (False, True):
                r = replay_record(json.loads(json.dumps(data)), GAMES, explain=explain)
                out += [r.to_text(explain=explain), json.dumps(r.to_json(explain=explain))]
            return tuple(out)
        except RecordError as exc:
            return ("RecordError", str(exc), exc.path)

    records = [rec] + list(_contact_mutants(rec, rng, 12))
    fast = [play(m) for m in records]
    taken = []
    real = contact._no_contact
    monkeypatch.setattr(contact, "_no_contact", lambda turn, resolved: taken.append(real(turn, resolved)) and False)
    full = [play(m) for m in records]
    assert fast == full
    assert sum(taken) > len(taken) // 2 and not all(taken)  # most turns take the short way, not all
    rules = {json.loads(f[1]).get("error", {}).get("rule") for f in fast if f[0] != "RecordError"}
    assert {"RX-PUSH-01", "RX-IMPACT-01"} <= rules and len(rules) > 5, rules  # refusals of several kinds met


def test_no_contact_wants_every_die_reached_in_order():
    """The short way is for a turn whose dice were all reached, in order, without a push or a claim of one; a die
    not reached (a Loss of Control before it) may have pushed as laid: RX-CONTACTROLL-01, the full check's."""
    import json
    from types import SimpleNamespace

    from rallyc.records.race import rx_turn_from_json
    from rallyc.rules.contact import ContactClaim, ContactKind, _no_contact

    rec = json.loads((GAMES / "rx-1-race.json").read_text(encoding="utf-8"))
    turn = next(rx_turn_from_json(t) for t in rec["race"]["turns"] if len(t.get("dice", [])) >= 3)
    free = SimpleNamespace(contact=None)
    assert _no_contact(turn, [(free, r) for r in turn.dice])
    assert not _no_contact(turn, [(free, r) for r in turn.dice[:-1]])  # the last die not reached
    assert not _no_contact(turn, [(free, r) for r in reversed(turn.dice)])
    assert not _no_contact(turn, [(SimpleNamespace(contact=object()), turn.dice[0])] +
                           [(free, r) for r in turn.dice[1:]])  # a push
    turn.dice[-1].contact = ContactClaim(ContactKind.PUSH)
    assert not _no_contact(turn, [(free, r) for r in turn.dice])  # a claim
    turn.dice[-1].contact = None
    turn.relaid = list(turn.dice)
    assert not _no_contact(turn, [(free, r) for r in turn.dice])  # a failed Flat Out's re-laid dice


def test_contact_context_variants_are_replace(monkeypatch):
    """Every planning context Full Contact varies (the cars where the pushes put them, the pushed car's view...) is
    what ``dataclasses.replace(ctx, corner_methods={}, ...)`` makes, and leaves ``ctx`` as it was: on the Full
    Contact example and seeded mutants."""
    import dataclasses
    import json

    from rallyc.records import replay_record
    from rallyc.rules import contact
    from rallyc.rules.plans import situation

    made = []
    real = contact._variant

    def checked(ctx, **changes):
        before = dict(vars(ctx))
        got = real(ctx, **changes)
        want = dataclasses.replace(ctx, corner_methods={}, **changes)
        if got.situation is not None:  # the copy keeps the planning situation; replace works it out when asked
            assert got.situation == situation(want)
            want.situation = got.situation
        assert vars(got) == vars(want)
        assert vars(ctx) == before and got is not ctx and got.corner_methods is not ctx.corner_methods
        made.append(bool(got.corner_methods))
        return got

    monkeypatch.setattr(contact, "_variant", checked)
    rec = json.loads((GAMES / "rx-2-full-contact.json").read_text(encoding="utf-8"))
    for m in [rec] + list(_contact_mutants(rec, random.Random("contact-variants"), 4)):
        replay_record(json.loads(json.dumps(m)), GAMES, explain=True)
    assert len(made) > 50 and any(made)  # some with a car in a corner


# -- a Time Trial on a circuit: the laps by Laps.drive ----------------------------------------------------------

def _walked(stage, car, start: str, path: list[str]) -> tuple:
    """The circuit Time Trial's laps the plain way (before ``CircuitTimeTrial._drive``): :meth:`Laps.walk` space by
    space from the car's distance, its last entry and the first one past the last lap."""
    d = stage.distance.get(car.name)
    if d is None:
        d = stage.laps.start_distance(start)
    crossed = stage.crossed.get(car.name, 0)
    walk = stage.laps.walk(d, crossed, path)
    fin = next((i for i, (_, c) in enumerate(walk) if c > stage.laps.laps), None)
    return (walk[-1] if walk else None), fin


def test_circuit_trial_laps_are_the_walks(monkeypatch):
    """Every turn of the example games on a circuit (Time Trials, Technical Head-to-Heads): the finishing die and the
    distance and crossings committed are those of the plain walk, and so is the finishing die of seeded paths from
    where each car stands (several laps, the finish after the last one)."""
    import json

    from rallyc.records import load_record, replay_record
    from rallyc.rules.circuit_trial import CircuitTimeTrial

    rng = random.Random("circuit-trial")
    commit, finish_index = CircuitTimeTrial.commit, CircuitTimeTrial.finish_index
    seen = {"commits": 0, "finishes": 0, "moved": 0}

    def checked_commit(self, car, turn, out, change):
        (want, _) = _walked(self, car, out.start, out.path)
        before = (self.distance.get(car.name), self.crossed.get(car.name))
        commit(self, car, turn, out, change)
        if want is None:  # no move: the distance as it was, or the start's
            assert (self.distance[car.name], self.crossed.get(car.name)) == \
                ((before[0], before[1]) if before[0] is not None else (self.laps.start_distance(out.start), before[1]))
        else:
            assert (self.distance[car.name], self.crossed[car.name]) == want
            seen["moved"] += 1
        seen["commits"] += 1
        for c in self.cars.values():  # seeded paths from where every car stands now
            if c.space is None:
                continue
            path = random_path(self.index, c.space, rng, rng.choice((1, 4, 9, 30, 80)))
            got = finish_index(self, c, [_Placed(s) for s in path])
            assert got == _walked(self, c, c.space, path)[1], (c.name, path)
            seen["finishes"] += got is not None

    monkeypatch.setattr(CircuitTimeTrial, "commit", checked_commit)
    played = 0
    for g in sorted(GAMES.glob("*.json")):
        data = json.loads(g.read_text(encoding="utf-8"))
        if "stages" not in data:
            continue
        before = seen["commits"]
        report = replay_record(load_record(g), base_dir=g.parent, explain=False)
        assert report.ok
        played += seen["commits"] > before
    assert played >= 3 and seen["moved"] > 100 and seen["finishes"] > 20


# -- RxOutcome.describe: one string grown -----------------------------------------------------------------------

def _describe_joined(o) -> str:
    """``RxOutcome.describe`` as it was (a list of parts joined by commas): the reference."""
    if o.blocked:
        move = f"blocked on {o.end}"
    else:
        mode = "flat out" if o.flat_out else "one by one"
        move = f"{o.start} -> {o.end} ({len(o.path)} spaces, {mode})"
    bits = [f"{o.player}: {move}, Gear {o.gear}"]
    if o.lapped:
        bits.append(f"{o.laps} lap(s) done")
    if o.joker != "none":
        bits.append(f"Joker {o.joker}")
    if o.flat_out_failed:
        bits.append("Flat Out failed")
    if o.loc:
        bits.append(f"Loss of Control ({o.loc.cause}) on {o.loc.space} in Gear {o.loc.gear}")
    if o.damage:
        bits.append("damage " + "+".join(o.damage))
    if o.yellow:
        bits.append("Yellow Flag on step " + ", ".join(map(str, o.yellow)))
    if o.weather:
        bits.append(f"Weather token: the weather turns {o.weather}")
    if o.contact:
        bits.extend([e.describe() for e in o.contact])
    if o.tokens:
        bits.append("shortcut " + "+".join(o.tokens))
    if o.gained:
        bits.append(f"+{o.gained} Focus")
    if o.spent:
        bits.append(f"-{o.spent} Focus secured")
    if o.finished:
        bits.append(f"FINISHED {o.position}")
    if o.disqualified:
        bits.append("DISQUALIFIED (no Joker)")
    if o.retired:
        bits.append("RETIRED")
    return ", ".join(bits)


def test_describe_is_the_joined_parts(monkeypatch):
    """Every RX outcome of the example games, and 3,000 seeded outcomes (every field on and off, several pushes),
    read the same as the list-and-join text."""
    from rallyc.records import load_record, replay_record
    from rallyc.rules.contact import ContactEvent, ContactKind
    from rallyc.rules.race import RxOutcome
    from rallyc.rules.turn import LossOfControl

    seen = []
    plain = RxOutcome.describe

    def checked(self):
        got = plain(self)
        assert got == _describe_joined(self)
        seen.append(got)
        return got

    monkeypatch.setattr(RxOutcome, "describe", checked)
    for g in _race_records():
        replay_record(load_record(g), base_dir=g.parent, explain=False)
    assert len(seen) > 300
    monkeypatch.setattr(RxOutcome, "describe", plain)
    rng = random.Random("describe")
    pick = rng.choice
    for _ in range(3000):
        flip = lambda: rng.random() < 0.3  # noqa: E731
        events = [ContactEvent(pick(list(ContactKind)), "Ann", "a1", rng.randint(1, 5),
                               [{"car": "Bob", "from": "a1", "to": "a2", "danger": rng.randint(0, 2),
                                 "damage": pick(([], ["tire"]))}], pick(([], ["engine"])))
                  for _ in range(pick((0, 0, 1, 2)))]
        out = RxOutcome(player=pick(("Ann", "Bob")), round=rng.randint(1, 9), start="s1",
                        path=["x"] * rng.randint(0, 6), end="s2", gear=rng.randint(0, 6), warnings=rng.randint(0, 3),
                        loc=LossOfControl("s3", 4, "3 Warnings") if flip() else None, blocked=flip(),
                        flat_out=flip(), flat_out_failed=flip(), gained=pick((0, 0, 2)), spent=pick((0, 0, 1, 3)),
                        damage=pick(([], ["tire"], ["tire", "engine"])), tokens=pick(([], ["ok"], ["ok", "coast"])),
                        finished=flip(), retired=flip(), colour=pick(("white", "black")), laps=rng.randint(0, 3),
                        joker=pick(list(JokerState)), disqualified=flip(), position=pick((None, 1, 2)),
                        yellow=pick(([], [3], [3, 11])), weather=pick((None, "wet", "dry")), contact=events,
                        lapped=flip() or flip())
        assert out.describe() == _describe_joined(out)


# -- the order of play: is_inside's table and the rounded distances read in line ------------------------------

@pytest.mark.parametrize("bound", [4096, 3])
def test_next_round_is_order_key_sorted(monkeypatch, bound):
    """``Race.next_round`` (the inside lane from the track's table, each distance rounded once per track) orders the
    cars as :func:`rallyc.rules.rx_order.order_key` sorts them, for seeded positions, gears and distances (ties,
    distances a hair apart, cars off the road), with the table of rounded distances kept and cleared."""
    import rallyc.rules.race as race_module
    from rallyc.rules.domain import RaceStatus
    from rallyc.rules.rx_order import is_inside, order_key

    monkeypatch.setattr(race_module, "ROUNDED_BOUND", bound)
    rng = random.Random(f"next-round:{bound}")
    names = ["Ann", "Bob", "Cid", "Dee"]
    checked = 0
    for track in _circuits():
        slots = len(Race(track, [Player("Ann", "red")]).start_grid())
        race = Race(track, [Player(n, c) for n, c in zip(names[:slots], ("red", "blue", "green", "yellow"))])
        ids = list(race.index.spaces)
        for _ in range(60):
            shared = rng.sample(ids, 2)  # cars on the same spaces often: their distances tie or nearly
            for car in race.cars.values():
                car.space = rng.choice(shared) if rng.random() < 0.6 else rng.choice(ids)
                car.gear = rng.choice((1, 2, 2))
                base = race.laps.start_distance(car.space) + rng.randint(0, 1) * race.laps.length
                car.distance = base + rng.choice((0.0, 0.0, 1e-7, 4e-7, 6e-7, 1e-5))
                car.status = rng.choice((RaceStatus.ROAD,) * 4 + (RaceStatus.RETIRED, RaceStatus.FINISHED))
            if race.is_over():
                continue
            before = list(race.order)
            previous = {n: i for i, n in enumerate(before or race.grid_order)}
            racing = [c for c in race.cars.values() if c.status == "road"]
            racing.sort(key=lambda c: order_key(c.gear, c.distance, is_inside(race.index, c.space),
                                                previous.get(c.name, len(previous) + race.grid_order.index(c.name))))
            race.next_round()
            assert race.order == [c.name for c in racing]
            checked += 1
    assert checked > 200


# -- Yellow Flags: the limits in force without a call or a new set per flag ------------------------------------

def _flag_limits_plain(index, neighbours, in_force, pairs, mover, others):
    """``yellow_flags.flag_limits`` as it was (a flag_steps call and a set per flag, a generator): the reference."""
    from rallyc.rules.yellow_flags import flag_steps

    flagged, near = set(), set()
    for step in in_force:
        flagged |= flag_steps(neighbours, step)
        near |= pairs.get(step, set())
    no_alongside = frozenset(s.id for s in index.spaces.values() if s.step in flagged)
    return no_alongside, frozenset(space for name, space in others if frozenset((mover, name)) in near)


def test_flag_limits_are_the_plain_ones():
    """Seeded flags, flag holders, pairs alongside and other cars on every example circuit: the flags in force (new
    lists, the mover's own gone from Gear 0), the spaces no car may be alongside on and the cars alongside before a
    flag, as the plain loops work them out (with and without the per-track table of covered spaces)."""
    from rallyc.rules.yellow_flags import flag_limits, flags_in_force, step_neighbours

    rng = random.Random("flags")
    names = ["Ann", "Bob", "Cid", "Dee"]
    met = 0
    for track in _circuits():
        index = index_of(track)
        neighbours = step_neighbours(track.graph, index.spaces)
        steps = sorted({s.step for s in index.spaces.values()})
        ids = list(index.spaces)
        covered: dict = {}
        for _ in range(150):
            flags = {st: rng.sample(names, rng.randint(1, 2)) for st in rng.sample(steps, rng.randint(0, 3))}
            pairs = {st: {frozenset(rng.sample(names, 2)) for _ in range(rng.randint(0, 2))}
                     for st in flags if rng.random() < 0.6}
            mover = rng.choice(names)
            gear0 = rng.random() < 0.5
            in_force = flags_in_force(flags, mover, gear0)
            plain = {st: keep for st, holders in flags.items()
                     if (keep := [h for h in holders if not (h == mover and gear0)])}
            assert in_force == plain and all(in_force[st] is not flags[st] for st in in_force)
            others = [(n, rng.choice(ids)) for n in names if n != mover]
            want = _flag_limits_plain(index, neighbours, in_force, pairs, mover, others)
            assert flag_limits(index, neighbours, in_force, pairs, mover, others) == want
            assert flag_limits(index, neighbours, in_force, pairs, mover, others, covered) == want
            met += bool(want[1])
    assert met > 50
