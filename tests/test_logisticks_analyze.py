"""The completion encoding and the analysis, cross-checked against brute force and replayed."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

try:  # tests/ is a package when it has an __init__.py, a plain directory otherwise
    from tests.logisticks_brute import brute_facts, playout_position, reachable_boards
except ImportError:
    from logisticks_brute import brute_facts, playout_position, reachable_boards  # type: ignore[no-redef]
from placesat.core.backend import Status, make_backend
from placesat.logisticks.analyze import analyze, satisfy
from placesat.logisticks.encode import encode_completions
from placesat.logisticks.model import position_from_json, square_point
from placesat.logisticks.rules import load_position
from placesat.logisticks.rules import replay, scores, signals, target_resolved

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "logisticks"
BACKENDS = ("sat", "cpsat")
# (seed, moves) of random playouts whose completions (two pieces left in the supplies) brute
# force enumerates in well under a second each
SMALL = [(5, 40), (7, 40), (13, 40), (14, 40), (19, 25), (22, 25), (22, 40), (27, 40)]


def _answers(analysis):
    targets = {(t.player, t.square): (t.can_true.answer, t.can_false.answer) for t in analysis.targets}
    mutable = {m.square: (m.can_true.answer, m.can_false.answer) for m in analysis.mutable}
    best = {s.player: s.best for s in analysis.best_scores}
    return targets, mutable, best


@pytest.mark.parametrize("seed,moves", SMALL)
@pytest.mark.parametrize("backend", BACKENDS)
def test_analysis_agrees_with_brute_force(seed, moves, backend):
    position = playout_position(seed, moves, 2)
    values, best = brute_facts(position)
    targets, mutable, best_found = _answers(analyze(position, backend))
    for (player, square), (can_true, can_false) in targets.items():
        reached = values.get(square, {None})
        assert (can_true, can_false) == (True in reached, False in reached), square
    for square, (can_true, can_false) in mutable.items():
        assert (can_true, can_false) == (True in values[square], False in values[square]), square
    assert best_found == best


def test_small_positions_are_not_trivial():
    """The cross-check above is worth something only if its answers vary."""
    seen = set()
    for seed, moves in SMALL[:4]:
        targets, mutable, best = _answers(analyze(playout_position(seed, moves, 2)))
        seen.update(a for pair in list(targets.values()) + list(mutable.values()) for a in pair)
        seen.update(("best", b) for b in best.values())
    assert {True, False} <= seen
    assert any(key[0] == "best" and key[1] > 0 for key in seen if isinstance(key, tuple))


@pytest.mark.parametrize("loops", ["levels", "lazy"])
@pytest.mark.parametrize("seed,moves", [(13, 40), (27, 40), (7, 40)])
def test_encoded_final_boards_are_exactly_the_reachable_boards(seed, moves, loops):
    """Conditions (1)-(4) of encode.py describe exactly the boards legal lines reach (with the
    lazy loop encoding: once every loop a model shows has been cut)."""
    position = playout_position(seed, moves, 2)
    reached = {
        frozenset((sq, pc.kind) for sq, pc in board.pieces.items() if sq not in position.pieces)
        for board in reachable_boards(position)
    }
    enc = encode_completions(position, loops)
    solver = make_backend("sat", enc.formula)
    kind_vars = [v for kinds in enc.kind_var.values() for v in kinds.values()]
    encoded = set()
    while True:
        result = solver.solve()
        if result.status is not Status.SAT:
            break
        found = enc.model_loops(result)
        if found:
            assert loops == "lazy"
            for loop in found:
                solver.add_clause([lit for lit in enc.loop_cut(loop) if not isinstance(lit, bool)])
            continue
        added = frozenset((p.square, p.kind) for p in enc.added_placements(result))
        encoded.add(added)
        solver.add_clause([-v if result.value(v) else v for v in kind_vars])
        assert len(encoded) <= len(reached)
    assert encoded == reached


@pytest.mark.parametrize("loops", ["levels", "lazy"])
def test_loop_encodings_agree(loops):
    position = playout_position(3, 40, 4)
    assert _answers(analyze(position, loops=loops)) == _answers(analyze(position, loops="levels"))


def test_backends_agree_on_a_late_position():
    position = load_position(str(GRIDS / "late.json"))
    sat, cpsat = (_answers(analyze(position, b)) for b in BACKENDS)
    assert sat == cpsat
    targets, _mutable, _best = sat
    assert any(pair == (False, False) for pair in targets.values())  # dead targets exist here


def test_every_possible_answer_has_a_replayable_witness():
    position = load_position(str(GRIDS / "late.json"))
    result = analyze(position)
    for verdict in result.targets:
        for question in (verdict.can_true, verdict.can_false):
            if question.answer:
                witness = result.witnesses[question.witness]
                final = replay(position, witness.plan)
                assert signals(final).get(verdict.square) is question.value
    for best in result.best_scores:
        witness = result.witnesses[best.witness]
        assert scores(replay(position, witness.plan))[best.player].points == best.best


@pytest.mark.parametrize("backend", BACKENDS)
def test_satisfy_reaches_the_maximum_and_no_more(backend):
    position = load_position(str(GRIDS / "late.json"))
    best = {s.player: s.best for s in analyze(position, backend).best_scores}
    for player in (1, 2):
        found = satisfy(position, player, backend)
        assert found.status == "possible" and found.score == best[player]
        assert scores(replay(position, found.witness.plan))[player].points == best[player]
        plan = found.witness.plan
        for cut in range(len(plan) - 1):  # the game does not end part-way through the line
            assert not target_resolved(replay(position, plan[: cut + 1]))
        beyond = satisfy(position, player, backend, at_least=best[player] + 1)
        assert beyond.status == "impossible" and beyond.witness is None
        exact = satisfy(position, player, backend, at_least=best[player])
        assert exact.status == "possible" and exact.score >= best[player]


def test_witness_line_waits_for_a_capacitor():
    # player 1 put a Capacitor on d6 on turn 1; player 2 to move on turn 2 wants d8 TRUE,
    # which needs d7 played off the Capacitor: not before turn 3.
    position = position_from_json({
        "players": 2,
        "targets": {"1": {"d1": "B"}, "2": {"d8": "W"}},
        "pieces": [{"square": "d6", "piece": "CAP", "inputs": "S", "player": 1, "turn": 1}],
        "to_move": 2,
        "supply": {"1": {"PASS": 1}, "2": {"PASS": 1}},
    })
    found = satisfy(position, 2)
    assert found.status == "possible" and found.score == 1
    steps = {step.placement.square: step for step in found.witness.plan}
    assert steps[square_point("d7")].turn >= 3
    replay(position, found.witness.plan)  # checks the timing again


def test_no_time_gives_unknown_never_a_guess():
    position = load_position(str(GRIDS / "late.json"))
    result = analyze(position, time_limit=0.0)
    assert all(s.best is None for s in result.best_scores)
    assert all(q.answer is None for t in result.targets for q in (t.can_true, t.can_false) if t.now is None)
    assert satisfy(position, 1, time_limit=0.0).status == "unknown"


def test_player_option_keeps_the_answers_of_that_player():
    position = position_from_json(json.loads((GRIDS / "late.json").read_text()))
    result = analyze(position, player=2)
    assert {t.player for t in result.targets} == {2} and [s.player for s in result.best_scores] == [2]
    targets, mutable, best = _answers(analyze(position))
    only, only_mutable, only_best = _answers(result)
    assert only == {key: pair for key, pair in targets.items() if key[0] == 2}
    assert only_mutable == mutable and only_best == {2: best[2]}


def test_a_finished_game_has_no_further_completions():
    pieces = [
        {"square": "d3", "piece": "PASS", "inputs": "N", "player": 1},
        {"square": "d2", "piece": "PASS", "inputs": "N", "player": 1},
        {"square": "d1", "piece": "PASS", "inputs": "N", "player": 1},  # FALSE to a white stone
        {"square": "d6", "piece": "PASS", "inputs": "S", "player": 2},
        {"square": "d7", "piece": "PASS", "inputs": "S", "player": 2},
        {"square": "d8", "piece": "PASS", "inputs": "S", "player": 2},  # TRUE to a white stone
        {"square": "c6", "piece": "AND", "inputs": "SE", "player": 2},  # TRUE from d6, S open
    ]
    data = {"players": 2, "targets": {"1": {"d1": "W"}, "2": {"d8": "W"}}, "pieces": pieces}
    position = position_from_json(data)
    result = analyze(position)
    assert [s.best for s in result.best_scores] == [0, 1]
    (c6,) = result.mutable
    # the game is over (both targets settled): c5 PASS E would resolve c6 to FALSE, but no
    # piece is placed after the end
    assert (c6.can_true.answer, c6.can_false.answer) == (False, False)
    # one more target, still empty, keeps the game going: then c6 resolves either way
    # (c5 PASS E feeds it d5's black stone, c5 NOT E the inverse)
    data["targets"]["2"]["a8"] = "B"
    result = analyze(position_from_json(data))
    (c6,) = result.mutable
    assert (c6.can_true.answer, c6.can_false.answer) == (True, True)


@pytest.mark.parametrize("seed", range(4))
def test_random_legal_lines_are_completions_with_the_same_signals(seed):
    """Necessity on full-size positions: the board after any legal line is a model of the
    encoding, and the encoded signals are the rule engine's."""
    import random

    from placesat.logisticks.rules import apply_move, legal_placements

    rng = random.Random(seed)
    position = load_position(str(GRIDS / "midgame.json"))
    line = position
    for _ in range(25 + 5 * seed):
        options = legal_placements(line)
        if not options:
            break
        line = apply_move(line, rng.choice(options))
    enc = encode_completions(position, "levels")
    assumptions = []
    for square, kinds in enc.kind_var.items():
        for kind, var in kinds.items():
            placed = line.pieces.get(square)
            assumptions.append(var if placed is not None and placed.kind == kind else -var)
    result = make_backend("sat", enc.formula).solve(assumptions)
    assert result.status is Status.SAT
    values = signals(line)
    for square in enc.is_true:
        t, f = (enc.is_true[square], enc.is_false[square])
        got = True if (t is True or (not isinstance(t, bool) and result.value(t))) else (
            False if (f is True or (not isinstance(f, bool) and result.value(f))) else None)
        assert got is values.get(square), square


@pytest.mark.parametrize("backend", BACKENDS)
def test_three_players_agree_with_brute_force(backend):
    position = playout_position(7, 30, 2, players=3)
    values, best = brute_facts(position)
    targets, _mutable, best_found = _answers(analyze(position, backend))
    assert len(targets) == 24  # corners a1 and a8 carry two targets each
    for (_player, square), pair in targets.items():
        reached = values.get(square, {None})
        assert pair == (True in reached, False in reached)
    assert best_found == best and any(b > 0 for b in best.values())


def test_short_rings_are_the_grid_cycles():
    from placesat.logisticks.encode import short_rings

    rings = short_rings(6)
    # 2x2 blocks clear of the centre: 49 - 9; 2x3 and 3x2 blocks clear of it: 2 * (42 - 12)
    assert sum(len(r) == 4 for r in rings) == 40 and sum(len(r) == 6 for r in rings) == 60
    for ring in short_rings(12):
        assert len(set(ring)) == len(ring)
        for a, b in zip(ring, ring[1:] + ring[:1]):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    assert any(len(r) == 12 for r in short_rings(12))  # e.g. the ring round the centre block


def test_switch_to_the_full_loop_encoding_mid_session(monkeypatch):
    """With no patience for loop cuts, the session adds the level encoding to the live solver
    at the first loop a model shows; the answers must not change. (On the empty board CP-SAT's
    first models have loops; CaDiCaL's may not.)"""
    analysis = importlib.import_module("placesat.logisticks.analyze")  # placesat.logisticks.analyze is the call
    from placesat.logisticks.encode import CompletionEncoding

    position = load_position(str(GRIDS / "start.json"))
    switched = []
    add_levels = CompletionEncoding.add_levels

    def counting(self, sink):
        switched.append(sink)
        return add_levels(self, sink)

    for backend in BACKENDS:
        expected = _answers(analyze(position, backend, loops="levels"))
        with monkeypatch.context() as patch:
            patch.setattr(analysis, "LAZY_ROUNDS", 0)
            patch.setattr(CompletionEncoding, "add_levels", counting)
            assert _answers(analyze(position, backend, loops="lazy")) == expected
    assert switched, "no session met a loop: the test no longer exercises the switch"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_backends_agree_on_random_midgames(seed):
    import random

    from placesat.logisticks.rules import apply_move, legal_placements

    rng = random.Random(seed)
    position = position_from_json({"players": 2, "targets": {"layout": "random", "seed": seed}})
    for _ in range(16):
        position = apply_move(position, rng.choice(legal_placements(position)))
    sat, cpsat = (_answers(analyze(position, backend)) for backend in BACKENDS)
    assert sat == cpsat
