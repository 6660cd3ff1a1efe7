"""``placesat lixso``: solve, check."""

from __future__ import annotations

import typer

app = typer.Typer(help="Lixso: cover a grid with coloured L-tiles; same colours never touch.", no_args_is_help=True)
