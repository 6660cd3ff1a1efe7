"""Packs of many puzzles: time limits that hold on them, worker counts, stops, streaming."""

from __future__ import annotations

import json
import signal
import time

import pytest

from solver.core.limits import Deadline
from solver.core.parallel import usable_cores, worker_count
from solver.lixso import encode
from solver.lixso.model import Grid
from solver.lixso.solve import LixsoSolver, Verdict
from solver.lixso.verify import Verifier
from tests.conftest import ROOT
from tests.test_hardening import start, stop_after

LEVELS = ROOT / "grids" / "lixso"


def empty_pack(path, count: int, size: int = 9) -> None:
    path.write_text("\n".join(f"# name: e{i}\n" + ("." * size + "\n") * size for i in range(count)))


def refuse_to_build(*args, **kwargs):
    raise AssertionError("a template was built after the time limit")


def test_past_the_limit_the_solver_builds_nothing(monkeypatch):
    # the template a time-out cuts short is not kept: each later grid of a pack rebuilt it
    monkeypatch.setattr(encode, "build_template", refuse_to_build)
    monkeypatch.setattr(encode, "_templates", {})
    deadline = Deadline(0)
    grid = Grid(("." * 9,) * 9)
    report = LixsoSolver().solve(grid, 2, deadline)
    assert report.status is Verdict.UNKNOWN and report.solutions == [] and not report.complete


def test_past_the_limit_the_verifier_builds_nothing(monkeypatch):
    monkeypatch.setattr(encode, "build_template", refuse_to_build)
    monkeypatch.setattr(encode, "_templates", {})
    verifier = Verifier(command_end=time.monotonic() - 1)
    grid = Grid(("." * 9,) * 9, name="late", metadata={"level": "3"})
    check = verifier.check(grid)
    assert (check.name, check.status, check.stated_level, check.level) == ("late", "unknown", 3, None)


@pytest.mark.parametrize("command", ["solve", "verify", "grade"])
def test_every_grid_past_the_limit_is_unknown(run_cli, tmp_path, command):
    pack = tmp_path / "empty.txt"
    empty_pack(pack, 300)
    result = run_cli("lixso", command, str(pack), "--time-limit", "0", "--json")
    assert result.returncode == 1, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["name"] for row in rows] == [f"e{i}" for i in range(300)]
    assert {row["status"] for row in rows} == {"unknown"}


def test_no_more_workers_than_work_or_cores():
    cores = usable_cores()
    assert worker_count(256, None) == cores
    assert worker_count(256, 1) == 1
    assert worker_count(256, 3) == min(3, cores)
    assert worker_count(1, 1000) == 1
    assert worker_count(2, 0) == 1


def test_verify_says_when_it_starts_fewer_workers_than_asked(run_cli, tmp_path):
    pack = tmp_path / "two.txt"
    pack.write_text("# name: a\nIIX\nIXX\n\n# name: b\nIIX\nIXX\n")
    result = run_cli("lixso", "verify", str(pack), "--jobs", "256", "--json")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "--jobs 256: starting" in warnings[0], result.stderr
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["unique", "unique"]


@pytest.mark.slow
def test_ctrl_c_in_verify_on_two_workers_says_interrupted_and_how_far(tmp_path):
    pack = tmp_path / "many.txt"
    pack.write_text("\n".join([(LEVELS / "level-6.txt").read_text()] * 20))
    process = start("lixso", "verify", str(pack), "--jobs", "2")
    returncode, out, err = stop_after(process, signal.SIGINT, 3.0)
    assert returncode == 130 and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("placesat: interrupted: ") and last.endswith(" of 400 puzzles checked"), err
