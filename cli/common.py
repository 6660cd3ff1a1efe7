"""What every command group shares: the app and its options, error exits, output helpers.

A game's CLI module builds its group with :func:`make_group`, registers commands with
:func:`command`, and takes its common options from here (``--backend``, ``--time-limit``,
``--json``, ``--out``), so every game checks them the same way. Bad input is raised as an
:class:`placesat.core.errors.InputError` anywhere below; :mod:`placesat.cli.main` turns it into one
line on stderr and exit code 2.
"""

from __future__ import annotations

import inspect
import json
from contextlib import contextmanager
import re
import sys
from typing import Any, Callable, Iterator, NoReturn, Optional

import click.parser as click_parser
import typer
import typer.core

from placesat.core.backend import BACKENDS, DEFAULT_BACKEND
from placesat.core.dfpn import DEFAULT_TABLE_MB, SEARCHES
from placesat.core.errors import InputError, escape_controls
from placesat.core.limits import TimeLimit, check_time_limit
from placesat.core.outputs import prepare_output_folder, resolve_output, write_atomic

EXIT_OK = 0
EXIT_NOT_ALL_GOOD = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70

BACKEND_HELP = f"Solver backend: {' or '.join(BACKENDS)} (default {DEFAULT_BACKEND}, the faster here)."
STDIN_NOTE = "'-' reads standard input."


def make_group(help_text: str) -> typer.Typer:
    """A command group: plain help text (fast to print, brackets shown as typed)."""
    text = _unwrap(help_text)
    return typer.Typer(help=text, short_help=summary(text), no_args_is_help=True, rich_markup_mode=None, add_completion=False)


def summary(text: str) -> str:
    """The first sentence of a help text, whole: what a group's --help lists beside each
    command (click's own summary stops at 45 characters or the terminal's width, with '...')."""
    first = (text or "").split("\n\n", 1)[0].strip()
    end = re.search(r"[.?!](\s|$)", first)
    return first[: end.start() + 1] if end else first


def _unwrap(text: str) -> str:
    """Paragraphs joined into single lines, so the help printer wraps them to the terminal."""
    paragraphs = inspect.cleandoc(text or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


_NEGATIVE_START = re.compile(r"-[0-9]")


class _ArgumentsMayStartWithMinus(click_parser._OptionParser):
    """The command line's parser, reading a word that starts with a minus and a digit
    (``-1,0 E+``, ``-4,2``) as an argument when no option of that name exists: half of an LSD
    field and of a Laido board has negative coordinates, and click took ``'-1,0 E+'`` for an
    unknown option ``-1`` (quoting could not help). An option's value (``--x -1``) was always
    read as one."""

    def _process_opts(self, arg: str, state: Any) -> None:
        if _NEGATIVE_START.match(arg) and arg.split("=", 1)[0] not in self._long_opt and arg[:2] not in self._short_opt:
            state.largs.append(arg)
            return
        super()._process_opts(arg, state)


class _Command(typer.core.TyperCommand):
    """A command whose arguments may start with a minus (see :class:`_ArgumentsMayStartWithMinus`)."""

    def make_parser(self, ctx: Any) -> Any:
        parser = _ArgumentsMayStartWithMinus(ctx)
        for param in self.get_params(ctx):
            param.add_to_parser(parser, ctx)
        return parser


def command(app: typer.Typer, name: str | None = None) -> Callable[[Callable], Callable]:
    """Register a function as a command of ``app``, its docstring's paragraphs unwrapped for --help."""

    def register(func: Callable) -> Callable:
        func.__doc__ = _unwrap(func.__doc__ or "")
        return app.command(name, cls=_Command, short_help=summary(func.__doc__))(func)

    return register


# --------------------------------------------------------------------------- options


def seconds_callback(value: Optional[float]) -> Optional[float]:
    """Check a seconds option (see :func:`time_limit_option`)."""
    try:
        return check_time_limit(value)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


def _command_seconds(value: Optional[float]) -> Optional[float]:
    """A whole command's time limit, its clock started now, as the options are read: reading
    the input and building the model come out of it too (see
    :class:`placesat.core.limits.TimeLimit`)."""
    seconds = seconds_callback(value)
    return None if seconds is None else TimeLimit(seconds)


def time_limit_option(help_text: str = "Seconds for the whole command; past it the answer is 'unknown', never a guess (exit 1).") -> Any:
    """``--time-limit SECONDS``: finite, not negative, at most :data:`placesat.core.limits.MAX_TIME_LIMIT`."""
    return typer.Option(None, "--time-limit", "-t", metavar="SECONDS", callback=_command_seconds, help=help_text)


def _backend(value: str) -> str:
    if value not in BACKENDS:
        raise typer.BadParameter(f"unknown backend {value!r}; choose {' or '.join(BACKENDS)}")
    return value


SLOW_BACKENDS: dict[tuple[str, str], str] = {
    ("lsd reach", "cpsat"): "cpsat is far slower here than sat, the default (measured: -k 6 5-8x, -k 12 about 100x: 201 s against 2 s)",
    ("laido reach", "sat"): "sat is far slower here than cpsat, the default (measured: race9 -k 4 9.3 s against 1.9 s, 5x)",
    ("quarry reach", "sat"): "sat is far slower here than cpsat, the default, whose LP proves the bounds (measured: the empty board's fewest stones 57 s against 1 s)",
}
"""The (command, backend) pairs measured far slower than the command's default (docs/performance.md):
the command's --help says so, and the command says it once on stderr when that backend is asked for."""


def backend_option(default: str = DEFAULT_BACKEND, help_text: str | None = None, command_name: str | None = None) -> Any:
    """``--backend sat|cpsat``; ``command_name`` ("lsd reach") looks the command up in
    :data:`SLOW_BACKENDS`, for its help and its warning."""
    slow = {backend: note for (name, backend), note in SLOW_BACKENDS.items() if name == command_name}
    text = help_text or BACKEND_HELP
    if slow:
        text += " " + " ".join(f"Warning: {note}." for note in slow.values())

    def check(value: str) -> str:
        value = _backend(value)
        if value in slow:
            warn(slow[value])
        return value

    return typer.Option(default, "--backend", "-b", callback=check, help=text)


def _search(value: Optional[str]) -> Optional[str]:
    if value is not None and value not in SEARCHES:
        raise typer.BadParameter(f"unknown search {value!r}; choose {' or '.join(SEARCHES)}")
    return value


def search_option() -> Any:
    """``--search dfpn|id`` (hidden, for measuring): the forced search, proof numbers or
    iterative deepening; None leaves the game's default (docs/performance.md)."""
    return typer.Option(None, "--search", hidden=True, callback=_search,
                        help=f"The forced search: {' or '.join(SEARCHES)} (default: the game's faster one).")


def _megabytes(value: float) -> float:
    if not (value > 0 and value <= 1 << 20):
        raise typer.BadParameter(f"must be above 0 and at most {1 << 20} megabytes, not {value:g}")
    return value


def table_mb_option() -> Any:
    """``--tt-mb MB``: the cap of the forced search's transposition table."""
    return typer.Option(DEFAULT_TABLE_MB, "--tt-mb", metavar="MB", callback=_megabytes,
                        help=f"Megabytes the forced search's position table may hold (estimated; when full it drops the positions with the least work below them, never grows; default {DEFAULT_TABLE_MB}).")


def json_option(help_text: str = "Print the answer as JSON (one object per line).") -> Any:
    """``--json``."""
    return typer.Option(False, "--json", help=help_text)


def check_backend(name: str) -> str:
    """The backend name, or a usage error naming the choices."""
    if name not in BACKENDS:
        fail(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    return name


def certify_option(what: str) -> Any:
    """``--certify``: every answer ``what`` names (the ones that rest on a proof that nothing
    else exists) comes with a checked proof."""
    return typer.Option(
        False, "--certify",
        help=f"Certify {what}: the SAT backend re-proves it on a fresh solver that writes a DRUP proof, "
             "and an independent checker replays the proof.",
    )


def _checkers(value: str) -> tuple[str, ...]:
    from placesat.core.certify import CHECKERS

    if value == "both":
        return CHECKERS
    if value not in CHECKERS:
        raise typer.BadParameter(f"unknown checker {value!r}; choose {', '.join(CHECKERS)} or both")
    return (value,)


DEFAULT_CHECKER = "dratify"


def checker_option() -> Any:
    """``--checker dratify|dratify-python|both`` (with ``--certify``)."""
    return typer.Option(
        None, "--checker", metavar="CHECKER", show_default=False,
        help=f"Proof checker for --certify: {DEFAULT_CHECKER} (native engine, fast; the default), dratify-python "
             "(pure Python, an independent implementation) or both (each must accept).",
    )


def checkers_of(value: str | None, certify: bool) -> tuple[str, ...]:
    """The checkers ``--certify`` uses (none without it) as ``--checker`` names them; a usage
    error for an unknown one, and for ``--checker`` without ``--certify`` (it would do nothing)."""
    if not certify:
        if value is not None:
            fail("--checker needs --certify")
        return ()
    try:
        return _checkers(value or DEFAULT_CHECKER)
    except typer.BadParameter as error:
        fail(f"--checker: {error}")


def proof_dir_option() -> Any:
    """``--proof-dir DIR`` (with ``--certify``)."""
    return typer.Option(
        None, "--proof-dir", metavar="DIR",
        help="With --certify: write each certificate as NAME.cnf and NAME.drat in DIR (created if missing), "
             "to re-check with any DRAT checker (drat-trim NAME.cnf NAME.drat).",
    )


# --------------------------------------------------------------------------- exits and output


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print a one-line error on stderr and exit (2 by default: bad input or usage)."""
    typer.echo(escape_controls(f"placesat: error: {message}"), err=True)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """A one-line warning on stderr."""
    typer.echo(escape_controls(f"placesat: warning: {message}"), err=True)


def print_json(obj: Any) -> None:
    """One JSON object on one line of stdout."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def output_path(path: Optional[str], json_output: bool = False, option: str = "--out") -> Optional[str]:
    """Check an output path before the work starts (an ``InputError`` when it cannot be written).

    With ``json_output`` the command's JSON goes to standard output, so this output (given as
    ``option``) cannot go there too: ``-`` is a usage error rather than two documents mixed.
    """
    if json_output and path == "-":
        fail(f"{option} must name a file with --json, not '-' (the JSON goes to standard output)")
    if path is not None:
        resolve_output(path)
    return path


def side_outputs(json_output: bool, **paths: Optional[str]) -> bool:
    """Check the files a command writes beside its report (``svg=...``, ``out=...``: the
    options without their dashes) before the work starts, and say whether one of them is
    ``-``. That one then has standard output to itself: the command leaves its text report
    out (the exit code still tells the outcome). Refused: ``-`` with --json, whose JSON is the
    report, and ``-`` for two outputs at once."""
    to_stdout = [f"--{name}" for name, path in paths.items() if path == "-"]
    if len(to_stdout) > 1:
        fail(f"{' and '.join(to_stdout)} cannot both be '-': standard output holds one document")
    for name, path in paths.items():
        output_path(path, json_output, f"--{name}")
    return bool(to_stdout)


def answer_picture(path: Optional[str], option: str = "--svg") -> Optional[str]:
    """Check a picture that only some answers draw (a reach's "yes") before the work starts:
    ``-`` is refused, since the answer itself goes to standard output and may draw nothing."""
    if path == "-":
        fail(f"{option} must name a file here: only some answers draw a picture, and the answer goes to standard output")
    return output_path(path, option=option)


def output_folder(path: Optional[str]) -> Optional[str]:
    """Create an output folder before the work starts (an ``InputError`` when it cannot be)."""
    if path is not None:
        prepare_output_folder(path)
    return path


def write_output(path: str, text: str | bytes) -> None:
    """Write a result atomically (``-``: standard output); refuses devices, FIFOs and folders."""
    write_atomic(path, text)


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (colour and pictures) rather than a pipe (plain text)."""
    return sys.stdout.isatty()


def console(stderr: bool = False):
    """A rich console: colour in a terminal, plain text in a pipe."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


class _Quiet:
    """What :func:`progress` and :func:`spinner` give when stderr is not a terminal: they
    show nothing there, so rich (30 ms to import) is not loaded for them."""

    def __enter__(self) -> "_Quiet":
        return self

    def __exit__(self, *exc: object) -> bool:
        return False

    def add_task(self, *args: object, **kwargs: object) -> int:
        return 0

    def advance(self, *args: object, **kwargs: object) -> None:
        pass

    def update(self, *args: object, **kwargs: object) -> None:
        pass


def progress(label: str):
    """A progress bar on stderr (only when stderr is a terminal); use ``add_task(..., total=N)``."""
    if not sys.stderr.isatty():
        return _Quiet()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    )


class _BatchProgress:
    """One line on a terminal's stderr: puzzles done, the rate, and the time left."""

    def __init__(self, label: str, fraction: Callable[[], float | None] | None, total: int | None) -> None:
        import time

        self.label, self.fraction, self.total = label, fraction, total
        self.done = 0
        self.clock = time.monotonic
        self.start = self.shown_at = self.clock()

    def __enter__(self) -> "_BatchProgress":
        return self

    def __exit__(self, *exc: object) -> bool:
        if self.shown_at > self.start:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        return False

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if now - self.shown_at < 0.25:
            return
        self.shown_at = now
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        share = self.done / self.total if self.total else (self.fraction() if self.fraction else None)
        left = ""
        if share and share > 0:
            seconds = elapsed * (1 - share) / share
            left = f", {int(seconds // 3600)}:{int(seconds % 3600 // 60):02d}:{int(seconds % 60):02d} left"
        of = f" of {self.total}" if self.total else ""
        sys.stderr.write(f"\r\033[K{self.label}: {self.done}{of} puzzles, {rate:.1f}/s{left}")
        sys.stderr.flush()


def batch_progress(label: str, fraction: Callable[[], float | None] | None = None, total: int | None = None):
    """Progress of a long batch on stderr (a terminal only): puzzles done, rate, time left
    (from ``total`` puzzles, else from ``fraction()``, the share of the input read). Use as a
    context manager; ``advance()`` once per puzzle."""
    if not sys.stderr.isatty():
        return _Quiet()
    return _BatchProgress(label, fraction, total)


def spinner(label: str):
    """A 'working...' line on stderr with elapsed time, for one long call (terminal only).

    Use as a context manager; ``update(text)`` changes the label.
    """
    if not sys.stderr.isatty():
        return _Quiet()
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    bar = Progress(
        SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    )

    class _Spinner:
        def __enter__(self):
            bar.__enter__()
            self.task = bar.add_task(label, total=None)
            return self

        def update(self, text: str) -> None:
            bar.update(self.task, description=text)

        def __exit__(self, *exc):
            return bar.__exit__(*exc)

    return _Spinner()


# --------------------------------------------------------------------------- proof files


def proof_option() -> Any:
    """``--proof FILE`` on ``forced``: the strategy of a win as a proof file."""
    return typer.Option(
        None, "--proof", metavar="FILE",
        help="When the answer is a win: write the whole replayed strategy as a proof file (JSON: every reply of the "
             "others, each with the answer to it), for 'check-proof' to replay on the rules. Written only for a win.",
    )


def proof_output(path: Optional[str]) -> Optional[str]:
    """Check ``--proof FILE`` before the work starts: a file, not ``-`` (only a win writes a
    proof, and the answer itself goes to standard output)."""
    if path == "-":
        fail("--proof must name a file: only a win writes a proof, and the answer goes to standard output")
    return output_path(path, option="--proof")


def write_proof(path: Optional[str], document: Optional[dict], answer: str, within: Optional[int] = None) -> None:
    """Write a proof file (atomically) when there is one; else say on stderr that none was
    written, and why (``answer``: the forced answer; ``within`` 0: won already, no move to prove)."""
    if path is None:
        return
    if document is None:
        why = "the goal holds already: there is no move to prove" if within == 0 else f"the answer is '{answer}', not a win"
        warn(f"no proof written to {path}: {why}")
        return
    from placesat.core.proof import proof_text

    write_output(path, proof_text(document))


def load_proof(path: str) -> Any:
    """A proof file decoded (strict JSON, ``-`` for standard input); bad JSON is bad input."""
    from placesat.core.inputs import load_json

    return load_json(path)


def check_proof_file(path: str, check: Callable[[Any], Any]) -> Any:
    """Read the proof file at ``path`` and run ``check(data)`` on it: the verdict, or None when
    the time limit came first. A structural fault of the file is bad input naming the file."""
    from placesat.core.limits import TimeUp

    try:
        with proof_errors(path):
            return check(load_proof(path))
    except TimeUp:
        return None


def report_proof(verdict, path: str, json_output: bool) -> NoReturn:
    """Print a ``check-proof`` verdict and exit: 0 valid, 1 invalid (the reason and where) or
    unknown (``verdict`` None: the time limit came first)."""
    if verdict is None:
        if json_output:
            print_json({"file": path, "valid": None, "reason": "the time limit came first"})
        else:
            typer.echo("unknown: the time limit came first; the proof was not checked to the end")
        raise typer.Exit(EXIT_NOT_ALL_GOOD)
    if json_output:
        print_json({"file": path, **verdict.to_json()})
    else:
        typer.echo(escape_controls(verdict.words()))
    raise typer.Exit(EXIT_OK if verdict.valid else EXIT_NOT_ALL_GOOD)


@contextmanager
def proof_errors(path: str) -> Iterator[None]:
    """A context in which a proof file's structural fault (an ``InputError`` with its JSON path)
    is reported with the file's name: bad input, exit 2."""
    from placesat.core.inputs import display_name

    try:
        yield
    except InputError as error:
        raise error.located(display_name(path)) from None


__all__ = [
    "BACKEND_HELP", "EXIT_BAD_INPUT", "EXIT_INTERNAL", "EXIT_NOT_ALL_GOOD", "EXIT_OK", "InputError", "STDIN_NOTE",
    "backend_option", "certify_option", "check_backend", "checker_option", "checkers_of", "proof_dir_option", "seconds_callback", "command", "console", "fail", "json_option", "make_group", "output_folder", "output_path",
    "check_proof_file", "load_proof", "print_json", "proof_errors", "proof_option", "proof_output", "progress", "report_proof", "spinner", "stdout_is_terminal", "time_limit_option", "warn", "write_output", "write_proof",
]
