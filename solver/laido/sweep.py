"""The longest connection part of a group by a sweep over its points (exact, no solver).

A connection part is a chordless path between two edge stones with no other edge stone on it
(``seeds/laido.md``). This module finds a longest one with a *frontier* dynamic programme,
the method used to count and maximise snakes (chordless paths) on grids: the group's points
are visited line by line; after each point, what the rest of the group needs to know about the
points already decided is summed up by the *frontier*, the decided points that still have an
undecided neighbour. For each frontier point the state records whether it is on the path and,
if so, what it still needs: nothing more, one more path neighbour on a piece whose other end
is an edge stone, two more (a lone stone), or one more on a piece whose other open end is
another frontier point. States that agree are merged, keeping the one with most path points so
far, and a state goes when another is at least as good for every way the rest can go
(:func:`_undominated`): the longest path is the best state that closes a path.

Why it is fast on solid areas, where a SAT solver struggles (a longest chordless path in a solid
region has about half its points, and proving that no longer one exists is a counting argument
that clause learning finds hard): the number of states depends on the width of the frontier,
not on the size of the group. The sweep runs along whichever of the six board directions
promises the least work (:func:`plan_sweep`; a half board is swept across its short side).

How the states are kept: the frontier is read along the sweep line (the current line up to the
point just visited, then the rest of the line before), and the pieces of path below that line
cannot cross, so the two open ends of a piece are a matched pair of brackets, ``LEFT`` and
``RIGHT`` (the labelling is canonical by itself: no renaming, and equal states are equal
numbers). A state is one integer, three bits a frontier point, and all states of a step are a
numpy array worked on at once; each step keeps, for each state, the state it came from and
whether the point is on the path, so the longest path is read back at the end. Wide, open
groups have many states (about 2.2 times more for each point of width on a solid area):
:func:`longest_connection_part` gives up past its :class:`SweepLimits` and the caller uses the
solver.

Every answer is a path of the group; :mod:`solver.laido.score` re-checks it with the plain rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

import numpy as np

from solver.core.lattice import HexLattice, Point
from solver.core.limits import Deadline

# What a frontier point still needs, in three bits of its state:
OFF = 0  # not on the path
DONE = 1  # on the path with all its path neighbours: no other neighbour may join the path
HALF = 2  # an open end of a piece whose other end is an edge stone already (needs 1 more)
ALONE = 3  # a lone inner stone on the path, neither neighbour yet (needs 2 more)
LEFT = 4  # an open end of a piece whose other open end is further along the frontier
RIGHT = 5  # ... and the other end of such a piece (the pairs nest like brackets)
BITS = 3
CODE = (1 << BITS) - 1

# a state is one int64 (63 bits without the sign): the widest frontier it holds, with a slot
# spare for the point being visited
WIDEST = 63 // BITS - 1
# a state is checked for a better one with a DONE point off the path only at the points this
# close to the one just visited, where such states arise (a point further on along the line
# before comes this close later): most of the gain for a third of the cost
NEAR = 2
# each state carries its trail, one int64: its stones above bit STONES, then whether the point
# just visited is on the path (the bit ON) and the state it came from
STONES = 32
ON = 1 << 31

@dataclass(frozen=True)
class SweepLimits:
    """Where the sweep gives up, so that the caller can ask the solver (None: no limit).

    ``states``: the states of one step (about 100 bytes each while the step is worked: 300 MB
    at the default). ``kept``: the states of all steps together, each of which keeps 4 bytes to
    read the path back (1 GB). ``cost``: the work the plan expects (:attr:`SweepPlan.cost`),
    checked before anything is done. Measured: White on the 11-side board less the four lines
    along one rim (281 stones, a frontier of 17, cost 82 million) peaks at 2.5 million states,
    keeps 210 million and takes 70 s; less three lines (cost 166 million) passes 3 million
    states after 127 of its 295 points (10 s), and so do random 11-side boards nine tenths
    Black (cost 140 million).
    """

    states: int | None = 3_000_000
    kept: int | None = 250_000_000
    cost: float | None = 120e6


DEFAULT_LIMITS = SweepLimits()
NO_LIMITS = SweepLimits(None, None, None)


def _turned(point: Point, turns: int) -> Point:
    """``point`` turned by ``turns`` sixths of a circle about the centre (axial coordinates)."""
    q, r = point
    for _ in range(turns):
        q, r = -r, q + r
    return q, r


@dataclass(frozen=True)
class SweepPlan:
    """The order in which a group's points are visited, the line of each, the largest
    frontier, and the work the sweep is expected to take (:data:`GROWTH`)."""

    order: tuple[Point, ...]
    lines: tuple[int, ...]
    widest: int
    cost: float


# the states of a step grow about this many times with each point of the frontier (measured
# on solid areas 11 to 17 points wide): a plan's cost is the sum over its steps of GROWTH to
# the size of the frontier
GROWTH = 2.2


def plan_sweep(lattice: HexLattice, group: Iterable[Point], turns: int | None = None) -> SweepPlan:
    """Visit the points line by line, along whichever of the six board directions (three
    lines, each way) promises the least work (or along the direction ``turns``, 0 to 5, when
    given: tests try each).

    Points are taken line after line, in order along each. The frontier after a point holds
    every visited point with an unvisited neighbour. On a solid area the narrowest direction
    wins; with holes, two directions equally wide can differ a lot (measured: 4 s one way
    round, 8 s the other, on a 263-stone group of a random 11-side board).
    """
    stones = set(group)
    plans = []
    for turn in range(6) if turns is None else (turns,):
        order = sorted(stones, key=lambda p: (_turned(p, turn)[1], _turned(p, turn)[0]))
        index = {p: i for i, p in enumerate(order)}
        last = [max([index[n] for n in lattice.neighbours(p) if n in index] + [i]) for i, p in enumerate(order)]
        open_until = sorted(last)
        widest = 0
        cost = 0.0
        live = 0
        closing = 0
        for i in range(len(order)):
            live += 1
            while closing < len(open_until) and open_until[closing] <= i:
                closing += 1
            widest = max(widest, live - closing)
            cost += GROWTH ** (live - closing)
        plans.append(SweepPlan(tuple(order), tuple(_turned(p, turn)[1] for p in order), widest, cost))
    return min(plans, key=lambda plan: (plan.widest > WIDEST, plan.cost))


class TooManyStates(Exception):
    """The sweep needed more states than it was allowed (a wide, open group)."""


@dataclass(frozen=True)
class _Step:
    """What one step of the sweep needs to know, worked out once before the states are."""

    edge: bool  # the point visited is an edge stone
    me: int  # its slot in the frontier grown by it
    width: int  # the slots of the grown frontier
    earlier: tuple[int, ...]  # the slots of its visited neighbours
    leave: tuple[int, ...]  # slots of points with no unvisited neighbour left, highest first
    lonely: tuple[int, ...]  # slots, once those left, of points that can get one more neighbour at most
    near: tuple[int, ...]  # slots, once those left, within NEAR of the point visited


def _steps(lattice: HexLattice, plan: SweepPlan) -> list[_Step]:
    """The frontier, in order along the sweep line, at each step of ``plan``.

    The sweep line runs along the current line up to the point just visited, then steps back
    to the line before; every frontier point is on one of those two lines, and the point
    visited joins the frontier between them.
    """
    order = plan.order
    index = {p: i for i, p in enumerate(order)}
    neighbours = [[index[q] for q in lattice.neighbours(p) if q in index] for p in order]
    last = [max(ns + [i]) for i, ns in enumerate(neighbours)]
    adjacent = [set(ns) for ns in neighbours]

    # how many more path neighbours a point decided at step i can still get: at most the
    # number of its later neighbours, and two only if two of them do not touch each other
    def room(point: int, step: int) -> int:
        later = [q for q in neighbours[point] if q > step]
        if len(later) >= 2 and any(b not in adjacent[a] for k, a in enumerate(later) for b in later[k + 1:]):
            return 2
        return min(len(later), 1)

    steps = []
    frontier: list[int] = []
    for v, line in enumerate(plan.lines):
        me = sum(plan.lines[u] == line for u in frontier)
        grown = frontier[:me] + [v] + frontier[me:]
        slot = {u: s for s, u in enumerate(grown)}
        earlier = tuple(slot[u] for u in neighbours[v] if u < v)
        leave = tuple(s for s in reversed(range(len(grown))) if last[grown[s]] <= v)
        kept = [u for u in grown if last[u] > v]
        lonely = tuple(k for k, u in enumerate(kept) if room(u, v) < 2)
        here = me - sum(s < me for s in leave)
        near = tuple(range(max(0, here - NEAR), min(len(kept), here + NEAR + 1)))
        steps.append(_Step(lattice.is_edge(order[v]), me, len(grown), earlier, leave, lonely, near))
        frontier = kept
    return steps


def longest_connection_part(
    lattice: HexLattice,
    group: Iterable[Point],
    limits: SweepLimits = DEFAULT_LIMITS,
    deadline: Deadline | None = None,
    plan: SweepPlan | None = None,
) -> tuple[Point, ...] | None:
    """A connection part of ``group`` with the most stones, in path order; None when the group
    has none (fewer than two edge stones).

    Exact: every chordless path between two edge stones of the group is represented by one
    sequence of states, and merging two states keeps one with most stones, which any
    completion extends equally well. :class:`TooManyStates` past one of ``limits``, or when the
    frontier is wider than :data:`WIDEST`; :class:`~solver.core.limits.TimeUp` when
    ``deadline`` comes first.
    """
    plan = plan or plan_sweep(lattice, group)
    if plan.widest > WIDEST:
        raise TooManyStates(f"a frontier of {plan.widest} points (at most {WIDEST})")
    if limits.cost is not None and plan.cost > limits.cost:
        raise TooManyStates(f"an expected work of {plan.cost:.3g} (at most {limits.cost:.3g})")
    steps = _steps(lattice, plan)
    codes = np.zeros(1, np.int64)  # the one state before any point: an empty frontier
    trails = np.zeros(1, np.int64)  # per state: stones << STONES | on << 31 | source state
    history: list[np.ndarray] = []  # per step, each state's trail less its stones
    kept = 0
    best = (0, -1, -1)  # (stones, step, source state) of the longest whole path found
    for t, step in enumerate(steps):
        if deadline is not None:
            deadline.check()
        values = trails >> STONES
        grown = _insert(codes, step.me)
        parts = [(grown, (values << STONES) | np.arange(len(grown)))]
        placed, closing = _placements(grown, step)
        for source, states in placed:
            parts.append((states, ((values[source] + 1) << STONES) | ON | source))
        if closing.size:
            top = int(np.argmax(values[closing]))
            if values[closing[top]] + 1 > best[0]:
                best = (int(values[closing[top]]) + 1, t, int(closing[top]))
        if deadline is not None:
            deadline.check()  # a step of millions of states takes a second or two
        codes, trails = _settle(parts, step)
        history.append((trails & ((1 << STONES) - 1)).astype(np.uint32))
        kept += len(codes)
        if limits.states is not None and len(codes) > limits.states:
            raise TooManyStates(f"{len(codes)} states after {t + 1} of {len(steps)} points")
        if limits.kept is not None and kept > limits.kept:
            raise TooManyStates(f"{kept} states kept after {t + 1} of {len(steps)} points")
    if best[1] < 0:
        return None
    _, t, state = best
    chosen = [plan.order[t]]
    for s in range(t - 1, -1, -1):
        trail = int(history[s][state])
        if trail & ON:
            chosen.append(plan.order[s])
        state = trail & (ON - 1)
    return _in_order(lattice, chosen)


def _code(codes: np.ndarray, slot) -> np.ndarray:
    """The code of ``slot`` (a number, or one per state) in each state."""
    return (codes >> (BITS * slot)) & CODE


def _put(codes: np.ndarray, slot, code: int) -> np.ndarray:
    """The states with ``slot`` (a number, or one per state) set to ``code``."""
    shift = BITS * slot
    return (codes & ~(np.int64(CODE) << shift)) | (np.int64(code) << shift)


def _insert(codes: np.ndarray, slot: int) -> np.ndarray:
    """The states with an OFF slot inserted at ``slot`` (the slots from there move up one)."""
    low = codes & ((1 << (BITS * slot)) - 1)
    return low | ((codes >> (BITS * slot)) << (BITS * (slot + 1)))


def _remove(codes: np.ndarray, slot: int) -> np.ndarray:
    """The states without ``slot`` (the slots above it move down one)."""
    low = codes & ((1 << (BITS * slot)) - 1)
    return low | ((codes >> (BITS * (slot + 1))) << (BITS * slot))


# the lowest bit of every slot a state can hold: slots are compared all at once through it
LOWEST_BITS = sum(1 << (BITS * slot) for slot in range(WIDEST + 1))


def _holding(codes: np.ndarray, code: int) -> np.ndarray:
    """Per state, the lowest bit of each slot that holds ``code`` (the others 0), all slots at
    once."""
    mask = np.full(len(codes), LOWEST_BITS, np.int64)
    for bit in range(BITS):
        shifted = codes >> bit
        mask &= shifted if code >> bit & 1 else ~shifted
    return mask


def _popcount(masks: np.ndarray) -> np.ndarray:
    """The bits set in each mask (numpy 2 counts them itself)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(masks).astype(np.int64)
    count = np.zeros(len(masks), np.int64)
    for slot in range(WIDEST + 1):
        count += (masks >> (BITS * slot)) & 1
    return count


def _edge_pieces(codes: np.ndarray) -> np.ndarray:
    """How many pieces from an edge stone each state has open (its slots holding HALF)."""
    return _popcount(_holding(codes, HALF))


def _open_ends(codes: np.ndarray) -> np.ndarray:
    """How many open piece ends each state has (its slots holding HALF, ALONE, LEFT or RIGHT:
    the codes 2 to 5, exactly those whose two upper bits differ)."""
    return _popcount(((codes >> 2) ^ (codes >> 1)) & LOWEST_BITS)


def _open_end(codes: np.ndarray, slot: int, width: int) -> np.ndarray:
    """For a path point at ``slot`` that gains a path neighbour: where the piece it ends now
    ends on the other side. -1 for a piece from an edge stone (HALF), the slot itself for a
    lone stone, the matching bracket for LEFT and RIGHT."""
    code = _code(codes, slot)
    end = np.where(code == ALONE, slot, -1)
    for opening, closing, slots in ((LEFT, RIGHT, range(slot + 1, width)), (RIGHT, LEFT, range(slot - 1, -1, -1))):
        searching = np.flatnonzero(code == opening)  # the states still looking, and their depth
        states, depth = codes[searching], np.ones(len(searching), np.int64)
        for other in slots:
            if not searching.size:
                break
            there = _code(states, other)
            depth += there == opening
            depth -= there == closing
            found = depth == 0
            if found.any():
                end[searching[found]] = other
                searching, states, depth = searching[~found], states[~found], depth[~found]
    return end


def _pair(codes: np.ndarray, a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    """The states with slots ``a`` and ``b`` made the two open ends of one piece."""
    return _put(_put(codes, np.minimum(a, b), LEFT), np.maximum(a, b), RIGHT)


def _placements(grown: np.ndarray, step: _Step) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The visited point put on the path: the new states with their sources (positions in
    ``grown``), and apart the sources in which it closes a whole path (it joins the open ends
    of two pieces from edge stones, or of one, being an edge stone itself, and nothing else
    is open).

    The point joins every visited neighbour on the path (a path point touching it that were
    not its path neighbour would be a chord), so it cannot go on next to a DONE one, nor next
    to more than two (one for an edge stone)."""
    near = [_code(grown, s) for s in step.earlier]
    on = [code != OFF for code in near]
    count = np.zeros(len(grown), np.int8)
    allowed = np.ones(len(grown), bool)
    for code, is_on in zip(near, on):
        count += is_on
        allowed &= code != DONE
    allowed &= count <= (1 if step.edge else 2)
    me, width = step.me, step.width
    placed: list[tuple[np.ndarray, np.ndarray]] = []
    closing: list[np.ndarray] = []
    for size in range(2 if step.edge else 3):
        for chosen in combinations(range(len(step.earlier)), size):
            sel = allowed & (count == size)
            for i in chosen:
                sel &= on[i]
            source = np.flatnonzero(sel)
            if not source.size:
                continue
            states = grown[source]
            slots = [step.earlier[i] for i in chosen]
            if size == 0:
                if step.edge:  # a new piece from an edge stone: at most two edge stones
                    fits = _edge_pieces(states) < 2
                    placed.append((source[fits], _put(states[fits], me, HALF)))
                else:
                    placed.append((source, _put(states, me, ALONE)))
                continue
            if size == 1:
                (u,) = slots
                end = _open_end(states, u, width)
                if step.edge:  # the piece ends here: its other end becomes an edge end
                    closing.append(source[(end < 0) & (_open_ends(states) == 1)])
                    fits = (end >= 0) & (_edge_pieces(states) < 2)
                    states, end = states[fits], end[fits]
                    placed.append((source[fits], _put(_put(_put(states, u, DONE), end, HALF), me, DONE)))
                    continue
                states = _put(states, u, DONE)
                half = end < 0
                placed.append((source, np.where(half, _put(states, me, HALF), _pair(states, np.maximum(end, 0), me))))
                continue
            u, w = slots
            end_u = _open_end(states, u, width)
            end_w = _open_end(states, w, width)
            closing.append(source[(end_u < 0) & (end_w < 0) & (_open_ends(states) == 2)])
            ring = (end_u == w) & (_code(states, u) >= LEFT)  # the two ends of one piece
            states = _put(_put(_put(states, u, DONE), w, DONE), me, DONE)
            one = (end_u < 0) ^ (end_w < 0)
            both = (end_u >= 0) & (end_w >= 0) & ~ring
            joined = np.where(
                both,
                _pair(states, np.maximum(end_u, 0), np.maximum(end_w, 0)),
                _put(states, np.maximum(np.maximum(end_u, end_w), 0), HALF),
            )
            keep = one | both
            placed.append((source[keep], joined[keep]))
    return placed, np.concatenate(closing) if closing else np.zeros(0, np.int64)


def _settle(parts, step: _Step) -> tuple[np.ndarray, np.ndarray]:
    """The states after a step, and their trails: those whose leaving points have all they
    need, without the leaving points, none with a lone stone that cannot get two more
    neighbours, and of equal states the one with most stones."""
    codes = np.concatenate([p[0] for p in parts])
    trails = np.concatenate([p[1] for p in parts])
    keep = np.ones(len(codes), bool)
    for s in step.leave:
        keep &= _code(codes, s) <= DONE  # anything open needs a neighbour it can no longer get
    for s in step.leave:
        codes = _remove(codes, s)
    for s in step.lonely:
        keep &= _code(codes, s) != ALONE
    codes, trails = codes[keep], trails[keep]
    # equal states side by side: the candidates come in a few long sorted runs, which a stable
    # sort merges (3.6 times faster than numpy's default sort on the 9-side board less its two
    # rim lines)
    ranked = np.argsort(codes, kind="stable")
    codes, trails = codes[ranked], trails[ranked]
    first = np.ones(len(codes), bool)
    first[1:] = codes[1:] != codes[:-1]
    starts = np.flatnonzero(first)
    # the stones lead a trail, so the greatest trail of a run of equal states has most stones
    codes, trails = codes[starts], np.maximum.reduceat(trails, starts)
    kept = _undominated(codes, trails >> STONES, step.near)
    return codes[kept], trails[kept]


def _undominated(codes: np.ndarray, values: np.ndarray, slots: tuple[int, ...]) -> np.ndarray:
    """Which of the (sorted, distinct) states to keep: a state with a DONE point goes when the
    same state with that point off the path (or with all its DONE points off) is there with
    as many stones. Whatever completes
    the first completes the second the same way (no later neighbour of a DONE point is on the
    path, and an OFF point asks nothing), so the first can never do better. (On the 11-side
    solid halves, about two states in three go.)"""
    keep = np.ones(len(codes), bool)
    for slot in slots:
        done = np.flatnonzero(_code(codes, slot) == DONE)
        if not done.size:
            continue
        freed = codes[done] - (DONE << (BITS * slot))  # the same state with the point OFF
        at = np.minimum(np.searchsorted(codes, freed), len(codes) - 1)
        keep[done[(codes[at] == freed) & (values[at] >= values[done])]] = False
    # and the same state with every DONE point off at once (DONE is 1: taking the lowest bit
    # of those slots away turns them OFF), a state the checks one point at a time miss when
    # no state between the two is there (a quarter of the states on the 9-side board less
    # two rim lines)
    done_bits = _holding(codes, DONE)
    done = np.flatnonzero(keep & (done_bits != 0))
    if done.size:
        freed = codes[done] - done_bits[done]
        at = np.minimum(np.searchsorted(codes, freed), len(codes) - 1)
        keep[done[(codes[at] == freed) & (values[at] >= values[done])]] = False
    return keep


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
