"""Make the Quarry benchmark positions: mid-games of 20 stones on the standard board.

    .venv/bin/python benchmarks/quarry_positions.py [--out grids/quarry]

Each game is played by a simple, seeded policy with the rule engine: from 40 random legal
stones, a player takes the one that makes its longest reach across the rows (the rows spanned by
one region of its colour) the largest, breaking ties at random; it never plays a stone that wins
or that leaves either player a one-move win (so the positions are quiet, and a race is still on).
Writes midgame.json (seed 1), midgame-2.json and midgame-3.json. The scattered games
(scattered-1.json, scattered-2.json) take any random quiet stone instead: stones all over the
board, and wins several stones away.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from solver.quarry.model import Board, Position, dumps
from solver.quarry.rules import State, placements, play, record, replay
from solver.quarry.stones import default_stones
from solver.quarry.threats import threats

ROOT = Path(__file__).resolve().parent.parent
STONES_PER_GAME = 20
SEEDS = {"midgame": 1, "midgame-2": 2, "midgame-3": 3}
SCATTERED_SEEDS = {"scattered-1": 1, "scattered-2": 2}


def rows_spanned(state: State, player: str) -> int:
    """The most rows one region of ``player``'s colour spans, seen from above."""
    board = state.board
    seen: set[tuple[int, int]] = set()
    best = 0
    for r in range(board.length):
        for c in range(board.width):
            if (r, c) in seen or state.top_at((r, c)) != player:
                continue
            stack, rows = [(r, c)], set()
            seen.add((r, c))
            while stack:
                cell = stack.pop()
                rows.add(cell[0])
                for nxt in board.neighbours(cell):
                    if nxt not in seen and state.top_at(nxt) == player:
                        seen.add(nxt)
                        stack.append(nxt)
            best = max(best, max(rows) - min(rows) + 1)
    return best


def midgame(seed: int, stones: int = STONES_PER_GAME, scattered: bool = False) -> Position:
    """A quiet mid-game of ``stones`` stones played by the policy in the module docstring (with
    ``scattered``: the first quiet stone of a random order)."""
    rng = random.Random(seed)
    position = Position(Board(), default_stones())
    state = replay(position)
    while len(position.moves) < stones:
        player = state.to_move
        options = list(placements(state, player))
        rng.shuffle(options)
        scored = []
        for placement, _ in options[:40]:
            after = play(state, placement)
            if after.winner is None and not any(threats(after).values()):
                scored.append((0 if scattered else rows_spanned(after, player), rng.random(), placement))
                if scattered:
                    break
        if not scored:
            raise RuntimeError(f"seed {seed}: no quiet move after {len(position.moves)} stones")
        position, state = record(position, state, max(scored)[2])
    return position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "grids" / "quarry"))
    options = parser.parse_args()
    for name, seed, scattered in [(n, s, False) for n, s in SEEDS.items()] + [(n, s, True) for n, s in SCATTERED_SEEDS.items()]:
        path = Path(options.out) / f"{name}.json"
        path.write_text(dumps(midgame(seed, scattered=scattered)))
        print(path)


if __name__ == "__main__":
    main()
