"""Make the shipped LSD benchmark positions: mid-game fields grown by seeded random play.

    .venv/bin/python benchmarks/lsd_positions.py [--out grids/lsd]

``mid20.json``: a 2-player game with the default tile set played until 20 tiles stand on the
field (captures included along the way), nobody having a line or a win at once, player 1 to
move with at least 20 legal moves. The
players place at random but prefer cells that extend their own runs (as people do), so lines
are a few tiles away. ``four20.json``: the same with 4 players, 20 tiles on the field.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from solver.lsd.model import Placement, Position, dumps, new_position, position_to_json
from solver.lsd.rules import is_over, legal_moves, play, winner, winning_placements

ROOT = Path(__file__).resolve().parent.parent


def grow(seed: int, players: int, tiles: int) -> Position | None:
    """A random game with ``players`` until ``tiles`` tiles stand on the field with player 1 to
    move, no line and no win at once for anybody, at least 20 legal moves; None if the game ends first."""
    rng = random.Random(seed)
    position = new_position(players)
    while True:
        if len(position.field) == tiles and position.to_move == 1:
            quiet = not any(winning_placements(position, p) for p in range(1, players + 1))
            quiet = quiet and len(legal_moves(position)) >= 20  # a live game, not a draw
            return position if quiet else None
        if len(position.field) > tiles + players:
            return None
        if is_over(position):
            return None
        mover = position.to_move

        def score(move) -> float:
            if not isinstance(move, Placement):
                return 0.0
            x, y = move.cell
            near = [position.field.get((x + dx, y + dy)) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            own = sum(1 for t in near if t is not None and t.player == mover)
            return own + 1.5 * rng.random()

        options = legal_moves(position)
        safe = [m for m in options if winner(play(position, m)) is None]  # grow, do not finish
        if not safe:
            return None
        position = play(position, max(safe, key=score))


def first_grown(players: int, tiles: int, seed: int) -> tuple[int, Position]:
    """The first seed from ``seed`` on whose game reaches ``tiles`` tiles."""
    while True:
        grown = grow(seed, players, tiles)
        if grown is not None:
            return seed, grown
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "grids" / "lsd"))
    options = parser.parse_args()
    out = Path(options.out)
    for name, players, seed in (("mid20", 2, 7), ("four20", 4, 11)):
        used, position = first_grown(players, 20, seed)
        (out / f"{name}.json").write_text(dumps(position_to_json(position)))
        print(f"{name}.json: seed {used}, {len(position.field)} tiles on the field")


if __name__ == "__main__":
    main()
