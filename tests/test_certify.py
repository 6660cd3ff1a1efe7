"""Certified answers: proofs that independent checkers accept, and reject when they are wrong."""

from __future__ import annotations

import json
import os

import pytest

from placesat.core.backend import cnf_of
from placesat.core.certify import CHECKERS, Refutation, check, refute
from placesat.lixso.certify import certify
from placesat.lixso.model import Grid, load_pack
from placesat.lixso.solve import LixsoSolver, Verdict
from tests.conftest import ROOT

MINIMAL = ROOT / "benchmarks" / "lixso-minimal-9x9.txt"


def pigeonhole(pigeons: int, holes: int) -> tuple[list[list[int]], int]:
    """Every pigeon in a hole, no two in one: unsatisfiable when pigeons > holes."""
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes) for p in range(pigeons) for q in range(p + 1, pigeons)]
    return clauses, pigeons * holes


def both_verdicts(refutation: Refutation) -> list[bool]:
    return [check(refutation, name).accepted for name in CHECKERS]


@pytest.fixture(scope="module")
def minimal_grids():
    return [g for g in load_pack(str(MINIMAL))][:4]


@pytest.fixture(scope="module")
def uniqueness(minimal_grids):
    """A minimal-clue grid's uniqueness certificate, and the pieces it was made from."""
    solver = LixsoSolver("sat")
    grid = minimal_grids[0]
    report = solver.solve(grid)
    assert report.status is Verdict.UNIQUE
    certification = certify(solver, report, CHECKERS)
    return solver, grid, report, certification


def test_a_refutation_of_the_pigeonhole_principle_is_accepted_by_every_checker():
    clauses, variables = pigeonhole(5, 4)
    refutation = refute(clauses, variables)
    assert isinstance(refutation, Refutation) and refutation.steps > 0
    assert both_verdicts(refutation) == [True, True]


def test_a_satisfiable_formula_gives_its_model_not_a_proof():
    clauses, variables = pigeonhole(4, 4)
    model = refute(clauses, variables)
    assert isinstance(model, list)
    true = set(model)
    assert all(any(lit in true or (lit < 0 and -lit not in true) for lit in clause) for clause in clauses)


def test_assumptions_become_unit_clauses_of_the_certificate():
    # x1 or x2 is satisfiable; with -x1 and -x2 assumed it is not, and the CNF must say so
    refutation = refute([[1, 2]], 2, assumptions=[-1, -2])
    assert isinstance(refutation, Refutation)
    assert refutation.extra == [[-1], [-2]]
    assert "p cnf 2 3" in refutation.dimacs()
    assert both_verdicts(refutation) == [True, True]


def test_a_unique_grid_is_certified_by_both_checkers(uniqueness):
    _, _, _, certification = uniqueness
    assert certification.certified and not certification.rejected
    assert certification.checker == " and ".join(CHECKERS)
    assert certification.steps > 100


def _corrupted(refutation: Refutation, proof: list[str]) -> Refutation:
    return Refutation(refutation.num_vars, refutation.base, refutation.extra, proof)


def test_a_proof_missing_its_final_steps_is_rejected_by_both(uniqueness):
    refutation = uniqueness[3].refutation
    additions = [i for i, line in enumerate(refutation.proof) if not line.startswith("d")]
    # drop the empty clause and the lemma before it: nothing left derives the contradiction
    cut = [line for i, line in enumerate(refutation.proof) if i not in additions[-2:]]
    assert both_verdicts(_corrupted(refutation, cut)) == [False, False]


def test_a_proof_with_a_flipped_literal_is_rejected_by_both(uniqueness):
    refutation = uniqueness[3].refutation
    proof = list(refutation.proof)
    # the first learnt unit, negated: it contradicts what the rules and clues imply
    index = next(i for i, line in enumerate(proof) if not line.startswith("d") and len(line.split()) == 2 and line != "0")
    literal = int(proof[index].split()[0])
    proof[index] = f"{-literal} 0"
    assert both_verdicts(_corrupted(refutation, proof)) == [False, False]


def test_a_cnf_with_a_clue_dropped_does_not_certify_the_puzzle(uniqueness):
    solver, grid, report, certification = uniqueness
    refutation = certification.refutation
    # the grid is minimal: without one clue it has other solutions, so no proof can hold
    weakened = Refutation(refutation.num_vars, refutation.base, refutation.extra[:1] + refutation.extra[2:], refutation.proof)
    assert both_verdicts(weakened) == [False, False]
    template = solver.compiled(grid).template
    base, top = cnf_of(template.formula)
    model = refute(base, top, weakened.extra)
    assert isinstance(model, list), "the weakened CNF has a model: it cannot be refuted"


def test_certified_and_uncertified_verdicts_agree(minimal_grids, tmp_path):
    """Unique grids, a grid made multiple by removing a clue, and a contradictory one."""
    solver = LixsoSolver("sat")
    grids = list(minimal_grids)
    first = grids[0]
    clue_r, clue_c, _ = first.clues()[0]
    rows = [list(row) for row in first.rows]
    rows[clue_r][clue_c] = "."
    grids.append(Grid(tuple("".join(r) for r in rows), name="weakened"))  # minimal: now several solutions
    grids.append(Grid(("III", "III"), name="contradiction"))  # six touching I cells: no solution
    statuses = []
    for grid in grids:
        report = solver.solve(grid)
        certification = certify(solver, report, ("dratify",))
        assert certification.certified, (grid.label(), certification.reason)
        statuses.append(report.status)
    assert statuses.count(Verdict.UNIQUE) == len(minimal_grids)
    assert Verdict.MULTIPLE in statuses and Verdict.UNSOLVABLE in statuses


# --------------------------------------------------------------------------- the command line


def test_solve_certify_says_what_checked_it_and_writes_the_certificate(run_cli, tmp_path):
    proofs = tmp_path / "proofs"
    result = run_cli("lixso", "solve", str(ROOT / "grids" / "examples.txt"), "--certify", "--proof-dir", str(proofs))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if ": unique" in line]
    assert len(lines) == 2 and all("(certified: proof of " in line and " steps checked by dratify in " in line for line in lines)
    names = sorted(os.listdir(proofs))
    assert names == ["example-level-2.cnf", "example-level-2.drat", "example-level-6.cnf", "example-level-6.drat"]
    cnf = (proofs / "example-level-2.cnf").read_text()
    assert cnf.startswith("c placesat lixso: example-level-2 is unique") and "\np cnf " in cnf
    assert (proofs / "example-level-2.drat").read_text().rstrip().endswith("0")


def test_solve_certify_json_names_the_checker(run_cli):
    result = run_cli("lixso", "solve", "-", "--certify", "--json", "--checker", "both", input="III\nIII\n")
    record = json.loads(result.stdout)
    assert result.returncode == 1
    assert record["status"] == "unsolvable" and record["certified"] is True
    assert record["checker"] == "dratify and dratify-python" and record["proof_steps"] >= 1


def test_proof_dir_needs_certify(run_cli, tmp_path):
    result = run_cli("lixso", "solve", str(ROOT / "grids" / "examples.txt"), "--proof-dir", str(tmp_path / "p"))
    assert result.returncode == 2 and "--proof-dir needs --certify" in result.stderr


def test_a_rejected_proof_is_a_loud_unknown(monkeypatch, capsys):
    """A checker that refuses the proof: status unknown, an error line, exit 1, never 'unique'."""
    import placesat.core.certify as core_certify
    from placesat.cli.main import main
    from placesat.core.certify import ProofCheck

    monkeypatch.setattr(core_certify, "check_all",
                        lambda refutation, checkers, deadline=None: [ProofCheck("dratify", False, refutation.steps, 0.0, "step 7 is not RUP")])
    with pytest.raises(SystemExit) as ended:
        main(["placesat", "lixso", "solve", str(ROOT / "grids" / "examples.txt"), "--certify", "--json"])
    out, err = capsys.readouterr()
    assert ended.value.code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["status"] for r in records] == ["unknown", "unknown"]
    assert all(r["certified"] is False for r in records)
    assert "dratify rejected the proof (step 7 is not RUP)" in err


def test_verify_certify_counts_certified_puzzles(run_cli):
    result = run_cli("lixso", "verify", str(ROOT / "grids" / "examples.txt"), "--certify", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("(certified: proof of ") == 2
    assert "unique, certified" in result.stdout + result.stderr


# --------------------------------------------------------------------------- any SAT backend call


def test_a_backend_call_is_certified_over_everything_the_solver_holds():
    """Clauses added after the formula (cuts, blocked models) are part of the certificate."""
    from placesat.core.backend import Formula, Status, make_backend
    from placesat.core.certify import Certificate, certify_call

    formula = Formula()
    a, b, c = formula.new_vars(3)
    formula.add_clause([a, b, c])
    backend = make_backend("sat", formula)
    backend.add_clause([-a])
    backend.add_clause([-b])
    assert backend.solve([-c]).status is Status.UNSAT
    certificate = certify_call(backend, [-c])
    assert isinstance(certificate, Certificate) and certificate.certified
    assert [-a] in certificate.refutation.extra and [-c] in certificate.refutation.extra
    # without the added clauses the same assumption has a model: the history matters
    fresh = make_backend("sat", formula)
    assert isinstance(certify_call(fresh, [-c]), list)


def test_a_proven_optimum_carries_the_call_that_bounds_it():
    """Maximise how many of four variables hold when at most two may: the bound is certified."""
    from placesat.core.backend import Formula, make_backend
    from placesat.core.certify import Certificate, certify_call

    formula = Formula()
    xs = formula.new_vars(4)
    formula.add_at_most(xs, 2)
    backend = make_backend("sat", formula)
    best = backend.maximize([(x, 1) for x in xs])
    assert best.objective == 2 and best.bound_assumptions is not None
    certificate = certify_call(backend, best.bound_assumptions)
    assert isinstance(certificate, Certificate) and certificate.certified
