"""Lixso solve + uniqueness proof, per grid, in process; and one-grid `placesat lixso solve` end to end.

    .venv/bin/python benchmarks/lixso_solve.py [PACK] [--repeat 5] [--sat-solvers cadical195,minisat22,...] [--tiling both]

For each backend (and each python-sat solver asked for), every grid of the pack is solved
and proven unique with one warm solver per process, as `placesat lixso solve PACK` does;
model building is included, one warm-up grid is excluded. Prints median, p95 and max
milliseconds per grid over all repeats (each repeat starts from a fresh process state), wall
and CPU. ``--tiling on|off|both`` solves with or without the "tiling" redundant family
whatever the grid size (default: as `solve` chooses, solve.TILING_CELLS); ``both`` runs each
solver without it and then with it, back to back.
"""

from __future__ import annotations

import importlib
import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from placesat.lixso.model import Grid, load_pack
lixso_solve = importlib.import_module("placesat.lixso.solve")  # placesat.lixso.solve is the call
from placesat.lixso.solve import LixsoSolver, Verdict
from timing import once

HERE = Path(__file__).resolve().parent
TILING_ALWAYS = 1 << 30  # a TILING_CELLS no grid reaches


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def run_pack(grids: list[Grid], backend: str, sat_solver: str | None, repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds per grid, over ``repeat`` rounds."""
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        if sat_solver is not None:
            lixso_solve.SAT_SOLVER = sat_solver
        solver = LixsoSolver(backend)
        solver.solve(grids[0])  # warm-up: builds the template and the solver
        for grid in grids:
            report, cpu_seconds, wall_seconds = once(lambda: solver.solve(grid))
            times.append(wall_seconds * 1000)
            cpu.append(cpu_seconds * 1000)
            assert report.status is Verdict.UNIQUE, (grid.label(), report.status)
            stated = grid.stated_solution()
            assert stated is None or report.solutions[0] == stated, grid.label()
    return times, cpu


def end_to_end(pack: Path, runs: int) -> list[float]:
    one = HERE / ".one-grid.txt"
    text = pack.read_text().split("\n\n")
    one.write_text(next(block for block in text if "." in block and "name" in block) + "\n")
    command = [str(Path(sys.executable).parent / "placesat"), "lixso", "solve", str(one)]
    times = []
    try:
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        one.unlink()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default=str(HERE / "lixso-minimal-9x9.txt"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sat-solvers", default=lixso_solve.SAT_SOLVER, help="python-sat solvers to compare, comma-separated")
    parser.add_argument("--skip-cpsat", action="store_true")
    parser.add_argument("--tiling", choices=["default", "on", "off", "both"], default="default",
                        help='the "tiling" redundant family: as solve chooses by size, always, never, or never then always')
    args = parser.parse_args()
    grids = [g for g in load_pack(args.pack) if isinstance(g, Grid)]
    print(f"{len(grids)} grids from {args.pack}, {args.repeat} repeats; ms per grid (solve + uniqueness proof)")
    print("| backend | tiling | median | p95 | max | CPU median | CPU p95 | CPU max |")
    print("|---|---|---|---|---|---|---|---|")
    runs = [("sat", name) for name in args.sat_solvers.split(",")]
    if not args.skip_cpsat:
        runs.append(("cpsat", None))
    tilings = {"default": [lixso_solve.TILING_CELLS], "on": [TILING_ALWAYS], "off": [0], "both": [0, TILING_ALWAYS]}[args.tiling]
    default, default_tiling = lixso_solve.SAT_SOLVER, lixso_solve.TILING_CELLS
    for backend, sat_solver in runs:
        for tiling_cells in tilings:
            lixso_solve.TILING_CELLS = tiling_cells
            times, cpu = run_pack(grids, backend, sat_solver, args.repeat if backend == "sat" else 1)
            label = f"sat ({sat_solver})" if sat_solver else backend
            tiling = "yes" if grids[0].height * grids[0].width <= tiling_cells else "no"
            print(f"| {label} | {tiling} | {statistics.median(times):.1f} | {percentile(times, 0.95):.1f} | {max(times):.1f} "
                  f"| {statistics.median(cpu):.1f} | {percentile(cpu, 0.95):.1f} | {max(cpu):.1f} |", flush=True)
    lixso_solve.SAT_SOLVER, lixso_solve.TILING_CELLS = default, default_tiling
    e2e = end_to_end(Path(args.pack), max(args.repeat, 5))
    print(f"\none-grid `placesat lixso solve` end to end: median {statistics.median(e2e):.0f} ms, max {max(e2e):.0f} ms ({len(e2e)} runs)")


if __name__ == "__main__":
    main()
