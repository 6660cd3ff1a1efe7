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


CASES = [(seed, side, empty) for seed in range(8) for side, empty in ((3, 5), (3, 6), (4, 4), (4, 5))]


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
