"""Lixso grading figures: milliseconds per shipped puzzle at each level, and `verify --jobs 2`.

    .venv/bin/python benchmarks/lixso_grading.py [--repeat 3] [--levels 1,2,3,4,5,6] [--no-verify] [--with-solution]

Grading: every puzzle of grids/lixso/level-L.txt graded with one warm deducer per process
(one warm-up grade excluded), as `placesat lixso grade` and `verify` use it; wall and CPU
milliseconds per puzzle, median and max over all repeats, and a check that every grade is
the stated level. With ``--with-solution`` each grade is given the puzzle's solution, as
`verify` gives it the solver's (it spares trials that cannot fail). Verify: puzzles per second of `placesat lixso verify grids/lixso --jobs 2`
end to end (levels checked), median of the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from placesat.lixso.deduce import Deducer
from placesat.lixso.model import Grid, load_pack

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "grids" / "lixso"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--levels", default="1,2,3,4,5,6")
    parser.add_argument("--no-verify", action="store_true")
    parser.add_argument("--with-solution", action="store_true", help="grade with the stated solution in hand")
    args = parser.parse_args()

    print(f"grading the shipped packs, {args.repeat} repeats; ms per puzzle")
    print("| level | puzzles | median wall | median CPU | max wall | max CPU |")
    print("|---|---|---|---|---|---|")
    wrong = []
    for level in map(int, args.levels.split(",")):
        grids = [g for g in load_pack(str(PACKS / f"level-{level}.txt")) if isinstance(g, Grid)]
        walls, cpus = [], []
        for _ in range(args.repeat):
            deducer = Deducer(9, 9)
            deducer.grade(grids[0])  # warm-up
            for grid in grids:
                wall, cpu = time.perf_counter(), time.process_time()
                got = deducer.grade(grid, solution=grid.stated_solution() if args.with_solution else None).level
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
                if got != grid.stated_level():
                    wrong.append(f"{grid.name}: graded {got}, stated {grid.stated_level()}")
        print(
            f"| {level} | {len(grids)} | {statistics.median(walls):.1f} | {statistics.median(cpus):.1f} "
            f"| {max(walls):.1f} | {max(cpus):.1f} |",
            flush=True,
        )
    if wrong:
        print("\nGRADES DIFFER FROM THE STATED LEVELS:\n" + "\n".join(sorted(set(wrong))))
    if args.no_verify:
        return
    command = [str(Path(sys.executable).parent / "placesat"), "lixso", "verify", str(PACKS), "--jobs", "2", "--json"]
    count = sum(1 for p in PACKS.glob("level-[0-9].txt") for g in load_pack(str(p)) if isinstance(g, Grid))
    rates = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        rates.append(count / (time.perf_counter() - start))
        if done.returncode != 0:
            print(f"verify exited {done.returncode}: {done.stderr.strip()[-300:]}")
    print(f"\nverify {PACKS.relative_to(ROOT)} --jobs 2 (levels checked), end to end: "
          f"median {statistics.median(rates):.1f} puzzles per second ({count} puzzles, {args.repeat} runs)")


if __name__ == "__main__":
    main()
