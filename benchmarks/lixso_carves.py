"""Where a carved Lixso puzzle's time goes: CPU by step, carves by grade, and the yield.

    .venv/bin/python benchmarks/lixso_carves.py [--puzzles 30] [--level 5] [--first 0]

Levels 5 and 6 are made from carves (solver/lixso/generate.py): draw a full solution, carve
it to a minimal unique clue set, grade the carve, and for level 5 try the clues that may make
a level-6 carve level 5. A seed needs as many carves as it takes to get one puzzle, so the
time per puzzle is (CPU per carve) / (puzzles per carve), and the number of carves is
geometric: this prints both factors, and the maximum over the puzzles that a geometric
number of carves at this yield and cost predicts (E[max of n geometric] ~ 1/2 + H_n / λ,
λ = -ln(1 - yield)), beside the maximum measured. The steps are timed by wrapping the
generator's own functions (named below), so this benchmark follows their names. Seeds are
those of lixso_factory.py ("bench:L:i").
"""

from __future__ import annotations

import importlib
import argparse
import math
import statistics
import time
from collections import Counter

generate = importlib.import_module("placesat.lixso.generate")  # placesat.lixso.generate is the call
from timing import ninetieth, once

# the generator's steps, by the function that does each (wrapped below to time them)
STEPS = {
    "random_solution": "draw (tiling and colouring)",
    "_carve": "carve (the uniqueness questions)",
    "_graded_carve": "grading the carve",
    "_level5_clue": "clue tries on level-6 carves",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=30)
    parser.add_argument("--level", type=int, default=5, choices=(5, 6))
    parser.add_argument("--first", type=int, default=0, help="the index of the first seed")
    args = parser.parse_args()

    cpu: Counter = Counter()
    calls: Counter = Counter()
    grades: Counter = Counter()
    rescued = 0

    def timed(name: str):
        inner = getattr(generate, name)

        def wrapper(*a, **k):
            nonlocal rescued
            start = time.process_time()
            try:
                result = inner(*a, **k)
            finally:
                cpu[name] += time.process_time() - start
                calls[name] += 1
            if name == "_graded_carve":
                grades[result.level] += 1
            elif name == "_level5_clue":
                rescued += result is not None
            return result

        return wrapper

    for name in STEPS:
        setattr(generate, name, timed(name))
    generate.generate_one(9, 9, args.level, "warm-up", "w")  # builds the solvers and kernels
    cpu.clear()
    calls.clear()
    grades.clear()
    rescued = 0

    per_puzzle = []
    for i in range(args.first, args.first + args.puzzles):
        _, cpu_seconds, _ = once(lambda: generate.generate_one(9, 9, args.level, f"bench:{args.level}:{i}", "b"))
        per_puzzle.append(cpu_seconds)
    total = sum(per_puzzle)
    carves = calls["_graded_carve"]
    print(f"level {args.level}, {args.puzzles} puzzles (9x9): {carves} carves, {carves / args.puzzles:.1f} a puzzle")
    print("| step | CPU ms a carve | share |")
    print("|---|---|---|")
    # _graded_carve's time includes _carve's: grading alone is the difference
    own = Counter(cpu)
    own["_graded_carve"] -= cpu["_carve"]
    for name, label in STEPS.items():
        if name == "_level5_clue" and args.level != 5:
            continue
        print(f"| {label} | {1000 * own[name] / carves:.1f} | {100 * own[name] / total:.0f}% |")
    rest = total - sum(own.values())
    print(f"| the rest | {1000 * rest / carves:.1f} | {100 * rest / total:.0f}% |")
    print(f"carves by grade: level 4 or lower {grades[4]}, level 5 {grades[5]}, level 6 {grades[6]}"
          + (f"; level-6 carves made level 5 by a clue: {rescued} of {calls['_level5_clue']}" if args.level == 5 else ""))
    yield_ = args.puzzles / carves
    per_carve = total / carves
    rate = -math.log(1 - yield_) if yield_ < 1 else math.inf
    harmonic = sum(1 / k for k in range(1, args.puzzles + 1))
    predicted = per_carve * (0.5 + harmonic / rate)
    print(f"yield {yield_:.3f} puzzles a carve at {1000 * per_carve:.1f} ms CPU a carve: {100 * yield_ / (1000 * per_carve):.2f}% of a puzzle per ms")
    print(f"CPU s a puzzle: mean {total / args.puzzles:.3f}, median {statistics.median(per_puzzle):.3f}, "
          f"90th percentile {ninetieth(per_puzzle):.3f}, max {max(per_puzzle):.3f} "
          f"(geometric estimate of the max: {predicted:.2f})")


if __name__ == "__main__":
    main()
