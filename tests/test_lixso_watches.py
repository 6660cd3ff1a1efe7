"""The watched-literal propagator of the Lixso trials (solver/lixso/native.py) against a plain
reference: unit propagation read straight from the clause list, every count made afresh.

The reference is the rule the propagator states, the step rule: the trail is worked through in
order; a literal's step spends its colour's supply, then its binary clauses, then the longer
clauses it makes false, in clause order, each concluding when all its literals but one are
false by a known fact or an earlier step (the last one made true, or a contradiction). Its
trail is the propagator's trail in the same order (callers read that order), contradictions'
partial trails included. The states are random and carry history (commits and trials one after
another on one state), and after every call the watches must still be sound: two literals of
their clause, each listed once under the position that makes it false, and a watch false by a
done fact only in a clause a true literal satisfies.
"""

import random

import numpy as np
import pytest

from placesat.lixso.deduce import Deducer
from placesat.lixso.encode import propagation_clauses
from placesat.lixso.generate import random_solution
from placesat.lixso.native import TrialState

from .test_lixso_native import assumptions, python_kernels


class StepRule:
    """Unit propagation over ``propagation_clauses`` and the supply, by the step rule, with no
    bookkeeping kept between calls (literals, not positions)."""

    def __init__(self, deducer: Deducer) -> None:
        clauses = propagation_clauses(deducer.template)
        self.cap = deducer.supply_cells
        self.colours = deducer.template.colour  # by cell, the literal of each colour
        self.colour_of = {lits[k]: k for lits in self.colours for k in range(len(lits))}
        binary = [c for c in clauses if len(c) == 2]
        self.long = [c for c in clauses if len(c) > 2]
        self.implies: dict[int, list[int]] = {}
        # (a or b): a false makes b true, then (every first literal done) b false makes a true
        for a, b in binary:
            self.implies.setdefault(-a, []).append(b)
        for a, b in binary:
            self.implies.setdefault(-b, []).append(a)
        self.through: dict[int, list[int]] = {}  # the longer clauses a literal's truth falsifies
        for index, clause in enumerate(self.long):
            for lit in clause:
                self.through.setdefault(-lit, []).append(index)

    def propagate(self, known: set[int], assumed: list[int]) -> tuple[bool, list[int]]:
        """(no contradiction, the trail: what ``assumed`` adds to ``known``, in order)."""
        true = set(known)
        done = set(known)  # true, and its step taken
        trail: list[int] = []

        def value(lit: int) -> int:
            return 1 if lit in true else -1 if -lit in true else 0

        def assign(lit: int) -> None:
            true.add(lit)
            trail.append(lit)

        for lit in assumed:
            if value(lit) == -1:
                return False, trail
            if value(lit) == 0:
                assign(lit)
        head = 0
        while head < len(trail):
            lit = trail[head]
            head += 1
            if lit in self.colour_of:
                k = self.colour_of[lit]
                spent = sum(lits[k] in true for lits in self.colours)
                if spent > self.cap:
                    return False, trail
                if spent == self.cap:
                    for lits in self.colours:
                        if value(lits[k]) == 0:
                            assign(-lits[k])
            for other in self.implies.get(lit, []):
                if value(other) == -1:
                    return False, trail
                if value(other) == 0:
                    assign(other)
            done.add(lit)
            for index in self.through.get(lit, []):
                clause = self.long[index]
                if sum(-x in done for x in clause) < len(clause) - 1 or any(value(x) == 1 for x in clause):
                    continue
                left = [x for x in clause if value(x) == 0]
                if not left:
                    return False, trail
                if len(left) == 1:
                    assign(left[0])
        return True, trail


def assert_sound_watches(state: TrialState) -> None:
    """Each longer clause in ``lits`` (from ``cl_start[c] + c``): its literals, its two watches
    first, then -1; each watch listed once, under the position that makes it false, with a
    literal of its clause as blocker; a watch false by a done fact only in a satisfied clause."""
    tables, (lits, watching, watch_count, done, _) = state.tables, state.watches
    value, top = state.value, len(state.value) - 1
    clauses = len(tables.cl_start) - 1
    occ_start = tables.occ_start.astype(np.int64)
    assert (watch_count <= np.diff(occ_start)).all()
    assert (done == (value == 1)).all()  # between calls, every true literal's step is taken
    listed = {}
    for p in np.flatnonzero(watch_count).tolist():
        for k in range(occ_start[p], occ_start[p] + watch_count[p]):
            listed.setdefault((int(watching[2 * k]), top - p), []).append(int(watching[2 * k + 1]))
    assert len(listed) == 2 * clauses and all(len(blockers) == 1 for blockers in listed.values())
    for c in range(clauses):
        clause = tables.cl_lits[tables.cl_start[c] : tables.cl_start[c + 1]].tolist()
        s = int(tables.cl_start[c]) + c
        segment = lits[s : s + len(clause) + 1].tolist()
        assert sorted(segment[:-1]) == sorted(clause) and segment[-1] == -1, c
        first, second = segment[0], segment[1]
        assert listed[(s, first)][0] in clause and listed[(s, second)][0] in clause
        if value[first] == -1 or value[second] == -1:
            assert any(value[q] == 1 for q in clause), c


@pytest.mark.parametrize("kernels", ["compiled", "python"])
def test_the_watches_give_the_step_rules_trail_on_random_states(kernels):
    from placesat.lixso import native

    compiled = native.kernels() if kernels == "compiled" else python_kernels()
    if kernels == "compiled" and not hasattr(compiled, "__file__"):
        pytest.skip("no compiled grader here (PLACESAT_KERNELS=python, or built without a C compiler)")
    rng = random.Random(41)
    deducer = Deducer(6, 6)
    n, t = deducer.num_vars, deducer.template
    rule = StepRule(deducer)
    checked = contradictions = kept = 0
    for seed in range(3):
        solution = random_solution(t, random.Random(100 + seed))
        value = np.zeros(2 * n + 1, dtype=np.int8)
        value[n] = -1  # the padding position, kept false
        state = TrialState(deducer.trial_tables(), value, compiled=compiled)
        for i in range(16 if kernels == "compiled" else 6):
            known = set((np.flatnonzero(state.value == 1) - n).tolist())
            lits = assumptions(deducer, solution, rng, rng.choice((0.02, 0.1, 0.3)), rng.choice((0.0, 0.05)))
            rng.shuffle(lits)
            keep = i % 3 == 0
            want_ok, want = rule.propagate(known, lits)
            size = state.propagate(np.array(lits, dtype=np.int32) + n, keep)
            got = (state.trail[: size if size >= 0 else -1 - size] - n).tolist()
            assert (size >= 0, got) == (want_ok, want), (seed, i)
            if size >= 0 and keep:
                assert set((np.flatnonzero(state.value == 1) - n).tolist()) == known | set(want)
                kept += 1
            else:
                assert set((np.flatnonzero(state.value == 1) - n).tolist()) == known  # undone
            assert_sound_watches(state)
            assert_sound_watches(TrialState(deducer.trial_tables(), state.value.copy(), compiled=compiled))  # fresh ones too
            checked += 1
            contradictions += size < 0
    assert checked == 3 * (16 if kernels == "compiled" else 6) and contradictions >= 2 and kept >= 3, (contradictions, kept)
