"""LSD on fields far larger than a game makes: wall and CPU seconds and peak memory per command.

    .venv/bin/python benchmarks/lsd_huge.py [--runs 3]

The fields come from ``benchmarks/lsd_positions.py`` (``long_row``: 792 four-dotted tiles of 4
players in a row; ``scattered``: 2,970 tiles of players 2-4 apart, player 1 holding 1,188) and
are written to a temporary folder. Each command runs as typed (start-up included) ``--runs``
times; printed are the medians of wall seconds, CPU seconds (the command's user and system
time) and peak resident memory (``ru_maxrss`` of the child), and the first line of output.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.lsd_positions import long_row, scattered  # noqa: E402
from benchmarks.timing import PLACESAT  # noqa: E402

COMMANDS = (
    ("row792", ["forced", "-p", "1", "-d", "12", "--time-limit", "1"]),
    ("row792", ["forced", "-p", "1", "-d", "12", "--time-limit", "1", "--reach-from", "1"]),
    ("row792", ["reach", "-p", "1", "-k", "12", "--time-limit", "1"]),
    ("row792", ["moves"]),
    ("row792", ["threats"]),
    ("scattered", ["moves"]),
    ("scattered", ["moves", "--json"]),
)


def measure(args: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak memory in MB and the first line of one run of ``placesat ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([PLACESAT, *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of the children is the largest so far: runs go from the smallest command up
    first = done.stdout.splitlines()[0][:60] if done.stdout else done.stderr.strip()[:60]
    return wall, cpu, after.ru_maxrss / 1024, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for name, raw in (("row792", long_row()), ("scattered", scattered())):
            paths[name] = Path(folder) / f"{name}.json"
            paths[name].write_text(json.dumps(raw))
        print("| field | command | wall s | CPU s | peak MB | answer |")
        print("|---|---|---|---|---|---|")
        for name, args in COMMANDS:
            # each command in a child of its own, so that the peak memory is its own
            runs = [json.loads(subprocess.run(
                [sys.executable, __file__, "--one", str(paths[name]), *args], capture_output=True, text=True, check=True,
            ).stdout) for _ in range(options.runs)]
            wall, cpu, peak = (statistics.median(r[i] for r in runs) for i in range(3))
            print(f"| {name} | lsd {' '.join(args)} | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {runs[-1][3]} |")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        path, *rest = sys.argv[2:]
        print(json.dumps(measure(["lsd", rest[0], path, *rest[1:]])))
    else:
        main()
