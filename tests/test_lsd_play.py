"""LSD's Playable and ``lsd best``: every answer checked against the plain rules, on seeded
random positions and on hand-worked ones."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

from placesat.core.limits import Deadline
from placesat.core.play import DEFENCE, EVALUATION, FORCED_LOSS, FORCED_WIN, ONLY_MOVE
from placesat.lsd.forced import NO_WIN, WIN, forced_win
from placesat.lsd.model import load_game, new_position, parse_move
from placesat.lsd.play import PLAYABLE
from placesat.lsd.rules import legal_moves, play, winner, winning_placements

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def random_positions(games: int, seed: int):
    """Every position of ``games`` random games from the opening (2 players)."""
    rng = random.Random(seed)
    for _ in range(games):
        position = new_position(2)
        while legal_moves(position):
            yield position
            position = play(position, rng.choice(legal_moves(position)))


def test_best_at_depth_1_against_the_rules_on_random_positions():
    """An immediate win is taken; else, when the next player could win at once, the advice is a
    defence whose count of stopping moves is the rules' count ('the only move' for one), or a
    forced loss exactly when no move stops it; else the evaluation's move. Always legal."""
    seen = {FORCED_WIN: 0, DEFENCE: 0, FORCED_LOSS: 0, EVALUATION: 0, ONLY_MOVE: 0}
    for position in random_positions(4, 7):
        advice = PLAYABLE.best(position, Deadline.never(), 1)
        legal = legal_moves(position)
        assert advice.move in legal
        seen[advice.kind] += 1
        me, other = position.to_move, position.next_player()
        if len(legal) == 1:
            assert advice.kind == ONLY_MOVE
            continue
        if winning_placements(position, me):
            assert advice.kind == FORCED_WIN and winner(play(position, advice.move)) == me
            continue
        if not winning_placements(replace(position, to_move=other), other):
            assert advice.kind == EVALUATION
            continue
        stoppers = [m for m in legal if not winning_placements(play(position, m), other)]
        if not stoppers:
            assert advice.kind == FORCED_LOSS
            continue
        assert advice.kind == DEFENCE and advice.move in stoppers
        if len(stoppers) == 1:
            assert advice.reason.startswith(f"the only move that stops player {other}'s line at ")
        else:
            assert advice.reason.startswith(f"one of {len(stoppers)} moves that stop player {other}'s line at ")
    assert all(seen.values()), seen  # every kind of advice met


def test_a_forced_win_and_the_defence_against_it_on_double_threat():
    """double-threat.json: player 1 wins by force with 1,2 EW+ (two own moves, the search says
    and the rules replay its line); with player 2 to move instead, the defence at depth 3 leaves
    player 1 no forced win within two moves; once 1,2 EW+ stands, every move of player 2 leaves
    player 1 a win at once: a forced loss."""
    start = load_game(str(GRIDS / "double-threat.json"))
    advice = PLAYABLE.best(start, Deadline.never(), 2)
    assert advice.kind == FORCED_WIN and PLAYABLE.move_text(start, advice.move) == "1,2 EW+"
    assert advice.reason.startswith("wins by force within 2 own moves: 1,2 EW+")
    assert forced_win(start, 1, 3).answer == WIN and forced_win(start, 1, 1).answer == NO_WIN
    position = start
    for move in advice.line:
        position = play(position, parse_move(move))
    assert winner(position) == 1

    theirs = replace(start, to_move=2)
    defence = PLAYABLE.best(theirs, Deadline.never(), 3)
    assert defence.kind == DEFENCE and "player 1's line" in defence.reason and "within 2 of its moves" in defence.reason
    assert forced_win(play(theirs, defence.move), 1, 3).answer == NO_WIN

    threatened = play(start, parse_move("1,2 EW+"))
    loss = PLAYABLE.best(threatened, Deadline.never(), 1)
    assert loss.kind == FORCED_LOSS and loss.reason.startswith("every move loses to player 1's line at ")
    assert all(winning_placements(play(threatened, m), 1) for m in legal_moves(threatened))


def test_a_whole_game_through_the_playable_with_best_on_both_sides():
    """From the opening, best at depth 1 for both players: every move is legal by the rules, and
    the game ends as the Playable says."""
    position = PLAYABLE.opening(2)
    position = PLAYABLE.play(position, parse_move("0,0 NESW+"))
    plies = 1
    while PLAYABLE.outcome(position) is None:
        move = PLAYABLE.best(position, Deadline.never(), 1).move
        assert move in legal_moves(position)
        assert PLAYABLE.parse_move(position, PLAYABLE.move_text(position, move)) == move
        position = play(position, move)
        plies += 1
    ended = PLAYABLE.outcome(position)
    assert ended.winner == winner(position) and plies <= 80


def test_best_answers_by_its_time_limit_with_a_legal_move(run_cli):
    done = run_cli("lsd", "best", str(GRIDS / "mid20.json"), "--time-limit", "1", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    position = load_game(str(GRIDS / "mid20.json"))
    assert parse_move(answer["move"]) in legal_moves(position) and answer["kind"] in (EVALUATION, DEFENCE, FORCED_WIN)
    done = run_cli("lsd", "best", str(GRIDS / "double-threat.json"), "--depth", "2")
    assert re.match(r"best: 1,2 EW\+ \(forced win\): wins by force within 2 own moves: 1,2 EW\+, ", done.stdout), done.stdout
