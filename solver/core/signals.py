"""Stopping cleanly: Ctrl-C, SIGTERM, and worker processes that die with their parent.

A command stops on SIGINT (Ctrl-C) or SIGTERM by raising :class:`Interrupted` or
:class:`Terminated` in the main thread. Both are ``BaseException``s, so no
``except Exception`` in a query can mistake a stop for an ordinary failure and carry on,
and every ``finally`` still runs (temporary files removed, worker processes stopped).
The command line turns them into one line and exit code 130 or 143.
"""

from __future__ import annotations

import os
import signal


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


def _raise_interrupted(signum: int, frame: object) -> None:
    raise Interrupted()


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated()


def install_stop_handlers() -> None:
    """Make SIGINT raise :class:`Interrupted` and SIGTERM raise :class:`Terminated` (main thread)."""
    signal.signal(signal.SIGINT, _raise_interrupted)
    signal.signal(signal.SIGTERM, _raise_terminated)


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
