"""An upper bound, for each state of the sweep, on the stones the rest of the group can add.

The sweep (:mod:`placesat.laido.sweep`) keeps every state that might still lead to a longest
connection part. Most of them cannot: on a solid area the states of the widest step are 3 to 8
stones behind the best. This module gives each state a number it cannot beat, cheaply enough to
ask it of every successor, so that the sweep drops a state whose stones plus that number do not
exceed a path it already holds.

**The relaxation.** The group's points are cut into *strips* across the sweep's lines,
:data:`STRIP` places along the line from one to the next, and each strip holds the line of
places it shares with the next too (:func:`_strips`). Within one strip, forget that the path
is one piece and keep only the local rules that every chordless path obeys: a path point has exactly
two path neighbours (an edge stone one), none of them a point that already has all of its
own, and no three mutually adjacent points are all on the path. Neighbours outside the strip
are unknown, so the rules are kept as upper limits everywhere ("at most two") and as lower
limits ("exactly two") only at points with no neighbour outside the strip. One global rule is
kept too, and it is what makes the bound tight (without it a solid area looks as if it could
hold parallel lines from rim to rim): the path has two ends, both edge stones, so the edge
stones still to come on the path are at most two less the pieces already open from one (the
HALF codes). Each strip is small: its own frontier is at most about ``STRIP + 2`` points
wide, so a backward pass over its points (:func:`placesat.laido.sweep_kernels._relaxed_table`),
in the sweep's order, tabulates for every step, every pattern of its frontier (each point off,
on with all its path neighbours, on needing one more, on needing two: four codes) and every
number of ends it may take (0 to 2) the most the rest of the strip can still put on the path
under these rules (-infinity when none can satisfy them), each point counted twice, or once on
a shared line (:func:`_weight`); an edge stone on a shared line takes its end in the strip on
its left only. A state's bound is half the sum over the strips for the best split of its free
ends between them (:func:`placesat.laido.sweep_kernels._bound`), and the lesser of the bounds
for the ways of cutting the strips in :data:`SHIFTS`.

**Why the strips share a line.** Strips that do not share one each see their side lines as
free (a neighbour outside is unknown), and two strips side by side can both fill their lines
at the border, neighbours of each other, which no path can: across the middle of a solid area
such a strip of 7 places held 4 lines of path (two rings one inside the other, or a snake)
where the real path has about one line in two. Counted half in each strip, a shared line is
worth the same to both, and the fence post is gone: White on the 11-side board less two rim
lines (a longest part of 145) is bounded by 147 on the whole group instead of 154, and its
exact sweep keeps 37,000 states instead of 38 million (docs/performance.md, Laido, "Solid areas").

**Admissible** (:func:`strip_bound` is never below what a state can still reach): take a state
of the sweep after point ``t`` and any way the sweep can finish it, a chordless path ``P``.
In every strip, the points of ``P`` after ``t`` satisfy the strip's rules from the state's
pattern: a code records what the point still needs in the whole group, and what the strip adds
is at most that, and exactly that where the point has no neighbour outside; a point after ``t``
on ``P`` has exactly two path neighbours (one if an edge stone), so at most that many in the
strip, none of them with nothing left to take, no two of them adjacent (else a triangle of the
path), and exactly that many in the strip when it has no neighbour outside; and ``P``'s edge
stones after ``t`` are ends of ``P`` that no open piece has taken yet, each taking its end in
one strip only, so, split by strip, a split of the free ends. So each strip's table, for the
ends ``P`` takes in it, is at least the weighted count of ``P``'s points after ``t`` in the
strip, the best split's sum at least the sum of those counts, which is twice the number of
``P``'s points after ``t`` (every point weighs two in all: two in its one strip, or one in each
of the two that share its line), half of it at least the stones the state can still add (and,
the stones a whole number, half rounded down), and so is the least over the ways of
cutting.
A strip's frontier points all lie in the sweep's frontier (each has a later neighbour in the
strip), so the state holds every code the table asks for.

Tested against brute force on small regions (``tests/test_laido_bound.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from placesat.core.lattice import HexLattice
from placesat.core.limits import Deadline

from .sweep_frontier import BITS, CODE, WORD, Step, SweepPlan

# the places along a line from one shared line to the next: a strip holds one more, its
# frontier about two more, its tables 3 * 4 ** (STRIP + 2) entries a step (400 kB); 7 would
# take 1.6 MB a step (docs/performance.md, Laido, "Solid areas")
STRIP = 6
# where the strips start: two ways of cutting, a state's bound the lesser of the two
SHIFTS = (0, STRIP // 2)
# the table's value for a pattern the rules cannot complete
IMPOSSIBLE = -(1 << 14)


@dataclass(frozen=True)
class StripBound:
    """The strips' tables and, for each step of the sweep, where a state's codes are found.

    ``tables``: every strip step's table, one after the other (int16; for each pattern of its
    frontier, the values for 0, 1 and 2 ends side by side, each stone counted by its weight,
    :func:`_weight`: twice, or once on a shared line). After step ``t``, for the ``c``-th
    way of cutting the strips: the strips with points waiting in their frontier are
    ``lookups[t, c, :count[t, c]]``, each a row of ``(offset of its table, width k, then the
    bit shift in the sweep's state of each of the k points of its frontier (its two words
    read as one number when it has two), ..., and last the bits of those points in the
    state's first word and in its second)``, and ``constant[t, c, e]`` is what the other strips (not started,
    or with no point waiting) can add with ``e`` ends between them (:func:`_shared`; weighed
    the same way). ``whole``: the bound before the first step, on the whole group, in stones.
    """

    tables: np.ndarray
    lookups: np.ndarray
    count: np.ndarray
    constant: np.ndarray
    whole: int


def unbounded(steps: int) -> StripBound:
    """No bound at all, for a sweep of ``steps`` steps (every state can add any number)."""
    return StripBound(
        np.zeros(1, np.int16), np.zeros((steps, 1, 1, 4), np.int64), np.zeros((steps, 1), np.int64),
        np.full((steps, 1, 3), 1 << 30, np.int64), 1 << 30,
    )


@dataclass(frozen=True)
class _Strip:
    """One strip: its points (by place in the plan, in the sweep's order), and for each what a
    stone there adds to the strip's table (:func:`_weight`) and whether an edge stone there
    takes one of the path's ends in this strip."""

    points: list[int]
    weight: list[int]
    takes_end: list[bool]


def _strips(plan: SweepPlan, shift: int) -> list[_Strip]:
    """The plan's points cut into strips across the lines, neighbour strips sharing the line
    of places between them: the shared places are those ``shift`` plus a multiple of
    :data:`STRIP` places from the group's first, strictly inside the group (the strips at its
    sides narrower)."""
    first, last = min(plan.columns), max(plan.columns)
    shared = {c for c in range(first + 1, last) if (c - first - shift) % STRIP == 0}
    sides = [first, *sorted(shared), last]
    strips = []
    for lo, hi in zip(sides, sides[1:]):
        points = [i for i, column in enumerate(plan.columns) if lo <= column <= hi]
        strips.append(_Strip(
            points,
            [_weight(plan.columns[i] in shared) for i in points],
            # a shared line's edge stones take their end in the strip on its left, where it is hi
            [plan.columns[i] != lo or lo not in shared for i in points],
        ))
    return strips


def _weight(shared: bool) -> int:
    """What a stone adds to a strip's table: 2, or 1 on a line two strips share (each counts
    half of it), so that the strips' sum is twice the stones whatever the line."""
    return 1 if shared else 2


def strip_bound(
    lattice: HexLattice,
    plan: SweepPlan,
    steps: list[Step],
    shifts: tuple[int, ...] = SHIFTS,
    deadline: Deadline | None = None,
) -> StripBound:
    """The bound of this module for the sweep of ``plan`` (whose steps are ``steps``): for each
    step, what a state's stones can grow by at most, read from its codes (see the module's
    docstring for the rules relaxed and why the bound is admissible); the least of the bounds
    of the strips cut at each of ``shifts``. :class:`placesat.core.limits.TimeUp` when
    ``deadline`` comes first (looked at between two strips, a few hundredths of a second
    each)."""
    order = plan.order
    index = {p: i for i, p in enumerate(order)}
    neighbours = [[index[q] for q in lattice.neighbours(p) if q in index] for p in order]
    cuts = [_cut(lattice, plan, neighbours, shift, deadline) for shift in shifts]
    n = len(order)
    tables: list[np.ndarray] = []
    offset = 0
    for cut in cuts:
        tables.extend(cut.tables)
        cut.offset = offset
        offset += sum(len(table) for table in cut.tables)
    rows = [row for cut in cuts for row in cut.under_way]
    widest = max([len(points) for row in rows for _, points in row] + [0])
    most = max([len(row) for row in rows] + [1])
    # the last two columns: the bits of the strip's slots in the sweep's state, in its first
    # word and in its second (sweep_kernels._strip_marks)
    lookups = np.zeros((n, len(cuts), most, widest + 4), np.int64)
    count = np.zeros((n, len(cuts)), np.int64)
    for t in range(n):
        slot = {u: s for s, u in enumerate(steps[t].frontier)}
        for c, cut in enumerate(cuts):
            row = cut.under_way[t]
            count[t, c] = len(row)
            for s, (start, points) in enumerate(row):
                lookups[t, c, s, 0] = cut.offset + start
                lookups[t, c, s, 1] = len(points)
                for k, u in enumerate(points):
                    lookups[t, c, s, 2 + k] = BITS * slot[u]  # in the sweep's frontier: proved above
                    word, place = divmod(slot[u], WORD)
                    lookups[t, c, s, -2 + word] |= CODE << (BITS * place)
    constant = np.stack([cut.constant for cut in cuts], axis=1)
    return StripBound(np.concatenate(tables), lookups, count, constant, min(cut.whole for cut in cuts))


@dataclass
class _Cut:
    """The strips of one way of cutting the group: their tables one after the other, for each
    step the strips under way (each as the start of its table among ``tables`` and its
    frontier's points), what the others can add (``constant[t, e]``), and the bound on the
    whole group; ``offset``: where ``tables`` start once every cut's are put together."""

    tables: list[np.ndarray]
    under_way: list[list[tuple[int, list[int]]]]
    constant: np.ndarray
    whole: int
    offset: int = 0


def _cut(lattice: HexLattice, plan: SweepPlan, neighbours: list[list[int]], shift: int, deadline: Deadline | None) -> _Cut:
    """The tables of the strips cut at ``shift`` (:func:`_strips`), and what each step reads."""
    n = len(plan.order)
    tables: list[np.ndarray] = []
    offset = 0
    under_way: list[list[tuple[int, list[int]]]] = [[] for _ in range(n)]
    constant = np.zeros((n, 3), np.int64)
    whole = np.zeros(3, np.int64)
    for each in _strips(plan, shift):
        if deadline is not None:
            deadline.check()
        strip = each.points
        frontiers, strip_tables = _strip_tables(lattice, plan, neighbours, each)
        whole = _shared(whole, strip_tables[0])
        starts = []
        for table in strip_tables:
            starts.append(offset)
            tables.append(table)
            offset += len(table)
        # after step t the strip has had its points up to t: its table and frontier then
        done = 0
        for t in range(n):
            while done < len(strip) and strip[done] <= t:
                done += 1
            if done < len(strip) and frontiers[done]:
                under_way[t].append((starts[done], frontiers[done]))
            elif done < len(strip):  # not started, or no point waiting: a constant
                constant[t] = _shared(constant[t], strip_tables[done])
    return _Cut(tables, under_way, constant, int(whole[2]) // 2)


def _strip_tables(lattice: HexLattice, plan: SweepPlan, neighbours: list[list[int]],
                  each: _Strip) -> tuple[list[list[int]], list[np.ndarray]]:
    """One strip's frontier after each of its points (those with a later neighbour in the
    strip), and its tables (:func:`placesat.laido.sweep_kernels._relaxed_table`): the j-th
    for its frontier after its first j points."""
    from .sweep_kernels import kernels  # compiled: as the sweep's own

    compiled = kernels()

    strip = each.points
    inside = set(strip)
    exact = [all(q in inside for q in ns) for ns in neighbours]
    later_in = [max([q for q in ns if q in inside] + [i]) for i, ns in enumerate(neighbours)]
    frontiers: list[list[int]] = [[]]
    for j, v in enumerate(strip):
        frontiers.append([u for u in strip[: j + 1] if later_in[u] > v])
    strip_tables = [np.zeros(3, np.int16)]  # after its last point: nothing more to add
    for j in range(len(strip) - 1, -1, -1):
        v = strip[j]
        before, after = frontiers[j], frontiers[j + 1]
        grown = before + [v]
        where = {u: k for k, u in enumerate(after)}
        dest = np.array([where.get(u, -1) for u in grown], np.int64)
        # the kernel takes the leaving slots out and keeps the others' order: so they go
        assert list(dest[dest >= 0]) == list(range(len(after)))
        earlier = [k for k, u in enumerate(before) if u in neighbours[v]]
        pairs = [(a, b) for x, a in enumerate(earlier) for b in earlier[x + 1:] if before[b] in neighbours[before[a]]]
        table = np.empty(3 * 4 ** len(before), np.int16)
        edge = lattice.is_edge(plan.order[v])
        compiled._relaxed_table(
            strip_tables[-1], len(before), dest, np.array(earlier, np.int64),
            np.array([a for a, _ in pairs], np.int64), np.array([b for _, b in pairs], np.int64),
            np.array([exact[u] for u in grown], np.bool_), edge, edge and each.takes_end[j], each.weight[j],
            IMPOSSIBLE, table,
        )
        strip_tables.append(table)
    strip_tables.reverse()
    return frontiers, strip_tables


def _shared(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """What two sets of strips can add together with 0, 1 or 2 edge stones for ends between
    them, from what each can add with 0, 1 or 2 (the path has two ends in all: the strips
    share them). The same as :func:`placesat.laido.sweep_kernels._bound` does for the strips
    under way."""
    first, second = first.astype(np.int64), second.astype(np.int64)
    return np.array([max(first[a] + second[e - a] for a in range(e + 1)) for e in range(3)], np.int64)
