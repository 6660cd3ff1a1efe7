"""Certified analysis: every 'cannot', every maximum's bound and every 'impossible' backed by a
checked proof; a rejected proof turns its answers into a loud 'unknown'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from placesat.core.certify import CHECKERS, ProofCheck, refute
from placesat.logisticks.analyze import analyze, satisfy
from placesat.logisticks.rules import load_position

try:  # tests/ is a package when it has an __init__.py, a plain directory otherwise
    from tests.logisticks_brute import brute_facts, playout_position
except ImportError:
    from logisticks_brute import brute_facts, playout_position  # type: ignore[no-redef]

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "logisticks"
LATE = GRIDS / "late.json"


def _answers(analysis):
    targets = {(t.player, t.square): (t.can_true.answer, t.can_false.answer) for t in analysis.targets}
    mutable = {m.square: (m.can_true.answer, m.can_false.answer) for m in analysis.mutable}
    return targets, mutable, {s.player: s.best for s in analysis.best_scores}


def _reject(monkeypatch):
    import placesat.core.certify as core_certify

    monkeypatch.setattr(core_certify, "check_all",
                        lambda refutation, checkers, deadline=None: [ProofCheck("dratify", False, refutation.steps, 0.0, "step 5 is not RUP")])


@pytest.mark.parametrize("name", ["late", "midgame", "four-players", "start"])
def test_certified_and_uncertified_analyses_agree_on_the_shipped_positions(name):
    position = load_position(str(GRIDS / f"{name}.json"))
    plain = analyze(position)
    certified = analyze(position, checkers=("dratify",))
    assert _answers(certified) == _answers(plain)
    assert certified.certification.certified, certified.certification.words()
    assert all(s.certified for s in certified.best_scores)


def test_late_position_rests_on_three_proofs():
    """late.json: one call proves every 'cannot' at once; each player's maximum has its bound."""
    analysis = analyze(load_position(str(LATE)), checkers=CHECKERS)
    names = [call.name for call in analysis.certification.proofs]
    assert names == ["max-score-player-1", "max-score-player-2", "cannot"]
    cannot = analysis.certification.proofs[2]
    impossible = [q for t in analysis.targets for q in (t.can_true, t.can_false) if q.answer is False]
    impossible += [q for m in analysis.mutable for q in (m.can_true, m.can_false) if q.answer is False]
    assert impossible and all(not q.on_board for q in impossible)
    assert all(call.certificate.checker == "dratify and dratify-python" for call in analysis.certification.proofs)
    # the claim names every question the proof settles
    assert "b1 TRUE" in cannot.claim and "h1 FALSE" in cannot.claim
    record = analysis.to_json()
    assert record["certified"] is True and record["proofs"] == 3 and record["proof_steps"] > 0


def test_a_bound_certificate_holds_its_bound():
    """Without the assumption that bounds player 2's score the CNF has a model (the witness
    scoring the maximum): the proof certified the bound itself."""
    analysis = analyze(load_position(str(LATE)), player=2, checkers=("dratify",))
    call = analysis.certification.proofs[0]
    assert call.name == "max-score-player-2" and "more than 6 point(s)" in call.claim
    refutation = call.certificate.refutation
    assert isinstance(refute(refutation.base, refutation.num_vars, refutation.extra[:-1]), list)


@pytest.mark.parametrize("seed,moves", [(5, 40), (13, 40), (27, 40)])
def test_certified_analysis_agrees_with_brute_force(seed, moves):
    position = playout_position(seed, moves, 2)
    values, best = brute_facts(position)
    analysis = analyze(position, checkers=("dratify",))
    targets, mutable, best_found = _answers(analysis)
    for (_player, square), (can_true, can_false) in targets.items():
        reached = values.get(square, {None})
        assert (can_true, can_false) == (True in reached, False in reached), square
    for square, (can_true, can_false) in mutable.items():
        assert (can_true, can_false) == (True in values[square], False in values[square]), square
    assert best_found == best and analysis.certification.certified


def test_satisfy_certifies_impossible_and_the_maximum():
    position = load_position(str(LATE))
    best = satisfy(position, 2, checkers=("dratify",))
    assert best.status == "possible" and best.score == 6
    assert [call.name for call in best.certification.proofs] == ["max-score"]
    beyond = satisfy(position, 2, at_least=7, checkers=("dratify",))
    assert beyond.status == "impossible" and beyond.certification.certified
    assert [call.name for call in beyond.certification.proofs] == ["impossible"]
    # more points than targets: read off the board, no solver call and no proof
    counted = satisfy(position, 1, at_least=9, checkers=("dratify",))
    assert counted.status == "impossible" and counted.certification.certified and not counted.certification.proofs
    assert "at most 8 of player 1's targets" in counted.certification.words()


def test_a_rejected_proof_leaves_unknown_never_no(monkeypatch):
    _reject(monkeypatch)
    position = load_position(str(LATE))
    analysis = analyze(position, checkers=("dratify",))
    assert analysis.certification.rejected and not analysis.certification.certified
    assert all(s.best is None and s.certified is False for s in analysis.best_scores)
    answers = [q.answer for t in analysis.targets for q in (t.can_true, t.can_false)]
    answers += [q.answer for m in analysis.mutable for q in (m.can_true, m.can_false)]
    assert False not in answers and None in answers and True in answers
    assert satisfy(position, 2, at_least=7, checkers=("dratify",)).status == "unknown"
    assert satisfy(position, 2, checkers=("dratify",)).status == "unknown"


# --------------------------------------------------------------------------- the command line


def test_analyze_certify_output_json_and_files(run_cli, tmp_path):
    proofs = tmp_path / "proofs"
    result = run_cli("logisticks", "analyze", str(LATE), "--certify", "--proof-dir", str(proofs))
    assert result.returncode == 0, result.stderr
    last = result.stdout.splitlines()[-1]
    assert last.startswith("certified: 3 proofs of ") and " steps in all checked by dratify in " in last
    assert sorted(p.name for p in proofs.iterdir()) == sorted(
        f"{stem}.{ext}" for stem in ("cannot", "max-score-player-1", "max-score-player-2") for ext in ("cnf", "drat"))
    record = json.loads(run_cli("logisticks", "analyze", str(LATE), "--certify", "--json", "--checker", "both").stdout)
    assert record["certified"] is True and record["checker"] == "dratify and dratify-python" and record["proofs"] == 3
    assert all(entry["certified"] is True for entry in record["max_score"])


def test_satisfy_certify_output_and_cpsat_note(run_cli):
    result = run_cli("logisticks", "satisfy", str(LATE), "-p", "2", "--score", "7", "--certify", "--backend", "cpsat")
    assert result.returncode == 1
    assert result.stdout.startswith("impossible: no completion gives player 2 7 point(s) (certified: proof of ")
    assert "placesat: note: --certify uses the SAT backend" in result.stderr
    best = run_cli("logisticks", "satisfy", str(LATE), "-p", "2", "--certify", "--json")
    record = json.loads(best.stdout)
    assert best.returncode == 0 and record["status"] == "possible" and record["score"] == 6
    assert record["certified"] is True and record["proofs"] == 1 and record["proof_steps"] > 0


def test_a_rejected_proof_is_a_loud_unknown(monkeypatch, capsys):
    from placesat.cli.main import main

    _reject(monkeypatch)
    with pytest.raises(SystemExit) as ended:
        main(["placesat", "logisticks", "satisfy", str(LATE), "-p", "2", "--score", "7", "--certify", "--json"])
    out, err = capsys.readouterr()
    assert ended.value.code == 1
    record = json.loads(out)
    assert record["status"] == "unknown" and record["certified"] is False
    assert "no completion gives player 2 7 point(s): dratify rejected the proof (step 5 is not RUP)" in err
    with pytest.raises(SystemExit) as ended:
        main(["placesat", "logisticks", "analyze", str(LATE), "--certify"])
    out, err = capsys.readouterr()
    assert ended.value.code == 1
    assert "player 2: 0 point(s) now, at most unknown achievable" in out
    assert err.count("rejected the proof") == 3
