"""``placesat lixso``: solve grids and prove them unique; check a proposed solution."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from solver.core.backend import DEFAULT_BACKEND
from solver.core.errors import InputError
from solver.lixso.model import Grid, load_grid, load_pack
from solver.lixso.render import outlined, plain, svg
from solver.lixso.rules import find_violation
from solver.lixso.solve import LixsoSolver, SolveReport, Verdict

from .common import BACKEND_HELP, EXIT_BAD_INPUT, EXIT_NOT_ALL_GOOD, EXIT_OK, check_backend, fail, print_json

app = typer.Typer(
    help=(
        "Lixso: cover a grid with L-shaped tiles of four colours (I X S O). A coloured cell "
        "takes a tile of its colour; tiles of one colour never touch, not even by a corner."
    ),
    no_args_is_help=True,
)


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _svg_path(base: str, index: int, count: int) -> str:
    """Where the picture of grid ``index`` goes: ``base`` itself for one grid, numbered for several."""
    if count == 1:
        return base
    stem, ext = os.path.splitext(base)
    return f"{stem}-{index + 1}{ext or '.svg'}"


def _show_report(console, report: SolveReport, tty: bool) -> None:
    grid = report.grid
    status = report.status.value
    colour = {"unique": "green", "multiple": "yellow", "unsolvable": "red", "unknown": "magenta"}[status]
    if tty:
        console.print(f"[bold]{grid.label()}[/bold]: [{colour}]{status}[/{colour}] ({report.seconds:.3f} s)")
    else:
        print(f"{grid.label()}: {status} ({report.seconds:.3f} s)")
    for number, solution in enumerate(report.solutions, start=1):
        if len(report.solutions) > 1:
            print(f"solution {number}:")
        if tty:
            console.print(outlined(solution, grid))
        else:
            print(plain(solution))
    if report.status is Verdict.UNKNOWN:
        print("the time limit came before the answer: no claim either way")


@app.command()
def solve(
    files: list[str] = typer.Argument(..., help="Grid files; each may hold a pack of grids."),
    backend: str = typer.Option(DEFAULT_BACKEND, "--backend", "-b", help=BACKEND_HELP),
    max_solutions: int = typer.Option(2, "--max-solutions", "-n", min=1, help="Stop after this many solutions (at least 2 are looked for, to tell unique from multiple)."),
    all_solutions: bool = typer.Option(False, "--all", help="Find every solution (may take long on grids with few clues)."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", "-t", min=0.0, help="Seconds per grid; past it the status is 'unknown', never a guess."),
    per_colour: Optional[int] = typer.Option(None, "--per-colour", min=0, help="Tiles of each colour available (default: ceil(tiles / 4); 7 on 9x9)."),
    json_output: bool = typer.Option(False, "--json", help="One JSON object per grid per line: name, status, solutions, seconds."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Write a picture of the puzzle and its solution (numbered files for several grids)."),
) -> None:
    """Solve every grid in FILES and prove whether its solution is unique.

    Status per grid: unique, multiple, unsolvable or unknown (time limit). Exit code 0 when
    every grid is unique, 1 when some grid is not, 2 for bad input (the other grids are
    still solved).
    """
    check_backend(backend)
    tty = sys.stdout.isatty() and not json_output
    console = _console()
    solver = LixsoSolver(backend, per_colour)
    bad_input = False
    all_unique = True
    entries: list[Grid | InputError] = []
    for path in files:
        try:
            entries.extend(load_pack(path))
        except InputError as error:
            entries.append(error)
    grid_count = sum(isinstance(entry, Grid) for entry in entries)
    grid_index = -1
    for entry in entries:
        if isinstance(entry, InputError):
            bad_input = True
            typer.echo(f"placesat: error: {entry}", err=True)
            if json_output:
                print_json({"name": f"{entry.path}:{entry.line}" if entry.line else entry.path, "status": "invalid", "error": str(entry)})
            continue
        grid_index += 1
        report = solver.solve(entry, None if all_solutions else max_solutions, time_limit)
        all_unique &= report.status is Verdict.UNIQUE
        if json_output:
            print_json(report.to_json())
        else:
            _show_report(console, report, tty)
        if svg_out is not None:
            target = _svg_path(svg_out, grid_index, grid_count)
            try:
                Path(target).write_text(svg(entry, report.solutions[0] if report.solutions else None))
            except OSError as error:
                fail(f"{target}: cannot write the picture: {error.strerror or error}")
    if bad_input:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_OK if all_unique else EXIT_NOT_ALL_GOOD)


@app.command()
def check(
    puzzle_file: str = typer.Argument(..., metavar="PUZZLE", help="The puzzle grid file."),
    solution_file: str = typer.Argument(..., metavar="SOLUTION", help="A file holding the proposed solution: a grid of colour letters."),
    per_colour: Optional[int] = typer.Option(None, "--per-colour", min=0, help="Tiles of each colour available (default: ceil(tiles / 4))."),
    json_output: bool = typer.Option(False, "--json", help="Print the verdict as one JSON object."),
) -> None:
    """Check a proposed solution against the rules, without any solver.

    Names the first broken rule and the cells involved (rows and columns counted from 1).
    Exit code 0 when the solution is valid, 1 when it breaks a rule, 2 for bad input.
    """
    try:
        puzzle = load_grid(puzzle_file)
        solution = load_grid(solution_file)
    except InputError as error:
        fail(str(error))
    violation = find_violation(puzzle, solution.rows, per_colour)
    if json_output:
        print_json(
            {
                "valid": violation is None,
                "rule": violation.rule if violation else None,
                "message": violation.message if violation else None,
                "cells": [[r + 1, c + 1] for r, c in violation.cells] if violation else [],
            }
        )
    elif violation is None:
        print("valid: the solution keeps every rule")
    else:
        print(f"invalid: {violation}")
    raise typer.Exit(EXIT_OK if violation is None else EXIT_NOT_ALL_GOOD)
