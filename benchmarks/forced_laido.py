"""Laido's forced wins and best move on the shipped mid-game positions.

    .venv/bin/python benchmarks/forced_laido.py [--runs 3] [--limits 10 60] [--most 4] [--positions mid9-1 ...] [--plain]

For each position (grids/laido/mid9-*.json and race9.json: 9-side boards, about 50-60 stones,
157-168 empty points) and each time limit: ``forced`` with K = 1, 2, ... own moves until the
answer is "unknown" (or K reaches ``--most``), one run each (they take up to the limit); the
largest K settled is the answer. Then ``best`` at its default time limit (5 s), the median of
``--runs`` runs, with its kind. CPU seconds beside wall seconds (the machine is shared: wall
can be much more than CPU). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import once  # noqa: E402
from placesat.core.limits import Deadline  # noqa: E402
import importlib  # noqa: E402

# the module itself: ``from placesat.laido import forced`` is the package's ``forced`` command,
# on which setting PRUNE changed nothing
forced = importlib.import_module("placesat.laido.forced")  # noqa: E402
from placesat.laido.forced import UNKNOWN, forced_win  # noqa: E402
from placesat.laido.model import load_game  # noqa: E402
from placesat.laido.play import LaidoPlayable  # noqa: E402

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "laido"
POSITIONS = ["mid9-1", "mid9-2", "mid9-3", "race9"]
BEST_TIME = 5.0


def settle(position, limit: float, most: int) -> tuple[int, list[str]]:
    """The largest K that ``forced`` settles within ``limit`` seconds, and what each K gave."""
    settled, notes = 0, []
    for own in range(1, most + 1):
        answer, cpu, wall = once(lambda: forced_win(position, own, limit))
        notes.append(f"K={own}: {answer.answer} ({wall:.1f} s wall, {cpu:.1f} s CPU, {answer.positions} positions, {answer.reach_calls} reach calls, {answer.pruned} cut)")
        if answer.answer == UNKNOWN:
            break
        settled = own
    return settled, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limits", type=float, nargs="+", default=[10.0, 60.0])
    parser.add_argument("--most", type=int, default=4)
    parser.add_argument("--positions", nargs="+", default=POSITIONS)
    parser.add_argument("--plain", action="store_true",
                        help="without the cuts (forced.PRUNE, the must-play cut; forced.OUTBUILD, the plans cut), to compare")
    args = parser.parse_args()
    forced.PRUNE = forced.OUTBUILD = not args.plain
    print("| position | empty | " + " | ".join(f"largest K in {limit:g} s" for limit in args.limits)
          + f" | best in {BEST_TIME:g} s: wall (CPU), median | best's kind |")
    print("|---|---|" + "---|" * len(args.limits) + "---|---|")
    details = []
    for name in args.positions:
        position = load_game(str(GRIDS / f"{name}.json"))
        cells = []
        for limit in args.limits:
            settled, notes = settle(position, limit, args.most)
            cells.append(str(settled))
            details.append(f"{name}, {limit:g} s: " + "; ".join(notes))
        walls, cpus, kinds = [], [], []
        for _ in range(args.runs):
            engine = LaidoPlayable(position.size)  # a fresh engine: nothing remembered between runs
            advice, cpu, wall = once(lambda: engine.best(position, Deadline(BEST_TIME)))
            walls.append(wall)
            cpus.append(cpu)
            kinds.append(f"{advice.kind} {engine.move_text(position, advice.move)}")
        timed = f"{statistics.median(walls):.1f} s ({statistics.median(cpus):.1f} s)" if walls else "not run"
        print(f"| {name} | {len(position.empty_points)} | " + " | ".join(cells)
              + f" | {timed} | {', '.join(sorted(set(kinds)))} |", flush=True)
    print()
    for line in details:
        print(f"- {line}")


if __name__ == "__main__":
    main()
