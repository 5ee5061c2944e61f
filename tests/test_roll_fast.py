"""The replay's fast roll agrees with the full one, turn by turn (issue 9, speed).

``rallyc.rules.rolling.roll_and_move`` plays a replayed turn (no driver) on a fast path first and hands anything
unusual to the full path (``_roll_and_move``: the one-by-one state machine, ``_Runner``), which words the refusal.
The fast path is ``_roll_on_tree`` for the usual turn (no re-plan, SISU nor re-laid dice: the dice walked on the
tree of dice placed before and rolled in the same loop), else ``_replay_checked`` (the faces looked at once, the
laid dice checked by ``check_plan``, the movement worked out by ``_drive``). Here every turn the referee rolls is
played both ways and the two must give the same movement (the same dice resolved, Loss of Control, Warnings,
tokens, -1 tokens, seconds gained and spent) or the same refusal word for word, and ``_roll_on_tree``, whenever it
takes a turn, what ``_replay_checked`` gives: on every example game, on a seeded slice of the mutation corpus
(``rallyc.records.mutate``), and on seeded mutants of what the roll reads (faces, securing, tokens, Flat Out,
SISU, the re-laid dice).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator

import pytest

from rallyc.records import load_record, replay_record
from rallyc.records.load import RecordError
from rallyc.records.mutate import KINDS, _mutate, mutation_sites, turn_paths
from rallyc.rules import rolling
from rallyc.rules.engine import FOCUS, TurnEngine
from rallyc.rules.errors import IllegalMove

from helpers.plans import perturbed

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def _usual(turn: Any) -> bool:
    """The turn is one ``roll_and_move`` hands to ``_roll_on_tree`` first."""
    return bool(turn.dice) and not turn.replans and not turn.sisu and (turn.relaid is None or turn.flat_out)


class _Both:
    """Stands in for ``roll_and_move`` in the engine: rolls each turn by the full path and by the fast one,
    asserts they agree, and counts the turns the fast path took to the end."""

    def __init__(self) -> None:
        self.turns = 0
        self.fast = 0
        self.tree = 0
        self.refused = 0

    def __call__(self, stage: Any, mover: Any, turn: Any, ctx: Any, *, leader: bool, driver: Any = None) -> Any:
        def attempt(fn: Callable[[], Any]) -> tuple:
            try:
                return ("moved", fn()), None
            except IllegalMove as exc:
                return ("refused", exc.rule_id, exc.message, exc.path), exc

        full, _ = attempt(lambda: rolling._roll_and_move(stage, mover, turn, ctx, leader=leader, driver=driver))
        fast, error = attempt(lambda: rolling.roll_and_move(stage, mover, turn, ctx, leader=leader, driver=driver))
        assert fast == full, f"{turn.player}: {fast} != {full}"
        self.turns += 1
        if driver is None and rolling._replay_roll(stage, mover, turn, ctx, leader)[0]:
            self.fast += 1
        if driver is None and _usual(turn):
            # the one-loop roll on the tree of dice placed before against the two steps it fuses (check_plan,
            # then _drive): the same movement (or refusal) whenever it takes the turn
            tree = attempt(lambda: rolling._roll_on_tree(stage, mover, turn, ctx, leader))[0]
            if tree[0] == "refused" or tree[1] is not None:
                assert tree == attempt(lambda: rolling._replay_checked(stage, mover, turn, ctx, leader)[0])[0], \
                    turn.player
                self.tree += 1
        if error is not None:
            self.refused += 1
            raise error
        return fast[1]


@pytest.fixture
def both(monkeypatch) -> _Both:
    """Every turn rolled both ways; as in a replay nobody observes (the session's rule-coverage observer would keep
    re-plans on the full path)."""
    b = _Both()
    monkeypatch.setattr("rallyc.rules.engine.roll_and_move", b)
    monkeypatch.setattr("rallyc.rules.rolling.observing", lambda: False)
    return b


def _play(data: dict, base: Path) -> Any:
    try:
        return replay_record(data, base, explain=False).to_json(explain=False)
    except RecordError as exc:
        return f"RecordError {exc}"


def _roll_mutants(rec: dict, rng: random.Random, per_kind: int) -> Iterator[tuple[str, dict]]:
    """One-change mutants of what the roll reads, ``per_kind`` of each kind per record."""

    def faces(d: dict) -> None:
        for k in ("face", "brake_face", "boost_face"):
            if k in d:
                d[k] = "ok" if d[k] == "warning" else "warning"

    def drop_face(d: dict) -> None:
        d.pop("face", None)

    def drop_paired(d: dict) -> None:
        d.pop("brake_face", None)
        d.pop("boost_face", None)

    def add_brake_face(d: dict) -> None:
        d["brake_face"] = "warning"

    def secure(d: dict) -> None:
        for k in ("face", "brake_face", "boost_face"):
            d.pop(k, None)
        d["secured"] = True

    def secure_rolled(d: dict) -> None:
        d["secured"] = True

    def token(d: dict) -> None:
        d["token"] = rng.choice(["ok", "coast", "minus1", "weather", "oil"])

    def drop_token(d: dict) -> None:
        d.pop("token", None)

    die_kinds: dict[str, Callable[[dict], None]] = {
        "faces": faces, "drop-face": drop_face, "drop-paired": drop_paired, "add-brake-face": add_brake_face,
        "secure": secure, "secure-rolled": secure_rolled, "token": token, "drop-token": drop_token}
    sites = [(path, i) for path, t in turn_paths(rec) for i in range(len(t.get("dice", [])))]
    turn_sites = [path for path, _ in turn_paths(rec)]

    def at(m: dict, path: str) -> dict:
        for part in path[2:].replace("[", ".").replace("]", "").split("."):
            m = m[int(part)] if part.isdigit() else m[part]
        return m

    for name, fn in die_kinds.items():
        for path, i in rng.sample(sites, min(per_kind, len(sites))):
            m = copy.deepcopy(rec)
            fn(at(m, path)["dice"][i])
            yield f"{name} {path}.dice[{i}]", m

    def flat_out(t: dict) -> None:
        t["flat_out"] = not t.get("flat_out", False)
        for d in t.get("dice", []):
            d.setdefault("face", "ok")
            d.pop("secured", None)

    def sisu(t: dict) -> None:
        t["sisu"] = not t.get("sisu", False)

    def relaid(t: dict) -> None:
        t["relaid"] = copy.deepcopy(t.get("dice", []))

    def no_relaid(t: dict) -> None:
        t.pop("relaid", None)

    def no_dice(t: dict) -> None:
        t["dice"] = []

    for name, tf in {"flat-out": flat_out, "sisu": sisu, "relaid": relaid, "no-relaid": no_relaid,
                     "no-dice": no_dice}.items():
        for path in rng.sample(turn_sites, min(per_kind, len(turn_sites))):
            m = copy.deepcopy(rec)
            tf(at(m, path))
            yield f"{name} {path}", m

    # Improvisation: a re-plan moved, dropped, emptied, doubled; a taken-back die rolled; a re-planned die's face,
    # space or token changed; a re-plan on a turn without one
    def replans(t: dict) -> list:
        return t.setdefault("replans", [])

    def later(t: dict) -> None:
        for rp in replans(t):
            rp["after"] += rng.choice((1, -1, 2))

    def drop(t: dict) -> None:
        if replans(t):
            replans(t).pop(rng.randrange(len(replans(t))))

    def empty(t: dict) -> None:
        for rp in replans(t):
            rp["dice"] = []

    def twice(t: dict) -> None:
        if replans(t):
            replans(t).append(copy.deepcopy(replans(t)[-1]))

    def taken_back_rolled(t: dict) -> None:
        for rp in replans(t):
            for d in t["dice"][rp["after"]:]:
                d["face"] = "ok"

    def replanned_die(t: dict) -> None:
        for rp in replans(t):
            for d in rp["dice"]:
                rng.choice((faces, drop_face, secure, token, add_brake_face))(d)

    def elsewhere(t: dict) -> None:
        for rp in replans(t):
            if rp["dice"]:
                d = rng.choice(rp["dice"])
                d["to"] = rng.choice([s for p, tt in turn_paths(rec) for s in (x["to"] for x in tt.get("dice", []))])

    def add(t: dict) -> None:
        if t.get("dice") and not replans(t):
            k = rng.randrange(1, len(t["dice"]) + 1)
            replans(t).append({"after": k, "dice": copy.deepcopy(t["dice"][k:]) or copy.deepcopy(t["dice"][-1:])})

    with_replans = [path for path, t in turn_paths(rec) if t.get("replans")]
    for name, tf in {"later": later, "drop": drop, "empty": empty, "twice": twice,
                     "taken-back-rolled": taken_back_rolled, "replanned-die": replanned_die,
                     "elsewhere": elsewhere}.items():
        for path in rng.sample(with_replans, min(3 * per_kind, len(with_replans))):
            m = copy.deepcopy(rec)
            tf(at(m, path))
            yield f"replan-{name} {path}", m
    for path in rng.sample(turn_sites, min(per_kind, len(turn_sites))):
        m = copy.deepcopy(rec)
        add(at(m, path))
        yield f"replan-add {path}", m


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_example_turn_rolls_the_same_on_the_fast_path(game, both):
    report = _play(load_record(game), game.parent)
    assert isinstance(report, dict) and report["ok"], report
    assert both.turns > 0 and both.fast > 0


def test_most_example_turns_take_the_fast_path(both):
    """The fast path is the usual one: the full path plays the turns it hands on (re-plans, failed Flat Outs...)."""
    for game in GAMES:
        _play(load_record(game), game.parent)
    assert both.fast > 0.97 * both.turns, (both.fast, both.turns)
    # and the one loop on the tree takes the usual turns (not re-plans, re-laid dice, SISU, pushes)
    assert both.tree > 0.9 * both.turns, (both.tree, both.turns)


def test_the_mutation_corpus_rolls_the_same_on_the_fast_path(both):
    """The corpus of ``benchmarks/mutations.py`` (a card's seconds, a die's space, a lane, a gear, a face; stage and
    race turns), three of each kind per record."""
    n = 0
    for game in GAMES:
        rec = load_record(game)
        rng = random.Random(f"roll:{game.name}")
        sites = mutation_sites(rec)  # as benchmarks/replay_snapshot.py finds them
        for kind in KINDS:
            for where in rng.sample(sites[kind], min(3, len(sites[kind]))):
                m = _mutate(rec, kind, where, rng)
                if m is not None:
                    _play(m, game.parent)
                    n += 1
    assert n > 200 and both.refused > 0 and both.fast > 0


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_mutants_of_the_roll_roll_the_same_on_the_fast_path(game, both):
    """Faces, securing, Shortcut tokens, Flat Out, SISU, re-laid dice and empty plans changed one at a time."""
    rec = load_record(game)
    for _, m in _roll_mutants(rec, random.Random(f"roll-mutants:{game.name}"), per_kind=4):
        _play(m, game.parent)
    assert both.turns > 0 and both.refused > 0


def _same_drive(stage: Any, ctx: Any, placed: list, rolls: list, sisu: bool, warn_limit: int | None, extra: int
                ) -> bool:
    """``_drive`` (the fast roll) and ``_run`` (the full one) on the same dice: the same run, or the full path
    refuses where the fast one hands on (None)."""
    got = rolling._drive(stage, ctx, placed, rolls, sisu, warn_limit, extra, 0)
    try:
        want = rolling._run(stage, ctx, placed, rolls, sisu=sisu, warn_limit=warn_limit, path="dice", extra=extra)
    except IllegalMove:
        return got is None
    return got is not None and got[0] == want


@pytest.mark.parametrize("floor", [None, 2])
def test_every_space_limit_and_warning_on_the_fast_roll(floor):
    """Every space of a sketch with corners, printed limits, Chicane tokens on spaces with and without a limit,
    a Shortcut, a jump and a Water Hazard, entered from each space before it, in every gear, with and without -1
    tokens on its step, faces ok and Warning, with the Brake die, as a jump, too fast, as the Flying Start die:
    the fast roll's limit, Loss of Control and Warnings are the full roll's."""
    from helpers.rules import make_stage, put

    from rallyc.rules.dice import Die, Face
    from rallyc.rules.plans import Placed
    from rallyc.rules.turn import Roll

    st = make_stage("N S N N | !medium D C(2;3,3,3)R D cut3(1,3) | N/3 jump4 water C(1;2,2)L N | N F N N",
                    tokens=["chicane limit 2 at 1.3.l", "chicane limit 4 at 3.5.l", "chicane at 3.5.r"])
    put(st, "A", "1.2.l", 3)
    ctx, _ = st.context("A")
    # no compiled track puts a Chicane token on a printed limit; the limit rule still takes the lower of both
    index = copy.copy(ctx.index)
    index.spaces = spaces = dict(index.spaces)
    for sid in ("2.2.in1", "3.1.l", "3.4.out1"):
        spaces[sid] = dataclasses.replace(spaces[sid], chicane=2)
    ctx.index = index
    assert sum(s.chicane is not None and s.limit is not None for s in spaces.values()) == 3
    checked = 0
    for sid, s in spaces.items():
        froms = [a for a, nxt in ctx.index.succ_handbrake.items() if sid in nxt] or [ctx.start]
        for came_from in froms:
            for minus1 in ({}, {s.step: 1}, {s.step: 3}):
                c = copy.copy(ctx)
                c.start, c.minus1, c.limit_floor = came_from, minus1, floor
                for gear in range(1, 7):
                    for face in (Face.OK, Face.WARNING):
                        for jump, jump_loc, flying, brake in ((0, False, False, False), (0, False, False, True),
                                                              (1, False, False, False), (1, True, False, False),
                                                              (0, False, True, False)):
                            die = Die(f"gear{gear}", sid, brake)  # type: ignore[arg-type]
                            tokens = ("ok", "minus1", None) if s.kind == "shortcut" else (None,)
                            for token in tokens:
                                p = Placed(die, sid, gear, jump, jump_loc, flying)
                                r = Roll(die, face, Face.WARNING if brake else None, False, token)
                                for sisu, warn_limit, extra in ((False, None, 0), (False, None, 1), (True, None, 0),
                                                                (False, 2, 1), (False, 1, 0)):
                                    assert _same_drive(st, c, [p], [r], sisu, warn_limit, extra), \
                                        (sid, came_from, minus1, gear, face, jump, jump_loc, flying, brake, token,
                                         sisu, warn_limit, extra)
                                    checked += 1
    assert checked > 10_000


def _outcome(fn: Callable[[], Any]) -> Any:
    """What ``fn`` returns, or its refusal (rule, message, path)."""
    try:
        return fn()
    except IllegalMove as exc:
        return ("refused", exc.rule_id, exc.message, exc.path)


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_the_roll_on_the_tree_under_other_cars_tokens_and_limits(game, monkeypatch):
    """Every usual turn of every example game rolled again under other cars and tokens around the spaces its dice
    enter (a car on or beside them, a car in the corner by the other method, -1 tokens with and without the floor,
    the space barred, a Yellow Flag there, the readings turned round: ``helpers.plans.perturbed``), under other
    Warning limits per surface and with Warnings before any die: whenever ``_roll_on_tree`` takes the turn, it gives
    what ``_replay_checked`` gives (the dice checked by ``check_plan``, rolled by ``_drive``), which then neither
    refuses nor hands the turn on."""
    rng = random.Random(f"roll-tree:{game.name}")
    seen = [0, 0]  # variants rolled, taken by the tree
    real = rolling.roll_and_move

    def limits(ctx: Any) -> Any:
        lowered = {surface: rng.randrange(0, 4) for surface in ctx.index.surfaces if rng.random() < 0.7}
        return dataclasses.replace(ctx, limits=lowered, corner_methods={k: set(v) for k, v in ctx.corner_methods.items()},
                                   contact=None)

    def hooked(stage: Any, mover: Any, turn: Any, ctx: Any, *, leader: bool, driver: Any = None) -> Any:
        if driver is None and _usual(turn):
            try:
                rolling._replay_checked(stage, mover, turn, ctx, leader)  # (the tree holds this turn's dice)
            except IllegalMove:
                pass
            variants = [(other, mover) for other in perturbed(ctx, [r.die for r in turn.dice], rng)]
            variants += [(limits(ctx), mover), (limits(ctx), mover), (ctx, mover.with_warnings(1))]
            for other, m in variants:
                tree = _outcome(lambda: rolling._roll_on_tree(stage, m, turn, other, leader))
                if tree is not None:
                    checked = _outcome(lambda: rolling._replay_checked(stage, m, turn, other, leader)[0])
                    assert tree == checked, (turn.player, tree, checked)
                seen[0] += 1
                seen[1] += tree is not None
        return real(stage, mover, turn, ctx, leader=leader, driver=driver)

    monkeypatch.setattr("rallyc.rules.engine.roll_and_move", hooked)
    monkeypatch.setattr("rallyc.rules.rolling.observing", lambda: False)
    assert replay_record(load_record(game), game.parent, explain=False).ok
    assert seen[1] > 0.3 * seen[0], seen


class _Game:
    """What a mover asks of its game."""

    tokens = FOCUS

    def holds_sisu(self, car: Any) -> bool:
        return car.name == "Ann"

    def finish_index(self, car: Any, placed: list) -> int | None:
        return len(placed) - 1 if car.name == "Ann" else None


def _fields(m: rolling.Mover, finish: list | None = None) -> tuple:
    return (m.name, m.tokens, m.warnings, m.game, m.car, m.sisu, m.tokens_rule, m.tokens_unit,
            m.finish_index([1, 2] if finish is None else finish))


def test_the_engine_s_mover_is_the_mover_made():
    """``TurnEngine.mover`` (made without ``__init__``, one a turn) holds what ``Mover(...)`` holds; a mover asks its
    game for the SISU token, the words of its tokens and the finish; ``Mover.with_warnings`` (Full Contact's Danger
    tokens) changes the Warnings only; a mover without a game has the core's words, no SISU token and no finish."""
    game = _Game()
    for name, tokens in (("Ann", 3), ("Bob", 0)):
        car = SimpleNamespace(name=name, tokens=tokens)
        got = TurnEngine.mover(game, car)  # type: ignore[arg-type]
        want = rolling.Mover(name, tokens, 0, game, car)  # type: ignore[arg-type]
        assert type(got) is rolling.Mover and _fields(got) == _fields(want)
        assert _fields(got)[5:] == ((name == "Ann"), "RX-ROLL-04", "Focus token(s)", 1 if name == "Ann" else None)
        for n in (0, 1, 2, 5):
            w = got.with_warnings(n)
            assert w is not got and _fields(w) == _fields(got)[:2] + (n,) + _fields(got)[3:]
        assert got.warnings == 0
    alone = rolling.Mover("Cid", 2, 1)
    assert _fields(alone) == ("Cid", 2, 1, None, None, False, "CORE-SECONDS-08", "s", None)


def test_a_minus1_token_drawn_lowers_the_corners_after_it_on_the_tree():
    """A -1 token drawn on a Shortcut lowers the corner limits of its step for the drawer too, later in the same move
    (reading minus1_affects_drawer): every legal plan of up to three dice through a Shortcut that leads to a corner
    of its step, the token drawn, faces ok or Warning, from four start spaces in Gears 1 to 3: whenever
    ``_roll_on_tree`` takes the turn it gives what ``_replay_checked`` gives, Losses of Control on the lowered
    corner included (no example record draws such a token before such a corner)."""
    from helpers.rules import make_stage, put, turn_of

    from rallyc.rules.dice import Face
    from rallyc.rules.plans import legal_plans
    from rallyc.rules.turn import Roll, Turn

    st = make_stage("N N N S | N N cut5(1,3) N C(2;2,2)R N | N N F N N", players=1)
    assert st.components.reading("minus1_affects_drawer")
    took = lowered = 0
    for start in ("1.3.l", "1.3.r", "2.1.l", "2.1.r"):
        for gear in (1, 2, 3):
            put(st, "A", start, gear)
            turn_of(st, "A")
            ctx, leader = st.context("A")
            mover = st.mover(st.cars["A"])
            for plan in legal_plans(ctx, 3):
                if not any(d.to == "2.cut1" for d in plan):
                    continue
                for face in (Face.OK, Face.WARNING):
                    rolls = [Roll(d, face, face if d.brake else None, False, "minus1" if d.to == "2.cut1" else None,
                                  face if d.boost else None) for d in plan]
                    turn = Turn("A", rolls)
                    checked = _outcome(lambda: rolling._replay_checked(st, mover, turn, ctx, leader)[0])
                    tree = _outcome(lambda: rolling._roll_on_tree(st, mover, turn, ctx, leader))
                    if tree is not None:
                        assert tree == checked, (plan, tree, checked)
                        took += 1
                        loc = tree.run.loc
                        lowered += loc is not None and loc.cause.endswith("over the limit 1")
    assert took > 1000 and lowered > 100, (took, lowered)


def test_a_turn_without_dice_on_the_fast_path_is_the_full_path_s(monkeypatch):
    """Every turn of every example game played again with no die laid (and as a Flat Out, with SISU, re-laid dice
    or Warnings before any die): whenever ``_replay_no_dice`` takes it (no die could be laid: the car stays), the
    full path gives the same movement; where a die could be laid, it hands the turn on and the full path refuses it
    (CORE-MOVE-07)."""
    seen = {"stays": 0, "refused": 0}
    real = rolling.roll_and_move

    def hooked(stage: Any, mover: Any, turn: Any, ctx: Any, *, leader: bool, driver: Any = None) -> Any:
        if driver is None:
            for change in ({}, {"flat_out": True}, {"sisu": True}, {"relaid": []}, {"warnings": 2}):
                bare = dataclasses.replace(turn, dice=[], replans=[], relaid=change.get("relaid"),
                                           flat_out=change.get("flat_out", False), sisu=change.get("sisu", False))
                m = mover.with_warnings(change.get("warnings", mover.warnings))
                fast = rolling._replay_no_dice(m, bare, ctx, leader)
                full = _outcome(lambda: rolling._roll_and_move(stage, m, bare, ctx, leader=leader))
                if fast is not None:
                    assert not change.keys() - {"warnings"} and fast == full, (turn.player, change, fast, full)
                    seen["stays"] += 1
                else:
                    seen["refused"] += isinstance(full, tuple) and full[:2] == ("refused", "CORE-MOVE-07")
        return real(stage, mover, turn, ctx, leader=leader, driver=driver)

    monkeypatch.setattr("rallyc.rules.engine.roll_and_move", hooked)
    for game in GAMES:
        assert replay_record(load_record(game), game.parent, explain=False).ok
    assert seen["stays"] > 0 and seen["refused"] > 0, seen


def test_the_mover_resolve_makes_in_line_is_the_engine_s():
    """``TurnEngine.resolve`` makes the core's mover in line for a game form that does not override ``mover`` (a
    stage): on every turn of every example game, the mover the roll gets holds what the form's ``mover`` makes."""
    seen = {False: 0, True: 0}
    real = rolling.roll_and_move

    def hooked(stage: Any, mover: Any, turn: Any, ctx: Any, *, leader: bool, driver: Any = None) -> Any:
        move = real(stage, mover, turn, ctx, leader=leader, driver=driver)
        want = stage.mover(mover.car)
        placed = [p for p, _ in move.run.resolved]  # (the finish asked on the dice the car drove)
        assert type(mover) is type(want) and _fields(mover, placed) == _fields(want, placed), \
            (turn.player, _fields(mover, placed))
        seen[type(stage)._movers] += 1
        return move

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("rallyc.rules.engine.roll_and_move", hooked)
        for game in GAMES:
            assert replay_record(load_record(game), game.parent, explain=False).ok
    assert seen[False] > 100 and seen[True] > 100, seen
