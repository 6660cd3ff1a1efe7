"""LSD answers by trying every sequence of moves with the plain rules (no solver), for small cases.

Random small positions come from random games: a small tile set keeps the number of legal
moves low, and a bias towards placing next to one's own tiles in a straight line makes
positions where lines are close, so that "yes" answers occur as well as "no".
"""

from __future__ import annotations

import random

from placesat.lsd.model import Placement, Position, new_position, supply_of
from placesat.lsd.rules import is_over, legal_moves, play, winner


def _key(position: Position) -> tuple:
    return (frozenset(position.field.items()), position.supplies, position.to_move)


def shortest_win(position: Position, player: int, plies: int) -> int | None:
    """The fewest plies (at most ``plies``) after which ``player`` has a line, nobody having won
    before, trying every sequence of legal moves; None when there is none."""
    seen: dict = {}
    for depth in range(plies + 1):
        if _wins_within(position, player, depth, seen):
            return depth
    return None


def _wins_within(position: Position, player: int, depth: int, seen: dict) -> bool:
    won = winner(position)
    if won is not None:
        return won == player
    if depth == 0:
        return False
    key = (_key(position), depth)
    if key not in seen:
        seen[key] = any(_wins_within(play(position, move), player, depth - 1, seen) for move in legal_moves(position))
    return seen[key]


def forced_win(position: Position, player: int, depth: int, seen: dict | None = None) -> bool:
    """Plain minimax: can ``player`` force a line within ``depth`` plies, the others playing
    together against it (an opponent's line, or a draw, is no win)? Positions met twice at the
    same depth are looked up, not searched again."""
    seen = {} if seen is None else seen
    won = winner(position)
    if won is not None:
        return won == player
    if depth == 0:
        return False
    key = (_key(position), depth)
    if key in seen:
        return seen[key]
    moves = legal_moves(position)
    if not moves:
        value = False
    else:
        results = (forced_win(play(position, move), player, depth - 1, seen) for move in moves)
        value = any(results) if position.to_move == player else all(results)
    seen[key] = value
    return value


SMALL_KINDS = [(0b0101, "+"), (0b0101, "x"), (0b0111, "+"), (0b0111, "x"), (0b1111, "+"), (0b1111, "x"), (0b0011, "x"), (0b0001, "+")]


def random_position(rng: random.Random, players: int = 2, moves: int | None = None, kinds: int = 4, per_kind: int = 2) -> Position:
    """A position after a random game start with a random small tile set (``kinds`` kinds,
    up to ``per_kind`` of each), the mover preferring cells that extend its own lines."""
    chosen = rng.sample(SMALL_KINDS, kinds)
    tileset = supply_of({k: rng.randint(1, per_kind) for k in chosen})
    position = new_position(players, tileset)
    for _ in range(rng.randint(2, 10) if moves is None else moves):
        if is_over(position):
            break
        options = legal_moves(position)
        mover = position.to_move

        def score(move) -> float:
            if not isinstance(move, Placement):
                return 0.0
            x, y = move.cell
            own = sum(
                1
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 0), (-2, 0), (0, 2), (0, -2))
                if (t := position.field.get((x + dx, y + dy))) is not None and t.player == mover
            )
            return own + rng.random() * 2

        position = play(position, max(options, key=score))
    return position
