"""Laido scoring of finished boards: solid halves, random full boards, and boards that one
colour nearly fills, 9 and 11 points a side.

    .venv/bin/python benchmarks/laido_score.py [--runs 5] [--solver] [--wide] [--time-limit 120]

Boards (made here, deterministic): ``halves9`` is the 9-side board split into two solid halves
(Black every point with r < 0, 100 stones; White r >= 0, 117 stones); ``halves11`` the same on
11 points a side (155 and 176 stones); ``full9-s``/``full11-s`` every point filled at random
(seed s, half each). With ``--wide``, 11-side boards with one wide group too:
``dominant11-p-s`` filled at random with Black on a share p of the points (seed s), and
``rim11-k`` with Black on the k lines along one rim (r < -10 + k) and White, one solid group,
on all the rest. Each figure is the median of ``--runs`` runs of ``score_position`` in one
process after a warm-up run (one run, no warm-up, for the wide boards): CPU time
(``time.process_time``) and wall time; a board not scored within ``--time-limit`` seconds
shows "unknown". ``--solver`` also times the solver alone (``method="solver"``, the way every
group was scored before the sweep; slow on the solid halves). Prints a Markdown table and the
load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import once, timed  # noqa: E402
from solver.core.backend import Status  # noqa: E402
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


def dominant(side: int, share: float, seed: int) -> Position:
    """Every point filled at random, Black on about ``share`` of them."""
    lattice = HexLattice(side)
    rng = random.Random(seed)
    black = frozenset(p for p in lattice.points if rng.random() < share)
    return Position(side, black, frozenset(lattice.points) - black, WHITE, 2, BLACK)


def rim_band(side: int, lines: int) -> Position:
    """Black on the ``lines`` lines along one rim, White (one solid group) on the rest."""
    lattice = HexLattice(side)
    black = frozenset(p for p in lattice.points if p[1] < -(side - 1) + lines)
    return Position(side, black, frozenset(lattice.points) - black, WHITE, 2, BLACK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--solver", action="store_true", help="also time the solver alone")
    parser.add_argument("--wide", action="store_true", help="also the 11-side boards with one wide group")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per board and run")
    options = parser.parse_args()
    boards = [("halves9", halves(9)), ("halves11", halves(11))]
    boards += [(f"full9-{s}", full(9, s)) for s in (1, 2, 3)]
    boards += [(f"full11-{s}", full(11, s)) for s in (1, 2, 3)]
    wide = []
    if options.wide:
        wide += [(f"dominant11-{p}-{s}", dominant(11, p, s)) for p in (0.7, 0.8, 0.9) for s in (1, 2)]
        wide += [(f"rim11-{k}", rim_band(11, k)) for k in (7, 6, 5, 4, 2)]
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| board | method | CPU s (median) | wall s (median) | values black / white |")
    print("|---|---|---|---|---|")
    cases = [(name, position, options.runs) for name, position in boards]
    cases += [(name, position, 1) for name, position in wide]
    for name, position, repeat in cases:
        methods = ["auto"] + (["solver"] if options.solver else [])
        for method in methods:
            runs = repeat if method == "auto" else 1

            def run(position=position, method=method):
                return score_position(position, method=method, time_limit=options.time_limit)

            if runs == 1:
                score, cpu, wall = once(run)
            else:
                cpu, wall, score = timed(run, runs)
            if score.status is Status.UNKNOWN:
                values = f"unknown after {options.time_limit:g} s"
            else:
                values = f"{score.values(BLACK)[:3]} / {score.values(WHITE)[:3]}"
            print(f"| {name} | {method} | {cpu:.2f} | {wall:.2f} | {values} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
