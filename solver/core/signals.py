"""Stopping cleanly: Ctrl-C, SIGTERM, and worker processes that die with their parent.

A command stops on SIGINT (Ctrl-C) or SIGTERM by raising :class:`Interrupted` or
:class:`Terminated` in the main thread. Both are ``BaseException``s, so no
``except Exception`` in a query can mistake a stop for an ordinary failure and carry on,
and every ``finally`` still runs (temporary files removed, worker processes stopped).
The command line turns them into one line and exit code 130 or 143.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys


class Stop(BaseException):
    """The user or the system asked the command to stop; there is no answer."""

    exit_code = 1
    reason = "stopped"


class Interrupted(Stop):
    """SIGINT (Ctrl-C)."""

    exit_code = 130
    reason = "interrupted"


class Terminated(Stop):
    """SIGTERM."""

    exit_code = 143
    reason = "terminated"


_pending: type[Stop] | None = None
"""The stop asked for, once a signal came: kept, because the exception that carries it can
be swallowed where Python cannot pass exceptions on (a ``__del__`` that was running when the
signal came prints "Exception ignored" and carries on)."""


def _raise_interrupted(signum: int, frame: object) -> None:
    global _pending
    _pending = Interrupted
    raise Interrupted()


def _raise_terminated(signum: int, frame: object) -> None:
    global _pending
    _pending = Terminated
    raise Terminated()


@contextlib.contextmanager
def held_stops():
    """A stretch that a stop must not cut in two (a result counted and its line printed): a
    SIGINT or SIGTERM that comes inside it is held back by the system and taken at its end."""
    stops = {signal.SIGINT, signal.SIGTERM}
    held = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def raise_if_stopped() -> None:
    """Raise the stop a signal asked for, if one did: every deadline check and every solver
    slice calls this, so a stop that was swallowed on its way still ends the command."""
    if _pending is not None:
        raise _pending()


def pending_stop() -> type[Stop] | None:
    """The kind of stop a signal asked for (None: none came)."""
    return _pending


def _unraisable(report: sys.UnraisableHookArgs) -> None:
    """Python's report of an exception it had to swallow, except for a stop: that one is
    pending (:func:`raise_if_stopped` raises it again), and the user pressed Ctrl-C to end
    the command, not to read about a destructor."""
    if isinstance(report.exc_value, Stop):
        return
    sys.__unraisablehook__(report)


def install_stop_handlers() -> None:
    """Make SIGINT raise :class:`Interrupted` and SIGTERM raise :class:`Terminated` (main thread)."""
    signal.signal(signal.SIGINT, _raise_interrupted)
    signal.signal(signal.SIGTERM, _raise_terminated)
    sys.unraisablehook = _unraisable


def ignore_stops() -> None:
    """Ignore SIGINT and SIGTERM from now on: for a program whose command has ended and said
    so. A stop can change nothing then, and once Python's shutdown has put back the default
    handlers it would end the process with no word and a signal's exit status (a Ctrl-C in
    the last 30 ms of `placesat lixso id` did, 5 times in 30 tries)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def prepare_worker() -> None:
    """Set up a worker process: it leaves Ctrl-C to its parent, dies on SIGTERM without
    Python's help, and dies when its parent does (Linux: a parent-death signal)."""
    parent = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's own shutdown still stops us
        pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
