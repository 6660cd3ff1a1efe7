"""Lixso trials: CPU microseconds a trial (one literal propagated and undone), by level.

    .venv/bin/python benchmarks/lixso_trials.py [--repeat 5] [--levels 4,5,6] [--size 9x9] [--pack FILE]

Each puzzle of grids/lixso/level-L.txt is deduced to its level-3 fixed point (where grading
starts its tile trials), then every open positive literal (a colour or a tile, as grading
tries them) is tried once, ``--repeat`` times over; the figure is CPU time over trials, the median over the repeats
(the Python call of each trial, about a microsecond, included). ``--pack`` (with ``--size``)
takes the puzzles of another file instead (a 21x21 one, say). Only the public engine is used
(``Deduction._trials.state.probe``), so the same script times an older install beside this one
(``PYTHONPATH`` to its tree).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from placesat.lixso.deduce import Deducer
from placesat.lixso.model import Grid, load_pack

PACKS = Path(__file__).resolve().parent.parent / "grids" / "lixso"


def trial_time(deducer: Deducer, grids: list[Grid], repeat: int) -> tuple[float, int, int]:
    """(median CPU microseconds a trial, trials a round, contradictions a round)."""
    n = deducer.num_vars
    states = []
    for grid in grids:
        deduction = deducer.start(grid, 3)
        deduction.run()
        if deduction._trials is None or deduction.contradiction:
            continue  # decided before any trial
        state = deduction._trials.state
        open_ = np.flatnonzero(deduction.value == 0)
        states.append((state, [int(p) for p in open_ if p > n]))
    trials = sum(len(positions) for _, positions in states)
    failed = sum(state.probe(p) < 0 for state, positions in states for p in positions)
    rounds = []
    for _ in range(repeat):
        start = time.process_time()
        for state, positions in states:
            for p in positions:
                state.probe(p)
        rounds.append((time.process_time() - start) / max(trials, 1) * 1e6)
    return statistics.median(rounds), trials, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--levels", default="4,5,6")
    parser.add_argument("--size", default="9x9")
    parser.add_argument("--pack", help="a pack of puzzles of --size instead of the shipped levels")
    args = parser.parse_args()
    height, width = map(int, args.size.split("x"))
    deducer = Deducer(height, width)
    sets = ([(args.pack, Path(args.pack))] if args.pack else
            [(f"level {level}", PACKS / f"level-{level}.txt") for level in map(int, args.levels.split(","))])
    print("| puzzles | trials a round | failing | us a trial (median) |")
    print("|---|---|---|---|")
    for name, path in sets:
        grids = [g for g in load_pack(str(path)) if isinstance(g, Grid)]
        micro, trials, failed = trial_time(deducer, grids, args.repeat)
        print(f"| {name} ({len(grids)}) | {trials} | {failed} | {micro:.2f} |", flush=True)


if __name__ == "__main__":
    main()
