"""numba-compiled kernels: a first run on a machine compiles them, and says so.

The hot loops (the Lixso grader, the Laido sweep) are written for numba. Compiled ahead of
time (:func:`load_kernels`, below: the default), a process imports them in a millisecond,
without numba's half second of import and start-up; the first run on a machine (after an
install, or after a kernel's code changed) builds them for seconds to half a minute (the
Lixso grader about 25 s, the Laido sweep about 12 s), in a process of its own so that the
command's time limit still holds. Under numba's JIT (no C compiler, or asked for), numba
compiles a kernel on its first call and caches the machine code beside the module in
``__pycache__``. Either way a command that meets the wait says so instead of seeming to hang:
the caller that owns the terminal (the CLI) says how to tell the user with
:func:`on_compile`; a library caller that sets nothing hears nothing.
"""

from __future__ import annotations

import fcntl
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

from .limits import Deadline, TimeUp

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


# --- kernels compiled ahead of time --------------------------------------------------------
#
# numba's JIT cache still costs every process about 0.5 s before its first kernel call: 0.2 s
# to import numba, 0.2-0.3 s for its CPU target to start and read the cache. A module whose
# kernels are written for numba (marked with :func:`kernel`, not decorated with numba) can have
# them compiled once into a plain extension module (numba.pycc: machine code, numba's runtime
# included, nothing of numba needed to import it), which loads in a millisecond. When that
# cannot be done (no C compiler, numba without pycc), the same kernels run through numba's JIT
# as before.

KERNELS_ENV = "PLACESAT_KERNELS"  # "jit": numba's JIT only, never the compiled modules; "python": see PYTHON below
CACHE_ENV = "PLACESAT_CACHE_DIR"  # where compiled modules go (default: beside the code, else ~/.cache)
AHEAD, JIT = "ahead", "jit"
# in the compiled module's name with the kernels' source: a change here rebuilds every module
_RECIPE = "pycc-1"

# process-wide, as numba's own dispatchers are: each module's kernels, once loaded, by mode
_loaded: dict[tuple[str, str], Any] = {}


def kernel(function: Callable | None = None, **options: Any) -> Any:
    """Mark ``function`` as a kernel of its module, to be compiled by :func:`load_kernels`
    with numba's ``njit`` ``options`` (``cache=True`` always); it stays a plain Python function
    until then. Use as ``@kernel`` or ``@kernel(inline="always")``."""

    def mark(f: Callable) -> Callable:
        f.kernel_options = {"cache": True, **options}
        return f

    return mark(function) if function is not None else mark


def kernels_mode() -> str:
    """The kernels this process asks for: ahead-of-time modules (the default) or numba's JIT."""
    return JIT if os.environ.get(KERNELS_ENV, "").strip().lower() == JIT else AHEAD


# --- kernels compiled at install (Cython) ----------------------------------------------------
#
# (A stand-in, until the Lixso grader moves off numba too: the Laido sweep's kernels are
# compiled when placesat is installed, and :func:`load_kernels` given the name of their
# extension module imports it; given a function of numba signatures, it does as before.)

PYTHON = "python"  # $PLACESAT_KERNELS=python: the kernels' Python functions, never compiled ones

# process-wide: each module's kernels, once loaded
_installed: dict[str, Any] = {}


def load_kernels(module: str, kernels: str, extension: str | Callable[[], dict[str, Any]], mode: str | None = None,
                 deadline: Deadline | None = None) -> Any:
    """The kernels of ``module`` (its functions marked :func:`kernel`): the extension module
    ``extension``, compiled from them when placesat was installed; or, when the install has
    none (it had no C compiler; ``$PLACESAT_KERNELS=python`` asks for this), a namespace of
    ``module``'s kernel functions themselves, and the user is told once a process (through
    :func:`on_compile`'s line) that ``kernels`` (e.g. "the Laido sweep") run as plain Python.

    ``extension`` a function instead (numba signatures by name, for kernels not yet moved to
    the install's compile): :func:`_load_numba_kernels`, with ``mode`` and ``deadline``."""
    if callable(extension):
        return _load_numba_kernels(module, kernels, extension, mode, deadline)
    if module not in _installed:
        _installed[module] = _installed_kernels(module, kernels, extension)
    return _installed[module]


def _installed_kernels(module: str, kernels: str, extension: str) -> Any:
    import importlib

    if os.environ.get(KERNELS_ENV, "").strip().lower() != PYTHON:
        try:
            return importlib.import_module(extension)
        except ImportError:
            if _tell is not None and kernels not in _told:
                _told.add(kernels)
                _tell(f"{kernels} runs as plain Python (much slower): this install has no compiled kernels; "
                      "reinstall with a C compiler present: pip install --force-reinstall --no-cache-dir placesat")
    namespace = vars(importlib.import_module(module))
    return SimpleNamespace(**{name: value for name, value in namespace.items() if hasattr(value, "kernel_options")})


def _load_numba_kernels(module: str, kernels: str, exports: Callable[[], dict[str, Any]], mode: str | None = None,
                        deadline: Deadline | None = None) -> Any:
    """The compiled kernels of ``module`` (its functions marked :func:`kernel`): an object with
    one attribute per name of ``exports()`` (name -> numba signature; called only to compile;
    a function of ``module`` itself, which the build process looks up by its name).

    Ahead of time (``mode`` "ahead", the default): the extension module built from this very
    source, compiled first when missing (``kernels`` names them in the compile notice); when
    that fails, numba's JIT, and the failure is remembered beside the module's place so that
    later processes do not try again until the source changes. JIT: numba's dispatchers.

    The build runs in a process of its own, so that ``deadline`` holds while it runs: when it
    comes first, :class:`placesat.core.limits.TimeUp` (the build goes on, and the next run
    finds its module); a stop (Ctrl-C) ends the build too. numba's JIT, the fallback, compiles
    in this process and does not look at the deadline.
    """
    mode = mode or kernels_mode()
    key = (module, mode)
    if key not in _loaded:
        loaded = _ahead_of_time(module, kernels, exports, deadline) if mode == AHEAD else None
        _loaded[key] = loaded if loaded is not None else _jit(module, kernels)
    return _loaded[key]


def compiled_name(module: str) -> str:
    """The name of ``module``'s compiled kernels: the module's own name and a hash of its
    source, of the numbers in its namespace, of numpy's version (the extension is built
    against its C interface) and of how it is built, so that any change makes a new module.

    The numbers are there because the kernels take the module's global constants as they are
    when compiled, and some come from other modules (the Laido sweep's codes, from
    ``sweep.py``): a change there, not in this source, must not leave old constants in
    machine code. (numba's own cache looks at the source file only.)"""
    import hashlib

    import numpy

    namespace = vars(sys.modules[module])
    source = Path(namespace["__file__"]).read_bytes()
    numbers = repr(sorted((name, value) for name, value in namespace.items()
                          if not name.startswith("__") and type(value) in (int, float, bool)))
    digest = hashlib.sha256(b"\0".join([source, numbers.encode(), numpy.__version__.encode(), _RECIPE.encode()])).hexdigest()[:16]
    return f"_{module.rsplit('.', 1)[-1]}_kernels_{digest}"


def cache_dirs(module: str) -> list[Path]:
    """Where ``module``'s compiled kernels may be, in the order tried: ``$PLACESAT_CACHE_DIR``
    when set, else the module's ``__pycache__`` (numba's cache is there too), then
    ``~/.cache/placesat`` (``$XDG_CACHE_HOME``) for an install one cannot write to."""
    if os.environ.get(CACHE_ENV):
        return [Path(os.environ[CACHE_ENV])]
    beside = Path(sys.modules[module].__file__).parent / "__pycache__"
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "placesat"
    return [beside, home]


def _ahead_of_time(module: str, kernels: str, exports: Callable[[], dict[str, Any]], deadline: Deadline | None) -> Any:
    import sysconfig

    name = compiled_name(module)
    filename = name + sysconfig.get_config_var("EXT_SUFFIX")
    places = cache_dirs(module)
    for place in places:
        found = _import_extension(name, place / filename)
        if found is not None:
            return found
    if any((place / (name + ".failed")).exists() for place in places):
        return None  # it failed before, for this very source: the JIT
    for place in places:
        try:
            place.mkdir(parents=True, exist_ok=True)
            (place / (name + ".lock")).touch()
        except OSError:
            continue  # not writable: the next place
        _announce(kernels)
        try:
            _build(module, name, exports, place, filename, deadline)
        except (BuildFailed, OSError) as error:  # no compiler, no pycc, a kernel pycc cannot take: the JIT
            (place / (name + ".failed")).write_text(f"{type(error).__name__}: {error}\n")
            return None
        return _import_extension(name, place / filename)
    return None


class BuildFailed(Exception):
    """The ahead-of-time build of a module of kernels did not succeed (its message says why)."""


# the build process: it finds the modules this one finds, then builds (see _compile)
_BUILDER = """
import json, sys
request = json.loads(sys.argv[1])
sys.path[:0] = request.pop("path")
from placesat.core.compiled import _build_here
sys.exit(_build_here(**request))
"""


def _build(module: str, name: str, exports: Callable[[], dict[str, Any]], place: Path, filename: str,
           deadline: Deadline | None = None) -> None:
    """Have ``module``'s exported kernels compiled into ``place / filename`` by a process of
    its own, and wait for it (:func:`load_kernels` says why); :class:`BuildFailed` when it
    fails. A process that finds another building the same module waits for that one."""
    import json
    import subprocess
    import tempfile

    request = {"path": sys.path, "module": module, "name": name, "exports": exports.__name__,
               "place": str(place), "filename": filename}
    # its own session: Ctrl-C at the terminal reaches this process, which decides what to stop
    with tempfile.TemporaryFile() as errors:
        builder = subprocess.Popen(
            [sys.executable, "-c", _BUILDER, json.dumps(request)], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True,
            env=dict(os.environ, TMPDIR=tempfile.gettempdir()),
        )
        try:
            while builder.poll() is None:
                if deadline is not None:
                    deadline.check()
                try:
                    builder.wait(0.05)
                except subprocess.TimeoutExpired:
                    pass
        except TimeUp:
            raise  # the build goes on by itself, for the next run
        except BaseException:
            builder.terminate()  # a stop: the builder cleans up and goes
            try:
                builder.wait(5)
            except subprocess.TimeoutExpired:
                builder.kill()
            raise
        if builder.returncode != 0:
            errors.seek(0)
            lines = errors.read().decode(errors="replace").strip().splitlines()
            raise BuildFailed(lines[-1] if lines else f"the build process ended with code {builder.returncode}")


def _build_here(module: str, name: str, exports: str, place: str, filename: str) -> int:
    """The build process's work (:func:`_build`): under the lock of ``name`` in ``place``, so
    that one process builds and the others wait, unless it is built already. Returns the exit
    code; a failure's last line on standard error says why."""
    import importlib
    import signal

    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))  # so that `finally` cleans up
    here = Path(place)
    with open(here / (name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (here / filename).is_file():
            return 0  # built by the process this one waited for
        try:
            importlib.import_module(module)
            _compile(module, name, getattr(sys.modules[module], exports), here, filename)
        except Exception as error:
            # one line (numba's typing errors take dozens), read by the process that waits
            print(f"{type(error).__name__}: {' '.join(str(error).split())[:500]}", file=sys.stderr)
            return 1
    return 0


def _compile(module: str, name: str, exports: Callable[[], dict[str, Any]], place: Path, filename: str) -> None:
    """Compile ``module``'s exported kernels into ``place / filename``, atomically: built in a
    private folder beside it, then renamed into place."""
    import shutil
    import tempfile
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is deprecated; it still does the job
        from numba.pycc import CC

    _jit_module(module)  # the kernels they call must be numba's, for pycc to follow the calls
    functions = sys.modules[module].__dict__
    build = Path(tempfile.mkdtemp(prefix=name + ".", dir=place))
    # numba's toolchain makes its own temporary folders and leaves some behind (a compiler
    # probe, an empty build folder): inside ours, they go with it
    tempdir, tempfile.tempdir = tempfile.tempdir, str(build)
    try:
        cc = CC(name)
        cc.output_dir = str(build)
        for export, signature in exports().items():
            cc.export(export, signature)(functions[export].py_func)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
        os.replace(build / filename, place / filename)
    finally:
        tempfile.tempdir = tempdir
        shutil.rmtree(build, ignore_errors=True)


def _import_extension(name: str, path: Path) -> Any:
    if not path.is_file():
        return None
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    try:
        extension = importlib.util.module_from_spec(spec)
        loader.exec_module(extension)
    except ImportError:
        return None  # unreadable or built for another interpreter: compiled again
    return extension


def _jit_module(module: str) -> dict[str, Any]:
    """Make every kernel of ``module`` a numba dispatcher, in the module itself (a kernel calls
    the others through its globals, and numba follows those calls): by name."""
    import numba

    namespace = sys.modules[module].__dict__
    jitted = {}
    for name, value in list(namespace.items()):
        if isinstance(value, numba.core.dispatcher.Dispatcher):
            jitted[name] = value
        elif callable(value) and hasattr(value, "kernel_options"):
            jitted[name] = namespace[name] = numba.njit(**value.kernel_options)(value)
    return jitted


def _jit(module: str, kernels: str) -> Any:
    announce_compiles(module, kernels)
    jitted = _jit_module(module)
    return SimpleNamespace(**jitted)


def _announce(kernels: str) -> None:
    if _tell is not None and kernels not in _told:
        _told.add(kernels)
        _tell(f"compiling {kernels} (once on this machine: it is kept for the next runs)...")
