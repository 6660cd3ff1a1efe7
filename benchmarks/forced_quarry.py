"""Quarry's forced wins and best move on the shipped mid-game positions.

    .venv/bin/python benchmarks/forced_quarry.py [--limits 10 60] [--best-runs 3] [--positions midgame ...] [--plain]

For each position (grids/quarry/midgame*.json, scattered-*.json: 20 stones on the 10 x 9 board,
black to move) and each player (black to move, then blue, whose first move comes after
black's): the largest K (own moves of that player) that ``forced`` settles (win or no forced
win, the win replayed on the rules) within each time limit, trying K = 1, 2, ... until one
comes back unknown (a win within W settles every K >= W); the answer, the positions searched and the CPU beside wall seconds of
each K tried (one run each: a limit that bites is the measurement). Then ``best`` with its
default 5 s: the median CPU and wall seconds of ``--best-runs`` runs, its kind and its move. The
machine's load average is printed before and after (it is shared: wall time is CPU time plus
waiting). Everything runs in this process, imports excluded.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import once  # noqa: E402
from placesat.core.limits import Deadline  # noqa: E402
from placesat.quarry import forced  # noqa: E402
from placesat.quarry.forced import UNKNOWN, WIN, forced_win  # noqa: E402
from placesat.quarry.model import opponent  # noqa: E402
from placesat.quarry.model import load_position  # noqa: E402
from placesat.quarry.play import Game, QuarryPlayable  # noqa: E402
from placesat.quarry.rules import replay  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids" / "quarry"
MIDGAMES = ("midgame", "midgame-2", "midgame-3", "scattered-1", "scattered-2")
BEST_TIME = 5.0


def largest_settled(name: str, player: str | None, limit: float, most: int = 6) -> tuple[str, list[str]]:
    """The largest K settled within ``limit`` seconds for ``player`` (None: the player to move;
    each K run on its own clock), and a line per K tried. A win within W settles every K >= W."""
    position = load_position(str(GRIDS / f"{name}.json"))
    state = replay(position)
    settled = "none"
    lines = []
    for k in range(1, most + 1):
        answer, cpu, wall = once(lambda: forced_win(position, state, player or state.to_move, k, limit))
        lines.append(f"    K={k}: {answer.answer:<14} {answer.positions:>7} positions"
                     f"{f', {answer.replayed} replayed' if answer.replayed else '':<16} cpu {cpu:6.2f} s  wall {wall:6.2f} s")
        if answer.answer == UNKNOWN:
            break
        settled = str(k)
        if answer.answer == WIN:
            settled = f"every K >= {answer.within} (a win within {answer.within})"
            break
    return settled, lines


def best_timing(name: str, runs: int) -> str:
    """``best`` at its default time limit: median CPU and wall seconds, the kind and the move."""
    position = load_position(str(GRIDS / f"{name}.json"))
    game = Game.of(position)
    cpu, wall, said = [], [], []
    for _ in range(runs):
        advice, c, w = once(lambda: QuarryPlayable().best(game, Deadline(BEST_TIME)))
        cpu.append(c)
        wall.append(w)
        said.append(f"{advice.kind}: {QuarryPlayable().move_text(game, advice.move)}")
    return f"  best ({BEST_TIME:g} s): cpu {statistics.median(cpu):.2f} s  wall {statistics.median(wall):.2f} s  ({'; '.join(sorted(set(said)))})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=float, nargs="*", default=[10.0, 60.0], help="time limits for forced (none: best only)")
    parser.add_argument("--best-runs", type=int, default=3)
    parser.add_argument("--positions", nargs="+", default=list(MIDGAMES))
    parser.add_argument("--plain", action="store_true", help="without the cut of the target's stones out of reach (forced.PRUNE)")
    args = parser.parse_args()
    forced.PRUNE = not args.plain
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name in args.positions:
        print(f"{name}:")
        to_move = replay(load_position(str(GRIDS / f"{name}.json"))).to_move
        for player in (to_move, opponent(to_move)) if args.limits else ():
            for limit in args.limits:
                settled, lines = largest_settled(name, player, limit)
                turn = "to move" if player == to_move else "not to move"
                print(f"  {player} ({turn}): largest K settled within {limit:g} s: {settled}")
                for text in lines:
                    print(text)
        print(best_timing(name, args.best_runs))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
