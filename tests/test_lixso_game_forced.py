"""The strategic game's forced wins and its engine's advice, checked against a brute force
written here from the rule engine alone (``rules.py``: moves, play, can_lay), on seeded late
positions of the shipped 6x6 grids with 2, 3 and 4 players."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from placesat.core.limits import Deadline
from placesat.lixso.game.forced import NO_WIN, WIN, ForcedGame, StrategyBug, forced, replay_strategy
from placesat.lixso.game.model import load_position, with_seating
from placesat.lixso.game.rules import bits, replay_position

GRIDS = ["6x6-L3-1", "6x6-L3-2", "6x6-L4-1", "6x6-L4-2", "6x6-L6-1", "6x6-L6-2"]


def late_game(seed: int, players: str, laid: int):
    """A shipped 6x6 grid with ``laid`` random tiles (fewer if the game ends first), seeded:
    the replayed record."""
    rng = random.Random(seed)
    position = with_seating(load_position(f"grids/lixso-game/{GRIDS[seed % len(GRIDS)]}.txt"), players)
    game = replay_position(position)
    rules, state = game.rules, game.state
    moves = []
    for _ in range(laid):
        if state.over:
            break
        k, p = rng.choice(rules.moves(state))
        state = rules.play(state, k, p)
        moves.append(rules.move_of(k, p))
    return replay_position(position.with_moves(moves))


def late_position(seed: int, players: str, laid: int):
    """:func:`late_game`'s rules and state."""
    game = late_game(seed, players, laid)
    return game.rules, game.state


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


# --------------------------------------------------------------------------- best and the Playable


@pytest.mark.parametrize("grid, players", [("6x6-L4-1", 2), ("6x6-L6-1", 4), ("6x6-L3-2", 3)])
def test_a_whole_game_through_the_playable_with_best_on_both_sides(grid, players):
    """From the opening to the end, best(depth=1) on every side; each move typed back,
    checked by the referee; the outcome as the rules say; the record saved and read back."""
    from placesat.lixso.game.model import parse_position
    from placesat.lixso.game.play import LixsoPlayable

    playable = LixsoPlayable(grid=load_position(f"grids/lixso-game/{grid}.txt").grid)
    game = playable.opening(players)
    assert playable.players(game) == players and not game.position.moves
    laid = 0
    while playable.outcome(game) is None:
        legal = playable.moves(game)
        advice = playable.best(game, Deadline.never(), 1)
        assert advice == playable.best(game, Deadline.never(), 1)  # the same answer every time
        assert advice.move in legal and advice.reason
        assert game.rules.violation(game.state, advice.move) is None
        typed = playable.parse_move(game, playable.move_text(game, advice.move))
        seat = playable.to_move(game)
        game = playable.play(game, typed)
        assert game.turns[-1].seat == seat - 1
        laid += 1
    outcome = playable.outcome(game)
    winner = game.rules.winner(game.state)
    assert outcome.scores == game.state.scores and sum(outcome.scores) == laid
    assert outcome.winner == (None if winner is None else game.rules.seating.seats_of(winner)[0] + 1)
    again = replay_position(parse_position(playable.save_text(game)))
    assert again.position.moves == game.position.moves and again.state == game.state


def test_parse_move_names_the_broken_rule():
    from placesat.core.errors import InputError
    from placesat.lixso.game.play import LixsoPlayable

    playable = LixsoPlayable(grid=load_position("grids/lixso-game/6x6-L3-1.txt").grid)
    game = playable.opening(2)
    with pytest.raises(InputError, match="turn"):
        playable.parse_move(game, "X r6c1 r6c2 r5c1")


def _still_wins(rules, state, move, side):
    """After ``move``, does ``side`` still win with perfect play (brute force, whole game)?"""
    seats = len(rules.seat_colours)
    return brute_force(rules, rules.play(state, *rules.coded(move)), 20, side, (state.to_move + 1) % seats)


def test_best_takes_a_forced_win_and_blocks_a_threat():
    """On seeded late positions: a FORCED_WIN move keeps a win (brute force); a DEFENCE move
    leaves the other side no settled win within its next turn (brute force), and "the only
    tile" is the only one that does; both kinds occur."""
    from placesat.core.play import DEFENCE, FORCED_WIN
    from placesat.lixso.game.play import LixsoPlayable

    playable = LixsoPlayable()
    kinds = set()
    for seed in range(30):
        game = late_game(400 + seed, "2", 5 + seed % 3)
        rules, state = game.rules, game.state
        if state.over:
            continue
        advice = playable.best(game, Deadline.never(), 1)
        mover = rules.seating.sides[state.to_move]
        kinds.add(advice.kind)
        if advice.kind == FORCED_WIN:
            assert _still_wins(rules, state, advice.move, mover)
            if "settles" in advice.reason:
                assert brute_force(rules, state, 1)
        elif advice.kind == DEFENCE and "stop" in advice.reason:
            other = 1 - mover
            seats = len(rules.seat_colours)

            def stops(move):
                after = rules.play(state, *rules.coded(move))
                return not brute_force(rules, after, 1, other, (state.to_move + 1) % seats)

            assert stops(advice.move)
            stoppers = [m for m in playable.moves(game) if stops(m)]
            if advice.reason.startswith("the only tile"):
                assert stoppers == [advice.move]
            else:
                assert f"one of {len(stoppers)} tiles" in advice.reason
    assert FORCED_WIN in kinds and DEFENCE in kinds, kinds


# --------------------------------------------------------------------------- the commands


def _saved(tmp_path, game, name="pos.txt"):
    from placesat.lixso.game.model import format_text

    path = tmp_path / name
    path.write_text(format_text(game.position))
    return str(path)


def test_forced_command_prints_a_replayed_win_with_its_line(run_cli, tmp_path):
    import json

    for seed in range(20):
        game = late_game(500 + seed, "4", 6)
        if game.state.over or not brute_force(game.rules, game.state, 1) or brute_force(game.rules, game.state, 0):
            continue  # wanted: a win at the next turn, not one settled already
        path = _saved(tmp_path, game)
        done = run_cli("lixso", "game", "forced", path, "-k", "1")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("win: team ") and " settles its win within its next turn, " in done.stdout
        assert "against team " in done.stdout and "(its two players together)" in done.stdout
        answer = json.loads(run_cli("lixso", "game", "forced", path, "-k", "1", "--json").stdout)
        assert answer["answer"] == "win" and answer["within"] == 1 and answer["strategy_positions"] > 0
        assert answer["strategy"] == {"move": answer["move"], "then": {"settled": True}}
        from placesat.lixso.game.model import parse_move

        assert game.rules.violation(game.state, parse_move(answer["move"])) is None
        return
    pytest.fail("no 4-player position with a win within 1 turn")


def test_forced_command_refuses_a_bad_k_and_a_finished_game(run_cli, tmp_path):
    done = run_cli("lixso", "game", "forced", "grids/lixso-game/6x6-L3-1.txt", "-k", "0")
    assert done.returncode == 2 and done.stderr.strip().splitlines() == ["placesat: error: --moves must be from 1 to 60, not 0"]
    game = late_game(7, "2", 40)
    assert game.state.over
    done = run_cli("lixso", "game", "forced", _saved(tmp_path, game), "-k", "2")
    assert done.returncode == 2 and "the game is over" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_best_command_json(run_cli, tmp_path):
    import json

    from placesat.lixso.game.model import parse_move

    game = late_game(11, "2", 5)
    done = run_cli("lixso", "game", "best", _saved(tmp_path, game), "--depth", "1", "--json")
    assert done.returncode == 0, done.stderr
    advice = json.loads(done.stdout)
    assert advice["kind"] in ("forced win", "defence", "evaluation", "only move", "forced loss") and advice["reason"]
    assert game.rules.violation(game.state, parse_move(advice["move"])) is None


@pytest.mark.timing
@pytest.mark.slow
def test_ctrl_c_on_best_gives_the_best_found_so_far(tmp_path):
    import signal
    import subprocess
    import time

    from .conftest import ROOT, placesat_command

    empty = tmp_path / "empty.txt"
    empty.write_text(("." * 9 + "\n") * 9)
    process = subprocess.Popen(placesat_command() + ["lixso", "game", "best", str(empty), "-t", "120"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    try:
        time.sleep(6)  # the first look-ahead (one ply) is done well within this, even on a loaded machine
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.decode().strip().splitlines() == ["placesat: interrupted"]
    text = out.decode()
    assert "\nbest: " in text and "why: interrupted: the best found so far; evaluation after a " in text
