"""Laido scoring of finished boards: solid halves and random full boards, 9 and 11 points a side.

    .venv/bin/python benchmarks/laido_score.py [--runs 5] [--solver]

Boards (made here, deterministic): ``halves9`` is the 9-side board split into two solid halves
(Black every point with r < 0, 100 stones; White r >= 0, 117 stones); ``halves11`` the same on
11 points a side (155 and 176 stones); ``full9-s``/``full11-s`` every point filled at random
(seed s, half each). Each figure is the median of ``--runs`` runs of ``score_position`` in one
process after a warm-up run: CPU time (``time.process_time``) and wall time. ``--solver`` also
times the solver alone (``method="solver"``, the way every group was scored before the sweep;
slow on the solid halves). Prints a Markdown table and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import timed  # noqa: E402
from solver.core.lattice import HexLattice  # noqa: E402
from solver.laido.model import BLACK, WHITE, Position  # noqa: E402
from solver.laido.score import score_position  # noqa: E402


def halves(side: int) -> Position:
    """Black on every point with r < 0, White on the rest; the game over."""
    lattice = HexLattice(side)
    black = frozenset(p for p in lattice.points if p[1] < 0)
    return Position(side, black, frozenset(lattice.points) - black, WHITE, 2, BLACK)


def full(side: int, seed: int) -> Position:
    """Every point filled at random, half each."""
    lattice = HexLattice(side)
    points = list(lattice.points)
    random.Random(seed).shuffle(points)
    half = (len(points) + 1) // 2
    return Position(side, frozenset(points[:half]), frozenset(points[half:]), WHITE, 2, BLACK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--solver", action="store_true", help="also time the solver alone")
    options = parser.parse_args()
    boards = [("halves9", halves(9)), ("halves11", halves(11))]
    boards += [(f"full9-{s}", full(9, s)) for s in (1, 2, 3)]
    boards += [(f"full11-{s}", full(11, s)) for s in (1, 2, 3)]
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| board | method | CPU s (median) | wall s (median) | values black / white |")
    print("|---|---|---|---|---|")
    for name, position in boards:
        methods = ["auto"] + (["solver"] if options.solver else [])
        for method in methods:
            runs = options.runs if method == "auto" else 1
            cpu, wall, score = timed(lambda: score_position(position, method=method), runs)
            values = f"{score.values(BLACK)[:3]} / {score.values(WHITE)[:3]}"
            print(f"| {name} | {method} | {cpu:.2f} | {wall:.2f} | {values} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
