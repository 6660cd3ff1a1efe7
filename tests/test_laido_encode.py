"""Pieces of the Laido encodings checked on their own: counters, ranks, thresholds."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from placesat.core.backend import Formula, make_backend
from placesat.core.counting import at_least_outputs
from placesat.core.lattice import HexLattice
from placesat.laido.encode import add_path_rules, forbid_rings, threshold_counts
from placesat.laido.rules import compare


def test_counter_outputs_are_exactly_the_reachable_counts():
    rng = random.Random(4)
    for _ in range(60):
        formula = Formula()
        xs = formula.new_vars(rng.randint(1, 5))
        lits = [rng.choice(xs) * rng.choice([1, -1]) for _ in range(rng.randint(1, 8))]
        out = at_least_outputs(formula, lits, rng.randint(1, 9))
        solver = make_backend("sat", formula)
        for values in itertools.product([False, True], repeat=len(xs)):
            fixed = [x if v else -x for x, v in zip(xs, values)]
            count = sum(values[abs(l) - 1] == (l > 0) for l in lits)
            for k, lit in enumerate(out, start=1):
                # an output can be true exactly when the count reaches k
                assert bool(solver.solve(fixed + [lit])) == (count >= k)


RING = [(-1, 0), (-1, 1), (0, 1), (1, 1), (2, 0), (2, -1), (1, -1), (0, -1)]


def _path_formula(points, ranked):
    lattice = HexLattice(5)
    formula = Formula()
    on_path = dict(zip(points, formula.new_vars(len(points))))
    add_path_rules(formula, lattice, on_path, (0, 2), hole_cuts=False)
    if ranked:
        forbid_rings(formula, lattice, on_path, len(points))
    return formula, on_path


def test_ranks_forbid_a_ring_and_keep_paths():
    points = RING + [(3, -2), (4, -3), (4, -4)]
    for ranked in (False, True):
        formula, on_path = _path_formula(points, ranked)
        solver = make_backend("sat", formula)
        ring_alone = [on_path[p] for p in RING] + [-on_path[p] for p in points if p not in RING]
        assert bool(solver.solve(ring_alone)) is not ranked
        # the real connection part (the two touching edge stones) stays allowed
        pair = [on_path[(4, -3)], on_path[(4, -4)]] + [-on_path[p] for p in points if p not in ((4, -3), (4, -4))]
        assert solver.solve(pair)


def test_ranks_allow_a_long_path():
    line = [(q, 0) for q in range(-4, 5)]  # edge to edge through the centre of a size-5 board
    formula, on_path = _path_formula(line, ranked=True)
    assert make_backend("sat", formula).solve(list(on_path.values()))


def _wins_by_counts(mine, theirs):
    """The reach encoding's test: at some threshold my count exceeds theirs, and at every higher
    threshold it is at least theirs."""
    counted = threshold_counts(theirs)
    for j, (threshold, _) in enumerate(counted):
        ok = True
        for i in range(j + 1):
            t, their_count = counted[i]
            my_count = len(mine) if t is None else sum(v >= t for v in mine)
            if my_count < their_count + (1 if i == j else 0):
                ok = False
                break
        if ok:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-6, 6), max_size=5), st.lists(st.integers(-6, 6), max_size=5))
def test_threshold_counts_decide_like_the_comparison(mine, theirs):
    # the half point goes to the other side here, so a full tie is not a win
    assert _wins_by_counts(mine, theirs) == (compare(mine, theirs, "white").winner == "black")
