"""Does a puzzle's grade equal the highest level of the hints that solve it?

    .venv/bin/python benchmarks/lixso_levels_agree.py [--shipped N] [--random N] [--size 9x9] [--seed S]

For the first N puzzles of each shipped pack (grids/lixso/level-1..6.txt) and grids/examples.txt,
for puzzles the generator makes at each level (--generated), and for random puzzles (tests/lixso_samples.py: carves of random solutions with more and more
clues given back, so every level turns up), prints the stated level, the grade, and the highest
level among the steps of `hint --steps` from the clues to the end (with "unfilled" when the hints
stop short: at level 6 they must). One definition (seeds/lixso.md, "Difficulty levels") means
they agree on every puzzle: grade = highest hint level, or grade 6 with the hints stopping after
level-5 steps at most. Ends with a table of grades and how many disagreed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from placesat.lixso.deduce import deducer_for  # noqa: E402
from placesat.lixso.explain import steps_level  # noqa: E402
from placesat.lixso.generate import GenerationFailed, generate_one  # noqa: E402
from placesat.lixso.model import Grid, load_pack  # noqa: E402
from tests.lixso_samples import random_puzzles  # noqa: E402


def agrees(grade: int | None, highest: int, filled: bool) -> bool:
    """The one definition: the hints reach the grade's level and no further (level 6: they stop)."""
    if grade == 6:
        return not filled and highest <= 5
    return filled and highest == grade


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shipped", type=int, default=3, help="puzzles from the start of each shipped pack (0: none)")
    parser.add_argument("--random", type=int, default=0, help="random solutions (4 puzzles each)")
    parser.add_argument("--generated", type=int, default=0, help="puzzles per level 1-6 made by the generator (levels 5 and 6 are rare in random carves)")
    parser.add_argument("--size", default="9x9")
    parser.add_argument("--seed", default="agree")
    args = parser.parse_args()

    puzzles: list[tuple[str, Grid]] = []
    if args.shipped:
        for path in [ROOT / "grids" / "examples.txt"] + [ROOT / "grids" / "lixso" / f"level-{n}.txt" for n in range(1, 7)]:
            grids = [g for g in load_pack(str(path)) if isinstance(g, Grid)]
            puzzles += [(path.name, g) for g in grids[: args.shipped]]
    height, width = map(int, args.size.split("x"))
    for level in range(1, 7) if args.generated else ():
        for i in range(args.generated):
            try:
                made = generate_one(height, width, level, f"{args.seed}:{level}:{i}", f"gen-L{level}-{i}")
            except GenerationFailed as failed:
                print(f"generated level {level} at {args.size}: {failed}", flush=True)
                break
            puzzles.append(("generated", made.grid))
    if args.random:
        puzzles += [("random", g) for g in random_puzzles(height, width, args.random, args.seed)]

    tally: Counter = Counter()
    wrong = 0
    print("| source | puzzle | stated | grade | highest hint | filled | seconds |")
    print("|---|---|---|---|---|---|---|")
    for source, grid in puzzles:
        deducer = deducer_for(grid.height, grid.width, grid.per_colour())
        grade = deducer.grade(grid).level
        start = time.perf_counter()
        highest, filled = steps_level(grid)
        seconds = time.perf_counter() - start
        ok = agrees(grade, highest, filled)
        wrong += not ok
        tally[grade, ok] += 1
        print(f"| {source} | {grid.name} | {grid.stated_level() or '-'} | {grade} | {highest} | "
              f"{'yes' if filled else 'no'} | {seconds:.1f} |{'' if ok else ' DISAGREE'}", flush=True)
    print()
    for level in sorted({g for g, _ in tally}, key=lambda g: (g is None, g)):
        print(f"grade {level}: {tally[level, True] + tally[level, False]} puzzles, {tally[level, False]} disagree")
    print(f"{len(puzzles)} puzzles, {wrong} disagree")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
