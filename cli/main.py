"""The ``placesat`` application: one command group per game, and how every command ends.

Only the group a command line names is imported (each game's modules take a moment to
load), so ``placesat lixso solve`` pays for Lixso alone, and ``placesat --help`` lists the
groups by their one-line summaries without importing any.

:func:`main` is the one place where a command's end is decided: bad input or usage is one
line on stderr and exit code 2; Ctrl-C is one line and 130, SIGTERM one line and 143; a
defect in placesat itself is one line and 70 (``PLACESAT_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import copy
import importlib
import os
import re
import sys

import typer
import typer.core

# typer formats help with rich whenever rich is installed, even with rich_markup_mode=None:
# then it escapes brackets for rich (--help showed "\\[required]") and imports rich just to
# print help. We use rich ourselves, for results; typer's help stays plain click.
typer.core.HAS_RICH = False

GROUPS = ("lixso", "logisticks", "laido", "lsd", "quarry")
SUMMARIES = {
    "lixso": "Lixso: cover a grid with L-tiles of four colours; solve, prove unique, grade, hint, generate, print.",
    "logisticks": "Logi-Sticks: logic-gate pieces carrying TRUE/FALSE signals; the engine and circuit analysis.",
    "laido": "Laido: stones on a hexagonal board of triangles; scoring, reachable wins, forced wins, the best move.",
    "lsd": "LSD: tiles with half dots and capturing icons; four in a row; reachable and forced wins.",
    "quarry": "Quarry: a stacking connection game; 3-D placement rules, cheapest wins, threats.",
}
"""One line per group for ``placesat --help``, which lists the groups without importing them."""


SELFPLAY_SUMMARY = "Engine against engine: many games of one game; the first player's win rate, draws, game length, first moves."


def _names_selfplay(argv: list[str]) -> bool:
    """Whether the command line asks for the top-level ``selfplay`` command."""
    words = [arg for arg in argv[1:] if not arg.startswith("-")]
    return bool(words) and words[0] == "selfplay"


def _stand_in() -> None:
    """Listed in ``placesat --help`` without importing anything."""


def _available_groups() -> tuple[str, ...]:
    """The groups whose CLI module is installed (games arrive one by one)."""
    from importlib.util import find_spec

    return tuple(group for group in GROUPS if find_spec(f"placesat.cli.{group}") is not None)


def _named_group(argv: list[str]) -> str | None:
    """The game group a command line asks for, if it names one."""
    for arg in argv[1:]:
        if not arg.startswith("-"):
            return arg if arg in GROUPS else None
    return None


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("placesat")
    except Exception:  # running from a source tree that is not installed
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"placesat {_version()}")
        raise typer.Exit(0)


def build(argv: list[str]) -> typer.Typer:
    """The typer app with the groups ``argv`` needs (every group when it names none)."""
    application = typer.Typer(
        name="placesat",
        help="Compile the placement rules of board games and puzzles into SAT and CP-SAT, and answer questions with them.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )

    @application.callback()
    def root(
        version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."),
    ) -> None:
        """Compile the placement rules of board games and puzzles into SAT and CP-SAT, and answer questions with them."""

    named = _named_group(argv)
    if _names_selfplay(argv):
        from placesat.cli.common import command
        from placesat.cli.play import selfplay_command

        command(application, "selfplay")(selfplay_command)
    elif named is None:  # only listed: nothing imported
        application.command("selfplay", short_help=SELFPLAY_SUMMARY, help=SELFPLAY_SUMMARY)(_stand_in)
    for group in _available_groups():
        if group == named:
            module = importlib.import_module(f"placesat.cli.{group}")
            words = argv[1:]
            application.add_typer(_named_part(module.app, words[words.index(group) + 1 :]), name=group)
        elif named is None:  # only listed: a stand-in with the group's summary, nothing imported
            application.add_typer(typer.Typer(help=SUMMARIES[group], short_help=SUMMARIES[group], rich_markup_mode=None), name=group)
    return application


def _named_part(group_app: typer.Typer, rest: list[str]) -> typer.Typer:
    """``group_app`` with only the command (or sub-group, itself cut the same way) that ``rest``,
    the words after the group's name, names: typer turns every command it holds into a click
    command before it runs one (half of a group's start-up). Unchanged when ``rest`` names
    none of them (a group's own --help, or a misspelt command: click's message lists them)."""
    from typer.main import get_command_name

    words = [arg for arg in rest if not arg.startswith("-")]
    if not words or group_app.registered_callback is not None:  # a group's own options could take a word
        return group_app
    word = words[0]
    commands = [info for info in group_app.registered_commands if (info.name or get_command_name(info.callback.__name__)) == word]
    groups = [info for info in group_app.registered_groups if info.name == word]
    if not commands and not groups:
        return group_app
    part = copy.copy(group_app)
    part.registered_commands = commands
    part.registered_groups = [copy.copy(info) for info in groups]
    for info in part.registered_groups:
        info.typer_instance = _named_part(info.typer_instance, rest[rest.index(word) + 1 :])
    return part


_NUMBER = r"-?\d+(?:\.\d+)?"
_RANGE = re.compile(rf"^'?(?P<value>.*?)'? is not in the range (?P<lo>{_NUMBER})<=x<=(?P<hi>{_NUMBER})\.?$")
_LOW = re.compile(rf"^'?(?P<value>.*?)'? is not in the range x>=(?P<lo>{_NUMBER})\.?$")


def usage_message(error) -> str:
    """A click usage error as one line: ``--level: must be 1-6, not 7``."""
    import click

    message = error.message if hasattr(error, "message") else str(error)
    message = " ".join(str(message).split()).rstrip(".")
    message = re.sub(r"'([^']{40})[^']+'", r"'\1...'", message)  # a pasted novel is not echoed back
    if isinstance(error, click.MissingParameter):
        param = error.param
        if param is not None:
            names = [n for n in getattr(param, "opts", []) if n.startswith("--")]
            what = f"option {names[0]}" if names and isinstance(param, click.Option) else f"argument {(param.human_readable_name or param.name or '').upper()}"
            return f"missing {what}"
        return " ".join(error.format_message().split()).rstrip(".")
    if isinstance(error, click.BadParameter) and error.param is not None:
        param = error.param
        names = [n for n in getattr(param, "opts", []) if n.startswith("--")] or list(getattr(param, "opts", []))
        label = names[0] if names and isinstance(param, click.Option) else (param.human_readable_name or param.name).upper()
        match = _RANGE.match(message)
        low = _LOW.match(message)
        if match:
            message = f"must be {match['lo']}-{match['hi']}, not {match['value']}"
        elif low:
            message = f"must be at least {low['lo']}, not {low['value']}"
        return f"{label}: {message}"
    return message


def _command_path(argv: list[str]) -> str:
    words = ["placesat"]
    for depth, arg in enumerate(argv[1:3]):
        if arg.startswith("-") or (depth == 0 and arg not in GROUPS):
            break
        words.append(arg)
    return " ".join(words)


def main(argv: list[str] | None = None) -> None:
    """Run one command line and exit with its code (see the module docstring)."""
    import click

    from placesat.core.compiled import on_fallback
    from placesat.core.errors import InputError, escape_controls
    from placesat.core.limits import TimeUp
    from placesat.core.outputs import EXIT_OUTPUT_FAILED, OutputFailed
    from placesat.core.signals import Stop, install_stop_handlers

    argv = list(sys.argv if argv is None else argv)
    # kernels that run as plain Python (an install without a C compiler): say so, once
    on_fallback(lambda line: typer.echo(f"placesat: {line}", err=True))
    code = 0
    stdout = sys.stdout
    try:
        install_stop_handlers()  # inside the try, so that a stop from here on is one line
        application = build(argv)
        result = application(args=argv[1:], prog_name="placesat", standalone_mode=False)
        code = result if isinstance(result, int) else 0
    except click.exceptions.NoArgsIsHelpError as error:
        typer.echo(error.ctx.get_help())
        code = 0
    except click.UsageError as error:
        # the command the error is about: the group, for a command it does not have
        where = error.ctx.command_path if error.ctx is not None else _command_path(argv)
        typer.echo(escape_controls(f"placesat: error: {usage_message(error)} (see '{where} --help')"), err=True)
        code = 2
    except InputError as error:
        typer.echo(f"placesat: error: {error}", err=True)
        code = 2
    except TimeUp:
        typer.echo("unknown: the time limit came first")
        code = 1
    except Stop as stop:
        _quiet_stdout()
        typer.echo(f"placesat: {stop.reason}", err=True)
        code = stop.exit_code
    except click.Abort:  # a KeyboardInterrupt that click caught before our handler saw it
        typer.echo("placesat: interrupted", err=True)
        code = 130
    except BrokenPipeError:
        _quiet_stdout()
        code = 141
    except SystemExit:
        # click answers a closed pipe itself (`placesat ... | head`): it swaps the streams for
        # quiet ones and exits 1, which would read as a failed check; it is the broken pipe above
        if sys.stdout is stdout:
            raise
        _quiet_stdout()
        code = 141
    except OutputFailed as failure:
        sys.stdout = open(os.devnull, "w")  # what could not be written is dropped, not reported again at exit
        typer.echo(escape_controls(f"placesat: error: {failure}"), err=True)
        code = EXIT_OUTPUT_FAILED
    except MemoryError:
        typer.echo("placesat: error: out of memory", err=True)
        code = 1
    except Exception as error:
        stop = _stop_behind(error)
        if stop is not None:  # a native solver turned the signal into an error of its own
            _quiet_stdout()
            typer.echo(f"placesat: {stop.reason}", err=True)
            code = stop.exit_code
        elif os.environ.get("PLACESAT_DEBUG"):
            raise
        else:
            typer.echo(escape_controls(f"placesat: internal error: {type(error).__name__}: {error} (set PLACESAT_DEBUG=1 for the traceback)"), err=True)
            code = 70
    _flush_or_quiet()
    sys.exit(code)


def _stop_behind(error: Exception):
    """The stop an ordinary exception really stands for, if any: a signal that came while a
    native solver ran may surface as that library's own error (python-sat raises
    ``RuntimeError("Caught keyboard interrupt")`` when it handles Ctrl-C itself), or as any
    error once our handler has recorded the stop."""
    from placesat.core import signals

    if signals.pending_stop() is not None:
        return signals.pending_stop()
    if "keyboard interrupt" in str(error).lower():
        return signals.Interrupted
    return None


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so a broken pipe is not reported again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _flush_or_quiet() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
    except Exception:
        pass  # a full device is said once, where the program leaves (cli.entry._leave)


if __name__ == "__main__":
    main()
