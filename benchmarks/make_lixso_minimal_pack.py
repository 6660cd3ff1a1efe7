"""Write a pack of minimal-clue Lixso grids (no clue can go without losing uniqueness).

    .venv/bin/python benchmarks/make_lixso_minimal_pack.py --count 40 --seed 1 > benchmarks/lixso-minimal-9x9.txt

The shipped benchmarks/lixso-minimal-9x9.txt was made by exactly that command.
"""

from __future__ import annotations

import argparse

from placesat.lixso.generate import minimal_unique
from placesat.lixso.model import format_grid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="9x9")
    args = parser.parse_args()
    height, width = (int(x) for x in args.size.split("x"))
    print(f"# Minimal-clue {args.size} Lixso grids made by benchmarks/make_lixso_minimal_pack.py --seed {args.seed}")
    print("# Removing any clue makes the solution non-unique.\n")
    for i in range(args.count):
        name = f"minimal-{args.seed}-{i + 1:03d}"
        grid, solution = minimal_unique(height, width, f"{args.seed}:{i}", name)
        print(format_grid(grid, solution))


if __name__ == "__main__":
    main()
