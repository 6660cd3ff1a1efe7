"""Lixso puzzle factory figures: generation per level, grading cost, verify throughput.

    .venv/bin/python benchmarks/lixso_factory.py [--per-level 5] [--levels 1,2,3,4,5,6] [--size 9x9] [--skip-pack]

Generation: seconds per puzzle at each level, one core, wall and CPU (the seeds are fixed,
so runs are comparable; every puzzle is re-graded and must come out at its level); the 90th
percentile of CPU too, the tail being what levels 5 and 6 are judged by (how many solutions
a puzzle takes to draw is luck). Puzzle i of level L has the seed "bench:L:i", i counted from
--first (0).
Grading: milliseconds per puzzle over the minimal-clue pack. Verify: puzzles per second of
`placesat lixso verify --jobs 2` on the minimal-clue pack (five times over), end to end.
benchmarks/lixso_grading.py measures grading on the shipped packs, level by level.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from placesat.lixso.deduce import Deducer
from placesat.lixso.generate import generate_one
from placesat.lixso.model import Grid, load_pack
from timing import ninetieth

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=5)
    parser.add_argument("--levels", default="1,2,3,4,5,6")
    parser.add_argument("--size", default="9x9")
    parser.add_argument("--first", type=int, default=0, help="the index of the first seed")
    parser.add_argument("--pack", default=str(HERE / "lixso-minimal-9x9.txt"))
    parser.add_argument("--skip-pack", action="store_true", help="generation only: no grading or verify of the pack")
    args = parser.parse_args()
    height, width = (int(x) for x in args.size.split("x"))

    print(f"{args.size}, {args.per_level} puzzles per level")
    print("| level | median s wall | median s CPU | 90th percentile s CPU | max s wall | max s CPU | clues (median) |")
    print("|---|---|---|---|---|---|---|")
    for level in map(int, args.levels.split(",")):
        walls, cpus, clues = [], [], []
        grader = Deducer(height, width)
        for i in range(args.first, args.first + args.per_level):
            wall, cpu = time.perf_counter(), time.process_time()
            made = generate_one(height, width, level, f"bench:{level}:{i}", "b")
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            clues.append(len(made.grid.clues()))
            assert grader.grade(made.grid).level == level, (level, i)
        print(
            f"| {level} | {statistics.median(walls):.2f} | {statistics.median(cpus):.2f} | {ninetieth(cpus):.2f} | {max(walls):.2f} "
            f"| {max(cpus):.2f} | {statistics.median(clues):.0f} |",
            flush=True,
        )
    if args.skip_pack:
        return

    grids = [g for g in load_pack(args.pack) if isinstance(g, Grid)]
    deducer = Deducer(9, 9)
    deducer.grade(grids[0])
    costs, cpu_costs, levels = [], [], []
    for grid in grids:
        wall, cpu = time.perf_counter(), time.process_time()
        levels.append(deducer.grade(grid).level)
        costs.append((time.perf_counter() - wall) * 1000)
        cpu_costs.append((time.process_time() - cpu) * 1000)
    spread = {lv: levels.count(lv) for lv in sorted(set(levels))}
    print(
        f"\ngrading {len(grids)} minimal-clue grids: median {statistics.median(costs):.1f} ms wall "
        f"({statistics.median(cpu_costs):.1f} CPU), max {max(costs):.1f} ms wall ({max(cpu_costs):.1f} CPU); levels {spread}"
    )

    # the pack five times over, so that start-up (about a second) is spread as in real use
    big = HERE / ".verify-bench.txt"
    big.write_text("\n".join([Path(args.pack).read_text()] * 5))
    command = [str(Path(sys.executable).parent / "placesat"), "lixso", "verify", str(big), "--jobs", "2", "--json"]
    rates = []
    try:
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            rates.append(5 * len(grids) / (time.perf_counter() - start))
    finally:
        big.unlink()
    print(f"verify --jobs 2, end to end: median {statistics.median(rates):.0f} puzzles per second ({5 * len(grids)} puzzles, 3 runs)")


if __name__ == "__main__":
    main()
