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
(:func:`_merged`): the longest path is the best state that closes a path.

Why it is fast on solid areas, where a SAT solver struggles (a longest chordless path in a solid
region has about half its points, and proving that no longer one exists is a counting argument
that clause learning finds hard): the number of states depends on the width of the frontier,
not on the size of the group. The sweep runs along whichever of the six board directions
promises the least work (:func:`plan_sweep`; a half board is swept across its short side).

How the states are kept: the frontier is read along the sweep line (the current line up to the
point just visited, then the rest of the line before), and the pieces of path below that line
cannot cross, so the two open ends of a piece are a matched pair of brackets, ``LEFT`` and
``RIGHT`` (the labelling is canonical by itself: no renaming, and equal states are equal
numbers). A state is one integer, three bits a frontier point; the states of a step are a
numpy array, and compiled kernels (numba, compiled once and cached beside the module) work
out each state's successors and merge them (:func:`_successors`, :func:`_merged`); each step
keeps, for each state, the state it came from and whether the point is on the path, so the
longest path is read back at the end. Wide, open
groups have many states (about 2.2 times more for each point of width on a solid area):
:func:`longest_connection_part` gives up past its :class:`SweepLimits` and the caller uses the
solver.

Every answer is a path of the group; :mod:`solver.laido.score` re-checks it with the plain rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from numba import njit

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
# each state carries its trail, one int64: its stones above bit STONES, then whether the point
# just visited is on the path (the bit ON) and the state it came from
STONES = 32
ON = 1 << 31

@dataclass(frozen=True)
class SweepLimits:
    """Where the sweep gives up, so that the caller can ask the solver (None: no limit).

    ``states``: the states of one step (the work arrays hold about 110 bytes for each, up to
    twice that as they grow: 450 to 900 MB at the default). ``kept``: the states of all steps
    together, each of which keeps 4 bytes to read the path back (1 GB). ``cost``: the work the
    plan expects (:attr:`SweepPlan.cost`), checked before anything is done; the sweep takes
    about 0.15 s for each million of it. Measured: the 11-side board nine tenths Black at
    random (seed 1: a 300-stone group, a frontier of 20, cost 141 million) peaks at 3.2
    million states, keeps 129 million and takes 22 s; White on the 11-side board less the
    four lines along one rim (281 stones, cost 82 million) 17 s. The solver, which the
    caller asks past these limits, does not finish such groups in minutes.
    """

    states: int | None = 4_000_000
    kept: int | None = 250_000_000
    cost: float | None = 200e6


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
        steps.append(_Step(lattice.is_edge(order[v]), me, len(grown), earlier, leave, lonely))
        frontier = kept
    return steps


def _step_arrays(step: _Step) -> tuple:
    """A step's slots as the arrays the compiled kernels take."""
    return (
        step.edge,
        step.me,
        step.width,
        np.array(step.earlier, np.int64),
        np.array(step.leave, np.int64),
        sum(1 << (BITS * s) for s in step.leave),
        sum(1 << (BITS * s) for s in step.lonely),
    )


# the states of a step are expanded, and merged, this many at a time, so that a time limit or
# Ctrl-C is seen between two chunks (a million states take about a tenth of a second)
CHUNK = 1 << 20


class _WorkArrays:
    """The arrays one sweep works in, kept from step to step and grown when too small (fresh
    memory costs a page fault every 4 kB: a tenth of the time on the widest groups)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, size: int) -> np.ndarray:
        """The array ``name``, with room for at least ``size`` numbers."""
        array = self.arrays.get(name)
        if array is None or len(array) < size:
            array = np.empty(max(size, 2 * len(array)) if array is not None else max(size, 1024), np.int64)
            self.arrays[name] = array
        return array


def _merge(codes: np.ndarray, trails: np.ndarray, work: _WorkArrays, deadline: Deadline | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The states of a step to keep, with their trails (:func:`_merged`), a million or so at a
    time between two looks at the deadline."""
    n = len(codes)
    dealt_codes, dealt_trails = work.get("dealt codes", n), work.get("dealt trails", n)
    starts = _dealt(codes, trails, work.get("buckets", n), dealt_codes, dealt_trails)
    kept_codes, kept_trails = work.get("kept codes", n), work.get("kept trails", n)
    kept = 0
    buckets = len(starts) - 1
    for first in range(0, buckets, CHUNK // BUCKET):
        if deadline is not None:
            deadline.check()
        last = min(first + CHUNK // BUCKET, buckets)
        kept = _merged(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept)
    return kept_codes[:kept], kept_trails[:kept]


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
    work = _WorkArrays()
    for t, step in enumerate(steps):
        edge, me, width, earlier, leave, leaving, lonely = _step_arrays(step)
        # each state has two successors at most: the point off the path, and on it
        next_codes = work.get("next codes", 2 * len(codes))
        next_trails = work.get("next trails", 2 * len(codes))
        made = 0
        closing = np.array([0, -1], np.int64)  # the best path this step closes: stones, source
        for start in range(0, len(codes), CHUNK):
            if deadline is not None:
                deadline.check()
            made = _successors(
                codes, trails, start, min(start + CHUNK, len(codes)), edge, me, width,
                earlier, leave, leaving, lonely, next_codes, next_trails, made, closing,
            )
        if closing[0] > best[0]:
            best = (int(closing[0]), t, int(closing[1]))
        if deadline is not None:
            deadline.check()
        codes, trails = _merge(next_codes[:made], next_trails[:made], work, deadline)
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


# The compiled kernels (numba): :func:`_successors` works out each state's successors one
# state at a time; :func:`_merged` merges equal ones and drops the dominated ones. A step's
# successors are far too many for a hash table to stay in the processor's cache (a look-up
# there costs a trip to memory, which made a first port no faster than numpy), so they are
# first dealt into buckets by a hash of the state with its DONE points off: a state, every
# state it is merged with and every state it is compared with for dominance are in one
# bucket, small enough for a table that stays in cache.

EMPTY = -1  # states are never negative: the sign bit is spare
# the lowest bit of every slot a state can hold: slots are looked at all at once through it
LOWEST_BITS = sum(1 << (BITS * slot) for slot in range(WIDEST + 1))
# the two multipliers of the splitmix64 finaliser (as int64): every bit of a state moves the
# bits that pick its bucket and its row
MIX1 = -4658895280553007687  # 0xBF58476D1CE4E5B9
MIX2 = -7723592293110705685  # 0x94D049BB133111EB
# the states of one bucket, on average: their table (twice as many rows, 16 bytes each)
# stays in the processor's level-2 cache
BUCKET = 512


@njit(cache=True, inline="always")
def _code(state, slot):
    """The code of frontier point ``slot`` in ``state``."""
    return (state >> (BITS * slot)) & CODE


@njit(cache=True, inline="always")
def _put(state, slot, code):
    """``state`` with ``slot`` set to ``code``."""
    shift = BITS * slot
    return (state & ~(np.int64(CODE) << shift)) | (np.int64(code) << shift)


@njit(cache=True, inline="always")
def _pair(state, a, b):
    """``state`` with slots ``a`` and ``b`` made the two open ends of one piece."""
    return _put(_put(state, min(a, b), LEFT), max(a, b), RIGHT)


@njit(cache=True, inline="always")
def _done_bits(state):
    """The lowest bit of each slot of ``state`` that holds DONE (001), all slots at once:
    ``state - _done_bits(state)`` is the state with every DONE point off the path."""
    return state & ~(state >> 1) & ~(state >> 2) & LOWEST_BITS


@njit(cache=True, inline="always")
def _popcount(bits):
    """How many bits of ``bits`` (not negative) are set."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, inline="always")
def _mix(key):
    """A hash of ``key`` whose every bit depends on every bit of the key (splitmix64)."""
    h = (key ^ (key >> 30)) * MIX1
    h = (h ^ (h >> 27)) * MIX2
    return h ^ (h >> 31)


@njit(cache=True, inline="always")
def _halves(state):
    """The lowest bit of each slot of ``state`` that holds HALF (010): the pieces open from an
    edge stone."""
    return ~state & (state >> 1) & ~(state >> 2) & LOWEST_BITS


@njit(cache=True, inline="always")
def _open_ends(state):
    """The lowest bit of each slot of ``state`` with an open piece end (HALF, ALONE, LEFT or
    RIGHT: the codes 2 to 5, exactly those whose two upper bits differ)."""
    return ((state >> 2) ^ (state >> 1)) & LOWEST_BITS


@njit(cache=True, inline="always")
def _at_most_one(bits):
    """Whether at most one bit of ``bits`` is set."""
    return bits & (bits - 1) == 0


@njit(cache=True)
def _open_end(state, slot, width):
    """For a path point at ``slot`` that gains a path neighbour: where the piece it ends now
    ends on the other side. -1 for a piece from an edge stone (HALF), the slot itself for a
    lone stone, the matching bracket for LEFT and RIGHT."""
    code = _code(state, slot)
    if code == HALF:
        return -1
    if code == ALONE:
        return slot
    depth = 1
    if code == LEFT:
        for other in range(slot + 1, width):
            there = _code(state, other)
            if there == LEFT:
                depth += 1
            elif there == RIGHT:
                depth -= 1
                if depth == 0:
                    return other
    else:
        for other in range(slot - 1, -1, -1):
            there = _code(state, other)
            if there == RIGHT:
                depth += 1
            elif there == LEFT:
                depth -= 1
                if depth == 0:
                    return other
    return -1  # unreachable: the brackets always match


@njit(cache=True, inline="always")
def _settled(state, leave, leaving, lonely):
    """``state`` once the points with no unvisited neighbour left it (the slots ``leave``,
    whose lowest bits are ``leaving``), or -1 when it cannot go on: a leaving point with an
    open end (it needs a neighbour it can no longer get), or a lone stone that cannot get two
    more neighbours (the lowest bits of their slots, once those left, are ``lonely``)."""
    if ((state >> 1) | (state >> 2)) & leaving:  # a code above DONE
        return -1
    for s in leave:  # highest first: the lower slots keep their place
        low = state & ((np.int64(1) << (BITS * s)) - 1)
        state = low | ((state >> (BITS * (s + 1))) << (BITS * s))
    if state & (state >> 1) & ~(state >> 2) & lonely:  # ALONE, 011
        return -1
    return state


@njit(cache=True)
def _placed(grown, edge, me, width, earlier):
    """The visited point put on the path in the state ``grown``: the new state (-1 when it
    cannot go on), and whether it closes a whole path instead (it joins the open ends of two
    pieces from edge stones, or of one, being an edge stone itself, and nothing else is open).

    The point joins every visited neighbour on the path (a path point touching it that were
    not its path neighbour would be a chord), so it cannot go on next to a DONE one, nor next
    to more than two (one for an edge stone)."""
    u = w = -1
    count = 0
    for s in earlier:
        code = _code(grown, s)
        if code == DONE:
            return -1, False
        if code != OFF:
            count += 1
            if u < 0:
                u = s
            else:
                w = s
    if count > (1 if edge else 2):
        return -1, False
    if count == 0:
        if not edge:
            return _put(grown, me, ALONE), False
        if _at_most_one(_halves(grown)):  # a new piece from an edge stone: two at most
            return _put(grown, me, HALF), False
        return -1, False
    if count == 1:
        end = _open_end(grown, u, width)
        if edge:  # the piece ends here: its other end becomes an edge end
            if end < 0:
                return -1, _at_most_one(_open_ends(grown))  # the piece's own end is open
            if _at_most_one(_halves(grown)):
                return _put(_put(_put(grown, u, DONE), end, HALF), me, DONE), False
            return -1, False
        state = _put(grown, u, DONE)
        if end < 0:
            return _put(state, me, HALF), False
        return _pair(state, end, me), False
    end_u = _open_end(grown, u, width)
    end_w = _open_end(grown, w, width)
    if end_u < 0 and end_w < 0:
        ends = _open_ends(grown)  # two of them are the pieces' own ends
        return -1, _at_most_one(ends & (ends - 1))
    state = _put(_put(_put(grown, u, DONE), w, DONE), me, DONE)
    if end_u < 0 or end_w < 0:
        return _put(state, max(end_u, end_w), HALF), False
    if end_u == w and _code(grown, u) >= LEFT:
        return -1, False  # the two ends of one piece: a ring
    return _pair(state, end_u, end_w), False


@njit(cache=True)
def _successors(codes, trails, start, stop, edge, me, width, earlier, leave, leaving, lonely, next_codes, next_trails, made, closing):
    """The successors of states ``start`` to ``stop`` (the visited point off the path, and on
    it where it can go), settled, written from ``made`` on in ``next_codes`` and
    ``next_trails``; ``closing`` keeps the most stones of a whole path closed here and its
    source state. Returns how many successors there are now."""
    low_mask = (np.int64(1) << (BITS * me)) - 1
    for i in range(start, stop):
        state = codes[i]
        stones = trails[i] >> STONES
        grown = (state & low_mask) | ((state >> (BITS * me)) << (BITS * (me + 1)))
        off = _settled(grown, leave, leaving, lonely)
        if off >= 0:
            next_codes[made] = off
            next_trails[made] = (stones << STONES) | i
            made += 1
        on, closes = _placed(grown, edge, me, width, earlier)
        if closes and stones + 1 > closing[0]:
            closing[0] = stones + 1
            closing[1] = i
        if on >= 0:
            on = _settled(on, leave, leaving, lonely)
            if on >= 0:
                next_codes[made] = on
                next_trails[made] = ((stones + 1) << STONES) | ON | i
                made += 1
    return made


@njit(cache=True)
def _row_of(table, rows, state):
    """The row of ``state`` in the first ``rows`` rows of ``table`` (a power of two), or the
    empty row where it would go."""
    mask = rows - 1
    i = _mix(state) & mask
    while table[i, 0] != EMPTY and table[i, 0] != state:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _dealt(codes, trails, where, dealt_codes, dealt_trails):
    """``codes`` and their ``trails`` dealt into ``dealt_codes`` and ``dealt_trails`` by
    bucket, a bucket for each family (the state with every DONE point off), about
    :data:`BUCKET` states a bucket: returns where each bucket starts (and the end). ``where``
    is room to work in."""
    n = len(codes)
    buckets = 1
    while buckets * BUCKET < n:
        buckets *= 2
    starts = np.zeros(buckets + 1, np.int64)
    for i in range(n):
        state = codes[i]
        b = (_mix(state - _done_bits(state)) >> 40) & (buckets - 1)
        where[i] = b
        starts[b + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    filled = starts[:-1].copy()
    for i in range(n):
        b = where[i]
        dealt_codes[filled[b]] = codes[i]
        dealt_trails[filled[b]] = trails[i]
        filled[b] += 1
    return starts


@njit(cache=True)
def _merged(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept):
    """The states to keep of buckets ``first`` to ``last`` (:func:`_dealt`), written in
    ``kept_codes`` and ``kept_trails`` from ``kept`` on; returns how many there are now. Of
    equal states the one with most stones stays (the stones lead a trail: the greatest trail),
    and none that gives way to another.

    A state gives way to the same state with some of its DONE points off the path (any of
    them) that has as many stones: whatever completes the first completes the second the same
    way (no later neighbour of a DONE point is on the path, and an OFF point asks nothing), so
    the first can never do better. States that agree but for their DONE points are a
    *family* (one bucket holds the whole family); a state's DONE points (its bits of
    :func:`_done_bits`) include those of every state it can give way to, which therefore has
    fewer, so each family is checked in that order (fewer DONE points first) against the
    states of it already kept. (On the 9-side board all Black, seven in ten states of the
    widest step are kept when only single points and all DONE points at once are turned off,
    a little over half with any of them.)"""
    largest = 1
    for b in range(first, last):
        largest = max(largest, starts[b + 1] - starts[b])
    rows = 16
    while rows < 2 * largest:
        rows *= 2
    table = np.empty((rows, 2), np.int64)
    heads = np.empty((rows, 3), np.int64)  # per family: the family, its first and last kept
    tally = np.empty(WIDEST + 2, np.int64)
    order = np.empty(largest, np.int64)
    # the states of the bucket kept so far: DONE points, stones, the next of their family
    kept_done = np.empty(largest, np.int64)
    kept_stones = np.empty(largest, np.int64)
    kept_next = np.empty(largest, np.int64)
    for b in range(first, last):
        size = 16
        while size < 2 * (starts[b + 1] - starts[b]):
            size *= 2
        table[:size, 0] = EMPTY
        for i in range(starts[b], starts[b + 1]):
            j = _row_of(table, size, dealt_codes[i])
            if table[j, 0] == EMPTY:
                table[j, 0] = dealt_codes[i]
                table[j, 1] = dealt_trails[i]
            elif dealt_trails[i] > table[j, 1]:
                table[j, 1] = dealt_trails[i]
        # the bucket's distinct states, by how many DONE points they have (a counting sort)
        tally[:] = 0
        m = 0
        for j in range(size):
            if table[j, 0] != EMPTY:
                tally[_popcount(_done_bits(table[j, 0])) + 1] += 1
                m += 1
        for c in range(WIDEST + 1):
            tally[c + 1] += tally[c]
        for j in range(size):
            if table[j, 0] != EMPTY:
                c = _popcount(_done_bits(table[j, 0]))
                order[tally[c]] = j
                tally[c] += 1
        # each family's states kept so far, in a list from the family's row of ``heads``
        # (keyed by the family, the state with no DONE point)
        heads[:size, 0] = EMPTY
        held = 0
        for k in range(m):
            j = order[k]
            state = table[j, 0]
            bits = _done_bits(state)
            family = state - bits
            stones = table[j, 1] >> STONES
            f = _row_of(heads, size, family)
            if heads[f, 0] == EMPTY:
                heads[f, 0] = family
                heads[f, 1] = -1
                heads[f, 2] = -1
            h = heads[f, 1]
            beaten = False
            while h >= 0:
                if kept_done[h] & ~bits == 0 and kept_stones[h] >= stones:
                    beaten = True
                    break
                h = kept_next[h]
            if not beaten:
                kept_done[held] = bits
                kept_stones[held] = stones
                kept_next[held] = -1
                if heads[f, 2] < 0:
                    heads[f, 1] = held
                else:
                    kept_next[heads[f, 2]] = held
                heads[f, 2] = held
                held += 1
                kept_codes[kept] = state
                kept_trails[kept] = table[j, 1]
                kept += 1
    return kept


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
