"""Monte-Carlo rules: tires and surfaces, snow slides, handbrake turns, Road Effects tokens, R4/R5 and the
Boost die, soft-tire wear, tire changes in a rally (MC-* of shared/rules/INVENTORY.md; the rulebook's
examples included)."""

from collections import Counter

import pytest

from rallyc.data import load_components
from rallyc.rules import IllegalMove, Options, Player, ZeroSide
from rallyc.rules.rally import Rally
from rallyc.rules.sketch import sketch
from helpers.rules import make_stage, put, turn, turn_of

#: the Monte-Carlo rulebook's example: a stage starting on a Snow tile, then a Gravel tile
SNOW_THEN_GRAVEL = "~snow N S N N N N N N | ~gravel N N N N N F N"
#: gravel, then snow (the Warning examples: a car on gravel approaching the Snow tile)
GRAVEL_THEN_SNOW = "N S N N | N N N N | ~snow N N N | N F N N"


def illegal(stage, t):
    with pytest.raises(IllegalMove) as exc:
        stage.play(t)
    return exc.value


def second(st, name="A", lead="B", far="3.6.r"):
    """``name`` plays second in the round (no Leader column), ``lead`` far ahead."""
    put(st, lead, far, 1)
    turn_of(st, name, [lead, name])


# -- tires and Dashboards -----------------------------------------------------------------------------------

def test_tire_dashboards_per_surface():
    """MC-TIRE-01 MC-TIRE-02 MC-DICE-03: three surfaces, a Dashboard per tire type with a column per surface;
    gravel tires: 6 Gear, 2 Coast, 1 Brake on gravel, at most 5 Gear, Leader dice and no Brake on snow;
    asphalt tires: Warning limit 3 on gravel, 2 on snow (the rulebook's examples)."""
    comp = load_components()
    for tires in ("gravel", "asphalt", "snow", "soft"):
        assert {"gravel", "gravel-leader", "asphalt", "snow"} <= set(comp.dashboard("r6", tires).columns)
    g = comp.dashboard("r6", "gravel").columns
    assert (g["gravel"].gear, g["gravel"].coast, g["gravel"].brake) == (6, 2, 1)
    assert (g["snow"].gear, g["snow"].coast, g["snow"].leader, g["snow"].brake) == (5, 0, 2, 0)
    a = comp.dashboard("r6", "asphalt").columns
    assert a["gravel"].warnings == 3 and a["snow"].warnings == 2
    track = sketch(GRAVEL_THEN_SNOW + " | ~asphalt N N")
    assert {s.surface for s in track.spaces.values()} == {"gravel", "snow", "asphalt"}


def test_rulebook_example_sixth_gear_die_not_on_snow():
    """MC-DICE-01 MC-DICE-03: starting on a Snow tile with gravel tires, the 6th Gear die cannot be placed on
    snow (at most 5 Gear dice there)."""
    st = make_stage(SNOW_THEN_GRAVEL)
    second(st, "A", "B", "2.6.r")
    put(st, "A", "1.1.l", 0)
    e = illegal(st, turn("A", "gear1@1.2.l", "gear2@1.3.l", "gear3@1.4.l", "gear4@1.5.l", "gear5@1.6.l",
                         "gear6@1.7.l"))
    assert e.rule_id == "MC-DICE-01" and e.path == "dice[5].die"


def test_rulebook_example_leader_die_reaches_gravel():
    """MC-DICE-02 MC-DICE-04 MC-DICE-05: a Leader die on snow reaches the Gravel tile; there the 6th Gear die
    and a white Coast die are allowed, but not another Coast die (Coast + Leader share the limit of 2)."""
    plan = ["gear1@1.2.l", "gear2@1.3.l", "gear3@1.4.l", "gear4@1.5.l", "gear5@1.6.l", "leader@1.7.l",
            "gear6@2.1.l", "coast@2.2.l"]
    st = make_stage(SNOW_THEN_GRAVEL)
    second(st, "A", "B", "2.6.r")
    put(st, "A", "1.1.l", 0)
    e = illegal(st, turn("A", *plan, "coast@2.3.l"))
    assert e.rule_id == "MC-DICE-05" and e.path == "dice[8].die"
    out = st.play(turn("A", *plan))
    assert out.end == "2.2.l" and out.gear == 6


def test_coasting_on_snow_needs_leader_dice():
    """MC-DICE-04: where the column calls for Leader dice (gravel tires on snow), a Coast die is refused."""
    st = make_stage(GRAVEL_THEN_SNOW)
    second(st, "A", "B", "4.3.r")
    put(st, "A", "2.4.l", 2)
    e = illegal(st, turn("A", "gear2@3.1.l", "coast@3.2.l"))
    assert e.rule_id == "MC-DICE-04" and e.path == "dice[1].die"
    assert st.play(turn("A", "gear2@3.1.l", "leader@3.2.l")).end == "3.2.l"


def test_no_brake_die_on_snow_with_gravel_tires():
    """MC-DICE-02 MC-DICE-03: reaching a surface with a lower limit imposes it: no Brake die on snow."""
    st = make_stage(GRAVEL_THEN_SNOW)
    second(st, "A", "B", "4.3.r")
    put(st, "A", "2.3.l", 4)
    e = illegal(st, turn("A", "gear4@2.4.l", "gear2+b@3.1.l"))
    assert e.rule_id == "MC-DICE-02" and e.path == "dice[1].brake"
    assert st.play(turn("A", "gear4@2.4.l", "gear3@3.1.l", "gear2@3.2.l")).gear == 2


def test_snow_tires_keep_their_dice_on_snow():
    """MC-TIRE-02 MC-DICE-01: the same move with snow tires may coast with a Coast die on snow."""
    st = make_stage(GRAVEL_THEN_SNOW, cars=[("r6", "snow")])
    second(st, "A", "B", "4.3.r")
    put(st, "A", "2.4.l", 2)
    assert st.play(turn("A", "gear2@3.1.l", "coast@3.2.l")).end == "3.2.l"


# -- Warnings across surfaces -------------------------------------------------------------------------------

def test_rulebook_example_one_by_one_onto_snow():
    """MC-WARN-01: asphalt tires, 2 Warnings on gravel (limit 3) are no Loss of Control; crossing onto the Snow
    tile (limit 2) is an immediate Loss of Control on its first space, even with a blank face."""
    st = make_stage(GRAVEL_THEN_SNOW, cars=[("r6", "asphalt")])
    second(st, "A", "B", "4.3.r")
    put(st, "A", "2.2.l", 2)
    out = st.play(turn("A", "gear2@2.3.l:w", "gear3@2.4.l:w", "gear4@3.1.l", zero=ZeroSide("spinout")))
    assert out.loc is not None and out.loc.space == "3.1.l" and out.warnings == 2
    st2 = make_stage(GRAVEL_THEN_SNOW, cars=[("r6", "asphalt")])
    second(st2, "A", "B", "4.3.r")
    put(st2, "A", "2.2.l", 2)
    out2 = st2.play(turn("A", "gear2@2.3.l:w", "gear3@2.4.l:w"))
    assert out2.loc is None and out2.end == "2.4.l"


def test_rulebook_example_flat_out_takes_the_lowest_limit():
    """MC-WARN-02: going Flat Out over gravel and snow the whole roll has the snow limit 2: 2 Warnings before the
    Snow tile are a Loss of Control; the same 2 Warnings on gravel alone are not."""
    st = make_stage(GRAVEL_THEN_SNOW, cars=[("r6", "asphalt")])
    second(st, "A", "B", "4.3.r")
    put(st, "A", "2.2.l", 2)
    e = illegal(st, turn("A", "gear2@2.3.l:w", "gear3@2.4.l:w", "gear4@3.1.l", flat_out=True))
    assert e.rule_id == "CORE-ROLL-12"
    out = st.play(turn("A", "gear2@2.3.l:w", "gear3@2.4.l:w", "gear4@3.1.l", flat_out=True,
                       relaid=["gear2@2.3.l:w", "gear3@2.4.l:w"], zero=ZeroSide("spinout")))
    assert out.flat_out_failed and out.loc.space == "2.4.l"
    st2 = make_stage(GRAVEL_THEN_SNOW, cars=[("r6", "asphalt")])
    second(st2, "A", "B", "4.3.r")
    put(st2, "A", "2.1.l", 2)
    out2 = st2.play(turn("A", "gear2@2.2.l:w", "gear3@2.3.l:w", "gear4@2.4.l", flat_out=True))
    assert out2.loc is None and out2.seconds_gained == 3


# -- snow slides ---------------------------------------------------------------------------------------------

def test_snow_full_width_spaces_are_mandatory_slides():
    """MC-SNOW-01 CORE-OVERTAKE-06: on a snow tile the full-width spaces are slide spaces with no lane beside
    them: every way forward enters them by sliding, and a car on one holds the whole road."""
    st = make_stage("N S N N | ~snow N W W N | N F N N")
    track = st.track
    ahead = track.successors("2.1.l")
    assert ahead == ["2.2.w"] and track.move("2.1.l", "2.2.w")["move"] == "slide"
    assert track.move("2.2.w", "2.3.w")["move"] == "slide"
    put(st, "B", "2.3.w", 2)
    put(st, "A", "2.1.r", 2)
    turn_of(st, "A", ["B", "A"])
    e = illegal(st, turn("A", "gear2@2.2.w", "gear3@2.3.w"))
    assert e.rule_id == "CORE-MOVE-02" and e.path == "dice[1].to"


# -- handbrake turns -----------------------------------------------------------------------------------------

HAIRPIN = "N S N | ~asphalt N C(2;3,3,3)R N | N F N N"


def test_handbrake_turn_needs_the_option():
    """MC-HANDBRAKE-01 CORE-CORNER-02: outside -> inside mid-corner is refused in the core game, allowed with
    the Handbrake turn rule."""
    st = make_stage(HAIRPIN)
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.2.out1", 2)
    e = illegal(st, turn("A", "gear2@2.2.in1"))
    assert e.rule_id == "CORE-CORNER-02" and e.path == "dice[0].to"
    st = make_stage(HAIRPIN, handbrake=True)
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.2.out1", 2)
    out = st.play(turn("A", "gear2@2.2.in1", "gear3@2.3.l"))
    assert out.path == ["2.2.in1", "2.3.l"]


def test_handbrake_turn_only_further_along_and_never_inside_out():
    """MC-HANDBRAKE-02 MC-HANDBRAKE-04: not from the corner's last outside space, never inside -> outside."""
    st = make_stage(HAIRPIN, handbrake=True)
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.2.out3", 2)
    assert illegal(st, turn("A", "gear2@2.2.in1")).rule_id == "CORE-MOVE-04"
    st = make_stage("N S N | N C(2,2;3,3,3)R N | N F N N", handbrake=True)
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.2.in1", 2)
    assert illegal(st, turn("A", "gear2@2.2.out2")).rule_id in ("CORE-MOVE-03", "CORE-MOVE-04")


HAIRPIN2 = "N S N | N C(2,2;3,3,3)R N | N F N N"


def test_handbrake_turn_does_not_overtake_a_car_in_the_corner():
    """CORE-OVERTAKE-05 with MC-HANDBRAKE-01: "If a car is positioned on a Corner, another vehicle may only enter
    that Corner if they use the same method [...] They may then follow that car into the Corner but cannot enter
    their space or overtake them." The Handbrake turn only lifts "the rule [...] that prevents players from changing
    methods mid Corner": A, behind B on the outside, may not cut to the inside and pass it, whether it starts its
    turn in the corner or enters it this turn."""
    st = make_stage(HAIRPIN2, 3, handbrake=True)
    second(st, "A", "C", "3.3.r")
    put(st, "B", "2.2.out2", 2)
    put(st, "A", "2.2.out1", 2)
    e = illegal(st, turn("A", "gear2@2.2.in1", "coast@2.2.in2", "gear3@2.3.l"))
    assert e.rule_id == "CORE-OVERTAKE-05" and e.path == "dice[0].to" and "2.2.out2" in e.message
    put(st, "A", "2.1.l", 2)
    e = illegal(st, turn("A", "gear2@2.2.out1", "coast@2.2.in1"))
    assert e.rule_id == "CORE-OVERTAKE-05" and e.path == "dice[1].to"
    assert all(d.to != "2.2.in1" for plan in st.legal_plans(max_dice=2) for d in plan)


def test_handbrake_turn_ahead_of_a_car_following_in_the_corner():
    """MC-HANDBRAKE-01: the car behind on the outside is not overtaken when the car ahead of it cuts inside."""
    st = make_stage(HAIRPIN2, 3, handbrake=True)
    second(st, "A", "C", "3.3.r")
    put(st, "B", "2.2.out1", 2)
    put(st, "A", "2.2.out2", 2)
    assert st.play(turn("A", "gear2@2.2.in2", "gear3@2.3.l")).path == ["2.2.in2", "2.3.l"]


@pytest.mark.parametrize("surface", ["gravel", "asphalt", "snow"])
def test_handbrake_turn_on_every_surface(surface):
    """MC-HANDBRAKE-03"""
    st = make_stage(f"N S N | ~{surface} N C(2;3,3,3)R N | N F N N", handbrake=True, cars=[("r6", surface)])
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.2.out2", 2)
    assert st.play(turn("A", "gear2@2.2.in1")).end == "2.2.in1"


def test_handbrake_option_is_off_by_default_in_records():
    """MC-HANDBRAKE-01: the option defaults to the core game."""
    assert Options().handbrake is False and Options.from_dict({"handbrake": True}).handbrake


# -- Road Effects tokens -------------------------------------------------------------------------------------

def test_water_and_jump_tokens_work_like_printed_ones():
    """MC-TOKEN-01 CORE-WATER-02 CORE-JUMP-02: a Water Hazard token refuses a Gear 2 die; a Jump token jumps."""
    st = make_stage("N S N N | N N N N | N F N N", tokens=["water at 2.2.l", "jump 3 at 2.2.r"])
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.1.l", 2)
    assert illegal(st, turn("A", "gear2@2.2.l")).rule_id == "CORE-WATER-02"
    out = st.play(turn("A", "gear3@2.2.r>2.3.r"))
    assert out.end == "2.3.r"


def test_chicane_limit_is_a_speed_limit():
    """MC-TOKEN-02 CORE-CORNER-07: entering a Chicane token's space above its limit is a Loss of Control."""
    st = make_stage("N S N N | N N N N | N F N N", tokens=["chicane limit 2 at 2.2.l", "chicane at 2.2.r"])
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.1.l", 3)
    out = st.play(turn("A", "gear3@2.2.l", zero=ZeroSide("spinout")))
    assert out.loc is not None and out.loc.cause == "Gear 3 over the limit 2"
    st = make_stage("N S N N | N N N N | N F N N", tokens=["chicane limit 2 at 2.2.l", "chicane at 2.2.r"])
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.1.l", 3)
    assert st.play(turn("A", "gear2@2.2.l", "gear3@2.3.l")).loc is None


def test_hay_bales_are_impassable():
    """MC-TOKEN-03: the space of a Chicane token without a limit (hay bales) cannot be entered, unless the
    reading chicane_without_limit is 'no-effect'."""
    tokens = ["chicane limit 2 at 2.2.l", "chicane at 2.2.r"]
    st = make_stage("N S N N | N N N N | N F N N", tokens=tokens)
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.1.r", 2)
    e = illegal(st, turn("A", "gear2@2.2.r"))
    assert e.rule_id == "MC-TOKEN-03" and e.path == "dice[0].to"
    comp = load_components(overrides={"readings": {"chicane_without_limit": {"value": "no-effect"}}})
    st = make_stage("N S N N | N N N N | N F N N", tokens=tokens, components=comp)
    second(st, "A", "B", "3.3.r")
    put(st, "A", "2.1.r", 2)
    assert st.play(turn("A", "gear2@2.2.r")).end == "2.2.r"


# -- R4, R5 and the Boost die --------------------------------------------------------------------------------

def test_r4_top_gear_and_extra_coast_die():
    """MC-R4-01 MC-R4-02 MC-R4-03: an R4 has no Gear 5 die and one Coast die more (3 on gravel)."""
    st = make_stage(cars=[("r4", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 4)
    e = illegal(st, turn("A", "gear5@1.3.l"))
    assert e.rule_id == "MC-R4-02" and e.path == "dice[0].die"
    out = st.play(turn("A", "coast@1.3.l", "coast@1.4.l", "coast@1.5.l"))
    assert out.end == "1.5.l"
    st = make_stage(cars=[("r4", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 4)
    assert illegal(st, turn("A", *(f"coast@1.{z}.l" for z in range(3, 7)))).rule_id == "CORE-DICE-04"


def test_r5_top_gear():
    """MC-R5-01 MC-R5-02: an R5 has no Gear 6 die."""
    st = make_stage(cars=[("r5", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 5)
    assert illegal(st, turn("A", "gear6@1.3.l")).rule_id == "MC-R5-02"


def test_boost_raises_the_speed_by_two():
    """MC-R5-03 MC-BOOST-01 MC-BOOST-02: Gear 2 + Boost -> Gear 4 in one space; the Gear die must be exactly
    two above; only an R5 has the Boost die; one Boost die per turn."""
    st = make_stage(cars=[("r5", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 2)
    e = illegal(st, turn("A", "gear3+B@1.3.l"))
    assert e.rule_id == "MC-BOOST-02" and e.path == "dice[0].die"
    put(st, "A", "1.2.l", 1)
    e = illegal(st, turn("A", "gear3+B@1.3.l", "gear5+B@1.4.l"))
    assert e.rule_id == "CORE-DICE-04" and e.path == "dice[1].boost"
    put(st, "A", "1.2.l", 2)
    out = st.play(turn("A", "gear4+B@1.3.l:o/w", "gear5@1.4.l"))
    assert out.gear == 5 and out.warnings == 1
    st = make_stage()
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 2)
    assert illegal(st, turn("A", "gear4+B@1.3.l")).rule_id == "MC-R5-03"


def test_boost_secured_only_as_a_pair():
    """MC-BOOST-03 CORE-SECONDS-07 CORE-SECONDS-08: securing a Boost roll secures both dice (1 + 2 = 3 s);
    with 2 s it cannot be secured; one die of the pair alone is never rolled."""
    st = make_stage(cars=[("r5", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 2, seconds=2)
    assert illegal(st, turn("A", "gear4+B@1.3.l:s")).rule_id == "CORE-SECONDS-08"
    t = turn("A", "gear4+B@1.3.l")
    t.dice[0].boost_face = None
    assert illegal(st, t).rule_id == "MC-BOOST-03"
    st.cars["A"].seconds = 3
    out = st.play(turn("A", "gear4+B@1.3.l:s"))
    assert out.seconds_spent == 3 and out.gear == 4


def test_boost_is_no_flying_start():
    """MC-BOOST-04 CORE-ADV-01 (Ambiguity 15): from Gear 0 a Gear 2 + Boost pair is an ordinary Boost, not the
    Flying Start: its Warning counts and it does not stop the move."""
    st = make_stage(cars=[("r5", "gravel")], flying_start=True)
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 0)
    out = st.play(turn("A", "gear2+B@1.3.l:w/o", "gear3@1.4.l"))
    assert out.end == "1.4.l" and out.warnings == 1


def test_boost_die_earns_no_seconds_and_boost_damage():
    """MC-BOOST-01 (Ambiguity 16) CORE-SECONDS-01: a Flat Out with a Boost pair earns 1 s per Gear die, none for
    the Boost die; a Boost Damage token (RX bag) takes the Boost die away."""
    st = make_stage(cars=[("r5", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 2)
    out = st.play(turn("A", "gear4+B@1.3.l", "gear5@1.4.l", flat_out=True))
    assert out.seconds_gained == 2
    st = make_stage(cars=[("r5", "gravel")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 2)
    st.cars["A"].damage = Counter({"boost": 1})
    assert illegal(st, turn("A", "gear4+B@1.3.l")).rule_id == "CORE-DAMAGE-02"


def test_boost_damage_only_from_a_bag_that_holds_it():
    """CORE-SETUP-03 CORE-LOC-09: the DIRT bag has no Boost Damage; with the RX tokens added it may be drawn."""
    def crash(components):
        st = make_stage("N S N N | !high N N N N N F N N", cars=[("r5", "gravel")], components=components)
        second(st, "A", "B", "2.7.r")
        put(st, "A", "2.1.l", 3)
        return st, turn("A", "gear3@2.2.l:w", "gear4@2.3.l:w", "gear5@2.4.l:w",
                        zero=ZeroSide("crash", marks={"high": 1}), damage=["boost"])
    st, t = crash(None)
    assert illegal(st, t).rule_id == "CORE-SETUP-03"
    st, t = crash(load_components(overrides={"damage_bag": {"boost": 6}}))
    assert st.play(t).damage == ["boost"] and st.cars["A"].damage["boost"] == 1


# -- soft tires ----------------------------------------------------------------------------------------------

def test_soft_tire_wear_markers():
    """MC-SOFT-01 MC-SOFT-02 MC-SOFT-03 MC-SOFT-04 MC-SOFT-06 (Ambiguity 23): Warning limit 4 on turns 1-5, 3 on
    turn 6, the Dashboard's 2 from turn 7; the marker advances after every turn, blocked or not."""
    st = make_stage(cars=[("r6", "soft")])
    car = st.cars["A"]
    limits = []
    for turns in range(8):
        car.wear = turns
        limits.append(st.warning_limit(car, "gravel", False))
    assert limits == [4, 4, 4, 4, 4, 3, 2, 2]
    car.wear = 0
    st.play(turn("A", "gear1@1.2.l"))
    assert car.wear == 1


def test_soft_tire_limit_four_allows_three_warnings():
    """MC-SOFT-04: on T1 three Warnings are no Loss of Control on gravel."""
    st = make_stage(cars=[("r6", "soft")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 3)
    out = st.play(turn("A", "gear3@1.3.l:w", "gear4@1.4.l:w", "gear5@1.5.l:w"))
    assert out.loc is None and out.warnings == 3


def test_soft_tire_wear_only_on_the_worn_surfaces():
    """MC-SOFT-05: surfaces the marker does not affect (snow, assumption soft_wear_surfaces) keep the
    Dashboard's limit."""
    st = make_stage(GRAVEL_THEN_SNOW, cars=[("r6", "soft")])
    car = st.cars["A"]
    assert st.warning_limit(car, "snow", False) == 2 and st.warning_limit(car, "gravel", False) == 4


def _two_stages(assist_first: bool):
    return [sketch("N S N N N F N", "SS1", assistance=assist_first), sketch("N S N N N F N", "SS2")]


def _finish(rally, stage):
    from rallyc.rules.drivers.bot import RandomBot
    from rallyc.rules.drivers.bot import play_stage
    play_stage(stage, RandomBot(3))
    return rally.end_stage()


def test_tire_change_only_after_assistance():
    """MC-TIRE-03 MC-TIRE-04: tires are chosen freely at the first stage; later only after a stage with
    Assistance."""
    players = [Player("A", "red", "r6", "gravel")]
    rally = Rally(_two_stages(False), players)
    st = rally.start_stage(tires={"A": "asphalt"})
    assert st.cars["A"].dashboard.tires == "asphalt"
    _finish(rally, st)
    with pytest.raises(IllegalMove) as exc:
        rally.start_stage(tires={"A": "snow"})
    assert exc.value.rule_id == "MC-TIRE-04" and exc.value.path == "tires.A"
    rally = Rally(_two_stages(True), players)
    _finish(rally, rally.start_stage())
    assert rally.start_stage(tires={"A": "snow"}).cars["A"].dashboard.tires == "snow"


def test_tire_change_keeps_the_car_category_and_renews_soft_tires():
    """MC-TIRE-06 MC-SOFT-07 (Ambiguity 23): an R5 changing tires stays an R5; renewed soft tires get the T1
    marker again, worn ones carry their wear into the next stage."""
    players = [Player("A", "red", "r5", "soft")]
    rally = Rally(_two_stages(True), players)
    st = rally.start_stage()
    rec = _finish(rally, st)
    worn = st.cars["A"].wear
    assert worn == st.cars["A"].turns and worn > 0 and rec.assistance
    st2 = rally.start_stage()
    assert st2.cars["A"].wear == worn and st2.cars["A"].dashboard.name == "r5-soft"
    rally = Rally(_two_stages(True), players)
    _finish(rally, rally.start_stage())
    st2 = rally.start_stage(tires={"A": "soft"})
    assert st2.cars["A"].wear == 0 and st2.cars["A"].dashboard.car == "r5"
    rally = Rally(_two_stages(True), players)
    _finish(rally, rally.start_stage())
    assert rally.start_stage(tires={"A": "gravel"}).cars["A"].dashboard.name == "r5-gravel"


def test_spare_tire_keeps_tire_type_and_wear():
    """MC-TIRE-05 MC-SOFT-08 CORE-SPARE-01: the Spare Tire card changes neither the tires nor the wear."""
    st = make_stage(cars=[("r6", "soft")])
    second(st, "A", "B", "1.11.r")
    put(st, "A", "1.2.l", 2)
    st.cars["A"].damage = Counter({"coast": 1})
    st.cars["A"].wear = 3
    out = st.play(turn("A", "gear1@1.3.l", spare_tire=True))
    assert out.spare_tire
    assert st.cars["A"].dashboard.tires == "soft" and st.cars["A"].wear == 4


def test_leader_dice_on_an_all_snow_stage():
    """MC-DICE-04: on a stage all on snow, gravel tires coast with Leader dice whoever leads; a Coast die is
    refused with the Monte-Carlo rule, not the leader rule."""
    st = make_stage("~snow N S N N N N F N")
    second(st, "A", "B", "1.5.r")
    put(st, "A", "1.2.l", 2)
    e = illegal(st, turn("A", "coast@1.3.l"))
    assert e.rule_id == "MC-DICE-04" and "snow" in e.message
    assert st.play(turn("A", "leader@1.3.l")).end == "1.3.l"


def test_car_dashboards_are_overridable(tmp_path):
    """MC-R4-03: the derived R4 Dashboard follows the rules data: a rules file giving the R4 two extra Coast
    dice, or writing the R4 Dashboard out, replaces the assumption."""
    rules = tmp_path / "r4.toml"
    rules.write_text("[cars.r4]\nextra_coast = 2\n", encoding="utf-8")
    assert load_components(rules).dashboard("r4", "gravel").columns["gravel"].coast == 4
    comp = load_components(overrides={"dashboards": {"r4-snow": {
        "car": "r4", "tires": "snow", "top_gear": 4,
        "columns": {"snow": {"gear": 4, "coast": 1, "brake": 0, "warnings": 2}}}}})
    assert comp.dashboard("r4", "snow").columns["snow"].coast == 1
    assert load_components().dashboard("r4", "snow").columns["snow"].coast == 3
