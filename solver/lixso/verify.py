"""Batch verification of puzzle packs: is each puzzle unique, and is its metadata true?"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..core.errors import InputError
from ..core.limits import Deadline, TimeUp
from ..core.certify import Certificate
from .certify import certify
from .deduce import deducer_for, discard_deducers
from .model import Grid, GridError, load_pack
from .solve import LixsoSolver, Verdict

INVALID = "invalid"


@dataclass
class Check:
    """The verdict on one puzzle of a pack."""

    name: str
    status: str  # unique, multiple, unsolvable, unknown, or invalid (unreadable)
    level: int | None = None
    stated_level: int | None = None
    solution_matches: bool | None = None  # None when no solution is stated (or none is unique)
    error: str | None = None
    seconds: float = 0.0
    certification: Certificate | None = None  # with --certify

    def facts_hold(self) -> bool:
        """Unique (certified, when certification was asked for), and every stated fact (level, solution) is true."""
        return (
            self.status == Verdict.UNIQUE.value
            and self.solution_matches is not False
            and (self.stated_level is None or self.level == self.stated_level)
            and (self.certification is None or self.certification.certified)
        )

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "status": self.status,
            "level": self.level,
            "stated_level": self.stated_level,
            "solution_matches": self.solution_matches,
            "error": self.error,
            "seconds": round(self.seconds, 6),
            **(self.certification.to_json() if self.certification is not None else {}),
        }


def collect(paths: list[str]) -> list[Grid | InputError]:
    """Every puzzle under ``paths`` (pack files, or folders of grid files, read in name order)."""
    entries: list[Grid | InputError] = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(
                name for name in os.listdir(path) if not name.startswith(".") and os.path.isfile(os.path.join(path, name))
            )
            if not names:
                entries.append(InputError("folder holds no grid files", path))
            for name in names:
                entries.extend(_load(os.path.join(path, name)))
        else:
            entries.extend(_load(path))
    return entries


def _load(path: str) -> list[Grid | InputError]:
    try:
        return load_pack(path)
    except InputError as error:
        return [error]


class Verifier:
    """Checks puzzles one after another, keeping warm solvers per grid size."""

    def __init__(
        self,
        backend: str = "sat",
        time_limit: float | None = None,
        grade_all: bool = False,
        command_end: float | None = None,
        checkers: tuple[str, ...] = (),
    ) -> None:
        """``time_limit``: seconds per puzzle; ``command_end``: the ``time.monotonic()`` at which
        the whole command's time is up (shared by worker processes: the clock is system-wide);
        ``checkers``: certify each verdict with these proof checkers (none: no certificates)."""
        self.solver = LixsoSolver(backend)
        self.time_limit = time_limit
        self.grade_all = grade_all
        self.command_end = command_end
        self.checkers = tuple(checkers)

    def _deadline(self) -> Deadline:
        deadline = Deadline(None)
        if self.command_end is not None:
            deadline.end = self.command_end
            deadline.seconds = max(self.command_end - time.monotonic(), 0.0)
        return deadline.sooner(self.time_limit)

    def check(self, grid: Grid) -> Check:
        """Solve, prove unique, and compare with the stated level and solution."""
        start = time.perf_counter()
        try:
            stated_level = grid.stated_level()
            if "level" in grid.metadata and stated_level is None:
                shown = grid.metadata["level"][:20] + ("..." if len(grid.metadata["level"]) > 20 else "")
                raise InputError(f"level metadata {shown!r} is not a level (1 to 6)", grid.path, grid.line)
            deadline = self._deadline()
            report = self.solver.solve(grid, 2, deadline)
            certification = certify(self.solver, report, self.checkers, deadline) if self.checkers else None
            if certification is not None and certification.rejected:
                report.status = Verdict.UNKNOWN
            result = Check(grid.label(), report.status.value, stated_level=stated_level, certification=certification,
                           error=certification.reason if certification is not None and certification.rejected else None)
            if report.status is Verdict.UNIQUE:
                stated = grid.stated_solution()
                if stated is not None:
                    result.solution_matches = stated == report.solutions[0]
                if stated_level is not None or self.grade_all:
                    try:
                        deducer = deducer_for(grid.height, grid.width, self.solver.per_colour, deadline)
                        # the solution spares trials that cannot fail; the grade is the same
                        result.level = deducer.grade(grid, deadline=deadline, solution=report.solutions[0]).level
                    except TimeUp:
                        result = Check(grid.label(), Verdict.UNKNOWN.value, stated_level=stated_level,
                                       error="the time limit came before the grade")
        except InputError as error:
            result = Check(grid.label(), INVALID, error=str(error))
        except BaseException:
            # a solver that failed mid-call (a signal, say) is not trusted for the next puzzle
            self.solver = LixsoSolver(self.solver.backend_name, self.solver.per_colour)
            discard_deducers()
            raise
        result.seconds = time.perf_counter() - start
        return result


def invalid(entry: InputError) -> Check:
    """The verdict on a puzzle that could not be read."""
    if isinstance(entry, GridError):
        name = entry.label()
    else:
        name = f"{entry.path}:{entry.line}" if entry.line is not None else str(entry.path)
    return Check(name, INVALID, error=str(entry))


_worker: Verifier | None = None


def start_worker(backend: str, time_limit: float | None, grade_all: bool, command_end: float | None = None,
                 checkers: tuple[str, ...] = ()) -> None:
    """Set up a worker process's verifier (an initializer for :func:`solver.core.parallel.run_jobs`)."""
    global _worker
    _worker = Verifier(backend, time_limit, grade_all, command_end, checkers)


def check_in_worker(grid: Grid) -> Check:
    """Check one puzzle with this process's verifier."""
    assert _worker is not None, "start_worker was not called"
    return _worker.check(grid)
