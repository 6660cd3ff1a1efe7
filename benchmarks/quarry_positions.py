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

from placesat.quarry.model import BLACK, Board, Position, dumps
from placesat.quarry.rules import State, placements, play, record, replay
from placesat.quarry.stones import default_stones
from placesat.quarry.threats import threats

ROOT = Path(__file__).resolve().parent.parent
STONES_PER_GAME = 20
SEEDS = {"midgame": 1, "midgame-2": 2, "midgame-3": 3}
SCATTERED_SEEDS = {"scattered-1": 1, "scattered-2": 2}


ISSUE_27 = {
    "board": {"length": 10, "width": 9, "zones": "outside"},
    "stones": "default",
    "first": "blue",
    "moves": [
        {"player": "blue", "stone": "step", "face": "up", "dir": "w", "at": "g8", "height": 0},
        {"player": "black", "stone": "bridge", "face": "up", "dir": "s", "at": "i5", "height": 0},
        {"player": "blue", "stone": "span", "face": "up", "dir": "e", "at": "d2", "height": 0},
        {"player": "black", "stone": "arch", "face": "up", "dir": "s", "at": "g1", "height": 0},
        {"player": "blue", "stone": "step", "face": "up", "dir": "e", "at": "b2", "height": 0},
        {"player": "black", "stone": "beam", "face": "up", "dir": "s", "at": "d7", "height": 0},
        {"player": "blue", "stone": "pillar", "face": "up", "dir": "e", "at": "g10", "height": 0},
        {"player": "black", "stone": "step", "face": "down", "dir": "e", "at": "c8", "height": 0},
        {"player": "blue", "stone": "bridge", "face": "up", "dir": "e", "at": "e5", "height": 0},
        {"player": "black", "stone": "block", "face": "up", "dir": "e", "at": "g2", "height": 2},
        {"player": "blue", "stone": "block", "face": "up", "dir": "e", "at": "e2", "height": 1},
        {"player": "black", "stone": "brick", "face": "up", "dir": "e", "at": "c4", "height": 0},
        {"player": "blue", "stone": "block", "face": "up", "dir": "e", "at": "f2", "height": 1},
        {"player": "black", "stone": "brick", "face": "up", "dir": "s", "at": "i5", "height": 2},
        {"player": "blue", "stone": "post", "face": "up", "dir": "e", "at": "e8", "height": 0},
        {"player": "black", "stone": "pillar", "face": "up", "dir": "e", "at": "c5", "height": 0},
        {"player": "blue", "stone": "corner", "face": "up", "dir": "e", "at": "b5", "height": 0},
        {"player": "black", "stone": "pillar", "face": "up", "dir": "e", "at": "f4", "height": 0},
        {"player": "blue", "stone": "pillar", "face": "up", "dir": "e", "at": "e8", "height": 2},
        {"player": "black", "stone": "corner", "face": "up", "dir": "n", "at": "h4", "height": 0},
        {"player": "blue", "stone": "brick", "face": "up", "dir": "s", "at": "i1", "height": 0},
        {"player": "black", "stone": "arch", "face": "up", "dir": "e", "at": "a3", "height": 0},
    ],
}
"""The mid-game of issue 27: blue needs 4 stones (a Span, two Bricks and a Corner: four gaps
split by blue's rows), and proving that 3 do not do took 35-90 s CPU while the top-view
relaxation let two stones hold each other up. Read with ``position_from_json``."""


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


def midgame(seed: int, stones: int = STONES_PER_GAME, scattered: bool = False, first: str = BLACK) -> Position:
    """A quiet mid-game of ``stones`` stones played by the policy in the module docstring (with
    ``scattered``: the first quiet stone of a random order), ``first`` moving first."""
    rng = random.Random(seed)
    position = Position(Board(), default_stones(), first)
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
