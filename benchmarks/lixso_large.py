"""Lixso on large grids: random full solutions, generation at 15x15, solve + uniqueness at 21x21.

    .venv/bin/python benchmarks/lixso_large.py [--seeds 5] [--generate 2]

Random full solution: seconds per 21x21 and 30x30 solution (tiling, then colouring; see
solver/lixso/generate.py), wall and CPU. Generation: seconds per 15x15 puzzle at levels 3
and 6, one core. Solve: milliseconds per 21x21 puzzle (grown level-2 puzzles, and 20% of a
random solution's cells as clues), solve and prove unique in one warm solver, with the
template build (once per size) given apart.
"""

from __future__ import annotations

import argparse
import random
import statistics

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import once  # noqa: E402
from placesat.lixso.generate import generate_one, tiled_solution  # noqa: E402
from placesat.lixso.model import Grid, default_per_colour
from placesat.lixso.solve import LixsoSolver


def row(label: str, walls: list[float], cpus: list[float], scale: float = 1.0, unit: str = "s") -> None:
    print(
        f"| {label} | {statistics.median(walls) * scale:.2f} | {statistics.median(cpus) * scale:.2f} "
        f"| {max(walls) * scale:.2f} | {max(cpus) * scale:.2f} | {unit} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--generate", type=int, default=2, help="15x15 puzzles per level")
    args = parser.parse_args()

    print("| what | median wall | median CPU | max wall | max CPU | unit |")
    print("|---|---|---|---|---|---|")
    for height, width in ((21, 21), (30, 30)):
        walls, cpus = [], []
        for seed in range(args.seeds):
            _, cpu, wall = once(lambda: tiled_solution(height, width, default_per_colour(height, width), random.Random(seed)))
            walls.append(wall)
            cpus.append(cpu)
        row(f"random full solution {height}x{width}", walls, cpus)

    for level in (3, 6):
        walls, cpus = [], []
        for i in range(args.generate):
            _, cpu, wall = once(lambda: generate_one(15, 15, level, f"large:{level}:{i}", "b"))
            walls.append(wall)
            cpus.append(cpu)
        row(f"generate 15x15 level {level}", walls, cpus)

    puzzles = [generate_one(21, 21, 2, f"large:21:{i}", "b").grid for i in range(args.seeds)]
    rng = random.Random(7)
    for seed in range(args.seeds):
        solution = tiled_solution(21, 21, default_per_colour(21, 21), random.Random(100 + seed))
        puzzles.append(Grid(tuple("".join(ch if rng.random() < 0.2 else "." for ch in line) for line in solution)))
    solver = LixsoSolver("sat")
    _, build_cpu, build_wall = once(lambda: solver.compiled(puzzles[0]))
    walls, cpus, verdicts = [], [], []
    for grid in puzzles:
        report, cpu, wall = once(lambda: solver.solve(grid))
        walls.append(wall)
        cpus.append(cpu)
        verdicts.append(report.status.value)
    row("solve + uniqueness 21x21 (warm solver)", walls, cpus, 1000, "ms")
    print(f"\n21x21 template and solver built once: {build_wall:.2f} s wall, {build_cpu:.2f} s CPU; verdicts {sorted(set(verdicts))}")


if __name__ == "__main__":
    main()
