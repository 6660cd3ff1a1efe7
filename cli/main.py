"""The ``placesat`` application: one command group per game.

Only the group a command line names is imported (each game's modules take a moment to
load), so ``placesat lixso solve`` pays for Lixso alone; ``placesat --help`` loads them all.
"""

from __future__ import annotations

import importlib
import sys

import typer

GROUPS = ("lixso", "logisticks", "laido")


def _named_group(argv: list[str]) -> str | None:
    """The game group a command line asks for, if it names one."""
    for arg in argv[1:]:
        if not arg.startswith("-"):
            return arg if arg in GROUPS else None
    return None


def build(argv: list[str]) -> typer.Typer:
    """The typer app with the groups ``argv`` needs (every group when it names none)."""
    application = typer.Typer(
        name="placesat",
        help="Compile the placement rules of board games and puzzles into SAT and CP-SAT, and answer questions with them.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    named = _named_group(argv)
    for group in GROUPS:
        if named is None or group == named:
            module = importlib.import_module(f"cli.{group}")
            application.add_typer(module.app, name=group)
    return application


app = build(sys.argv)

if __name__ == "__main__":
    app()
