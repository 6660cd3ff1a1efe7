"""numba-compiled kernels: a first run on a machine compiles them, and says so.

numba compiles a kernel on its first call and caches the machine code on disk (``cache=True``,
beside the module in ``__pycache__``): later processes load it in a fraction of a second, but
the first run on a machine (after an install, or after a kernel's code changed) compiles for
seconds to half a minute (the Lixso grader about 30 s, the Laido sweep about 5 s). A command
that meets that wait says so instead of seeming to hang. A module of kernels calls
:func:`announce_compiles` once, after importing numba; the caller that owns the terminal (the
CLI) says how to tell the user with :func:`on_compile`. A library caller that sets nothing
hears nothing.
"""

from __future__ import annotations

from typing import Callable

# process-wide on purpose: what the CLI asked for, and which kernels were announced already
_tell: Callable[[str], None] | None = None
_told: set[str] = set()


def on_compile(tell: Callable[[str], None] | None) -> None:
    """Have ``tell`` called with one line when numba starts compiling kernels (None: silent)."""
    global _tell
    _tell = tell


def announce_compiles(module: str, kernels: str) -> None:
    """Tell the user, once per process, when numba starts compiling a kernel of ``module``
    (``kernels`` names them for the user, e.g. "the Lixso grader"). Loading a kernel from
    numba's cache is not compiling it and says nothing: numba broadcasts its "numba:compile"
    event only after the cache missed."""
    from numba.core import event

    class Announcer(event.Listener):
        def on_start(self, happening: event.Event) -> None:
            dispatcher = (happening.data or {}).get("dispatcher")
            if _tell is None or kernels in _told or getattr(getattr(dispatcher, "py_func", None), "__module__", None) != module:
                return
            _told.add(kernels)
            _tell(f"compiling {kernels} (once on this machine: numba keeps it for the next runs)...")

        def on_end(self, happening: event.Event) -> None:
            pass

    event.register("numba:compile", Announcer())
