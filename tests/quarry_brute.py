"""Brute force for Quarry tests: the rules read literally over sets of cubes, and searches over
sequences of moves, written without the rule engine's shortcuts (height map, dropping) or any solver."""

from __future__ import annotations

import heapq
import itertools
import random

from placesat.quarry.model import BLACK, PLAYERS, Board, Placement, Position, opponent
from placesat.quarry.rules import State, lay, line, placements, play, record, replay
from placesat.quarry.stones import DIRECTIONS, MAX_LEVELS, StoneSet, stones_from_json

SMALL_STONES = stones_from_json([
    {"name": "block", "count": 2, "points": 1, "faces": [{"layers": ["#"], "base": "e"}]},
    {"name": "post", "count": 1, "points": 4, "faces": [{"layers": ["#", "#"], "base": "e"}]},
    {"name": "beam", "count": 1, "points": 9, "faces": [{"layers": ["###"], "base": "e-e"}]},
    {"name": "step", "count": 1, "points": 9, "faces": [{"layers": ["##", "#."], "base": "ee"}, {"layers": ["#.", "##"], "base": "ee"}]},
    {"name": "arch", "count": 1, "points": 25, "faces": [{"layers": ["#.#", "###"], "base": "eoe"}, {"layers": ["###", "#.#"], "base": "e-e"}]},
])
"""A reduced stone set for searches on small boards: every kind of support the default set has
(ends, crossing middles, an open arch, a step resting one level up), few stones."""


def literal_legal_bases(state: State, player: str, placement: Placement) -> set[int]:
    """The levels at which the stone could be put, by the rules read literally over the cubes
    already placed: inside the board and no higher than 5; in empty space; nothing of any stone
    above any of its cubes; each column that is not open resting on a cube or the board; each end
    resting on the board or on a cube of the player's."""
    cubes = state.owner
    orientation = state.stones[placement.stone].orientation(placement.face, placement.direction)
    r0, c0 = placement.at
    board = state.board
    found = set()
    for base in range(MAX_LEVELS):
        mine = [(r0 + r, c0 + c, base + z) for r, c, z in orientation.cubes]
        if any(not (0 <= r < board.length and 0 <= c < board.width) or z >= MAX_LEVELS for r, c, z in mine):
            continue
        if any(cube in cubes for cube in mine):
            continue
        if any((r, c) == (rr, cc) and zz > z for r, c, z in mine for rr, cc, zz in cubes):
            continue
        ok = True
        for col in orientation.columns:
            r, c, z = r0 + col.dr, c0 + col.dc, base + col.bottom
            below = (r, c, z - 1)
            if col.role == "o":
                continue
            if z > 0 and below not in cubes:
                ok = False
            elif col.role == "e" and z > 0 and state.laid[cubes[below]].player != player:
                ok = False
        if ok:
            found.add(base)
    return found


def all_placements(stones: StoneSet, board: Board):
    """Every placement on the board, whatever stands there (each face, direction and anchor)."""
    for kind in stones.kinds:
        for face in kind.faces:
            for direction in DIRECTIONS:
                for r in range(board.length):
                    for c in range(board.width):
                        yield Placement(kind.name, face.name, direction, (r, c))


def random_game(board: Board, stones: StoneSet, moves: int, seed: int, first: str = BLACK, avoid_threats: bool = False) -> tuple[Position, State]:
    """A random legal game of ``moves`` stones with no winner (restarting the move choice when a
    move would win, or, with ``avoid_threats``, leave a one-move win)."""
    from placesat.quarry.threats import threats

    rng = random.Random(seed)
    position = Position(board, stones, first)
    state = replay(position)
    while len(position.moves) < moves:
        options = list(placements(state, state.to_move))
        rng.shuffle(options)
        for placement, _ in options:
            after = play(state, placement)
            if after.winner is None and not (avoid_threats and any(threats(after).values())):
                position, state = record(position, state, placement)
                break
        else:
            break
    return position, state


def cheapest_by_search(state: State, player: str, cost, limit: int = 200_000) -> int | None:
    """The least total cost of stones ``player`` can lay one after another (the opponent passing)
    to complete its line, by uniform-cost search over positions; None when no sequence does.
    ``cost(stone name)`` is the price of one stone."""
    if line(state, player) is not None:
        return 0
    tie = itertools.count()
    start = state.copy()
    start.to_move = player
    queue = [(0, next(tie), start)]
    seen = {_key(start, player): 0}
    while queue:
        spent, _, here = heapq.heappop(queue)
        if here is None:
            return spent  # popped in cost order: the first finished line popped is the cheapest
        if spent > seen.get(_key(here, player), spent):
            continue
        for placement, base in list(placements(here, player)):
            after = here.copy()
            lay(after, player, placement, base)
            total = spent + cost(placement.stone)
            if line(after, player) is not None:
                heapq.heappush(queue, (total, next(tie), None))
                continue
            key = _key(after, player)
            if total < seen.get(key, float("inf")):
                seen[key] = total
                heapq.heappush(queue, (total, next(tie), after))
            if len(seen) > limit:
                raise RuntimeError("search too large")
    return None


def _key(state: State, player: str) -> tuple:
    """What decides the future of a one-sided continuation: heights, colours from above, stones left."""
    return tuple(state.height), tuple(state.top), tuple(sorted(state.used[player].items()))


__all__ = ["SMALL_STONES", "all_placements", "cheapest_by_search", "literal_legal_bases", "random_game", "PLAYERS", "opponent"]
