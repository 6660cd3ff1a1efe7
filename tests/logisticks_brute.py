"""A brute-force enumerator of Logi-Sticks completions, for cross-checking the SAT encoding.

It walks every line of legal placements (rules.py only: any player with the piece in supply,
Capacitor timing ignored as in the analysis) and records every board reached.
"""

from __future__ import annotations

from placesat.logisticks.model import Position
from placesat.logisticks.rules import legal_placements, place, scores, signals


def reachable_boards(position: Position, limit: int = 200_000) -> list[Position]:
    """Every board reachable from ``position`` by legal placements, each once."""
    seen = {frozenset(position.pieces.items())}
    boards = [position]
    todo = [position]
    while todo:
        current = todo.pop()
        for player in range(1, current.players + 1):
            for placement in legal_placements(current, player, turn=None):
                after = place(current, placement, player, None)
                key = frozenset((sq, pc.kind) for sq, pc in after.pieces.items())
                if key in seen:
                    continue
                seen.add(key)
                boards.append(after)
                todo.append(after)
                if len(boards) > limit:
                    raise RuntimeError("too many boards for brute force")
    return boards


def brute_facts(position: Position) -> tuple[dict, dict]:
    """(values each target/mutable square can end with, each player's maximum score)."""
    values: dict = {}
    best: dict[int, int] = {p: 0 for p in range(1, position.players + 1)}
    for board in reachable_boards(position):
        sig = signals(board)
        for square, value in sig.items():
            values.setdefault(square, set()).add(value)
        for player, score in scores(board).items():
            best[player] = max(best[player], score.points)
    return values, best


def random_start(seed: int, players: int):
    """The start of a game with targets laid out at random by ``seed`` (with more than two
    players, each holds an equal share of the pieces)."""
    from placesat.logisticks.model import PIECE_TYPES, position_from_json

    data = {"players": players, "targets": {"layout": "random", "seed": seed}}
    if players > 2:
        data["supply"] = {str(p): {t: 10 // players for t in PIECE_TYPES} for p in range(1, players + 1)}
    return position_from_json(data)


def playout_position(seed: int, moves: int, supply_total: int, players: int = 2):
    """A position after ``moves`` random legal moves from the start (seeded), with the remaining
    supplies then cut down to ``supply_total`` random pieces, so brute force stays small."""
    import random

    from placesat.logisticks.model import PIECE_TYPES
    from placesat.logisticks.rules import apply_move, legal_placements

    rng = random.Random(seed)
    position = random_start(seed, players)
    for _ in range(moves):
        options = legal_placements(position)
        position = apply_move(position, rng.choice(options) if options else None)
    everyone = list(range(1, players + 1))
    for player in everyone:
        for piece_type in PIECE_TYPES:
            position.supply[player][piece_type] = 0
    for _ in range(supply_total):
        position.supply[rng.choice(everyone)][rng.choice(PIECE_TYPES)] += 1
    return position
