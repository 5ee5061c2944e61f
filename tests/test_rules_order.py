"""Order of play, starts, setup, rallies and advanced rules (CORE-ORDER, CORE-START, CORE-SETUP, CORE-RALLY,
CORE-ADV)."""

from collections import Counter

import pytest

from rallyc.data import load_components
from rallyc.rules import IllegalMove, Options, Player, Stage, ZeroSide
from rallyc.rules.core.order import round_order
from rallyc.rules.rally import Rally
from rallyc.rules.sketch import sketch
from helpers.rules import make_stage, put, turn, turn_of

CORNER = "N S N N | N C(2;3,3)R N | N N F N N"


def illegal(stage, t):
    with pytest.raises(IllegalMove) as exc:
        stage.play(t)
    return exc.value


def test_rulebook_order_example():
    """CORE-ORDER-03 CORE-ORDER-04 CORE-ORDER-05 CORE-ORDER-06: Red furthest, then Green; Blue and Yellow level:
    higher gear first, else Blue on the inside of the next corner first."""
    st = make_stage(CORNER, players=4)
    red, green, blue, yellow = "A", "B", "C", "D"
    put(st, red, "2.1.l", 3)
    put(st, green, "1.3.l", 3)
    put(st, blue, "1.2.r", 2)  # right-hand corner ahead: the right lane is the inside
    put(st, yellow, "1.2.l", 2)
    cars = list(st.cars.values())
    assert round_order(cars, st.start_order, 9, st.index, []) == [red, green, blue, yellow]
    put(st, yellow, "1.2.l", 3)
    assert round_order(cars, st.start_order, 9, st.index, []) == [red, green, yellow, blue]


def test_off_road_cars():
    """CORE-ORDER-07 CORE-ORDER-08 (reading 2): a crashed car ranks by its space, after an on-road car level
    with it, whatever the gears."""
    st = make_stage(players=2)
    put(st, "A", "1.3.l", 0, status="crashed")
    put(st, "B", "1.3.r", 1)
    assert round_order(list(st.cars.values()), st.start_order, 9, st.index, []) == ["B", "A"]
    put(st, "B", "1.2.r", 1)
    assert round_order(list(st.cars.values()), st.start_order, 9, st.index, []) == ["A", "B"]


def test_rounds_and_staggered_start():
    """CORE-ORDER-01 CORE-ORDER-02 CORE-START-01 CORE-START-02 CORE-START-04: player n starts in round n, after
    the cars already on the stage; one turn each per round; waiting players keep their order."""
    st = make_stage(players=3)
    assert st.round == 1 and st.order == ["A"]
    st.play(turn("A", "gear1@1.2.l"))
    assert st.round == 2 and st.order == ["A", "B"]
    e = illegal(st, turn("B", "gear1@1.2.r"))
    assert e.rule_id == "CORE-START-04" and e.path == "player"
    st.play(turn("A", "gear2@1.3.l"))
    st.play(turn("B", "gear1@1.2.l"))
    assert st.round == 3 and st.order == ["A", "B", "C"]
    st.play(turn("A", "gear3@1.4.l"))
    e = illegal(st, turn("C", "gear1@1.2.r"))
    assert e.rule_id == "CORE-START-04"
    assert illegal(st, turn("B", "gear2@1.3.l", round=2)).rule_id == "CORE-ORDER-01"


def test_start_space():
    """CORE-START-03 (reading 3): the starter chooses a free space behind the Starting Line; Gear 0."""
    st = make_stage()
    assert illegal(st, turn("A", "gear1@1.3.l", start="1.2.l")).rule_id == "CORE-START-03"
    out = st.play(turn("A", "gear1@1.2.r", start="1.1.r"))
    assert out.start == "1.1.r"


def test_setup_components():
    """CORE-SETUP-01 CORE-SETUP-03 CORE-SETUP-05 CORE-SETUP-08: one bank of Seconds; the 48-token bag; six Time
    card decks; gravel dashboards for the core box."""
    comp = load_components()
    assert comp.damage_bag == {"gear": 24, "brake": 6, "coast": 7, "green": 11}
    assert sorted(comp.assumption("time_card_seconds")) == [str(g) for g in range(1, 7)]
    st = make_stage()
    assert st.bag_left() == 48
    assert all(s.surface == "gravel" for s in st.index.spaces.values())
    assert all(c.seconds == 0 for c in st.cars.values())


def test_token_sides_checked():
    """CORE-SETUP-04: a Shortcut draw is read on the Shortcut side; a Crash draw on the Damage side."""
    st = make_stage("N S N cut3(1,3) N N N N F N")
    put(st, "A", "1.1.l", 3)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear3@1.cut1#gear")).rule_id == "CORE-SETUP-04"


def test_players_and_first_order():
    """CORE-SETUP-06 CORE-SETUP-07: each player has a colour and a Dashboard; the first stage's order is the
    drawn order (the players' order)."""
    st = Stage(sketch("N S N N F N"), [Player("Zoe", "red"), Player("Al", "blue")])
    assert st.start_order == ["Zoe", "Al"] and st.cars["Zoe"].dashboard.name == "r6-gravel"
    assert illegal(st, turn("Nobody", "gear1@1.2.l")).rule_id == "CORE-SETUP-06"


def _finish_all(stage: Stage):
    """Drive every car home in Gear 1 one space a turn (no chance needed)."""
    while not stage.is_over():
        name = stage.to_move()
        ctx, _ = stage.context(name)
        from rallyc.rules.core.plans import die_options, start_walk
        opts = [p for p, w in die_options(ctx, start_walk(ctx)) if p.die.die in ("gear1", "gear2") and not w.ended]
        opts.sort(key=lambda p: (p.die.die != ("gear1" if ctx.gear <= 1 else "gear2"), p.space))
        from rallyc.rules import Roll, Turn
        stage.play(Turn(name, [Roll(opts[0].die, "ok")] if opts else []))


def test_rally_chain():
    """CORE-RALLY-01 CORE-RALLY-02 CORE-RALLY-03 CORE-RALLY-04 CORE-RALLY-05 CORE-RALLY-06 CORE-RALLY-07
    CORE-RALLY-09 CORE-RALLY-11 CORE-RALLY-12 CORE-RALLY-13 CORE-RALLY-14 CORE-RALLY-15 CORE-DAMAGE-07"""
    tracks = [sketch("N S N N F N", "SS1"), sketch("N S N N F N", "SS2", assistance=True), sketch("N S N F N", "SS3")]
    rally = Rally(tracks, [Player("A", "red"), Player("B", "blue")])
    st = rally.start_stage()
    st.cars["A"].damage = Counter({"gear": 1, "coast": 1, "green": 1})
    st.cars["A"].shortcut_ok = 1
    st.cars["A"].seconds = 3
    _finish_all(st)
    rec = rally.end_stage()
    assert rec.times["A"] == st.result().cards["A"] - 3 and not rec.assistance
    assert rec.carried["A"] == {"damage": {"coast": 1, "gear": 1}, "spare_tire": True}
    st2 = rally.start_stage()
    assert st2.cars["A"].damage == Counter({"gear": 1, "coast": 1}) and st2.cars["A"].seconds == 0
    assert st2.cars["A"].cards == [] and st2.cars["A"].shortcut_ok == 0
    best = min(rally.overall, key=lambda n: (rally.overall[n], ["A", "B"].index(n)))
    assert st2.start_order[0] == best
    _finish_all(st2)
    rec2 = rally.end_stage()
    assert rec2.assistance and rec2.carried["A"]["damage"] == {}
    st3 = rally.start_stage()
    _finish_all(st3)
    rally.end_stage()
    totals = {n: sum(r.times[n] for r in rally.stages) for n in ("A", "B")}
    assert dict(rally.classification()) == totals
    assert rally.classification()[0][1] == min(totals.values())


def test_spare_tire_between_stages():
    """CORE-RALLY-08 CORE-RALLY-10 CORE-SPARE-06"""
    tracks = [sketch("N S N F N", "SS1"), sketch("N S N F N", "SS2"), sketch("N S N F N", "SS3")]
    rally = Rally(tracks, [Player("A", "red")])
    st = rally.start_stage()
    st.cars["A"].damage = Counter({"coast": 1})
    _finish_all(st)
    rec = rally.end_stage(spare_between=["A"])
    assert rec.carried["A"] == {"damage": {}, "spare_tire": False}
    st = rally.start_stage()
    assert not st.cars["A"].spare
    st.cars["A"].damage = Counter({"coast": 1})
    _finish_all(st)
    with pytest.raises(IllegalMove) as e:
        rally.end_stage(spare_between=["A"])
    assert e.value.rule_id == "CORE-SPARE-06"


def test_retired_car_repaired_for_next_stage():
    """CORE-RETIRE-04"""
    tracks = [sketch("N S N F N", "SS1"), sketch("N S N F N", "SS2")]
    rally = Rally(tracks, [Player("A", "red"), Player("B", "blue")])
    st = rally.start_stage()
    st.cars["A"].status = "retired"
    st.cars["A"].damage = Counter({"gear": 6})
    st.cars["A"].spare = False
    st.position = len(st.order)
    st.next_round()
    _finish_all(st)
    rec = rally.end_stage()
    assert rec.carried["A"] == {"damage": {}, "spare_tire": True}
    assert rec.times["A"] == rec.times["B"] + 60


def test_flying_start():
    """CORE-ADV-01 CORE-ADV-02 CORE-ADV-04 CORE-ADV-05: Gear 2 from Gear 0; its Warning ends the turn in 2nd
    without LoC; also after a LoC; it may be secured."""
    st = make_stage(flying_start=True)
    out = st.play(turn("A", "gear2@1.2.l:w", "gear3@1.3.l:-"))
    assert out.loc is None and out.gear == 2 and out.end == "1.2.l"
    st = make_stage(flying_start=True)
    put(st, "A", "1.3.l", 0, seconds=1)
    turn_of(st, "A")
    out = st.play(turn("A", "gear2@1.4.l:s", "gear3@1.5.l"))
    assert out.gear == 3 and out.seconds_spent == 1


def test_flying_start_flat_out():
    """CORE-ADV-03 CORE-ADV-06: in a Flat Out the Flying Start Warning stops the car after one space and the
    LoC is ignored; a re-lay cannot add a Flying Start."""
    st = make_stage(flying_start=True)
    out = st.play(turn("A", "gear2@1.2.l:w", "gear3@1.3.l:w", "gear4@1.4.l:w", flat_out=True))
    assert out.loc is None and out.end == "1.2.l" and out.gear == 2 and out.seconds_gained == 3
    st = make_stage(flying_start=True)
    t = turn("A", "gear1@1.2.l:w", "gear2@1.3.l:w", "gear3@1.4.l:w", flat_out=True,
             relaid=["gear2@1.2.l:w"], zero=ZeroSide("spinout"))
    assert illegal(st, t).rule_id in ("CORE-ADV-06", "CORE-ROLL-13")


def test_redline():
    """CORE-ADV-07 CORE-ADV-08: in top gear the Brake die serves as a Coast die; it earns no Seconds."""
    st = make_stage(redline=True)
    put(st, "B", "1.11.r", 1)
    put(st, "A", "1.3.l", 5)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "brake@1.4.l")).rule_id == "CORE-ADV-07"
    out = st.play(turn("A", "gear6@1.4.l", "brake@1.5.l", flat_out=True))
    assert out.gear == 6 and out.seconds_gained == 1


def test_checkpoints():
    """CORE-ADV-09 CORE-ADV-10: 5-second penalty tokens added to the stage time (and the next order)."""
    tracks = [sketch("N S N F N", "SS1"), sketch("N S N F N", "SS2")]
    rally = Rally(tracks, [Player("A", "red"), Player("B", "blue")], Options(checkpoints=True))
    st = rally.start_stage()
    _finish_all(st)
    base = st.result().times
    rec = rally.end_stage(penalties={"A": 2})
    assert rec.times["A"] == base["A"] + 10
    rally2 = Rally(tracks, [Player("A", "red")])
    st = rally2.start_stage()
    _finish_all(st)
    with pytest.raises(IllegalMove) as e:
        rally2.end_stage(penalties={"A": 1})
    assert e.value.rule_id == "CORE-ADV-09"


def test_sisu_token():
    """CORE-ADV-11 CORE-ADV-12 CORE-ADV-13 CORE-ADV-14: the token ignores every Warning of a turn (Flat Out
    too), once; not a speed-limit LoC."""
    st = make_stage("N S N N N/2 N N N F N", sisu="per-stage")
    assert st.cars["A"].sisu
    put(st, "B", "1.8.r", 1)
    put(st, "A", "1.2.l", 2)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear2@1.3.l:w", "coast@1.4.l:w", "gear3@1.5.l:w", flat_out=True, sisu=True))
    assert out.loc is None and out.sisu and not st.cars["A"].sisu
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear2@1.6.l", sisu=True)).rule_id == "CORE-ADV-12"
    st = make_stage("N S N N N/2 N N N F N", sisu="per-stage")
    put(st, "B", "1.8.r", 1)
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@1.4.l", sisu=True, zero=ZeroSide("spinout")))
    assert out.loc is not None


def test_sisu_allocation():
    """CORE-ADV-15: per stage the token comes back; per rally it does not."""
    for alloc, back in (("per-stage", True), ("per-rally", False)):
        tracks = [sketch("N S N F N", "SS1"), sketch("N S N F N", "SS2")]
        rally = Rally(tracks, [Player("A", "red")], Options(sisu=alloc))
        st = rally.start_stage()
        st.cars["A"].sisu = False
        _finish_all(st)
        rally.end_stage()
        assert rally.start_stage().cars["A"].sisu is back


def test_one_shot():
    """CORE-ADV-16: the leader's dice become normal Coast dice."""
    st = make_stage(one_shot=True)
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A")
    assert illegal(st, turn("A", "leader@1.4.l")).rule_id == "CORE-DICE-15"
    out = st.play(turn("A", "coast@1.4.l", "coast@1.5.l"))
    assert out.leader and out.end == "1.5.l"
