"""The longest connection part of a group by a sweep over its points (exact, no solver).

A connection part is a chordless path between two edge stones with no other edge stone on it
(``seeds/laido.md``). This module finds a longest one with a *frontier* dynamic programme,
the method used to count and maximise snakes (chordless paths) on grids: the group's points
are visited line by line; after each point, what the rest of the group needs to know about the
points already decided is summed up by the *frontier*, the decided points that still have an
undecided neighbour. For each frontier point the state records whether it is on the path and,
if so, how many more path neighbours it needs; open path pieces are paired by labels. States
that agree are merged, keeping the one with most path points so far: the longest path is the
best state that closes a path.

Why it is fast on solid areas, where a SAT solver struggles (a longest chordless path in a solid
region has about half its points, and proving that no longer one exists is a counting argument
that clause learning finds hard): the number of states depends on the width of the frontier,
not on the size of the group. The sweep runs along whichever of the three board directions
makes the frontier narrowest (a half board is swept across its short side). Wide, open groups
have many states; :func:`longest_connection_part` gives up past ``max_states`` and the caller
uses the solver instead.

Every answer is a path of the group; :mod:`solver.laido.score` re-checks it with the plain rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Iterable

from solver.core.lattice import HexLattice, Point
from solver.core.limits import Deadline

# The state of one frontier point (a small int, so a frontier is a tuple of ints):
OFF = 0  # not on the path
DONE = 1  # on the path with all its path neighbours: no other neighbour may join the path
HALF = 2  # an open end of a piece whose other end is an edge stone already (needs 1 more)
ALONE = 3  # a lone inner stone on the path, neither neighbour yet (needs 2 more)
LABEL = 4  # LABEL + k: an open end of a piece whose other open end carries the same label

DEFAULT_MAX_STATES = 60_000


def _turned(point: Point, turns: int) -> Point:
    """``point`` turned by ``turns`` sixths of a circle about the centre (axial coordinates)."""
    q, r = point
    for _ in range(turns):
        q, r = -r, q + r
    return q, r


@dataclass(frozen=True)
class SweepPlan:
    """The order in which a group's points are visited and the frontier after each of them."""

    order: tuple[Point, ...]
    widest: int  # the largest frontier


def plan_sweep(lattice: HexLattice, group: Iterable[Point]) -> SweepPlan:
    """Visit the points line by line along the board direction with the narrowest frontier.

    Lines run along one of three directions; points are taken line after line, in order along
    each. The frontier after a point holds every visited point with an unvisited neighbour.
    """
    stones = set(group)
    best: SweepPlan | None = None
    for turns in range(3):
        order = sorted(stones, key=lambda p: (_turned(p, turns)[1], _turned(p, turns)[0]))
        index = {p: i for i, p in enumerate(order)}
        last = [max([index[n] for n in lattice.neighbours(p) if n in index] + [i]) for i, p in enumerate(order)]
        open_until = sorted(last)
        widest = 0
        live = 0
        closing = 0
        for i in range(len(order)):
            live += 1
            while closing < len(open_until) and open_until[closing] <= i:
                closing += 1
            widest = max(widest, live - closing)
        if best is None or widest < best.widest:
            best = SweepPlan(tuple(order), widest)
    assert best is not None
    return best


class TooManyStates(Exception):
    """The sweep needed more states than it was allowed (a wide, open group)."""


def longest_connection_part(
    lattice: HexLattice,
    group: Iterable[Point],
    max_states: int | None = DEFAULT_MAX_STATES,
    deadline: Deadline | None = None,
    plan: SweepPlan | None = None,
) -> tuple[Point, ...] | None:
    """A connection part of ``group`` with the most stones, in path order; None when the group
    has none (fewer than two edge stones).

    First a narrow sweep (the :data:`BEAM` best states at each step) finds a long path
    quickly; then the full sweep drops every state that cannot beat it, using
    :func:`suffix_bounds` for what the points not yet visited can still add.

    Exact: every chordless path between two edge stones of the group is represented by one
    sequence of states, and merging two states keeps one with most stones, which any
    completion extends equally well. :class:`TooManyStates` past ``max_states`` states at one
    step; :class:`~solver.core.limits.TimeUp` when ``deadline`` comes first.
    """
    plan = plan or plan_sweep(lattice, group)
    bounds = suffix_bounds(lattice, plan.order, deadline)
    first = _sweep(lattice, plan.order, bounds, 0, BEAM, None, deadline)
    floor = len(first) if first else 0
    if first is not None and floor == bounds[0]:
        return first  # nothing longer can exist: the relaxed sweep's bound is met
    found = _sweep(lattice, plan.order, bounds, floor, None, max_states, deadline)
    return found if found is not None and (first is None or len(found) >= len(first)) else first


BEAM = 256


def _sweep(
    lattice: HexLattice,
    order: tuple[Point, ...],
    bounds: list[int],
    floor: int,
    beam: int | None,
    max_states: int | None,
    deadline: Deadline | None,
) -> tuple[Point, ...] | None:
    """The frontier sweep: a longest path, where a path of ``floor`` stones is known to exist
    already (0: none known), so only states that can still beat it, or the best path found
    so far, are kept; None when no path was found. Exact without ``beam``: the longest path
    is returned, unless no path is longer than ``floor`` (then a path of ``floor`` stones or
    None). With ``beam``, only that many best states are kept at each step (not exact)."""
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    neighbours = [[index[q] for q in lattice.neighbours(p) if q in index] for p in order]
    is_edge = [lattice.is_edge(p) for p in order]
    last = [max(ns + [i]) for i, ns in enumerate(neighbours)]
    adjacent = [set(ns) for ns in neighbours]

    # how many more path neighbours a point decided at step i can still get: at most the
    # number of its later neighbours, and two only if two of them do not touch each other
    def room(point: int, step: int) -> int:
        later = [q for q in neighbours[point] if q > step]
        if len(later) >= 2 and any(b not in adjacent[a] for k, a in enumerate(later) for b in later[k + 1:]):
            return 2
        return min(len(later), 1)

    one = 1 << n  # a stone on the path adds one to the count kept above the bits of the mask
    best_value = -1
    frontier: list[int] = []
    states: dict[tuple[int, ...], int] = {(): 0}  # state -> (stones on the path << n) | mask
    for v in range(n):
        if deadline is not None:
            deadline.check()
        slot = {u: s for s, u in enumerate(frontier)}
        earlier = [slot[u] for u in neighbours[v] if u < v]
        grown = frontier + [v]
        keep = [s for s, u in enumerate(grown) if last[u] > v]
        leave = [s for s, u in enumerate(grown) if last[u] <= v]
        # a kept point that can get at most one more path neighbour cannot be a lone stone
        one_room = [k for k, s in enumerate(keep) if room(grown[s], v) < 2]
        take = _picker(keep)
        me = len(frontier)
        edge_v = is_edge[v]
        bit = one + (1 << v)
        merged: dict[tuple[int, ...], int] = {}

        def settle(codes, value: int) -> None:
            for s in leave:
                if codes[s] >= HALF:
                    return  # it needs a path neighbour it can no longer get
            out = take(codes)
            for k in one_room:
                if out[k] == ALONE:
                    return
            if out and max(out) >= LABEL:
                names: dict[int, int] = {}
                out = tuple(names.setdefault(c, LABEL + len(names)) if c >= LABEL else c for c in out)
            if merged.get(out, -1) < value:
                merged[out] = value

        for state, value in states.items():
            settle(state + (OFF,), value)
            codes = list(state)
            codes.append(OFF)
            on = [s for s in earlier if state[s]]
            if len(on) > 2 or any(state[s] == DONE for s in on):
                continue  # v on the path would give a neighbour one path neighbour too many
            value_on = value + bit
            halves = state.count(HALF)
            if edge_v:
                if not on:
                    if halves < 2:  # a new piece starting at an edge stone
                        codes[me] = HALF
                        settle(codes, value_on)
                    continue
                if len(on) == 2:
                    continue  # an edge stone on the path is an end: one path neighbour
                (u,) = on
                code = state[u]
                codes[me] = DONE
                codes[u] = DONE if code != ALONE else HALF
                if code == HALF:
                    # both ends are edge stones: a whole path, if nothing else is open
                    if not any(c >= HALF for c in codes):
                        best_value = max(best_value, value_on)
                    continue
                if halves >= 2:
                    continue
                if code >= LABEL:
                    codes[state.index(code, u + 1) if state.index(code) == u else state.index(code)] = HALF
                settle(codes, value_on)
                continue
            if not on:
                codes[me] = ALONE
                settle(codes, value_on)
                continue
            if len(on) == 1:
                (u,) = on
                code = state[u]
                if code == ALONE:
                    fresh = LABEL + 64
                    codes[u] = fresh
                    codes[me] = fresh
                else:
                    codes[u] = DONE
                    codes[me] = code  # v is the piece's new open end (HALF or its label)
                settle(codes, value_on)
                continue
            u, w = on
            if state[u] >= LABEL and state[u] == state[w]:
                continue  # joining the two ends of one piece would close a ring
            codes[me] = DONE
            ends = []
            for s in (u, w):
                code = state[s]
                if code == HALF:
                    codes[s] = DONE
                    ends.append(None)
                elif code == ALONE:
                    ends.append(s)  # it keeps one open side: the new end of the joined piece
                else:
                    codes[s] = DONE
                    ends.append(state.index(code, s + 1) if state.index(code) == s else state.index(code))
            a, b = ends
            if a is None and b is None:
                if not any(c >= HALF for c in codes):
                    best_value = max(best_value, value_on)
                continue
            if a is None or b is None:
                codes[a if b is None else b] = HALF
            else:
                fresh = LABEL + 64
                codes[a] = fresh
                codes[b] = fresh
            settle(codes, value_on)
        # a state that cannot beat the best path known, even if every later point did its
        # best, goes: a path that only ties it is no better (halves the 11-side solid halves)
        cut = max(floor, best_value >> n) + 1 - bounds[v + 1]
        if cut > 0:
            merged = {key: value for key, value in merged.items() if value >> n >= cut}
        if beam is not None and len(merged) > beam:
            merged = dict(sorted(merged.items(), key=lambda item: -item[1])[:beam])
        if max_states is not None and len(merged) > max_states:
            raise TooManyStates(f"{len(merged)} states after {v + 1} of {n} points")
        states = merged
        frontier = [grown[s] for s in keep]
    if best_value < 0:
        return None
    mask = best_value & (one - 1)
    chosen = [order[i] for i in range(n) if mask >> i & 1]
    return _in_order(lattice, chosen)


def suffix_bounds(lattice: HexLattice, order: tuple[Point, ...], deadline: Deadline | None = None) -> list[int]:
    """``bounds[i]``: at most this many stones of a connection part lie among ``order[i:]``.

    A relaxed sweep from the last point back: it keeps only what a chordless path through the
    group imposes point by point (no stone with more than two path neighbours, none with a
    path neighbour too many once all its neighbours are decided: two for an inner stone, one
    for an edge stone; no small triangle; at most two edge stones), not that the stones form
    one path. The best count after visiting ``order[i]`` bounds the part of any connection part
    in ``order[i:]``. States: per frontier point, off or on with its path neighbours so far.
    """
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    neighbours = [[index[q] for q in lattice.neighbours(p) if q in index] for p in order]
    is_edge = [lattice.is_edge(p) for p in order]
    first = [min(ns + [i]) for i, ns in enumerate(neighbours)]  # it leaves the frontier there
    adjacent = [set(ns) for ns in neighbours]
    bounds = [0] * (n + 1)
    frontier: list[int] = []
    # a state: the frontier's codes (0 off, 1 + path neighbours so far) and the edge stones used
    states: dict[tuple[int, ...], int] = {(0,): 0}
    for v in range(n - 1, -1, -1):
        if deadline is not None and v % 16 == 0:
            deadline.check()
        slot = {u: s for s, u in enumerate(frontier)}
        later = [slot[u] for u in neighbours[v] if u > v]
        touching = len(later) == 2 and frontier[later[0]] in adjacent[frontier[later[1]]]
        grown = frontier + [v]
        keep = [s for s, u in enumerate(grown) if first[u] < v]
        # positions in a state's codes: 0 holds the edge stones used, 1 + s frontier slot s
        leave = [(s + 1, 3 if not is_edge[u] else 2) for s, u in enumerate(grown) if first[u] >= v]
        take = itemgetter(0, *(s + 1 for s in keep)) if keep else (lambda codes: (codes[0],))
        edge_v = is_edge[v]
        limit = 1 if edge_v else 2
        # (position, full code): a later neighbour of v on the path must still lack a neighbour
        sides = [(s + 1, 2 if is_edge[frontier[s]] else 3) for s in later]
        # the most path neighbours a kept point can still have: it must reach its degree
        ceiling = []
        for k, s in enumerate(keep):
            u = grown[s]
            rest = [w for w in neighbours[u] if w < v]
            room = 2 if len(rest) >= 2 and any(b not in adjacent[a] for i, a in enumerate(rest) for b in rest[i + 1:]) else min(len(rest), 1)
            degree = 1 if is_edge[u] else 2
            if room < degree:
                ceiling.append((k + 1, 1 + degree - room))  # its code must be at least this, or off
        merged: dict[tuple[int, ...], int] = {}
        get = merged.get

        def settle(codes, value: int) -> None:
            for position, full in leave:
                code = codes[position]
                if code and code != full:
                    return  # it leaves without its degree
            key = take(codes)
            for k, lowest in ceiling:
                if key[k] and key[k] < lowest:
                    return
            if get(key, -1) < value:
                merged[key] = value

        for state, value in states.items():
            settle(state + (0,), value)
            on = [position for position, _ in sides if state[position]]
            if len(on) > limit or (len(on) == 2 and touching) or (edge_v and state[0] >= 2):
                continue
            codes = list(state)
            codes.append(1 + len(on))
            for position, full in sides:
                code = codes[position]
                if code:
                    if code == full:
                        break  # it has all its path neighbours already
                    codes[position] = code + 1
            else:
                if edge_v:
                    codes[0] += 1
                settle(codes, value + 1)
        states = merged
        frontier = [grown[s] for s in keep]
        bounds[v] = max(states.values())
    return bounds


def _picker(positions: list[int]):
    """A function that takes the items at ``positions`` of a sequence, as a tuple."""
    if not positions:
        return lambda items: ()
    if len(positions) == 1:
        (only,) = positions
        return lambda items: (items[only],)
    return itemgetter(*positions)


def _in_order(lattice: HexLattice, chosen: list[Point]) -> tuple[Point, ...]:
    """The chosen points as a walk from the end first in board order."""
    points = set(chosen)
    ends = sorted((p for p in points if sum(q in points for q in lattice.neighbours(p)) == 1), key=lambda p: (p[1], p[0]))
    path = [ends[0]]
    seen = {ends[0]}
    while True:
        step = [q for q in lattice.neighbours(path[-1]) if q in points and q not in seen]
        if not step:
            return tuple(path)
        path.append(step[0])
        seen.add(step[0])
