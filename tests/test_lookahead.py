"""The look-ahead engine (placesat.core.lookahead) on every game: it takes a win at once, stops
the other's win at once, plays only legal moves, repeats itself under a node budget, answers by
its deadline; and its engine specs.

The positions are reached by seeded random plies from each game's opening (``_reached``), found
once by brute force: one where the side to move has a win at once (a point at once in
Logi-Sticks, where the game is won on points) among many moves that do not, one where many of
its moves leave the other side a win at once and others do not. Every assertion checks the
engine's move against the rules by brute force (every reply played), not against a stored answer.
"""

from __future__ import annotations

import random
import time

import pytest

import placesat
from placesat.core.limits import Deadline
from placesat.core.lookahead import Lookahead

from .test_lsd_cli import one_error_line


def _game(name: str):
    return placesat.playable(name, 5) if name == "laido" else placesat.playable(name)


def _reached(game, seed: int, plies: int):
    """The position after ``plies`` random plies from the opening (seeded)."""
    rng = random.Random(seed)
    position = game.opening(2)
    for _ in range(plies):
        position = game.play(position, rng.choice(list(game.moves(position))))
    return position


def _wins_at_once(game, position, seat: int | None = None) -> list:
    """The moves of the side to move after which ``seat`` (default: the side to move) has won
    (every move played through the rules)."""
    seat = game.to_move(position) if seat is None else seat
    return [m for m in game.moves(position) if (game.outcome(game.play(position, m)) or _NOT_OVER).winner == seat]


def _won_by_force(game, position, seat: int, plies: int) -> bool:
    """Whether ``seat`` wins from ``position`` within ``plies`` plies whatever the others play
    (every line played out through the rules)."""
    ended = game.outcome(position)
    if ended is not None:
        return ended.winner == seat
    if plies == 0:
        return False
    after = [game.play(position, m) for m in game.moves(position)]
    if game.to_move(position) == seat:
        return any(_won_by_force(game, p, seat, plies - 1) for p in after)
    return all(_won_by_force(game, p, seat, plies - 1) for p in after)


class _NotOver:
    winner = None


_NOT_OVER = _NotOver()

# (game, seed, plies): the side to move has a win at once (found by brute force)
WIN_AT_ONCE = [("lsd", 0, 12), ("quarry", 2, 43), ("lixso-game", 11, 14), ("laido", 0, 54)]
# (game, seed, plies): of 12 sampled moves, most leave the other side a win at once, some do not
STOP_AT_ONCE = [("lsd", 0, 11), ("quarry", 2, 42), ("lixso-game", 3, 15), ("laido", 8, 65)]


@pytest.mark.parametrize("forced", [1, 0], ids=["with-best-at-root", "search-alone"])
@pytest.mark.parametrize("name, seed, plies", WIN_AT_ONCE)
def test_takes_a_win_at_once(name, seed, plies, forced):
    game = _game(name)
    position = _reached(game, seed, plies)
    winning = _wins_at_once(game, position)
    assert winning and len(winning) < len(game.moves(position))  # a real choice
    advice = Lookahead(game, plies=2, forced=forced).best(position, Deadline(None), nodes=20_000)
    # a win at once, or (the Lixso game's own search, which proves the margin) a win by force
    # that brute force confirms on the few plies left
    mover = game.to_move(position)
    assert advice.move in winning or (name == "lixso-game" and _won_by_force(game, game.play(position, advice.move), mover, 6)), advice


@pytest.mark.parametrize("forced", [1, 0], ids=["with-best-at-root", "search-alone"])
@pytest.mark.parametrize("name, seed, plies", STOP_AT_ONCE)
def test_stops_the_other_sides_win_at_once(name, seed, plies, forced):
    game = _game(name)
    position = _reached(game, seed, plies)
    legal = list(game.moves(position))
    assert not _wins_at_once(game, position)
    sample = legal if len(legal) <= 12 else random.Random(plies).sample(legal, 12)
    other = 3 - game.to_move(position)
    leaving = [m for m in sample if game.outcome(game.play(position, m)) is None and _wins_at_once(game, game.play(position, m), other)]
    assert leaving and len(leaving) < len(sample)  # some moves lose at once, some do not
    advice = Lookahead(game, plies=2, forced=forced).best(position, Deadline(None), nodes=40_000)
    after = game.play(position, advice.move)
    # (in the Lixso game the mover lays again when the other has no tile left: no reply then)
    other = 3 - game.to_move(position)
    assert game.outcome(after) is not None or not _wins_at_once(game, after, other), advice


def test_logisticks_scores_a_point_at_once_and_stops_the_others():
    """Logi-Sticks is won on points at the end: the win at once is a point at once. (The
    search alone may let a point go for closeness elsewhere: points are not the game's end, so
    the stop comes from the game's own engine at the root, always among the moves searched.)"""
    forced = 1
    from placesat.logisticks.forced import Goal, Node, goal_moves
    from placesat.logisticks.play import point_threats, stops_threat
    from placesat.logisticks.rules import scores

    game = _game("logisticks")
    engine = Lookahead(game, plies=2, forced=forced)
    position = _reached(game, 0, 23)
    me = position.to_move
    assert goal_moves(Node(position), Goal(me, score=scores(position)[me].points + 1))
    advice = engine.best(position, Deadline(None), nodes=2_000)
    assert scores(game.play(position, advice.move))[me].points == scores(position)[me].points + 1, advice
    position = _reached(game, 0, 22)
    rival, threats = point_threats(position)
    stopping = [m for m in game.moves(position) if stops_threat(position, game.play(position, m), rival)]
    assert threats and 0 < len(stopping) < len(game.moves(position)) / 2
    advice = engine.best(position, Deadline(None), nodes=2_000)
    assert advice.move in stopping, advice


@pytest.mark.parametrize("name", ["lsd", "lixso-game", "logisticks"])
def test_plays_legal_moves_and_repeats_itself_under_a_node_budget(name):
    """A few plies of the engine against itself, twice: the same moves, each one legal. (The
    Lixso game's root search looks one own move deep here: two cost 20 s a run.)"""
    game = _game(name)
    root = {"forced": 1} if name == "lixso-game" else {}
    games = []
    for _ in range(2):
        position, moves = _reached(game, 1, 2), []
        for _ in range(4):
            if game.outcome(position) is not None:
                break
            advice = Lookahead(game, plies=2, **root).best(position, Deadline(None), nodes=150)
            assert advice.move in list(game.moves(position))
            moves.append(game.move_text(position, advice.move))
            position = game.play(position, advice.move)
        games.append(moves)
    assert games[0] == games[1] and games[0]


def test_answers_by_its_deadline():
    """On Quarry's opening (1,600 moves a ply) 4 plies take many seconds; a 0.3 s deadline is
    kept, with slack for the step in hand when it comes (on a loaded machine)."""
    game = _game("quarry")
    position = _reached(game, 1, 2)
    started = time.monotonic()
    advice = Lookahead(game, plies=4).best(position, Deadline(0.3))
    assert time.monotonic() - started < 0.3 + 1.0
    assert advice.move in list(game.moves(position))


def test_deepens_while_the_node_budget_lasts_and_repeats_itself():
    """Without a cap on the plies the search deepens until its budget runs out: a larger node
    budget finishes deeper iterations (LSD, a few milliseconds a position), the same ones each
    run; and without any budget it stops at the default depth."""
    from placesat.core.lookahead import DEFAULT_PLIES

    game = _game("lsd")
    position = _reached(game, 1, 4)
    reached = []
    for nodes in (60, 600, 600):
        engine = Lookahead(game, plies=None, forced=0)
        move = engine.best(position, Deadline(None), nodes=nodes).move
        reached.append((engine.finished, game.move_text(position, move)))
    assert reached[1] == reached[2]
    assert 1 <= reached[0][0] < reached[1][0]
    assert Lookahead(game, plies=None).deepest(Deadline(None), None) == DEFAULT_PLIES
    assert Lookahead(game, plies=None).deepest(Deadline(None), 100) > DEFAULT_PLIES


class _Forgetful(Lookahead):
    """The engine without its memory between iterations (each node's scored moves and the
    best move found there): every iteration scores and orders from scratch."""

    def _scored(self, position, budget, also=(), narrow=True, left_out=(), path=None):
        return super()._scored(position, budget, also, narrow, left_out, None)

    def _negamax(self, position, plies, ply, alpha, beta, budget, path):
        self._refuted = {}
        return super()._negamax(position, plies, ply, alpha, beta, budget, path)


@pytest.mark.parametrize("name, seed, plies", [("lsd", 1, 4), ("lsd", 2, 8), ("lsd", 3, 6)])
def test_the_memory_between_iterations_changes_no_answer(name, seed, plies):
    """Keeping each node's scored moves and trying its last best move first saves work only:
    a full search (no budget) to 3 plies chooses the same move with the same value as the
    engine that forgets between iterations, and scores fewer positions."""
    game = _game(name)
    position = _reached(game, seed, plies)
    answers, scored = [], []
    evaluate = game.evaluate
    for kind in (Lookahead, _Forgetful):
        calls = []
        game.evaluate = lambda *args: calls.append(1) or evaluate(*args)
        advice = kind(game, plies=3, forced=0).best(position, Deadline(None))
        answers.append((advice.move, advice.evaluation))
        scored.append(len(calls))
    assert answers[0] == answers[1]
    assert scored[0] < scored[1]


def test_a_cpu_clock_counts_the_processs_cpu_within_the_wall_deadline():
    """``:cpu`` seconds are CPU seconds: a process that waits does not spend them, one that
    works does; the command's own (wall-clock) deadline still holds."""
    from placesat.core.selfplay import CpuDeadline

    waiting = CpuDeadline(0.05)
    time.sleep(0.15)
    assert not waiting.expired() and waiting.remaining() > 0.0
    working = CpuDeadline(0.05)
    started = time.process_time()
    while not working.expired():
        pass
    assert time.process_time() - started >= 0.05 and working.remaining() == 0.0
    assert working.sooner(1.0).expired()  # a share of it is no longer than it
    outer = CpuDeadline(100.0, Deadline(0.05))
    time.sleep(0.1)
    assert outer.expired() and outer.remaining() == 0.0


def test_answers_by_its_cpu_deadline():
    """On Quarry's opening, deepening without a cap: a 0.3 CPU-second clock is kept, with
    slack for the step in hand when it comes."""
    from placesat.core.selfplay import CpuDeadline

    game = _game("quarry")
    position = _reached(game, 1, 2)
    started = time.process_time()
    advice = Lookahead(game, plies=None).best(position, CpuDeadline(0.3))
    assert time.process_time() - started < 0.3 + 1.0
    assert advice.move in list(game.moves(position))


def test_lookahead_specs():
    from placesat.core.errors import InputError
    from placesat.core.selfplay import Engine, parse_engine

    assert parse_engine("lookahead:p3:400n") == Engine("lookahead", 3, None, 400)
    assert parse_engine("lookahead:f2:0.25s:cpu") == Engine("lookahead", None, 0.25, None, 2, True)
    assert parse_engine("best:cpu:d1:0.25s") == Engine("best", 1, 0.25, cpu=True)
    assert str(parse_engine("best:cpu:d1:0.25s")) == "best:d1:0.25s:cpu"
    assert parse_engine("lookahead:f2:1s") == Engine("lookahead", None, 1.0, None, 2)
    assert str(parse_engine("lookahead:0.5s:p2:f0")) == "lookahead:p2:f0:0.5s"
    assert parse_engine("lookahead") == parse_engine("lookahead:f2:1s")
    for bad in ("lookahead:", "lookahead:d2", "lookahead:p0", "lookahead:0n", "best:400n", "best:f2", "lookahead:p2:p3", "lookahead:f13",
                "best:d1:cpu", "lookahead:1s:cpu:cpu", "best:1cpu"):
        with pytest.raises(InputError):
            parse_engine(bad)


def test_a_bad_engine_spec_is_one_line_and_exit_2(run_cli):
    one_error_line(run_cli("selfplay", "lsd", "--games", "1", "--engine-a", "lookahead:x9"), "--engine-a", "x9")
    one_error_line(run_cli("lsd", "best", "grids/lsd/start.json", "--engine", "lookahead:p0"), "--engine")
