"""The speed guard's quick form (benchmarks/guard.py --quick): no command slips far past its
committed baseline.

Each quick command is run once in a fresh process (once more after a warm-up if that run
fails: :func:`guard.measure_quick`) and its CPU seconds, as a multiple of this session's calibration unit, are compared with the baseline's at
:data:`guard.QUICK_THRESHOLD` (loose: a busy machine never reaches it, a 100x slip such as the
one of ``lixso game bounds`` on a 9x9 opening does). A command with no baseline entry is
skipped: its figure is recorded with ``benchmarks/guard.py --update`` once it runs within its
cap. The comparison itself is checked on made-up figures, below, so that a 5x slip is known to
fail whatever the machine.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_guard():
    spec = importlib.util.spec_from_file_location("speed_guard", ROOT / "benchmarks" / "guard.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


guard = _load_guard()
BASELINE = guard.load_baseline()
QUICK = guard.select(None, quick=True)


@pytest.fixture(scope="module")
def unit() -> float:
    """This session's calibration unit (the loop and the SAT call, two runs each)."""
    return guard.unit_of(guard.calibrate(2))


@pytest.mark.parametrize("case", QUICK, ids=[case.name for case in QUICK])
def test_quick_command_within_its_baseline(case, unit):
    entry = BASELINE["cases"].get(case.name)
    if entry is None:
        pytest.skip(f"no baseline for {case.name!r} yet: record it with benchmarks/guard.py --update")
    _, verdict = guard.measure_quick(case, unit, entry, guard.QUICK_THRESHOLD)
    assert not verdict.failed, f"{case.name} slipped ({verdict.failed}):\n{guard.table([verdict])}\n" \
                               f"calibration unit {unit * 1000:.1f} ms, baseline's {entry['unit_s'] * 1000:.1f} ms"


def test_the_quick_form_covers_every_game_and_the_9x9_opening():
    groups = {case.args[0] for case in QUICK}
    assert groups == {"lixso", "lsd", "quarry", "laido", "logisticks"}
    bounds = guard.BY_NAME["lixso game bounds 9x9 opening"]
    assert bounds.quick and bounds.cap <= 30
    assert (guard.ROOT / "grids/lixso-game/9x9-opening.txt").exists()  # the issue-37 opening, shared with its test


def _measured(case, seconds: list[float], growth_mb: float = 10.0):
    return guard.Measured(case, cpu=seconds, peak_mb=40.0 + growth_mb, growth_mb=growth_mb)


ENTRY = {"median_s": 0.4, "max_s": 0.45, "peak_mb": 50.0, "growth_mb": 10.0, "unit_s": 0.3}


def test_a_5x_slip_of_bounds_on_the_9x9_opening_fails_the_quick_form():
    case = guard.BY_NAME["lixso game bounds 9x9 opening"]
    slipped = guard.compare(_measured(case, [2.0, 2.0]), 0.3, ENTRY, guard.QUICK_THRESHOLD, check_max=False)
    assert slipped.failed and slipped.ratio == pytest.approx(5.0)
    steady = guard.compare(_measured(case, [0.5, 0.6]), 0.3, ENTRY, guard.QUICK_THRESHOLD, check_max=False)
    assert not steady.failed


def test_figures_are_compared_in_units_of_their_own_run():
    case = guard.BY_NAME["lixso game bounds 9x9 opening"]
    # a machine twice as slow: twice the seconds and twice the unit, the same ratio
    slower_machine = guard.compare(_measured(case, [0.8, 0.8]), 0.6, ENTRY, 2.0)
    assert slower_machine.ratio == pytest.approx(1.0) and not slower_machine.failed
    # the same seconds on a machine twice as fast is a 2.5x slip of the code
    faster_machine = guard.compare(_measured(case, [1.0, 1.0]), 0.15, ENTRY, 2.0)
    assert faster_machine.ratio == pytest.approx(5.0) and "median" in faster_machine.failed


def test_the_max_memory_and_cap_each_fail_on_their_own():
    case = guard.BY_NAME["lixso game bounds 9x9 opening"]
    spike = guard.compare(_measured(case, [0.4, 0.4, 1.5]), 0.3, ENTRY, 2.0)
    assert spike.failed == "max over 2x"
    assert not guard.compare(_measured(case, [0.4, 0.4, 1.5]), 0.3, ENTRY, 2.0, check_max=False).failed
    memory = guard.compare(_measured(case, [0.4], growth_mb=300.0), 0.3, ENTRY, 2.0)
    assert memory.failed == "memory over 2x" and memory.memory_ratio == pytest.approx(6.0)
    capped = guard.compare(guard.Measured(case, failure="> cap (20 s)"), 0.3, ENTRY, 5.0)
    assert capped.failed == "> cap (20 s)" and "> cap" in guard.table([capped])


def test_a_5x_slip_of_a_fast_bounds_fails_under_its_own_low_floor():
    case = guard.BY_NAME["lixso game bounds 9x9 opening"]
    entry = dict(ENTRY, median_s=0.03, max_s=0.03)
    assert guard.compare(_measured(case, [0.15]), 0.3, entry, guard.QUICK_THRESHOLD, check_max=False).failed


def test_tiny_figures_are_compared_at_the_noise_floor():
    case = guard.BY_NAME["lixso game bounds 6x6 4p"]
    entry = dict(ENTRY, median_s=0.003, max_s=0.004)
    # 3 ms -> 15 ms is 5x on paper, under the floor it is noise
    assert not guard.compare(_measured(case, [0.015]), 0.3, entry, 4.0).failed
    assert guard.compare(_measured(case, [0.3]), 0.3, entry, 4.0).failed


def test_update_keeps_other_entries_and_drops_a_command_over_its_cap():
    bounds, solve = guard.BY_NAME["lixso game bounds 9x9 opening"], guard.BY_NAME["lixso solve level-6 pack"]
    old = {"cases": {bounds.name: ENTRY, "lixso solve examples": ENTRY}}
    samples = {"loop": [0.2, 0.21], "sat": [0.25, 0.26]}
    new = guard.updated_baseline(old, 0.23, samples, [guard.Measured(bounds, failure="> cap (20 s)"),
                                                       _measured(solve, [0.3, 0.5, 0.4])], "test")
    assert set(new["cases"]) == {"lixso solve examples", solve.name}
    assert new["cases"][solve.name]["median_s"] == 0.4 and new["cases"][solve.name]["max_s"] == 0.5
    assert new["cases"][solve.name]["unit_s"] == 0.23 and new["cases"][solve.name]["reason"] == "test"
    assert new["updates"][-1]["reason"] == "test" and new["updates"][-1]["left_out"] == [bounds.name]


def test_a_target_is_met_or_over():
    assert guard.GENERATION.met(0.4) and not guard.GENERATION.met(0.6)
    # 120 puzzles in 2 CPU seconds on two cores: 120 a second
    assert guard.VERIFY.figure(2.0 / 120) == pytest.approx(120.0) and guard.VERIFY.met(2.0 / 120)
    assert not guard.VERIFY.met(3.0 / 120)
