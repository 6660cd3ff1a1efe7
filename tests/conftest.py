import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT.parent / "shared" / "data" / "lixso-sample.txt"

# How far the sweeps go. By default each sweep keeps the cases that reach every branch it guards
# (the suite fits in five minutes); PLACESAT_THOROUGH=1 runs the full sweeps and many more
# hypothesis examples, for a change to the rules or the encodings.
THOROUGH = os.environ.get("PLACESAT_THOROUGH", "") not in ("", "0")


def thorough(quick, full):
    """``full`` under PLACESAT_THOROUGH=1, else ``quick``: the size of a sweep."""
    return full if THOROUGH else quick


# hypothesis, for the tests that name no max_examples of their own (a test that does writes
# max_examples=thorough(QUICK, FULL))
settings.register_profile("default-run", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("thorough" if THOROUGH else "default-run")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Tests marked ``timing`` (they stop processes with signals, or time them) share one xdist
    group: one worker runs them one after another, so that no two load the machine at once and
    stretch each other's waits (``--dist loadgroup`` in pyproject.toml). Tests that share an
    expensive module fixture (a chromium, a built wheel) name their own group.

    xdist tells the groups apart by a ``@group`` suffix its worker adds to the test's id; from
    pytest 9.2 on the id is a structured object that xdist 3.8 does not change, so that every
    group was spread over the workers: the suffix is added here where it is missing. (The short
    summary of pytest 9.2 prints a parametrised test's id back as "...[params]@group]".)"""
    for item in items:
        if item.get_closest_marker("timing") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("timing"))
    if not getattr(config.option, "loadgroup", False):  # set in xdist's workers under --dist loadgroup
        return
    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid.rpartition("]")[2]:
            _rename(item, f"{item.nodeid}@{'_'.join(names)}")


def _rename(item: pytest.Item, nodeid: str) -> None:
    try:
        from _pytest.nodeid import NodeId  # pytest 9.2+
    except ImportError:
        item._nodeid = nodeid
    else:
        item._id = NodeId.parse(nodeid)


def placesat_command() -> list[str]:
    """The installed ``placesat`` command of the environment running the tests."""
    script = Path(sys.executable).parent / "placesat"
    return [str(script)] if script.exists() else [sys.executable, "-m", "placesat.cli.main"]


@pytest.fixture
def run_cli():
    """Run the installed command; returns the CompletedProcess (text mode)."""

    def run(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess:
        env = dict(os.environ, COLUMNS="120")
        return subprocess.run(
            placesat_command() + list(args),
            capture_output=True,
            text=True,
            cwd=cwd or ROOT,
            input=input,
            env=env,
            timeout=300,
        )

    return run
