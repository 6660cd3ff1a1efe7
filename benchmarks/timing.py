"""Timing for the benchmark scripts: CPU beside wall seconds, medians of repeated runs."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

PLACESAT = str(Path(sys.executable).with_name("placesat"))
"""The installed command of the environment running the benchmark."""


def ninetieth(values: list[float]) -> float:
    """The 90th percentile (nearest rank: the value nine in ten are at or below)."""
    ranked = sorted(values)
    return ranked[max(0, -(-9 * len(ranked) // 10) - 1)]


def once(call: Callable[[], Any]) -> tuple[Any, float, float]:
    """``call()``'s answer, and the CPU (``time.process_time``) and wall seconds it took."""
    cpu, wall = time.process_time(), time.perf_counter()
    answer = call()
    return answer, time.process_time() - cpu, time.perf_counter() - wall


def timed(run: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """Median CPU and wall seconds of ``runs`` runs of ``run()`` after one warm-up run, and
    the last answer."""
    answer = run()  # warm-up
    cpu, wall = [], []
    for _ in range(runs):
        answer, c, w = once(run)
        cpu.append(c)
        wall.append(w)
    return statistics.median(cpu), statistics.median(wall), answer


def command_seconds(args: list[str], runs: int, check: bool = False) -> float:
    """Median wall seconds of ``placesat ARGS`` as typed: start-up and imports included."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([PLACESAT, *args], capture_output=True, check=check)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
