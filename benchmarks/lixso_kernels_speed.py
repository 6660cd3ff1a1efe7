"""The Lixso grader's kernels against another install's, side by side in one run.

    python benchmarks/lixso_kernels_speed.py --against /path/to/other/venv/bin/python [--repeat 3] [--hints 20]

For each level, benchmarks/lixso_grading.py (grading every puzzle of grids/lixso/level-L.txt
in one warm process, CPU ms per puzzle) runs under this interpreter and under ``--against``,
one after the other, the two alternating ``--repeat`` times, so that both meet the same load;
the table gives the median of the medians. Then the same for hints (the Python trial loop,
whose trials call the propagator one at a time): CPU seconds for the first ``--hints`` hints
of the first three puzzles of levels 3-5. Written for issue 38: numba's kernels (the install
before) against the Cython ones.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

HINTS = """
import sys, time
from placesat.lixso.explain import Explainer
from placesat.lixso.model import Grid, load_pack
count = int(sys.argv[1])
explainer = Explainer(9, 9)
explainer.session(Grid(("." * 9,) * 9)).next()  # warm: the kernels loaded
start = time.process_time()
for level in (3, 4, 5):
    for grid in [g for g in load_pack(f"{sys.argv[2]}/level-{level}.txt") if isinstance(g, Grid)][:3]:
        session = explainer.session(grid)
        for _ in range(count):
            found = session.next()
            if not found:
                break
            session.accept(found[0])
print(time.process_time() - start)
"""


def grading(python: str, level: int) -> float:
    """Median CPU ms per puzzle of ``level``, one repeat, under ``python``."""
    out = subprocess.run([python, str(HERE / "lixso_grading.py"), "--no-verify", "--repeat", "1", "--levels", str(level)],
                         capture_output=True, text=True, check=True).stdout
    row = [line for line in out.splitlines() if line.startswith(f"| {level} |")][0]
    return float(row.split("|")[4])


def hints(python: str, count: int) -> float:
    out = subprocess.run([python, "-c", HINTS, str(count), str(HERE.parent / "grids" / "lixso")],
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the other install's Python")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hints", type=int, default=20)
    parser.add_argument("--levels", default="3,4,5,6")
    args = parser.parse_args()
    pythons = {"this": sys.executable, "against": args.against}
    print(f"this: {sys.executable}\nagainst: {args.against}\n")
    print("| grading, level | this (CPU ms a puzzle) | against | against / this |")
    print("|---|---|---|---|")
    for level in map(int, args.levels.split(",")):
        runs = {name: [] for name in pythons}
        for _ in range(args.repeat):
            for name, python in pythons.items():
                runs[name].append(grading(python, level))
        this, against = statistics.median(runs["this"]), statistics.median(runs["against"])
        print(f"| {level} | {this:.2f} | {against:.2f} | {against / this:.2f} |", flush=True)
    runs = {name: [] for name in pythons}
    for _ in range(args.repeat):
        for name, python in pythons.items():
            runs[name].append(hints(python, args.hints))
    this, against = statistics.median(runs["this"]), statistics.median(runs["against"])
    print(f"| hints: {args.hints} each of 9 puzzles, levels 3-5 (CPU s) | {this:.2f} | {against:.2f} | {against / this:.2f} |")


if __name__ == "__main__":
    main()
