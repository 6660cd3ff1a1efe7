"""The Laido sweep's answers on many groups, written to a JSON file or compared with one: the
check that two builds of the sweep's kernels (numba's and Cython's, or compiled and plain
Python) give the same answers, bit for bit.

    .venv/bin/python benchmarks/laido_sweep_values.py OUT.json [--compare EARLIER.json] [--random 3000]

The groups: every group of every position shipped in ``grids/laido`` (the last position of a
game record), then ``--random`` groups of seeded random boards (3 to 9 points a side, a fifth of
them solid or nearly, so that the bound and the quick sweeps run too), then a few wide boards
(the 9-side halves, a rim band, the whole 8-side board), each swept with states of one word
and of two. For each, the longest part the sweep finds (its points in order: a tie between two
parts of one length is broken by the order of the states, so equal parts mean the kernels took
the same states in the same order) and a digest of the bound's tables when the group has them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from placesat.core.lattice import HexLattice  # noqa: E402
from placesat.laido.bound import strip_bound  # noqa: E402
from placesat.laido.model import Position, load_game  # noqa: E402
from placesat.laido.rules import groups, replay  # noqa: E402
from placesat.laido.sweep import BOUND_FROM, NO_LIMITS, WIDEST, _steps, longest_connection_part, plan_sweep  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def shipped() -> list[tuple[str, HexLattice, frozenset]]:
    """Every group of both colours in every position of grids/laido."""
    cases = []
    for path in sorted((ROOT / "grids" / "laido").glob("*.json")):
        game = load_game(str(path))
        position = game if isinstance(game, Position) else replay(game)[-1]
        for colour, stones in (("black", position.black), ("white", position.white)):
            for k, group in enumerate(sorted(groups(position.lattice, stones), key=sorted)):
                cases.append((f"{path.name}:{colour}:{k}", position.lattice, frozenset(group)))
    return cases


def random_groups(count: int, seed: int = 38) -> list[tuple[str, HexLattice, frozenset]]:
    """``count`` groups of seeded random boards (the largest group of each board)."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        side = rng.choice([3, 4, 5, 5, 6, 6, 7, 8, 9])
        fill = rng.choice([0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 1.0])
        lattice = HexLattice(side)
        stones = [p for p in lattice.points if rng.random() < fill]
        found = groups(lattice, stones)
        if found:
            group = max(found, key=len)
            if plan_sweep(lattice, group).cost < 3e7:  # a few tenths of a second at most
                cases.append((f"random:{len(cases)}:{side}:{fill}", lattice, frozenset(group)))
    return cases


def wide() -> list[tuple[str, HexLattice, frozenset]]:
    """A few groups with the bound and the quick sweeps, one word and two."""
    nine, eight = HexLattice(9), HexLattice(8)
    return [
        ("halves9:black", nine, frozenset(p for p in nine.points if p[1] < 0)),
        ("halves9:white", nine, frozenset(p for p in nine.points if p[1] >= 0)),
        ("rim9-4:white", nine, frozenset(p for p in nine.points if p[1] >= -(9 - 1) + 4)),
        ("whole8", eight, frozenset(eight.points)),
    ]


def answers(cases: list[tuple[str, HexLattice, frozenset]]) -> dict[str, dict]:
    """Each case's longest part with states of one word (when they fit) and of two, and the
    digest of its bound's tables (past BOUND_FROM)."""
    found = {}
    for name, lattice, group in cases:
        plan = plan_sweep(lattice, group)
        entry = {}
        for words in (1, 2):
            if words == 1 and plan.widest > WIDEST:
                continue
            part = longest_connection_part(lattice, group, NO_LIMITS, plan=plan, words=words)
            entry[f"words{words}"] = None if part is None else [list(p) for p in part]
        if plan.cost >= BOUND_FROM:
            bound = strip_bound(lattice, plan, _steps(lattice, plan))
            entry["bound"] = hashlib.sha256(bound.tables.tobytes()).hexdigest()[:16]
        found[name] = entry
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--compare", help="an earlier output: the answers must be the same")
    parser.add_argument("--random", type=int, default=3000, help="random groups (default 3000)")
    options = parser.parse_args()
    cases = shipped() + random_groups(options.random) + wide()
    start = time.process_time()
    found = answers(cases)
    print(f"{len(cases)} groups, {sum(len(e) for e in found.values())} answers, {time.process_time() - start:.1f} CPU s")
    Path(options.out).write_text(json.dumps(found, sort_keys=True) + "\n")
    if options.compare:
        earlier = json.loads(Path(options.compare).read_text())
        differ = [name for name in earlier if earlier[name] != found.get(name)]
        missing = set(earlier) ^ set(found)
        print(f"compared with {options.compare}: {len(differ)} differ, {len(missing)} not in both")
        for name in differ[:10]:
            print("  differs:", name)
        sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
