"""The speed guard: typical commands of every game, timed against a committed baseline.

    .venv/bin/python benchmarks/guard.py                  # the full guard (about 10-15 min)
    .venv/bin/python benchmarks/guard.py --quick          # the quick form (1-2 min)
    .venv/bin/python benchmarks/guard.py --only bounds    # the commands whose name holds 'bounds'
    .venv/bin/python benchmarks/guard.py --update         # measure and rewrite the baseline
    .venv/bin/python benchmarks/guard.py --threshold 3    # fail above 3x (default 2x)

Each command (:data:`CASES`) is a ``placesat`` command line on a position a user meets: the
shipped grids and packs, puzzles of every level, Lixso game openings with tiles laid
(``benchmarks/guard/positions/``), the shipped mid-games of LSD, Quarry, Laido and Logi-Sticks.

How a command is measured: every run is a fresh Python process (:func:`run_once`) that imports
the command line and the command's group first, as ``placesat`` does, then runs the command
through :func:`placesat.cli.main.main` with its output thrown away, and reports the CPU seconds
(user + system, its worker processes included) and the peak memory (resident set) of the
command alone. A fresh process, because a second run in the same process would meet caches a
user's command never has; imports excluded, because the 0.2-0.5 s of interpreter start-up
would drown the small commands (``benchmarks/lixso_startup.py`` guards start-up). The first
run of each command is a warm-up and is not counted: it may build the compiled kernels (numba
or Cython, whichever the install has), which is a one-off cost on a machine, not the
command's. Then ``runs`` runs: the median and the max CPU seconds, the largest peak memory.

Calibration: a fixed pure-Python loop and a fixed SAT call (a pigeonhole formula on
CaDiCaL, the default SAT solver), timed at the start and at the end of the guard's run; the
*unit* is the geometric mean of their medians. Every figure is kept and compared as a multiple
of the unit of its own run, so that a slower or busier machine (whose unit grows with it) does
not read as a slip. A command's figure fails when its median, its max or its memory is more
than ``--threshold`` times the baseline's; a command that runs past its cap (CPU seconds per
run) fails as ``> cap`` whatever the baseline. Figures under :data:`NOISE_FLOOR_S` (or a
case's own floor) are compared as that floor, and memory growth under :data:`MEMORY_FLOOR_MB` as that: below them a ratio is
noise.

The Lixso puzzle factory's targets (issues 12 and 39) are absolute CPU figures, so they are
shown beside the guard's table as they are measured on this machine (:data:`TARGETS`), with
"over target" where one is not met. They never fail the guard: the ratios do.

``--update`` rewrites the baseline (``benchmarks/guard/baseline.json``) with the figures just
measured (only those measured: ``--only`` updates a few); a command over its cap is left out of
the baseline, and the quick test (``tests/test_speed_guard.py``) skips a command that has no
baseline. Say in the commit why the baseline moved.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import math
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "guard"
POSITIONS = HERE / "positions"
BASELINE = HERE / "baseline.json"

NOISE_FLOOR_S = 0.05
"""CPU seconds below which a command's figure is compared as this: a 3 ms command that takes
9 ms, or a 40 ms one that takes 60 ms on a loaded machine, is noise (a page fault, a lazy
import, a busy cache), not a slip."""
MEMORY_FLOOR_MB = 50.0
"""Memory growth (peak over what the imports left) below which it is compared as this."""
DEFAULT_THRESHOLD = 2.0
QUICK_THRESHOLD = 4.0
"""The quick form's threshold: loose enough never to fail on a busy machine (CPU time moves by
up to 30% there, and the unit moves with it), tight enough that a 5x slip fails, let alone the
100x one that made ``lixso game bounds`` on a 9x9 opening take 100 s."""


@dataclass(frozen=True)
class Target:
    """An absolute target of the factory: ``limit`` CPU seconds per puzzle at most, or (rate)
    at least ``limit`` puzzles a second on two cores (the CPU seconds shared by two)."""

    what: str
    limit: float
    rate: bool = False

    def figure(self, seconds_per_puzzle: float) -> float:
        return 2.0 / seconds_per_puzzle if self.rate else seconds_per_puzzle

    def met(self, seconds_per_puzzle: float) -> bool:
        value = self.figure(seconds_per_puzzle)
        return value >= self.limit if self.rate else value <= self.limit


@dataclass(frozen=True)
class Case:
    """One command of the guard: ``placesat ARGS``, ``{pos}`` standing for the guard's
    positions folder, ``{grids}`` for the shipped grids and ``{out}`` for a scratch folder."""

    name: str
    args: tuple[str, ...]
    runs: int = 3
    cap: float = 60.0  # CPU seconds a run may take before it counts as failed
    quick: bool = False  # also in the quick form (in the test suite)
    quick_runs: int = 1
    per: int = 1  # puzzles a run makes or checks: a target is per puzzle
    target: Target | None = None
    codes: tuple[int, ...] = (0,)  # the exit codes of a normal answer
    library: tuple[str, ...] = ()  # instead of a command: a function of this module and its arguments
    floor: float = NOISE_FLOOR_S  # CPU seconds below which a figure is compared as this

    def argv(self, out: str) -> list[str]:
        names = {"pos": str(POSITIONS), "grids": str(ROOT / "grids"), "out": out}
        return ["placesat", *(arg.format(**names) for arg in self.args)]


def _c(name: str, line: str, **options) -> Case:
    return Case(name, tuple(line.split()), **options)


GENERATION = Target("generation, median CPU s per 9x9 puzzle", 0.5)
GRADING = Target("grading, median CPU s per 9x9 puzzle", 0.020)
VERIFY = Target("verify of the levelled packs, puzzles/s on 2 cores", 100.0, rate=True)
LARGE = Target("a 21x21 level-1 puzzle, CPU s", 2.0)

CASES: list[Case] = [
    # --- Lixso puzzles: the shipped packs, every level, the factory
    _c("lixso solve level-6 pack", "lixso solve {grids}/lixso/level-6.txt", quick=True),
    _c("lixso solve examples", "lixso solve {grids}/examples.txt"),
    *[_c(f"lixso grade level-{level} pack", f"lixso grade {{grids}}/lixso/level-{level}.txt", quick=level == 6)
      for level in range(1, 7)],
    # the grading target is the deducer's, per puzzle, as verify grades: not the command's solving
    *[Case(f"grading level-{level}, each puzzle", ("lixso",), library=("grade_each", str(level)), target=GRADING)
      for level in range(1, 7)],
    _c("lixso hint level-6 #1", "lixso hint {grids}/lixso/level-6.txt --index 1", quick=True),
    _c("lixso hint level-5 #1", "lixso hint {grids}/lixso/level-5.txt --index 1"),
    *[_c(f"lixso generate level {level}", f"lixso generate --level {level} --count 2 --seed 39 -o {{out}}/pack.txt",
         per=2, target=GENERATION if level >= 5 else None, quick=level == 1, runs=5 if level >= 5 else 3)
      for level in (1, 3, 5, 6)],
    _c("lixso generate 21x21 level 1", "lixso generate --size 21x21 --level 1 --count 1 --seed 39 -o {out}/pack.txt",
       target=LARGE),
    _c("lixso verify levelled packs --jobs 2", "lixso verify {grids}/lixso --jobs 2", per=120, target=VERIFY),
    _c("lixso verify level-6 pack --jobs 2", "lixso verify {grids}/lixso/level-6.txt --jobs 2", quick=True),
    # --- the Lixso strategic game: openings with tiles laid, 2 and 4 players
    _c("lixso game bounds 6x6 2 tiles", "lixso game bounds {pos}/lay6.txt", quick=True),
    _c("lixso game bounds 6x6 4p", "lixso game bounds {pos}/lay6-4p.txt", quick=True),
    # the opening: over 100 s since d2a64d3; its cap makes a slip a failure, not a hang
    # (a low floor: a 5x slip must fail even if the fixed command takes a few hundredths of a second)
    _c("lixso game bounds 9x9 opening", "lixso game bounds {grids}/lixso-game/9x9-opening.txt", quick=True, cap=20.0, floor=0.01),
    _c("lixso game bounds 9x9 opening 4p", "lixso game bounds {grids}/lixso-game/9x9-opening-4p.txt", cap=20.0),
    _c("lixso game bounds 9x9 2 tiles", "lixso game bounds {pos}/lay9.txt", cap=20.0),
    _c("lixso game bounds 9x9 midgame", "lixso game bounds {grids}/lixso-game/9x9-midgame.txt", quick=True),
    # the bounds call alone, as the command makes it (a first call in a fresh process): the
    # command's 50-80 ms of parsing and lazy imports would hide a 5x slip of a 10 ms answer
    *[Case(f"lixso game bounds {what}, the call", ("lixso",), library=("game_bounds", file), quick=quick, cap=20.0,
           floor=0.003) for what, file, quick in (("9x9 opening", "../../../grids/lixso-game/9x9-opening.txt", True),
                                                  ("9x9 opening 4p", "../../../grids/lixso-game/9x9-opening-4p.txt", False),
                                                  ("9x9 2 tiles", "lay9.txt", True))],
    _c("lixso game solve 6x6 2 tiles", "lixso game solve {pos}/lay6.txt --time-limit 20"),
    _c("lixso game solve 9x9 endgame", "lixso game solve {grids}/lixso-game/9x9-endgame.txt --time-limit 20"),
    _c("lixso game best 9x9 midgame -d 2", "lixso game best {grids}/lixso-game/9x9-midgame.txt --depth 2"),
    _c("lixso game forced 6x6 -k 1", "lixso game forced {pos}/lay6.txt -k 1", codes=(0, 1)),
    _c("lixso game forced 6x6 -k 2", "lixso game forced {pos}/lay6.txt -k 2", codes=(0, 1)),
    _c("lixso game forced 9x9 midgame -k 1", "lixso game forced {grids}/lixso-game/9x9-midgame.txt -k 1",
       codes=(0, 1)),
    # --- LSD: a 20-tile mid-game, 2 and 4 players
    _c("lsd reach mid20 -k 5", "lsd reach {grids}/lsd/mid20.json -p 1 -k 5", codes=(0, 1), quick=True),
    _c("lsd forced mid20 -k 3", "lsd forced {grids}/lsd/mid20.json -k 3", codes=(0, 1)),
    _c("lsd best mid20 --depth 3", "lsd best {grids}/lsd/mid20.json --depth 3"),
    _c("lsd forced four20 -k 2", "lsd forced {grids}/lsd/four20.json -k 2", codes=(0, 1)),
    # --- Quarry: mid-games
    _c("quarry reach midgame", "quarry reach {grids}/quarry/midgame.json", codes=(0, 1), quick=True),
    _c("quarry forced midgame -k 2", "quarry forced {grids}/quarry/midgame.json -k 2", codes=(0, 1)),
    _c("quarry best midgame --depth 2", "quarry best {grids}/quarry/midgame.json --depth 2"),
    # --- Laido: the score (the sweep) of full boards, reach and forced on mid-games
    _c("laido score full9-1", "laido score {grids}/laido/full9-1.json", quick=True),
    _c("laido score full9-2", "laido score {grids}/laido/full9-2.json"),
    _c("laido reach mid9-1", "laido reach {grids}/laido/mid9-1.json -p black -k 2", codes=(0, 1)),
    _c("laido forced mid9-1 -k 1", "laido forced {grids}/laido/mid9-1.json -k 1", codes=(0, 1)),
    # --- Logi-Sticks: mid-game analysis, satisfy, forced
    _c("logisticks analyze midgame", "logisticks analyze {grids}/logisticks/midgame.json", quick=True),
    _c("logisticks satisfy midgame", "logisticks satisfy {grids}/logisticks/midgame.json -p 1", codes=(0, 1)),
    _c("logisticks forced midgame -k 2", "logisticks forced {grids}/logisticks/midgame.json -k 2 -s 1",
       codes=(0, 1)),
]
BY_NAME = {case.name: case for case in CASES}


# --- one run, in a process of its own ----------------------------------------------------


def _kilobytes_to_mb(kb: int) -> float:
    return kb / 1024.0  # ru_maxrss is in kilobytes on Linux


def _memory_mb(field_name: str) -> float | None:
    """This process's ``VmRSS`` (now) or ``VmHWM`` (its peak) in MB, where /proc tells."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def _reset_peak_memory() -> None:
    """Start the peak resident set again from what is resident now (Linux 4.0+): the peak is
    then the command's. ``ru_maxrss`` cannot serve: it starts at the forking parent's size."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        pass


def grade_each(level: str) -> list[float]:
    """Grade every puzzle of the shipped level-LEVEL pack with one warm deducer, each with its
    solution in hand as ``verify`` grades it (one warm-up grade first, as a pack's first
    puzzle warms the deducer); CPU seconds per puzzle. A grade that is not the stated level
    ends the run with exit code 3."""
    from placesat.lixso.deduce import Deducer
    from placesat.lixso.model import Grid, load_pack

    grids = [g for g in load_pack(str(ROOT / "grids" / "lixso" / f"level-{level}.txt")) if isinstance(g, Grid)]
    deducer = Deducer(9, 9)
    deducer.grade(grids[0])
    seconds = []
    for grid in grids:
        start = time.process_time()
        graded = deducer.grade(grid, solution=grid.stated_solution()).level
        seconds.append(time.process_time() - start)
        if graded != grid.stated_level():
            raise SystemExit(3)
    return seconds


def game_bounds(file: str) -> list[float]:
    """``lixso game bounds`` on the position FILE of the guard's positions, as the command
    makes the call (the position loaded and the solver's modules imported first); CPU
    seconds of the call."""
    import pysat.solvers  # noqa: F401  (imported by the command before it calls bounds)

    from placesat.cli.lixso_game import _load
    from placesat.lixso.game.bounds import bounds

    game = _load(str(POSITIONS / file), None, False, None, None)
    start = time.process_time()
    bounds(game.rules, game.state)
    return [time.process_time() - start]


def run_once(name: str, result_fd: int) -> None:
    """Run the command ``name`` once in this (fresh) process and write its figures, as one JSON
    object, to ``result_fd``: CPU seconds (this process and its finished worker processes),
    peak memory in MB, what the imports alone had used, the exit code, and for a library case
    the CPU seconds of each item."""
    case = BY_NAME[name]
    import placesat.cli.main as cli

    importlib.import_module(f"placesat.cli.{case.args[0]}")  # as placesat does, before the command
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the command's answer is not what is measured
    items: list[float] = []
    with tempfile.TemporaryDirectory(prefix="placesat-guard-") as out:
        argv = case.argv(out)
        used = resource.getrusage(resource.RUSAGE_SELF)
        soft = math.ceil(used.ru_utime + used.ru_stime + case.cap)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))  # SIGXCPU past the cap
        _reset_peak_memory()
        imports_mb = _memory_mb("VmRSS") or _kilobytes_to_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        before_self = resource.getrusage(resource.RUSAGE_SELF)
        before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            if case.library:
                function, *arguments = case.library
                items = globals()[function](*arguments)
            else:
                cli.main(argv)
            code = 0
        except SystemExit as end:
            code = end.code if isinstance(end.code, int) else (0 if end.code is None else 1)
        after_self = resource.getrusage(resource.RUSAGE_SELF)
        after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(getattr(after, part) - getattr(before, part) for after, before in
              ((after_self, before_self), (after_children, before_children)) for part in ("ru_utime", "ru_stime"))
    peak_self = _memory_mb("VmHWM") or _kilobytes_to_mb(after_self.ru_maxrss)
    peak = max(peak_self, _kilobytes_to_mb(after_children.ru_maxrss))
    figures = {"cpu": cpu, "peak_mb": peak, "imports_mb": imports_mb, "code": code, "items": items}
    os.write(result_fd, json.dumps(figures).encode())


@dataclass
class Measured:
    """A command's figures in this run: CPU seconds of each counted run, peak memory, or why
    there are none (over its cap, a wrong exit code)."""

    case: Case
    cpu: list[float] = field(default_factory=list)
    peak_mb: float = 0.0
    growth_mb: float = 0.0
    failure: str = ""
    items: list[float] = field(default_factory=list)  # a library case's CPU seconds per item

    @property
    def median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def most(self) -> float:
        return max(self.cpu)


def _one_process(case: Case) -> dict:
    """Run ``case`` once in a fresh process; its figures, or {"failure": why}."""
    read, write = os.pipe()
    command = [sys.executable, str(Path(__file__).resolve()), "--run-once", case.name, "--result-fd", str(write)]
    environment = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen(command, pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=environment, cwd=ROOT, start_new_session=True)
    os.close(write)
    # the wall clock only backs the CPU cap up (a worker pool's children are not under it):
    # three times the cap, plus the start-up, is never reached by a loaded machine's run
    try:
        _, errors = child.communicate(timeout=3 * case.cap + 30)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        os.close(read)
        return {"failure": f"> cap ({case.cap:g} s)"}
    with os.fdopen(read, "rb") as result:
        text = result.read().decode()
    if child.returncode == -signal.SIGXCPU:
        return {"failure": f"> cap ({case.cap:g} s)"}
    if child.returncode != 0 or not text:
        last = (errors.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        return {"failure": f"crashed (exit {child.returncode}): {last}"}
    figures = json.loads(text)
    if figures["code"] not in case.codes:
        last = (errors.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        return {"failure": f"exit {figures['code']}: {last}"}
    return figures


def measure(case: Case, runs: int, warm_up: bool = True) -> Measured:
    """A warm-up run (unless not asked), then ``runs`` counted runs of ``case``, each in a
    fresh process; a failed run (over the cap, a wrong exit code) ends the measurement."""
    measured = Measured(case)
    for index in range(runs + warm_up):
        figures = _one_process(case)
        if "failure" in figures:
            measured.failure = figures["failure"]
            return measured
        if warm_up and index == 0:
            continue  # the warm-up: a first run may compile kernels
        # a library case's figure is what it times (the grades, the bounds call), not its set-up
        measured.cpu.append(sum(figures["items"]) if figures["items"] else figures["cpu"])
        measured.items.extend(figures["items"])
        measured.peak_mb = max(measured.peak_mb, figures["peak_mb"])
        measured.growth_mb = max(measured.growth_mb, figures["peak_mb"] - figures["imports_mb"])
    return measured


def measure_quick(case: Case, unit: float, entry: dict | None, threshold: float) -> tuple[Measured, Verdict]:
    """The quick form of one command: a single run, no warm-up; a run that fails is measured
    again, warmed up, before it counts (the first run on a machine may have built the
    kernels, or met a burst of load), so that the usual case costs one run, not two."""
    measured = measure(case, case.quick_runs, warm_up=False)
    verdict = compare(measured, unit, entry, threshold, check_max=False)
    if verdict.failed:
        measured = measure(case, case.quick_runs)
        verdict = compare(measured, unit, entry, threshold, check_max=False)
    return measured, verdict


# --- calibration ---------------------------------------------------------------------------


def python_loop() -> int:
    """A fixed pure-Python loop: integer arithmetic, a list and a dict, about 0.2 s."""
    total, seen, values = 0, {}, [0] * 1024
    for i in range(800_000):
        total = (total * 31 + i) % 1_000_003
        values[total & 1023] += 1
        seen[total & 4095] = i
    return total + len(seen) + sum(values)


def pigeonhole_clauses(holes: int) -> list[list[int]]:
    """``holes + 1`` pigeons, each in some hole, no two in the same hole: unsatisfiable."""
    def var(pigeon: int, hole: int) -> int:
        return pigeon * holes + hole + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            for q in range(p + 1, holes + 1):
                clauses.append([-var(p, h), -var(q, h)])
    return clauses


def sat_call() -> bool:
    """A fixed SAT call: the 8-hole pigeonhole formula (about 0.25 s) on CaDiCaL (placesat's default solver)."""
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=pigeonhole_clauses(8)) as solver:
        return solver.solve()


def calibrate(repeats: int) -> dict[str, list[float]]:
    """CPU seconds of ``repeats`` runs of the Python loop and of the SAT call (a warm-up of each first)."""
    samples: dict[str, list[float]] = {"loop": [], "sat": []}
    for key, work in (("loop", python_loop), ("sat", sat_call)):
        work()
        for _ in range(repeats):
            start = time.process_time()
            work()
            samples[key].append(time.process_time() - start)
    return samples


def unit_of(samples: dict[str, list[float]]) -> float:
    """The calibration unit: the geometric mean of the loop's and the SAT call's medians."""
    return math.sqrt(statistics.median(samples["loop"]) * statistics.median(samples["sat"]))


# --- against the baseline --------------------------------------------------------------------


def load_baseline(path: Path = BASELINE) -> dict:
    if not path.exists():
        return {"cases": {}}
    return json.loads(path.read_text())


@dataclass
class Verdict:
    """One row of the table: a command's figures now and in the baseline, as multiples of
    each run's unit, and whether it slipped."""

    name: str
    base_median: float | None  # seconds, as recorded
    now_median: float | None
    ratio: float | None  # of the medians, each in its run's units
    max_ratio: float | None
    memory_ratio: float | None
    base_peak: float | None
    now_peak: float | None
    failed: str  # why the row fails, or ""


def _floor(seconds: float, unit: float, floor: float) -> float:
    return max(seconds, floor) / unit


def compare(measured: Measured, unit: float, entry: dict | None, threshold: float, check_max: bool = True) -> Verdict:
    """The row of ``measured`` against its baseline ``entry`` (None: no baseline yet); the max
    is not checked with ``check_max`` false (the quick form: one run, its max is its median).

    Both sides are divided by their own run's calibration unit, and floored at
    the case's floor (:data:`NOISE_FLOOR_S` unless it says) and memory growth at
    :data:`MEMORY_FLOOR_MB` before the ratio."""
    name = measured.case.name
    if measured.failure:
        return Verdict(name, entry and entry["median_s"], None, None, None, None, entry and entry["peak_mb"], None,
                       measured.failure)
    now_median, now_max = measured.median, measured.most
    if entry is None:
        return Verdict(name, None, now_median, None, None, None, None, measured.peak_mb, "")
    base_unit = entry["unit_s"]
    floor = measured.case.floor
    ratio = _floor(now_median, unit, floor) / _floor(entry["median_s"], base_unit, floor)
    max_ratio = _floor(now_max, unit, floor) / _floor(entry["max_s"], base_unit, floor)
    memory_ratio = max(measured.growth_mb, MEMORY_FLOOR_MB) / max(entry["growth_mb"], MEMORY_FLOOR_MB)
    slips = [what for what, value in (("median", ratio), ("max", max_ratio), ("memory", memory_ratio))
             if value > threshold and (check_max or what != "max")]
    failed = f"{' and '.join(slips)} over {threshold:g}x" if slips else ""
    return Verdict(name, entry["median_s"], now_median, ratio, max_ratio, memory_ratio, entry["peak_mb"],
                   measured.peak_mb, failed)


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def _times(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def table(verdicts: list[Verdict]) -> str:
    """The guard's table, as Markdown: command, baseline, now, ratio, max ratio, memory, verdict."""
    lines = ["| command | baseline | now | ratio | max ratio | peak MB (base / now) | mem ratio | |",
             "|---|---|---|---|---|---|---|---|"]
    for v in verdicts:
        peaks = f"{v.base_peak:.0f} / {v.now_peak:.0f}" if v.base_peak and v.now_peak else \
            (f"- / {v.now_peak:.0f}" if v.now_peak else "-")
        verdict = f"**{v.failed}**" if v.failed else ("no baseline" if v.ratio is None else "ok")
        ratio = _times(v.ratio) if not (v.failed and v.now_median is None) else v.failed.split(" (")[0]
        lines.append(f"| {v.name} | {_seconds(v.base_median)} | {_seconds(v.now_median)} | {ratio} | "
                     f"{_times(v.max_ratio)} | {peaks} | {_times(v.memory_ratio)} | {verdict} |")
    return "\n".join(lines)


def target_table(measured: list[Measured]) -> str:
    """The factory's figures against their absolute targets (CPU on this machine)."""
    lines = ["| command | target | median | max | |", "|---|---|---|---|---|"]
    for m in measured:
        target = m.case.target
        if target is None:
            continue
        if m.failure:
            lines.append(f"| {m.case.name} | {target.what}: {_limit(target)} | {m.failure} | | **over target** |")
            continue
        # per item where the case times each (grading), else each run's mean per puzzle
        median, most = (statistics.median(m.items), max(m.items)) if m.items else (m.median / m.case.per, m.most / m.case.per)
        unit = "/s" if target.rate else " s"
        # the worst run of a rate is the slowest one, the largest seconds per puzzle
        lines.append(f"| {m.case.name} | {target.what}: {_limit(target)} | {target.figure(median):.3g}{unit} | "
                     f"{target.figure(most):.3g}{unit} | {'met' if target.met(median) else '**over target**'} |")
    return "\n".join(lines)


def _limit(target: Target) -> str:
    return f">= {target.limit:g}/s" if target.rate else f"<= {target.limit:g} s"


def select(names: list[str] | None, quick: bool) -> list[Case]:
    """The guard's commands: the quick ones with ``quick``; those whose name holds one of ``names``."""
    cases = [case for case in CASES if case.quick or not quick]
    if names:
        cases = [case for case in cases if any(n in case.name or fnmatch.fnmatch(case.name, n) for n in names)]
    return cases


def run_guard(cases: list[Case], quick: bool, calibration_repeats: int, baseline: dict, threshold: float,
              progress=None) -> tuple[float, list[Measured], dict]:
    """Calibrate, measure every case, calibrate again; the unit, the figures, the samples.
    The quick form compares with the first calibration's unit as it goes (to measure a
    failing command again, :func:`measure_quick`)."""
    say = progress or (lambda line: None)
    samples = calibrate(calibration_repeats)
    say(f"calibration: loop {statistics.median(samples['loop']):.3f} s, SAT {statistics.median(samples['sat']):.3f} s")
    measured = []
    for case in cases:
        if quick:
            m, _ = measure_quick(case, unit_of(samples), baseline["cases"].get(case.name), threshold)
        else:
            m = measure(case, case.runs)
        measured.append(m)
        say(f"{case.name}: " + (m.failure or f"median {_seconds(m.median)}, max {_seconds(m.most)}, peak {m.peak_mb:.0f} MB"))
    for key, values in calibrate(calibration_repeats).items():
        samples[key].extend(values)
    return unit_of(samples), measured, samples


def updated_baseline(baseline: dict, unit: float, samples: dict, measured: list[Measured], reason: str) -> dict:
    """``baseline`` with the entries of ``measured`` replaced; a command over its cap (or that
    failed) is taken out, so that no test compares against it until it is recorded again."""
    cases = dict(baseline.get("cases", {}))
    recorded = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for m in measured:
        if m.failure:
            cases.pop(m.case.name, None)
            continue
        cases[m.case.name] = {
            "median_s": round(m.median, 4), "max_s": round(m.most, 4), "runs": len(m.cpu),
            "peak_mb": round(m.peak_mb, 1), "growth_mb": round(m.growth_mb, 1),
            "unit_s": round(unit, 5), "median_units": round(m.median / unit, 3), "recorded": recorded,
            "reason": reason,
        }
    update = {"recorded": recorded, "reason": reason, "commands": len(measured),
              "left_out": [m.case.name for m in measured if m.failure],
              "loop_s": round(statistics.median(samples["loop"]), 4), "sat_s": round(statistics.median(samples["sat"]), 4),
              "unit_s": round(unit, 5), "load": [round(x, 1) for x in os.getloadavg()]}
    return {
        "about": "benchmarks/guard.py's baseline: CPU seconds of each command (median and max of its runs, "
                 "each in a fresh process, imports excluded) and the calibration unit of the run that "
                 "measured it; compared as multiples of the unit. Rewrite with --update.",
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.node()}",
        "updates": [*baseline.get("updates", []), update],  # each --update: when, why, its calibration
        "cases": {name: cases[name] for name in sorted(cases, key=lambda n: list(BY_NAME).index(n) if n in BY_NAME else 1e9)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the quick commands, fewer runs (the test suite's form)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="the commands whose name holds NAME (or matches it as a pattern)")
    parser.add_argument("--threshold", type=float, help=f"fail above this ratio (default {DEFAULT_THRESHOLD:g}, {QUICK_THRESHOLD:g} with --quick)")
    parser.add_argument("--update", metavar="REASON", nargs="?", const="", help="rewrite the baseline with this run's figures")
    parser.add_argument("--baseline", default=str(BASELINE), help="the baseline file")
    parser.add_argument("--calibration-repeats", type=int, default=5)
    parser.add_argument("--list", action="store_true", help="list the commands and exit")
    parser.add_argument("--run-once", help=argparse.SUPPRESS)
    parser.add_argument("--result-fd", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run_once:
        run_once(args.run_once, args.result_fd)
        return 0
    if args.update is not None and args.quick:
        parser.error("--update records the full runs (a warm-up, then 3 or 5): pick commands with --only, not --quick")
    cases = select(args.only, args.quick)
    if args.list:
        for case in cases:
            what = f"{case.library[0]}({', '.join(case.library[1:])}) in process" if case.library else f"placesat {' '.join(case.args)}"
            print(f"{case.name}: {what}{'  [quick]' if case.quick else ''}")
        return 0
    if not cases:
        parser.error("no command matches --only")
    threshold = args.threshold or (QUICK_THRESHOLD if args.quick else DEFAULT_THRESHOLD)
    path = Path(args.baseline)
    baseline = load_baseline(path)
    one, five, _ = os.getloadavg()
    print(f"# speed guard: {len(cases)} commands, threshold {threshold:g}x; load average {one:.1f} (1 min), "
          f"{five:.1f} (5 min) on {os.cpu_count()} cores", flush=True)
    unit, measured, samples = run_guard(cases, args.quick, args.calibration_repeats, baseline, threshold,
                                        progress=lambda line: print(f"  {line}", file=sys.stderr, flush=True))
    base_unit = (baseline.get("updates") or [{}])[-1].get("unit_s")
    print(f"calibration unit {unit * 1000:.1f} ms (loop {statistics.median(samples['loop']):.3f} s, "
          f"SAT {statistics.median(samples['sat']):.3f} s)" + (f"; baseline's {base_unit * 1000:.1f} ms" if base_unit else ""))
    verdicts = [compare(m, unit, baseline["cases"].get(m.case.name), threshold, check_max=not args.quick) for m in measured]
    print()
    print(table(verdicts))
    if any(m.case.target for m in measured):
        print()
        print("Factory targets (absolute CPU on this machine, not divided by the unit):")
        print()
        print(target_table(measured))
    failed = [v for v in verdicts if v.failed]
    if args.update is not None:
        path.write_text(json.dumps(updated_baseline(baseline, unit, samples, measured, args.update), indent=1) + "\n")
        print(f"\nbaseline rewritten: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
              + (f" ({len(failed)} command(s) left out: {', '.join(v.name for v in failed if v.now_median is None)})" if failed else ""))
        return 0
    print()
    print(f"{len(failed)} of {len(verdicts)} over the threshold or cap" if failed else f"all {len(verdicts)} within {threshold:g}x")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
