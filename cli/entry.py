"""The ``placesat`` program's entry point: stop signals are answered from its first moment.

Loading the command line (typer, click, then the game a command names) takes a tenth of a
second or more. A Ctrl-C or SIGTERM in that time would otherwise end in a traceback from
whichever module was loading. Nothing is under way yet that a ``finally`` must undo, so
the process ends at once, with the line and exit code :func:`placesat.cli.main.main` gives any stop.
The handlers are set as this module is imported, before anything else of placesat loads
(what runs before it is the interpreter's own start-up and the ``placesat`` script's first
import). Once ``main`` runs, its own handlers take over; when it has ended, stops are ignored,
and the process leaves without the interpreter's teardown (:func:`_leave`).
"""

from __future__ import annotations

import os
import signal
import sys

_REASONS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}


def _stop_while_loading(signum: int, frame: object) -> None:
    reason, code = _REASONS.get(signum, ("stopped", 1))
    try:
        os.write(2, f"placesat: {reason}\n".encode())
    except OSError:  # no standard error to say it on
        pass
    os._exit(code)


def answer_stops_while_loading() -> None:
    """SIGINT and SIGTERM end the process at once (one line on stderr, exit 130 or 143)."""
    signal.signal(signal.SIGINT, _stop_while_loading)
    signal.signal(signal.SIGTERM, _stop_while_loading)


answer_stops_while_loading()  # first: every import below already takes time

from placesat.core.outputs import EXIT_OUTPUT_FAILED, OutputFailed, guard_standard_output  # noqa: E402
from placesat.core.signals import ignore_stops  # noqa: E402


def main() -> None:
    answer_stops_while_loading()
    guard_standard_output()
    from placesat.cli.main import main as run

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
    closed by the command; worker pools were shut down).

    Standard output that cannot take the rest of what was printed (a full device) ends with
    one line and exit code 74; a reader that went away, with the code the command had or 1."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # a message, as sys.exit("...") gives: Python prints it and ends with 1
        _say(f"{code}\n")
        status = 1
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OutputFailed as failure:
        _say(f"placesat: error: {failure}\n")
        status = EXIT_OUTPUT_FAILED
    except (BrokenPipeError, OSError):
        status = status or 1  # the reader went away: what was printed did not all arrive
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except OSError:
        pass
    os._exit(status)


def _say(text: str) -> None:
    """A line on standard error, if there is one to say it on."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(text)
    except OSError:
        pass
