"""Find the parts of an RX circuit laid out on the grid: main loop, Joker branch and Pre-grid.

Rekee and RGT files hold tiles on cells and the three arches as tokens, not
which road of a fork tile the race takes. This module works that out from the
tiles' roads alone (TRACK-RX-01, -03, -07, -08):

- the **main loop** is a closed cycle of driven roads, each tile edge used once
  (a fork tile is driven on one of its roads);
- the **Joker** is a chain of the other tiles that leaves the loop through a
  fork tile (a road of the fork from the loop's entry edge to the chain) and
  rejoins it through another (a road from the chain to the loop's exit edge);
- the **Pre-grid** is a chain that starts open (no road of a neighbouring
  tile leads into it) and leads into the loop through a fork tile.

Every tile must be on one of the three. Several layouts may fit (the two ways
between two forks, the two directions round the loop); they are ranked:

1. the arches agree: the finish arch on a loop tile and not in the stretch the
   Joker bypasses (TRACK-RX-06), the Joker's entrance arch on the fork where
   the Joker leaves or on the Joker, its exit arch on the fork where it
   rejoins or on the Joker (the arches are what the files carry);
2. the loop drives its fork tiles on their through roads, the Joker and the
   Pre-grid on their branch links (roads with a half-line zone or a ``merge``
   zone, as the tilesets write fork tiles: the rulebook's "Fork tiles ... add
   the Joker lap and Pre-grid entry to your circuit");
3. the race flows through every fork as a Y, never back through a hairpin: the road of a fork
   tile that carries the Pre-grid into the loop, and those that take the Joker out and back in,
   turn by at most 60 degrees where the fork has such a road (408a links its branch by 120-degree
   roads only; 404a joins its branch edge to one end of its straight by a 60-degree road and to
   the other by a 120-degree one). This is what tells the direction of the race when the file
   has no arches: a car leaving the Pre-grid merges forward into the loop;
4. the longer loop (the Joker is "a separate length of track" beside it);
5. the Joker bypassing the shorter stretch of the loop;
6. file order (deterministic).

The loop is turned to start at the tile of the finish arch (else at its tile
that comes first in the file), so that ``standee finish at 1.Z``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from rallyc.geometry.hexgrid import Hex, edge_index, neighbour, opposite, world_to_own
from rallyc.interop.result import Drive
from rallyc.interop.model import TileRecord
from rallyc.syntax import ast
from rallyc.tiles.catalogue import TileInfo

__all__ = ["RxLayout", "rx_layouts", "MAX_STATES"]

#: bound on the search (states visited) so that a large file cannot take long; the search is
#: deterministic, so a file that reaches the bound gets the same answer every time
MAX_STATES = 200_000


@dataclass(frozen=True)
class RxLayout:
    """One reading of the tiles: loop, Joker and Pre-grid steps, each in driving order."""

    loop: tuple[Drive, ...]
    joker: tuple[Drive, ...] = ()
    pregrid: tuple[Drive, ...] = ()
    #: how well the arches fit (0 = all where they should be); lower is better
    misfits: int = 0
    #: positions in ``loop`` (0-based) of the fork the Joker leaves and of the fork it rejoins
    forks: tuple[int, int] | None = None

    @property
    def steps(self) -> list[Drive]:
        """Every step in the order written: the loop, then the Joker, then the Pre-grid."""
        return list(self.loop) + list(self.joker) + list(self.pregrid)


def _cell(d: Drive) -> Hex:
    return Hex(d.tile.q, d.tile.r)


def _own(d: Drive, forward_entry: bool) -> str:
    """The driven road's own entry (or exit) edge."""
    rd = d.road_def
    if forward_entry:
        return rd.entry if d.forward else rd.exit
    return rd.exit if d.forward else rd.entry


def is_branch_road(road: ast.RoadDef) -> bool:
    """A fork tile's branch link: it has a half-line zone or a zone the branch merges through."""
    return any(isinstance(z, ast.Zone) and (z.merge or z.kind == "half") for z in road.items)


class _Grid:
    """The road tiles by cell and every way each can be driven."""

    def __init__(self, road_tiles: list[tuple[TileRecord, TileInfo]]):
        self.order = {Hex(t.q, t.r): k for k, (t, _) in enumerate(road_tiles)}
        self.drives: dict[Hex, list[Drive]] = {}
        for t, info in road_tiles:
            out = []
            for n, rd in enumerate(info.roads, start=1):
                if rd.exit == "end":
                    continue  # a dead end (Assistance) is on no loop nor branch
                out += [Drive(t, info, n, True), Drive(t, info, n, False)]
            self.drives[Hex(t.q, t.r)] = out

    def ahead(self, d: Drive) -> list[Drive]:
        """The drives that continue ``d`` on the neighbouring tile."""
        exit_world = cast(str, d.exit_world)  # drives with a dead end are left out of the grid
        cell = neighbour(_cell(d), exit_world)
        want = opposite(exit_world)
        return [n for n in self.drives.get(cell, []) if n.entry_world == want]

    def behind(self, d: Drive) -> list[Drive]:
        """The drives that lead into ``d`` from the neighbouring tile."""
        cell = neighbour(_cell(d), d.entry_world)
        want = opposite(d.entry_world)
        return [p for p in self.drives.get(cell, []) if p.exit_world == want]

    def key(self, d: Drive) -> tuple:
        return (self.order[_cell(d)], d.road, not d.forward)


def _edges(d: Drive) -> set[tuple[Hex, str]]:
    return {(_cell(d), d.entry_world), (_cell(d), cast(str, d.exit_world))}


def _cycles(grid: _Grid) -> list[tuple[Drive, ...]]:
    """Every closed cycle of drives that uses each tile edge once, each found once (from its least drive)."""
    found: list[tuple[Drive, ...]] = []
    states = 0
    every = sorted((d for ds in grid.drives.values() for d in ds), key=grid.key)
    rank = {id(d): k for k, d in enumerate(every)}
    for start in every:
        stack = [(start, [start], _edges(start))]
        while stack:
            states += 1
            if states > MAX_STATES:
                return found
            cur, path, used = stack.pop()
            for nxt in sorted(grid.ahead(cur), key=grid.key, reverse=True):
                if nxt is start:
                    found.append(tuple(path))
                    continue
                if rank.get(id(nxt), -1) < rank[id(start)]:
                    continue
                e = _edges(nxt)
                if e & used:
                    continue
                stack.append((nxt, path + [nxt], used | e))
    return found


def _fork_links(loop_drive: Drive, branch_world: str, leaving: bool) -> list[ast.RoadDef]:
    """The other roads of the loop's fork tile joining its loop road to ``branch_world`` (from the loop
    entry when ``leaving``, else to the loop exit), as the compiler attaches branches."""
    own = world_to_own(branch_world, loop_drive.tile.rot)
    entry, exit_ = _own(loop_drive, True), _own(loop_drive, False)
    out = []
    for n, rd in enumerate(loop_drive.info.roads, start=1):
        if n == loop_drive.road or rd.exit == "end":
            continue
        for a, b in ((rd.entry, rd.exit), (rd.exit, rd.entry)):
            if (leaving and a == entry and b == own) or (not leaving and a == own and b == exit_):
                out.append(rd)
                break
    return out


def _fork_road(loop_drive: Drive, branch_world: str, leaving: bool) -> bool:
    """True when the loop's fork tile has a road joining its loop road to ``branch_world`` (see _fork_links)."""
    return bool(_fork_links(loop_drive, branch_world, leaving))


def _sharp(rd: ast.RoadDef) -> bool:
    """A road between two neighbouring edges of its tile: a 120-degree hairpin."""
    return (edge_index(rd.exit) - edge_index(rd.entry)) % 6 in (1, 5)


def _hairpin_links(joker, pregrid) -> int:
    """How many of the Pre-grid's join and the Joker's leave and rejoin go through a 120-degree fork road
    where the fork tile would have a gentler one the other way round (see the module docstring)."""
    links = []
    if joker is not None:
        links.append(_fork_links(joker[0], opposite(joker[1][0].entry_world), leaving=True))
        links.append(_fork_links(joker[2], opposite(joker[1][-1].exit_world), leaving=False))
    if pregrid is not None:
        links.append(_fork_links(pregrid[2], opposite(pregrid[1][-1].exit_world), leaving=False))
    return sum(1 for roads in links if roads and all(_sharp(rd) for rd in roads))


def _through(loop: dict[Hex, Drive], d: Drive, leaving: bool) -> Drive | None:
    """The loop fork ``d`` leaves from (``leaving``: across its entry) or joins (across its exit), or None."""
    edge = d.entry_world if leaving else cast(str, d.exit_world)
    fork = loop.get(neighbour(_cell(d), edge))
    if fork is None or not _fork_road(fork, opposite(edge), leaving):
        return None
    return fork


def _branches(grid: _Grid, loop: dict[Hex, Drive], rest: set[Hex]):
    """(Joker chains, Pre-grid chains) over the cells of ``rest``, as (fork left, chain, fork joined)."""
    jokers, pregrids = [], []
    for cell in sorted(rest, key=lambda c: grid.order[c]):
        for d in grid.drives[cell]:
            joined = _through(loop, d, leaving=False)
            if joined is None:
                continue
            # walk backwards from the drive that joins the loop
            stack = [[d]]
            while stack:
                chain = stack.pop()
                first = chain[0]
                left = _through(loop, first, leaving=True)
                if left is not None:
                    jokers.append((left, tuple(chain), joined))
                if not grid.behind(first):  # open at the back: no road leads into it
                    pregrids.append((None, tuple(chain), joined))
                cells = {_cell(x) for x in chain}
                for prev in grid.behind(first):
                    if _cell(prev) in rest and _cell(prev) not in cells:
                        stack.append([prev] + chain)
    return jokers, pregrids


def _misfits(arches: dict[Hex, set[str]], loop: dict[Hex, Drive], joker) -> int:
    bad = 0
    for cell, kinds in arches.items():
        if "finish" in kinds and cell not in loop:
            bad += 1
        for kind, end in (("joker-entry", 0), ("joker-exit", 2)):
            if kind not in kinds:
                continue
            if joker is None:
                bad += 1
                continue
            ok = {_cell(joker[end])} | {_cell(x) for x in joker[1]}
            bad += cell not in ok
    return bad


def _finish_inside(arches: dict[Hex, set[str]], loop: tuple[Drive, ...], forks) -> int:
    """1 when the finish arch's tile lies in the loop stretch the Joker bypasses (TRACK-RX-06), else 0."""
    if forks is None:
        return 0
    cells = [_cell(d) for d in loop]
    a, b = forks
    for cell, kinds in arches.items():
        if "finish" in kinds and cell in cells:
            f = cells.index(cell)
            return int(0 < (f - a) % len(loop) < (b - a) % len(loop))
    return 0


def _turned(loop: tuple[Drive, ...], arches: dict[Hex, set[str]], grid: _Grid) -> tuple[Drive, ...]:
    """The loop starting at the finish arch's tile, else at its tile that comes first in the file."""
    finish = [c for c, kinds in arches.items() if "finish" in kinds]
    cells = [_cell(d) for d in loop]
    at = next((cells.index(c) for c in finish if c in cells), None)
    if at is None:
        at = min(range(len(loop)), key=lambda k: grid.key(loop[k]))
    return loop[at:] + loop[:at]


def rx_layouts(road_tiles: list[tuple[TileRecord, TileInfo]],
               arches: dict[Hex, set[str]] | None = None) -> list[RxLayout]:
    """Every reading of the tiles as loop + Joker + Pre-grid, best first (see the module docstring).

    ``arches``: cell -> the standees (``finish``, ``joker-entry``, ``joker-exit``) on that tile.
    Empty when no closed loop takes in all the tiles.
    """
    arches = arches or {}
    grid = _Grid(road_tiles)
    cells = set(grid.drives)
    ranked = []
    for cycle in _cycles(grid):
        loop: dict[Hex, Drive] = {}
        for d in cycle:
            loop.setdefault(_cell(d), d)
        rest = cells - set(loop)
        options = [(None, None)]
        if rest:
            jokers, pregrids = _branches(grid, loop, rest)
            options = []
            for j in [None] + jokers:
                for p in [None] + pregrids:
                    used = [_cell(x) for part in (j, p) if part for x in part[1]]
                    if len(used) == len(set(used)) and set(used) == rest:
                        options.append((j, p))
        on_branch = sum(1 for d in cycle if len(d.info.roads) > 2 and is_branch_road(d.road_def))
        turned = _turned(cycle, arches, grid)
        for j, p in options:
            forks = (turned.index(j[0]), turned.index(j[2])) if j else None
            stretch = (forks[1] - forks[0]) % len(turned) if forks else 0
            misfits = _misfits(arches, loop, j) + _finish_inside(arches, turned, forks)
            layout = RxLayout(turned, j[1] if j else (), p[1] if p else (), misfits, forks)
            order = tuple(grid.key(d) for d in layout.steps)
            sharp = _hairpin_links(j, p)
            ranked.append(((misfits, on_branch, sharp, -len(cycle), stretch, order), layout))
    ranked.sort(key=lambda x: x[0])
    return [layout for _, layout in ranked]
