"""Certified reach answers: every 'no', every 'fewest' and every best value backed by a checked proof."""

from __future__ import annotations

import json

import pytest

from placesat.core.certify import CHECKERS, ProofCheck, refute
from placesat.laido.model import BLACK, WHITE, Position, load_game
from placesat.laido.reach import reach_best, reach_win
from tests.conftest import ROOT
from tests.test_laido_reach import by_trying_everything, random_positions

HAND = ROOT / "grids" / "laido" / "hand.json"
BRANCH = ROOT / "grids" / "laido" / "branch.json"


def test_a_certified_no_on_a_small_board():
    # hand.json: Black's line of seven across the board beats anything White makes with 3 stones
    answer = reach_win(load_game(str(HAND)), WHITE, 3, "sat", checkers=CHECKERS)
    assert answer.answer == "no"
    certification = answer.certification
    assert certification.certified and len(certification.proofs) == 1
    call = certification.proofs[0]
    assert call.name == "no-win" and "white cannot win by adding at most 3 stone(s)" in call.claim
    assert call.certificate.checker == "dratify and dratify-python" and call.certificate.steps > 0


def test_the_fewest_certificate_rests_on_its_bound():
    """White wins with one stone (a second lone group: [-1, -1] beats [-1]); the certificate
    that no fewer stones win holds the bound as a unit clause, and without it the CNF has a
    model (the winning stone): the proof certified the bound, not something weaker."""
    position = Position(3, frozenset({(0, 0)}), frozenset({(1, 0)}), to_move=BLACK)
    answer = reach_win(position, WHITE, 1, "sat", checkers=("dratify",))
    assert answer.answer == "yes" and len(answer.stones) == 1
    (call,) = answer.certification.proofs
    assert call.name == "fewest" and "fewer than 1 stone(s)" in call.claim
    refutation = call.certificate.refutation
    assert refutation.extra[-1] and len(refutation.extra[-1]) == 1  # the bound, assumed
    assert isinstance(refute(refutation.base, refutation.num_vars, refutation.extra[:-1]), list)


def test_certified_answers_match_trying_everything():
    """30 small random positions: certified answers agree with brute force, and every 'no',
    every fewest count and every best value carries an accepted proof (or needs none)."""
    for position, player, limit in random_positions(5, 30):
        fewest, best = by_trying_everything(position, player, limit)
        answer = reach_win(position, player, limit, "sat", checkers=("dratify",))
        assert answer.answer == ("no" if fewest is None else "yes"), (position, player, limit)
        assert answer.certification.certified, answer.certification.words()
        if fewest is None:
            assert [call.name for call in answer.certification.proofs] == ["no-win"]
        else:
            assert len(answer.stones) == fewest
            # a win with stones proves that fewer do not; passing alone needs no proof
            assert [call.name for call in answer.certification.proofs] == (["fewest"] if fewest else [])
        best_answer = reach_best(position, player, limit, "sat", checkers=("dratify",))
        assert best_answer.value == best and best_answer.certification.certified


def test_certificates_need_the_sat_backend():
    with pytest.raises(ValueError, match="SAT backend"):
        reach_win(load_game(str(HAND)), WHITE, 1, "cpsat", checkers=("dratify",))


def test_a_rejected_proof_makes_no_unknown(monkeypatch):
    import placesat.core.certify as core_certify

    monkeypatch.setattr(core_certify, "check_all",
                        lambda refutation, checkers, deadline=None: [ProofCheck("dratify", False, refutation.steps, 0.0, "step 3 is not RUP")])
    answer = reach_win(load_game(str(HAND)), WHITE, 1, "sat", checkers=("dratify",))
    assert answer.answer == "unknown"
    assert answer.certification.rejected and not answer.certification.certified
    best = reach_best(Position(3, frozenset({(-1, 0), (0, 0), (1, 0)}), frozenset(), to_move=BLACK), BLACK, 2, "sat", checkers=("dratify",))
    assert best.answer == "unknown"


# --------------------------------------------------------------------------- the command line


def test_reach_certify_says_what_checked_it(run_cli, tmp_path):
    proofs = tmp_path / "proofs"
    result = run_cli("laido", "reach", str(HAND), "--player", "white", "--stones", "2", "--certify", "--proof-dir", str(proofs))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("no: white cannot win with at most 2 more stone(s) (certified: proof of ")
    assert " steps checked by dratify in " in result.stdout
    assert sorted(p.name for p in proofs.iterdir()) == ["no-win.cnf", "no-win.drat"]
    cnf = (proofs / "no-win.cnf").read_text()
    assert "c unsatisfiable means: white cannot win by adding at most 2 stone(s) while black passes" in cnf
    assert "\np cnf " in cnf


def test_reach_certify_json_and_the_cpsat_note(run_cli):
    result = run_cli("laido", "reach", str(HAND), "-p", "white", "-k", "1", "--certify", "--json", "--backend", "cpsat", "--checker", "both")
    record = json.loads(result.stdout)
    assert result.returncode == 0, result.stderr
    assert record["answer"] == "no" and record["certified"] is True and record["proofs"] == 1
    assert record["checker"] == "dratify and dratify-python" and record["proof_steps"] > 0
    assert "--certify uses the SAT backend" in result.stderr
    # the default backend of reach is CP-SAT: --certify switches without a note
    quiet = run_cli("laido", "reach", str(HAND), "-p", "white", "-k", "1", "--certify")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_best_certify_and_fewest(run_cli):
    best = run_cli("laido", "reach", str(BRANCH), "-p", "white", "-k", "1", "--best", "--certify")
    assert best.returncode == 0, best.stderr
    assert "(certified: proof of " in best.stdout.splitlines()[0]
    line = run_cli("laido", "reach", "-", "-p", "white", "-k", "1", "--certify",
                   input=json.dumps({"size": 3, "black": [[0, 0]], "white": [[1, 0]], "to_move": "black"}))
    assert line.returncode == 0, line.stderr
    assert line.stdout.startswith("yes: white wins by adding 1 stone(s)")
    assert "no fewer stones win (certified: proof of " in line.stdout


def test_proof_dir_needs_certify(run_cli, tmp_path):
    result = run_cli("laido", "reach", str(HAND), "-p", "white", "-k", "1", "--proof-dir", str(tmp_path / "p"))
    assert result.returncode == 2 and "--proof-dir needs --certify" in result.stderr


def test_a_rejected_proof_is_a_loud_unknown(monkeypatch, capsys):
    import placesat.core.certify as core_certify
    from placesat.cli.main import main

    monkeypatch.setattr(core_certify, "check_all",
                        lambda refutation, checkers, deadline=None: [ProofCheck("dratify", False, refutation.steps, 0.0, "step 7 is not RUP")])
    with pytest.raises(SystemExit) as ended:
        main(["placesat", "laido", "reach", str(HAND), "-p", "white", "-k", "1", "--certify", "--json"])
    out, err = capsys.readouterr()
    assert ended.value.code == 1
    record = json.loads(out)
    assert record["answer"] == "unknown" and record["certified"] is False
    assert "white cannot win by adding at most 1 stone(s) while black passes: dratify rejected the proof (step 7 is not RUP)" in err
