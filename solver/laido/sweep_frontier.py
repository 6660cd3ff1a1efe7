"""The frontier of the Laido sweep (:mod:`placesat.laido.sweep`): the codes of a state, the plan
of a sweep and what each of its steps needs to know.

These are shared by the sweep, its compiled kernels (:mod:`placesat.laido.sweep_kernels`) and its
bound (:mod:`placesat.laido.bound`), so they sit below all three: the imports point one way,
``sweep`` -> ``bound`` -> ``sweep_kernels`` -> ``sweep_frontier``.
"""

from __future__ import annotations

from dataclasses import dataclass

from placesat.core.lattice import Point

# What a frontier point still needs, in three bits of its state:
OFF = 0  # not on the path
DONE = 1  # on the path with all its path neighbours: no other neighbour may join the path
HALF = 2  # an open end of a piece whose other end is an edge stone already (needs 1 more)
ALONE = 3  # a lone inner stone on the path, neither neighbour yet (needs 2 more)
LEFT = 4  # an open end of a piece whose other open end is further along the frontier
RIGHT = 5  # ... and the other end of such a piece (the pairs nest like brackets)
BITS = 3
CODE = (1 << BITS) - 1

# a state is one int64 (63 bits without the sign, WORD slots): the widest frontier it holds,
# with a slot spare for the point being visited
WORD = 63 // BITS
WIDEST = WORD - 1
# a wider frontier takes two int64 words a state (the first WORD slots in the first, the rest in
# the second; the same kernels, compiled for both): only for plans wider than WIDEST, so that
# every group that fits one word is swept as fast as before
WIDEST_TWO = 2 * WORD - 1
# each state carries its trail, one int64: its stones above bit STONES, then whether the point
# just visited is on the path (the bit ON) and the state it came from
STONES = 32
ON = 1 << 31


@dataclass(frozen=True)
class SweepPlan:
    """The order in which a group's points are visited, the line and the place along it of
    each, the largest frontier, and the work the sweep is expected to take (:data:`placesat.laido.sweep.GROWTH`)."""

    order: tuple[Point, ...]
    lines: tuple[int, ...]
    widest: int
    cost: float
    columns: tuple[int, ...] = ()  # each point's place along its line (the strips of the bound)


@dataclass(frozen=True)
class Step:
    """What one step of the sweep needs to know, worked out once before the states are."""

    edge: bool  # the point visited is an edge stone
    me: int  # its slot in the frontier grown by it
    width: int  # the slots of the grown frontier
    earlier: tuple[int, ...]  # the slots of its visited neighbours
    leave: tuple[int, ...]  # slots of points with no unvisited neighbour left, highest first
    lonely: tuple[int, ...]  # slots, once those left, of points that can get one more neighbour at most
    frontier: tuple[int, ...] = ()  # the points (by their place in the plan) of the frontier left, slot by slot
