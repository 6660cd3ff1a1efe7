"""Lixso puzzle factory figures: generation per level, grading cost, verify throughput.

    .venv/bin/python benchmarks/lixso_factory.py [--per-level 5] [--levels 1,2,3,4,5,6]

Generation: seconds per 9x9 puzzle at each level, one core (the seeds are fixed, so runs
are comparable). Grading: milliseconds per puzzle over the minimal-clue pack. Verify:
puzzles per second of `placesat lixso verify --jobs 2` on the minimal-clue pack (five times over),
end to end.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from solver.lixso.deduce import Deducer
from solver.lixso.generate import generate_one
from solver.lixso.model import Grid, load_pack

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=5)
    parser.add_argument("--levels", default="1,2,3,4,5,6")
    parser.add_argument("--pack", default=str(HERE / "lixso-minimal-9x9.txt"))
    args = parser.parse_args()

    print("| level | median s per puzzle | max s | clues (median) |")
    print("|---|---|---|---|")
    for level in map(int, args.levels.split(",")):
        seconds, clues = [], []
        for i in range(args.per_level):
            start = time.perf_counter()
            made = generate_one(9, 9, level, f"bench:{level}:{i}", "b")
            seconds.append(time.perf_counter() - start)
            clues.append(len(made.grid.clues()))
        print(f"| {level} | {statistics.median(seconds):.2f} | {max(seconds):.2f} | {statistics.median(clues):.0f} |", flush=True)

    grids = [g for g in load_pack(args.pack) if isinstance(g, Grid)]
    deducer = Deducer(9, 9)
    deducer.grade(grids[0])
    costs, levels = [], []
    for grid in grids:
        start = time.perf_counter()
        levels.append(deducer.grade(grid).level)
        costs.append((time.perf_counter() - start) * 1000)
    spread = {lv: levels.count(lv) for lv in sorted(set(levels))}
    print(f"\ngrading {len(grids)} minimal-clue grids: median {statistics.median(costs):.0f} ms, max {max(costs):.0f} ms; levels {spread}")

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
