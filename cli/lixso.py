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


def _size(text: str) -> tuple[int, int]:
    try:
        height, width = (int(part) for part in text.lower().split("x"))
    except ValueError:
        fail(f"--size {text!r}: write it as ROWSxCOLUMNS, for example 9x9")
    if height < 2 or width < 2 or height * width % 3 or max(height, width) > 30:
        fail(f"--size {text}: need 2..30 rows and columns and a cell count divisible by 3")
    return height, width


def _progress(total: int, label: str):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty(),
    )


@app.command()
def generate(
    count: int = typer.Option(..., "--count", "-c", min=1, help="How many puzzles."),
    level: int = typer.Option(..., "--level", "-l", min=1, max=6, help="Difficulty 1 (starter) to 6 (very hard); see seeds/lixso.md."),
    out: str = typer.Option(..., "--out", "-o", help="The pack file to write (replaced atomically when done)."),
    size: str = typer.Option("9x9", "--size", help="Grid size, ROWSxCOLUMNS."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed; the same seed gives the same pack. Default: a random one, printed."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes."),
    minimal: bool = typer.Option(False, "--minimal", help="Also drop every clue the level can do without (slower)."),
    per_colour: Optional[int] = typer.Option(None, "--per-colour", min=1, help="Tiles of each colour available (default: ceil(tiles / 4))."),
) -> None:
    """Generate puzzles that have exactly one solution and are graded exactly LEVEL.

    Each puzzle is written with '# name:', '# level:' and '# solution:' metadata. Nothing
    is written unless every puzzle was made; Ctrl-C stops cleanly.
    """
    import random

    from solver.core.parallel import WorkerCrash, run_jobs
    from solver.lixso.generate import Generated, fulfil, orders
    from solver.lixso.model import format_grid

    height, width = _size(size)
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
        typer.echo(f"seed {seed}", err=True)
    todo = orders(count, level, height, width, seed, per_colour, minimal)
    made: dict[int, Generated] = {}
    failures: list[str] = []
    try:
        with _progress(count, f"level {level}") as progress:
            task = progress.add_task("generate", total=count)
            for index, result in run_jobs(fulfil, todo, jobs):
                if isinstance(result, Generated):
                    made[index] = result
                else:
                    reason = str(result) if isinstance(result, (str, WorkerCrash)) else repr(result)
                    failures.append(f"{todo[index].name}: {reason}")
                progress.advance(task)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: {len(made)} of {count} puzzles were made; nothing written", err=True)
        raise typer.Exit(130)
    if failures:
        for failure in failures:
            typer.echo(f"placesat: {failure}", err=True)
        typer.echo(f"{len(failures)} of {count} puzzles could not be made; nothing written", err=True)
        raise typer.Exit(EXIT_NOT_ALL_GOOD)
    header = f"# Lixso puzzles made by placesat: level {level}, {size}, seed {seed}\n\n"
    body = "\n".join(
        format_grid(Grid(made[i].grid.rows, name=made[i].grid.name, metadata={"level": str(level)}), made[i].solution)
        for i in range(count)
    )
    directory = os.path.dirname(os.path.abspath(out))
    temporary = os.path.join(directory, f".{os.path.basename(out)}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(header + body)
        os.replace(temporary, out)
    except OSError as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        fail(f"{out}: cannot write: {error.strerror or error}")
    clue_counts = sorted(len(made[i].grid.clues()) for i in range(count))
    typer.echo(f"wrote {count} level-{level} puzzles to {out} (clues {clue_counts[0]}-{clue_counts[-1]})", err=True)


@app.command()
def grade(
    files: list[str] = typer.Argument(..., help="Grid files; each may hold a pack."),
    json_output: bool = typer.Option(False, "--json", help="One JSON object per grid per line."),
    per_colour: Optional[int] = typer.Option(None, "--per-colour", min=1, help="Tiles of each colour available."),
) -> None:
    """The level (1-6) of each grid and the hardest deduction it needed.

    Levels are defined in seeds/lixso.md. A grid that is not unique gets no level.
    Exit code 0 when every grid got a level, 1 otherwise, 2 for bad input.
    """
    from solver.lixso.deduce import HARDEST, deducer_for
    from solver.lixso.verify import collect

    solver = LixsoSolver("sat", per_colour)
    code = EXIT_OK
    for entry in collect(files):
        if isinstance(entry, InputError):
            typer.echo(f"placesat: error: {entry}", err=True)
            code = EXIT_BAD_INPUT
            continue
        result = deducer_for(entry.height, entry.width, per_colour).grade(entry)
        level, hardest = result.level, result.hardest
        status = "unique"
        if level is None:
            status = "unsolvable"
        elif level == HARDEST:
            verdict = solver.solve(entry)
            status = verdict.status.value
            if verdict.status is not Verdict.UNIQUE:
                level, hardest = None, f"not unique ({status})"
        if level is None and code == EXIT_OK:
            code = EXIT_NOT_ALL_GOOD
        if json_output:
            print_json({"name": entry.label(), "status": status, "level": level, "hardest": hardest})
        else:
            shown = f"level {level}" if level is not None else "no level"
            print(f"{entry.label()}: {shown} ({hardest})")
    raise typer.Exit(code)


@app.command()
def hint(
    file: str = typer.Argument(..., help="A grid file (the first grid is used); fill in what you know as clues."),
    steps: bool = typer.Option(False, "--steps", help="Print the whole logical solve path, not just the next step."),
    json_output: bool = typer.Option(False, "--json", help="Print the step(s) as JSON."),
    per_colour: Optional[int] = typer.Option(None, "--per-colour", min=1, help="Tiles of each colour available."),
) -> None:
    """The next deduction a person could make, with its reason in words.

    Deductions are tried weakest level first (see 'placesat lixso grade'). Exit code 0 when
    a deduction (or the whole path) is found, 1 when the deductions get stuck, 2 for bad input.
    """
    from solver.lixso.deduce import deducer_for

    try:
        grid = load_grid(file)
    except InputError as error:
        fail(str(error))
    result = deducer_for(grid.height, grid.width, per_colour).grade(grid, record=True)
    if steps:
        path = result.steps
    else:  # the next single deduction, preferring one that fixes a cell's colour
        path = []
        if result.steps:
            first = result.steps[0]
            positive = [f for f in first.findings if " is " in f[0] and " not " not in f[0]]
            path = [type(first)(first.level, (positive or first.findings)[:1])]
    solved = result.level is not None and result.level <= 5
    if json_output:
        print_json(
            {
                "name": grid.label(),
                "level": result.level,
                "steps": [step.to_json() for step in path],
                "solution": list(result.solved_rows) if solved and result.solved_rows else None,
            }
        )
    else:
        if result.level is None:
            print("the clues contradict each other: no solution")
        for number, step in enumerate(path, start=1):
            shown = step.findings if steps else step.findings[:1]
            for fact, why in shown[:12]:
                print(f"{number}. [level {step.level}] {fact}: {why}")
            if len(shown) > 12:
                print(f"{number}. ... and {len(shown) - 12} more at level {step.level}")
        if not path and result.level is not None:
            print("nothing left to deduce: every cell is decided" if grid.is_complete() else "no deduction found")
        if steps and result.solved_rows is not None:
            print("solved:" if solved else "stuck here; the rest needs nested trials (level 6):")
            print(plain(result.solved_rows))
    raise typer.Exit(EXIT_OK if path or (result.level is not None and result.level <= 5) else EXIT_NOT_ALL_GOOD)


@app.command()
def verify(
    paths: list[str] = typer.Argument(..., help="Pack files or folders of grid files."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes."),
    json_output: bool = typer.Option(False, "--json", help="One JSON object per puzzle per line."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", "-t", min=0.0, help="Seconds per puzzle; past it the status is 'unknown'."),
    backend: str = typer.Option(DEFAULT_BACKEND, "--backend", "-b", help=BACKEND_HELP),
    grade_all: bool = typer.Option(False, "--grade", help="Grade every unique puzzle (by default only those with a stated level)."),
) -> None:
    """Verify whole packs: unique, multiple, unsolvable, unknown or invalid, per puzzle.

    Also checks that stated '# level:' and '# solution:' metadata are true. Exit code 0
    only when every puzzle is unique and every stated fact holds; 1 otherwise; 2 for bad usage.
    """
    from collections import Counter

    from solver.core.parallel import WorkerCrash, run_jobs
    from solver.lixso.verify import Check, check_in_worker, collect, invalid, start_worker

    check_backend(backend)
    entries = collect(paths)
    checks: dict[int, Check] = {}
    grids = [(i, entry) for i, entry in enumerate(entries) if isinstance(entry, Grid)]
    for i, entry in enumerate(entries):
        if isinstance(entry, InputError):
            checks[i] = invalid(entry)

    def emit(check: Check) -> None:
        if json_output:
            print_json(check.to_json())
        else:
            extra = []
            if check.level is not None:
                extra.append(f"level {check.level}" + ("" if check.stated_level in (None, check.level) else f" (stated {check.stated_level})"))
            if check.solution_matches is False:
                extra.append("stated solution is wrong")
            if check.error:
                extra.append(check.error)
            print(f"{check.name}: {check.status}" + (f" - {', '.join(extra)}" if extra else "") + f" ({check.seconds:.3f} s)")

    for check in checks.values():
        emit(check)
    interrupted = False
    try:
        with _progress(len(grids), "verify") as progress:
            task = progress.add_task("verify", total=len(grids))
            for index, result in run_jobs(check_in_worker, [g for _, g in grids], jobs, start_worker, (backend, time_limit, grade_all)):
                entry_index, grid = grids[index]
                if isinstance(result, WorkerCrash):
                    result = Check(grid.label(), "unknown", error=f"worker crashed: {result}")
                checks[entry_index] = result
                emit(result)
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    done = list(checks.values())
    tally = Counter(check.status for check in done)
    wrong_facts = sum(1 for c in done if c.status == "unique" and not c.facts_hold())
    from rich.console import Console
    from rich.table import Table

    table = Table(title="verify summary" + (" (interrupted)" if interrupted else ""))
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    for status in ("unique", "multiple", "unsolvable", "unknown", "invalid"):
        if tally[status]:
            table.add_row(status, str(tally[status]))
    if wrong_facts:
        table.add_row("unique, but stated level/solution wrong", str(wrong_facts))
    table.add_row("checked", f"{len(done)} of {len(entries)}")
    Console(stderr=json_output, highlight=False).print(table)
    if interrupted:
        raise typer.Exit(130)
    all_good = len(done) == len(entries) and all(c.facts_hold() for c in done)
    raise typer.Exit(EXIT_OK if all_good else EXIT_NOT_ALL_GOOD)
