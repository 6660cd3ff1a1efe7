"""``reach`` against trying every move sequence, and the encoding layer by layer against the rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from placesat.core.backend import BACKENDS, Status, make_backend
from placesat.core.errors import InputError
from placesat.lsd.encode import all_stuck_clauses, encode_reach
from placesat.lsd.model import SKIP, SIDES, load_game, new_position
from placesat.lsd.reach import NO, UNKNOWN, YES, reach_win
from placesat.lsd.rules import can_place, is_over, legal_moves, play, play_turn, winner

from .lsd_brute import random_position, shortest_win

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def cases(seed: int, count: int):
    rng = random.Random(seed)
    while count:
        players = rng.choice([2, 2, 4])
        position = random_position(rng, players)
        if is_over(position):
            continue
        count -= 1
        yield position, rng.randint(1, players), rng.randint(1, 3)


def check_witness(answer, position, player):
    """The moves replay by the rules and end with the player's line, nobody winning before."""
    current = position
    for i, move in enumerate(answer.moves):
        assert winner(current) is None
        current = play(current, move)
    assert winner(current) == player
    assert answer.turns[-1].after.field == current.field


def test_reach_matches_trying_every_sequence_on_both_backends():
    yes = 0
    for position, player, plies in cases(11, 40):
        fewest = shortest_win(position, player, plies)
        yes += fewest is not None
        for backend in BACKENDS:
            answer = reach_win(position, player, plies, backend)
            assert answer.answer == (NO if fewest is None else YES), (backend, position, player, plies)
            if fewest is not None:
                assert len(answer.moves) == fewest  # the shortest sequence is reported
                check_witness(answer, position, player)
    assert yes >= 3  # the cases exercise both answers


def test_mid_game_answers_and_both_backends_agree():
    position = load_game(str(GRIDS / "mid20.json"))
    expected = {(1, 2): None, (1, 3): 3, (2, 3): None, (2, 4): 4}
    for (player, plies), length in expected.items():
        for backend in BACKENDS:
            answer = reach_win(position, player, plies, backend)
            assert answer.answer == (NO if length is None else YES)
            if length is not None:
                assert len(answer.moves) == length
                check_witness(answer, position, player)


def test_from_the_empty_field():
    start = new_position(2)
    assert reach_win(start, 1, 6).answer == NO  # player 1 places only 3 tiles in 6 plies
    answer = reach_win(start, 1, 7)
    assert answer.answer == YES and len(answer.moves) == 7
    check_witness(answer, start, 1)
    answer = reach_win(new_position(4), 3, 9)  # three in a row: plies 3, 7 and ... 11
    assert answer.answer == NO


def test_trivial_and_bad_questions():
    start = new_position(2)
    assert reach_win(start, 1, 0).answer == NO
    assert reach_win(start, 2, 1).answer == NO  # player 2 does not move in 1 ply
    with pytest.raises(InputError, match="--plies"):
        reach_win(start, 1, 99)
    with pytest.raises(InputError, match="--player"):
        reach_win(start, 3, 2)
    assert reach_win(load_game(str(GRIDS / "mid20.json")), 1, 6, time_limit=0).answer == UNKNOWN


# --------------------------------------------------------------------------- the encoding, layer by layer


def layer_fields(encoding, result, t):
    """The field the model has after ply ``t``: cell -> (player, dots, plus)."""
    field = {}
    for cell, state in encoding.layers[t].items():
        if not result.value(state.occupied):
            continue
        owners = [p for p, lit in enumerate(state.owner, start=1) if result.value(lit)]
        dots = sum(side for side, lit in zip(SIDES, state.dots) if result.value(lit))
        field[cell] = (owners, dots, result.value(state.plus))
    return field


def forced_assumptions(encoding, moves):
    """Literals that make the model play ``moves`` on its first plies."""
    lits = []
    for ply, move in zip(encoding.plies, moves):
        if move == SKIP:
            lits.append(ply.skip)
            continue
        lits.append(ply.at[move.cell])
        lits.extend(lit if move.dots & side else -lit for side, lit in zip(SIDES, ply.dots))
        lits.append(ply.plus if move.icon == "+" else -ply.plus)
    return lits


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_layer_matches_the_rules_along_random_games(backend):
    """Random legal sequences, forced on the encoding (with every skip rule): the encoded fields
    after each ply are the rule engine's, captures included, and the end flag agrees."""
    rng = random.Random(5)
    checked = captures = 0
    for _ in range(14):
        players = rng.choice([2, 4])
        position = random_position(rng, players, moves=rng.randint(3, 12))
        if is_over(position):
            continue
        plies = rng.randint(2, 4)
        moves, fields, current = [], [], position
        for _ in range(plies):
            if is_over(current):
                break
            move = rng.choice(legal_moves(current))
            turn = play_turn(current, move)
            captures += len(turn.captured)
            moves.append(move)
            current = turn.after
            fields.append(current.field)
        if not moves:
            continue
        target = rng.randint(1, players)
        encoding = encode_reach(position, target, len(moves))
        for clause in all_stuck_clauses(encoding):
            encoding.formula.add_clause(clause)
        solver = make_backend(backend, encoding.formula)
        result = solver.solve(forced_assumptions(encoding, moves))
        won = winner(current)
        if won is not None and won != target:
            # the rules end the game with another player's line: the encoding refuses it
            assert result.status is Status.UNSAT
            continue
        assert result.status is Status.SAT
        for t, field in enumerate(fields, start=1):
            expected = {c: ([tile.player], tile.dots, tile.icon == "+") for c, tile in field.items()}
            assert layer_fields(encoding, result, t) == expected
            checked += 1
        solver.close()
    assert checked >= 20 and captures >= 1


def test_a_skip_is_refused_when_the_mover_can_place():
    position = load_game(str(GRIDS / "mid20.json"))
    encoding = encode_reach(position, 1, 3)
    for clause in all_stuck_clauses(encoding):
        encoding.formula.add_clause(clause)
    solver = make_backend("sat", encoding.formula)
    assert can_place(position, position.to_move)
    assert solver.solve([encoding.plies[0].skip]).status is Status.UNSAT
    assert solver.solve([-encoding.plies[0].skip]).status is Status.SAT
