"""Logi-Sticks forced results and best moves, checked against a minimax written here from the
plain rule engine alone (``rules.py``), on seeded random positions with few pieces left, and
on hand-worked positions.

The minimax: the player's goal holds (points, or one target matched, read off
``rules.scores``/``rules.target_signals``) -> yes; the game over -> no; the player to move ->
some legal move (``rules.legal_placements``, a pass when there is none) works, with one own
move fewer; anybody else to move -> every legal move works. Nothing of ``forced.py`` or of the
encoder is used to decide an answer (the path count only picks which targets to ask about).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests.logisticks_brute import playout_position
except ImportError:  # run from inside tests/
    from logisticks_brute import playout_position  # type: ignore[no-redef]
from placesat.core.limits import Deadline
from placesat.core.play import DEFENCE, EVALUATION, FORCED_WIN, ONLY_MOVE
from placesat.logisticks.analyze import reach_within
from placesat.logisticks.forced import NO_WIN, PASS, UNKNOWN, WIN, Goal, forced, make_goal, pieces_needed
from placesat.logisticks.model import position_from_json, position_to_json, square_point
from placesat.logisticks.play import LogiSticks
from placesat.logisticks.rules import apply_move, game_over, legal_placements, matches, scores, target_signals
from placesat.core.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids" / "logisticks"
PLACESAT = Path(sys.executable).parent / "placesat"


def goal_holds(position, player, score, target) -> bool:
    """The goal, from the rules alone."""
    if target is not None:
        colour = position.targets[player][target]
        return matches(colour, target_signals(position)[(player, target)])
    return scores(position)[player].points >= score


def minimax(position, player, score, target, own) -> bool:
    """Can ``player`` force the goal within ``own`` own moves, everybody else against it?"""
    if goal_holds(position, player, score, target):
        return True
    if game_over(position):
        return False
    moves = legal_placements(position) or [None]
    if position.to_move == player:
        return own > 0 and any(minimax(apply_move(position, m), player, score, target, own - 1) for m in moves)
    return all(minimax(apply_move(position, m), player, score, target, own) for m in moves)


def cases(seed: int):
    """The position of ``seed`` (a random game, then three pieces left in all; every fourth
    with three players), and the goals asked: one point more, and the nearest open target."""
    players = 2 if seed % 4 else 3
    position = playout_position(seed, 14 + seed % 17, 3, players)
    player = position.to_move
    goals = [(scores(position)[player].points + 1, None)]
    received = target_signals(position)
    near = [s for s in position.targets[player]
            if received[(player, s)] is None and pieces_needed(position, Goal(player, target=s)) <= 2]
    goals += [(None, s) for s in near[:1]]
    return position, player, goals


def check_against_minimax(seed: int) -> list[bool]:
    position, player, goals = cases(seed)
    answers = []
    for score, target in goals:
        goal = Goal(player, score=score, target=target)
        for own in (1, 2):
            expected = minimax(position, player, score, target, own)
            got = forced(position, goal, own)
            assert got.answer == (WIN if expected else NO_WIN), (seed, score, target, own)
            if expected:
                # the strategy was replayed on the rules against every reply (forced raises otherwise)
                assert got.strategy is not None and got.strategy.own_moves_used <= own
                assert got.within is not None and got.within <= own
                if got.move is not None:
                    assert got.move == PASS or got.move in legal_placements(position)
            answers.append(expected)
    return answers


# Seeds whose minimax takes under a second (measured; a random position's cost varies a
# hundredfold), among them wins at once, wins only in two own moves (79), three-player wins
# (48, 104) and no-wins
FAST_SEEDS = [9, 66, 104, 48, 0, 2, 11, 20, 32, 45, 98, 103, 124]
MORE_SEEDS = [22, 24, 51, 93]  # a few more, kept few: the whole suite has a time budget
# (a sweep over 48 more seeds, 27 and 36 among them with wins only in two own moves, passed
# when this was written: `MORE_SEEDS` can be widened to rerun it)


@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_forced_equals_minimax_on_seeded_positions(seed):
    check_against_minimax(seed)


def test_both_answers_occur_among_the_seeded_positions():
    # seed 79: one more point is out of reach in one own move and forced in two
    answers = check_against_minimax(79)
    assert any(answers) and not all(answers)


@pytest.mark.slow
@pytest.mark.parametrize("seed", MORE_SEEDS)
def test_forced_equals_minimax_on_more_seeded_positions(seed):
    check_against_minimax(seed)


# --------------------------------------------------------------------------- hand-worked


def position(pieces, to_move=1, supply=None, targets=None):
    """A small hand-made position (no turns recorded)."""
    return position_from_json({
        "players": 2,
        "targets": targets or {"1": {"d1": "B"}, "2": {"a8": "W"}},
        "pieces": [{"square": s, "piece": t, "inputs": i, "player": p} for s, t, i, p in pieces],
        "to_move": to_move,
        "supply": supply or {"1": {"PASS": 1, "NOT": 1}, "2": {"PASS": 1}},
    })


def test_a_point_at_once_is_taken():
    # d4's south stone is black (FALSE): d3 and d2 pass FALSE on, so a PASS on d1 matches the
    # black target d1 (a NOT there would send TRUE)
    start = position([("d3", "PASS", "N", 2), ("d2", "PASS", "N", 1)])
    advice = LogiSticks().best(start, Deadline.never(), depth=2)
    assert advice.kind == FORCED_WIN
    assert str(advice.move) == "d1 PASS N"
    assert "d1" in advice.reason
    answer = forced(start, Goal(1, target=square_point("d1")), 1)
    assert answer.answer == WIN and str(answer.move) == "d1 PASS N" and answer.within == 1


def test_the_only_defence_is_found():
    # e5's north stone is black: e6 and e7 pass FALSE north, so player 2 matches its black
    # target e8 with a PASS there. Player 1 (a NOT and a PASS left, its own target far away)
    # stops it only by a NOT on e8 (TRUE, the wrong signal for good); a PASS there would
    # score for player 2, and no piece beside e8 can stand without a source
    start = position([("e6", "PASS", "S", 2), ("e7", "PASS", "S", 1)],
                     targets={"1": {"a1": "W"}, "2": {"e8": "B"}})
    advice = LogiSticks().best(start, Deadline.never(), depth=2)
    assert advice.kind == DEFENCE
    assert str(advice.move) == "e8 NOT S"
    assert advice.reason.startswith("the only move that stops player 2's point")
    # and without it player 2 would score: the same position with player 2 to move
    assert forced(position([("e6", "PASS", "S", 2), ("e7", "PASS", "S", 1)], to_move=2,
                           targets={"1": {"a1": "W"}, "2": {"e8": "B"}}),
                  Goal(2, score=1), 1).answer == WIN


def test_a_player_without_a_placement_passes():
    start = position([("d3", "PASS", "N", 2)], supply={"1": {}, "2": {"PASS": 1}})
    game = LogiSticks()
    assert game.moves(start) == [PASS]
    advice = game.best(start, Deadline.never())
    assert advice.kind == ONLY_MOVE and advice.move == PASS
    assert game.move_text(start, advice.move) == "pass"
    assert game.parse_move(start, "pass") == PASS
    after = game.play(start, PASS)
    assert after.to_move == 2 and after.turn == start.turn + 1


def test_the_evaluation_is_named_and_shown_and_repeats():
    game = LogiSticks()
    start = game.opening(2)
    first = game.best(start, Deadline.never(), depth=1)
    again = game.best(start, Deadline.never(), depth=1)
    assert first == again
    assert first.kind == EVALUATION
    assert first.evaluation_name and "points" in first.evaluation_name
    assert f"{first.evaluation:+.2f}" in first.reason
    assert first.move in game.moves(start)


def test_best_answers_with_a_legal_move_when_the_time_is_already_up():
    game = LogiSticks()
    start = game.opening(2)
    advice = game.best(start, Deadline(0.0))
    assert advice.move in game.moves(start)


def test_forced_no_and_unknown():
    # player 1 holds only NOTs: d2 NOT N sends TRUE on, d1 NOT N would then match the black
    # d1, but player 2 answers d2 with a PASS on d1 (TRUE: the wrong signal for good)
    start = position([("d3", "PASS", "N", 2)], supply={"1": {"NOT": 2}, "2": {"PASS": 1}})
    d1 = square_point("d1")
    assert not minimax(start, 1, None, d1, 2)
    assert forced(start, Goal(1, target=d1), 2).answer == NO_WIN
    assert forced(start, Goal(1, target=d1), 1).answer == NO_WIN
    timed_out = forced(playout_position(46, 30, 12), Goal(1, score=8), 3, Deadline(0.0))
    assert timed_out.answer == UNKNOWN and timed_out.move is None


def test_goal_checks():
    start = position([])
    with pytest.raises(InputError, match="exactly one"):
        make_goal(start, 1, 1, "d1")
    with pytest.raises(InputError, match="not one of player 1's targets"):
        make_goal(start, 1, None, "a8")
    with pytest.raises(InputError, match="--score must be from 1 to 1"):
        make_goal(start, 1, 2, None)
    assert make_goal(start, 1, None, "D1").target == square_point("d1")


# --------------------------------------------------------------------------- backends


@pytest.mark.parametrize("seed", [79])
def test_both_backends_agree_on_the_capped_reach(seed):
    start, player, goals = cases(seed)
    for score, target in goals:
        for pieces in (1, 2):
            sat = reach_within(start, player, pieces, score, target, "sat").status
            cpsat = reach_within(start, player, pieces, score, target, "cpsat").status
            assert sat == cpsat, (seed, score, target, pieces)
            # the solver's cut-off agrees with the path count where the count rules it out
            if pieces_needed(start, Goal(player, score=score, target=target)) > pieces:
                assert sat == "impossible"


def test_the_solver_cut_off_changes_no_answer():
    start, player, goals = cases(79)
    for score, target in goals:
        goal = Goal(player, score=score, target=target)
        plain = forced(start, goal, 2).answer
        for backend in ("sat", "cpsat"):
            assert forced(start, goal, 2, reach_from=3, backend=backend).answer == plain


# --------------------------------------------------------------------------- the Playable


def test_the_playable_round_trips_moves_and_files():
    game = LogiSticks()
    start = game.opening(2)
    for move in game.moves(start)[:20]:
        assert game.parse_move(start, game.move_text(start, move)) == move
    with pytest.raises(InputError):
        game.parse_move(start, "d6 NOT N")  # faces no source... or is illegal some other way
    with pytest.raises(InputError):
        game.parse_move(start, "zz")
    saved = json.loads(game.save_text(start))
    assert saved == position_to_json(start)
    assert "a" in game.board_text(start, colour=False)
    assert "\x1b[" in game.board_text(start, colour=True)


@pytest.mark.slow
def test_a_whole_game_with_best_on_both_sides():
    game = LogiSticks()
    current = game.opening(2)
    plies = 0
    while game.outcome(current) is None:
        advice = game.best(current, Deadline.never(), depth=1)
        assert advice.move in game.moves(current)
        current = apply_move(current, None if advice.move == PASS else advice.move)  # the rules themselves
        plies += 1
    ended = game.outcome(current)
    table = scores(current)
    assert ended.scores == tuple(table[p].points for p in (1, 2))
    best = max(table.values(), key=lambda s: s.key())
    level = [p for p, s in table.items() if s.key() == best.key()]
    assert ended.winner == (level[0] if len(level) == 1 else None)
    assert game_over(current) and plies > 10


# --------------------------------------------------------------------------- the commands


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(PLACESAT), "logisticks", *args], capture_output=True, text=True, timeout=120)


def write(tmp_path, start) -> str:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position_to_json(start)))
    return str(path)


def test_forced_command_win_no_json_and_picture(tmp_path):
    start = position([("d3", "PASS", "N", 2), ("d2", "PASS", "N", 1)])
    path = write(tmp_path, start)
    picture = tmp_path / "forced.svg"
    result = run("forced", path, "-k", "1", "--target", "d1", "--svg", str(picture))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("win: player 1 forces target d1 matched within 1 own move(s), whatever player 2 plays, starting with d1 PASS N")
    assert "replayed on the rules against every legal reply" in result.stdout
    assert "#1 1:PASS/N=F" in result.stdout
    assert "Yes, within 1" in picture.read_text()
    data = json.loads(run("forced", path, "-k", "2", "--score", "1", "--json").stdout)
    assert data["answer"] == "win" and data["move"] == "d1 PASS N" and data["against"] == [2]
    assert data["strategy"] == {"move": "d1 PASS N", "then": {"reached": True}}
    far = write(tmp_path, position([("d3", "PASS", "N", 2)], supply={"1": {"NOT": 1}, "2": {"PASS": 1}}))
    result = run("forced", far, "-k", "1", "--target", "d1")
    assert result.returncode == 0
    assert result.stdout.startswith("no forced win: player 2 can keep player 1 from target d1 matched within 1 own move(s)")


def test_forced_command_says_who_plays_against_the_player():
    result = run("forced", str(GRIDS / "four-players.json"), "-k", "1", "--score", "1")
    assert result.returncode == 0, result.stderr
    assert "whatever players 2, 3 and 4 together play" in result.stdout


def test_forced_command_bad_input_and_time_limit(tmp_path):
    path = write(tmp_path, position([]))
    for args, message in [
        (["-k", "1"], "give exactly one of --score S and --target SQUARE"),
        (["-k", "1", "--score", "1", "--target", "d1"], "give exactly one"),
        (["-k", "0", "--score", "1"], "--moves must be from 1 to"),
        (["-k", "1", "--target", "a8"], "not one of player 1's targets"),
    ]:
        result = run("forced", path, *args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("placesat: error: ") and message in result.stderr
        assert "Traceback" not in result.stderr
    result = run("forced", str(GRIDS / "midgame.json"), "-k", "3", "--score", "3", "--time-limit", "0.5")
    assert result.returncode == 1
    assert result.stdout.startswith("unknown: the time limit came first")


def test_best_command_text_and_json(tmp_path):
    start = position([("e6", "PASS", "S", 2), ("e7", "PASS", "S", 1)], targets={"1": {"a1": "W"}, "2": {"e8": "B"}})
    path = write(tmp_path, start)
    result = run("best", path, "--depth", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [
        "best for player 1: e8 NOT S",
        "defence: the only move that stops player 2's point at once (a piece on e8)",
    ]
    data = json.loads(run("best", str(GRIDS / "start.json"), "--depth", "1", "--json").stdout)
    assert data["kind"] == "evaluation" and data["player"] == 1 and data["interrupted"] is False
    assert data["evaluation_name"] and isinstance(data["evaluation"], float)


@pytest.mark.parametrize("seed", [9, 104, 0])
def test_forced_for_a_player_not_to_move_equals_minimax(seed):
    # the others move first: the player to move (and, with three players, the one after)
    # plays against the next player before its own move
    position, mover, _ = cases(seed)
    player = position.next_player(mover)
    score = scores(position)[player].points + 1
    expected = minimax(position, player, score, None, 1)
    got = forced(position, Goal(player, score=score), 1)
    assert got.answer == (WIN if expected else NO_WIN), seed
    if expected:
        assert got.strategy is not None
