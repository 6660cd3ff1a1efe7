"""Laido's forced wins (``laido forced``) and the engine's advice (``laido best``).

The reference is a minimax written here from the plain rules alone (moves, play, groups, values
by exhaustive search, the comparison): no solver, no encoder, nothing of the search it checks.
Its goal is the reading of seeds/laido.md, "Forced wins": within K own moves, the game over
with the target the winner, or the other side to move in a position the target wins however
the game goes on if it only passes from then on.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from placesat.core.lattice import HexLattice
from placesat.laido.forced import NO_WIN, UNKNOWN, WIN, forced_win
from placesat.laido.model import BLACK, PASS, SWAP, WHITE, Position, opponent
from placesat.laido.rules import groups, legal_moves, play, value_by_search, verdict_of


def _values(lattice, stones):
    return [value_by_search(lattice, group) for group in groups(lattice, stones)]


@lru_cache(maxsize=None)
def _winner(position: Position) -> str:
    """Who wins if the game ends now (or who won, the game over): the rules' comparison."""
    lattice = position.lattice
    return verdict_of(position, _values(lattice, position.black), _values(lattice, position.white)).winner


def _moves(position: Position):
    return [m for m in legal_moves(position) if m != SWAP]


@lru_cache(maxsize=None)
def _wins_passing(position: Position, target: str) -> bool:
    """Whether ``target`` wins every way the game can go on while it only passes."""
    if position.is_over:
        return _winner(position) == target
    if position.to_move == target:
        return _wins_passing(play(position, PASS), target)
    return all(_wins_passing(play(position, m), target) for m in _moves(position))


@lru_cache(maxsize=None)
def brute_forced(position: Position, own: int) -> bool:
    """Whether the player to move wins by force within ``own`` own moves (plain minimax)."""
    target = position.to_move
    for move in _moves(position):
        after = play(position, move)
        if after.is_over:
            if _winner(after) == target:
                return True
            continue
        if _wins_passing(after, target):
            return True
        if own == 1:
            continue
        if all(
            (_winner(reply) == target) if reply.is_over else brute_forced(reply, own - 1)
            for reply in (play(after, r) for r in _moves(after))
        ):
            return True
    return False


def random_position(rng: random.Random, side: int, empty: int) -> Position:
    """A board with ``empty`` empty points, the rest dealt at random, a random turn and passes."""
    points = list(HexLattice(side).points)
    rng.shuffle(points)
    filled = points[empty:]
    black = frozenset(p for p in filled if rng.random() < 0.5)
    white = frozenset(filled) - black
    to_move = rng.choice([BLACK, WHITE])
    passes = rng.choice([0, 0, 1])
    first = opponent(to_move) if passes else rng.choice([None, None, BLACK, WHITE])
    return Position(side, black, white, to_move, passes, first)


CASES = [(seed, side, empty) for seed in range(4) for side, empty in ((3, 5), (3, 6), (4, 4), (4, 5))]


def fewest_own_moves(position: Position, most: int) -> int | None:
    """The fewest own moves within which the brute force wins, or None up to ``most``."""
    return next((own for own in range(1, most + 1) if brute_forced(position, own)), None)


@pytest.mark.parametrize("seed,side,empty", CASES)
def test_forced_equals_brute_force(seed, side, empty):
    position = random_position(random.Random(1000 * side + 10 * empty + seed), side, empty)
    answer = forced_win(position, 3)
    fewest = fewest_own_moves(position, 3)
    assert answer.answer == (NO_WIN if fewest is None else WIN), position
    assert answer.within == fewest  # the search deepens one own move at a time
    if answer.answer == WIN:
        assert answer.strategy is not None and answer.line[0] == answer.move and answer.replayed_positions > 0
        after = play(position, answer.move)
        if fewest == 1:  # the first move wins at once
            assert (_winner(after) == position.to_move) if after.is_over else _wins_passing(after, position.to_move)
        else:  # and it leads to a win in one own move fewer against every reply
            replies = [play(after, r) for r in _moves(after)]
            target = position.to_move
            assert all((_winner(r) == target) if r.is_over else brute_forced(r, fewest - 1) for r in replies)


@pytest.mark.parametrize("seed", range(3))
def test_the_backends_agree(seed):
    position = random_position(random.Random(77 + seed), 3 + seed % 2, 5)
    sat, cpsat = forced_win(position, 2, backend="sat"), forced_win(position, 2, backend="cpsat")
    assert (sat.answer, sat.within) == (cpsat.answer, cpsat.within)


# --------------------------------------------------------------------------- hand-worked

LINE_BUT_CENTRE = {
    "size": 3,
    "black": [[-2, 0], [-1, 0], [1, 0], [2, 0]],
    "white": [[0, -2], [1, -2], [2, -2], [-1, -1], [0, -1], [1, -1], [2, -1],
              [-2, 1], [-1, 1], [0, 1], [1, 1], [-2, 2], [-1, 2], [0, 2]],
    "to_move": "black",
}
"""Side 3, every point taken but the centre. Black holds the middle row but [0, 0]; White both
halves above and below it (7 stones each, edge stones all round, two inner stones: a longest
connection part of 4, value 2*4 - 7 = 1 each). Black on [0, 0] makes the row a 5-stone path
between two edge stones (value 5) and fills the board: White can only pass, then Black, and
Black wins 5 to 1. Without it Black has two groups with one edge stone each (value -2 each)
and loses; and if Black passes, White takes [0, 0]. So [0, 0] is the only win, within 1 own move."""


def _position(raw) -> Position:
    from placesat.laido.model import position_from_json

    return position_from_json(raw)


def test_a_hand_worked_win_in_one():
    position = _position(LINE_BUT_CENTRE)
    answer = forced_win(position, 2)
    assert (answer.answer, answer.move, answer.within, answer.line) == (WIN, (0, 0), 1, [(0, 0)])


def test_a_hand_worked_no_win_for_white():
    """White to move in the same position. White on [0, 0] joins its halves into one group of
    15 whose longest connection part is the column [0, -2] .. [0, 2] (5 stones: beside the
    centre, two inner stones of a half touch each other and the centre, a chord): value
    2*5 - 15 = -5, and the full board ends the game: Black's -2 beats it. White's pass lets
    Black take [0, 0]. So White has no forced win, however many own moves."""
    position = _position(LINE_BUT_CENTRE | {"to_move": "white"})
    assert forced_win(position, 3).answer == NO_WIN


def test_best_takes_the_win_at_once():
    from placesat.core.limits import Deadline
    from placesat.core.play import FORCED_WIN
    from placesat.laido.play import LaidoPlayable

    advice = LaidoPlayable(3).best(_position(LINE_BUT_CENTRE), Deadline.never(), depth=1)
    assert (advice.move, advice.kind) == ((0, 0), FORCED_WIN)
    assert advice.reason == "wins by force within 1 own move: black [0, 0]"


def test_best_passes_to_end_a_game_it_wins():
    """White passed; Black (two touching edge stones, value 2) against White's lone stone (-1):
    Black's pass ends the game as the winner."""
    from placesat.core.limits import Deadline
    from placesat.core.play import FORCED_WIN
    from placesat.laido.play import LaidoPlayable

    position = Position(3, frozenset({(2, -2), (2, -1)}), frozenset({(0, 0)}), BLACK, 1, WHITE)
    advice = LaidoPlayable(3).best(position, Deadline.never(), depth=1)
    assert (advice.move, advice.kind) == (PASS, FORCED_WIN)


@pytest.mark.parametrize("seed", [0, 2, 10, 12])  # defences (one of several, the only one), a forced loss, a win in 2
def test_best_against_the_brute_force(seed):
    """On seeded small positions: a forced win is one (and the brute force finds none when the
    advice is not one); a defence is a move after which the other side has no forced win at its
    next move, while some other move gives it one."""
    from placesat.core.limits import Deadline
    from placesat.core.play import DEFENCE, FORCED_LOSS, FORCED_WIN
    from placesat.laido.play import LaidoPlayable

    position = random_position(random.Random(500 + seed), 3, 5)
    advice = LaidoPlayable(3).best(position, Deadline.never(), depth=2)
    assert advice.move in _moves(position)
    if advice.kind == FORCED_WIN:
        assert brute_forced(position, advice.depth)
        return
    assert not brute_forced(position, 2)

    def loses(move) -> bool:
        after = play(position, move)
        return (_winner(after) != position.to_move) if after.is_over else brute_forced(after, 1)

    losing = [m for m in _moves(position) if loses(m)]
    if advice.kind == DEFENCE:
        assert losing and not loses(advice.move)
    elif advice.kind == FORCED_LOSS:
        assert len(losing) == len(_moves(position))
    else:
        assert not losing


def _whole_game(side: int) -> None:
    from placesat.core.limits import Deadline
    from placesat.laido.play import LaidoPlayable

    engine = LaidoPlayable(side)
    position = engine.opening(2)
    for _ in range(3 * side * side * 2):
        if engine.outcome(position) is not None:
            break
        advice = engine.best(position, Deadline.never(), depth=1)
        text = engine.move_text(position, advice.move)
        assert engine.parse_move(position, text) == advice.move
        position = play(position, advice.move)  # the rules accept it
    outcome = engine.outcome(position)
    assert outcome is not None and position.is_over
    assert outcome.winner == (1 if _winner(position) == BLACK else 2)


def test_a_whole_game_engine_against_engine_on_the_smallest_board():
    _whole_game(2)


@pytest.mark.slow
def test_a_whole_game_engine_against_engine_on_side_3():
    _whole_game(3)


# --------------------------------------------------------------------------- the commands


def _laido(tmp_path, raw, *args):
    import json
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "pos.json"
    path.write_text(json.dumps(raw))
    placesat = str(Path(sys.executable).with_name("placesat"))
    return subprocess.run([placesat, "laido", *args[:1], str(path), *args[1:]], capture_output=True, text=True, timeout=120)


def test_forced_command(tmp_path):
    import json

    done = _laido(tmp_path, LINE_BUT_CENTRE, "forced", "-k", "2")
    assert done.returncode == 0, done.stderr
    assert "win: black forces a win within 1 own move, starting with [0, 0]" in done.stdout
    assert "line of play (white's longest defence): 1 black [0, 0]" in done.stdout
    done = _laido(tmp_path, LINE_BUT_CENTRE | {"to_move": "white"}, "forced", "-k", "2", "--json")
    out = json.loads(done.stdout)
    assert (out["answer"], out["move"], out["within"], out["line"], out["strategy"]) == ("no forced win", None, None, [], None)


def test_forced_and_best_refuse_bad_input(tmp_path):
    done = _laido(tmp_path, LINE_BUT_CENTRE, "forced", "-k", "0")
    assert done.returncode == 2 and done.stderr.startswith("placesat: error:") and "--moves" in done.stderr
    done = _laido(tmp_path, LINE_BUT_CENTRE | {"passes": 2, "first_pass": "white"}, "best")
    assert done.returncode == 2 and "the game is over" in done.stderr and len(done.stderr.splitlines()) == 1


def test_best_command(tmp_path):
    import json

    done = _laido(tmp_path, LINE_BUT_CENTRE, "best", "--depth", "1", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["move"], out["kind"], out["line"], out["depth"]) == ([0, 0], "forced win", ["0,0"], 1)
    assert out["reason"] == "wins by force within 1 own move: black [0, 0]"
