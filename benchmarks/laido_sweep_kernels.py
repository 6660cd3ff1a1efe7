"""The Laido sweep's compiled kernels, timed on the boards of benchmarks/laido_score.py: the
kernels compiled at install (Cython, ``placesat.laido._sweep``) beside another build of the
same kernels, in one process, run for run.

    .venv/bin/python benchmarks/laido_sweep_kernels.py [--other PATH.so] [--runs 3] [--only NAMES]

``--other``: an extension module with the same kernels, e.g. the one numba.pycc built from
``sweep_kernels.py`` before placesat 38 (``<site-packages>/placesat/laido/__pycache__/
_sweep_kernels_kernels_<hash>.*.so`` of an install of that version, after one sweep); without
it, only the installed kernels. Each figure is the median of ``--runs`` runs of
``score_position`` after one warm-up run, the two builds taking turns: CPU time
(``time.process_time``). The values are checked to be the same for both. Prints a Markdown
table and the load average.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.laido_score import dominant, halves, near_full, rim_band  # noqa: E402
from placesat.laido import sweep_kernels  # noqa: E402
from placesat.laido.model import BLACK, WHITE  # noqa: E402
from placesat.laido.score import score_position  # noqa: E402


def boards() -> list:
    """Boards whose groups the sweep scores: solid halves, and one wide group (one word a
    state up to a frontier of 20, two past it: nearfull11, mono11, dominant11-0.95-2)."""
    return [
        ("halves9", halves(9)), ("halves11", halves(11)), ("rim9-4", rim_band(9, 4)), ("mono9", near_full(9, 0)),
        ("dominant11-0.9-1", dominant(11, 0.9, 1)), ("dominant11-0.95-1", dominant(11, 0.95, 1)),
        ("rim11-4", rim_band(11, 4)), ("dominant11-0.95-2", dominant(11, 0.95, 2)),
        ("nearfull11", near_full(11, 5)), ("mono11", near_full(11, 0)),
    ]


def extension(path: str) -> object:
    """The extension module at ``path`` (its name is the file's, up to the first dot)."""
    name = Path(path).name.split(".")[0]
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--other", help="an extension module with the same kernels (numba.pycc's)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="only the boards whose names start with one of these")
    options = parser.parse_args()
    installed = sweep_kernels.kernels()
    builds = [("installed", installed)] + ([("other", extension(options.other))] if options.other else [])
    print(f"installed: {getattr(installed, '__file__', 'Python (no compiled module)')}")
    if options.other:
        print(f"other: {options.other}")
    chosen = [(name, position) for name, position in boards() if name.startswith(tuple(options.only.split(",")))]
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| board | " + " | ".join(f"{name} CPU s" for name, _ in builds) + " | values black / white |")
    print("|---|" + "---|" * len(builds) + "---|")
    for board, position in chosen:
        times: dict[str, list[float]] = {name: [] for name, _ in builds}
        values = set()
        for run in range(options.runs + 1):  # the first, a warm-up
            for name, kernels in builds:
                sweep_kernels.kernels = lambda kernels=kernels: kernels
                start = time.process_time()
                score = score_position(position)
                if run:
                    times[name].append(time.process_time() - start)
                values.add((tuple(score.values(BLACK)), tuple(score.values(WHITE))))
        assert len(values) == 1, (board, values)
        black, white = values.pop()
        cells = " | ".join(f"{statistics.median(times[name]):.3f}" for name, _ in builds)
        print(f"| {board} | {cells} | {black[:3]} / {white[:3]} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
