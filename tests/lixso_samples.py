"""Random Lixso puzzles of every level, for checking that the grade and the hints agree.

From a random solution, a minimal unique clue set is carved (clues dropped in random order
while the solution stays the only one; the hardest a puzzle of that solution gets), then clues
of the solution come back in random order: the puzzles along the way are unique (a superset of
a unique clue set) and range from the carve's level down to level 1.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from placesat.lixso.generate import _Uniqueness, random_solution
from placesat.lixso.model import Grid



def random_puzzles(height: int, width: int, solutions: int, seed: str, per_solution: int = 4) -> Iterator[Grid]:
    """``per_solution`` puzzles from each of ``solutions`` random solutions: the carve, then
    with more and more of the solution's other cells as clues (each time a random share)."""
    rng = random.Random(seed)
    uniqueness = _Uniqueness.for_size(height, width, None)
    for s in range(solutions):
        solution = random_solution(uniqueness.deducer.template, rng, tiled=True)
        clues = uniqueness.carve(solution, rng)
        rest = sorted(set(range(height * width)) - clues)
        rng.shuffle(rest)
        for j in range(per_solution):
            share = 0 if j == 0 else rng.random() * 0.8
            given = clues | set(rest[: int(share * len(rest))])
            rows = ["".join(solution[r][c] if r * width + c in given else "." for c in range(width)) for r in range(height)]
            yield Grid(tuple(rows), name=f"{seed}-{s}-{j}")
