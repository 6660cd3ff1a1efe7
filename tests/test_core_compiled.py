"""A first run compiles numba kernels for seconds: the user is told once, and only then."""

import numba

from solver.core import compiled


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
