"""The SAT backend's cardinality encodings are arc-consistent (issue 41, part 1).

Every encoding :func:`placesat.core.backend._cardinality_clauses` uses must let unit
propagation find every literal the count forces, and a contradiction as soon as the count is
broken: the Lixso grader's level 2 is unit propagation through the supply, so an encoding
that propagates less would change grades. Checked by brute reasoning on random constraints
and random partial assignments: with ``t`` literals true and ``o`` open, ``t == hi`` forces
every open one false and ``t + o == lo`` every open one true.
"""

from __future__ import annotations

import random

import pytest
from pysat.solvers import Solver

from placesat.core.backend import LARGE_COUNT_LITERALS, SMALL_BOUND, _cardinality_clauses, _large_count_clauses


def _forced(lits: list[int], lo: int, hi: int, assumed: list[int]) -> tuple[bool, set[int]]:
    """Whether ``assumed`` (literals of distinct ``lits``' variables) leaves ``lo <= sum <= hi``
    possible, and the literals the count then forces."""
    holds = set(assumed)
    true = sum(1 for lit in lits if lit in holds)
    open_ = [lit for lit in lits if lit not in holds and -lit not in holds]
    if true > hi or true + len(open_) < lo:
        return False, set()
    if true == hi:
        return True, {-lit for lit in open_}
    if true + len(open_) == lo:
        return True, set(open_)
    return True, set()


def _check_propagation(clauses: list[list[int]], top: int, lits: list[int], lo: int, hi: int, rng: random.Random,
                       trials: int) -> None:
    # every clause behind one switch, assumed first: the solver reports what propagation sets
    # under assumptions, and would keep a unit clause's literal to itself
    switch = top + 1
    with Solver(name="cadical195", bootstrap_with=[clause + [-switch] for clause in clauses]) as solver:
        for _ in range(trials):
            chosen = rng.sample(lits, rng.randint(0, len(lits)))
            assumed = [lit if rng.random() < rng.random() else -lit for lit in chosen]
            possible, forced = _forced(lits, lo, hi, assumed)
            survives, implied = solver.propagate(assumptions=[switch] + assumed)
            assert survives == possible, (len(lits), lo, hi, assumed)
            if possible:
                assert forced <= set(implied), (len(lits), lo, hi, assumed, forced - set(implied))


def _random_lits(rng: random.Random, n: int) -> list[int]:
    """``n`` literals of distinct variables 1..n, some negated, in a random order."""
    lits = [v if rng.random() < 0.7 else -v for v in range(1, n + 1)]
    rng.shuffle(lits)
    return lits


@pytest.mark.parametrize("seed", range(4))
def test_the_large_count_encodings_are_arc_consistent(seed):
    """The incremental totalizer (bounds up to SMALL_BOUND) and the cardinality network
    (above), on 75 random constraints a seed, over few literals so that every bound is met."""
    rng = random.Random(seed)
    for _ in range(75):
        n = rng.randint(2, 40)
        bound = rng.randint(1, n - 1)
        lits = _random_lits(rng, n)
        clauses, top = _large_count_clauses(lits, bound, n)
        _check_propagation(clauses, top, lits, 0, bound, rng, 12)


def test_both_large_encodings_are_used_and_checked_at_their_boundary():
    rng = random.Random(7)
    for bound in (SMALL_BOUND - 1, SMALL_BOUND, SMALL_BOUND + 1, SMALL_BOUND + 2):
        n = 2 * SMALL_BOUND + 5
        lits = _random_lits(rng, n)
        clauses, top = _large_count_clauses(lits, bound, n)
        _check_propagation(clauses, top, lits, 0, bound, rng, 60)


@pytest.mark.parametrize("seed", range(3))
def test_every_count_the_backend_encodes_is_arc_consistent(seed):
    """Through :func:`_cardinality_clauses`, both sides of a count: the small encodings
    (pairwise, sequential counter, totalizer) and, from LARGE_COUNT_LITERALS literals, the
    large ones, for at most, at least and between."""
    rng = random.Random(100 + seed)
    for case in range(60):
        n = rng.randint(LARGE_COUNT_LITERALS, LARGE_COUNT_LITERALS + 40) if case % 6 == 0 else rng.randint(2, 30)
        lo = rng.choice([0, 0, rng.randint(0, n)])
        hi = rng.choice([n, rng.randint(lo, n), min(n, lo + rng.randint(0, 3)), rng.randint(0, 3)])
        hi = max(hi, lo)
        if lo == 0 and hi == n:  # no constraint: no clauses
            hi = n - 1
        lits = _random_lits(rng, n)
        clauses, top = _cardinality_clauses(lits, lo, hi, n)
        _check_propagation(clauses, top, lits, lo, hi, rng, 6 if n >= LARGE_COUNT_LITERALS else 10)


def test_a_repeated_literal_counts_once_per_occurrence():
    """A weight is a repeated literal (Formula.add_count): the large encodings count every
    occurrence, as the small ones do (checked by enumerating every model of the variables)."""
    rng = random.Random(3)
    for _ in range(20):
        variables = rng.randint(2, 6)
        lits = [rng.choice([1, -1]) * rng.randint(1, variables) for _ in range(rng.randint(3, 12))]
        bound = rng.randint(1, len(lits) - 1)
        clauses, top = _large_count_clauses(lits, bound, variables)
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for mask in range(1 << variables):
                values = [lit for lit in range(1, variables + 1)]
                assignment = [v if mask >> (v - 1) & 1 else -v for v in values]
                count = sum(1 for lit in lits if lit in assignment)
                assert solver.solve(assumptions=assignment) == (count <= bound), (lits, bound, assignment)


def test_the_shipped_lixso_size_keeps_the_plain_totalizer():
    """Every shipped Lixso puzzle is 9x9: each count of its solving and grading templates is
    under LARGE_COUNT_LITERALS, so it is encoded as before the large encodings came, clause
    for clause, and no shipped grade or generated pack can change (all 122 shipped puzzles
    were verified against their stated levels once; docs/performance.md)."""
    from placesat.lixso.encode import build_template, template_for
    from placesat.lixso.model import default_per_colour
    from placesat.lixso.solve import solving_template

    per_colour = default_per_colour(9, 9)
    templates = [solving_template(9, 9, per_colour), build_template(9, 9, per_colour, supply=True)]
    templates += [template_for(9, 9, per_colour, grading=level) for level in (1, 2)]
    counts = [len(lits) for template in templates for lits, _, _ in template.formula.cardinalities]
    assert counts and max(counts) == 81 < LARGE_COUNT_LITERALS  # the supply: one literal a cell
