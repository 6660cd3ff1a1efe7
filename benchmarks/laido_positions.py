"""Make the Laido benchmark positions (deterministic): a finished 9-side board and mid-game boards.

    .venv/bin/python benchmarks/laido_positions.py     # writes grids/laido/full9-*.json, mid9-*.json
"""

from __future__ import annotations

import random
from pathlib import Path

from placesat.core.lattice import HexLattice
from placesat.laido.model import BLACK, WHITE, Position, dumps, opponent, position_to_json

OUT = Path(__file__).resolve().parent.parent / "grids" / "laido"


def finished_board(seed: int) -> Position:
    """Every one of the 217 points filled, 109 black and 108 white, the game ended by two passes."""
    lattice = HexLattice(9)
    points = list(lattice.points)
    random.Random(seed).shuffle(points)
    return Position(9, frozenset(points[:109]), frozenset(points[109:]), WHITE, 2, BLACK)


def mid_game(seed: int, stones_each: int = 30) -> Position:
    """Alternate stones; three times in four a player grows one of its groups, else plays anywhere."""
    rng = random.Random(seed)
    lattice = HexLattice(9)
    stones = {BLACK: set(), WHITE: set()}
    taken: set = set()
    colour = BLACK
    for _ in range(2 * stones_each):
        free = [p for p in lattice.points if p not in taken]
        grow = [n for s in stones[colour] for n in lattice.neighbours(s) if n not in taken]
        point = rng.choice(grow) if grow and rng.random() < 0.75 else rng.choice(free)
        stones[colour].add(point)
        taken.add(point)
        colour = opponent(colour)
    return Position(9, frozenset(stones[BLACK]), frozenset(stones[WHITE]), BLACK)


def race(seed: int, clutter: int = 12) -> Position:
    """A race: White has a 14-stone connection along row r = 3; Black has 11 stones along row
    r = -2 and needs 4 more (two at each end) for a 15-stone one. Plus random stones elsewhere."""
    rng = random.Random(seed)
    lattice = HexLattice(9)
    white = {(q, 3) for q in range(-8, 6)}
    black = {(q, -2) for q in range(-4, 7)}
    keep_clear = {(q, r) for q, r in lattice.points if r in (-4, -3, -2, -1, 2, 3, 4) or abs(q) >= 7}
    free = [p for p in lattice.points if p not in keep_clear]
    rng.shuffle(free)
    black |= set(free[:clutter])
    white |= set(free[clutter : 2 * clutter])
    return Position(9, frozenset(black), frozenset(white), BLACK)


if __name__ == "__main__":
    (OUT / "race9.json").write_text(dumps(position_to_json(race(1))))
    for seed in (1, 2, 3):
        (OUT / f"full9-{seed}.json").write_text(dumps(position_to_json(finished_board(seed))))
        (OUT / f"mid9-{seed}.json").write_text(dumps(position_to_json(mid_game(seed))))
    print(f"written to {OUT}")
