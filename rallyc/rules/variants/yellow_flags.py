"""Yellow Flags on the track (RX book, Damage tokens > Yellow Flag: RX-DAMAGE-03..08), for every game form whose
Damage bag holds them: the RX race (:class:`~rallyc.rules.core.race.Race`) and a Time Trial under Speed Track rules with
the GT or light Damage set (:class:`~rallyc.rules.variants.speed_trial.SpeedTimeTrial`, CUSTOM-18/22).

A flag drawn is placed on the route step of the tile where the car lost control (RX-DAMAGE-03); while it is there, no
car moves alongside a car in Gear 1 or more on that tile or the tiles directly before and after it (RX-DAMAGE-04/05),
except beside the cars it was already alongside when the flag was placed (RX-DAMAGE-06); several flags on one tile
are one (RX-DAMAGE-07); when its drawer starts a later turn in Gear 0 the flag goes to its Dashboard (RX-DAMAGE-08).
The state is a game form's own (``flags``: route step -> the drawers; ``pairs``: route step -> the pairs of cars
alongside when it was placed); these functions read and build it. The RX race reaches them through the core's hook
:class:`~rallyc.rules.core.hooks.TrackFlags` (:class:`YellowFlags`); the Time Trial calls them directly.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Protocol

from rallyc.compiler.track import Space
from rallyc.rules.core.hooks import Flags, Pairs
from rallyc.rules.core.state import TrackIndex, step_neighbours

__all__ = ["step_neighbours", "flags_in_force", "flag_steps", "pairs_alongside", "flag_limits", "Flags", "Pairs",
           "SpaceIndex", "YellowFlags"]


class SpaceIndex(Protocol):
    """What these functions read of a track's index (:class:`~rallyc.rules.core.state.TrackIndex`)."""

    @property
    def spaces(self) -> Mapping[str, Space]: ...

    @property
    def alongside(self) -> Mapping[str, list[str]]: ...


def flags_in_force(flags: Flags, mover: str, from_gear0: bool) -> Flags:
    """The flags at the start of ``mover``'s turn: its own go to its Dashboard if it starts in Gear 0
    (RX-DAMAGE-08)."""
    out: Flags = {}
    for step, holders in flags.items():
        if from_gear0 and mover in holders:
            keep = [h for h in holders if h != mover]
            if keep:
                out[step] = keep
        elif holders:
            out[step] = holders[:]  # (a copy, as the filtered list: the caller keeps and extends it)
    return out


def flag_steps(neighbours: dict[int, set[int]], step: int) -> set[int]:
    """The route steps a Yellow Flag on ``step`` covers: its tile and the tiles directly before and after
    (RX-DAMAGE-04)."""
    return {step} | neighbours.get(step, set())


def pairs_alongside(index: SpaceIndex, neighbours: dict[int, set[int]], step: int, cars: Iterable[tuple[str, str]]
                    ) -> set[frozenset[str]]:
    """Pairs of cars on the track (``cars``: (name, space) of each) alongside each other, one of them under a flag on
    ``step``, as the flag is placed: they may move normally while it stays (RX-DAMAGE-06). Two cars sharing a space
    after a Push Through, one "set to one side of the car already in it" (RX-THROUGH-04), are alongside each
    other."""
    covered = flag_steps(neighbours, step)
    by_space: dict[str, list[str]] = {}
    for name, sid in cars:
        by_space.setdefault(sid, []).append(name)
    out: set[frozenset[str]] = set()
    for sid, names in by_space.items():
        if index.spaces[sid].step not in covered:
            continue
        for i, who in enumerate(names):
            out.update(frozenset((who, other)) for other in names[i + 1:])
            for o in index.alongside[sid]:
                out.update(frozenset((who, other)) for other in by_space.get(o, ()))
    return out


def flag_limits(index: SpaceIndex, neighbours: dict[int, set[int]], in_force: Flags, pairs: Pairs, mover: str,
                others: Iterable[tuple[str, str]], covered: dict[frozenset[int], frozenset[str]] | None = None
                ) -> tuple[frozenset[str], frozenset[str]]:
    """What the flags in force forbid ``mover`` this turn: the spaces where it may not move alongside a car in Gear 1
    or more (RX-DAMAGE-04), and the spaces of the cars (``others``: (name, space) of the other cars on the track) it
    was already alongside when a flag was placed (RX-DAMAGE-06): the plan context's ``no_alongside`` and
    ``alongside_before_flag``. ``covered`` keeps the spaces of each set of flagged route steps of this ``index``
    (the caller's, per track) so that the track's spaces are scanned once per set."""
    flagged: set[int] = set()
    near: set[frozenset[str]] = set()
    for step in in_force:
        flagged |= flag_steps(neighbours, step)
        near |= pairs.get(step, set())
    if not flagged:
        no_alongside: frozenset[str] = frozenset()
    elif covered is None:
        no_alongside = frozenset(s.id for s in index.spaces.values() if s.step in flagged)
    else:
        steps = frozenset(flagged)
        got = covered.get(steps)
        if got is None:
            got = covered[steps] = frozenset(s.id for s in index.spaces.values() if s.step in flagged)
        no_alongside = got
    if not near:  # no pair alongside when a flag was placed: the others' cars are not read
        return no_alongside, frozenset()
    before: list[str] = []
    for name, space in others:  # (a loop: a generator's frame costs more)
        if frozenset((mover, name)) in near:
            before.append(space)
    return no_alongside, frozenset(before)


class YellowFlags:
    """The Yellow Flags of an RX race's track (the core's :class:`~rallyc.rules.core.hooks.TrackFlags`): the
    functions above on the track's index and the neighbours of its route steps."""

    def __init__(self, index: TrackIndex) -> None:
        self.index = index
        self.neighbours = index.step_neighbours

    def in_force(self, flags: Flags, mover: str, from_gear0: bool) -> Flags:
        """:func:`flags_in_force` (RX-DAMAGE-08)."""
        return flags_in_force(flags, mover, from_gear0)

    def board(self, in_force: Flags, pairs: Pairs, mover: str, others: Iterable[tuple[str, str]],
              covered: dict[frozenset[int], frozenset[str]]) -> tuple[frozenset[str], frozenset[str]]:
        """:func:`flag_limits` on this track (RX-DAMAGE-04/06)."""
        return flag_limits(self.index, self.neighbours, in_force, pairs, mover, others, covered)

    def placed(self, step: int, cars: Iterable[tuple[str, str]]) -> set[frozenset[str]]:
        """:func:`pairs_alongside` on this track (RX-DAMAGE-06)."""
        return pairs_alongside(self.index, self.neighbours, step, cars)
