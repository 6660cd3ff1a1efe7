"""placesat as a package: one version, read from one place; a wheel that installs one top-level
name, placesat, whose command runs outside the repository, with its kernels compiled; a
read-only install that grades at once and writes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
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
    # the kernels compiled without optimisation: what is tested is that the wheel carries them
    # and that they load and answer, not their speed (-O3 takes 30 s of the suite; -O0 10 s)
    # built from a copy, so that those objects never reach a later build in the repository's build/
    source = tmp_path_factory.mktemp("source") / "placesat"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.so", "__pycache__",
                                                              ".pytest_cache", ".hypothesis", "*.egg-info"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
                           capture_output=True, text=True, env=dict(os.environ, CFLAGS="-O0 -g0"))
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheels.glob("placesat-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {name.split("/")[0] for name in names}
    target = Path(tempfile.mkdtemp(prefix="placesat-wheel-"))  # not under pytest's 0700 folder: another user reads it
    target.chmod(0o755)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    yield SimpleNamespace(wheel=wheel, names=names, tops=tops, target=target)
    subprocess.run(["chmod", "-R", "u+w", str(target)], check=False)
    shutil.rmtree(target, ignore_errors=True)


def _outside(target: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python ARGS`` with only the installed wheel and the test environment's dependencies
    importable (cwd outside the repository: its folders are not on the path)."""
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


@pytest.mark.xdist_group("wheel")  # one wheel built for both (a module fixture is made once per worker)
@pytest.mark.slow
def test_the_wheel_installs_one_top_level_name_and_runs_outside_the_repository(installed, tmp_path):
    version = placesat.__version__
    assert installed.tops == {"placesat", f"placesat-{version}.dist-info"}
    # the Lixso grader compiled (setup.py), and neither its C nor its Cython source shipped
    compiled = [name for name in installed.names if name.startswith("placesat/lixso/_grader")]
    assert len(compiled) == 1 and compiled[0].endswith(sysconfig.get_config_var("EXT_SUFFIX")), compiled
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


@pytest.mark.xdist_group("wheel")
@pytest.mark.slow
def test_the_wheel_carries_the_shipped_grids_as_package_data(installed, tmp_path):
    """Every file of grids/ is in the wheel under placesat/data/, and an installed placesat
    loads them by name from outside the repository (placesat.data), a pack with its answers."""
    shipped = sorted(str(path.relative_to(ROOT / "grids")) for path in (ROOT / "grids").rglob("*")
                     if path.suffix in (".txt", ".json"))
    assert len(shipped) > 50
    carried = sorted(name.removeprefix("placesat/data/") for name in installed.names
                     if name.startswith("placesat/data/") and not name.endswith(".py"))
    assert carried == shipped
    code = ("import placesat; path = placesat.data.path('lixso/level-5.txt'); assert path.startswith(%r), path; "
            "pack = placesat.lixso.load_pack(path); report = placesat.lixso.solve(pack[0]); "
            "print(len(placesat.data.names()), len(pack), report.status.value, "
            "report.solutions[0] == pack[0].stated_solution(), placesat.laido.load_game(placesat.data.path('laido/hand.json')).size)")
    loaded = _outside(installed.target, "-c", code % str(installed.target), cwd=tmp_path)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    count, grids, status, stated, size = loaded.stdout.split()
    assert (int(count), status, stated) == (len(shipped), "unique", "True") and int(grids) > 1
    assert int(size) > 0


# --------------------------------------------------------------------------- a read-only install

OTHER_USER = "nobody"  # an unprivileged user every Debian-like system has


def _run_as_other_user(python: str, *args: str, home: Path, path: str, cwd: Path) -> subprocess.CompletedProcess:
    env = ["env", "-i", f"HOME={home}", "PATH=/usr/bin:/bin", f"PYTHONPATH={path}", "LANG=C.UTF-8"]
    return subprocess.run(["runuser", "-u", OTHER_USER, "--", *env, python, *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


def _python_for_other_user(path: str, cwd: Path, home: Path) -> str | None:
    """An interpreter the other user can run, of this one's version (this one may live where
    they cannot read, a home folder), with the dependencies importable from ``path``."""
    import sysconfig

    version = sysconfig.get_python_version()
    for python in (sys.executable, os.path.realpath(sys.executable), f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"):
        if not os.path.exists(python):
            continue
        tried = _run_as_other_user(python, "-c", "import numpy, pysat, typer; import sys; print(sys.version)",
                                   home=home, path=path, cwd=cwd)
        if tried.returncode == 0:
            return python
    return None


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder``, with its size and modification time."""
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in folder.rglob("*") if path.is_file()}


@pytest.mark.xdist_group("wheel")  # one wheel built for both (a module fixture is made once per worker)
@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="runs the install as another user: needs root (runuser)")
def test_a_read_only_install_grades_at_once_as_another_user_and_writes_nothing(installed):
    """The wheel installed by root into a folder made read-only, then run by an unprivileged
    user with an empty home: the first grade finds the Lixso grader compiled in the wheel (no
    compile, no notice, no cache) and grades the shipped examples right, quickly (a loose guard:
    it took 25-36 s when the first grade compiled the grader, about 1 s now); nothing is written
    into the install, the home or the working folder. (As root this cannot be tried: root
    writes anywhere.)"""
    import pwd
    import site
    import time

    try:
        account = pwd.getpwnam(OTHER_USER)
    except KeyError:
        pytest.skip(f"no user {OTHER_USER!r} to run as (as root the install would not be read-only: root ignores modes)")
    if shutil.which("runuser") is None:
        pytest.skip("no runuser to run as another user")
    work = Path(tempfile.mkdtemp(prefix="placesat-readonly-"))
    try:
        work.chmod(0o755)
        home = work / "home"
        home.mkdir()
        os.chown(home, account.pw_uid, account.pw_gid)
        grids = work / "examples.txt"
        shutil.copy(ROOT / "grids" / "examples.txt", grids)
        grids.chmod(0o444)
        path = os.pathsep.join([str(installed.target), *site.getsitepackages()])
        python = _python_for_other_user(path, work, home)
        if python is None:
            pytest.skip(f"no Python {sys.version_info[0]}.{sys.version_info[1]} with the dependencies that {OTHER_USER} can run")
        subprocess.run(["chmod", "-R", "a-w", str(installed.target)], check=True)
        before = _files(installed.target), _files(work)
        try:
            start = time.monotonic()
            run = _run_as_other_user(python, "-m", "placesat", "lixso", "grade", str(grids), home=home, path=path, cwd=work)
            took = time.monotonic() - start
        finally:
            subprocess.run(["chmod", "-R", "u+w", str(installed.target)], check=True)
        assert run.returncode == 0, run.stderr[-2000:]
        assert [line.split(" (")[0] for line in run.stdout.splitlines()] == ["example-level-2: level 2", "example-level-6: level 6"]
        assert run.stderr == ""  # no compile, no plain-Python notice
        assert took < 15, took
        assert (_files(installed.target), _files(work)) == before  # the home is in work: empty still
        assert not any(home.iterdir())
    finally:
        shutil.rmtree(work, ignore_errors=True)
