"""The other side's plans: where it can still build a group worth more than any the target can
reach, in more places than the target has stones to spoil (issue 40, the forced search's
``outbuilt`` cut).

A *plan* of a colour X is a path ``P`` on the board that would be a connection part of X's
once X's stones stood on all of its points: both ends on the rim, no other point of it on the
rim, no two of its points touching unless they follow each other (chordless). Its points are
X's stones or empty points (the plan's *new* points). Were X to add the new points, the group
holding ``P`` is the flood of X's stones from ``P``; ``P`` stays a connection part of that group
whatever else it holds (the three conditions are about ``P`` alone), so the group's value in the
longest reading is at least ``2|P| - |group|`` (:func:`plan_value`; the value of a group is
``2 |connection part| - |group|``, the owner taking the longest part).

Why plans decide nothing for the target (the proof behind :meth:`PlanPool.outbuilt`). At a node
of the forced search with the target T to move in ``n`` own moves at most, suppose X has
``n + 1`` plans whose new points are pairwise disjoint, each worth more than ``b``, an upper
bound on the highest group value T can have after adding ``n`` stones; and suppose at least
``2n`` empty points are *spare*: for every chosen plan, the point is one of its new points or
touches no stone of its group. X defends by placing, at each of its turns, a stone on a spare
point still empty, and never passes (there is one: X places at most ``n`` stones before T's
``n``-th move and T at most ``n``, so fewer than ``2n`` spare points are taken). Then:

- no game ends within the search's depth: two passes in a row would need one of X's; the one
  exception is T's pass ending the game at once when X has just passed, which the cut leaves
  to the caller (it does not fire then);
- every other goal of T's is a *decided* position right after one of T's moves: X cannot win
  even by adding every stone it likes. But T's stones since the node are at most ``n``, each on
  at most one plan's new points, so some chosen plan has none: its new points are empty or
  X's own (spare stones). X adds the empty ones and passes; its stones then hold the plan's
  group exactly as counted (X's other stones since the node are on spare points: those in this
  plan are counted in it, the others touch none of its group), worth more than ``b``; T's best
  group is worth at most ``b`` (T's values depend on T's stones only). The highest values are
  compared first, so X wins: the position was not decided.

So T has no forced win within the depth: the node is lost (``hopeless``) for the search.
Nothing here calls a solver: the bound ``b`` is the caller's (a proved ``reach --best``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable, Sequence

from placesat.core.lattice import Point

from .model import Position, opponent
from .rules import board_order, is_connection_part, neighbour_table


@dataclass(frozen=True)
class Plan:
    """A path that would be a connection part of ``colour``'s with stones on all its points."""

    path: tuple[Point, ...]
    points: frozenset[Point]


def plan_group(position: Position, colour: str, plan: Plan) -> frozenset[Point] | None:
    """The group that would hold ``plan``'s path were ``colour``'s stones on all of its empty
    points (the flood of ``colour``'s stones from the path), or None when a point of the path
    holds the other colour's stone."""
    own = position.stones(colour)
    if not plan.points.isdisjoint(position.stones(opponent(colour))):
        return None
    joined = neighbour_table(position.lattice)
    group = set(plan.points)
    queue = deque(plan.points)
    while queue:
        for nxt in joined[queue.popleft()]:
            if nxt in own and nxt not in group:
                group.add(nxt)
                queue.append(nxt)
    return frozenset(group)


def plan_value(plan: Plan, group: Iterable[Point]) -> int:
    """The least value of the group holding the plan's path: the path is a connection part of
    it, so the longest reading gives at least ``2 |path| - |group|``."""
    return 2 * len(plan.path) - len(frozenset(group))


def _shortest_paths(position: Position, allowed: set[Point]) -> list[tuple[Point, ...]]:
    """For each two rim points of ``allowed``, one shortest path between them through the
    points of ``allowed`` off the rim. A shortest path in the board restricted to these points
    has no chord (a chord would be a shorter path), so it is a plan's path."""
    lattice = position.lattice
    joined = neighbour_table(lattice)
    rims = sorted((p for p in allowed if lattice.is_edge(p)), key=board_order)
    paths = []
    for i, start in enumerate(rims):
        parent: dict[Point, Point | None] = {start: None}
        depth = {start: 0}
        queue = deque([start])
        while queue:
            point = queue.popleft()
            for nxt in joined[point]:
                if nxt in allowed and nxt not in parent and not lattice.is_edge(nxt):
                    parent[nxt] = point
                    depth[nxt] = depth[point] + 1
                    queue.append(nxt)
        for end in rims[i + 1 :]:
            before = [p for p in joined[end] if p in depth]
            if not before:
                continue
            step: Point | None = min(before, key=lambda p: (depth[p], board_order(p)))
            path = [end]
            while step is not None:
                path.append(step)
                step = parent[step]
            paths.append(tuple(path))
    return paths


def _every_path(position: Position, allowed: set[Point], most: int) -> list[tuple[Point, ...]] | None:
    """Every chordless path between two rim points of ``allowed`` through its points off the
    rim (each once, from its end first in board order), or None past ``most`` of them."""
    lattice = position.lattice
    joined = neighbour_table(lattice)
    paths: list[tuple[Point, ...]] = []

    def extend(path: list[Point], on: set[Point]) -> bool:
        last = path[-1]
        for nxt in joined[last]:
            if nxt not in allowed or nxt in on:
                continue
            # a chord: the new point touching any path point but the last
            if any(q in on and q != last for q in joined[nxt]):
                continue
            if lattice.is_edge(nxt):
                if board_order(nxt) > board_order(path[0]):
                    paths.append((*path, nxt))
                    if len(paths) > most:
                        return False
                continue
            path.append(nxt)
            on.add(nxt)
            going = extend(path, on)
            path.pop()
            on.discard(nxt)
            if not going:
                return False
        return True

    for start in sorted((p for p in allowed if lattice.is_edge(p)), key=board_order):
        if not extend([start], {start}):
            return None
    return paths


EVERY_PATH_POINTS = 19
"""Every chordless path is a plan on at most this many open points (the 3-side board: 195
paths on the empty board, 0.01 s; the empty 4-side board has 6,663, 0.5 s, too dear for every
search of ``best``), else the shortest paths."""
EVERY_PATH_MOST = 20_000
"""Past this many chordless paths, plans are only the shortest paths."""


def plan_candidates(position: Position, colour: str) -> list[Plan]:
    """Plans of ``colour``'s on this board: every chordless rim-to-rim path through its stones
    and the empty points on a small board (:data:`EVERY_PATH_POINTS`, :data:`EVERY_PATH_MOST`); else the shortest
    paths through its stones and the empty points, through the empty points only, and through
    the empty points that touch none of its stones (where a path's group is the path itself).
    Each is checked by :func:`placesat.laido.rules.is_connection_part`."""
    own = position.stones(colour)
    empty = set(position.empty_points)
    joined = neighbour_table(position.lattice)
    free = {p for p in empty if not any(q in own for q in joined[p])}
    found: dict[frozenset[Point], Plan] = {}
    every = _every_path(position, empty | own, EVERY_PATH_MOST) if len(empty | own) <= EVERY_PATH_POINTS else None
    kinds = [every] if every is not None else [_shortest_paths(position, allowed) for allowed in (empty | own, empty, free)]
    for paths in kinds:
        for path in paths:
            points = frozenset(path)
            if points not in found and is_connection_part(position.lattice, points, path):
                found[points] = Plan(path, points)
    return list(found.values())


@dataclass
class Outbuilt:
    """The plans chosen at a node and the spare points (see the module's text)."""

    plans: list[tuple[Plan, frozenset[Point], int]]  # each plan, its group there, its least value
    spare: int


class PlanPool:
    """``colour``'s plans found once on an ``anchor`` position, tried again at every position
    that follows it (a stone of the other colour on a plan's path spoils it; a stone of
    ``colour``'s touching its group can only lower its value, so a plan worth too little at the
    anchor is never tried)."""

    def __init__(self, anchor: Position, colour: str) -> None:
        self.anchor = anchor
        self.colour = colour
        empty = set(anchor.empty_points)
        scored = []
        for plan in plan_candidates(anchor, colour):
            group = plan_group(anchor, colour, plan)
            if group is not None:
                scored.append((len(plan.points & empty), len(group), plan, plan_value(plan, group)))
        scored.sort(key=lambda s: (s[0], s[1], sorted(map(board_order, s[2].path))))
        self._scored = [(plan, value) for _, _, plan, value in scored]
        self._worth: dict[int, list[Plan]] = {}

    def worth_more_than(self, bound: int) -> list[Plan]:
        """The plans worth more than ``bound`` at the anchor, fewest new points first."""
        kept = self._worth.get(bound)
        if kept is None:
            kept = self._worth[bound] = [plan for plan, value in self._scored if value > bound]
        return kept

    def outbuilt(self, position: Position, bound: int, plans: int, spare: int, tries: int = 1) -> Outbuilt | None:
        """``plans`` plans of the pool whose new points at ``position`` are pairwise disjoint,
        each worth more than ``bound`` there, with at least ``spare`` spare points; None when
        the greedy choice (fewest new points first) finds none. ``tries``: start the greedy
        choice from each of the first ``tries`` plans that hold there in turn (one missing plan
        is often a matter of which plans came first)."""
        empty = set(position.empty_points)
        worth = self.worth_more_than(bound)
        holding: dict[int, tuple[frozenset[Point], int] | None] = {}  # by place in ``worth``

        def holds(i: int) -> tuple[frozenset[Point], int] | None:
            """The plan's group and value at ``position`` when it is worth more than ``bound`` there."""
            if i not in holding:
                group = plan_group(position, self.colour, worth[i])
                value = None if group is None else plan_value(worth[i], group)
                holding[i] = None if value is None or value <= bound else (group, value)
            return holding[i]

        firsts: list[int] = []
        for i in range(len(worth)):
            if len(firsts) == tries:
                break
            if holds(i) is not None:
                firsts.append(i)
        for first in firsts:
            used: set[Point] = set()
            chosen: list[tuple[Plan, frozenset[Point], int]] = []
            for i in [first, *range(len(worth))]:
                plan = worth[i]
                new = plan.points & empty
                if not used.isdisjoint(new) or (chosen and i == first):
                    continue
                held = holds(i)
                if held is None:
                    continue
                chosen.append((plan, *held))
                used |= new
                if len(chosen) == plans:
                    free = spare_points(position, [(plan.points & empty, group) for plan, group, _ in chosen])
                    if len(free) >= spare:
                        return Outbuilt(chosen, len(free))
                    break
        return None


def spare_points(position: Position, chosen: Sequence[tuple[frozenset[Point], frozenset[Point]]]) -> set[Point]:
    """The empty points where the defender's stones spoil none of the chosen plans (each given
    by its new points and its group): for every plan, one of its new points or a point
    touching no stone of its group."""
    joined = neighbour_table(position.lattice)
    empty = set(position.empty_points)
    touching: set[Point] = set()
    for new, group in chosen:
        for stone in group:
            for nxt in joined[stone]:
                if nxt in empty and nxt not in new:
                    touching.add(nxt)
    return empty - touching
