"""Benchmark ``placesat logisticks analyze``: median wall seconds per position and backend.

Each run is the whole query in one process: encode, build the backend, every solver call,
decode and replay of every witness (one warm-up run per backend excluded, so the one-off
import of OR-Tools is not counted). The command-line figure (`cli`) adds interpreter start-up
and imports: it runs the installed ``placesat`` command.

    .venv/bin/python benchmarks/logisticks_analyze.py [--runs 7] [--cli] [POSITION ...]
    .venv/bin/python benchmarks/logisticks_analyze.py --random 20

``--random N`` instead times one run per backend on each of N mid-game positions (16 random
legal moves from the start, random target layout; seeds 1..N) and prints median, p90 and max.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from placesat.logisticks.analyze import analyze  # noqa: E402
from placesat.logisticks.rules import load_position  # noqa: E402

DEFAULT_POSITIONS = ["midgame.json", "late.json", "four-players.json", "start.json"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", help="position files (default: the examples in grids/logisticks)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cli", action="store_true", help="also time the installed command")
    parser.add_argument("--random", type=int, default=0, help="time N random mid-game positions instead")
    args = parser.parse_args()
    if args.random:
        random_midgames(args.random)
        return
    paths = args.positions or [str(ROOT / "grids" / "logisticks" / name) for name in DEFAULT_POSITIONS]
    print("| position | pieces placed / in supply | backend | median s | min s | max s | solver calls |")
    print("|---|---|---|---|---|---|---|")
    for path in paths:
        position = load_position(path)
        placed = len(position.pieces)
        supply = sum(sum(s.values()) for s in position.supply.values())
        for backend in ("sat", "cpsat"):
            analyze(position, backend)  # warm-up
            times, calls = [], 0
            for _ in range(args.runs):
                started = time.perf_counter()
                result = analyze(position, backend)
                times.append(time.perf_counter() - started)
                calls = result.solver_calls
            print(
                f"| {Path(path).name} | {placed} / {supply} | {backend} | {statistics.median(times):.3f} | "
                f"{min(times):.3f} | {max(times):.3f} | {calls} |",
                flush=True,
            )
            if args.cli:
                placesat = Path(sys.executable).parent / "placesat"
                wall = []
                for _ in range(max(3, args.runs // 2)):
                    started = time.perf_counter()
                    subprocess.run([str(placesat), "logisticks", "analyze", path, "--backend", backend],
                                   check=True, capture_output=True)
                    wall.append(time.perf_counter() - started)
                print(f"| {Path(path).name} (cli) | {placed} / {supply} | {backend} | {statistics.median(wall):.3f} | "
                      f"{min(wall):.3f} | {max(wall):.3f} | |", flush=True)


def midgame_positions(count: int) -> list:
    """``count`` random 2-player positions: 16 random legal moves from the start, random target
    layout (seeds 1..count)."""
    import random

    from placesat.logisticks.model import position_from_json
    from placesat.logisticks.rules import apply_move, legal_placements

    positions = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        position = position_from_json({"players": 2, "targets": {"layout": "random", "seed": seed}})
        for _ in range(16):
            position = apply_move(position, rng.choice(legal_placements(position)))
        positions.append(position)
    return positions


def random_midgames(count: int) -> None:
    """One analysis per backend on each of ``count`` random 16-piece 2-player positions."""
    positions = midgame_positions(count)
    print("| backend | positions | median s | p90 s | max s |")
    print("|---|---|---|---|---|")
    for backend in ("sat", "cpsat"):
        analyze(positions[0], backend)  # warm-up
        times = []
        for position in positions:
            started = time.perf_counter()
            analyze(position, backend)
            times.append(time.perf_counter() - started)
        times.sort()
        p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
        print(f"| {backend} | {len(times)} | {statistics.median(times):.3f} | {p90:.3f} | {times[-1]:.3f} |", flush=True)


if __name__ == "__main__":
    main()
