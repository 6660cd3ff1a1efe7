"""Compiled kernels (solver/core/compiled.py): the compiled module when it imports, else the
module's own Python kernels, said once; nothing compiled, nothing written, no numba."""

import subprocess
import sys
import types
from pathlib import Path

import pytest

from placesat.core import compiled

ROOT = Path(__file__).resolve().parent.parent

KERNELS = '''
from placesat.core.compiled import kernel


@kernel
def _square(x):
    return x * x


@kernel
def total_of_squares(values):
    return sum(_square(v) for v in values)


def not_a_kernel():
    return "helper"
'''

# stands for the compiled module: what load_kernels asks of it is that it imports
EXTENSION = '''
def total_of_squares(values):
    return -1  # not the Python kernel's answer: the test sees which one ran
'''


@pytest.fixture
def sample(tmp_path, monkeypatch):
    """A module of kernels, and its "compiled" twin, importable from a fresh folder."""
    (tmp_path / "sample_kernels.py").write_text(KERNELS)
    (tmp_path / "sample_compiled.py").write_text(EXTENSION)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("sample_kernels", "sample_compiled"):
        sys.modules.pop(name, None)
    monkeypatch.setattr(compiled, "_loaded", {})
    monkeypatch.setattr(compiled, "_told", set())
    monkeypatch.delenv(compiled.KERNELS_ENV, raising=False)
    heard = []
    compiled.on_fallback(heard.append)
    yield heard
    compiled.on_fallback(None)


def test_the_compiled_module_when_it_imports_and_nothing_said(sample):
    loaded = compiled.load_kernels("sample_kernels", "the sample kernels", "sample_compiled")
    assert isinstance(loaded, types.ModuleType) and loaded.__name__ == "sample_compiled"
    assert loaded.total_of_squares([1, 2]) == -1
    assert sample == []
    assert compiled.load_kernels("sample_kernels", "the sample kernels", "sample_compiled") is loaded


def test_without_the_compiled_module_the_python_kernels_and_one_line_with_the_command(sample):
    loaded = compiled.load_kernels("sample_kernels", "the sample kernels", "sample_missing")
    assert not isinstance(loaded, types.ModuleType)
    assert loaded.total_of_squares([1, 2, 3]) == 14
    assert sorted(vars(loaded)) == ["_square", "total_of_squares"]  # the marked functions only
    assert sample == ["the sample kernels runs as plain Python (much slower): this install has no compiled kernels; "
                      "reinstall with a C compiler present: pip install --force-reinstall --no-cache-dir placesat"]
    # once a process: a second load (another caller, the cache cleared) says nothing more
    compiled._loaded.clear()
    assert compiled.load_kernels("sample_kernels", "the sample kernels", "sample_missing").total_of_squares([2]) == 4
    assert len(sample) == 1


def test_the_python_kernels_can_be_asked_for_and_then_nothing_is_said(sample, monkeypatch):
    monkeypatch.setenv(compiled.KERNELS_ENV, "python")
    loaded = compiled.load_kernels("sample_kernels", "the sample kernels", "sample_compiled")
    assert loaded.total_of_squares([1, 2]) == 5 and sample == []
    assert compiled.kernels_mode() == compiled.PYTHON
    monkeypatch.setenv(compiled.KERNELS_ENV, "")
    assert compiled.kernels_mode() == compiled.COMPILED


def test_a_library_caller_that_asked_for_nothing_hears_nothing(sample):
    compiled.on_fallback(None)
    assert compiled.load_kernels("sample_kernels", "the sample kernels", "sample_missing").total_of_squares([3]) == 9
    assert compiled._told == set()


def test_the_lixso_grader_comes_compiled_here():
    # the test environment is installed with a C compiler (pip install -e .): its grader is
    # the extension module, built beside its source
    from placesat.lixso import native

    if compiled.kernels_mode() == compiled.PYTHON:
        pytest.skip("PLACESAT_KERNELS=python asks for the Python kernels")
    grader = native.kernels()
    assert isinstance(grader, types.ModuleType) and grader.__name__ == "placesat.lixso._grader"
    assert Path(grader.__file__).suffix in (".so", ".pyd")


# a grade on the command line, with the compiled grader hidden (an install made without a C
# compiler) or not; the modules the process loaded, and its output
GRADE = """
import sys
from importlib.abc import MetaPathFinder

class NoCompiledGrader(MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "placesat.lixso._grader":
            raise ImportError("no compiled grader in this install")

if sys.argv[1] == "hidden":
    sys.meta_path.insert(0, NoCompiledGrader())
from placesat.cli.main import main
try:
    main(["placesat", "lixso", "grade", sys.argv[2]])
finally:
    print("numba loaded" if "numba" in sys.modules or "llvmlite" in sys.modules else "no numba", file=sys.stderr)
"""


@pytest.mark.parametrize("grader", ["compiled", "hidden"])
def test_a_grade_runs_without_numba_and_says_once_when_it_runs_as_python(grader, tmp_path):
    puzzle = tmp_path / "six.txt"
    # a 6x6 puzzle of level 4 (tests/lixso_samples.py, seed "k38"): it needs trials, which
    # load the kernels, and is quick in Python too
    puzzle.write_text("....S.\n.....I\n.O....\n......\n......\nI.....\n")
    done = subprocess.run([sys.executable, "-c", GRADE, grader, str(puzzle)], capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=60)
    lines = done.stderr.splitlines()
    assert lines[-1] == "no numba", done.stderr
    assert done.stdout.endswith(": level 4 (one-tile trial: a tile that leads straight to a contradiction is ruled out)\n"), done.stdout
    if grader == "hidden":
        assert lines[:-1] == ["placesat: the Lixso grader runs as plain Python (much slower): this install has no "
                              "compiled kernels; reinstall with a C compiler present: "
                              "pip install --force-reinstall --no-cache-dir placesat"]
    else:
        assert lines[:-1] == []
    assert sorted(path.name for path in tmp_path.iterdir()) == ["six.txt"]  # nothing written here
