"""The RX race referee (rallyc.rules.core.race) on the published circuit RX 1: setup, rounds, order of play,
dice, Loss of Control, damage, Yellow Flags, the Joker, laps and the finish. Each test names its RX rule IDs."""

from pathlib import Path

import pytest

import rallyc
from rallyc.data import load_components
from rallyc.rules import IllegalMove, Options, Player
from rallyc.rules.core.dice import Die
from rallyc.rules.core.race import Race
from rallyc.rules.core.rx_dashboard import loc_damage, rx_allowance
from rallyc.rules.core.turn import CardClaim, Roll, Turn

ROOT = Path(__file__).resolve().parents[1]
FOUR = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]


@pytest.fixture(scope="module")
def rx1():
    return rallyc.load(ROOT / "examples/rx-1.rally").tracks[0]


@pytest.fixture(scope="module")
def rx2():
    return rallyc.load(ROOT / "examples/rx-2.rally").tracks[0]


def race(track, n=2, **opts):
    return Race(track, FOUR[:n], Options(**opts))


def roll(die, to, face="ok", **kw):
    brake_face = face if kw.get("brake") else None
    boost_face = face if kw.get("boost") else None
    return Roll(Die(die, to, kw.get("brake", False), kw.get("land"), kw.get("boost", False)), face, brake_face,
                boost_face=boost_face)


def test_grid_in_draw_order_from_pole_position(rx1):
    """RX-SETUP-05 RX-SETUP-06 RX-SETUP-07 RX-SETUP-08 RX-START-01: the drawn cars fill the Pre-grid from Pole
    Position (the front row's inside lane, inside judged from the first corner, 410a's hairpin, which the
    left lane enters straight), across the row, then the next row from its inside lane; all in Gear 0."""
    r = race(rx1, 4)
    assert [r.cars[p.name].space for p in FOUR] == ["12.2.l", "12.2.m", "12.2.r", "12.1.l"]
    assert all(c.gear == 0 and c.status == "road" for c in r.cars.values())
    assert r.round == 1 and r.colour == "white"
    # no staggered start: every car plays in round 1, front row first
    assert r.order == ["Ann", "Bob", "Cleo", "Dan"]


def test_grid_on_rx2_and_too_many_cars(rx2):
    """RX-SETUP-06 RX-SETUP-07: RX 2's grid; more cars than grid places is refused."""
    r = race(rx2, 4)
    assert [c.space for c in r.cars.values()] == ["14.2.l", "14.2.m", "14.2.r", "14.1.l"]
    with pytest.raises(ValueError, match="places"):
        Race(rx2, [Player(f"P{i}", f"colour{i}") for i in range(7)])


def test_white_and_black_rounds(rx1):
    """RX-ROUND-01 RX-ROUND-02 RX-ROUND-03 RX-TURNEND-02: each car one turn per round; a car's Gear marker shows
    the next round's colour once it has played; the Round marker flips when every car has played."""
    r = race(rx1, 2)
    assert r.marker("Ann") == "white" and r.marker("Bob") == "white"
    r.play(Turn("Ann", [roll("gear1", "12.3.l")]))
    assert r.marker("Ann") == "black" and r.marker("Bob") == "white" and r.round == 1
    r.play(Turn("Bob", [roll("gear1", "12.3.m")]))
    assert r.round == 2 and r.colour == "black"
    assert r.marker("Ann") == "black" and r.marker("Bob") == "black"
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear2", "12.4.l")], round=1))
    assert e.value.rule_id == "RX-ROUND-01"


def test_speed_before_distance(rx1):
    """RX-ORDER-01 RX-ORDER-02: the highest gear plays first wherever it is."""
    r = race(rx1, 2)
    r.set_car("Ann", "8.1.l", gear=2, crossed=1)
    r.set_car("Bob", "3.1.l", gear=3, crossed=1)
    assert r.order == ["Bob", "Ann"]


def test_distance_counts_laps(rx1):
    """RX-ORDER-03 (Ambiguity 26): at equal speed, laps first, then progress."""
    r = race(rx1, 2)
    r.set_car("Ann", "9.1.l", gear=3, crossed=1)
    r.set_car("Bob", "1.2.l", gear=3, crossed=2)
    assert r.order == ["Bob", "Ann"]
    r.set_car("Bob", "1.2.l", gear=3, crossed=1)
    assert r.order == ["Ann", "Bob"]


def test_joker_space_projected_on_the_loop(rx1):
    """RX-ORDER-03 (Ambiguity 26): a Joker space counts at the loop progress it runs beside (11.2 of 209b lies
    beside 408a-204a, between 2.3 and 3.2)."""
    r = race(rx1, 2)
    r.set_car("Ann", "11.2.l", gear=2, crossed=1)
    r.set_car("Bob", "3.2.l", gear=2, crossed=1)
    assert r.order == ["Bob", "Ann"]
    r.set_car("Bob", "2.3.l", gear=2, crossed=1)
    assert r.order == ["Ann", "Bob"]


def test_position_inside_of_next_corner(rx1):
    """RX-ORDER-04 (Ambiguity 27): same speed and distance, the car on the inside lane of the next corner plays
    first (4.2.l enters the hairpin's inside straight); a limited zone counts as a corner."""
    r = race(rx1, 2)
    r.set_car("Ann", "4.2.r", gear=2, crossed=1)
    r.set_car("Bob", "4.2.l", gear=2, crossed=1)
    assert r.order == ["Bob", "Ann"]
    r.set_car("Ann", "6.2.in1", gear=2, crossed=1)
    r.set_car("Bob", "6.2.out2", gear=2, crossed=1)
    assert r.order == ["Ann", "Bob"]


def test_one_dice_pool_on_every_surface(rx2):
    """RX-SETUP-09 RX-DASH-01 RX-DASH-03: one fixed pool (the assumption rx_dashboard) wherever the car is,
    damage removing dice as in the core rules; no Gear 6."""
    r = race(rx2, 1)
    surfaces = {}
    for sid, s in r.index.spaces.items():
        if not s.pregrid and not s.joker and s.kind == "lane":
            surfaces.setdefault(s.surface, sid)
    assert len(surfaces) >= 2
    seen = set()
    for sid in surfaces.values():
        r.set_car("Ann", sid, gear=2, crossed=1)
        ctx, leader = r.context("Ann")
        seen.add((ctx.allowance.gear, ctx.allowance.coast, ctx.allowance.brake, ctx.allowance.boost,
                  ctx.allowance.warnings, ctx.top_gear))
        assert leader is False
    assert seen == {(5, 3, 1, 2, 3, 5)}
    dash = r.cars["Ann"].dashboard
    assert rx_allowance(dash, {"gear": 2, "boost": 1}).gear == 3
    assert rx_allowance(dash, {"gear": 2, "boost": 1}).boost == 1


def test_no_gear_6(rx1):
    """RX-DICE-02: an RX car has no Gear 6 die."""
    r = race(rx1, 1)
    r.set_car("Ann", "1.1.l", gear=5, crossed=1)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear6", "1.2.l")]))
    assert e.value.rule_id == "RX-DICE-02"
    assert all(d.die != "gear6" for plan in r.legal_plans(max_dice=2) for d in plan)


def test_boost_from_the_grid(rx1):
    """RX-DICE-03 RX-DICE-05: a Boost die with a Gear die two above moves one space and raises the speed by 2;
    it is never a Flying Start (Gear 0 -> 2 with the Boost is an ordinary Boost)."""
    r = race(rx1, 1, flying_start=True)
    firsts = {(p[0].die, p[0].boost) for p in r.legal_plans(max_dice=1)}
    assert ("gear2", True) in firsts and ("gear1", False) in firsts
    out = r.play(Turn("Ann", [roll("gear2", "12.3.l", boost=True), roll("gear4", "12.4.l", boost=True)]))
    assert out.gear == 4 and out.end == "12.4.l"
    with pytest.raises(IllegalMove) as e:
        r2 = race(rx1, 1)
        r2.play(Turn("Ann", [roll("gear3", "12.3.l", boost=True)]))
    assert e.value.rule_id == "MC-BOOST-02"


def test_boost_damage(rx1):
    """RX-DAMAGE-02: each Boost Damage token removes one Boost die per turn."""
    r = race(rx1, 1)
    r.cars["Ann"].damage["boost"] = 2
    assert not any(d.boost for p in r.legal_plans(max_dice=2) for d in p)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear2", "12.3.l", boost=True)]))
    assert e.value.rule_id == "RX-DAMAGE-02"


def test_focus_tokens(rx1):
    """RX-ROLL-01 RX-ROLL-03 RX-ROLL-04 RX-DICE-04 (Ambiguity 35): a Flat Out earns one Focus token per Gear or
    Coast die (not the Boost die); Focus secures dice 1, 2, 3...; a Boost pair is secured only as two dice."""
    r = race(rx1, 2)
    out = r.play(Turn("Ann", [roll("gear1", "12.3.l"), roll("gear2", "12.4.l"), roll("gear3", "10.4.l")],
                      flat_out=True))
    assert out.focus_gained == 3 and r.cars["Ann"].focus == 3
    r.play(Turn("Bob", [roll("gear1", "12.3.m")]))
    # a Boost pair secured costs 1 + 2 = 3 Focus tokens
    t = Turn("Ann", [Roll(Die("gear5", "10.2.l", boost=True), secured=True)])
    with pytest.raises(IllegalMove) as e:  # the limit line: 10.2.l counts as limit 4 (RX-FORK-03)
        r.play(t)
    assert e.value.rule_id != "RX-ROLL-04"
    r2 = race(rx1, 1)
    r2.set_car("Ann", "1.1.l", gear=2, crossed=1, focus=2)
    with pytest.raises(IllegalMove) as e:
        r2.play(Turn("Ann", [Roll(Die("gear4", "1.2.l", boost=True), secured=True)]))
    assert e.value.rule_id == "RX-ROLL-04" and "Focus" in e.value.message
    r2.set_car("Ann", "1.1.l", gear=2, crossed=1, focus=3)
    out = r2.play(Turn("Ann", [Roll(Die("gear4", "1.2.l", boost=True), secured=True)]))
    assert out.focus_spent == 3 and r2.cars["Ann"].focus == 0 and out.gear == 4


def test_loss_of_control_from_the_dashboard(rx1):
    """RX-LOC-01 RX-LOC-02 RX-LOC-03 RX-LOC-04 RX-SETUP-10: the rulebook's example — a LoC in 4th gear on an
    orange (medium) tile draws two Damage tokens; the car stays on its space in Gear 0 and plays from Gear 0
    next turn; no Time card."""
    assert loc_damage(load_components(), 4, "medium") == 2
    r = race(rx1, 1)
    r.set_car("Ann", "4.2.r", gear=3, crossed=1)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["gear"]))
    assert e.value.rule_id == "RX-LOC-04"
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["gear", "gear"], card=CardClaim(gear=4)))
    assert e.value.rule_id == "RX-SETUP-10"
    out = r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["gear", "boost"]))
    assert out.loc is not None and out.loc.gear == 4 and out.end == "4.3.out1" and out.gear == 0
    car = r.cars["Ann"]
    assert car.space == "4.3.out1" and car.gear == 0 and car.damage == {"gear": 1, "boost": 1}
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear2", "4.3.out2")]))
    assert e.value.rule_id == "CORE-DICE-10"
    assert r.play(Turn("Ann", [roll("gear1", "4.3.out2")])).gear == 1


def test_no_repairs_nor_sisu(rx1):
    """RX-DAMAGE-09 RX-ADV-01: no tire change or repair in a race; SISU is not an RX rule."""
    r = race(rx1, 1)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear1", "12.3.l")], spare_tire=True))
    assert e.value.rule_id == "RX-DAMAGE-09"
    with pytest.raises(ValueError):
        race(rx1, 1, sisu="per-stage")


def test_yellow_flag(rx1):
    """RX-DAMAGE-03 RX-DAMAGE-04 RX-DAMAGE-05 RX-DAMAGE-07 RX-DAMAGE-08: a Yellow Flag drawn at a LoC goes on
    that tile; nobody moves alongside a car in Gear 1+ there or on the tiles before and after, a car in
    Gear 0 may be passed; the flag leaves when its drawer starts a turn in Gear 0."""
    r = race(rx1, 3)
    r.set_car("Ann", "4.2.r", gear=3, crossed=1)
    r.set_car("Bob", "3.2.l", gear=2, crossed=1)
    r.set_car("Cleo", "1.1.l", gear=1, crossed=1)
    assert r.order == ["Ann", "Bob", "Cleo"]
    out = r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["yellow", "gear"]))
    assert out.yellow == [4] and r.yellow == {4: ["Ann"]} and r.cars["Ann"].damage == {"gear": 1}
    # Bob (Gear 2) on 3.2.l, the tile before the flag: 3.2.r is alongside nobody, 4.1.x alongside nobody
    r.play(Turn("Bob", [roll("gear2", "4.1.l")]))
    ctx, _ = r.context("Cleo")
    assert "4.1.r" in ctx.no_alongside and "3.1.l" in ctx.no_alongside and "1.1.l" not in ctx.no_alongside
    r.play(Turn("Cleo", [roll("gear1", "1.2.l")]))
    # round 2: Bob Gear 2 first; a car coming up beside Bob on 4.1 is refused
    r.set_car("Cleo", "3.2.l", gear=3, crossed=1)
    r.set_car("Bob", "4.1.l", gear=2, crossed=1)
    r.set_car("Ann", "4.3.out1", gear=0, crossed=1)
    assert r.order[0] == "Cleo"
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Cleo", [roll("gear3", "4.1.r")]))
    assert e.value.rule_id == "RX-DAMAGE-04"
    assert r.is_blocked("Cleo")  # 4.1.l is Bob's, 4.1.r beside him under the flag (RX-TURNEND-01)
    out = r.play(Turn("Cleo", []))
    assert out.blocked and out.gear == 3 and r.cars["Cleo"].gear == 3
    r.play(Turn("Bob", [roll("gear2", "4.2.l")]))
    assert r.to_move() == "Ann" and r.yellow == {4: ["Ann"]}
    r.play(Turn("Ann", [roll("gear1", "4.3.out2")]))
    assert r.yellow == {}


def test_yellow_flag_allows_passing_a_car_in_gear_0(rx1):
    """RX-DAMAGE-05 RX-DAMAGE-06: under a Yellow Flag a car may still come alongside a car in Gear 0."""
    r = race(rx1, 3)
    r.set_car("Ann", "4.2.r", gear=3, crossed=1)
    r.set_car("Bob", "4.1.l", gear=0, crossed=1)
    r.set_car("Cleo", "3.2.l", gear=1, crossed=1)
    r.play(Turn("Ann", [roll("gear4", "4.3.out1")], damage=["yellow", "green"]))
    assert r.yellow == {4: ["Ann"]}
    r.play(Turn("Cleo", [roll("gear2", "4.1.r")]))
    assert r.cars["Cleo"].space == "4.1.r"


def test_laps_from_the_finish_line(rx1):
    """RX-END-01: the run from the Pre-grid to the line is not a lap; each later crossing completes one."""
    r = race(rx1, 1)
    r.set_car("Ann", "10.2.l", gear=2, crossed=0)
    out = r.play(Turn("Ann", [roll("gear3", "10.3.l"), roll("gear4", "1.1.l")]))
    assert out.laps == 0 and r.cars["Ann"].crossed == 1
    r.set_car("Ann", "10.3.r", gear=3, crossed=1, joker="done")
    out = r.play(Turn("Ann", [roll("gear3", "1.1.r")]))
    assert out.laps == 1 and not out.finished


def test_joker_once_and_not_twice(rx1):
    """RX-JOKER-01 RX-JOKER-02 RX-JOKER-03: the Joker branch leaves 408a through its half-line spaces; leaving
    it turns the Joker token to OK; a car that has driven it may not enter it again."""
    r = race(rx1, 1)
    r.set_car("Ann", "2.1.l", gear=2, crossed=1)
    out = r.play(Turn("Ann", [roll("gear3", "2.4.l"), roll("coast", "11.1.l")]))
    assert out.joker == "in"
    r.set_car("Ann", "11.3.l", gear=2, crossed=1)
    out = r.play(Turn("Ann", [roll("gear2", "5.4.l"), roll("gear3", "5.5.j"), roll("coast", "5.3.m")]))
    assert out.joker == "done" and r.cars["Ann"].joker == "done"
    r.set_car("Ann", "2.1.l", gear=2, crossed=2)
    with pytest.raises(IllegalMove) as e:
        r.play(Turn("Ann", [roll("gear3", "2.4.r")]))
    assert e.value.rule_id == "RX-JOKER-02" and e.value.path == "dice[0].to"
    assert all(not r.index.spaces[d.to].joker for p in r.legal_plans(max_dice=2) for d in p)


def test_half_line_spaces_and_speed_limit_line(rx1):
    """RX-FORK-01 RX-FORK-02 RX-FORK-03 RX-FORK-04 RX-FORK-05: either half-line space is entered from the space
    before them, a car on one does not block the other; crossing the limit-4 line of 404a into 10.2.l in
    Gear 5 is a Loss of Control, the space itself being no corner."""
    r = race(rx1, 2)
    r.set_car("Ann", "2.1.l", gear=3, crossed=1)
    r.set_car("Bob", "2.4.l", gear=3, crossed=1)
    assert r.order == ["Bob", "Ann"] or r.order == ["Ann", "Bob"]
    name = r.to_move()
    if name == "Bob":
        r.play(Turn("Bob", [roll("gear3", "11.1.l")]))
        r.set_car("Bob", "2.4.l", gear=3, crossed=1)
    ctx, _ = r.context("Ann")
    targets = {p[0].to for p in r.legal_plans("Ann", max_dice=1)}
    assert "2.4.r" in targets and "2.4.l" not in targets
    assert r.index.spaces["10.2.l"].kind == "lane" and r.index.spaces["10.2.l"].limit is None
    r2 = race(rx1, 1)
    r2.set_car("Ann", "10.4.l", gear=4)
    out = r2.play(Turn("Ann", [roll("gear5", "10.2.l")], damage=["gear", "coast"][:loc_damage(
        r2.components, 5, r2.index.spaces["10.2.l"].danger)]))
    assert out.loc is not None and "limit 4" in out.loc.cause and out.gear == 0
    r3 = race(rx1, 1)
    r3.set_car("Ann", "10.4.l", gear=4)
    assert r3.play(Turn("Ann", [roll("gear4", "10.2.l")])).loc is None


def test_finish_and_disqualification(rx1):
    """RX-END-02 RX-END-03 RX-END-04 RX-JOKER-04 (Ambiguity 34): crossing the line after the last lap with the
    Joker done finishes (first = winner); without it the car is disqualified; the race goes on for the
    other places and ends when no car is racing."""
    r = race(rx1, 3)
    laps = r.laps.laps
    r.set_car("Ann", "10.3.l", gear=3, crossed=laps, joker="todo")
    r.set_car("Bob", "10.3.r", gear=2, crossed=laps, joker="done")
    r.set_car("Cleo", "9.3.l", gear=1, crossed=laps, joker="done")
    assert r.order == ["Ann", "Bob", "Cleo"]
    out = r.play(Turn("Ann", [roll("gear3", "1.1.l")]))
    assert out.disqualified and not out.finished and r.cars["Ann"].status == "disqualified"
    out = r.play(Turn("Bob", [roll("gear2", "1.1.r")]))
    assert out.finished and out.position == 1 and out.laps == laps
    assert not r.is_over() and r.to_move() == "Cleo"
    r.play(Turn("Cleo", [roll("gear1", "10.1.l")]))
    assert r.order == ["Cleo"]
    r.play(Turn("Cleo", [roll("gear2", "10.2.l"), roll("coast", "10.3.l"), roll("gear3", "1.1.l")]))
    res = r.result()
    assert res.order == ["Bob", "Cleo"] and res.winner == "Bob" and res.disqualified == ["Ann"]
    assert r.is_over() and r.to_move() is None


def test_finish_with_a_loss_of_control_beyond_the_line(rx1):
    """RX-END-02 (Ambiguity 34): a Loss of Control resolved beyond the line still finishes."""
    r = race(rx1, 1)
    r.set_car("Ann", "10.2.l", gear=2, crossed=r.laps.laps, joker="done")
    out = r.play(Turn("Ann", [roll("gear3", "10.3.l", face="warning"), roll("coast", "1.1.l", face="warning"),
                              roll("coast", "1.2.l", face="warning")]))
    assert out.loc is not None and out.loc.space == "1.2.l" and out.finished


def test_pre_grid_not_re_entered(rx1):
    """RX-START-02: once it has left the Pre-grid a car may not enter its spaces again."""
    r = race(rx1, 1)
    ctx, _ = r.context("Ann")
    assert not ctx.barred
    r.play(Turn("Ann", [roll("gear1", "12.3.l"), roll("gear2", "12.4.l"), roll("gear3", "10.4.l"),
                        roll("coast", "10.2.l")]))
    ctx, _ = r.context("Ann")
    assert ctx.barred and all(r.index.spaces[s].pregrid for s in ctx.barred)
    assert {rule for rule, _ in ctx.barred.values()} == {"RX-START-02"}


def test_rx_damage_bag_and_options(rx1):
    """RX-SETUP-02 RX-SETUP-03 RX-ADV-01: the RX Damage bag; RX cars only; Flying Start and Redline allowed."""
    r = race(rx1, 1, flying_start=True, redline=True)
    assert r.damage_bag() == {"green": 6, "gear": 18, "brake": 6, "coast": 6, "boost": 6, "yellow": 6}
    assert r.cars["Ann"].dashboard.car == "rx" and r.cars["Ann"].dashboard.top_gear == 5
    with pytest.raises(ValueError, match="not RX race rules"):
        race(rx1, 1, weather=True)
    with pytest.raises(ValueError, match="not an RX circuit"):
        Race(rallyc.load(ROOT / "examples/rally-1.rally").tracks[0], FOUR[:1])


def test_damage_counts_from_the_next_turn(rx1):
    """RX-DAMAGE-01 RX-DAMAGE-10 RX-SETUP-01: Gear, Brake and Coast Damage drawn at a Loss of Control remove dice
    as in the core rules, from the car's next turn; the bag shrinks by every token drawn (Yellow Flags too);
    Focus tokens start at none, taken from a common bank."""
    r = race(rx1, 1)
    assert r.cars["Ann"].focus == 0
    full = r.bag_left()
    assert full == 48
    r = race(rx1, 1)
    r.set_car("Ann", "4.2.r", gear=4, crossed=1)
    assert loc_damage(r.components, 5, "medium") == 2
    out = r.play(Turn("Ann", [roll("gear5", "4.3.out1")], damage=["brake", "yellow"]))
    assert out.loc is not None and r.bag_left() == full - 2 and r.cars["Ann"].damage == {"brake": 1}
    ctx, _ = r.context("Ann")
    assert (ctx.allowance.gear, ctx.allowance.brake, ctx.allowance.coast) == (5, 0, 3)
