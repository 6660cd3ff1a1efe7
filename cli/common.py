"""What every command group shares: the backend option, error exits, output helpers."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

from solver.core.backend import BACKENDS, DEFAULT_BACKEND

EXIT_OK = 0
EXIT_NOT_ALL_GOOD = 1
EXIT_BAD_INPUT = 2

BACKEND_HELP = f"Solver backend: {' or '.join(BACKENDS)} (default {DEFAULT_BACKEND}, the faster here)."


def check_backend(name: str) -> str:
    """The backend name, or a usage error naming the choices."""
    if name not in BACKENDS:
        fail(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    return name


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print a one-line error on stderr and exit (2 by default: bad input or usage)."""
    typer.echo(f"placesat: error: {message}", err=True)
    raise typer.Exit(code)


def print_json(obj: Any) -> None:
    """One JSON object on one line of stdout."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()
