"""placesat as a package: one version, read from one place; a wheel that installs one top-level
name, placesat, whose command runs outside the repository; a read-only install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

import pytest

import placesat

ROOT = Path(__file__).resolve().parent.parent
PLACESAT = Path(sys.executable).parent / "placesat"


def test_the_version_has_one_source():
    """pyproject.toml reads the version from placesat.__version__ (dynamic): the installed
    metadata and --version say the same, and pyproject.toml holds no number of its own."""
    assert version("placesat") == placesat.__version__
    out = subprocess.run([sys.executable, "-m", "placesat", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"placesat {placesat.__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and "\nversion =" not in pyproject.split("[tool.setuptools")[0]


def test_the_changelog_has_this_release():
    assert f"## {placesat.__version__}\n" in (ROOT / "CHANGELOG.md").read_text()


# --------------------------------------------------------------------------- the wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The project built as a wheel (pip wheel, the build backend in an isolated environment, as
    ``pip install .`` does) and installed with ``--no-deps`` into a folder of its own; the
    dependencies are the test environment's."""
    import zipfile

    wheels = tmp_path_factory.mktemp("wheels")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheels.glob("placesat-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    target = Path(tempfile.mkdtemp(prefix="placesat-wheel-"))  # not under pytest's 0700 folder: another user reads it
    target.chmod(0o755)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    yield SimpleNamespace(wheel=wheel, tops=tops, target=target)
    subprocess.run(["chmod", "-R", "u+w", str(target)], check=False)
    shutil.rmtree(target, ignore_errors=True)


def _outside(target: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python ARGS`` with only the installed wheel and the test environment's dependencies
    importable (cwd outside the repository: its folders are not on the path)."""
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


@pytest.mark.slow
def test_the_wheel_installs_one_top_level_name_and_runs_outside_the_repository(installed, tmp_path):
    version = placesat.__version__
    assert installed.tops == {"placesat", f"placesat-{version}.dist-info"}
    names = {path.name for path in installed.target.iterdir()} - {"bin"}  # bin: the placesat script
    assert names == {"placesat", f"placesat-{version}.dist-info"}
    assert not (installed.target / "cli").exists() and not (installed.target / "solver").exists()
    where = _outside(installed.target, "-c", "import placesat, placesat.cli.main; print(placesat.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert where.stdout.strip() == str(installed.target / "placesat" / "__init__.py")
    shown = _outside(installed.target, "-m", "placesat", "--help", cwd=tmp_path)
    assert shown.returncode == 0 and "lixso" in shown.stdout and "Usage: placesat" in shown.stdout
    said = _outside(installed.target, "-m", "placesat", "--version", cwd=tmp_path)
    assert said.stdout.strip() == f"placesat {version}"
    # the examples of the API page, run on the installed package (from the repository's root,
    # for the shipped grids: it has no placesat folder, so the wheel's is the one imported)
    code = ("import doctest, placesat; assert placesat.__file__.startswith(%r), placesat.__file__; "
            "result = doctest.testfile('docs/api.md', module_relative=False, "
            "optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE); print(result.failed, result.attempted)")
    examples = _outside(installed.target, "-c", code % str(installed.target), cwd=ROOT)
    assert examples.returncode == 0, examples.stderr[-2000:]
    failed, attempted = examples.stdout.split()[-2:]
    assert failed == "0" and int(attempted) > 30, examples.stdout[-3000:]
