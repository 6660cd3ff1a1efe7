"""Certifying the calls of a query one by one (solver.core.certified_calls)."""

from __future__ import annotations

import pytest

from placesat.core.backend import Formula, Status, make_backend
from placesat.core.certified_calls import CallCertifier, WrongNo


def _backend():
    formula = Formula()
    a, b, c = formula.new_vars(3)
    formula.add_clause([a, b, c])
    formula.add_at_most([a, b, c], 1)
    return make_backend("sat", formula), (a, b, c)


def test_each_call_is_certified_over_the_clauses_held_when_it_was_made():
    backend, (a, b, c) = _backend()
    certifier = CallCertifier(("dratify",))
    assert backend.solve([-a, -b, -c]).status is Status.UNSAT
    certifier.certify(backend, [-a, -b, -c], "none", "one of a, b, c holds")
    backend.add_clause([-c])
    assert backend.solve([-a, -b]).status is Status.UNSAT
    certifier.certify(backend, [-a, -b], "none", "a or b holds once c is ruled out")
    first, second = certifier.proofs
    assert [first.name, second.name] == ["none", "none-2"]  # one file name each
    # the clause added between the calls is in the second certificate only, before its assumptions
    assert first.certificate.refutation.extra == [[-a], [-b], [-c]]
    assert second.certificate.refutation.extra == [[-c], [-a], [-b]]
    assert certifier.certified and certifier.steps == first.certificate.steps + second.certificate.steps
    assert certifier.words().startswith("certified: 2 proofs of ")
    assert [name for name, _ in certifier.files(["header"])] == ["none.cnf", "none.drat", "none-2.cnf", "none-2.drat"]


def test_a_wrong_no_is_a_defect_not_an_answer():
    backend, (a, b, c) = _backend()
    certifier = CallCertifier(("dratify",))
    with pytest.raises(WrongNo, match="a fresh solver found a model"):
        certifier.certify(backend, [-a, -b], "none", "c cannot hold")  # it can: c alone


def test_cp_sat_gives_no_certificates():
    formula = Formula()
    formula.new_vars(1)
    with pytest.raises(ValueError, match="SAT backend"):
        CallCertifier().certify(make_backend("cpsat", formula), [], "x", "claim")


def test_a_claim_needing_no_proof_is_certified_without_one():
    certifier = CallCertifier()
    certifier.needs_no_proof("bound", "at most 3", "no proof needed: the objective's own maximum")
    assert certifier.certified and not certifier.proofs
    assert certifier.words() == "certified: no proof needed: the objective's own maximum"
    assert certifier.to_json()["proofs"] == 0 and certifier.files() == []
