"""Solve Lixso grids and prove their solutions unique.

A puzzle is *unique* when one solution exists and a second one, searched for with the first
one blocked, does not. Every solution found is replayed through the plain rule checker
(:mod:`placesat.lixso.rules`) before it is reported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from ..core.backend import DEFAULT_BACKEND, NATIVE_CARDINALITY_SOLVERS, Backend, make_backend
from ..core.limits import Deadline, TimeUp, as_deadline
from .encode import LixsoTemplate, template_for
from .model import Grid, default_per_colour
from .rules import find_violation


# The python-sat solver by grid size (benchmarks/lixso_solve.py PACK --sat-solvers ...; README,
# "Solve and prove unique"). Up to LARGE_GRID_CELLS cells: MiniCard, with the colour supply and
# the one-colour-per-cell constraints native (no totalizer); on minimal-clue packs from 9x9 to
# 15x15 it took 0.54-0.99 of Glucose 4's median time (0.58-0.73 at 9x9), 0.41-0.88 of its 95th
# percentile, and a max from 0.39 to 1.23 times Glucose's. Above: Glucose 4 (before MiniCard,
# the best of MiniSat, CaDiCaL and Glucose at 9x9), because on 21x21 grids with a fifth of the
# cells as clues MiniCard's tail is far longer (once 19 s against at most 1.8 s).
SAT_SOLVER = "minicard"
LARGE_GRID_SAT_SOLVER = "glucose4"
LARGE_GRID_CELLS = 225


# The "tiling" redundant family (encode.py: a variable per placement, each cell in exactly one
# placed tile whatever its colour) on grids up to TILING_CELLS cells, for both backends
# (benchmarks/lixso_solve.py PACK --tiling both; README, "The tiling family"). With MiniCard,
# as a share of the time without it: on four 9x9 packs the median 0.63-1.00, the max 0.16-0.76;
# at 9x12 the median 0.71, the max 1.06; at 12x12 the median 0.64-0.76 but the max 1.2-1.35;
# at 15x15 worse throughout (max 2.6x). CP-SAT at 9x9: median 0.86-0.92.
TILING_CELLS = 108


def solving_template(height: int, width: int, per_colour: int, deadline: Deadline | None = None) -> LixsoTemplate:
    """The template a solver answers from: the full one, with the tiling family on grids up to
    TILING_CELLS cells. Its colour and tile literals are the grader's own (encode.template_for)."""
    return template_for(height, width, per_colour, deadline=deadline, tiling=height * width <= TILING_CELLS)


def sat_solver_for(cells: int) -> str:
    """The python-sat solver for a grid of ``cells`` cells (see SAT_SOLVER)."""
    return SAT_SOLVER if cells <= LARGE_GRID_CELLS else LARGE_GRID_SAT_SOLVER


class Verdict(str, Enum):
    """What solving a grid established."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"  # the time limit came first: no claim either way


@dataclass
class SolveReport:
    """The verdict on one grid, the solutions found (each a tuple of row strings), and the time taken."""

    grid: Grid
    status: Verdict
    solutions: list[tuple[str, ...]] = field(default_factory=list)
    seconds: float = 0.0
    complete: bool = True  # whether ``solutions`` is every solution (False: a limit cut the search short)
    # why the grid is not a proper puzzle, as JSON fields (placesat.lixso.why.reasons), when asked
    why: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """``lixso solve --json``'s record (without ``--certify``)."""
        return {
            "name": self.grid.label(),
            "status": self.status.value,
            "solutions": [list(s) for s in self.solutions],
            "solution_count": len(self.solutions),
            "all_found": self.complete,
            "seconds": round(self.seconds, 6),
        } | self.why


class SolverBug(RuntimeError):
    """A solver answer that the plain rule checker rejects: a defect in an encoder, never bad input."""


@dataclass
class _Compiled:
    template: LixsoTemplate
    backend: Backend


class LixsoSolver:
    """Solves grids one after another, keeping one compiled template and warm solver per grid size.

    Reusing the solver across grids keeps what it learnt about the rules themselves: clues
    enter as assumptions, and each blocked solution sits behind a selector that is switched
    off for good once its grid is done.
    """

    def __init__(self, backend: str = DEFAULT_BACKEND, per_colour: int | None = None) -> None:
        self.backend_name = backend
        self.per_colour = per_colour
        self._compiled: dict[tuple[int, int, int], _Compiled] = {}

    def compiled(self, grid: Grid, deadline: Deadline | None = None) -> _Compiled:
        """The template and solver for this grid's size, built on first use (``TimeUp`` when
        ``deadline`` comes first; nothing half-built is kept)."""
        cap = self.cap_for(grid)
        key = (grid.height, grid.width, cap)
        if key not in self._compiled:
            template = solving_template(grid.height, grid.width, cap, deadline)
            options: dict = {}
            if self.backend_name == "sat":
                name = sat_solver_for(grid.height * grid.width)
                options = {"solver": name, "native_cardinality": name in NATIVE_CARDINALITY_SOLVERS}
            backend = make_backend(self.backend_name, template.formula, deadline=deadline, **options)
            self._compiled[key] = _Compiled(template, backend)
        return self._compiled[key]

    def cap_for(self, grid: Grid) -> int:
        stated = grid.per_colour(self.per_colour)
        return default_per_colour(grid.height, grid.width) if stated is None else stated

    def solve(self, grid: Grid, max_solutions: int | None = 2, time_limit: Deadline | float | None = None,
              facts: Sequence[int] = ()) -> SolveReport:
        """Find up to ``max_solutions`` solutions (all of them when None) and the verdict.

        Two solutions are enough to call a grid ``multiple``; one solution with no second is
        ``unique``; none is ``unsolvable``. When the time limit (seconds from now, or a
        :class:`Deadline` shared with other work) passes before that is settled, model
        building included, the verdict is ``unknown`` and the solutions found so far are kept;
        ``complete`` on the report says whether the list of solutions is all of them.
        ``facts``: colour and tile literals that hold in every solution of ``grid`` (a grade's
        deductions), given as assumptions: the same solutions, found with less search.
        """
        start = time.perf_counter()
        deadline = as_deadline(time_limit)
        if deadline.expired():
            # past the limit nothing is built: a pack's every later grid is unknown at once
            # (a template that the limit cuts short is not kept, so each grid rebuilt it)
            return SolveReport(grid, Verdict.UNKNOWN, [], time.perf_counter() - start, complete=False)
        try:
            compiled = self.compiled(grid, deadline)
        except TimeUp:
            return SolveReport(grid, Verdict.UNKNOWN, [], time.perf_counter() - start, complete=False)
        template, backend = compiled.template, compiled.backend
        clue_cells = {(r, c) for r, c, _ in grid.clues()}
        # the colours fix the tiles, so solutions differ exactly on some free cell's colour
        project = [
            lit
            for cell, lits in zip(template.cells, template.colour)
            if cell not in clue_cells
            for lit in lits
        ]
        wanted = None if max_solutions is None else max(max_solutions, 2)
        solutions: list[tuple[str, ...]] = []
        violations: list[str] = []
        cap = self.cap_for(grid)

        def replay(model: list[bool]) -> None:
            # each solution goes through the rule checker as it is found, within the time limit
            # (with --all, checking thousands of them after the enumeration overran it)
            solution = template.decode(model)
            violation = find_violation(grid, solution, cap)
            if violation is None:
                solutions.append(solution)
            else:
                violations.append(violation)

        try:
            _, complete = backend.enumerate(project, template.clue_assumptions(grid) + list(facts), wanted,
                                            deadline.remaining(), on_model=replay)
        except BaseException:
            # a solver that failed mid-call is not trusted again: the next grid gets a new one
            self._compiled = {k: v for k, v in self._compiled.items() if v is not compiled}
            raise
        if violations:
            raise SolverBug(f"{self.backend_name} backend produced an invalid solution: {violations[0]}")
        if len(solutions) >= 2:
            status = Verdict.MULTIPLE
        elif not complete:
            status = Verdict.UNKNOWN
        else:
            status = Verdict.UNIQUE if solutions else Verdict.UNSOLVABLE
        if max_solutions is not None:
            complete = complete and len(solutions) <= max_solutions
            solutions = solutions[: max(max_solutions, 0)]
        return SolveReport(grid, status, solutions, time.perf_counter() - start, complete=complete)


def solve_grid(
    grid: Grid,
    backend: str = DEFAULT_BACKEND,
    max_solutions: int | None = 2,
    time_limit: Deadline | float | None = None,
    per_colour: int | None = None,
) -> SolveReport:
    """Solve one grid with a fresh solver (see :meth:`LixsoSolver.solve`)."""
    return LixsoSolver(backend, per_colour).solve(grid, max_solutions, time_limit)
