"""Lixso: cover a grid with L-tiles of four colours; tiles of one colour never touch.

Rooms, as in every game package: ``model`` (grids, packs, puzzle IDs), ``rules`` (the plain
checker, no solver), ``encode`` (rules as SAT / CP-SAT constraints), the queries ``solve``,
``deduce`` (levels and grading), ``explain`` (hints in words) and ``hint`` (the hint query),
``generate``, ``verify`` and ``certify``, ``render`` / ``sheets`` (terminal, SVG, printed PDF),
and ``answers`` (the ``--json`` records the commands and this API share). The rules as
implemented, with every interpretation, are in ``seeds/lixso.md``.

The calls below answer as the commands do (docs/api.md): each answer's ``to_json()`` is the
command's ``--json`` record.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from .generate import Generated
    from .hint import HintReport
    from .model import Grid
    from .solve import SolveReport
    from .verify import Check

__all__ = [
    # the calls
    "parse_grid", "load_pack", "parse_pack", "load_grid", "solve", "grade", "hint", "check", "generate", "verify",
    "draw", "print_sheets", "html_page",
    # the models and answers, and turning them to text and JSON
    "Grid", "SolveReport", "Verdict", "GradeReport", "HintReport", "Generated", "Check",
    "format_grid", "puzzle_id", "parse_id", "find_violation", "GenerationFailed", "InputError", "Answer",
    # the strategic game on a Lixso grid
    "game",
]


def parse_grid(text: str, path: str | None = None) -> Grid:
    """The one grid in ``text`` (the file format of docs/lixso.md: rows of ``.`` and clue
    letters I X S O, ``# key: value`` metadata above), or the grid a puzzle ID names
    (``LX9x9-...``). ``InputError`` when it breaks the format or holds several grids; ``path``
    names the text in messages."""
    from .model import looks_like_id, parse_id, parse_pack

    if looks_like_id(text):
        return parse_id(text)
    entries = parse_pack(text, path)
    if len(entries) != 1:
        raise InputError(f"{len(entries)} grids where one is expected (parse_pack reads several)" if entries
                         else "no grid in this text (empty, or only comments)", path)
    if isinstance(entries[0], InputError):
        raise entries[0]
    return entries[0]


def _grid(grid: Grid | str) -> Grid:
    return parse_grid(grid) if isinstance(grid, str) else grid


def solve(grid: Grid | str, *, backend: str = "sat", max_solutions: int | None = 2,
          time_limit: Deadline | float | None = None, per_colour: int | None = None, why: bool = True) -> SolveReport:
    """Solve a grid (a :class:`Grid`, or its text: see :func:`parse_grid`) and prove its
    solution unique: the verdict (``unique``, ``multiple``, ``unsolvable``, or ``unknown``
    past ``time_limit`` seconds) and up to ``max_solutions`` solutions (None: all), each
    replayed by the rule checker. ``per_colour``: the tiles of each colour, when the grid does
    not state it. ``why``: for a grid that is not a proper puzzle, find the reason too (the
    clues that clash, or the cells the solutions share and a clue that makes it unique; in
    ``report.why``). ``report.to_json()`` is ``lixso solve --json``'s record."""
    from ..core.limits import as_deadline
    from .solve import LixsoSolver
    from .why import reasons

    deadline = as_deadline(time_limit)
    solver = LixsoSolver(backend, per_colour)
    report = solver.solve(_grid(grid), max_solutions, deadline)
    if why:
        report.why = reasons(solver, report, deadline)[1]
    return report


def hint(puzzle: Grid | str, progress: Grid | str | None = None, *, steps: bool = False, level_only: bool = False,
         verbose: bool = False, show_solution: bool = False, per_colour: int | None = None,
         time_limit: Deadline | float | None = None) -> HintReport:
    """The next fact a person can deduce on ``puzzle`` (``lixso hint``), with its reason in
    words that name the cells, clues and rule: the easiest one (the weakest level, the fewest
    facts behind it). ``progress``: the same grid with the colours the person has placed (a
    wrong cell is named first, status ``wrong``); ``steps``: every step to the end;
    ``level_only``: only the level of the next step and where to look. ``report.hints`` holds
    them, ``report.to_json()`` is ``lixso hint --json``'s record."""
    from .hint import hint_grid

    return hint_grid(_grid(puzzle), None if progress is None else _grid(progress), steps=steps, level_only=level_only,
                     verbose=verbose, show_solution=show_solution, per_colour=per_colour, time_limit=time_limit)


@dataclass
class GradeReport:
    """A grid's level (1-6) as ``lixso grade`` reports it: ``status`` is ``unique``, ``unsolvable``,
    ``multiple`` or ``unknown`` (past the time limit); ``level`` None unless it is unique."""

    name: str
    status: str
    level: int | None
    hardest: str

    def to_json(self) -> dict:
        """``{"name", "status", "level", "hardest"}``, ``lixso grade --json``'s record."""
        return {"name": self.name, "status": self.status, "level": self.level, "hardest": self.hardest}


def grade(grid: Grid | str, *, time_limit: float | None = None, per_colour: int | None = None) -> GradeReport:
    """The level of a puzzle: the weakest deductions (levels 1-5, seeds/lixso.md) that decide
    every cell, or 6 when none does and the solver proves the grid unique. The first grade of
    a grid size in a process builds the deducer (its kernels come compiled with the install)."""
    from .verify import grade_in_worker, start_grader

    start_grader(per_colour, None if time_limit is None else _epoch_after(time_limit))
    return GradeReport(**grade_in_worker(_grid(grid)))


def _epoch_after(seconds: float) -> float:
    import time

    return time.time() + seconds


def generate(level: int, count: int = 1, seed: int = 0, *, height: int = 9, width: int = 9,
             per_colour: int | None = None, minimal: bool = False) -> list[Generated]:
    """``count`` puzzles of exactly ``level`` (1-6), each unique, as ``lixso generate`` makes
    them: puzzle ``i`` depends only on ``(seed, i)`` and the options, so the same call gives the
    same puzzles (named ``L<level>-s<seed>-<i>``). Each :class:`Generated` holds the grid, its
    solution and level; ``GenerationFailed`` when one cannot be made."""
    from .generate import GenerationFailed, fulfil, orders

    made = []
    for order in orders(count, level, height, width, seed, per_colour, minimal):
        result = fulfil(order)
        if isinstance(result, str):
            raise GenerationFailed(f"{order.name}: {result}")
        made.append(result)
    return made


def verify(pack: str | list[Grid | InputError], *, backend: str = "sat", time_limit: float | None = None,
           grade_all: bool = False) -> list[Check]:
    """Check every puzzle of a pack (a file's path, or the entries of :func:`load_pack`):
    solved and proved unique, and its stated level and solution true. A grid that breaks the
    format is a check of status ``invalid``; ``check.facts_hold()`` says whether all is well,
    ``check.to_json()`` is ``lixso verify --json``'s record. ``time_limit``: seconds a puzzle."""
    from .model import load_pack
    from .verify import Verifier, invalid

    entries = load_pack(pack) if isinstance(pack, str) else pack
    verifier = Verifier(backend, time_limit, grade_all)
    return [invalid(entry) if isinstance(entry, InputError) else verifier.check(entry) for entry in entries]


def check(puzzle: Grid | str, solution: Grid | str | None = None, *, per_colour: int | None = None) -> Answer:
    """Check a proposed solution against the rules, without any solver (``lixso check``): the
    first broken rule and the cells involved, or valid. ``solution``: a grid of colour letters
    (default: the puzzle's own stated answer). ``answer["valid"]``; ``answer.to_json()`` is the
    command's record."""
    from ..core.answers import Answer
    from .answers import check_record
    from .rules import find_violation

    grid = _grid(puzzle)
    if solution is None:
        rows = grid.stated_solution()
        if rows is None:
            raise InputError(f"{grid.label()}: no solution given and the pack states none (no '# solution:' line, no answers file beside it)")
    else:
        rows = _grid(solution).rows
    if (len(rows), len(rows[0])) != (grid.height, grid.width):
        raise InputError(f"the solution is {len(rows)}x{len(rows[0])}, the puzzle is {grid.height}x{grid.width}")
    violation = find_violation(grid, rows, grid.per_colour(per_colour))
    return Answer(check_record(violation), violation)


def draw(grid: Grid | str, out: str, *, symbols: bool = False, labels: bool = True,
         time_limit: float | None = None) -> Answer:
    """Draw the puzzle alone, no answer, as SVG to ``out`` (``lixso draw``): solved first, a
    grid with no solution or several says so in the picture. ``symbols``: letters in black and
    white; ``labels``: row and column labels. ``answer.to_json()`` is the command's record;
    ``answer.status`` the verdict."""
    from ..core.answers import Answer
    from ..core.outputs import write_atomic
    from .answers import drawn_record, picture_note
    from .render import svg
    from .solve import LixsoSolver

    puzzle = _grid(grid)
    report = LixsoSolver().solve(puzzle, 2, time_limit)
    write_atomic(out, svg(puzzle, None, symbols=symbols, note=picture_note(report), labels=labels))
    return Answer(drawn_record(report, out), report)


def _entries(pack: str | list[Grid | InputError]) -> list[Grid | InputError]:
    from .model import load_pack

    return load_pack(pack) if isinstance(pack, str) else list(pack)


def print_sheets(pack: str | list[Grid | InputError], out: str, *, per_page: int = 4, symbols: bool = False,
                 solutions: bool = False, paper: str = "a4", title: str | None = None, labels: bool = True,
                 time_limit: float | None = None, cover: bool = False) -> Answer:
    """Print & play sheets (``lixso print``): write a PDF of the puzzles of ``pack`` (a path, or
    grids) to ``out``, ``per_page`` (1, 2, 4 or 6) to a page, with answer pages at the end if
    ``solutions`` and a cover page first if ``cover``. Every puzzle is solved first: one that is not unique, or unreadable, is left
    out and named. ``answer.to_json()`` is the command's record (``file`` None, and nothing
    written, when no puzzle is left to print)."""
    from .. import __version__
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.outputs import write_atomic
    from .answers import printable, sheets_record
    from .sheets import LAYOUTS, PAPERS, SheetPuzzle, sheets_pdf

    if per_page not in LAYOUTS:
        raise InputError(f"--per-page: must be one of {', '.join(map(str, sorted(LAYOUTS)))}, not {per_page}")
    if paper not in PAPERS:
        raise InputError(f"--paper: must be a4 or letter, not {paper!r}")
    ready, left_out = [], []
    for _, made in printable(_entries(pack), Deadline(time_limit)):
        (ready if isinstance(made, SheetPuzzle) else left_out).append(made)
    if ready:
        name = os.path.splitext(os.path.basename(pack))[0] if isinstance(pack, str) else None
        write_atomic(out, sheets_pdf(ready, per_page, symbols, solutions, paper, title, labels, name,
                                     creator=f"placesat {__version__}", cover=cover))
    return Answer(sheets_record(out, ready, left_out, per_page, solutions, cover))


def html_page(pack: str | list[Grid | InputError], out: str, *, title: str | None = None, solutions: bool = True,
              hint_time: float = 20.0, jobs: int = 1, time_limit: float | None = None) -> Answer:
    """A web page to play the puzzles of ``pack`` on (``lixso html``): one HTML file, written to
    ``out``, with the hints of ``lixso hint --steps`` prepared (up to ``hint_time`` seconds a
    puzzle) and the answers hidden in it for 'check' (``solutions=False``: none). Every puzzle
    is solved first: one that is not unique is left out and named. ``answer.to_json()`` is the
    command's record."""
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.outputs import write_atomic
    from ..core.parallel import run_jobs
    from .answers import page_left_out, page_record, unreadable_record
    from .model import Grid
    from .web import PagePuzzle, page_html, prepare_in_worker

    deadline = Deadline(time_limit)
    entries = _entries(pack)
    left_out = [unreadable_record(entry) for entry in entries if isinstance(entry, InputError)]
    grids = [entry for entry in entries if isinstance(entry, Grid)]
    prepared = dict(run_jobs(prepare_in_worker, [(grid, solutions, hint_time, deadline) for grid in grids], jobs))
    ready = []
    for number, grid in enumerate(grids):
        result = prepared[number]
        if isinstance(result, PagePuzzle):
            ready.append(result)
        else:
            left_out.append(page_left_out(grid, result))
    if ready:
        write_atomic(out, page_html(ready, title or "Lixso"))
    return Answer(page_record(out, ready, left_out))


export(__name__, {
    "load_pack": ".model", "parse_pack": ".model", "load_grid": ".model", "Grid": ".model",
    "format_grid": ".model", "puzzle_id": ".model", "parse_id": ".model",
    "SolveReport": ".solve", "Verdict": ".solve", "HintReport": ".hint", "Check": ".verify", "find_violation": ".rules",
    "Generated": ".generate", "GenerationFailed": ".generate", "game": None,
    "Answer": "..core.answers",
})
