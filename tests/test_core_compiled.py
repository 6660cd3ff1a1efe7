"""A first run compiles numba kernels for seconds: the user is told once, and only then."""

import importlib
import shutil
import sys
import sysconfig
import types

import numba
import numpy as np
import pytest

from placesat.core import compiled


@numba.njit  # no cache: compiled in this process on its first call, every run
def _twice(x):
    return 2 * x


@numba.njit
def _thrice(x):
    return 3 * x


def test_a_compile_of_a_modules_kernels_is_announced_once(monkeypatch):
    heard = []
    monkeypatch.setattr(compiled, "_told", set())
    compiled.on_compile(heard.append)
    try:
        compiled.announce_compiles(__name__, "the test kernels")
        compiled.announce_compiles("some.other.module", "other kernels")
        assert _twice(2) == 4  # compiles: announced
        assert _twice(3) == 6  # compiled already: nothing
        assert _thrice(2) == 6  # another kernel of the same set: said once is enough
        assert heard == ["compiling the test kernels (once on this machine: numba keeps it for the next runs)..."]
    finally:
        compiled.on_compile(None)


def test_nothing_is_said_when_no_one_asked(monkeypatch):
    monkeypatch.setattr(compiled, "_told", set())
    compiled.on_compile(None)
    compiled.announce_compiles(__name__, "quiet kernels")

    @numba.njit
    def quiet(x):
        return x + 1

    assert quiet(1) == 2 and compiled._told == set()


# --- kernels compiled ahead of time (load_kernels) ----------------------------------------

SAMPLE = '''
import numpy as np

from placesat.core.compiled import kernel


@kernel(inline="always")
def _square(x):
    return x * x


@kernel
def total_of_squares(values):
    total = 0
    for v in values:
        total += _square(v)
    return total


def exports():
    from numba import types

    return {"total_of_squares": types.int64(types.Array(types.int64, 1, "C"))}
'''


def _sample(tmp_path, monkeypatch, name="sample_kernels", source=SAMPLE):
    """A module of kernels in a fresh folder, imported, its compiled modules cached in another."""
    folder = tmp_path / "code"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv(compiled.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(compiled, "_loaded", {})
    monkeypatch.setattr(compiled, "_told", set())
    sys.modules.pop(name, None)
    return importlib.import_module(name)


def test_kernels_built_ahead_of_time_load_without_a_build_the_next_time(tmp_path, monkeypatch):
    if not shutil.which("cc"):
        pytest.skip("no C compiler: the JIT path is tested below")
    import tempfile

    module = _sample(tmp_path, monkeypatch)
    # numba's toolchain leaves temporary folders behind in the temporary directory: the build
    # keeps them inside its own folder, which it removes
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    heard = []
    compiled.on_compile(heard.append)
    try:
        ahead = compiled.load_kernels(module.__name__, "the sample kernels", module.exports)
        values = np.arange(5, dtype=np.int64)
        assert isinstance(ahead, types.ModuleType) and ahead.total_of_squares(values) == 30
        assert heard == ["compiling the sample kernels (once on this machine: it is kept for the next runs)..."]
        name = compiled.compiled_name(module.__name__)
        assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [name + sysconfig.get_config_var("EXT_SUFFIX"), name + ".lock"]
        assert list((tmp_path / "tmp").iterdir()) == [] and tempfile.tempdir == str(tmp_path / "tmp")
        # a new process (here: an empty table of loaded kernels) imports it, and builds nothing
        monkeypatch.setattr(compiled, "_loaded", {})
        monkeypatch.setattr(compiled, "_build", lambda *args: pytest.fail("built again"))
        again = compiled.load_kernels(module.__name__, "the sample kernels", module.exports)
        assert again.total_of_squares(values) == 30 and len(heard) == 1
        jit = compiled.load_kernels(module.__name__, "the sample kernels", module.exports, compiled.JIT)
        assert jit.total_of_squares(values) == 30 and not isinstance(jit, types.ModuleType)
    finally:
        compiled.on_compile(None)


def test_a_failed_build_falls_back_to_the_jit_and_is_not_tried_again(tmp_path, monkeypatch):
    module = _sample(tmp_path, monkeypatch, "failing_kernels")
    tries = []

    def no_compiler(*args):
        tries.append(args)
        raise OSError("no C compiler")

    monkeypatch.setattr(compiled, "_build", no_compiler)
    loaded = compiled.load_kernels(module.__name__, "the sample kernels", module.exports)
    assert loaded.total_of_squares(np.arange(4, dtype=np.int64)) == 14 and len(tries) == 1
    name = compiled.compiled_name(module.__name__)
    assert "no C compiler" in (tmp_path / "cache" / f"{name}.failed").read_text()
    monkeypatch.setattr(compiled, "_loaded", {})
    monkeypatch.setattr(compiled, "_build", lambda *args: pytest.fail("tried again"))
    assert compiled.load_kernels(module.__name__, "the sample kernels", module.exports).total_of_squares(
        np.arange(3, dtype=np.int64)) == 5


def test_a_change_of_the_kernels_source_names_a_new_compiled_module(tmp_path, monkeypatch):
    module = _sample(tmp_path, monkeypatch, "changing_kernels")
    before = compiled.compiled_name(module.__name__)
    assert before == compiled.compiled_name(module.__name__)  # the same source, the same name
    assert before.startswith("_changing_kernels_kernels_")
    (tmp_path / "code" / "changing_kernels.py").write_text(SAMPLE.replace("total += _square(v)", "total += _square(v) + 1"))
    changed = compiled.compiled_name(module.__name__)
    assert changed != before
    # a constant the kernels read, imported from another module, changed there: a new name too
    monkeypatch.setattr(module, "WIDEST", 20, raising=False)
    assert compiled.compiled_name(module.__name__) not in (before, changed)


def test_the_jit_can_be_asked_for(monkeypatch):
    monkeypatch.setenv(compiled.KERNELS_ENV, "jit")
    assert compiled.kernels_mode() == compiled.JIT
    monkeypatch.setenv(compiled.KERNELS_ENV, "")
    assert compiled.kernels_mode() == compiled.AHEAD


def test_a_place_that_cannot_be_written_is_passed_over(tmp_path, monkeypatch):
    # an install one cannot write to: the compiled module goes to the next place (~/.cache)
    if not shutil.which("cc"):
        pytest.skip("no C compiler")
    module = _sample(tmp_path, monkeypatch, "homeless_kernels")
    (tmp_path / "a-file").write_text("")
    blocked, home = tmp_path / "a-file" / "cache", tmp_path / "home"
    monkeypatch.setattr(compiled, "cache_dirs", lambda name: [blocked, home])
    ahead = compiled.load_kernels(module.__name__, "the sample kernels", module.exports)
    assert isinstance(ahead, types.ModuleType) and ahead.total_of_squares(np.arange(3, dtype=np.int64)) == 5
    assert [p.suffix for p in home.iterdir() if p.suffix == ".so"] == [".so"]


@pytest.mark.timing
def test_a_time_limit_holds_during_a_build_which_goes_on_for_the_next_run(tmp_path, monkeypatch):
    # the build runs in a process of its own: the command says "unknown" at its time limit
    # instead of waiting for the compiler, and the next run finds the module built
    import time

    from placesat.core.limits import Deadline, TimeUp

    if not shutil.which("cc"):
        pytest.skip("no C compiler")
    module = _sample(tmp_path, monkeypatch, "slow_kernels")
    start = time.monotonic()
    with pytest.raises(TimeUp):
        compiled.load_kernels(module.__name__, "the sample kernels", module.exports, deadline=Deadline(0.3))
    assert time.monotonic() - start < 2 and compiled._loaded == {}
    built = tmp_path / "cache" / (compiled.compiled_name(module.__name__) + sysconfig.get_config_var("EXT_SUFFIX"))
    while not built.is_file() and time.monotonic() - start < 120:
        time.sleep(0.2)
    monkeypatch.setattr(compiled, "_build", lambda *args: pytest.fail("built again"))
    ahead = compiled.load_kernels(module.__name__, "the sample kernels", module.exports)
    assert isinstance(ahead, types.ModuleType) and ahead.total_of_squares(np.arange(4, dtype=np.int64)) == 14


def test_a_build_the_compiler_refuses_says_why_and_falls_back_to_the_jit(tmp_path, monkeypatch):
    # a signature the kernel cannot be compiled for: the build process fails, its reason is
    # kept beside the module's place, and numba's JIT runs the kernels
    source = SAMPLE.replace('types.int64(types.Array(types.int64, 1, "C"))', "types.int64(types.unicode_type)")
    module = _sample(tmp_path, monkeypatch, "refused_kernels", source)
    loaded = compiled.load_kernels(module.__name__, "the sample kernels", module.exports)
    assert not isinstance(loaded, types.ModuleType) and loaded.total_of_squares(np.arange(3, dtype=np.int64)) == 5
    reason = (tmp_path / "cache" / (compiled.compiled_name(module.__name__) + ".failed")).read_text()
    assert reason.startswith("BuildFailed: ") and len(reason.splitlines()) == 1
    assert sorted(p.suffix for p in (tmp_path / "cache").iterdir()) == [".failed", ".lock"]
