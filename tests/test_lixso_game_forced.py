"""The strategic game's forced wins and its engine's advice, checked against a brute force
written here from the rule engine alone (``rules.py``: moves, play, can_lay), on seeded late
positions of the shipped 6x6 grids with 2, 3 and 4 players."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from placesat.core.limits import Deadline
from placesat.lixso.game.forced import NO_WIN, PASS, WIN, ForcedGame, StrategyBug, forced, replay_strategy
from placesat.lixso.game.model import load_position, with_seating
from placesat.lixso.game.rules import bits, replay_position

GRIDS = ["6x6-L3-1", "6x6-L3-2", "6x6-L4-1", "6x6-L4-2", "6x6-L6-1", "6x6-L6-2"]


def late_position(seed: int, players: str, laid: int):
    """A shipped 6x6 grid with ``laid`` random tiles (fewer if the game ends first), seeded."""
    rng = random.Random(seed)
    position = with_seating(load_position(f"grids/lixso-game/{GRIDS[seed % len(GRIDS)]}.txt"), players)
    game = replay_position(position)
    rules, state = game.rules, game.state
    for _ in range(laid):
        if state.over:
            break
        k, p = rng.choice(rules.moves(state))
        state = rules.play(state, k, p)
    return rules, state


def brute_force(rules, state, turns: int, side: int | None = None, turn: int | None = None) -> bool:
    """Can the side to move make every future of the game end with it strictly ahead of
    every other side, within ``turns`` of its turns (a passed turn counts), whatever the
    others play? Plain minimax over every move of the engine; "settled" is checked at every
    position by trying every future. ``side``/``turn``: another target, another seat's turn."""
    side = rules.seating.sides[state.to_move] if side is None else side
    seats = len(rules.seat_colours)

    def seat_moves(state, seat):
        return [(k, p) for k in rules.seat_colours[seat] for p in bits(state.possible[k])]

    def ahead(scores):
        return all(scores[side] > s for o, s in enumerate(scores) if o != side)

    @lru_cache(maxsize=None)
    def settled(state) -> bool:
        if state.over:
            return ahead(state.scores)
        return all(settled(rules.play(state, k, p)) for k, p in rules.moves(state))

    @lru_cache(maxsize=None)
    def wins(state, turn: int, own: int) -> bool:
        if settled(state):
            return True
        if own == 0 or state.over:
            return False
        mine = rules.seating.sides[turn] == side
        left = own - 1 if mine else own
        following = (turn + 1) % seats
        if not rules.can_lay(state, turn):
            return wins(state, following, left)
        children = [wins(rules.play(state, k, p, turn), following, left) for k, p in seat_moves(state, turn)]
        return any(children) if mine else all(children)

    return wins(state, state.to_move if turn is None else turn, turns)


CASES = [(seed, players, laid, turns)
         for seed, (players, laid) in enumerate([("2", 5), ("2", 6), ("2", 7), ("4", 6), ("4", 7), ("3", 6)] * 5)
         for turns in (1, 2, 3)]


@pytest.mark.parametrize("seed, players, laid, turns", CASES)
def test_forced_equals_brute_force(seed, players, laid, turns):
    rules, state = late_position(seed, players, laid)
    if state.over:
        pytest.skip("the random game ended early")
    expected = brute_force(rules, state, turns)
    for use_solve, use_bounds in ((True, True), (False, False)):
        answer = forced(rules, state, turns, use_solve=use_solve, use_bounds=use_bounds)
        assert answer.answer == (WIN if expected else NO_WIN), (seed, players, laid, turns, use_solve, use_bounds, answer.how)
        if expected and answer.within:
            assert answer.strategy_positions > 0  # replayed against every reply
            assert answer.passes or rules.violation(state, answer.move) is None


def test_some_cases_are_wins_and_some_are_not():
    """The cases above hold both answers (a check that could only ever say no would pass them)."""
    found = set()
    for seed, players, laid, turns in CASES[::3]:
        rules, state = late_position(seed, players, laid)
        if not state.over:
            found.add(brute_force(rules, state, turns))
    assert found == {True, False}


def test_whole_game_horizon_is_solves_question():
    """When the turns hold the whole game, forced asks solve's search, and agrees with the
    brute force and with solve's own value."""
    from placesat.lixso.game.solve import solve

    checked = 0
    for seed in range(12):
        rules, state = late_position(100 + seed, "2", 6)
        if state.over:
            continue
        answer = forced(rules, state, 12)
        if answer.how != "solve":
            continue
        checked += 1
        expected = brute_force(rules, state, 12)
        assert answer.answer == (WIN if expected else NO_WIN)
        value = solve(rules, state).value
        mover = rules.seating.sides[state.to_move]
        assert expected == ((value > 0) if mover == 0 else (value < 0))
    assert checked >= 5


@pytest.mark.parametrize("seed", range(4))
def test_backends_agree(seed):
    rules, state = late_position(200 + seed, "2", 5)
    answers = {backend: forced(rules, state, 2, backend=backend).answer for backend in ("sat", "cpsat")}
    assert answers["sat"] == answers["cpsat"]


def test_a_wrong_strategy_is_caught_by_the_replay():
    """The replay is a real check: a strategy whose first tile lets the win slip (by the
    brute force) is refuted, however well it plays afterwards."""
    for seed in range(40):
        rules, state = late_position(300 + seed, "2", 6)
        if state.over:
            continue
        answer = forced(rules, state, 2, use_solve=False)
        if answer.answer != WIN or not answer.within:
            continue
        side = rules.seating.sides[state.to_move]
        game = ForcedGame(rules, side, Deadline.never())
        root = game.root(state)
        bad = [move for move in game.moves(root)
               if not brute_force(rules, game.play(root, move).state, answer.within - 1, side, (root.turn + 1) % 2)]
        if not bad:
            continue
        good = forced(rules, state, answer.within, use_solve=False)

        def choose(node, own):
            if node == root:
                return bad[0]
            return game.moves(node)[0]

        with pytest.raises(StrategyBug):
            replay_strategy(rules, state, game, choose, answer.within)
        assert good.answer == WIN
        return
    pytest.fail("no position with a losing first move found")
