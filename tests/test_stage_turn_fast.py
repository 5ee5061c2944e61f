"""A stage turn outside the roll, on its fast path, agrees with the long way (issue 9, speed).

What the stage's turn builds once per turn is built the cheap way: the :class:`~rallyc.rules.turn.Outcome` by
position (:func:`~rallyc.rules.turn.stage_outcome`, not the dataclass's 27 keyword arguments); the die that crosses
the Finish Line is found from the track's set of spaces beyond it (``TrackIndex.beyond_finish``). These tests replay
every recorded game of ``examples/games`` and a seeded slice of the mutation corpus (``rallyc.records.mutate``)
both ways and compare the reports and every outcome field by field (or the first refusal, word for word).
"""

from __future__ import annotations

import json
import random
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from helpers.compiler import stage as stage_text, track_of

import rallyc.records.replay as replay_module
from rallyc.records import load_record, replay_record
from rallyc.records.load import RecordError
from rallyc.records.mutate import mutants
from rallyc.records.replay import record_stages
from rallyc.rules.plans import Placed
from rallyc.rules.stage import Player, Stage
from rallyc.rules.dice import Die, DieKind
from rallyc.rules.state import Card
from rallyc.rules.turn import LossOfControl, Outcome, stage_outcome

ROOT = Path(__file__).resolve().parent.parent
GAMES = [g for g in sorted((ROOT / "examples" / "games").glob("*.json")) if "race" not in load_record(g)]


def _keyword_outcome(player, round, start, path, end, gear, card, warnings, loc, blocked, stopped, finished,  # noqa: A002
                     flat_out, flat_out_failed, gained, spent, damage, tokens, spare_tire, sisu, leader) -> Outcome:
    """The long way: the dataclass's own ``__init__``, by keyword."""
    return Outcome(player=player, round=round, start=start, path=path, end=end, gear=gear, card=card,
                   warnings=warnings, loc=loc, blocked=blocked, stopped=stopped, finished=finished, flat_out=flat_out,
                   flat_out_failed=flat_out_failed, gained=gained, spent=spent, damage=damage, tokens=tokens,
                   spare_tire=spare_tire, sisu=sisu, leader=leader)


def _fields(o: Outcome, explain: bool) -> dict[str, Any]:
    """Every field of an outcome as it is when the report is written (the rule IDs worked out if explaining)."""
    got = {k: v for k, v in vars(o).items() if k not in ("_applied", "_pending")}
    got["applied"] = o.applied if explain else None
    return got


def _played(data: dict, base: Path, monkeypatch, explain: bool, long_way: bool, tracks=None) -> tuple[Any, list]:
    """The report as JSON (or the RecordError's text) and every outcome's fields, played the fast way or the long
    way (``long_way``)."""
    seen: list[dict[str, Any]] = []
    write = replay_module._outcome_json

    def keep(o: Outcome, explain: bool = True) -> dict:
        seen.append(_fields(o, explain))
        return write(o, explain)

    with monkeypatch.context() as m:
        m.setattr(replay_module, "_outcome_json", keep)
        if long_way:
            m.setattr("rallyc.rules.timecards.stage_outcome", _keyword_outcome)
        try:
            report: Any = replay_record(data, base, tracks=tracks, explain=explain).to_json(explain=explain)
        except RecordError as exc:
            report = f"RecordError {exc}"
    return report, seen


@pytest.mark.parametrize("explain", [False, True], ids=["plain", "explained"])
@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_example_stage_turn_is_the_same_both_ways(game, explain, monkeypatch):
    data = load_record(game)
    fast = _played(data, game.parent, monkeypatch, explain, long_way=False)
    slow = _played(data, game.parent, monkeypatch, explain, long_way=True)
    assert fast == slow
    assert fast[0]["ok"] and len(fast[1]) == sum(len(s["turns"]) for s in data["stages"])


def test_the_mutation_corpus_is_the_same_both_ways(monkeypatch):
    """A seeded slice of every kind of mutant of every stage record: refused at the same place for the same
    reason, or accepted with the same report and outcomes."""
    compared = refused = 0
    for path in GAMES:
        rec = load_record(path)
        tracks, _, _ = record_stages(rec, path.parent)
        for i, m in enumerate(mutants(rec, random.Random(f"stage-turn:{path.name}"), per_kind=2)):
            explain = i % 2 == 1
            fast = _played(m.record, path.parent, monkeypatch, explain, long_way=False, tracks=tracks)
            slow = _played(m.record, path.parent, monkeypatch, explain, long_way=True, tracks=tracks)
            assert fast == slow, f"{path.name}: {m.kind} at {m.where}"
            compared += 1
            refused += isinstance(fast[0], str) or not fast[0]["ok"]
    assert compared > 100 and 0 < refused < compared


def test_stage_outcome_sets_every_field_as_the_dataclass_does():
    """Every field of :class:`Outcome`, the given ones and the defaults (a field added to the dataclass and not to
    the builder fails here), in many combinations of values."""
    rng = random.Random("stage_outcome")
    names = [f.name for f in fields(Outcome)]
    for _ in range(200):
        args = ("Ann", rng.randint(1, 9), "1.1.a", [f"{rng.randint(1, 9)}.1.a"], "2.1.a", rng.randint(0, 5),
                Card(rng.randint(0, 5), rng.choice((0, 10, 20)), rng.random() < 0.5),
                rng.randint(0, 3), rng.choice((None, LossOfControl("2.1.a", 3, "warnings"))),
                *(rng.random() < 0.5 for _ in range(5)), rng.randint(0, 4), rng.randint(0, 4),
                rng.choice(([], ["gear"])), rng.choice(([], ["ok"])), *(rng.random() < 0.5 for _ in range(3)))
        fast, slow = stage_outcome(*args), _keyword_outcome(*args)
        assert list(vars(fast)) == names
        assert vars(fast) == vars(slow) and fast == slow
        assert vars(stage_outcome(*args))["flipped"] is not fast.flipped  # a list of its own, as default_factory


def _finish_space_by_space(stage: Stage, placed: list[Placed]) -> int | None:
    """The long way: each die's space looked up and read."""
    spaces = stage.index.spaces
    for i, p in enumerate(placed):
        if spaces[p.space].after_finish or spaces[p.space].past_finish:
            return i
    return None


def test_the_finishing_die_is_the_one_found_space_by_space(monkeypatch):
    """Every finish check of every example stage turn (the End of the Turn's and a Flat Out's), and every space of
    every example track, and of a track with zones beyond the first after the line, as a die."""
    real = Stage.finish_index
    checked: list[int | None] = []

    def both(self, car, placed):
        got = real(self, car, placed)
        assert got == _finish_space_by_space(self, placed), placed
        checked.append(got)
        return got

    monkeypatch.setattr(Stage, "finish_index", both)
    beyond_the_first_zone = track_of(stage_text("202a", "205a", "203a", "205a"))  # spaces past_finish only
    for game in GAMES:
        data = load_record(game)
        assert replay_record(data, game.parent, explain=False).ok
        tracks, _, _ = record_stages(data, game.parent)
        for track in tracks + [beyond_the_first_zone]:
            stage = Stage(track, [Player("Ann", "red")])
            die = Die(DieKind.GEAR3, "")
            for sid in stage.index.spaces:
                both(stage, stage.cars["Ann"], [Placed(die, stage.index.start_spaces[0], 1), Placed(die, sid, 3)])
    assert None in checked and any(i is not None for i in checked)


def _report(data: dict, base: Path, explain: bool, tracks=None) -> Any:
    """The report as JSON, or the RecordError's text."""
    try:
        return replay_record(data, base, tracks=tracks, explain=explain).to_json(explain=explain)
    except RecordError as exc:
        return f"RecordError {exc}"


def test_the_end_of_the_turn_asks_the_finish_only_past_the_line(monkeypatch):
    """The End of the Turn asks the core stage's ``finish_index`` only when a space of the path is beyond the line:
    every example stage record and seeded mutants of it give the same report as with it asked every turn (the
    flag of every stage form forced on)."""
    forms = [Stage] + _subclasses(Stage)
    compared = finishing = 0
    for path in GAMES:
        rec = load_record(path)
        tracks, _, _ = record_stages(rec, path.parent)
        records = [rec] + [m.record for m in mutants(rec, random.Random(f"finish:{path.name}"), per_kind=2)]
        for i, data in enumerate(records):
            fast = _report(data, path.parent, i % 2 == 1, tracks)
            with monkeypatch.context() as m:
                for form in forms:
                    m.setattr(form, "_finish_hook", True)
                slow = _report(data, path.parent, i % 2 == 1, tracks)
            assert fast == slow, f"{path.name}: record {i}"
            compared += 1
            finishing += isinstance(fast, dict) and "FINISHED" in str(fast)
    assert compared > 100 and finishing > 30


def _describe_by_bits(o: Outcome) -> str:
    """The long way: the text's bits in a list, joined."""
    if o.blocked:
        move = f"blocked on {o.end}"
    else:
        move = f"{o.start} -> {o.end} ({len(o.path)} spaces, {'flat out' if o.flat_out else 'one by one'})"
    bits = [f"{o.player}: {move}, Gear {o.gear}"]
    if o.flat_out_failed:
        bits.append("Flat Out failed")
    if o.loc:
        icon = f": {o.card.icon}" if o.card.icon else ""
        bits.append(f"Loss of Control ({o.loc.cause}) on {o.loc.space} in Gear {o.loc.gear}{icon}")
    if o.damage:
        bits.append("damage " + "+".join(o.damage))
    if o.tokens:
        bits.append("shortcut " + "+".join(o.tokens))
    if o.gained:
        bits.append(f"+{o.gained} Focus" if o.focus else f"+{o.gained} s tokens")
    if o.spent:
        bits.append(f"-{o.spent} Focus secured" if o.focus else f"-{o.spent} s secured")
    for flag, word in ((o.spare_tire, "spare tire"), (o.sisu, "SISU"), (o.finished, "FINISHED"),
                       (o.retired, "RETIRED")):
        if flag:
            bits.append(word)
    if o.flipped:
        bits.append("Weather: flipped step " + ", ".join(str(s) for s in o.flipped))
    bits.append(f"card {'0 side ' if o.card.zero else ''}{o.card.seconds} s")
    return ", ".join(bits)


def test_the_turn_text_is_the_bits_joined(monkeypatch):
    """``Outcome.describe`` against its bits joined: every example stage turn, and outcomes with every event on
    and off (seeded)."""
    seen: list[Outcome] = []
    write = replay_module._outcome_json
    monkeypatch.setattr(replay_module, "_outcome_json", lambda o, explain=True: seen.append(o) or write(o, explain))
    for game in GAMES:
        assert replay_record(load_record(game), game.parent, explain=False).ok
    rng = random.Random("describe")
    for _ in range(2000):
        o = stage_outcome("Ann", 1, "1.1.a", ["2.1.a"] * rng.randint(0, 6), "2.1.a", rng.randint(0, 6),
                          Card(rng.randint(0, 6), rng.choice((0, 10, 25)), rng.random() < 0.3,
                               rng.choice((None, "crash", "spinout", "sisu"))),
                          0, rng.choice((None, LossOfControl("2.1.a", 4, "warnings"))), *(rng.random() < 0.3
                                                                                           for _ in range(5)),
                          rng.choice((0, 0, 2)), rng.choice((0, 0, 3)), rng.choice(([], ["gear", "coast"])),
                          rng.choice(([], ["ok"], ["minus1", "weather"])), *(rng.random() < 0.2 for _ in range(3)))
        o.retired, o.focus = rng.random() < 0.2, rng.random() < 0.3
        o.flipped = rng.choice(([], [3], [4, 7]))
        seen.append(o)
    assert len(seen) > 2400
    for o in seen:
        assert o.describe() == _describe_by_bits(o)


def _outcome_json_displayed(o: Outcome, explain: bool = True) -> dict:
    """The long way: every field of the report's turn in one dict display."""
    card = o.card
    d = {"player": o.player, "start": o.start, "path": o.path, "end": o.end, "gear": o.gear,
         "card": {"gear": card.gear, "seconds": card.seconds, "zero": card.zero, "icon": card.icon},
         "warnings": o.warnings, "blocked": o.blocked, "finished": o.finished, "retired": o.retired,
         "flat_out": o.flat_out, "flat_out_failed": o.flat_out_failed, "seconds_gained": o.gained,
         "seconds_spent": o.spent, "damage": o.damage, "shortcut_tokens": o.tokens,
         "spare_tire": o.spare_tire, "sisu": o.sisu, "leader": o.leader, "text": o.describe()}
    if explain:
        d["applied"] = replay_module.applied_of(o)
    if o.flipped:
        d["flipped"] = list(o.flipped)
    if o.loc is not None:
        d["loss_of_control"] = {"space": o.loc.space, "gear": o.loc.gear, "cause": o.loc.cause}
    return d


def _as_written(d: dict) -> str:
    """A report's turn as JSON text: the key order, and ``0`` apart from ``false`` (which ``==`` would not tell)."""
    return json.dumps(d)


def test_the_report_turn_is_the_dict_displayed(monkeypatch):
    """``_outcome_json`` (a copy of the usual turn's report, its own values stored over it) against the dict display
    of every field: every example stage turn, both ways of explaining, every seeded mutant of the stage records,
    and seeded outcomes whose fields hold a default's look-alikes (``0``/``False``/``None``, ``1``/``True``)."""
    write = replay_module._outcome_json
    compared = [0]

    def both(o: Outcome, explain: bool = True) -> dict:
        fast = write(o, explain)
        assert _as_written(fast) == _as_written(_outcome_json_displayed(o, explain))
        compared[0] += 1
        return fast

    monkeypatch.setattr(replay_module, "_outcome_json", both)
    for i, game in enumerate(GAMES):
        data = load_record(game)
        for explain in (False, True):
            assert replay_record(data, game.parent, explain=explain).ok
        tracks, _, _ = record_stages(data, game.parent)
        for j, m in enumerate(mutants(data, random.Random(f"report-turn:{game.name}"), per_kind=1)):
            try:
                replay_record(m.record, game.parent, tracks=tracks, explain=(i + j) % 2 == 1)
            except RecordError:
                pass
    assert compared[0] > 2000
    rng = random.Random("report-turn")
    looks = (0, 1, False, True, None, 2)
    for _ in range(3000):
        o = stage_outcome("Ann", 1, "1.1.a", ["2.1.a"] * rng.randint(0, 3), "2.1.a", rng.randint(0, 6),
                          Card(rng.randint(0, 6), rng.choice((0, 10, 25)), rng.random() < 0.3,
                               rng.choice((None, "crash"))),
                          rng.choice(looks), rng.choice((None, LossOfControl("2.1.a", 4, "warnings"))),
                          *(rng.choice(looks) for _ in range(5)), rng.choice(looks), rng.choice(looks),
                          rng.choice(([], ["gear"])), rng.choice(([], ["ok"])), *(rng.choice(looks) for _ in range(3)))
        o.retired, o.flipped = rng.choice(looks), rng.choice(([], [3]))
        explain = rng.random() < 0.5
        if explain:
            o.applied = ("CORE-ROLL-01",)
        assert _as_written(write(o, explain)) == _as_written(_outcome_json_displayed(o, explain))


def test_is_over_is_every_car_finished_or_retired():
    """``Stage.is_over`` (the statuses tested in C) against the loop over the cars, for every mix of statuses of
    one to three cars, as the enum and as the plain words a car may hold."""
    import itertools

    from rallyc.rules.domain import CarStatus

    game = GAMES[0]
    track = record_stages(load_record(game), game.parent)[0][0]
    stage = Stage(track, [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green")])
    statuses = list(CarStatus) + [s.value for s in CarStatus]
    every = list(stage.cars.items())
    for n in (1, 2, 3):
        cars = dict(every[:n])
        stage.cars = cars
        for mix in itertools.product(statuses, repeat=n):
            for car, status in zip(cars.values(), mix):
                car.status = status
            assert stage.is_over() == all(s in ("finished", "retired") for s in mix), mix


def test_a_variant_overriding_a_hook_has_it_asked():
    """The engine asks ``forced_movement`` and the stage asks ``context_variant`` only of a game form that overrides
    them (a flag set per subclass): a subclass, and a subclass of it, that override them are asked every turn."""
    from rallyc.rules.engine import TurnEngine

    asked: list[str] = []

    class Flagged(Stage):
        def context_variant(self, car, track):
            asked.append("variant")
            return {"barred": {"nowhere": ("CORE-MOVE-01", "test")}}

        def forced_movement(self, car, turn, ctx):
            asked.append("forced")
            assert ctx.barred == {"nowhere": ("CORE-MOVE-01", "test")}
            return None

    class Again(Flagged):
        pass

    assert not Stage._variant and not Stage._forces and Flagged._variant and Flagged._forces and Again._forces
    for path in [g for g in GAMES if g.name.startswith("rally-")][:3]:  # played by the core Stage
        data = load_record(path)
        plain = replay_record(data, path.parent, explain=False).to_json()
        with pytest.MonkeyPatch.context() as m:
            m.setattr("rallyc.rules.rally.Stage", Again)
            asked.clear()
            again = replay_record(data, path.parent, explain=False).to_json()
        turns = sum(len(s["turns"]) for s in data["stages"])
        assert again == plain and asked.count("forced") == turns and asked.count("variant") == turns
    assert all(cls._forces == (cls.forced_movement is not TurnEngine.forced_movement)
               for cls in _subclasses(TurnEngine))
    assert all(cls._variant == (cls.context_variant is not Stage.context_variant) for cls in _subclasses(Stage))


def _subclasses(cls: type) -> list[type]:
    """Every subclass of ``cls`` defined so far, at any depth."""
    found = []
    for sub in cls.__subclasses__():
        found += [sub] + _subclasses(sub)
    return found



def test_a_card_met_before_is_looked_up_in_line(monkeypatch):
    """The End of the Turn of a turn that does not finish looks a card of the gear's deck met before up in the game's
    table of cards taken itself (``time_card_end``, in line); ``_card_taken`` is asked only for a repeated card or
    one the table has not met with these seconds. Every example stage record, replayed with ``_card_taken``
    watched: no such call finds its card already in the table, and most turns never call it. (A finishing turn's
    card, taken up to the die that crosses the line, goes to ``_card_taken`` whole: the caller's ``fin_i``, the
    index of that die, is not None.)"""
    import sys

    import rallyc.rules.timecards as timecards

    calls: list[bool] = []  # for each call: was the card already in the table (a look-up missed in line)?
    taken = timecards._card_taken

    def watched(table, prev, gear, claimed, repeated):
        if sys._getframe(1).f_locals["fin_i"] is None:
            calls.append(not repeated and (gear, claimed) in table.taken)
        return taken(table, prev, gear, claimed, repeated)

    monkeypatch.setattr(timecards, "_card_taken", watched)
    turns = 0
    for game in GAMES:
        data = load_record(game)
        turns += sum(len(s["turns"]) for s in data["stages"])
        report = replay_record(data, base_dir=game.parent, explain=False)
        assert report.ok, game
    assert not any(calls), f"{sum(calls)} of {len(calls)} calls found a card the in-line look-up should have"
    assert calls and len(calls) < turns // 2, (len(calls), turns)


def test_only_a_turn_that_ends_its_car_can_end_the_stage(monkeypatch):
    """The replay asks ``is_over`` before a stage's first turn and then only after a turn whose car finished or
    retired (``replay_record``'s loop). Its premise, on every example stage record and seeded mutants of it: after
    any other turn the stage is never over."""
    from rallyc.rules.engine import TurnEngine

    real = TurnEngine.play
    plays = [0]

    def watched(self, turn, driver=None):
        out = real(self, turn, driver)
        plays[0] += 1
        assert out.finished or out.retired or not self.is_over(), (out.player, out.round)
        return out

    monkeypatch.setattr(TurnEngine, "play", watched)
    for path in GAMES:
        rec = load_record(path)
        tracks, _, _ = record_stages(rec, path.parent)
        for data in [rec] + [m.record for m in mutants(rec, random.Random(f"over:{path.name}"), per_kind=1)]:
            _report(data, path.parent, False, tracks)
    assert plays[0] > 1500


def test_a_stage_ended_by_retirements_refuses_the_next_turn(monkeypatch):
    """A stage whose last car retires (no example does): the next turn of the record is refused in the words of the
    replay's own check (CORE-ORDER-09, ``no more turns``), at that turn. Every car of a recorded game of four cars
    retires at its turn of round 5, when all four are on the stage (a Stage whose commit retires it, as
    CORE-RETIRE-01 does)."""
    from rallyc.rules.domain import CarStatus

    last = 5

    class Retiring(Stage):
        def commit(self, car, turn, out, change):
            super().commit(car, turn, out, change)
            if self.round == last and not out.finished:
                car.status = CarStatus.RETIRED
                out.retired = True

    path = next(g for g in GAMES if g.name.startswith("rally-3"))
    data = load_record(path)
    monkeypatch.setattr("rallyc.rules.rally.Stage", Retiring)
    report = replay_record(data, path.parent, explain=False)
    rounds = report.stages[0]["rounds"]
    assert len(rounds) == last and len(rounds[-1]["turns"]) == len(data["players"]) == 4
    assert all(t["retired"] for t in rounds[-1]["turns"])
    played = sum(len(r["turns"]) for r in rounds)
    assert played == sum(t["round"] <= last for t in data["stages"][0]["turns"]) < len(data["stages"][0]["turns"])
    assert report.error is not None and report.error.rule_id == "CORE-ORDER-09"
    assert report.error.message == "every car has finished or retired: no more turns"
    assert report.error.path == f"$.stages[0].turns[{played}]"
