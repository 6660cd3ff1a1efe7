"""Whole Lixso commands as a user types them, start-up included: `verify` of the shipped packs
and `grade` of one puzzle, wall and CPU seconds (the command and its worker processes).

    .venv/bin/python benchmarks/lixso_startup.py [--runs 5] [--against OTHER/.venv/bin/placesat]

Each command runs once first (numba's cache and the compiled kernels are then in place), then
``--runs`` times; with ``--against`` the other installation's command runs back to back with
this one (one run of each in turn), so that both meet the same load on a shared machine.
Figures: median and range of wall and CPU (user + system of the command and its children),
and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import time
from pathlib import Path

from timing import PLACESAT

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {
    "verify --jobs 2": ["lixso", "verify", "grids/lixso", "--jobs", "2"],
    "verify --jobs 1": ["lixso", "verify", "grids/lixso", "--jobs", "1"],
    "grade (one level-5 puzzle)": ["lixso", "grade", "LX9x9-eXcObIdIcXSIrSfIcIIfIaSaIbX-862Q"],
}


def run(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run (the CPU of every process it started, children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def show(label: str, runs: list[tuple[float, float]]) -> str:
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    return (f"| {label} | {statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f}) | "
            f"{statistics.median(cpus):.2f} ({min(cpus):.2f}-{max(cpus):.2f}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", help="another installation's placesat, run back to back with this one")
    parser.add_argument("--only", help="the commands whose label contains this")
    args = parser.parse_args()
    installs = {"this": PLACESAT} | ({"other": args.against} if args.against else {})
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| command | wall s, median (range) | CPU s, median (range) |")
    print("|---|---|---|")
    for label, command in COMMANDS.items():
        if args.only and args.only not in label:
            continue
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in installs}
        for name, placesat in installs.items():
            run([placesat, *command])  # warm-up: caches in place
        for _ in range(args.runs):
            for name, placesat in installs.items():
                times[name].append(run([placesat, *command]))
        for name in installs:
            print(show(f"{label}" + (f" [{name}]" if args.against else ""), times[name]))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
