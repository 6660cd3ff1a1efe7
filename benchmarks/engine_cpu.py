"""CPU seconds a move of selfplay engines, on positions of seeded random games (issue 40).

    .venv/bin/python benchmarks/engine_cpu.py GAME [--positions 10] [ENGINE ...]
    .venv/bin/python benchmarks/engine_cpu.py quarry --positions 10 best:d1 lookahead:p2:600n
    .venv/bin/python benchmarks/engine_cpu.py quarry --positions 10 best:d1:0.25s:cpu lookahead:f2:0.25s:cpu

Position i: the game's opening (Laido: the empty side-5 board) after a random number (2 to 29)
of random plies, seeded by i; positions where the game is over are skipped. Each engine
(a ``placesat selfplay`` spec, default ``best:d1`` and ``lookahead:p2:600n``) advises once on
each position, on a game object of its own (no cache shared between engines), on its own clock
if the spec gives one (none otherwise); the median, mean and largest CPU seconds are printed,
and for the look-ahead engine the deepest iteration its search finished (0 where the game's own
engine at the root settled the move, or no iteration finished). The machine is shared: CPU time,
not wall.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import placesat  # noqa: E402
from placesat.core.limits import Deadline  # noqa: E402
from placesat.core.lookahead import DEFAULT_FORCED, Lookahead  # noqa: E402
from placesat.core.selfplay import LOOKAHEAD, move_deadline, parse_engine  # noqa: E402


def new_game(name: str):
    """A fresh Playable of ``name`` (Laido on the side-5 board)."""
    return placesat.playable(name, 5) if name == "laido" else placesat.playable(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(placesat.PLAYABLE))
    parser.add_argument("engines", nargs="*", default=["best:d1", "lookahead:p2:600n"])
    parser.add_argument("--positions", type=int, default=10)
    args = parser.parse_intermixed_args()
    seconds: dict[str, list[float]] = {spec: [] for spec in args.engines}
    depths: dict[str, list[int]] = {spec: [] for spec in args.engines}
    for index in range(args.positions):
        game = new_game(args.game)
        rng = random.Random(index)
        position = game.opening(2)
        for _ in range(rng.randrange(2, 30)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(list(game.moves(position))))
        if game.outcome(position) is not None:
            continue
        for spec in args.engines:
            engine, own = parse_engine(spec), new_game(args.game)
            started = time.process_time()
            if engine.kind == LOOKAHEAD:
                search = Lookahead(own, plies=engine.depth, forced=DEFAULT_FORCED if engine.forced is None else engine.forced)
                search.best(position, move_deadline(Deadline(None), engine.seconds, engine.cpu), engine.nodes)
                depths[spec].append(search.finished)
            else:
                engine.advise(own, position, Deadline(None))
            seconds[spec].append(time.process_time() - started)
    for spec, spent in seconds.items():
        if not spent:  # every random game of the seeds asked for had ended before the engines' turn
            print(f"{args.game} {spec}: no position (each of the {args.positions} random games had ended); ask for more --positions")
            continue
        deepest = f", search finished to plies: {sorted(depths[spec])}" if depths[spec] else ""
        print(f"{args.game} {spec}: {len(spent)} positions, CPU a move: median {statistics.median(spent):.3f} s, "
              f"mean {statistics.fmean(spent):.3f} s, largest {max(spent):.3f} s{deepest}")


if __name__ == "__main__":
    main()
