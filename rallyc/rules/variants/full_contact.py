"""RX Full Contact (RX book, Advanced Rules > Full Contact): pushing the car directly ahead, Push Through,
impact damage, Danger tokens and the Flat Out while pushing, as a variant on the RX race.

The variant plugs into the core turn at four small hooks and re-implements none of it:

- planning: :class:`ContactPlan` rides on the :class:`~rallyc.rules.core.plans.PlanContext`; a die laid on a
  space that holds a car is handed to :meth:`ContactPlan.place` (a push, RX-PUSH-01..15, or a Push
  Through, RX-THROUGH-01..06) instead of being refused as an occupied space, and the cars a plan pushed
  have moved for the dice after it (:meth:`ContactPlan.view`);
- the start of a turn: Danger tokens cause a Loss of Control or add Warnings (RX-DANGER-05/06,
  :meth:`Contact.start_of_turn`, :meth:`Contact.warnings`);
- resolution: the pushes the car actually reached (RX-CONTACTROLL-01) move the pushed cars and draw the
  impact and Push Through damage; Danger tokens are taken (:meth:`Contact.resolve`);
- commit: :meth:`Contact.commit` applies them to the race.

A record states each push on its die: ``push_to`` (where the pushed car goes, when it has a choice) and a
``push`` object (the car pushed, its Danger tokens and both players' Damage tokens) or a ``through``
object (each car's Damage tokens and the pusher's); see ``docs/full-contact.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum
from operator import attrgetter, is_, itemgetter
from typing import TYPE_CHECKING, Any, Mapping, TypedDict
from weakref import proxy

from rallyc.rules.core.damage_bag import check_count, check_drawn, count_draw, draw
from rallyc.rules.core.dice import Die, DieKind
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.plans import (PlanContext, Placed, Walk, check_plan, corner_methods, effective_limit, entry_error,
                                warning_limit)
from rallyc.rules.core.rolling import Movement
from rallyc.rules.core.rx_dashboard import rx_allowance
from rallyc.rules.core.domain import JokerState, RaceStatus
from rallyc.rules.core.hooks import TurnEvent
from rallyc.rules.core.state import WEATHER
from rallyc.rules.core.turn import LossOfControl, Roll, Turn

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.driver import Driver
    from rallyc.rules.core.race import Race, RxCar, RxOutcome

__all__ = ["ContactKind", "ContactMove", "ContactPlan", "ContactClaim", "ContactEvent", "Contact", "MAX_DANGER"]

#: a player never holds more than 3 Danger tokens (RX-DANGER-04)
MAX_DANGER = 3
#: edges a pusher may come along to be "directly behind" (same lane; a slide space entered by sliding,
#: RX-PUSH-01/14)
_BEHIND = ("straight", "slide")


class ContactKind(StrEnum):
    """What a die laid on an occupied space does."""

    PUSH = "push"
    THROUGH = "through"


@dataclass(frozen=True)
class ContactMove:
    """A push or a Push Through, as laid in a plan."""

    kind: ContactKind
    #: the die's space (the pushed car's space before the push)
    space: str
    #: the pusher's gear entering that space
    gear: int
    #: the cars hit and their Gear markers: the pushed car, or every car alongside the die (RX-THROUGH-07)
    cars: tuple[tuple[str, int], ...]
    #: a push: where the pushed car goes (RX-PUSH-03)
    dest: str | None = None
    #: a push of a car pushed before in this turn, which alone blocks the pusher (RX-PUSH-10)
    again: bool = False
    #: the cars moved, (name, from, to), for the dice laid after this one
    moved: tuple[tuple[str, str, str], ...] = ()
    #: a Push Through onto a space two cars already share: the move may not end there (RX-THROUGH-05/06)
    no_end: bool = False


@dataclass
class ContactClaim:
    """What a record says about a push or Push Through on one die: the chance (Damage tokens drawn) and the
    derivable claims (the car pushed, its Danger tokens), checked."""

    kind: ContactKind
    #: a push: the car pushed (checked when given)
    car: str | None = None
    #: a push: the Danger tokens the pushed car takes (RX-DANGER-01/03; required when there are any)
    danger: int | None = None
    #: Damage tokens drawn by the cars hit (a push: the pushed car, by its name)
    damage: dict[str, list[str]] = field(default_factory=dict)
    #: Damage tokens drawn by the pusher (RX-IMPACT-01, RX-THROUGH-08)
    impact: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        """The die's ``push`` or ``through`` object (:func:`contact_claim_to_json`)."""
        return contact_claim_to_json(self)


#: a car a push or a Push Through hit: its name, Gear marker, space before and after, Danger tokens taken, Damage
#: tokens drawn
HitCar = TypedDict("HitCar", {"car": str, "gear": int, "from": str, "to": str, "danger": int, "damage": list[str]})
#: where a pushed car stands after the pushes: space, distance, crossings, Joker, left the Pre-grid
Spot = tuple[str, float, int, JokerState, bool]


@dataclass
class ContactEvent:
    """A push or a Push Through that took effect, for reports and map overlays."""

    kind: ContactKind
    pusher: str
    space: str
    gear: int
    #: each car hit: name, Gear marker, space before, space after, Danger tokens taken, Damage tokens drawn
    cars: list[HitCar] = field(default_factory=list)
    #: the pusher's Damage tokens
    impact: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """A few words for the text replay."""
        if self.kind == ContactKind.PUSH:
            c = self.cars[0]
            bits = [f"pushes {c['car']} {c['from']} -> {c['to']}"]
            if c["danger"]:
                bits.append(f"{c['danger']} Danger")
        else:
            bits = [f"pushes through {', '.join(c['car'] for c in self.cars)} on {self.space}"]
        hits = [f"{c['car']} {'+'.join(c['damage'])}" for c in self.cars if c["damage"]]
        if self.impact:
            hits.append(f"{self.pusher} {'+'.join(self.impact)}")
        if hits:
            bits.append("impact " + ", ".join(hits))
        return " ".join(bits[:1]) + "".join(f", {b}" for b in bits[1:])

    def to_json(self) -> dict[str, object]:
        """The report's object (a turn's ``contact``)."""
        return {"kind": str(self.kind), "pusher": self.pusher, "space": self.space, "gear": self.gear,
                "cars": [dict(c) for c in self.cars], "impact": list(self.impact)}


# -- planning ------------------------------------------------------------------------------------------

_new = object.__new__
#: a resolved (Placed, Roll) pair's parts, and what a Placed or a Roll says of Full Contact
_placed_of, _roll_of, _contact_of = itemgetter(0), itemgetter(1), attrgetter("contact")


def _variant(ctx: PlanContext, **changes: object) -> PlanContext:
    """``dataclasses.replace(ctx, corner_methods={}, **changes)`` without PlanContext's ``__init__`` (23 fields):
    a shallow copy with ``changes`` (never ``index`` nor ``handbrake``: the successors stay), the corner methods of
    the others' cars worked out again as its ``__post_init__`` does (CORE-OVERTAKE-05)."""
    fields = dict(ctx.__dict__)
    fields.update(changes)
    fields["corner_methods"] = corner_methods(ctx.index, fields["others"])
    out = _new(PlanContext)
    out.__dict__ = fields
    return out


@dataclass(frozen=True)
class ContactPlan:
    """Who is where at the start of a turn, for the pushes and Push Throughs of its plans."""

    mover: str
    #: space -> the cars on it that impede (two when they share it after a Push Through, RX-THROUGH-04)
    at: Mapping[str, tuple[str, ...]]
    #: each car's Gear marker
    gears: Mapping[str, int]
    #: spaces a car may not be pushed into: its Joker once driven, the Pre-grid once left (RX-JOKER-02,
    #: RX-START-02)
    barred: Mapping[str, Mapping[str, tuple[str, str]]]

    def positions(self, w: Walk) -> dict[str, tuple[str, ...]]:
        """Space -> cars, after the pushes of the plan so far."""
        if not w.moved:
            return dict(self.at)
        where = {n: s for s, names in self.at.items() for n in names}
        for name, _, to in w.moved:
            where[name] = to
        out: dict[str, tuple[str, ...]] = {}
        for n in sorted(where):
            out[where[n]] = out.get(where[n], ()) + (n,)
        return out

    def others(self, at: Mapping[str, tuple[str, ...]], without: frozenset[str] = frozenset()) -> dict[str, int]:
        """The planner's ``others`` (space -> gear; the higher gear where two cars share a space)."""
        out: dict[str, int] = {}
        for sid, names in at.items():
            gears = [self.gears[n] for n in names if n not in without]
            if gears:
                out[sid] = max(gears)
        return out

    def view(self, ctx: PlanContext, w: Walk) -> PlanContext:
        """``ctx`` with the cars where the plan's pushes so far have put them."""
        return _variant(ctx, others=self.others(self.positions(w)))

    def _blockers(self, ctx: PlanContext, w: Walk, at: Mapping[str, tuple[str, ...]]) -> set[str] | None:
        """The cars that block the car on ``w.pos`` (every space ahead taken, CORE-MOVE-09), None when a space
        ahead is free."""
        cars: set[str] = set()
        for nxt in ctx.succ.get(w.pos, ()):
            taken = [n for o in ctx.index.overlap[nxt] for n in at.get(o, ())]
            if not taken:
                return None
            cars.update(taken)
        return cars or None

    def place(self, ctx: PlanContext, w: Walk, die: Die, gear: int
              ) -> tuple[Placed | None, tuple[str, str, str] | None]:
        """A die laid on ``die.to``, which holds a car: a push or a Push Through, or why it may not be laid."""
        at = self.positions(w)
        blockers = self._blockers(ctx, w, at)
        if blockers is not None and len(blockers) >= 2:
            return self._through(ctx, w, die, gear, at, blockers)
        return self._push(ctx, w, die, gear, at, blockers)

    def _jump_error(self, ctx: PlanContext, die: Die, gear: int) -> tuple[str, str, str] | None:
        s = ctx.index.spaces[die.to]
        if s.jump is not None and gear >= s.jump:
            return ("CORE-JUMP-07", f"a jump from {die.to} may not be made while a car stands on it: lay a die "
                                    f"below the jump's Gear {s.jump} to push", "die")
        return None

    def _push(self, ctx: PlanContext, w: Walk, die: Die, gear: int, at: Mapping[str, tuple[str, ...]],
              blockers: set[str] | None) -> tuple[Placed | None, tuple[str, str, str] | None]:
        names = at[die.to]
        if len(names) > 1:
            return None, ("RX-THROUGH-05", f"{' and '.join(names)} share {die.to}: neither can be pushed", "to")
        target = names[0]
        tgear = self.gears[target]
        edge = ctx.index.track.graph.get_edge_data(w.pos, die.to) or {}
        behind = _BEHIND + (("shortcut",) if ctx.index.spaces[die.to].kind == "shortcut" else ())
        if edge.get("move") not in behind:
            return None, ("RX-PUSH-01", f"{target} on {die.to} is not directly ahead of {w.pos} (a push comes from "
                                        f"the space straight behind, not diagonally)", "to")
        if gear < tgear:
            return None, ("RX-PUSH-02", f"pushing {target} (Gear marker {tgear}) needs Gear {tgear} or more, not "
                                        f"Gear {gear}", "die")
        again = any(n == target for n, _, _ in w.moved)
        if again and blockers != {target}:
            return None, ("RX-PUSH-10", f"{target} was pushed once this turn: it may be pushed again only while it "
                                        f"alone blocks the pusher", "to")
        err = self._jump_error(ctx, die, gear)
        if err:
            return None, err
        free = _variant(ctx, others=self.others(at, frozenset({target})))
        e = entry_error(free, die.to, gear, die, came_from=w.pos)
        if e:
            return None, (e[0], e[1], "to")
        dests, why = self._destinations(ctx, at, target, die.to, gear)
        if not dests:
            return None, why
        dest = die.push
        if dest is None:
            if len(dests) > 1:
                rule = "RX-PUSH-12" if ctx.index.spaces[dests[0]].kind == "corner" else "RX-PUSH-15"
                return None, (rule, f"{target} pushed from {die.to} may go to {', '.join(dests)}: say where "
                                    f"(`push_to`)", "push_to")
            dest = dests[0]
        elif dest not in dests:
            return None, (why[0] if why else "RX-PUSH-03",
                          f"{target} pushed from {die.to} goes to {' or '.join(dests)}, not {dest}", "push_to")
        move = ContactMove(ContactKind.PUSH, die.to, gear, ((target, tgear),), dest, again,
                           ((target, die.to, dest),))
        return Placed(die, die.to, gear, contact=move), None

    def _destinations(self, ctx: PlanContext, at: Mapping[str, tuple[str, ...]], target: str, sid: str,
                      pusher_gear: int) -> tuple[list[str], tuple[str, str, str]]:
        """Where ``target`` on ``sid`` may be pushed (RX-PUSH-03/04/07/12/13/15), and why not elsewhere: one space
        straight forward, or any connected space when it is pushed into a corner (either method) or out of a corner,
        a slide space or a Shortcut."""
        idx = ctx.index
        g = idx.track.graph
        s = idx.spaces[sid]
        leaving = s.kind == "shortcut" or s.lane in ("s1", "s2")  # RX-PUSH-15: the player's choice
        others = self.others(at, frozenset({target}))
        others[sid] = max(others.get(sid, 0), pusher_gear)
        tview = _variant(ctx, others=others, ignore_water=True,
                        barred=dict(self.barred.get(target, {})), alongside_before_flag=frozenset())
        out: list[str] = []
        why: tuple[str, str, str] = ("RX-PUSH-03", f"{target} cannot be pushed straight forward from {sid}", "to")
        blocked_by_car = False
        for m in idx.succ.get(sid, ()):
            move = g.edges[sid, m].get("move")
            ms = idx.spaces[m]
            out_of_corner = s.kind == "corner" and ms.corner != s.corner
            # RX-PUSH-12: pushed into a corner, its player chooses the inside or the outside, whichever of the
            # corner's first spaces lies straight ahead
            into_corner = ms.kind == "corner" and (s.kind != "corner" or ms.corner != s.corner)
            if move != "straight" and not ((leaving or out_of_corner or into_corner) and move == "diagonal"):
                continue
            if ms.kind == "shortcut":
                why = ("RX-PUSH-07", f"{target} may not be pushed into the Shortcut {m}", "to")
                continue
            if ms.lane in ("s1", "s2"):
                why = ("RX-PUSH-13", f"{target} pushed onto {m} may not slide", "to")
                continue
            e = entry_error(tview, m, self.gears[target], Die(DieKind.COAST, m), came_from=sid)
            if e:
                if e[0] in ("CORE-MOVE-02", "CORE-OVERTAKE-06"):
                    blocked_by_car = True
                    why = ("RX-PUSH-05", f"{target} cannot be pushed: {e[1]}", "to")
                else:
                    why = ("RX-PUSH-04", f"{target} cannot be pushed onto {m}: {e[1]}", "to")
                continue
            out.append(m)
        if not out and blocked_by_car and why[0] != "RX-PUSH-05":
            why = ("RX-PUSH-05", f"{target} has a car directly in front of it: it cannot be pushed", "to")
        return out, why

    def choices(self, ctx: PlanContext, w: Walk, die: Die) -> list[str]:
        """The places the car pushed by ``die`` may be put (RX-PUSH-12/15), for plan enumeration."""
        if w.moved:
            ctx = self.view(ctx, w)
        at = self.positions(w)
        names = at.get(die.to, ())
        if len(names) != 1:
            return []
        gear = int(die.die[4:]) if die.die.startswith("gear") else w.gear
        dests, _ = self._destinations(ctx, at, names[0], die.to, gear)
        return dests

    def _through(self, ctx: PlanContext, w: Walk, die: Die, gear: int, at: Mapping[str, tuple[str, ...]],
                 blockers: set[str]) -> tuple[Placed | None, tuple[str, str, str] | None]:
        """RX-THROUGH-01..06: blocked by two or more cars across the track, the die goes onto one of their
        spaces as if they were not there, in a gear above every car alongside it."""
        if die.push is not None:
            return None, ("RX-PUSH-11", f"{' and '.join(sorted(blockers))} block {w.pos}: Push Through, nobody is "
                                        f"pushed forward (no `push_to`)", "push_to")
        if not die.die.startswith("gear"):
            return None, ("RX-THROUGH-02", "a Push Through is made with a Gear die, of a gear above every car's",
                          "die")
        zone = [die.to] + [o for o in ctx.index.alongside[die.to]]
        present = sorted({(n, self.gears[n]) for sid in zone for o in ctx.index.overlap[sid]
                          for n in at.get(o, ())})
        top = max(g for _, g in present)
        if gear <= top:
            return None, ("RX-THROUGH-02", f"a Push Through needs a die above every car's gear alongside {die.to} "
                                           f"(highest Gear {top}), not Gear {gear}", "die")
        err = self._jump_error(ctx, die, gear)
        if err:
            return None, err
        gone = frozenset(blockers | {n for n, _ in present})
        free = _variant(ctx, others=self.others(at, gone))
        e = entry_error(free, die.to, gear, die, came_from=w.pos)
        if e:
            return None, (e[0], e[1], "to")
        # reading 30: the move may end sharing a space with one car, never with two (it goes on through them)
        move = ContactMove(ContactKind.THROUGH, die.to, gear, tuple(present), no_end=len(at[die.to]) > 1)
        return Placed(die, die.to, gear, contact=move), None


# -- the race variant ----------------------------------------------------------------------------------

@dataclass
class _Pending:
    """What a resolved turn's contact changes (committed by :meth:`Contact.commit`)."""

    events: list[TurnEvent]
    applied: list[str]
    #: name -> (space, distance, crossings, joker, left Pre-grid) after the pushes
    moves: dict[str, Spot]
    damage: dict[str, list[str]]
    danger: dict[str, int]
    #: RX Weather: Weather tokens drawn for impacts (out of the bag) and the weather the first one turns to
    weather_drawn: int = 0
    weather: str | None = None


def _no_contact(turn: Turn, resolved: list[tuple[Placed, Roll]]) -> bool:
    """The turn's dice are all reached, in order, none pushes and none claims a push or a Push Through: what
    :meth:`Contact.resolve` checks, draws and takes is then nothing (most turns). Looked at in C: a claim or a push
    is a dataclass, always true, None when there is none."""
    dice = turn.dice
    return (not turn.relaid and not getattr(turn, "replans", None) and len(resolved) == len(dice)
            and all(map(is_, map(_roll_of, resolved), dice)) and not any(map(_contact_of, dice))
            and not any(map(_contact_of, map(_placed_of, resolved))))


def _die_lists(turn: Turn) -> list[tuple[str, list[Roll]]]:
    """The turn's lists of dice by their place in the record: the dice, the re-laid dice, each re-plan's."""
    lists: list[tuple[str, list[Roll]]] = [("dice", turn.dice), ("relaid", turn.relaid or [])]
    lists += [(f"replans[{j}].dice", rp.dice) for j, rp in enumerate(getattr(turn, "replans", None) or [])]
    return lists


def _laid_unreached(turn: Turn, ctx: PlanContext, lists: list[tuple[str, list[Roll]]], reached: set[int]
                    ) -> dict[int, Placed]:
    """What each die of the record does as laid (by the roll's id), when some die was not reached: only those
    are read (a turn whose dice were all reached, the most, lays none through the validator again)."""
    planned: dict[int, Placed] = {}
    if any(id(r) not in reached for _, rolls in lists for r in rolls):
        for laid in (turn.dice, turn.relaid or []):
            if laid:
                for r, pl in zip(laid, check_plan(ctx, [r.die for r in laid])):
                    planned[id(r)] = pl
    return planned


def _check_unreached(turn: Turn, ctx: PlanContext, resolved: list[tuple[Placed, Roll]],
                     lists: list[tuple[str, list[Roll]]], paths: dict[int, str], applied: list[str]) -> None:
    """RX-CONTACTROLL-01: a die the car never reached (stopped, a Loss of Control resolved before, or a failed
    Flat Out resolved on its re-laid dice) pushes nobody, and nobody draws or takes tokens for it; a claim of a
    push on a die laid on a free space is refused (RX-PUSH-01)."""
    reached = {id(r) for _, r in resolved}
    planned = _laid_unreached(turn, ctx, lists, reached)
    for _, rolls in lists:
        for r in rolls:
            if id(r) not in reached:
                _check_unreached_die(r, planned.get(id(r)), paths[id(r)], applied)


def _move_of(p: Placed) -> ContactMove | None:
    """The push or Push Through of a die laid (under Full Contact the planning context's ``contact`` is a
    :class:`ContactPlan`: a die's move is a :class:`ContactMove`)."""
    cm = p.contact
    assert cm is None or isinstance(cm, ContactMove)
    return cm


def _claim_of(r: Roll) -> ContactClaim | None:
    """What the record says a die pushed (read by :func:`contact_claim_from_json`, or made by :func:`_matched_claim`:
    a :class:`ContactClaim`)."""
    claim = r.contact
    assert claim is None or isinstance(claim, ContactClaim)
    return claim


def _check_unreached_die(r: Roll, laid_as: Placed | None, path: str, applied: list[str]) -> None:
    """One die the car never reached (RX-CONTACTROLL-01, RX-PUSH-01): see :func:`_check_unreached`."""
    claim = _claim_of(r)
    if claim is not None and laid_as is not None and laid_as.contact is None:
        raise IllegalMove("RX-PUSH-01", f"no car on {laid_as.space} to push: the die enters a free "
                                        f"space", f"{path}.{claim.kind}")
    if claim is not None and (claim.damage or claim.impact or claim.danger):
        raise IllegalMove("RX-CONTACTROLL-01", "the car does not reach this die's space: the "
                                               f"{claim.kind} has no effect, nobody draws or takes "
                                               f"tokens", f"{path}.{claim.kind}")
    if laid_as is not None and laid_as.contact is not None:
        applied.append("RX-CONTACTROLL-01")


def _check_free_space(p: Placed, r: Roll, here: str) -> None:
    """A die reached on a free space: the record claims no push on it (RX-PUSH-01)."""
    if r.contact is not None:
        raise IllegalMove("RX-PUSH-01", f"no car on {p.space} to push: the die enters a free space",
                          f"{here}.{r.contact.kind}")


def _matched_claim(p: Placed, r: Roll, here: str, driver: "Driver | None") -> ContactClaim:
    """The record's claim on a die reached that pushes: required (a driver's is made here), of the kind the
    die does (RX-PUSH-01, RX-PUSH-11, RX-THROUGH-01)."""
    cm = _move_of(p)
    assert cm is not None
    claim = _claim_of(r)
    if claim is None:
        if driver is None:
            what = f"pushes {cm.cars[0][0]}" if cm.kind == ContactKind.PUSH else "pushes through"
            raise IllegalMove("RX-PUSH-01" if cm.kind == ContactKind.PUSH else "RX-THROUGH-01",
                              f"the die on {p.space} {what}: record `{cm.kind}`", here)
        claim = r.contact = ContactClaim(cm.kind)
    if claim.kind != cm.kind:
        rule = "RX-PUSH-11" if cm.kind == ContactKind.THROUGH else "RX-THROUGH-01"
        raise IllegalMove(rule, f"the die on {p.space} is a {cm.kind}, not a {claim.kind}",
                          f"{here}.{claim.kind}")
    return claim


def _through_end_rules(cm: ContactMove, here: str, goes_on: bool, lost: bool) -> list[str]:
    """Where a move goes after a Push Through: on (RX-THROUGH-03), or ending there (RX-THROUGH-04/05), never
    on a space two cars already share unless the car lost control (RX-THROUGH-05/06)."""
    if goes_on:
        return ["RX-THROUGH-03"] + (["RX-THROUGH-05", "RX-THROUGH-06"] if cm.no_end else [])
    if cm.no_end and not lost:
        raise IllegalMove("RX-THROUGH-06", f"two cars already share {cm.space}: the move goes on through it, it "
                                           f"may not end there", here)
    return ["RX-THROUGH-04", "RX-THROUGH-05"]


def _check_push_claim(cm: ContactMove, claim: ContactClaim, path: str) -> None:
    """A push's claim names the car pushed, and only it and the pusher draw Damage tokens (RX-PUSH-01,
    RX-IMPACT-01)."""
    target = cm.cars[0][0]
    if claim.car is not None and claim.car != target:
        raise IllegalMove("RX-PUSH-01", f"the die on {cm.space} pushes {target}, not {claim.car}", f"{path}.car")
    extra = set(claim.damage) - {target}
    if extra:
        raise IllegalMove("RX-IMPACT-01", f"only {target} and the pusher draw Damage tokens in this push, not "
                                          f"{', '.join(sorted(extra))}", f"{path}.damage")


class Contact:
    """Full Contact on one RX race: the Danger tokens each player holds, and the hooks the race calls."""

    def __init__(self, race: "Race") -> None:
        # a weak proxy: the race holds its Contact (race.contact), so a strong reference back made every Full
        # Contact race, its turns and outcomes a reference cycle, left to the cyclic garbage collector
        self.race: Race = proxy(race)
        #: Danger tokens on each player's Dashboard (RX-DANGER-01..07)
        self.danger: Counter[str] = Counter()
        self._pending: _Pending | None = None
        #: RX Weather, while a turn's impacts are drawn: may a Weather token still change the weather, the tokens
        #: drawn, the weather it turned to (RX-WEATHER-04/07)
        self._weather_open = False
        self._weather_drawn = 0
        self._new_weather: str | None = None
        #: while a turn's impacts are drawn: the Damage tokens of each kind out of the bag (RX-SETUP-02)
        self._turn_out: Counter[str] = Counter()
        self._barred: dict[tuple[str, bool, bool], dict[str, tuple[str, str]]] = {}

    # -- planning
    def plan(self, ctx: PlanContext, mover: str) -> PlanContext:
        """``ctx`` with the board Full Contact plans on."""
        plan, others = self.board(mover)
        return _variant(ctx, contact=plan, others=others)

    def board(self, mover: str) -> tuple[ContactPlan, dict[str, int]]:
        """The board Full Contact plans on for ``mover``'s turn, and the others' cars it shows (space -> gear): a
        planning context's ``contact`` and ``others``."""
        race = self.race
        cars = race.cars
        at: dict[str, tuple[str, ...]] = {}
        for n in sorted(cars):  # by name
            c = cars[n]
            if c.status == "road" and n != mover:  # (c.impedes)
                at[c.space] = at[c.space] + (n,) if c.space in at else (n,)
        barred: dict[str, dict[str, tuple[str, str]]] = {}
        gears: dict[str, int] = {}
        cache = self._barred
        for n, c in cars.items():
            key = (n, c.joker == "done", c.left_pregrid)
            b = cache.get(key)
            if b is None:  # built once per car and state (read-only; copied where a view changes it)
                b = cache[key] = self._barred_spaces(c)
            barred[n] = b
            gears[n] = c.gear
        plan = _new(ContactPlan)
        plan.__dict__.update(mover=mover, at=at, gears=gears, barred=barred)  # a frozen dataclass, without __init__
        others: dict[str, int] = {}
        for sid, names in at.items():  # ContactPlan.others(at): the higher gear where two cars share a space
            g = gears[names[0]]
            for o in names[1:]:
                if gears[o] > g:
                    g = gears[o]
            others[sid] = g
        return plan, others

    def _barred_spaces(self, c: "RxCar") -> dict[str, tuple[str, str]]:
        """The spaces ``c`` may not be pushed into: its Joker once driven, the Pre-grid once left (RX-JOKER-02,
        RX-START-02)."""
        marks = self.race._marks  # (the track's Joker and Pre-grid spaces, in its order: no scan of every space)
        b: dict[str, tuple[str, str]] = {}
        if c.joker == "done":
            b.update({sid: ("RX-JOKER-02", f"{c.name} has driven the Joker ({sid})") for sid in marks.joker_ids})
        if c.left_pregrid:
            b.update({sid: ("RX-START-02", f"{c.name} has left the Pre-grid ({sid})") for sid in marks.pregrid_ids})
        return b

    # -- the start of a turn
    def start_of_turn(self, car: "RxCar", turn: "Turn", ctx: PlanContext) -> "Movement | None":
        """RX-DANGER-05: as many Danger tokens as the Warning limit or more: a Loss of Control on the car's space
        at its Gear marker's speed, before any die (the record lays none). None otherwise."""
        n = self.danger[car.name]
        limit = warning_limit(ctx, car.space)
        if not self.loses_control(car.name, ctx):
            return None
        if turn.dice or turn.flat_out:
            raise IllegalMove("RX-DANGER-05", f"{car.name} starts the turn with {n} Danger token(s), its Warning "
                                              f"limit is {limit}: a Loss of Control on {car.space} before any die "
                                              f"(lay no dice)", "dice")
        loc = LossOfControl(car.space, car.gear, f"{n} Danger tokens")
        return Movement.lost_before_any_die(loc, n, ctx.minus1)

    def loses_control(self, name: str, ctx: PlanContext) -> bool:
        """The player's Danger tokens reach its Warning limit: its turn is a Loss of Control (RX-DANGER-05)."""
        n = self.danger[name]
        return bool(n) and n >= warning_limit(ctx, ctx.start)

    def warnings(self, name: str) -> int:
        """Warnings the player's Danger tokens add to this turn's dice (RX-DANGER-06)."""
        return self.danger[name]

    # -- resolution
    def resolve(self, car: "RxCar", turn: "Turn", ctx: PlanContext, move: "Movement", out: "RxOutcome",
                driver: "Driver | None") -> None:
        """Check the record's pushes against the dice the car reached, draw (driver) or check the Damage tokens,
        take the Danger tokens; keep the changes for :meth:`commit` (nothing is changed here)."""
        run = move.run
        if _no_contact(turn, run.resolved):
            self._pending = None  # (commit: nothing pushed, drawn or taken)
            return
        lists = _die_lists(turn)
        # where each die of the turn is in the record
        paths = {id(r): f"{name}[{i}]" for name, rolls in lists for i, r in enumerate(rolls)}
        pending = _Pending([], [], {}, {}, {})
        applied = pending.applied
        _check_unreached(turn, ctx, run.resolved, lists, paths, applied)
        # the bag's tokens before the impacts: less the turn's own draws (a Shortcut's, a Loss of Control's: a Yellow
        # Flag or a Weather token among them is one of its tokens, out of the bag as the others)
        left = self.race.bag_left() - len(out.tokens) - len(out.damage)
        # the tokens of each kind out of the bag, the turn's Loss of Control draws and each impact's as they happen
        self._turn_out = self.race.damage_out() + Counter(out.damage)
        # reading full_contact_weather: the turn's own draws (Shortcut, Loss of Control) are weighed first
        self._weather_open = self.race.weather_open and out.weather is None
        self._weather_drawn, self._new_weather = 0, None
        pushed_cars: list[str] = []
        for k, (p, r) in enumerate(run.resolved):
            here = paths.get(id(r), "dice")
            cm = _move_of(p)
            if cm is None:
                _check_free_space(p, r, here)
                continue
            claim = _matched_claim(p, r, here, driver)
            applied.append("RX-ADV-01")
            if turn.flat_out:
                applied.append("RX-CONTACTROLL-01")
            if cm.kind == ContactKind.PUSH:
                ev, left = self._push(car, cm, claim, here, ctx, driver, left, pending)
                if cm.cars[0][0] not in pushed_cars:
                    pushed_cars.append(cm.cars[0][0])
            else:
                ev, left = self._through(car, cm, claim, here, driver, left, pending)
                applied += _through_end_rules(cm, here, goes_on=k + 1 < len(run.resolved), lost=out.loc is not None)
            pending.events.append(ev)
        if len(pushed_cars) > 1:
            applied.append("RX-PUSH-09")
        pending.weather_drawn, pending.weather = self._weather_drawn, self._new_weather
        self._pending = pending

    def _draw(self, who: str, n: int, given: list[str], driver: "Driver | None", left: int, rule: str,
              what: str, path: str) -> tuple[list[str], int]:
        """``n`` Damage tokens drawn by ``who`` from a bag holding ``left`` (:mod:`rallyc.rules.core.damage_bag`: the
        draw stops when the bag is empty; under the RX Weather rule the first Weather token drawn counts as one of
        them and turns the weather, a later one is discarded and another token drawn, RX-WEATHER-04/07): drawn by
        the driver when the record has none, else checked."""
        race = self.race
        n = max(0, min(n, left))
        if driver is not None and not given and n:
            given = draw(driver, n, left, self._weather_open)
        race.check_kinds(given, path)
        drawn = count_draw(given, n, self._weather_open)
        check_count(drawn, given, n, left, rule, f"{what}: {who} draws {n} Damage token(s)", path)
        self._weather_drawn += drawn.weather
        if drawn.turns_weather:
            self._weather_open = False
            self._new_weather = "wet" if race.weather == "dry" else "dry"
        check_drawn(race.damage_bag(), self._turn_out, given, "RX-SETUP-02", path)  # a token drawn stays out of the bag
        self._turn_out.update(given)
        return list(given), left - len(given)

    def _push(self, car: "RxCar", cm: ContactMove, claim: ContactClaim, here: str, ctx: PlanContext,
              driver: "Driver | None", left: int, pending: _Pending) -> tuple[ContactEvent, int]:
        """One push the car reached (RX-PUSH-01..15): the impact damage both cars draw (RX-IMPACT-01), the
        Danger tokens the pushed car takes and where it goes; the bag's tokens left after the draws."""
        target, tgear = cm.cars[0]
        dest = cm.dest
        assert dest is not None
        path = f"{here}.push"
        _check_push_claim(cm, claim, path)
        applied = pending.applied
        applied += ["RX-PUSH-01", "RX-PUSH-02", "RX-PUSH-03", "RX-PUSH-04"]
        applied += self._push_rules(cm)
        # impact damage (RX-IMPACT-01): both draw the difference of the speeds
        diff = cm.gear - tgear
        hit, left = self._draw(target, diff, claim.damage.get(target, []), driver, left, "RX-IMPACT-01",
                               f"Gear {cm.gear} into a Gear {tgear} marker", f"{path}.damage")
        mine, left = self._draw(car.name, diff, claim.impact, driver, left, "RX-IMPACT-01",
                                f"Gear {cm.gear} into a Gear {tgear} marker", f"{path}.impact")
        if driver is not None:
            claim.car = target
            claim.damage = {target: hit} if hit else {}
            claim.impact = mine
        if diff > 0:
            applied.append("RX-IMPACT-01")
        pending.damage.setdefault(target, []).extend(hit)
        pending.damage.setdefault(car.name, []).extend(mine)
        took = self._push_danger(cm, claim, ctx, driver, path, pending)
        pending.moves[target] = self._pushed_to(target, dest, pending.moves)
        ev = ContactEvent(ContactKind.PUSH, car.name, cm.space, cm.gear,
                          [{"car": target, "gear": tgear, "from": cm.space, "to": dest, "danger": took,
                            "damage": list(hit)}], list(mine))
        return ev, left

    def _push_rules(self, cm: ContactMove) -> list[str]:
        """The rules a push applies by where it happens: a car in neutral (RX-PUSH-08), pushed again
        (RX-PUSH-10), from a corner, a shortcut or a slide space (RX-PUSH-07/14/15), into a corner (RX-PUSH-12)
        or a zone with slide spaces (RX-PUSH-13)."""
        index = self.race.index
        spaces = index.spaces
        assert cm.dest is not None  # (a push names where the pushed car goes)
        src, ds = spaces[cm.space], spaces[cm.dest]
        rules = []
        if cm.cars[0][1] == 0:
            rules.append("RX-PUSH-08")
        if cm.again:
            rules.append("RX-PUSH-10")
        if src.kind == "corner" or src.lane in ("s1", "s2"):
            rules.append("RX-PUSH-14")
        if (src.kind == "corner" and ds.corner != src.corner) or src.kind == "shortcut" or src.lane in ("s1", "s2"):
            rules.append("RX-PUSH-15")
            if src.kind == "shortcut":
                rules.append("RX-PUSH-07")
        if ds.kind == "corner" and src.corner != ds.corner:
            rules.append("RX-PUSH-12")
        if any(spaces[o].lane in ("s1", "s2") for o in index.zones[ds.zone_key]):
            rules.append("RX-PUSH-13")
        return rules

    def _push_danger(self, cm: ContactMove, claim: ContactClaim, ctx: PlanContext, driver: "Driver | None",
                     path: str, pending: _Pending) -> int:
        """The Danger tokens the pushed car takes (RX-DANGER-01/03/04): its gear over the limit of the space it
        is pushed onto, or one for a jump, water or a track element, never past :data:`MAX_DANGER`; given to
        the claim (driver) or checked against it."""
        target, tgear = cm.cars[0]
        dest = cm.dest
        assert dest is not None
        ds = self.race.index.spaces[dest]
        applied = pending.applied
        lim = effective_limit(ctx, dest, cm.space)
        if lim is not None:
            want, rule = max(0, tgear - lim), "RX-DANGER-01"
            applied += ["RX-PUSH-06", "RX-DANGER-01"]
        elif ds.jump is not None or ds.water or ds.tokens:
            want, rule = 1, "RX-DANGER-03"
            applied += ["RX-PUSH-06", "RX-DANGER-03"]
        else:
            want, rule = 0, "RX-DANGER-01"
        held = self.danger[target] + pending.danger.get(target, 0)
        took = min(want, MAX_DANGER - held)
        if took < want:
            applied.append("RX-DANGER-04")
        if driver is not None:
            claim.danger = took or None
        if (claim.danger or 0) != took:
            why = (f"pushed onto {dest} (limit {lim}) with its Gear {tgear} marker" if lim is not None
                   else f"pushed onto {dest} ({'a jump' if ds.jump is not None else 'water' if ds.water else 'a track element'})")
            cap = f", holding {held} of at most {MAX_DANGER}" if took < want else ""
            raise IllegalMove(rule, f"{target} {why} takes {took} Danger token(s){cap}: record `danger: {took}`"
                              if claim.danger is None else
                              f"{target} {why} takes {took} Danger token(s){cap}, not {claim.danger}",
                              f"{path}.danger")
        pending.danger[target] = pending.danger.get(target, 0) + took
        return took

    def _pushed_to(self, target: str, dest: str, moves: dict[str, Spot]) -> Spot:
        """Where the pushed car stands once pushed onto ``dest`` (space, distance, crossings, Joker, left
        Pre-grid): it moves with its Gear marker, laps and the Joker follow it; from where an earlier push of
        this turn left it, if any."""
        tcar = self.race.cars[target]
        prev = moves.get(target)
        base = replace(tcar, space=prev[0], distance=prev[1], crossed=prev[2], joker=prev[3],
                       left_pregrid=prev[4]) if prev else tcar
        d, crossed, joker, lft = self.race._drive(base, [dest])[0]
        return (dest, d, crossed, joker, lft)

    def _through(self, car: "RxCar", cm: ContactMove, claim: ContactClaim, here: str, driver: "Driver | None",
                 left: int, pending: _Pending) -> tuple[ContactEvent, int]:
        """One Push Through the car reached (RX-THROUGH-01..08): the Damage tokens each car alongside and the
        pusher draw; the bag's tokens left after the draws."""
        damage, where, applied = pending.damage, pending.moves, pending.applied
        path = f"{here}.through"
        names = {n for n, _ in cm.cars}
        extra = set(claim.damage) - names
        if extra:
            raise IllegalMove("RX-THROUGH-07", f"the cars alongside {cm.space} are {', '.join(sorted(names))}, not "
                                               f"{', '.join(sorted(extra))}", f"{path}.damage")
        if claim.danger:
            raise IllegalMove("RX-DANGER-01", "a Push Through moves nobody: no Danger token is taken",
                              f"{path}.danger")
        applied += ["RX-THROUGH-01", "RX-THROUGH-02", "RX-PUSH-11", "RX-THROUGH-07", "RX-THROUGH-08"]
        cars: list[HitCar] = []
        drawn: dict[str, list[str]] = {}
        for name, g in cm.cars:  # RX-THROUGH-07: each car alongside draws the die's gear minus its own
            got, left = self._draw(name, cm.gear - g, claim.damage.get(name, []), driver, left, "RX-THROUGH-07",
                                   f"a Gear {cm.gear} Push Through against Gear {g}", f"{path}.damage.{name}")
            drawn[name] = got
            damage.setdefault(name, []).extend(got)
            here_now = where[name][0] if name in where else self.race.cars[name].space
            cars.append({"car": name, "gear": g, "from": here_now, "to": here_now, "danger": 0, "damage": list(got)})
        low = min(g for _, g in cm.cars)  # RX-THROUGH-08: the pusher draws the die minus the lowest gear
        mine, left = self._draw(car.name, cm.gear - low, claim.impact, driver, left, "RX-THROUGH-08",
                                f"a Gear {cm.gear} Push Through, lowest Gear {low}", f"{path}.impact")
        damage.setdefault(car.name, []).extend(mine)
        if driver is not None:
            claim.damage = {n: t for n, t in drawn.items() if t}
            claim.impact = mine
        return ContactEvent(ContactKind.THROUGH, car.name, cm.space, cm.gear, cars, list(mine)), left

    # -- commit
    def commit(self, car: "RxCar", out: "RxOutcome") -> tuple[str, ...]:
        """Apply the resolved turn's contact to the race (after the race's own commit); the rule IDs applied."""
        race = self.race
        pending = self._pending
        held = self.danger[car.name]
        self.danger[car.name] = 0  # RX-DANGER-07: discarded at the end of the turn
        if pending is None:  # nothing pushed, drawn or taken (Contact.resolve)
            out.contact = []
            return ("RX-DANGER-07",) if held else ()
        self._pending = None
        applied = list(pending.applied)
        if held:
            applied.append("RX-DANGER-07")
        for name, (space, d, crossed, joker, left) in pending.moves.items():
            c = race.cars[name]
            c.space, c.distance, c.crossed, c.joker, c.left_pregrid = space, d, crossed, joker, left
        for name, tokens in pending.damage.items():
            applied += self._take_damage(name, tokens)
        applied += self._turn_weather(pending, out)
        for name, n in pending.danger.items():
            self.danger[name] = min(MAX_DANGER, self.danger[name] + n)
        applied += self._retire_damaged(car, sorted(set(pending.damage) | set(pending.moves)), out)
        out.contact = pending.events
        return tuple(dict.fromkeys(applied))

    def _take_damage(self, name: str, tokens: list[str]) -> list[str]:
        """The Damage tokens ``name`` drew go on its Dashboard (RX-DAMAGE-01/10), a yellow flag on the tile where
        it stands (reading 28, RX-DAMAGE-03); a Weather token is the weather's (:meth:`_turn_weather`)."""
        race = self.race
        c = race.cars[name]
        applied = []
        for t in tokens:
            if t == WEATHER:
                continue  # the weather's (RX-WEATHER-04/07)
            if t == "yellow":  # reading 28: on the tile where the drawer stands
                step = race.index.spaces[c.space].step
                if step not in race.yellow:
                    race.yellow_pairs[step] = race._pairs_alongside(step)
                race.yellow.setdefault(step, []).append(name)
                race.yellow_drawn += 1
                applied.append("RX-DAMAGE-03")
            else:
                c.damage[t] += 1
        if any(t != WEATHER for t in tokens):
            applied += ["RX-DAMAGE-01", "RX-DAMAGE-10"]
        return applied

    def _turn_weather(self, pending: _Pending, out: "RxOutcome") -> list[str]:
        """The Weather tokens drawn for impacts leave the bag (RX-WEATHER-03), those after the first are
        discarded (RX-WEATHER-07), and the first turns every Dashboard over once the draws are done
        (RX-WEATHER-04)."""
        race = self.race
        applied = []
        if pending.weather_drawn:
            race.weather_drawn += pending.weather_drawn
            applied.append("RX-WEATHER-03")
            if pending.weather_drawn > (1 if pending.weather else 0):
                applied.append("RX-WEATHER-07")
        if pending.weather:
            race.weather, race.weather_changed = pending.weather, True
            out.weather = pending.weather
            applied.append("RX-WEATHER-04")
        return applied

    def _retire_damaged(self, car: "RxCar", names: list[str], out: "RxOutcome") -> list[str]:
        """CORE-RETIRE-01: a car pushed or damaged with no Gear die left retires; it takes no more turns, not even
        later in this round, and its flags go when the race removes a retired car's."""
        race = self.race
        applied = []
        for name in names:
            c = race.cars[name]
            if c.status == RaceStatus.ROAD and rx_allowance(c.dashboard, c.damage).gear <= 0:
                c.status = RaceStatus.RETIRED
                applied.append("CORE-RETIRE-01")
                if name == car.name:
                    out.retired = True
                elif name in race.order[race.position + 1:]:
                    race.order.remove(name)
                if race.components.reading("rx_retired_flag") == "removed":
                    race._remove_flags(name)
        return applied

    def start_rules(self, car: "RxCar", ctx: PlanContext, loc: bool) -> tuple[str, ...]:
        """The Danger rules at the start of ``car``'s turn."""
        n = self.danger[car.name]
        if not n:
            return ()
        out = ["RX-DANGER-05" if loc else "RX-DANGER-06"]
        lim = effective_limit(ctx, car.space)
        if lim is not None and lim < car.gear:
            out.append("RX-DANGER-02")
        return tuple(out)


def contact_claim_from_json(kind: str, d: Mapping[str, Any]) -> ContactClaim:
    """A die's ``push`` or ``through`` object as a :class:`ContactClaim`."""
    dmg = d.get("damage", {})
    return ContactClaim(ContactKind(kind), d.get("car"), d.get("danger"),
                        {k: list(v) for k, v in dmg.items()} if isinstance(dmg, dict) else {},
                        list(d.get("impact", [])))


def contact_claim_to_json(c: ContactClaim) -> dict[str, object]:
    """A :class:`ContactClaim` as a die's ``push`` or ``through`` object."""
    out: dict[str, object] = {}
    if c.car is not None:
        out["car"] = c.car
    if c.danger:
        out["danger"] = c.danger
    damage = {k: list(v) for k, v in sorted(c.damage.items()) if v}
    if damage:
        out["damage"] = damage
    if c.impact:
        out["impact"] = list(c.impact)
    return out
