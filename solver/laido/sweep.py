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
(:func:`placesat.laido.sweep_kernels._merged`): the longest path is the best state that closes a path.

Why it is fast on solid areas, where a SAT solver struggles (a longest chordless path in a solid
region has about half its points, and proving that no longer one exists is a counting argument
that clause learning finds hard): the number of states depends on the width of the frontier,
not on the size of the group. The sweep runs along whichever of the six board directions
promises the least work (:func:`plan_sweep`; a half board is swept across its short side).

How the states are kept: the frontier is read along the sweep line (the current line up to the
point just visited, then the rest of the line before), and the pieces of path below that line
cannot cross, so the two open ends of a piece are a matched pair of brackets, ``LEFT`` and
``RIGHT`` (the labelling is canonical by itself: no renaming, and equal states are equal
numbers). A state is one int64, three bits a frontier point, for a frontier of up to
:data:`WIDEST` points, or two side by side for a wider one (up to :data:`WIDEST_TWO`: the
11-side board one colour nearly fills is 21 points wide; the same kernels, compiled for
each, and a plan that fits one word is always swept with one); the states of a step are a
numpy array, and compiled kernels (compiled at install, defined in Python:
:mod:`placesat.laido.sweep_kernels`) work out each state's successors and merge them; each step
keeps, for each state, the state it came from and whether the point is on the path, so the
longest path is read back at the end. Wide, open
groups have many states (about 2.2 times more for each point of width on a solid area), most
of which cannot lead to a longest path: on such a group a quick sweep first finds a long path,
and the exact sweep drops every state whose stones plus a bound on what the rest of the group
can add (:mod:`placesat.laido.bound`) do not beat it. :func:`longest_connection_part` gives up
past its :class:`SweepLimits` and the caller uses the solver.

Every answer is a path of the group; :mod:`placesat.laido.score` re-checks it with the plain rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

import numpy as np

from placesat.core.lattice import HexLattice, Point
from placesat.core.limits import Deadline

from .sweep_frontier import BITS, ON, STONES, WIDEST, WIDEST_TWO, WORD, Step, SweepPlan

if TYPE_CHECKING:
    from .bound import StripBound


@dataclass(frozen=True)
class SweepLimits:
    """Where the sweep gives up, so that the caller can ask the solver (None: no limit).

    ``states``: the states of one step (the work arrays hold about 110 bytes for each, up to
    twice that as they grow: 450 to 900 MB at the default). ``kept``: the states of all steps
    together, each of which keeps 4 bytes to read the path back (1 GB). ``cost``: the work the
    plan expects (:attr:`SweepPlan.cost`, as if no state were dropped by the bound), checked
    before anything is done. Measured with the bound (:mod:`placesat.laido.bound`): the 11-side
    board nine tenths Black at random (seed 1: a 300-stone group, a frontier of 20, cost 141
    million) peaks at 0.14 million states, keeps 9 million and takes 2.2 s (without the
    bound: 3.2 million, 129 million, 22 s); White on the 11-side board less the two lines
    along one rim (308 stones, a frontier of 19, cost 326 million) peaks at 600 states,
    keeps 37,000 and takes 0.3 s; less one line (320 stones, a frontier of 20, cost 617
    million), 0.4 s. Two words a state (a frontier past :data:`WIDEST`): the 11-side board
    all Black (331 stones, a frontier of 21, cost 1.1 billion) takes 0.3 s; the 12-side
    board Black on 95% or 90% at random (cost 1.9 and 1.0 billion) 1.7 and 1.4 s; but the
    13-side board Black on 90% (cost 3.3 billion) meets the states limit after 33 s, while
    the 13-side board all Black (31 billion) takes 22 s: past the default the plan's cost
    says little, and the limit keeps the sweep to where it was measured. The solver, which
    the caller asks past these limits, does not finish such groups in minutes. (Two words a
    state take about 30 more bytes a state in the work arrays.)
    """

    states: int | None = 4_000_000
    kept: int | None = 250_000_000
    cost: float | None = 2e9


DEFAULT_LIMITS = SweepLimits()
NO_LIMITS = SweepLimits(None, None, None)


def _turned(point: Point, turns: int) -> Point:
    """``point`` turned by ``turns`` sixths of a circle about the centre (axial coordinates)."""
    q, r = point
    for _ in range(turns):
        q, r = -r, q + r
    return q, r


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
        turned = [_turned(p, turn) for p in order]
        plans.append(SweepPlan(tuple(order), tuple(r for _, r in turned), widest, cost, tuple(q for q, _ in turned)))
    # a plan that fits one word a state first (as fast as ever), then two
    return min(plans, key=lambda plan: (plan.widest > WIDEST_TWO, plan.widest > WIDEST, plan.cost))


class TooManyStates(Exception):
    """The sweep needed more states than it was allowed (a wide, open group)."""


def _steps(lattice: HexLattice, plan: SweepPlan) -> list[Step]:
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
        steps.append(Step(lattice.is_edge(order[v]), me, len(grown), earlier, leave, lonely, tuple(kept)))
        frontier = kept
    return steps


def _step_arrays(step: Step, words: int = 1) -> tuple:
    """A step's slots as the arrays the compiled kernels take, for states of ``words`` words."""
    return (
        step.edge,
        step.me,
        step.width,
        np.array(step.earlier, np.int64),
        np.array(step.leave, np.int64),
        _marks(step.leave, words),
        _marks(step.lonely, words),
    )


def _marks(slots: Iterable[int], words: int) -> int | tuple[int, ...]:
    """The lowest bit of each of ``slots`` in a state of ``words`` words: one int64, or a
    tuple of them (the kernels' marks, :func:`placesat.laido.sweep_kernels._marks`)."""
    marks = sum(1 << (BITS * s) for s in slots)
    if words == 1:
        return marks
    return tuple((marks >> (BITS * WORD * word)) & ((1 << (BITS * WORD)) - 1) for word in range(words))


def _kernels(words: int) -> object:
    """The kernels for states of ``words`` words: the plain ones, or those for two words
    (their names end in ``_wide``; in Python the same functions)."""
    from .sweep_kernels import kernels  # loaded on first use (below)

    compiled = kernels()
    return compiled if words == 1 else _Wide(compiled)


class _Wide:
    """The kernels for states of two words, under the names of the one-word ones."""

    def __init__(self, compiled: object) -> None:
        self.compiled = compiled

    def __getattr__(self, name: str) -> object:
        return getattr(self.compiled, name + "_wide")


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


def _merge(codes: np.ndarray, trails: np.ndarray, work: _WorkArrays, deadline: Deadline | None = None,
           words: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The states of a step to keep, with their trails (:func:`placesat.laido.sweep_kernels._merged`), a million or so at a
    time between two looks at the deadline (each state ``words`` numbers of ``codes``)."""
    from .sweep_kernels import BUCKET

    compiled = _kernels(words)
    like = _marks((), words)
    n = len(trails)
    dealt_codes, dealt_trails = work.get("dealt codes", words * n), work.get("dealt trails", n)
    starts = compiled._dealt(codes, trails, work.get("buckets", n), dealt_codes, dealt_trails, like)
    kept_codes, kept_trails = work.get("kept codes", words * n), work.get("kept trails", n)
    kept = 0
    buckets = len(starts) - 1
    for first in range(0, buckets, CHUNK // BUCKET):
        if deadline is not None:
            deadline.check()
        last = min(first + CHUNK // BUCKET, buckets)
        kept = compiled._merged(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept, like)
    return kept_codes[:words * kept], kept_trails[:kept]


def longest_connection_part(
    lattice: HexLattice,
    group: Iterable[Point],
    limits: SweepLimits = DEFAULT_LIMITS,
    deadline: Deadline | None = None,
    plan: SweepPlan | None = None,
    words: int | None = None,
) -> tuple[Point, ...] | None:
    """A connection part of ``group`` with the most stones, in path order; None when the group
    has none (fewer than two edge stones).

    Exact: every chordless path between two edge stones of the group is represented by one
    sequence of states, and merging two states keeps one with most stones, which any
    completion extends equally well. A quick sweep first keeps only the :data:`BEAM` states
    that promise most at each step (their stones plus their bound, :mod:`placesat.laido.bound`)
    and finds a long path (again with :data:`WIDER_BEAM` states when the path is
    :data:`RETRY_GAP` stones or more below the bound on the whole group); the exact sweep then
    drops every state that cannot beat it (its stones plus its bound, never less than what it
    can still add, are no more), and the quick path stands when nothing beats it.
    :class:`TooManyStates` past one of ``limits``, or when the frontier is wider than
    :data:`WIDEST_TWO`; :class:`placesat.core.limits.TimeUp` when ``deadline`` comes first.
    A state takes one int64 word when the frontier fits (:data:`WIDEST`), else two (or
    ``words``, when given: tests hold both to the same answers).
    """
    plan = plan or plan_sweep(lattice, group)
    if plan.widest > WIDEST_TWO:
        raise TooManyStates(f"a frontier of {plan.widest} points (at most {WIDEST_TWO})")
    words = words or (1 if plan.widest <= WIDEST else 2)
    if plan.widest > WORD * words - 1:
        raise ValueError(f"a frontier of {plan.widest} points does not fit states of {words} word")
    if limits.cost is not None and plan.cost > limits.cost:
        raise TooManyStates(f"an expected work of {plan.cost:.3g} (at most {limits.cost:.3g})")
    # the kernels are loaded on first use, only when a group needs them (score sends small
    # groups to the solver, which needs none)
    from .bound import strip_bound, unbounded

    steps = _steps(lattice, plan)
    if plan.cost < BOUND_FROM:
        return _sweep(lattice, plan, steps, unbounded(len(steps)), limits, deadline, 0, None, words)
    bound = strip_bound(lattice, plan, steps, deadline=deadline)
    quick = _sweep(lattice, plan, steps, bound, limits, deadline, 0, BEAM, words)
    floor = len(quick) if quick is not None else 0
    if bound.whole - floor >= RETRY_GAP:
        # far below the bound: the quick path may be a stone short, which the exact sweep
        # pays for dearly (every state one stone from being dropped stays)
        wider = _sweep(lattice, plan, steps, bound, limits, deadline, floor, WIDER_BEAM, words)
        if wider is not None:
            quick, floor = wider, len(wider)
    return _sweep(lattice, plan, steps, bound, limits, deadline, floor, None, words) or quick


# a group whose plan expects less work than this is swept without the bound: its tables take
# 0.1 to 0.3 s, as long as the whole sweep of such a group (scoring the 11-side halves: 0.15 s
# without, 0.23 s with; the 9-side halves 0.04 and 0.11 s)
BOUND_FROM = 1e6


# the states the quick sweep keeps at each step (:func:`longest_connection_part`): on the
# 9-side board all Black and on nine tenths of an 11-side board, 500 find the longest path
# (97 and 143 stones) in 0.03 to 0.05 s
BEAM = 500


def _most_promising(promise: np.ndarray, beam: int) -> np.ndarray:
    """The indices of the ``beam`` states of highest promise, in increasing order; among equal
    promises at the cut, the first ones. (``np.argpartition`` alone leaves the choice among
    ties to numpy's selection routine, which differs between numpy builds and processors, so
    a quick sweep's path was not the same on every machine.)"""
    cut = np.partition(promise, len(promise) - beam)[len(promise) - beam]  # the beam-th highest
    above = np.flatnonzero(promise > cut)
    ties = np.flatnonzero(promise == cut)[:beam - len(above)]
    return np.sort(np.concatenate([above, ties]))

# when the quick path is this many stones or more below the bound on the whole group, a second
# quick sweep keeps WIDER_BEAM states a step: on the 11-side board Black on 95% at random
# (seeds 1, 4, 5), 500 find 145, 146, 145 stones and 2000 find the longest, 146, 147, 146, in
# 0.2 s, and the exact sweep takes 0.7 s instead of 4 (docs/performance.md, Laido, "Solid areas")
RETRY_GAP = 4
WIDER_BEAM = 2000


def _sweep(
    lattice: HexLattice,
    plan: SweepPlan,
    steps: list[Step],
    bound: StripBound,
    limits: SweepLimits,
    deadline: Deadline | None,
    floor: int,
    beam: int | None,
    words: int = 1,
) -> tuple[Point, ...] | None:
    """The longest connection part with more than ``floor`` stones (None if there is none),
    keeping at each step every state that can beat ``floor`` by ``bound`` (a
    :class:`placesat.laido.bound.StripBound`), or only the ``beam`` that promise most (then the
    part found is long, not proved longest); each state ``words`` int64 words, one after the
    other in ``codes``."""
    compiled = _kernels(words)
    like = _marks((), words)

    codes = np.zeros(words, np.int64)  # the one state before any point: an empty frontier
    trails = np.zeros(1, np.int64)  # per state: stones << STONES | on << 31 | source state
    history: list[np.ndarray] = []  # per step, each state's trail less its stones
    kept = 0
    best = (floor, -1, -1)  # (stones, step, source state) of the longest whole path found
    work = _WorkArrays()
    for t, step in enumerate(steps):
        edge, me, width, earlier, leave, leaving, lonely = _step_arrays(step, words)
        tables, lookup, count, constant = bound.tables, bound.lookups[t], bound.count[t], bound.constant[t]
        # each state has two successors at most: the point off the path, and on it
        next_codes = work.get("next codes", 2 * len(codes))
        next_trails = work.get("next trails", 2 * len(trails))
        made = 0
        closing = np.array([best[0], -1], np.int64)  # the best path closed so far: stones, source
        for start in range(0, len(trails), CHUNK):
            if deadline is not None:
                deadline.check()
            made = compiled._successors(
                codes, trails, start, min(start + CHUNK, len(trails)), edge, me, width,
                earlier, leave, leaving, lonely, next_codes, next_trails, made, closing,
                tables, lookup, count, constant,
            )
        if closing[1] >= 0:
            best = (int(closing[0]), t, int(closing[1]))
        if deadline is not None:
            deadline.check()
        codes, trails = _merge(next_codes[:words * made], next_trails[:made], work, deadline, words)
        if beam is not None and len(trails) > beam:
            promise = np.empty(len(trails), np.int64)
            compiled._promise(codes, trails, tables, lookup, count, constant, promise, like)
            chosen = _most_promising(promise, beam)
            codes, trails = codes.reshape(-1, words)[chosen].reshape(-1), trails[chosen]
        history.append((trails & ((1 << STONES) - 1)).astype(np.uint32))
        kept += len(trails)
        if limits.states is not None and len(trails) > limits.states:
            raise TooManyStates(f"{len(trails)} states after {t + 1} of {len(steps)} points")
        if limits.kept is not None and kept > limits.kept:
            raise TooManyStates(f"{kept} states kept after {t + 1} of {len(steps)} points")
    if best[1] < 0:
        return None
    _, t, state = best
    chosen_points = [plan.order[t]]
    for s in range(t - 1, -1, -1):
        trail = int(history[s][state])
        if trail & ON:
            chosen_points.append(plan.order[s])
        state = trail & (ON - 1)
    return _in_order(lattice, chosen_points)


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
