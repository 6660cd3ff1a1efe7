"""Packs on a Dask cluster: the same output as here, nothing lost when a worker dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import ROOT

LEVELS = ROOT / "grids" / "lixso"


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_without_dask_the_cluster_option_names_the_extra():
    result = _python(
        "import sys\n"
        "sys.modules['distributed'] = None  # as when the extra is not installed\n"
        f"sys.argv = ['placesat', 'lixso', 'verify', {str(LEVELS / 'level-1.txt')!r}, '--cluster', 'local:2']\n"
        "from placesat.cli.main import main\n"
        "main()\n"
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == ["placesat: error: --cluster needs Dask distributed, which is not installed: pip install 'placesat[cluster]'"]


def test_without_the_cluster_option_dask_is_not_imported():
    result = _python(
        "import sys\n"
        f"sys.argv = ['placesat', 'lixso', 'verify', {str(LEVELS / 'level-1.txt')!r}, '--jobs', '2', '--json']\n"
        "from placesat.cli.main import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    sys.stderr.write('dask imported\\n' if 'distributed' in sys.modules or 'dask' in sys.modules else 'no dask\\n')\n"
    )
    assert result.returncode == 0 and result.stderr.splitlines()[-1] == "no dask", result.stderr


distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install 'placesat[cluster]')")


@pytest.mark.slow  # the connection is given 5 s
def test_an_unreachable_scheduler_is_one_line(run_cli):
    result = run_cli("lixso", "verify", str(LEVELS / "level-1.txt"), "--cluster", "tcp://127.0.0.1:1")
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("placesat: error: --cluster tcp://127.0.0.1:1: no Dask scheduler answers there")


@pytest.mark.slow
def test_verify_grade_and_generate_on_a_local_cluster_give_the_local_output(run_cli, tmp_path):
    import json

    packs = [str(LEVELS / "level-1.txt"), str(LEVELS / "level-6.txt")]

    def facts(result):
        assert result.returncode == 0, result.stderr
        return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in result.stdout.splitlines()]

    # the cluster's commands as real processes (fresh): Dask starts its workers by spawning
    # new interpreters, which a fork of the test process does not carry through (it hung)
    here = facts(run_cli("lixso", "verify", *packs, "--json"))
    there = facts(run_cli("lixso", "verify", *packs, "--json", "--cluster", "local:2", fresh=True))
    assert there == here and len(here) == 40
    graded_here = facts(run_cli("lixso", "grade", *packs, "--json"))
    assert facts(run_cli("lixso", "grade", *packs, "--json", "--cluster", "local:2", fresh=True)) == graded_here
    assert [row["level"] for row in graded_here] == [1] * 20 + [6] * 20
    made_here, made_there = tmp_path / "here.txt", tmp_path / "there.txt"
    generate = ["lixso", "generate", "--level", "2", "--size", "6x6", "--seed", "4", "--count", "12"]
    assert run_cli(*generate, "--out", str(made_here)).returncode == 0
    result = run_cli(*generate, "--out", str(made_there), "--cluster", "local:2", fresh=True)
    assert result.returncode == 0, result.stderr
    assert made_there.read_bytes() == made_here.read_bytes()


def _slow_square(n: int) -> int:
    time.sleep(0.05)
    return n * n


@pytest.mark.timing
@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_nothing():
    from placesat.core.cluster import Cluster

    with Cluster("local:2") as cluster:
        pids = list(cluster.worker_pids().values())
        got = []
        killer = None
        for item, result in cluster.run_ordered(_slow_square, range(200), chunk=5, in_flight=4):
            got.append((item, result))
            if len(got) == 20:  # the other chunks are out on both workers now
                killer = threading.Thread(target=os.kill, args=(pids[0], signal.SIGKILL))
                killer.start()
        killer.join()
        assert got == [(n, n * n) for n in range(200)]
        assert pids[0] not in cluster.worker_pids().values()  # that worker did die (and was replaced)
