"""The custom-race pairings beyond the Auto Tour's (RX book, Customisable Races, CUSTOM-02..07, 14): a Head-to-Head on
a stage (the race on an open track, rallyc.rules.variants.stage_race), a Time Trial on a circuit (the core stage lap by lap,
rallyc.rules.variants.circuit_trial) and the Technical Head-to-Head with Time cards (rallyc.rules.variants.technical_h2h), each a
variant of the one turn engine. Real inputs: the Auto Tour 1 designs and the recorded games
examples/games/auto-tour-1-ss1-head-to-head.json, auto-tour-1-track-1-time-trial.json and
auto-tour-1-track-2-technical-head-to-head.json (written by ``python -m rallyc.records.custom_examples``); mutations
of them are refused with the rule they break."""

from __future__ import annotations

import copy
import json
import os

import pytest

from helpers.paths import EXAMPLES
from helpers.records import rallyc, refused
from rallyc.records.load import load_record, parse_record
from rallyc.records.replay import replay_record
from rallyc.rules.variants.custom import CustomRace
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player

GAMES = EXAMPLES / "games"
H2H_STAGE = GAMES / "auto-tour-1-ss1-head-to-head.json"
TT_CIRCUIT = GAMES / "auto-tour-1-track-1-time-trial.json"
TECH_H2H = GAMES / "auto-tour-1-track-2-technical-head-to-head.json"
SLOW = bool(os.environ.get("RALLYC_SLOW"))
CARS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow")]


def _design(name: str):
    import rallyc

    return rallyc.load(EXAMPLES / name)


# -- the recorded games
def test_the_head_to_head_on_a_stage_replays():
    """CUSTOM-03 CUSTOM-05: both cars start in round 1 from the places behind the Starting Line, Focus tokens, no
    Time cards, the first car across the Finish Line wins."""
    run = rallyc("replay", str(H2H_STAGE))
    assert run.returncode == 0, run.stderr
    assert "Custom Head-to-Head on SS1: a stage, no laps" in run.stdout
    rec = load_record(H2H_STAGE)
    report = replay_record(rec, GAMES)
    assert report.ok and report.laps == 0
    first = report.rounds[0]
    assert first["order"] == ["Ann", "Bob"] and [t["player"] for t in first["turns"]] == ["Ann", "Bob"]
    assert report.result["order"] == rec["race"]["result"]["order"] and len(report.result["order"]) == 2
    assert all("card" not in t for t in rec["race"]["turns"])
    assert any(t.get("focus_gained") for t in rec["race"]["turns"])
    finishing = [t for r in report.rounds for t in r["turns"] if t["finished"]]
    ss1 = next(t for t in _design("auto-tour-1.rally").tracks if t.name == "SS1")
    for t in finishing:  # the finish is the stage's Finish Line, no lap
        assert any(ss1.spaces[s].after_finish or ss1.spaces[s].past_finish for s in t["path"])


def test_the_time_trial_on_a_circuit_replays():
    """CUSTOM-02 CUSTOM-06: a staggered start, Time cards and Second tokens; a car crossing the Finish Line before
    its last lap races on, the lowest time wins."""
    run = rallyc("replay", str(TT_CIRCUIT))
    assert run.returncode == 0, run.stderr
    rec = load_record(TT_CIRCUIT)
    report = replay_record(rec, GAMES)
    assert report.ok
    stage = report.stages[0]
    assert stage["rounds"][0]["order"] == ["Ann"]  # staggered: Bob starts in round 2 (CORE-START-01)
    assert all(t["card"] for r in stage["rounds"] for t in r["turns"])
    track = _design("track-1.rally").tracks[0]
    crossings: dict[str, int] = {}
    for rnd in stage["rounds"]:
        for t in rnd["turns"]:
            crossed = any(track.spaces[s].after_finish for s in t["path"])
            crossings[t["player"]] = crossings.get(t["player"], 0) + crossed
            # the run from the start to the line and the first lap cross it without finishing (CUSTOM-02)
            assert t["finished"] == (crossings[t["player"]] == (track.laps or 2) + 1 and crossed)
    assert set(crossings.values()) == {(track.laps or 2) + 1}
    assert report.classification[0]["overall"] == min(stage["times"].values())


# -- mutations refused with the rule they break
def test_head_to_head_on_a_stage_mutations_are_refused():
    rec = load_record(H2H_STAGE)
    turns = rec["race"]["turns"]
    bad = copy.deepcopy(rec)
    bad["options"]["race_type"] = "time-trial"  # a Time Trial is not raced
    assert refused(bad) == ("CUSTOM-06", "$.options.race_type")
    bad = copy.deepcopy(rec)
    for key in ("race_type", "track_rules", "damage_bag"):
        bad["options"].pop(key)  # a plain race on a stage
    assert refused(bad) == ("CUSTOM-05", "$.track")
    bad = copy.deepcopy(rec)
    bad["options"]["damage_bag"] = "gt"  # SS1 has a Shortcut
    assert refused(bad)[0] == "CUSTOM-21"
    bad = copy.deepcopy(rec)
    bad["race"]["turns"][0], bad["race"]["turns"][1] = turns[1], turns[0]  # Speed > Distance > Position
    assert refused(bad) == ("RX-ORDER-01", "$.race.turns[0].player")
    bad = copy.deepcopy(rec)
    bad["race"]["result"]["order"] = list(reversed(rec["race"]["result"]["order"]))
    assert refused(bad) == ("RX-END-03", "$.race.result.order")
    bad = copy.deepcopy(rec)
    bad["race"]["turns"][0]["laps"] = 1  # no laps on a stage
    assert refused(bad) == ("RX-END-01", "$.race.turns[0].laps")
    bad = copy.deepcopy(rec)
    bad["race"]["turns"][0]["card"] = {"gear": 3, "seconds": 30}  # no Time cards under Speed Track rules
    code, path = refused(bad)
    assert path.startswith("$.race.turns[0]")
    bad = copy.deepcopy(rec)
    last = max(i for i, t in enumerate(turns) if t.get("dice"))
    bad["race"]["turns"] = turns[:last]  # stops before anyone crossed the line
    winner_turn = next(i for i, t in enumerate(turns) if t["player"] == rec["race"]["result"]["order"][0]
                       and any(d["to"].startswith("9.3") for d in t.get("dice", [])))
    bad["race"]["turns"] = turns[:winner_turn]
    assert refused(bad) == ("RX-END-03", "$.race.turns")


def test_time_trial_on_a_circuit_mutations_are_refused():
    rec = load_record(TT_CIRCUIT)
    bad = copy.deepcopy(rec)
    bad["options"]["race_type"] = "head-to-head"  # a Technical Head-to-Head: every car starts in round 1
    assert refused(bad) == ("CORE-ORDER-03", "$.stages[0].turns[1].player")
    bad["options"]["track_rules"] = "speed"  # a Speed Head-to-Head is raced without Time cards
    assert refused(bad) == ("CUSTOM-05", "$.options.race_type")
    bad = copy.deepcopy(rec)
    for key in ("race_type", "track_rules"):
        bad["options"].pop(key)  # a circuit in `stages` without the Time Trial's choices
    assert refused(bad) == ("CUSTOM-06", "$.stages[0]")
    bad = copy.deepcopy(rec)
    bad["options"]["track_rules"] = "speed"  # a Speed Time Trial: the Dashboard, not the card's back, after a LoC
    rule, path = refused(bad)
    assert rule == "CUSTOM-13" and path.endswith(".card.zero")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["times"]["Ann"] += 10
    assert refused(bad) == ("CORE-STAGEEND-08", "$.stages[0].times.Ann")
    bad = copy.deepcopy(rec)
    turns = bad["stages"][0]["turns"]
    i = next(k for k in range(1, len(turns)) if turns[k]["round"] == turns[k - 1]["round"] > 2)
    turns[i - 1], turns[i] = turns[i], turns[i - 1]  # Distance (laps counted) > Speed > Position
    assert refused(bad) == ("CORE-ORDER-03", f"$.stages[0].turns[{i - 1}].player")
    bad = copy.deepcopy(rec)
    track = _design("track-1.rally").tracks[0]
    # cut the record after each car's second crossing: nobody has finished two laps yet
    seen: dict[str, int] = {}
    cut = None
    for k, t in enumerate(rec["stages"][0]["turns"]):
        seen[t["player"]] = seen.get(t["player"], 0) + any(track.spaces[d["to"]].after_finish
                                                           for d in t.get("relaid", t.get("dice", [])))
        if min(seen.get(p["name"], 0) for p in rec["players"]) == 2:
            cut = k + 1
            break
    assert cut is not None
    bad["stages"][0]["turns"] = rec["stages"][0]["turns"][:cut]
    assert refused(bad) == ("CORE-STAGEEND-01", "$.stages[0].turns")


# -- the engine: legal plans, bot games
def test_legal_plans_of_each_pairing_are_played():
    """Both variants enumerate their plans with the one engine; a plan it lists is accepted by ``play``."""
    from rallyc.rules.drivers.bot import RandomBot
    from rallyc.rules.variants.circuit_trial import CircuitTimeTrial
    from rallyc.rules.rally import Rally
    from rallyc.rules.variants.stage_race import StageRace
    from rallyc.rules.core.turn import Roll, Turn

    ss1 = next(t for t in _design("auto-tour-1.rally").tracks if t.name == "SS1")
    fmt = CustomRace("stage", "head-to-head", "speed", damage_bag="light").race_format(True)
    race = StageRace(ss1, CARS, Options(), race_format=fmt)
    assert sorted(race.cars[n].space for n in race.cars) == sorted(ss1.start_spaces)
    plans = list(race.legal_plans(max_dice=2))
    assert plans
    rally = Rally([_design("track-1.rally").tracks[0]], CARS, Options())
    stage = rally.start_stage()
    assert isinstance(stage, CircuitTimeTrial)
    assert list(stage.legal_plans(max_dice=2))
    for engine, plan in ((race, plans[-1]), (stage, list(stage.legal_plans(max_dice=2))[-1])):
        bot = RandomBot(3)
        bot._stage = engine
        player = engine.to_move()
        out = engine.play(Turn(player=player, dice=[Roll(d) for d in plan]), driver=bot)
        assert out.player == player and len(out.path) <= len(plan)


H2H_STAGES = [("SS1", "light", range(20 if SLOW else 2)), ("SS2", "dirt", range(20 if SLOW else 1))]


@pytest.mark.parametrize("stage,bag,seeds", H2H_STAGES, ids=[s for s, _, _ in H2H_STAGES])
def test_bot_head_to_heads_on_stages_replay_cleanly(stage, bag, seeds):
    from rallyc.records.custom_examples import custom_example

    for seed in seeds:
        rec = custom_example("auto-tour-1.rally", stage, "head-to-head", "speed", bag, CARS, seed, EXAMPLES)
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, (seed, report.error)
        assert report.result["order"] or report.result["retired"]


TT_CIRCUITS = [("track-1.rally", range(12 if SLOW else 1)), ("track-2.rally", range(12 if SLOW else 1))]


@pytest.mark.parametrize("circuit,seeds", TT_CIRCUITS, ids=[c for c, _ in TT_CIRCUITS])
def test_bot_time_trials_on_circuits_replay_cleanly(circuit, seeds):
    from rallyc.records.custom_examples import custom_example

    for seed in seeds:
        rec = custom_example(circuit, None, "time-trial", "technical", None, CARS, seed, EXAMPLES)
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, (seed, report.error)
        assert set(report.stages[0]["times"]) == {"Ann", "Bob"}


# -- the Technical Head-to-Head with Time cards (CUSTOM-14)
def test_the_technical_head_to_head_replays():
    """CUSTOM-05 CUSTOM-07 CUSTOM-14: every car plays in round 1 from behind the line, Speed > Distance >
    Position, Time cards on every turn (a Loss of Control turns one to its "0" side), Focus tokens that take no
    time off, the first across the line wins after its laps."""
    run = rallyc("replay", "--explain", str(TECH_H2H))
    assert run.returncode == 0, run.stderr
    assert "CUSTOM-14" in run.stdout and "CUSTOM-05" in run.stdout
    rec = load_record(TECH_H2H)
    report = replay_record(rec, GAMES)
    assert report.ok
    stage = report.stages[0]
    assert sorted(stage["rounds"][0]["order"]) == ["Ann", "Bob"]
    turns = [t for r in stage["rounds"] for t in r["turns"]]
    assert all(t["card"] for t in turns)
    finishers = [t["player"] for t in turns if t["finished"]]
    assert [row["name"] for row in report.classification][:len(finishers)] == finishers
    assert all(d["tokens"] == 0 for d in stage["detail"].values())  # Focus tokens have no time value
    # Speed first: whenever two cars' gears differ, the faster one plays first in the next round
    gears: dict[str, int] = {}
    for rnd in stage["rounds"]:
        order = [n for n in rnd["order"] if n in gears]
        if len(order) == 2 and gears[order[0]] != gears[order[1]]:
            assert gears[order[0]] > gears[order[1]], rnd
        for t in rnd["turns"]:
            gears[t["player"]] = t["gear"]


def test_technical_head_to_head_mutations_are_refused():
    rec = load_record(TECH_H2H)
    bad = copy.deepcopy(rec)
    bad["classification"] = list(reversed(rec["classification"]))  # the first across the line wins
    assert refused(bad) == ("CUSTOM-05", "$.classification[0].name")
    bad = copy.deepcopy(rec)
    turn = next(i for i, t in enumerate(rec["stages"][0]["turns"]) if t.get("seconds_gained"))
    bad["stages"][0]["turns"][turn]["seconds_gained"] += 1  # Focus tokens earned by a Flat Out
    assert refused(bad) == ("RX-ROLL-03", f"$.stages[0].turns[{turn}].focus_gained")
    bad = copy.deepcopy(rec)
    card = next(i for i, t in enumerate(rec["stages"][0]["turns"]) if not t["card"].get("zero"))
    bad["stages"][0]["turns"][card]["card"]["seconds"] += 5  # Time cards even in a Head-to-Head
    assert refused(bad)[0] == "CORE-TURNEND-04"
    bad = copy.deepcopy(rec)
    bad["options"]["damage_bag"] = "gt"
    assert refused(bad) == ("CUSTOM-19", "$.options.damage_bag")
    # recorded as a race, it is refused: a Technical Head-to-Head takes Time cards
    h2h = load_record(GAMES / "auto-tour-1-event-4-track-2-head-to-head.json")
    h2h["options"]["track_rules"] = "technical"
    assert refused(h2h) == ("CUSTOM-14", "$.options.track_rules")


TECH_TRACKS = [("auto-tour-1.rally", "SS1", range(10 if SLOW else 1)), ("auto-tour-1.rally", "SS2", range(10 if SLOW else 1)),
               ("track-1.rally", None, range(10 if SLOW else 1)), ("track-2.rally", None, range(10 if SLOW else 1))]


@pytest.mark.parametrize("design,stage,seeds", TECH_TRACKS, ids=[f"{d}-{s}" for d, s, _ in TECH_TRACKS])
def test_bot_technical_head_to_heads_replay_cleanly(design, stage, seeds):
    from rallyc.records.custom_examples import custom_example

    for seed in seeds:
        rec = custom_example(design, stage, "head-to-head", "technical", None, CARS, seed, EXAMPLES)
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, (seed, report.error)
        assert report.stages[0]["rounds"][0]["order"] and len(report.stages[0]["rounds"][0]["order"]) == 2


# -- `rallyc check` warns about a pairing no referee plays (RC162)
@pytest.mark.parametrize("design, option, line_has", [
    ("track-1.rally", "race-type time-trial", None),                               # played: CircuitSpeedTimeTrial
    ("rally-1.rally", "track-rules speed", None),                                  # played: SpeedTimeTrial
    ("rally-1.rally", "track-rules speed, damage-bag dirt", None),                 # played: SpeedTimeTrial
    ("track-1.rally", "race-type time-trial, damage-bag light", None),             # Speed TT, Yellow Flags
    ("track-1.rally", "race-type time-trial, track-rules technical, damage-bag gt", "damage-bag"),  # Time cards, GT
    ("rally-1.rally", "race-type head-to-head, damage-bag gt", "damage-bag"),      # Time cards with the GT set
    ("track-1.rally", "race-type time-trial, track-rules technical", None),        # played: CircuitTimeTrial
    ("rally-1.rally", "race-type head-to-head", None),                             # played: TechnicalHeadToHead
    ("rally-1.rally", "race-type head-to-head, track-rules speed", None),          # played: StageRace
    ("track-1.rally", "track-rules technical", None),                              # played: CircuitHeadToHead
])
def test_check_warns_about_a_pairing_no_referee_plays(tmp_path, design, option, line_has):
    """RC162 (CUSTOM-04/13/19): the custom race a design's options make is one `rallyc replay` refuses; located at
    the option to change, exit 0 (a warning)."""
    text = (EXAMPLES / design).read_text(encoding="utf-8").rstrip()
    p = tmp_path / design
    p.write_text(text[:-1] + f"  options {option}\n}}\n", encoding="utf-8")
    run = rallyc("check", str(p), "--format", "json")
    assert run.returncode == 0, run.stdout + run.stderr
    found = [d for d in json.loads(run.stdout)["diagnostics"] if d["code"] == "RC162"]
    if line_has is None:
        assert not found
        return
    assert len(found) == 1
    d = found[0]["span"]
    line = p.read_text(encoding="utf-8").splitlines()[d["line"] - 1]
    assert line[d["column"] - 1:].startswith(line_has)


def test_rc162_agrees_with_the_referee():
    """The pairing table check reads (rallyc.model.pairings) is the referee's: every choice check accepts has a
    referee, every one it warns about is refused."""
    from rallyc.model.pairings import pairing_problem

    for racetrack in ("stage", "circuit"):
        for race_type in ("head-to-head", "time-trial"):
            for rules in ("technical", "speed"):
                for bag in (None, "dirt", "gt", "light"):
                    opts = {"race-type": race_type, "track-rules": rules, "damage-bag": bag}
                    c = CustomRace(racetrack, race_type, rules, damage_bag=bag)
                    playable = c.referee is not None and (c.referee == "race" or c.track_rules == "speed"
                                                          or c.bag_name == "dirt")
                    assert (pairing_problem(racetrack, opts) is None) == playable, (racetrack, opts)


def test_time_card_races_on_a_circuit_with_a_joker_keep_out_of_it():
    """Reading custom_circuit_joker: on RX 2 (a Joker branch, a Pre-grid, a Shortcut) a Time Trial and a Technical
    Head-to-Head play their laps without the Joker: no legal plan enters it, a die laid there is refused naming
    CUSTOM-02; the bot's games replay cleanly."""
    from rallyc.records.custom_examples import custom_example

    track = _design("rx-2.rally").tracks[0]
    joker = {s.id for s in track.spaces.values() if s.joker}
    assert joker
    for race_type in ("time-trial", "head-to-head"):
        rec = custom_example("rx-2.rally", None, race_type, "technical", None, CARS, 0, EXAMPLES)
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, report.error
        assert not any(set(t["path"]) & joker for r in report.stages[0]["rounds"] for t in r["turns"])
    # a car standing just before the Joker entry may not lay a die in it (CUSTOM-02); the main loop is open
    from dataclasses import replace

    from rallyc.rules.core.dice import Die
    from rallyc.rules.core.errors import IllegalMove
    from rallyc.rules.core.plans import check_plan, legal_plans
    from rallyc.rules.rally import Rally

    rally = Rally([track], CARS[:1], Options(race_type="time-trial", track_rules="technical"))
    stage = rally.start_stage()
    ctx, _ = stage.context()
    pred, entry = next((p, j) for j in sorted(joker) for p in track.graph.predecessors(j) if p not in joker)
    near = replace(ctx, start=pred, gear=1)
    with pytest.raises(IllegalMove) as err:
        check_plan(near, [Die("gear1", entry)])
    assert err.value.rule_id == "CUSTOM-02"
    loop = next(n for n in track.graph.successors(pred) if n not in joker)
    check_plan(near, [Die("gear1", loop)])
    plans = list(legal_plans(near, 2))
    assert plans and not any(d.to in joker for plan in plans for d in plan)


# -- repairs (CUSTOM-15)
def test_repairs_no_takes_the_spare_tire_away():
    """CUSTOM-15: with `repairs no` there is no Spare Tire: the recorded rally-4 game, one of whose turns changes a
    tire, is refused there naming CUSTOM-15; with `repairs yes` it replays as recorded (the core's Spare Tire)."""
    rec = load_record(GAMES / "rally-4-full.json")
    si, ti = next((si, ti) for si, st in enumerate(rec["stages"]) for ti, t in enumerate(st["turns"])
                  if t.get("spare_tire"))
    bad = copy.deepcopy(rec)
    bad["options"]["repairs"] = "no"
    assert refused(bad) == ("CUSTOM-15", f"$.stages[{si}].turns[{ti}].spare_tire")
    good = copy.deepcopy(rec)
    good["options"]["repairs"] = "yes"
    assert replay_record(parse_record(json.dumps(good)), GAMES).ok


def test_repairs_no_in_a_rally_keeps_the_damage_and_the_tires():
    """CUSTOM-15: with `repairs no` Assistance repairs nothing, a tire change after a stage and the Spare Tire
    between stages are refused."""
    import rallyc
    from rallyc.rules.drivers.bot import RandomBot
    from rallyc.rules.core.errors import IllegalMove
    from rallyc.rules.rally import Rally

    design = rallyc.load(EXAMPLES / "rally-4.rally")
    assist = [k for k, t in enumerate(design.tracks) if t.has_assistance]
    assert assist
    k = assist[0]
    for repairs, repaired in (("no", False), (None, True)):
        rally = Rally(design.tracks[: k + 2], CARS, Options(repairs=repairs))
        bot = RandomBot(4)
        for _ in range(k + 1):
            stage = rally.start_stage()
            while not stage.is_over():
                bot.play_turn(stage)
            cars = {n: (sum(c.damage.values()), c.spare) for n, c in stage.cars.items()}
            rec = rally.end_stage()
        damaged = [n for n, (d, _) in cars.items() if d]
        if repaired:
            assert all(not rally.carry[n].damage for n in damaged) and all(c.spare for c in rally.carry.values())
        else:
            assert all(not c.spare for c in rally.carry.values())
            assert not damaged or any(rally.carry[n].damage for n in damaged)
            with pytest.raises(IllegalMove) as err:
                rally.start_stage(tires={"Ann": "gravel" if CARS[0].tires != "gravel" else "asphalt"})
            assert err.value.rule_id == "CUSTOM-15"
        assert rec.assistance


def test_bot_games_with_repairs_no_replay_cleanly():
    """The bot never changes a tire when the race allows no repairs; its games replay."""
    from rallyc.records.generate import bot_record

    import rallyc

    design = rallyc.load(EXAMPLES / "auto-tour-1.rally")
    for seed in range(4 if SLOW else 1):
        rec = bot_record(design.tracks[:1], CARS, seed=seed, options=Options(race_type="time-trial", repairs="no"),
                         header={"track": "../auto-tour-1.rally", "design": design.title})
        rec["stages"][0]["stage"] = design.tracks[0].name
        assert not any(t.get("spare_tire") for t in rec["stages"][0]["turns"])
        assert replay_record(parse_record(json.dumps(rec)), GAMES).ok


# -- the turn text and the rule report of the custom races (regressions)
def test_a_head_to_head_on_a_stage_counts_no_laps_in_its_text():
    """CUSTOM-03: a stage has no laps: a Head-to-Head on one says nothing of laps done (it printed "0 lap(s)
    done"); on a circuit the laps stay in the text."""
    run = rallyc("replay", str(H2H_STAGE))
    assert run.returncode == 0, run.stderr
    turns = [line for line in run.stdout.splitlines() if line.startswith("    ") and "->" in line]
    assert turns and not any("lap(s)" in line for line in turns)
    circuit = rallyc("replay", str(GAMES / "auto-tour-1-event-2-track-1-head-to-head.json"))
    assert circuit.returncode == 0 and "1 lap(s) done" in circuit.stdout


def test_the_technical_head_to_head_says_focus_tokens():
    """CUSTOM-07 (Ambiguity 37): in a Head-to-Head a Flat Out earns Focus tokens, which take no time off: the turn
    text says "+N Focus" (it said "+N s tokens") and the stage times are the Time cards' alone; a Time Trial keeps
    its Second tokens."""
    run = rallyc("replay", str(TECH_H2H))
    assert run.returncode == 0, run.stderr
    assert " s tokens" not in run.stdout and " s secured" not in run.stdout
    assert "Focus," in run.stdout and "Focus tokens take no time off" in run.stdout
    trial = rallyc("replay", str(TT_CIRCUIT))
    assert trial.returncode == 0 and " s tokens" in trial.stdout and "Focus" not in trial.stdout


def _finishing_turns(engine_cls, rec: dict) -> list[tuple[bool, bool]]:
    """(dice beyond the finishing die, CORE-STAGEEND-03 reported) for each finishing turn of ``rec``, the finishing
    die as the engine finds it (on a circuit: the crossing after the last lap, not the line's flags)."""
    from rallyc.rules.core.plans import Placed

    seen: list[tuple[bool, bool]] = []
    original = engine_cls.commit

    def commit(self, car, turn, out, change):
        if out.finished:
            fin = self.finish_index(car, [Placed(None, s, 0) for s in out.path])  # type: ignore[arg-type]
            seen.append((fin is not None and fin < len(out.path) - 1, "CORE-STAGEEND-03" in out.applied))
        return original(self, car, turn, out, change)

    engine_cls.commit = commit
    try:
        assert replay_record(parse_record(json.dumps(rec)), GAMES).ok
    finally:
        engine_cls.commit = original
    return seen


def test_stageend_03_on_a_lapped_finish_only_when_dice_go_beyond_the_finishing_one():
    """CORE-STAGEEND-03 (dice beyond the first space after the line count for nothing) is reported on a lapped
    finish exactly when the car laid dice beyond the die that finishes its last lap: checked on the recorded Time
    Trial and Technical Head-to-Head on circuits and on bot games, with both cases present."""
    from rallyc.records.custom_examples import custom_example
    from rallyc.rules.variants.circuit_trial import CircuitTimeTrial

    recs = [load_record(TT_CIRCUIT), load_record(TECH_H2H)]
    recs += [custom_example(c, None, rt, "technical", None, CARS, seed, EXAMPLES)
             for c in ("track-1.rally", "track-2.rally") for rt in ("time-trial", "head-to-head")
             for seed in range(4 if SLOW else 1)]
    seen = [pair for rec in recs for pair in _finishing_turns(CircuitTimeTrial, rec)]
    assert all(beyond == reported for beyond, reported in seen), seen
    assert {beyond for beyond, _ in seen} == {True, False}  # both cases are exercised


def test_a_car_pushed_across_a_stages_finish_line_finishes_at_its_next_turn():
    """CUSTOM-03 ("Players must reach the Finishing line to end the race"), RX-END-03 ("the first player to cross
    the Finishing line during their turn is the winner"), reading pushed_across_finish: on the Auto Tour's SS1 under
    Full Contact, Ann pushes Bob from 9.2.l onto 9.3.l, past the Finish Line, where no space lies ahead. Bob has not
    crossed during his turn, so he does not finish then; at his next turn, with no die to lay, he finishes (he stayed
    racing, blocked for good, and the race never ended)."""
    from rallyc.rules.variants.full_contact import ContactClaim, ContactKind
    from rallyc.rules.core.dice import Die
    from rallyc.rules.variants.stage_race import StageRace
    from rallyc.rules.core.turn import Roll, Turn

    ss1 = next(t for t in _design("auto-tour-1.rally").tracks if t.name == "SS1")
    fmt = CustomRace("stage", "head-to-head", "speed", damage_bag="light").race_format(True)
    race = StageRace(ss1, CARS, Options(full_contact=True), race_format=fmt)
    race.set_car("Ann", "9.1.l", gear=4)
    race.set_car("Bob", "9.2.l", gear=3)
    out = race.play(Turn("Ann", [Roll(Die("gear3", "9.2.l"), "ok", contact=ContactClaim(ContactKind.PUSH, "Bob"))]))
    assert race.cars["Bob"].space == "9.3.l" and not out.finished and race.cars["Bob"].status == "road"
    assert race.to_move() == "Bob" and not list(race.legal_plans(max_dice=1))
    out = race.play(Turn("Bob", []))
    assert out.finished and out.position == 1 and race.cars["Bob"].status == "finished"
