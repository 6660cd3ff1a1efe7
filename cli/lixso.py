"""``placesat lixso``: solve grids and prove them unique; check, grade, hint, generate, verify."""

from __future__ import annotations

import math

import os
import re
import sys
from typing import Iterable, Optional

import typer

from placesat.core.errors import InputError
from placesat.core.inputs import display_name
from placesat.core.limits import Deadline
from placesat.core.signals import Stop, held_stops
from placesat.lixso.answers import check_record, drawn_record, page_left_out, page_record, printable, sheets_record
from placesat.lixso.answers import picture_note as _note, unreadable_record as _invalid
from placesat.lixso.model import Grid, collect, coverable, load_grid, load_pack, pick_answer, pick_grid
from placesat.lixso.render import outlined, plain, svg
from placesat.lixso.rules import find_violation
from placesat.lixso.solve import LixsoSolver, SolveReport, Verdict

from .common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_ALL_GOOD,
    EXIT_OK,
    backend_option,
    certify_option,
    checker_option,
    checkers_of,
    command,
    console,
    fail,
    json_option,
    make_group,
    output_folder,
    output_path,
    print_json,
    batch_progress,
    progress,
    proof_dir_option,
    seconds_callback,
    side_outputs,
    time_limit_option,
    warn,
    write_output,
)

app = make_group(
    """Lixso: cover a grid with L-shaped tiles of four colours (I X S O). A coloured cell
    takes a tile of its colour; tiles of one colour never touch, not even by a corner; each
    colour has a limited supply (7 tiles on 9x9). Grid files: rows of '.' and I X S O, grids
    of a pack separated by blank lines (see seeds/lixso.md); '-' reads standard input."""
)

FILES_HELP = "Grid files (each may hold a pack of grids); '-' reads standard input."
WHOLE_TIME_HELP = "Seconds for the whole command, model building included; grids not settled by then are 'unknown', never a guess."
# Puzzles per task on a cluster (benchmarks/lixso_packs.py cluster): a task costs the scheduler
# and the network a few milliseconds, a 9x9 verdict 1-10 ms, a generated puzzle 0.05-5 s.
VERIFY_CHUNK = 64
GENERATE_CHUNK = 2
GRID_TIME_HELP = "Seconds for each grid (within --time-limit); past it that grid is 'unknown'."


def per_colour_option() -> object:
    """``--per-colour N``: one rule for every command (at least 1)."""
    return typer.Option(None, "--per-colour", min=1, metavar="N", help="Tiles of each colour available (default: ceil(tiles / 4); 7 on 9x9).")


def labels_option() -> object:
    """``--labels/--no-labels``: the row and column numbers on every picture of a grid."""
    return typer.Option(True, "--labels/--no-labels", help="Row and column numbers (1, 2, ...) beside the grid, as hints name cells (r2c7); --no-labels for a clean sheet.")


def cluster_option() -> object:
    """``--cluster ADDRESS``: the work goes to a Dask cluster (docs/cluster.md)."""
    return typer.Option(None, "--cluster", metavar="ADDRESS", help="Send the work to a Dask scheduler (tcp://HOST:8786), or to N local worker processes (local:N); needs pip install 'placesat[cluster]'. See docs/cluster.md.")


def _open_cluster(address: str, jobs: int):
    """The cluster --cluster names (one line and exit 2 when it cannot be used)."""
    if jobs > 1:
        fail("--jobs and --cluster: choose one (--jobs starts worker processes here, --cluster uses the cluster's)")
    from placesat.core.cluster import Cluster

    return Cluster(address)


def grid_name_option() -> object:
    """``--name NAME``: the grid of a pack with this '# name:' (check, hint, grade, html)."""
    return typer.Option(None, "--name", help="In a pack: the grid with this '# name:'.")


def grid_index_option() -> object:
    """``--index N``: the grid of a pack at this position, from 1 (check, hint, grade, html)."""
    return typer.Option(None, "--index", min=1, help="In a pack: the grid at this position (from 1).")


def _picked_entries(files: list[str], name: Optional[str], index: Optional[int]) -> list[Grid] | None:
    """The one grid --name or --index picks from a single PACK (a list of it); None when
    neither was given (every grid of FILES is meant)."""
    if name is None and index is None:
        return None
    if len(files) != 1:
        fail("--name and --index choose a grid of one pack: give one PACK")
    return [_pick(files[0], name, index)]


def grid_time_option() -> object:
    """``--grid-time-limit SECONDS``: a limit per grid, inside the command's limit."""
    return typer.Option(None, "--grid-time-limit", metavar="SECONDS", callback=seconds_callback, help=GRID_TIME_HELP)


def _bad_grid(entry: InputError, json_output: bool) -> None:
    """Name a grid that could not be read (stderr, and a JSON line with --json); the rest of
    the batch goes on."""
    typer.echo(f"placesat: error: {entry}", err=True)
    if json_output:
        print_json(_invalid(entry))


def _picture_files(option: str, path: Optional[str], grids: int, per_solution: bool = False) -> bool:
    """Check where the pictures of ``grids`` grids go before the work starts (each numbered
    file, when there are several), and say whether the one picture goes to standard output
    (``-``). Standard output holds one picture: several (one per grid of a pack, or with --all
    one per solution) need a file name to number."""
    if path == "-":
        if grids > 1 or per_solution:
            fail(f"{option} -: several pictures (one per grid, or with --all one per solution) cannot share standard output; name a file (NAME-1.svg, ...)")
        return True
    if path is not None:
        for index in range(grids):
            output_path(_svg_path(path, index, grids), option=option)
    return False


def _svg_path(base: str, index: int, count: int) -> str:
    """Where the picture of grid ``index`` goes: ``base`` itself for one grid, numbered for several."""
    if count == 1:
        return base
    stem, ext = os.path.splitext(base)
    return f"{stem}-{index + 1}{ext or '.svg'}"


def _show_report(out, report: SolveReport, tty: bool, all_solutions: bool, certified: str = "", labels: bool = True) -> None:
    grid = report.grid
    status = report.status.value
    colour = {"unique": "green", "multiple": "yellow", "unsolvable": "red", "unknown": "magenta"}[status]
    more = f" ({certified})" if certified else ""
    if tty:
        out.print(f"[bold]{grid.label()}[/bold]: [{colour}]{status}[/{colour}]{more} ({report.seconds:.3f} s)", highlight=False)
    else:
        print(f"{grid.label()}: {status}{more} ({report.seconds:.3f} s)")
    for number, solution in enumerate(report.solutions, start=1):
        if len(report.solutions) > 1:
            print(f"solution {number}:")
        if tty:
            out.print(outlined(solution, grid, labels))
        else:
            print(plain(solution))
    found = len(report.solutions)
    if all_solutions and report.status is not Verdict.UNKNOWN:
        if report.complete:
            print(f"{found} solution{'s' if found != 1 else ''} in all")
        else:
            print(f"stopped at the time limit after {found} solution{'s' if found != 1 else ''}: there may be more")
    if report.status is Verdict.UNKNOWN:
        print("the time limit came before the answer: no claim either way"
              + (f" ({found} solution{'s' if found != 1 else ''} found so far)" if found else ""))


def _why(solver: LixsoSolver, report: SolveReport, deadline: Deadline) -> tuple[list[str], dict]:
    """Why a grid is not a proper puzzle, in lines and JSON fields (placesat.lixso.why.reasons)."""
    from placesat.lixso.why import reasons

    return reasons(solver, report, deadline)


@command(app)
def solve(
    files: list[str] = typer.Argument(..., help=FILES_HELP),
    backend: str = backend_option(),
    max_solutions: int = typer.Option(2, "--max-solutions", "-n", min=1, help="Stop after this many solutions (at least 2 are looked for, to tell unique from multiple)."),
    all_solutions: bool = typer.Option(False, "--all", help="Find every solution and count them (may take long on grids with few clues)."),
    time_limit: Optional[float] = time_limit_option(WHOLE_TIME_HELP),
    grid_time_limit: Optional[float] = grid_time_option(),
    per_colour: Optional[int] = per_colour_option(),
    json_output: bool = json_option("One JSON object per grid per line: name, status, solutions, solution_count, all_found, seconds."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Write a picture of the puzzle and its solution (numbered files for several grids; with --all, one file per solution: NAME-s1.svg, ...)."),
    labels: bool = labels_option(),
    certify: bool = certify_option("every 'unique' and 'unsolvable'"),
    checker: str = checker_option(),
    proof_dir: Optional[str] = proof_dir_option(),
) -> None:
    """Solve every grid in FILES and prove whether its solution is unique.

    Status per grid: unique, multiple, unsolvable or unknown (time limit). Exit code 0 when
    every grid is unique, 1 when some grid is not, 2 for bad input (the other grids are
    still solved). With --certify, 'unique' and 'unsolvable' are re-proven on a fresh SAT
    solver whose proof an independent checker replays (exit 0 only when every grid is unique
    and certified); a proof the checker rejects is an error and the grid 'unknown'.
    """
    side_outputs(json_output, svg=svg_out)
    checkers = checkers_of(checker, certify)
    if proof_dir is not None:
        if not certify:
            fail("--proof-dir needs --certify")
        output_folder(proof_dir)
    deadline = Deadline(time_limit)
    tty = sys.stdout.isatty() and not json_output
    out = console() if tty else None  # rich costs 30 ms to import: only for a terminal
    solver = LixsoSolver(backend, per_colour)
    bad_input = False
    all_unique = True
    if svg_out is None:  # a stream, any length: each grid is answered as it is read
        from placesat.lixso.pack import stream_pack

        entries: Iterable[Grid | InputError] = stream_pack(files)
        grid_count, picture_only = 0, False
    else:  # the pictures are numbered when there are several: count them first
        entries = collect(files)
        grid_count = sum(isinstance(entry, Grid) for entry in entries)
        picture_only = _picture_files("--svg", svg_out, grid_count, all_solutions)
    grid_index = -1
    stems: set[str] = set()  # certificate file names used so far
    for entry in entries:
        if isinstance(entry, InputError):
            bad_input = True
            _bad_grid(entry, json_output)
            continue
        grid_index += 1
        grid_deadline = deadline.sooner(grid_time_limit)
        report = solver.solve(entry, None if all_solutions else max_solutions, grid_deadline)
        certification = _certified(solver, report, checkers, grid_deadline, proof_dir, grid_index, stems) if certify else None
        all_unique &= report.status is Verdict.UNIQUE and (certification is None or certification.certified)
        # the reason is shown with the verdict only: a picture alone does without it
        why_lines, why_fields = _why(solver, report, grid_deadline) if json_output or not picture_only else ([], {})
        if json_output:
            print_json(report.to_json() | (certification.to_json() if certification else {}) | why_fields)
        elif not picture_only:
            _show_report(out, report, tty, all_solutions, certification.words() if certification else "", labels)
            for line in why_lines:
                print(line)
        if svg_out is not None:
            target = _svg_path(svg_out, grid_index, grid_count)
            if all_solutions and len(report.solutions) > 1:
                stem, ext = os.path.splitext(target)
                for number, solution in enumerate(report.solutions, start=1):
                    write_output(f"{stem}-s{number}{ext or '.svg'}", svg(entry, solution, note=f"solution {number} of {len(report.solutions)}", labels=labels))
            else:
                write_output(target, svg(entry, report.solutions[0] if report.solutions else None, note=_note(report), labels=labels))
    if bad_input:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_OK if all_unique else EXIT_NOT_ALL_GOOD)


def _certified(solver: LixsoSolver, report: SolveReport, checkers: tuple[str, ...], deadline: Deadline,
               proof_dir: Optional[str], index: int, stems: set[str]):
    """Certify a report's verdict; a rejected proof turns the verdict into 'unknown', loudly."""
    from placesat.lixso.certify import certificate_comments, certify, proof_file_stem

    certification = certify(solver, report, checkers, deadline)
    if certification.rejected:
        typer.echo(f"placesat: error: {report.grid.label()}: {certification.reason}; the grid's status is unknown", err=True)
        report.status = Verdict.UNKNOWN
    refutation = certification.refutation
    if proof_dir is not None and refutation is not None:
        stem = proof_file_stem(report.grid, index)
        if stem in stems:  # two grids of one name: keep both certificates
            stem = f"{stem}-{index + 1}"
        stems.add(stem)
        write_output(os.path.join(proof_dir, stem + ".cnf"), refutation.dimacs(certificate_comments(report.grid, report, stem)))
        write_output(os.path.join(proof_dir, stem + ".drat"), refutation.drat())
    return certification


@command(app)
def check(
    puzzle_file: str = typer.Argument(..., metavar="PUZZLE", help="The puzzle grid file ('-': standard input)."),
    solution_file: Optional[str] = typer.Argument(None, metavar="[SOLUTION]", help="A file holding the proposed solution: a grid of colour letters, or a pack of them (an answers file: the one named as the puzzle). Default: the puzzle's own answer (its '# solution:', or its answers file beside the pack)."),
    name: Optional[str] = grid_name_option(),
    index: Optional[int] = grid_index_option(),
    per_colour: Optional[int] = per_colour_option(),
    json_output: bool = json_option("Print the verdict as one JSON object."),
) -> None:
    """Check a proposed solution against the rules, without any solver.

    Names the first broken rule and the cells involved (rows and columns counted from 1).
    Without SOLUTION, the answer the pack states for the puzzle is checked.
    Exit code 0 when the solution is valid, 1 when it breaks a rule, 2 for bad input (a
    file that cannot be read, a solution of another size than the puzzle, or a pack where one
    grid is meant: pick the puzzle with --name or --index).
    """
    if puzzle_file == "-" and solution_file == "-":
        fail("only one of PUZZLE and SOLUTION can be read from standard input")
    picked = name is not None or index is not None
    puzzle = _pick(puzzle_file, name, index) if picked else load_grid(puzzle_file, ": pick it with --name or --index")
    if solution_file is None:
        stated = puzzle.stated_solution()
        if stated is None:
            fail(f"{puzzle.label()}: no SOLUTION given and the pack states none (no '# solution:' line, no answers file beside it)")
        solution = Grid(stated, name=puzzle.name, path=puzzle.path, line=puzzle.line)
    else:
        solution = pick_answer(load_pack(solution_file), puzzle, display_name(solution_file))
    if (solution.height, solution.width) != (puzzle.height, puzzle.width):
        raise InputError(
            f"the solution is {solution.height}x{solution.width}, the puzzle is {puzzle.height}x{puzzle.width}",
            solution.path, solution.line,
        )
    violation = find_violation(puzzle, solution.rows, puzzle.per_colour(per_colour))
    if json_output:
        print_json(check_record(violation))
    elif violation is None:
        print("valid: the solution keeps every rule")
    else:
        print(f"invalid: {violation}")
    raise typer.Exit(EXIT_OK if violation is None else EXIT_NOT_ALL_GOOD)


@command(app, "id")
def puzzle_ids(
    files: list[str] = typer.Argument(..., help=FILES_HELP),
    json_output: bool = json_option("One JSON object per grid per line: name, id."),
) -> None:
    """Print a one-line ID for each grid, to pass a puzzle on in a message.

    The ID holds the size, the clues run-length encoded, and four check characters
    (seeds/lixso.md); every command that takes a grid file also takes an ID. Exit code 0,
    or 2 when some grid cannot be read (the others still get their IDs).
    """
    from placesat.lixso.model import puzzle_id

    from placesat.lixso.pack import stream_pack

    code = EXIT_OK
    for entry in stream_pack(files):
        if isinstance(entry, InputError):
            _bad_grid(entry, json_output)
            code = EXIT_BAD_INPUT
        elif json_output:
            print_json({"name": entry.label(), "id": puzzle_id(entry)})
        else:
            print(f"{puzzle_id(entry)}  {entry.label()}")
    raise typer.Exit(code)


@command(app)
def draw(
    file: str = typer.Argument(..., help="A grid file, a pack or a puzzle ID ('-': standard input)."),
    out: str = typer.Option(..., "--out", "-o", help="The SVG file (numbered files NAME-1.svg, ... for a pack)."),
    symbols: bool = typer.Option(False, "--symbols", help="Letters in black and white, no colours (for colour-blind players and pen and paper)."),
    labels: bool = labels_option(),
    time_limit: Optional[float] = time_limit_option(WHOLE_TIME_HELP),
    json_output: bool = json_option('One JSON object per grid per line: {"name", "status", "file"}.'),
) -> None:
    """Draw the puzzle alone (no answer) as SVG, for sharing or printing.

    The grid is solved first: a grid with no solution, or with more than one, says so in
    the picture (and the exit code is 1). Exit 0 when every grid drawn is a proper puzzle, 2
    for bad input (the readable grids are still drawn).
    """
    output_path(out, json_output)
    deadline = Deadline(time_limit)
    entries = list(load_pack(file))
    grids = sum(isinstance(entry, Grid) for entry in entries)
    _picture_files("--out", out, grids)
    solver = LixsoSolver()
    code = EXIT_OK
    index = -1
    for entry in entries:
        if isinstance(entry, InputError):
            # the readable grids are still drawn, numbered among themselves
            code = EXIT_BAD_INPUT
            _bad_grid(entry, json_output)
            continue
        index += 1
        report = solver.solve(entry, 2, deadline)
        note = _note(report)
        if note is not None:
            code = max(code, EXIT_NOT_ALL_GOOD)
            typer.echo(f"placesat: {entry.label()}: {note}", err=True)
        path = _svg_path(out, index, grids)
        write_output(path, svg(entry, None, symbols=symbols, note=note, labels=labels))
        if json_output:
            print_json(drawn_record(report, path))
    raise typer.Exit(code)


def _pack_name(files: list[str]) -> str | None:
    """The packs' names, for a document's title: each file's or folder's name, a file's without
    its extension (level-3.txt: level-3); None for standard input and puzzle IDs."""
    names = [os.path.splitext(os.path.basename(os.path.normpath(f)))[0] if os.path.isfile(f) else os.path.basename(os.path.normpath(f))
             for f in files if f != "-" and os.path.exists(f)]
    return ", ".join(names) or None


@command(app, "print")
def print_sheets(
    files: list[str] = typer.Argument(..., help=FILES_HELP),
    out: str = typer.Option(..., "--out", "-o", help="The PDF file to write ('-': standard output)."),
    per_page: int = typer.Option(4, "--per-page", help="Puzzles per page: 1, 2, 4 or 6."),
    symbols: bool = typer.Option(False, "--symbols", help="Letters in black and white and a level label, no colours."),
    solutions: bool = typer.Option(False, "--solutions", help="Add answer pages at the end (smaller, twelve to a page)."),
    paper: str = typer.Option("a4", "--paper", help="a4 or letter."),
    title: Optional[str] = typer.Option(None, "--title", help="The title on every page (default: Lixso) and the PDF's (default: Lixso puzzles: the pack's name)."),
    labels: bool = labels_option(),
    cover: bool = typer.Option(False, "--cover", help="Begin with a cover page: the title, the pack, how many puzzles of each level, and the date (SOURCE_DATE_EPOCH's when set, else today's; UTC)."),
    time_limit: Optional[float] = time_limit_option(WHOLE_TIME_HELP),
    json_output: bool = json_option('One JSON object: {"file", "printed": [names], "left_out": [{"name", "status", "error"?}], "pages", "answer_pages", "cover_pages"}.'),
) -> None:
    """Print & play sheets: a PDF of the puzzles (never their answers), with answers at the end if asked.

    Each puzzle shows its name and level (from '# level:', else graded now); its frame
    has the level's colour, or in --symbols mode a 'Level N' label. Every puzzle is solved
    first: one that is not unique is left out and named on stderr (exit 1). Exit 2 for bad
    input (the readable puzzles are still printed).
    """
    from placesat.lixso.sheets import LAYOUTS, PAPERS, SheetPuzzle, sheets_pdf

    if per_page not in LAYOUTS:
        fail(f"--per-page: must be one of {', '.join(map(str, sorted(LAYOUTS)))}, not {per_page}")
    if paper not in PAPERS:
        fail(f"--paper: must be a4 or letter, not {paper!r}")
    output_path(out, json_output)
    deadline = Deadline(time_limit)
    entries = collect(files)
    code = EXIT_OK
    ready: list[SheetPuzzle] = []
    left_out: list[dict] = []
    with progress("checking") as bar:
        task = bar.add_task("check", total=len(entries))
        for entry, made in printable(entries, deadline):
            bar.advance(task)
            if isinstance(made, SheetPuzzle):
                ready.append(made)
                continue
            left_out.append(made)
            if isinstance(entry, InputError):
                typer.echo(f"placesat: error: {entry}", err=True)
                code = EXIT_BAD_INPUT
            else:
                typer.echo(f"placesat: {entry.label()}: {made['status']}, not printed", err=True)
                code = max(code, EXIT_NOT_ALL_GOOD)
    if not ready:
        if json_output:  # the report names every puzzle left out, and that no file was written
            print_json(sheets_record(None, ready, left_out, per_page, solutions))
        fail("no puzzle to print", code if code != EXIT_OK else EXIT_NOT_ALL_GOOD)
    from placesat import __version__

    write_output(out, sheets_pdf(ready, per_page, symbols, solutions, paper, title, labels, _pack_name(files), creator=f"placesat {__version__}", cover=cover))
    pages = -(-len(ready) // per_page)
    answer_pages = -(-len(ready) // 12) if solutions else 0
    extra = f" and {answer_pages} answer page(s)" if solutions else ""
    typer.echo(f"wrote {len(ready)} puzzle(s) on {pages} page(s){extra}{' after a cover page' if cover else ''} to {out}", err=True)
    if json_output:
        print_json(sheets_record(out, ready, left_out, per_page, solutions, cover))
    raise typer.Exit(code)


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"([0-9]{1,3})x([0-9]{1,3})", text.strip().lower())  # ASCII digits only
    if match is None:
        fail(f"--size {text!r}: write it as ROWSxCOLUMNS, for example 9x9")
    height, width = int(match[1]), int(match[2])
    if height < 2 or width < 2 or not coverable(height, width) or max(height, width) > 30:
        fail(f"--size {text}: need 2..30 rows and columns and a cell count divisible by 3")
    return height, width


def _answers_log(path: str | None, fresh: bool):
    """The answers file that grows with the pack (nothing when the answers go inline)."""
    from contextlib import nullcontext

    from placesat.core.records import RecordLog

    return nullcontext() if path is None else RecordLog(path, fresh=fresh)


@command(app)
def generate(
    count: int = typer.Option(..., "--count", "-c", min=1, max=10_000_000, help="How many puzzles."),
    level: int = typer.Option(..., "--level", "-l", min=1, max=6, help="Difficulty 1 (starter) to 6 (very hard); see seeds/lixso.md."),
    out: str = typer.Option(..., "--out", "-o", help="The pack file to write, a puzzle at a time ('-': standard output)."),
    size: str = typer.Option("9x9", "--size", help="Grid size, ROWSxCOLUMNS."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, max=2**63 - 1, help="Seed; the same seed gives the same pack. Default: a random one, printed (with --resume: the pack's own)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=256, help="Worker processes."),
    minimal: bool = typer.Option(False, "--minimal", help="Also drop every clue the level can do without (slower)."),
    per_colour: Optional[int] = per_colour_option(),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run of the same command: keep OUT's whole puzzles, make the rest."),
    prefix: Optional[str] = typer.Option(None, "--prefix", metavar="NAME", help="Name the puzzles NAME-001, NAME-002, ... (default L<level>-s<seed>); no whitespace. Give packs to be joined different prefixes."),
    answers: Optional[str] = typer.Option(None, "--answers", metavar="FILE", help="Where the solutions go (default: beside OUT, NAME.answers.EXT, where verify and check find them)."),
    inline_answers: bool = typer.Option(False, "--inline-answers", help="Write each solution above its puzzle as '# solution:' instead (the form of packs made before answers moved apart; the default with --out -)."),
    cluster: Optional[str] = cluster_option(),
    json_output: bool = json_option('One JSON object: {"file", "answers", "level", "size", "seed", "puzzles": [{"name", "clues"}]}.'),
) -> None:
    """Generate puzzles that have exactly one solution and are graded exactly LEVEL.

    Each puzzle is written with '# name:' and '# level:' metadata, and with '# per-colour:'
    for a supply other than the size's default (every command then solves it with that
    supply). The solutions go to a file of their own beside the pack (pack.txt ->
    pack.answers.txt, each solution under its puzzle's name), so a player who opens the pack
    does not read them by accident; verify, check and print find them there. Puzzle i depends only on the seed, i and the options, so the pack is
    the same whatever --jobs. Each puzzle is appended whole as soon as it and every one
    before it are made: Ctrl-C, SIGTERM or a killed process (exit 130 or 143) leave the
    puzzles made so far, and the same command with --resume finishes the pack, byte for byte
    what one run would have written.
    """
    import random

    from placesat.core.parallel import WorkerCrash, run_ordered
    from placesat.core.records import RecordLog, truncate
    from placesat.lixso.generate import Generated, answers_header, check_prefix, fulfil, header_seed, order_stream, pack_header, resume_point
    from placesat.lixso.model import PER_COLOUR_KEY, answers_path, default_per_colour, format_answer, format_grid

    output_path(out, json_output)
    height, width = _size(size)
    if prefix is not None:
        check_prefix(prefix)
    if resume and out == "-":
        fail("--resume needs --out to name a file (standard output cannot be continued)")
    if answers is not None and inline_answers:
        fail("--answers and --inline-answers: choose one")
    if answers == "-":
        fail("--answers needs a file (the pack may already be on standard output)")
    answers_out = None if inline_answers else answers if answers is not None else None if out == "-" else answers_path(out)
    if answers_out is not None and os.path.abspath(answers_out) == os.path.abspath(out):
        fail("--answers: the answers need a file other than the pack")
    if seed is None and resume and os.path.isfile(out):
        seed = header_seed(out)
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
        typer.echo(f"seed {seed}", err=True)
    named_supply = per_colour if per_colour is not None and per_colour != default_per_colour(height, width) else None
    header = pack_header(level, height, width, seed, named_supply, minimal, prefix)
    start = 0
    if resume and os.path.isfile(out):
        point = resume_point(out, header, level, seed, height, width, prefix=prefix)
        if point is None:
            fail(f"--resume: {out} is not a pack of this command (its first line is not {header.strip()!r})")
        start, keep = point
        if answers_out is not None:
            answered = resume_point(answers_out, answers_header(header), level, seed, height, width, before=start, prefix=prefix) if os.path.isfile(answers_out) else (0, 0)
            if answered is None or answered[0] < start:
                fail(f"--resume: {answers_out} lacks answers to puzzles {out} holds; it cannot be continued (start again without --resume)")
            truncate(answers_out, answered[1])  # an answer written just before its puzzle was cut off
        truncate(out, keep)  # a puzzle cut short by a power cut is made again
    metadata = {"level": str(level)}
    if named_supply is not None:
        # every command then solves these puzzles with the supply they were made for
        metadata[PER_COLOUR_KEY] = str(per_colour)
    remote = _open_cluster(cluster, jobs) if cluster is not None else None
    jobs = _workers(jobs, count - start) if remote is None else 1
    failures = 0
    written = 0
    clue_counts: list[int] = []  # the fewest and most clues
    made: list[dict] = []
    stopped: Stop | None = None
    with RecordLog(out, fresh=start == 0) as log, _answers_log(answers_out, start == 0) as answer_log:
        if start == 0:
            log.append(header)
            if answer_log is not None:
                answer_log.append(answers_header(header))
        if start >= count:
            typer.echo(f"{out} already holds all {count} puzzles", err=True)
        try:
            with batch_progress(f"level {level}", total=count - start) as bar:
                todo = order_stream(start, count, level, height, width, seed, per_colour, minimal, prefix)
                results = remote.run_ordered(fulfil, todo, GENERATE_CHUNK) if remote is not None else run_ordered(fulfil, todo, jobs)
                for order, result in results:
                    bar.advance()
                    if not isinstance(result, Generated):
                        failures += 1
                        reason = str(result) if isinstance(result, (str, WorkerCrash)) else repr(result)
                        typer.echo(f"placesat: {order.name}: {reason}", err=True)
                        continue
                    grid = Grid(result.grid.rows, name=result.grid.name, metadata=metadata)
                    if answer_log is None:
                        log.append("\n" + format_grid(grid, result.solution))
                    else:  # the answer first: every puzzle the pack holds has its answer
                        answer_log.append("\n" + format_answer(grid.name, result.solution))
                        log.append("\n" + format_grid(grid))
                    written += 1
                    clues = len(result.grid.clues())
                    clue_counts = [min(clue_counts[0], clues), max(clue_counts[1], clues)] if clue_counts else [clues, clues]
                    if json_output:
                        made.append(result.to_json())
        except Stop as stop:
            stopped = stop
        finally:
            if remote is not None:
                remote.close()
    if stopped is not None:
        where = f"{out}; the same command with --resume makes the rest" if out != "-" else "standard output"
        typer.echo(f"placesat: {stopped.reason}: {start + written} of {count} puzzles written to {where}", err=True)
        raise typer.Exit(stopped.exit_code)
    if failures:
        typer.echo(f"{failures} of {count} puzzles could not be made (the pack goes without them)", err=True)
    resumed = f" ({start} were there already)" if start else ""
    span = f" (clues {clue_counts[0]}-{clue_counts[1]})" if clue_counts else ""
    kept = f", their answers to {answers_out}" if answers_out is not None else ""
    typer.echo(f"wrote {start + written} level-{level} puzzle{'' if count == 1 else 's'} to {out}{resumed}{span}{kept}", err=True)
    if json_output:
        print_json({"file": out, "answers": answers_out, "level": level, "size": f"{height}x{width}", "seed": seed, "puzzles": made})
    if failures:
        raise typer.Exit(EXIT_NOT_ALL_GOOD)


@command(app)
def grade(
    files: list[str] = typer.Argument(..., help=FILES_HELP),
    json_output: bool = json_option("One JSON object per grid per line: name, status, level, hardest."),
    per_colour: Optional[int] = per_colour_option(),
    time_limit: Optional[float] = time_limit_option(WHOLE_TIME_HELP),
    cluster: Optional[str] = cluster_option(),
    name: Optional[str] = grid_name_option(),
    index: Optional[int] = grid_index_option(),
) -> None:
    """The level (1-6) of each grid and the hardest deduction it needed.

    Levels are defined in seeds/lixso.md. A grid that is not unique gets no level, and the
    reason: the clues that cannot all hold, or the cells every solution shares and a clue
    that makes it unique. Packs are read as streams, of any length, and each grid's line is
    printed as soon as it is graded, in pack order; --name or --index grade one grid of one
    PACK. Exit code 0 when every grid got a level, 1 otherwise (not unique, or the time limit
    came first), 2 for bad input.
    """
    import time

    from placesat.lixso.pack import stream_pack
    from placesat.lixso.verify import grade_in_worker, start_grader

    end_epoch = None if time_limit is None else time.time() + time_limit
    start_grader(per_colour, end_epoch)
    code = EXIT_OK

    def answer_here(entry):
        if isinstance(entry, InputError):
            return entry
        if end_epoch is not None and time.time() >= end_epoch:
            return grade_in_worker(entry)  # at once: nothing is built past the limit
        return None

    entries = _picked_entries(files, name, index) or stream_pack(files)
    if cluster is not None:
        remote = _open_cluster(cluster, 1)
        results = remote.run_ordered(grade_in_worker, entries, VERIFY_CHUNK, start_grader, (per_colour, end_epoch), here=answer_here)
    else:
        remote = None
        results = ((entry, answer_here(entry) or grade_in_worker(entry)) for entry in entries)
    try:
        for entry, row in results:
            if isinstance(row, InputError):
                _bad_grid(row, json_output)
                code = EXIT_BAD_INPUT
                continue
            if not isinstance(row, dict):  # the cluster lost this grid's chunk
                row = {"name": entry.label(), "status": "unknown", "level": None, "hardest": str(row)}
            if row["level"] is None and code == EXIT_OK:
                code = EXIT_NOT_ALL_GOOD
            why = row.pop("why", [])
            if json_output:
                print_json(row)
            else:
                level, status = row["level"], row["status"]
                shown = f"level {level}" if level is not None else ("unknown" if status == "unknown" else "no level")
                print(f"{row['name']}: {shown} ({row['hardest']})")
                for line in why:
                    print(line)
    finally:
        if remote is not None:
            remote.close()
    raise typer.Exit(code)


def _pick(file: str, name: Optional[str], index: Optional[int]) -> Grid:
    """The grid of a pack that --name or --index asks for (default: the first)."""
    return pick_grid(load_pack(file), name, index, display_name(file))


@command(app)
def hint(
    file: str = typer.Argument(..., help="A grid file, a pack or a puzzle ID ('-': standard input)."),
    name: Optional[str] = grid_name_option(),
    index: Optional[int] = grid_index_option(),
    state: Optional[str] = typer.Option(None, "--state", help="Your progress: the same grid with the colours you have placed so far."),
    steps: bool = typer.Option(False, "--steps", help="Every step from here to the end, one deduction each."),
    level_only: bool = typer.Option(False, "--level-only", help="Only say how hard the next step is and where to look, not the answer."),
    verbose: bool = typer.Option(False, "--verbose", help="A trial's chain and a dilemma's findings in full, however long."),
    show_solution: bool = typer.Option(False, "--show-solution", help="Also print the solution (never shown otherwise)."),
    json_output: bool = json_option('One JSON object: name, status, outcome ("next": a hint; "solved": --steps reached the end; "filled": nothing left to deduce; "level 6": no further step up to level 5; "stopped": a grid with several solutions, deduced as far as the rules force cells), hints (fact, level, why, cells), and the solution only with --show-solution.'),
    per_colour: Optional[int] = per_colour_option(),
    time_limit: Optional[float] = time_limit_option(),
) -> None:
    """The next fact you can deduce, with its reason in words that name the cells, clues and rule.

    One step at a time: the easiest next fact (the weakest level, the fewest facts behind
    it; a whole tile when one is known). Levels as in 'placesat lixso grade' (seeds/lixso.md).
    The grid is checked first: with no solution it names clues that cannot all hold; with
    several it shows the cells they share, then hints go on as far as the rules force cells
    and say where they stop (exit 1). With --state, cells you got wrong are named first (exit 1). Exit 0 with a
    hint (or when the grid is done), 1 when no step can be found or the time limit comes
    first, 2 for bad input.
    """
    from placesat.lixso.hint import hint_grid

    if file == "-" and state == "-":
        fail("only one of FILE and --state can be read from standard input")
    puzzle = _pick(file, name, index)
    progress_so_far = load_grid(state) if state is not None else None
    report = hint_grid(puzzle, progress_so_far, steps=steps, level_only=level_only, verbose=verbose,
                       show_solution=show_solution, per_colour=per_colour, time_limit=time_limit)
    if json_output:
        print_json(report.to_json())
    else:
        print(puzzle.label())
        for line in report.lines:
            print(line)
        if "solution" in report.record:
            print("solution:")
            print(plain(tuple(report.record["solution"])))
    raise typer.Exit(EXIT_OK if report.settled else EXIT_NOT_ALL_GOOD)


def _workers(jobs: int, work: int | None) -> int:
    """The worker processes to start for --jobs: no more than the work or the cores, said in
    one line when fewer than asked (see solver.core.parallel.worker_count)."""
    from placesat.core.parallel import usable_cores, worker_count

    workers = worker_count(jobs, work)
    if workers < jobs:
        cores = usable_cores()
        why = (f"this process may use {cores} core{'s' if cores != 1 else ''}" if work is None or cores <= work
               else f"there {'is' if work == 1 else 'are'} {work} puzzle{'s' if work != 1 else ''}")
        warn(f"--jobs {jobs}: starting {workers} worker process{'es' if workers != 1 else ''}, as {why}")
    return workers


@command(app)
def verify(
    paths: list[str] = typer.Argument(..., help="Pack files or folders of grid files ('-': standard input)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=256, help="Worker processes."),
    json_output: bool = json_option("One JSON object per puzzle per line."),
    time_limit: Optional[float] = time_limit_option(WHOLE_TIME_HELP),
    grid_time_limit: Optional[float] = grid_time_option(),
    backend: str = backend_option(),
    grade_all: bool = typer.Option(False, "--grade", help="Grade every unique puzzle (by default only those with a stated level)."),
    certify: bool = certify_option("every verdict ('unique', 'unsolvable'; a 'multiple' comes with its two solutions)"),
    checker: str = checker_option(),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Also write each result as a JSON line to this file, as it is decided."),
    resume: bool = typer.Option(False, "--resume", help="With --out: keep the results the file holds (the same packs' first puzzles) and check the rest."),
    cluster: Optional[str] = cluster_option(),
) -> None:
    """Verify whole packs: unique, multiple, unsolvable, unknown or invalid, per puzzle.

    Also checks that stated '# level:' and '# solution:' metadata are true. With --certify,
    every verdict is re-proven with a proof an independent checker replays. Packs are read
    as streams, of any length (a record, one grid with its metadata, is capped at 16 MB: a
    longer one is named and the rest goes on), and each result is printed as soon as it and
    every one before it are decided, in pack order. Exit code 0 only when every puzzle is
    unique (and certified, with --certify) and every stated fact holds; 1 otherwise; 2 for
    bad usage.
    """
    checkers = checkers_of(checker, certify)
    import itertools
    import json
    import time

    from placesat.core.parallel import WorkerCrash, run_ordered
    from placesat.lixso.pack import repeated_names, stream_pack
    from placesat.lixso.verify import Check, VerifyTally, check_in_worker, invalid, prepare, start_worker

    from placesat.core.records import RecordLog
    from placesat.lixso.verify import recorded_results

    if resume and out is None:
        fail("--resume needs --out (the results file to continue)")
    if out is not None:
        if out == "-":
            fail("--out must name a file (the results go to standard output anyway)")
        output_path(out)
    command_end = None if time_limit is None else time.monotonic() + time_limit
    stream = stream_pack(paths)
    entries = repeated_names(iter(stream), lambda grid: warn(
        f"the name {grid.name!r} is used by more than one puzzle (again at {grid.path or '-'}:{grid.line})"))
    tally = VerifyTally()
    done_before = 0
    if resume and os.path.isfile(out):
        done_before, last_name = recorded_results(out, tally)
        skipped, name = 0, ""
        for entry in itertools.islice(entries, done_before):
            skipped += 1
            name = entry.label() if isinstance(entry, Grid) else invalid(entry).name
        if skipped < done_before or name != last_name:  # the last result names the puzzle it is about
            found = f"the puzzle there is {name!r}" if skipped == done_before else f"the packs hold {skipped} puzzles"
            fail(f"--resume: {out} does not hold the results of these packs (its result {done_before} is {last_name!r}; {found})")
        if done_before:
            typer.echo(f"{done_before} puzzle{'s were' if done_before != 1 else ' was'} checked before (the results in {out} are kept)", err=True)
    jobs = _workers(jobs, None)
    settings = (backend, grid_time_limit, grade_all, command_end, checkers)
    log = RecordLog(out, fresh=not resume) if out is not None else None

    def emit(check: Check) -> None:
        with held_stops():  # a Ctrl-C between the count and the line would make them disagree
            _emit(check)

    def _emit(check: Check) -> None:
        tally.add(check)
        if log is not None:
            log.append(json.dumps(check.to_json(), separators=(",", ":")) + "\n")
        if json_output:
            print_json(check.to_json())
            return
        extra = []
        if check.level is not None:
            extra.append(f"level {check.level}" + ("" if check.stated_level in (None, check.level) else f" (stated {check.stated_level})"))
        if check.solution_matches is False:
            extra.append("stated solution is wrong")
        if check.error:
            extra.append(check.error)
        certified = f" ({check.certification.words()})" if check.certification is not None else ""
        print(f"{check.name}: {check.status}{certified}" + (f" - {', '.join(extra)}" if extra else "") + f" ({check.seconds:.3f} s)")

    def answer_here(entry):
        """An unreadable puzzle, or any past the time limit, is answered without a worker."""
        if isinstance(entry, InputError):
            return invalid(entry)
        if command_end is not None and time.monotonic() >= command_end:
            return check_in_worker(entry)
        return None

    stopped: Stop | None = None
    remote = _open_cluster(cluster, jobs) if cluster is not None else None
    try:
        with batch_progress("verify", stream.fraction) as bar:
            if remote is not None:
                from placesat.lixso.verify import start_worker_by_clock

                end_epoch = None if time_limit is None else time.time() + (command_end - time.monotonic())
                start_worker(*settings)  # for the puzzles answered here (past the time limit)
                results = remote.run_ordered(check_in_worker, entries, VERIFY_CHUNK, start_worker_by_clock,
                                             (backend, grid_time_limit, grade_all, end_epoch, checkers), here=answer_here)
            else:
                # the first puzzles' sizes are built once here, inherited by the workers
                first = list(itertools.islice(entries, 8 * jobs))
                prepare([g for g in first if isinstance(g, Grid)], *settings)
                results = run_ordered(check_in_worker, itertools.chain(first, entries), jobs, start_worker,
                                      settings, here=answer_here)
            for entry, result in results:
                if isinstance(result, WorkerCrash):
                    result = Check(entry.label(), "unknown", error=f"worker crashed: {result}")
                emit(result)
                bar.advance()
    except Stop as stop:
        stopped = stop
    finally:
        if log is not None:
            log.close()
        if remote is not None:
            remote.close()
    from rich.table import Table

    table = Table(title="verify summary" + (f" ({stopped.reason})" if stopped else ""))
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    for label, count in tally.rows(certify):
        table.add_row(label, str(count))
    # all that was read, unless a stop came first (a stream's length is not known ahead)
    table.add_row("checked", f"{tally.checked} of {tally.checked}" if stopped is None else f"{tally.checked} (stopped)")
    console(stderr=json_output).print(table)
    if stopped is not None:
        last = f", up to {tally.last_name}" if tally.last_name else ""
        kept = "; the same command with --resume checks the rest" if out is not None else ""
        typer.echo(f"placesat: {stopped.reason}: {tally.checked} puzzle{'s' if tally.checked != 1 else ''} checked{last}{kept}", err=True)
        raise typer.Exit(stopped.exit_code)
    raise typer.Exit(EXIT_OK if tally.all_good() else EXIT_NOT_ALL_GOOD)


# The strategic game's commands (cli/lixso_game.py imports its library inside each command).
from .lixso_game import app as game_app  # noqa: E402

app.add_typer(game_app, name="game")


DEFAULT_HINT_TIME = 20.0
"""Seconds of hint making per puzzle of a play page unless told: a level-5 9x9 grid's steps
take a few seconds; the rare grid needing more has its hints cut, and the page says so."""
HINT_TIME_WARNING = 120.0
"""Seconds of hint making (at worst) past which ``html`` warns before it starts."""


@command(app, "html")
def html_page(
    files: list[str] = typer.Argument(..., help=FILES_HELP + " A puzzle ID works too."),
    out: str = typer.Option(..., "--out", "-o", help="The HTML file to write ('-': standard output)."),
    title: Optional[str] = typer.Option(None, "--title", help="The page's title (default: Lixso)."),
    solutions: str = typer.Option("embed", "--solutions", help="embed: answers hidden in the page, for 'check' and hints; none: no answers (the page tells a finished grid by the rules)."),
    name: Optional[str] = grid_name_option(),
    index: Optional[int] = grid_index_option(),
    hint_time: float = typer.Option(DEFAULT_HINT_TIME, "--hint-time", metavar="SECONDS", callback=seconds_callback, help=f"Seconds of hint making per puzzle (default {DEFAULT_HINT_TIME:g}); the page says where the hints prepared end, and warns on a puzzle whose hints this cut short."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=256, help="Worker processes (puzzles are prepared side by side)."),
    time_limit: Optional[float] = time_limit_option(WHOLE_TIME_HELP),
    json_output: bool = json_option('One JSON object: {"file", "puzzles": [{"name", "level", "hints", "hints_end"}], "left_out": [{"name", "status", "error"?}]}.'),
) -> None:
    """A web page to play the puzzles on: one HTML file that needs no network (open it from disk or put it on a site).

    The page has the puzzle list, the grid (colours or symbols), painting by click, drag
    or keys, undo, a timer, progress kept in the browser, 'check' and hints: the steps of
    'placesat lixso hint --steps', made now (up to --hint-time seconds a puzzle). Every
    puzzle is solved first: one that is not unique is left out and named (exit 1). Exit 2
    for bad input (the readable puzzles are still written).
    """
    from placesat.core.parallel import run_jobs
    from placesat.lixso.web import PagePuzzle, page_html, prepare_in_worker

    if solutions not in ("embed", "none"):
        fail(f"--solutions: must be embed or none, not {solutions!r}")
    output_path(out, json_output)
    deadline = Deadline(time_limit)
    picked = _picked_entries(files, name, index)
    if picked is not None:
        entries: list = picked
    else:
        entries = collect(files)
    code = EXIT_OK
    left_out: list[dict] = []
    for entry in entries:
        if isinstance(entry, InputError):
            typer.echo(f"placesat: error: {entry}", err=True)
            left_out.append(_invalid(entry))
            code = EXIT_BAD_INPUT
    grids = [entry for entry in entries if isinstance(entry, Grid)]
    worst = hint_time * math.ceil(len(grids) / jobs)
    if worst > HINT_TIME_WARNING:
        warn(f"hint making may take up to {worst / 60:.0f} min (--hint-time {hint_time:g} s for each of {len(grids)} puzzles"
             f" on {jobs} worker(s)); a smaller --hint-time, or more --jobs, is quicker (fewer hints on the hardest puzzles)")
    prepared: dict[int, object] = {}
    with progress("writing the page") as bar:
        task = bar.add_task("page", total=len(grids))
        work = [(grid, solutions == "embed", hint_time, deadline) for grid in grids]
        for number, result in run_jobs(prepare_in_worker, work, jobs):
            prepared[number] = result
            bar.advance(task)
    ready: list[PagePuzzle] = []
    for number, grid in enumerate(grids):  # in file order, whichever worker finished first
        result = prepared[number]
        if isinstance(result, PagePuzzle):
            ready.append(result)
            continue
        left_out.append(page_left_out(grid, result))
        error = left_out[-1].get("error")
        typer.echo(f"placesat: {grid.label()}: {left_out[-1]['status']}, left out" + (f" ({error})" if error else ""), err=True)
        code = max(code, EXIT_NOT_ALL_GOOD)
    if not ready:
        if json_output:
            print_json(page_record(None, ready, left_out))
        fail("no puzzle to put on the page", code if code != EXIT_OK else EXIT_NOT_ALL_GOOD)
    write_output(out, page_html(ready, title or "Lixso"))
    cut = sum(1 for p in ready if p.hints_end == "budget")
    note = f" ({cut} with hints cut short by --hint-time)" if cut else ""
    typer.echo(f"wrote {len(ready)} puzzle(s) to {out}{note}", err=True)
    if json_output:
        print_json(page_record(out, ready, left_out))
    raise typer.Exit(code)
