"""Benchmark ``placesat logisticks forced`` and ``best`` on the shipped positions.

For each position (grids/logisticks/) and each goal, one point more than the player to move has
(the question ``best`` asks) and two more, ``forced`` is asked for 1, 2, ... own moves, each
with the whole budget, until an answer is "unknown" (or a win: a win within K is a win within
more): the largest K settled within 10 s and within 60 s, with the answer and the wall and CPU
seconds it took. ``best`` runs with
its default time limit (5 s): the median wall and CPU seconds of ``--runs`` runs and the kind of
advice it gave.

    .venv/bin/python benchmarks/forced_logisticks.py [--budgets 10 60] [--runs 3] [--plain] [POSITION ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from placesat.core.limits import Deadline  # noqa: E402
from placesat.logisticks import forced as forced_module  # noqa: E402
from placesat.logisticks.forced import MAX_MOVES, UNKNOWN, WIN, Goal, forced  # noqa: E402
from placesat.logisticks.play import best_move  # noqa: E402
from placesat.logisticks.rules import load_position, scores  # noqa: E402

DEFAULT_POSITIONS = ["midgame.json", "late.json", "four-players.json", "start.json"]
BEST_SECONDS = 5.0


def timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", default=DEFAULT_POSITIONS)
    parser.add_argument("--budgets", type=float, nargs="+", default=[10.0, 60.0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--plain", action="store_true", help="without the must-play region (forced.PRUNE)")
    args = parser.parse_args()
    forced_module.PRUNE = not args.plain
    for name in args.positions:
        path = Path(name) if Path(name).exists() else ROOT / "grids" / "logisticks" / name
        position = load_position(str(path))
        player = position.to_move
        print(f"{path.name}: {position.players} players, {len(position.pieces)} pieces, player {player} to move")
        for more in (1, 2):
            goal = Goal(player, score=scores(position)[player].points + more)
            for budget in args.budgets:
                largest, notes = 0, []
                for own in range(1, MAX_MOVES + 1):
                    answer, wall, cpu = timed(lambda: forced(position, goal, own, budget))
                    if answer.answer == UNKNOWN:
                        notes.append(f"K={own} unknown at {wall:.1f} s")
                        break
                    largest = own
                    notes.append(f"K={own} {answer.answer} {wall:.2f} s (cpu {cpu:.2f}, {answer.positions} positions, {answer.replayed} replayed)")
                    if answer.answer == WIN:
                        largest = MAX_MOVES
                        break
                settled = f"every K (a win from K={own})" if largest == MAX_MOVES else f"K={largest}"
                print(f"  {goal.words()}, within {budget:g} s: settled {settled}; " + "; ".join(notes))
        runs = [timed(lambda: best_move(position, Deadline(BEST_SECONDS))) for _ in range(args.runs)]
        walls = statistics.median(w for _, w, _ in runs)
        cpus = statistics.median(c for _, _, c in runs)
        kinds = sorted({advice.kind for advice, _, _ in runs})
        print(f"  best (limit {BEST_SECONDS:g} s): median {walls:.2f} s wall, {cpus:.2f} s cpu over {args.runs} runs; {', '.join(kinds)}: {runs[0][0].reason}")


if __name__ == "__main__":
    main()
