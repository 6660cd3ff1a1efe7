"""LSD timings: reach by K, threats, and forced by depth (with and without the solver as a cut-off).

    .venv/bin/python benchmarks/lsd_bench.py [--runs 5] [--max-plies 8] [--max-depth 9] [--cli]

Position: grids/lsd/mid20.json (2 players, 20 tiles on the field, player 1 to move, nobody
with a win at once; made by benchmarks/lsd_positions.py), and grids/lsd/four20.json (4 players).
Each figure is the median of ``--runs`` runs in one process after a warm-up run (imports and
OR-Tools' start left out), as CPU seconds (``time.process_time``: this process, the SAT
solvers included) and wall seconds; the load average is printed, the machine being shared.
``forced`` is run once per depth with a 60 s limit (its time grows fast with depth; the
deepest depth finished within 60 s is what docs/performance.md states); with ``--reach-from`` values it
also runs with the solver asked at nodes with that many plies left. ``--cli`` also times the
whole command as typed, start-up included. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import command_seconds, timed  # noqa: E402
from placesat.lsd.encode import encode_reach
from placesat.lsd.forced import forced_win
from placesat.lsd.model import load_game
from placesat.lsd.reach import reach_win
from placesat.lsd.rules import winning_placements

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids" / "lsd"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-plies", type=int, default=8)
    parser.add_argument("--max-depth", type=int, default=9)
    parser.add_argument("--reach-from", default="3,5,7", help="comma-separated remaining depths for the solver cut-off ('' for none)")
    parser.add_argument("--backends", default="sat,cpsat")
    parser.add_argument("--cli", action="store_true")
    options = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    mid = load_game(str(GRIDS / "mid20.json"))
    four = load_game(str(GRIDS / "four20.json"))

    print("| query | position | backend | CPU s (median) | wall s (median) | answer | solver calls | variables / clauses |")
    print("|---|---|---|---|---|---|---|---|")
    for name, position, players in (("mid20", mid, (1, 2)), ("four20", four, (1,))):
        for player in players:
            for backend in options.backends.split(","):
                for k in range(1, options.max_plies + 1):
                    if backend == "cpsat" and k not in (3, 6):
                        continue
                    cpu, wall, answer = timed(lambda: reach_win(position, player, k, backend), options.runs)
                    said = answer.answer + (f" ({len(answer.moves)} plies)" if answer.answer == "yes" else "")
                    # the formula reach builds: up to the player's last ply within k, before any skip rule is added
                    last = max((t for t in range(1, k + 1) if (position.to_move + t - 2) % position.players + 1 == player), default=0)
                    formula = encode_reach(position, player, last).formula if last else None
                    size = f"{formula.num_vars} / {len(formula.clauses) + len(formula.cardinalities)}" if formula else "-"
                    print(f"| `reach -p {player} -k {k}` | {name} | {backend} | {cpu:.3f} | {wall:.3f} | {said} | {answer.solver_calls} | {size} |", flush=True)
    cpu, wall, found = timed(lambda: [winning_placements(mid, p) for p in (1, 2)], options.runs)
    print(f"| `threats` | mid20 | - | {cpu:.4f} | {wall:.4f} | {sum(map(len, found))} winning placements | - | - |")
    cpu, wall, found = timed(lambda: [winning_placements(four, p) for p in (1, 2, 3, 4)], options.runs)
    print(f"| `threats` | four20 | - | {cpu:.4f} | {wall:.4f} | {sum(map(len, found))} winning placements | - | - |")

    print("\n| query | position | reach cut-off from | CPU s | wall s | answer | positions | solver calls (cuts) |")
    print("|---|---|---|---|---|---|---|---|")
    settings: list[int | None] = [None] + [int(x) for x in options.reach_from.split(",") if x]
    for name, position, players in (("mid20", mid, (1, 2)), ("four20", four, (1,))):
        for player in players:
            for reach_from in settings:
                for depth in range(1, options.max_depth + 1):
                    if reach_from is not None and depth < reach_from:
                        continue
                    c0, w0 = time.process_time(), time.perf_counter()
                    answer = forced_win(position, player, depth, time_limit=60, reach_from=reach_from)
                    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
                    label = "never" if reach_from is None else str(reach_from)
                    print(
                        f"| `forced -p {player} -d {depth}` | {name} | {label} | {cpu:.2f} | {wall:.2f} | {answer.answer} | "
                        f"{answer.positions} | {answer.reach_calls} ({answer.reach_cuts}) |",
                        flush=True,
                    )
                    if answer.answer == "unknown":
                        break
    if options.cli:
        print("\n| whole command | median wall s |")
        print("|---|---|")
        mid_path = str(GRIDS / "mid20.json")
        for args in (["show", mid_path], ["threats", mid_path], ["reach", mid_path, "-p", "1", "-k", "6"],
                     ["reach", mid_path, "-p", "2", "-k", "6", "-b", "cpsat"], ["forced", mid_path, "-p", "1", "-d", "3"]):
            print(f"| `placesat lsd {' '.join(a if a != mid_path else 'mid20.json' for a in args)}` | {command_seconds(['lsd', *args], options.runs):.2f} |", flush=True)
    print(f"\nload average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
