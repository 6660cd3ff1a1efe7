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


# PLACESAT_TEST_SPAWN=1: every run_cli starts the installed script as a new process, as a user's
# shell does (by default a forked copy of the test process runs it: see _forked_run)
SPAWN = os.environ.get("PLACESAT_TEST_SPAWN", "") not in ("", "0")


@pytest.fixture
def run_cli():
    """Run the ``placesat`` command; returns a CompletedProcess (text mode) with its exit code,
    standard output and standard error.

    By default the command runs in a fork of the test process (``_forked_run``), started at
    the program's entry point with its own standard streams, working folder and environment:
    the same code path as the installed script, without the interpreter's start-up and the
    command line's imports each time (about 0.15 s of CPU a command, over 500 commands in the
    suite). ``fresh=True``, or PLACESAT_TEST_SPAWN=1 for every call, starts the real script."""

    def run(*args: str, cwd: Path | None = None, input: str | None = None, fresh: bool = False) -> subprocess.CompletedProcess:
        env = dict(os.environ, COLUMNS="120")
        if not (fresh or SPAWN) and hasattr(os, "fork"):
            return _forked_run(list(args), cwd=cwd or ROOT, input=input, env=env, timeout=300)
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


_PRELOADED = False


def _preload_command_line() -> None:
    """Import the command line and every game's commands once in the test process, so that a
    fork finds them loaded. Not ``placesat.cli.entry``: importing it sets the program's stop
    handlers, which would end the test process at a Ctrl-C."""
    global _PRELOADED
    if not _PRELOADED:
        import importlib

        from placesat.cli import main as command_line

        for group in command_line.GROUPS:
            importlib.import_module(f"placesat.cli.{group}")
        _PRELOADED = True


def _forked_run(args: list[str], *, cwd: Path, input: str | None, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    """``placesat ARGS`` run by a forked child of this process, as ``subprocess.run(...,
    capture_output=True, text=True)`` would report it: the child gets the given folder and
    environment, standard input from ``input`` (else /dev/null), standard output and error into
    files, fresh ``sys`` streams on them, no blocked signals, then calls the script's own
    ``main``, which ends the process with ``os._exit``. Past ``timeout`` it is killed and
    ``subprocess.TimeoutExpired`` raised, as ``subprocess.run`` does."""
    import io
    import locale
    import signal
    import tempfile
    import time

    _preload_command_line()
    encoding = locale.getpreferredencoding(False)
    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if input is not None:
            given.write(input.encode(encoding))
            given.seek(0)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            status = 1
            try:
                os.chdir(cwd)
                if input is None:
                    null = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(null, 0)
                    os.close(null)
                else:
                    os.dup2(given.fileno(), 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                os.environ.clear()
                os.environ.update(env)
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding=encoding)
                sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding=encoding)
                sys.stderr = sys.__stderr__ = io.TextIOWrapper(
                    io.BufferedWriter(io.FileIO(2, "w", closefd=False)), encoding=encoding, errors="backslashreplace", line_buffering=True)
                sys.argv = [str(Path(sys.executable).parent / "placesat"), *args]
                # what a new process has not done yet: announced a fallback, taken a stop
                from placesat.core import compiled, signals

                compiled._told.clear()
                signals._pending = None
                from placesat.cli.entry import main

                main()  # ends the process itself
                status = 0
            except SystemExit as end:
                status = end.code if isinstance(end.code, int) else 1
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(status)
        deadline = time.monotonic() + timeout
        pause = 0.0005
        while True:
            done, waited = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise subprocess.TimeoutExpired(["placesat", *args], timeout)
            time.sleep(pause)
            pause = min(pause * 2, 0.01)
        code = os.waitstatus_to_exitcode(waited)

        def text(stream) -> str:
            stream.seek(0)
            return stream.read().decode(encoding).replace("\r\n", "\n").replace("\r", "\n")

        return subprocess.CompletedProcess(["placesat", *args], code, text(out), text(err))
