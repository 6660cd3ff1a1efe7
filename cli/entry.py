"""The ``placesat`` program's entry point: stop signals are answered from its first moment.

Loading the command line (typer, click, then the game a command names) takes a tenth of a
second or more. A Ctrl-C or SIGTERM in that time would otherwise end in a traceback from
whichever module was loading. Nothing is under way yet that a ``finally`` must undo, so
the process ends at once, with the line and exit code :func:`cli.main.main` gives any stop.
Once ``main`` runs, its own handlers take over; when it has ended, stops are ignored, and
the process leaves without the interpreter's teardown (:func:`_leave`).
"""

from __future__ import annotations

import os
import signal
import sys

from solver.core.signals import Interrupted, Terminated, ignore_stops


def _stop_while_loading(signum: int, frame: object) -> None:
    stop = Interrupted if signum == signal.SIGINT else Terminated
    os.write(2, f"placesat: {stop.reason}\n".encode())
    os._exit(stop.exit_code)


def answer_stops_while_loading() -> None:
    """SIGINT and SIGTERM end the process at once (one line on stderr, exit 130 or 143)."""
    signal.signal(signal.SIGINT, _stop_while_loading)
    signal.signal(signal.SIGTERM, _stop_while_loading)


def main() -> None:
    answer_stops_while_loading()
    from cli.main import main as run

    code: object = 0
    try:
        run()
    except SystemExit as end:
        code = end.code
    finally:
        # the command has ended and said so: from here a stop is ignored (see ignore_stops)
        ignore_stops()
    _leave(code)


def _leave(code: object) -> None:
    """End the process with ``code`` once what it printed is out, without the interpreter's
    teardown: freeing a large grid's rules and solver took 0.6 s after a 30x30 answer (past the
    time limit the user gave), and there is nothing left to save (outputs were written and
    closed by the command; worker pools were shut down)."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # a message, as sys.exit("...") gives: Python prints it and ends with 1
        sys.stderr.write(f"{code}\n")
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        status = status or 1  # the reader went away: what was printed did not all arrive
    os._exit(status)
