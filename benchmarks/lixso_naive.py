"""The naive Lixso generator that issue 12 and ../shared/ANCHORS.md compare the factory with.

    .venv/bin/pip install -e '.[bench]'     # xcover, the exact-cover package the anchors used
    .venv/bin/python benchmarks/lixso_naive.py [--puzzles 30] [--draw tiled|sat] [--check]
    .venv/bin/python benchmarks/lixso_naive.py --pack PACK

A random full solution, then its cells taken away as clues one by one in random order, each
only while exact cover still finds exactly one solution (Knuth's Algorithm C with colours, as
the `xcover` package compiles it with numba). The result is a minimal unique puzzle of
whatever level it happens to be. CPU and wall seconds per puzzle, median, 90th percentile and
max, so that the factory's levels can be held against the naive generator's whole spread (the
target: no level slower than it at its max), not against one figure.

The exact-cover model, written for this benchmark:

* primary items: the cells (each covered by exactly one tile);
* an option per L-tromino placement and colour, allowed when no clue in it says otherwise;
* no touching: two tiles of one colour that touch by a side or a corner have cells in a
  common 2x2 window, so each option also holds the colour-tagged secondary item
  ``(window, colour)`` of every window it meets, coloured with the placement's own name:
  two placements of one colour in one window disagree on that item's colour;
* the colour supply (at most ``per_colour`` tiles of each colour) is checked on each cover
  found, as the anchors did.

``--draw``: the full solution comes from the factory's tiled draw (``tiled``, about 5 ms: the
fastest, so the strictest baseline) or its single SAT draw (``sat``, about 44 ms). The anchors'
own draw took about a quarter of their 1.1 s. ``--check`` proves each puzzle unique and
minimal again with placesat's solver, outside the timing (an independent cross-check of the
two).

``--pack PACK`` times solve + uniqueness instead, grid by grid, as the anchors did: exact cover
(every cover within the supply, until a second one) beside placesat's warm solver (as
`placesat lixso solve PACK` runs it), CPU ms per grid, one warm-up grid excluded; both must
find the same single solution.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from placesat.lixso.deduce import deducer_for
from placesat.lixso.generate import random_solution
from placesat.lixso.model import COLOURS, Grid, load_pack
from placesat.lixso.solve import LixsoSolver, Verdict
from timing import ninetieth, once


class ExactCover:
    """Lixso as exact cover with colours for one grid size (see the module docstring)."""

    def __init__(self, height: int, width: int, per_colour: int) -> None:
        from xcover import covers

        self.covers = covers
        self.height, self.width, self.per_colour = height, width, per_colour
        self.template = deducer_for(height, width, per_colour).template
        self.options: list[tuple[int, int, list[str]]] = []  # (placement, colour, items)
        for p, cells in enumerate(self.template.placements):
            windows = sorted({w for cell in cells for w in self._windows(cell)})
            for k in range(len(COLOURS)):
                items = [f"c{r * width + c}" for r, c in cells] + [f"w{wr}_{wc}_{k}:p{p}" for wr, wc in windows]
                self.options.append((p, k, items))
        self.primary = [f"c{i}" for i in range(height * width)]
        self.secondary = [f"w{r}_{c}_{k}" for r in range(height - 1) for c in range(width - 1) for k in range(len(COLOURS))]

    def _windows(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        """The 2x2 windows (by top-left cell) that hold ``cell``."""
        r, c = cell
        return [(wr, wc) for wr in (r - 1, r) for wc in (c - 1, c) if 0 <= wr < self.height - 1 and 0 <= wc < self.width - 1]

    def solutions(self, clues: dict[int, int], stop: int = 2) -> list[tuple[str, ...]]:
        """Solutions of the clues (cell index -> colour index) within the supply, up to ``stop``."""
        width = self.width
        allowed = [o for o in self.options if all(clues.get(r * width + c, o[1]) == o[1] for r, c in self.template.placements[o[0]])]
        found = []
        for cover in self.covers([o[2] for o in allowed], primary=self.primary, secondary=self.secondary, colored=True):
            tiles = [0] * len(COLOURS)
            for i in cover:
                tiles[allowed[i][1]] += 1
            if max(tiles) <= self.per_colour:
                rows = [["."] * width for _ in range(self.height)]
                for i in cover:
                    for r, c in self.template.placements[allowed[i][0]]:
                        rows[r][c] = COLOURS[allowed[i][1]]
                found.append(tuple("".join(row) for row in rows))
                if len(found) >= stop:
                    break
        return found

    def count(self, clues: dict[int, int], stop: int = 2) -> int:
        return len(self.solutions(clues, stop))


def naive_puzzle(cover: ExactCover, seed: str, tiled: bool) -> tuple[dict[int, int], tuple[str, ...]]:
    """One minimal unique puzzle (clues, solution) by the naive method, from ``seed``."""
    rng = random.Random(seed)
    solution = random_solution(cover.template, rng, tiled=tiled)
    clues = {r * cover.width + c: COLOURS.index(ch) for r, row in enumerate(solution) for c, ch in enumerate(row)}
    order = list(clues)
    rng.shuffle(order)
    for cell in order:
        colour = clues.pop(cell)
        if cover.count(clues) != 1:
            clues[cell] = colour
    return clues, solution


def as_grid(clues: dict[int, int], height: int, width: int) -> Grid:
    rows = ["".join(COLOURS[clues[r * width + c]] if r * width + c in clues else "." for c in range(width)) for r in range(height)]
    return Grid(tuple(rows))


def solve_pack(path: str) -> None:
    """CPU ms per grid of solve + uniqueness: exact cover beside placesat's warm solver."""
    grids = [grid for grid in load_pack(path) if isinstance(grid, Grid)]
    solver = LixsoSolver()
    height, width = grids[0].height, grids[0].width
    cover = ExactCover(height, width, solver.cap_for(grids[0]))
    times: dict[str, list[float]] = {"exact cover (xcover)": [], "placesat": []}
    for index, grid in enumerate(grids):
        clues = {r * width + c: COLOURS.index(ch) for r, c, ch in grid.clues()}
        found, cover_cpu, _ = once(lambda: cover.solutions(clues))
        report, placesat_cpu, _ = once(lambda: solver.solve(grid))
        assert report.status is Verdict.UNIQUE and found == report.solutions, grid.label()
        if index > 0:  # the first grid warms both up (numba's compile, the template)
            times["exact cover (xcover)"].append(cover_cpu * 1000)
            times["placesat"].append(placesat_cpu * 1000)
    print(f"{path}: {len(grids) - 1} grids (one warm-up excluded), CPU ms per grid, solve + uniqueness")
    print("| solver | median | 90th percentile | max |")
    print("|---|---|---|---|")
    for name, ms in times.items():
        print(f"| {name} | {statistics.median(ms):.1f} | {ninetieth(ms):.1f} | {max(ms):.1f} |")
    ratio = [p / x for p, x in zip(times["placesat"], times["exact cover (xcover)"])]
    print(f"\nplacesat / exact cover: {statistics.median(times['placesat']) / statistics.median(times['exact cover (xcover)']):.2f} "
          f"at the median, {max(times['placesat']) / max(times['exact cover (xcover)']):.2f} at the max "
          f"(grid by grid, median ratio {statistics.median(ratio):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=30)
    parser.add_argument("--first", type=int, default=0, help="the index of the first seed")
    parser.add_argument("--size", default="9x9")
    parser.add_argument("--draw", choices=("tiled", "sat"), default="tiled")
    parser.add_argument("--check", action="store_true", help="prove each puzzle unique and minimal with placesat's solver")
    parser.add_argument("--pack", help="time solve + uniqueness on this pack instead: exact cover beside placesat")
    args = parser.parse_args()
    try:
        import xcover  # noqa: F401
    except ImportError:
        sys.exit("this benchmark needs the xcover package: .venv/bin/pip install -e '.[bench]'")
    if args.pack:
        solve_pack(args.pack)
        return
    height, width = (int(x) for x in args.size.split("x"))
    solver = LixsoSolver()
    per_colour = solver.cap_for(Grid(tuple("." * width for _ in range(height))))
    cover = ExactCover(height, width, per_colour)
    naive_puzzle(cover, "warm-up", args.draw == "tiled")  # numba compiles Algorithm C on its first call
    walls, cpus, clue_counts = [], [], []
    for i in range(args.first, args.first + args.puzzles):
        (clues, solution), cpu, wall = once(lambda: naive_puzzle(cover, f"naive:{i}", args.draw == "tiled"))
        walls.append(wall)
        cpus.append(cpu)
        clue_counts.append(len(clues))
        if args.check:
            grid = as_grid(clues, height, width)
            report = solver.solve(grid)
            assert report.status is Verdict.UNIQUE and report.solutions[0] == solution, i
            for cell in clues:
                fewer = {c: k for c, k in clues.items() if c != cell}
                assert solver.solve(as_grid(fewer, height, width)).status is Verdict.MULTIPLE, (i, cell)
    print(f"naive generator, {args.size}, {args.puzzles} puzzles, {args.draw} draw" + (", each checked by placesat" if args.check else ""))
    print("| median s wall | median s CPU | 90th percentile s CPU | max s wall | max s CPU | mean s CPU | clues (median) |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {statistics.median(walls):.2f} | {statistics.median(cpus):.2f} | {ninetieth(cpus):.2f} | {max(walls):.2f} | {max(cpus):.2f} | "
          f"{statistics.mean(cpus):.2f} | {statistics.median(clue_counts):.0f} |")


if __name__ == "__main__":
    main()
