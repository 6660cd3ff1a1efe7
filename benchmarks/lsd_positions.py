"""Make the shipped LSD benchmark positions: mid-game fields grown by seeded random play.

    .venv/bin/python benchmarks/lsd_positions.py [--out grids/lsd]

``mid20.json``: a 2-player game with the default tile set played until 20 tiles stand on the
field (captures included along the way), nobody having a line or a win at once, player 1 to
move with at least 20 legal moves. The
players place at random but prefer cells that extend their own runs (as people do), so lines
are a few tiles away. ``four20.json``: the same with 4 players, 20 tiles on the field.

    .venv/bin/python benchmarks/lsd_positions.py --huge DIR

writes two fields far larger than a game makes, for the time limits and the memory of the
commands (not shipped: they are made in a second): ``row792.json``, a row of 792 four-dotted
tiles of 4 players in turn, 99 of each kind in the tile set (about 22,000 placements, a tenth of
a second per node of ``forced``); ``scattered.json``, 2,970 tiles of players 2-4 standing apart
(after a capture, so the field may be in pieces) and player 1 holding 1,188 tiles of all twelve
kinds: about 190,000 placements for ``moves``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from placesat.lsd.model import Placement, Position, dumps, new_position, position_to_json
from placesat.lsd.rules import is_over, legal_moves, play, winner, winning_placements

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


KINDS = ("N", "NE", "NS", "NES", "NESW")


def long_row(tiles: int = 792) -> dict:
    """A row of ``tiles`` four-dotted tiles, players 1-4 in turn (nobody has three in a row)."""
    field = [
        {"at": [i - tiles // 2, 0], "player": i % 4 + 1, "dots": "NESW", "icon": "+" if i // 4 % 2 == 0 else "x"}
        for i in range(tiles)
    ]
    tileset = {k + icon: 99 for k in KINDS for icon in "+x"}
    return {"players": 4, "tileset": tileset, "field": field, "to_move": 1}


def scattered(side: int = 55, rows: int = 54) -> dict:
    """``side`` x ``rows`` tiles of players 2-4 in turn, three cells apart (so every empty
    neighbour faces one half dot), 990 each (every dotted kind 99 times); player 1 has none on
    the field and all 1,188 in supply; one captured tile lets the field be in pieces."""
    tileset = {k + icon: 99 for k in ("-",) + KINDS for icon in "+x"}
    dotted = [k + icon for k in KINDS for icon in "+x"]
    field = []
    for i in range(side * rows):
        kind = dotted[(i // 3) % len(dotted)]
        field.append({"at": [3 * (i % side) - 80, 3 * (i // side) - 80], "player": i % 3 + 2, "dots": kind[:-1], "icon": kind[-1]})
    captured = [{}, {"-+": 1}, {}, {}]
    return {"players": 4, "tileset": tileset, "field": field, "captured": captured, "to_move": 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "grids" / "lsd"))
    parser.add_argument("--huge", metavar="DIR", help="write row792.json and scattered.json there instead")
    options = parser.parse_args()
    if options.huge:
        for name, raw in (("row792", long_row()), ("scattered", scattered())):
            (Path(options.huge) / f"{name}.json").write_text(json.dumps(raw))
            print(f"{name}.json: {len(raw['field'])} tiles on the field")
        return
    out = Path(options.out)
    for name, players, seed in (("mid20", 2, 7), ("four20", 4, 11)):
        used, position = first_grown(players, 20, seed)
        (out / f"{name}.json").write_text(dumps(position_to_json(position)))
        print(f"{name}.json: seed {used}, {len(position.field)} tiles on the field")


if __name__ == "__main__":
    main()
