"""Compiled kernels: built when placesat is installed, loaded here, plain Python without them.

A few hot loops (the Lixso grader, :mod:`placesat.lixso.native`; the Laido sweep,
:mod:`placesat.laido.sweep_kernels`) are written as plain Python functions marked
:func:`kernel`, where their rules are stated, and once more in Cython (``_grader.pyx`` and
``_sweep.pyx`` beside them), which ``pip install`` compiles into an extension module
(setup.py; optional: an install without a C compiler still succeeds). :func:`load_kernels`
hands out the extension module when it imports, else the module's own Python kernels: the
same names, arguments and answers, much slower. Nothing is compiled when placesat runs and
nothing is written anywhere, so a read-only install, a new container or a fresh cluster worker
grade at once.

Running the Python kernels because the compiled ones are missing is said once per process
through the callback the caller that owns the terminal registers (:func:`on_fallback`: the
CLI, on stderr), with the command that installs them; a library caller that sets nothing
hears nothing. ``PLACESAT_KERNELS=python`` asks for the Python kernels (tests, comparisons):
asked for, they are not announced.
"""

from __future__ import annotations

import importlib
import os
from types import SimpleNamespace
from typing import Any, Callable

KERNELS_ENV = "PLACESAT_KERNELS"  # "python": the Python kernels, even where compiled ones are installed
COMPILED, PYTHON = "compiled", "python"
REINSTALL = "pip install --force-reinstall --no-cache-dir placesat"  # --no-cache-dir: not the wheel built without them

# process-wide on purpose: what the CLI asked for, which kernels were announced, what was loaded
_tell: Callable[[str], None] | None = None
_told: set[str] = set()
_loaded: dict[tuple[str, str], Any] = {}


def on_fallback(tell: Callable[[str], None] | None) -> None:
    """Have ``tell`` called with one line when kernels run as plain Python because their
    compiled module is missing (None: silent)."""
    global _tell
    _tell = tell


def kernel(function: Callable) -> Callable:
    """Mark ``function`` as a kernel of its module: what :func:`load_kernels` hands out when the
    compiled module is missing. It stays the plain Python function it is."""
    function.is_kernel = True
    return function


def kernels_mode() -> str:
    """The kernels this process asks for: the compiled ones (the default), or ``$PLACESAT_KERNELS``
    = "python"."""
    return PYTHON if os.environ.get(KERNELS_ENV, "").strip().lower() == PYTHON else COMPILED


def load_kernels(module: str, kernels: str, extension: str) -> Any:
    """The kernels of ``module``: the compiled extension module ``extension`` (its full name,
    e.g. "placesat.lixso._grader") when it imports and the process did not ask for Python;
    otherwise a namespace of ``module``'s functions marked :func:`kernel`, and, when the
    compiled module is missing, one line to the user (``kernels`` names them, e.g. "the Lixso
    grader"), once per process."""
    mode = kernels_mode()
    key = (module, mode)
    if key not in _loaded:
        compiled = None
        if mode == COMPILED:
            try:
                compiled = importlib.import_module(extension)
            except ImportError:
                _fall_back(kernels)
        _loaded[key] = compiled if compiled is not None else python_kernels(module)
    return _loaded[key]


def python_kernels(module: str) -> SimpleNamespace:
    """``module``'s kernels as the plain Python functions they are (imported if need be)."""
    namespace = vars(importlib.import_module(module))
    return SimpleNamespace(**{name: value for name, value in namespace.items()
                              if callable(value) and getattr(value, "is_kernel", False)})


def _fall_back(kernels: str) -> None:
    if _tell is not None and kernels not in _told:
        _told.add(kernels)
        _tell(f"{kernels} runs as plain Python (much slower): this install has no compiled kernels; "
              f"reinstall with a C compiler present: {REINSTALL}")
