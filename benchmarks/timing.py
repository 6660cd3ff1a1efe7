"""Timing for the benchmark scripts: median CPU and wall seconds of repeated runs."""

from __future__ import annotations

import statistics
import time


def timed(run, runs: int):
    """Median CPU (``time.process_time``) and wall seconds of ``runs`` runs of ``run()`` after
    one warm-up run, and the last answer."""
    answer = run()  # warm-up
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        answer = run()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall), answer
