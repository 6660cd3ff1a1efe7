"""The ``placesat`` application: one command group per game."""

from __future__ import annotations

import typer

from . import laido
from . import lixso
from . import logisticks

app = typer.Typer(
    name="placesat",
    help="Compile the placement rules of board games and puzzles into SAT and CP-SAT, and answer questions with them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(lixso.app, name="lixso")
app.add_typer(laido.app, name="laido")
app.add_typer(logisticks.app, name="logisticks")

if __name__ == "__main__":
    app()
