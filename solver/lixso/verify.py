"""Batch verification of puzzle packs: is each puzzle unique, and is its metadata true?"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from ..core.errors import InputError
from ..core.limits import Deadline, TimeUp
from ..core.certify import Certificate
from .certify import certify
from .deduce import HARDEST, Grade, deducer_for, discard_deducers
from .model import HARDEST_LEVEL, Grid, GridError
from .rules import find_violation
from .solve import LixsoSolver, SolveReport, SolverBug, Verdict

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
    decided_by: str | None = None  # "deduction" (the grade decided every cell) or the solver's backend

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
            "decided_by": self.decided_by,
            **(self.certification.to_json() if self.certification is not None else {}),
        }


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
        self.settings = (backend, time_limit, grade_all, command_end, self.checkers)

    def warm(self, grids: list[Grid]) -> None:
        """Build now, once, what checking ``grids`` needs for each grid size: the deducer (its
        templates and engines), the compiled trial kernels, and the solver when some puzzle
        will need it (level 6, no level to grade, or proofs to certify). Worker processes forked afterwards inherit
        all of it instead of each building its own. Stops quietly at the time limit (the checks
        then say ``unknown`` themselves)."""
        from .native import kernels

        deadline = self._deadline()
        built: set[tuple[str, int, int]] = set()
        for grid in grids:
            graded = self.grade_all or grid.stated_level() is not None
            solved = bool(self.checkers) or not graded or grid.stated_level() == HARDEST
            try:
                if graded and ("deducer", grid.height, grid.width) not in built:
                    deducer_for(grid.height, grid.width, grid.per_colour(self.solver.per_colour), deadline)
                    kernels()
                    built.add(("deducer", grid.height, grid.width))
                if solved and ("solver", grid.height, grid.width) not in built:
                    self.solver.compiled(grid, deadline)
                    built.add(("solver", grid.height, grid.width))
            except TimeUp:
                return

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
                raise InputError(f"level metadata {shown!r} is not a level (1 to {HARDEST_LEVEL})", grid.path, grid.line)
            deadline = self._deadline()
            if deadline.expired():  # nothing is built past the limit: every later puzzle is unknown at once
                result = Check(grid.label(), Verdict.UNKNOWN.value, stated_level=stated_level,
                               error="the time limit came first")
                result.seconds = time.perf_counter() - start
                return result
            grading = stated_level is not None or self.grade_all
            if grading and not self.checkers:
                result = self._by_deduction(grid, stated_level, deadline)
            else:
                result = self._by_solver(grid, stated_level, deadline, grading)
        except InputError as error:
            result = Check(grid.label(), INVALID, error=str(error))
        except BaseException:
            # a solver that failed mid-call (a signal, say) is not trusted for the next puzzle
            self.solver = LixsoSolver(self.solver.backend_name, self.solver.per_colour)
            discard_deducers()
            raise
        result.seconds = time.perf_counter() - start
        return result

    def _by_solver(self, grid: Grid, stated_level: int | None, deadline: Deadline, grading: bool,
                   grade: Grade | None = None) -> Check:
        """The solver's verdict (two solutions asked for: unique or not), certified when asked,
        and the grade of a unique puzzle when ``grading`` (``grade`` when already known: what its
        deductions found holds in every solution, so the solver starts from it)."""
        facts = grade.facts if grade is not None and not self.checkers else ()
        report = self.solver.solve(grid, 2, deadline, facts)
        certification = certify(self.solver, report, self.checkers, deadline) if self.checkers else None
        if certification is not None and certification.rejected:
            report.status = Verdict.UNKNOWN
        result = Check(grid.label(), report.status.value, stated_level=stated_level, certification=certification,
                       error=certification.reason if certification is not None and certification.rejected else None,
                       decided_by=self.solver.backend_name)
        if report.status is Verdict.UNIQUE:
            stated = grid.stated_solution()
            if stated is not None:
                result.solution_matches = stated == report.solutions[0]
            if grading:
                if grade is not None:
                    result.level = grade.level
                    return result
                try:
                    deducer = deducer_for(grid.height, grid.width, grid.per_colour(self.solver.per_colour), deadline)
                    # the solution spares trials that cannot fail; the grade is the same
                    result.level = deducer.grade(grid, deadline=deadline, solution=report.solutions[0]).level
                except TimeUp:
                    return self._ungraded(grid, stated_level)
        return result

    def _by_deduction(self, grid: Grid, stated_level: int | None, deadline: Deadline) -> Check:
        """Grade first: when the deductions of some level decide every cell, that is itself the
        proof of uniqueness (each deduction holds in every solution, so there is at most one, and
        the rule checker accepts the one they reach), and the solver is not asked. Otherwise
        (level 6, or clues that contradict each other) the solver decides, as without a level;
        at level 6 it starts from the facts levels 1-5 found (its search about three times
        shorter on the shipped level-6 pack: these were the costliest calls of ``verify``).

        Measured on the 120 shipped puzzles: grading without a known solution costs what grading
        with one does (the solution spares trials, computing it costs as much), and the solver's
        two calls, about 10 ms a puzzle, go for every puzzle of levels 1-5."""
        try:
            deducer = deducer_for(grid.height, grid.width, grid.per_colour(self.solver.per_colour), deadline)
            grade = deducer.grade(grid, deadline=deadline)
        except TimeUp:
            return self._ungraded(grid, stated_level)
        if grade.level is None or grade.level >= HARDEST:
            return self._by_solver(grid, stated_level, deadline, True, grade if grade.level is not None else None)
        solution = grade.solved_rows
        violation = find_violation(grid, solution, self.solver.cap_for(grid))
        if violation is not None:
            raise SolverBug(f"the deductions reached a grid the rules reject: {violation}")
        stated = grid.stated_solution()
        return Check(grid.label(), Verdict.UNIQUE.value, level=grade.level, stated_level=stated_level,
                     solution_matches=None if stated is None else stated == solution, decided_by="deduction")

    @staticmethod
    def _ungraded(grid: Grid, stated_level: int | None) -> Check:
        return Check(grid.label(), Verdict.UNKNOWN.value, stated_level=stated_level,
                     error="the time limit came before the grade")


class VerifyTally:
    """The counts of a verify run, kept as the verdicts come (never the verdicts themselves:
    a pack of a million puzzles is summed up in a few numbers)."""

    def __init__(self) -> None:
        self.statuses: Counter[str] = Counter()
        self.uncertified = 0
        self.wrong_facts = 0
        self.checked = 0
        self.all_hold = True
        self.last_name = ""

    def add(self, check: Check) -> None:
        self.statuses[check.status] += 1
        self.checked += 1
        self.last_name = check.name
        if check.status == Verdict.UNIQUE.value:
            if check.certification is not None and not check.certification.certified:
                self.uncertified += 1
            elif not check.facts_hold():
                self.wrong_facts += 1
        self.all_hold = self.all_hold and check.facts_hold()

    def all_good(self) -> bool:
        """Every puzzle unique (certified, when asked) with every stated fact true."""
        return self.all_hold

    def rows(self, certified: bool) -> list[tuple[str, int]]:
        """The summary's lines: what was found, and how many (the count checked aside)."""
        rows = []
        good = self.statuses[Verdict.UNIQUE.value] - self.wrong_facts - self.uncertified
        if good:
            rows.append(("unique" + (", certified" if certified else ""), good))
        if self.uncertified:
            rows.append(("unique, not certified", self.uncertified))
        if self.wrong_facts:
            rows.append(("unique, but stated level/solution wrong", self.wrong_facts))
        for status in ("multiple", "unsolvable", "unknown", INVALID):
            if self.statuses[status]:
                rows.append((status, self.statuses[status]))
        return rows


def recorded_results(path: str, tally: VerifyTally) -> tuple[int, str]:
    """The results an earlier verify wrote to ``path`` (JSON lines, in pack order), counted
    into ``tally``: how many, and the last one's name. A last line cut short (no line end, or
    not a result) is dropped from the file, to be checked again."""
    import json
    import os

    count, keep, last = 0, 0, ""
    with open(path, "rb") as handle:
        for raw in handle:
            try:
                row = json.loads(raw) if raw.endswith(b"\n") else None
            except ValueError:
                row = None
            if not isinstance(row, dict) or not isinstance(row.get("name"), str) or not isinstance(row.get("status"), str):
                break
            tally.add(Check(row["name"], row["status"], level=row.get("level"), stated_level=row.get("stated_level"),
                            solution_matches=row.get("solution_matches"), error=row.get("error")))
            count, keep, last = count + 1, keep + len(raw), row["name"]
    os.truncate(path, keep)
    return count, last


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
    """Set up a worker process's verifier (an initializer for :func:`placesat.core.parallel.run_jobs`);
    one with the same settings that the process has already (from :func:`prepare`, inherited
    through the fork) is kept, warm."""
    global _worker
    if _worker is None or _worker.settings != (backend, time_limit, grade_all, command_end, tuple(checkers)):
        _worker = Verifier(backend, time_limit, grade_all, command_end, checkers)


def start_worker_by_clock(backend: str, time_limit: float | None, grade_all: bool, end_epoch: float | None = None,
                          checkers: tuple[str, ...] = ()) -> None:
    """:func:`start_worker` on another machine: the command's end given as a wall-clock time
    (``time.time()``; the machines' clocks are taken to agree), since a monotonic clock is
    one machine's own."""
    command_end = None if end_epoch is None else time.monotonic() + (end_epoch - time.time())
    start_worker(backend, time_limit, grade_all, command_end, checkers)


_grading: tuple[int | None, float | None] | None = None  # the grader's supply and command end (monotonic)
_grading_solver: LixsoSolver | None = None


def start_grader(per_colour: int | None, end_epoch: float | None = None) -> None:
    """Set up this process to grade (``lixso grade``): the colour supply asked for, and the
    command's end as a wall-clock time (the clocks of a cluster's machines taken to agree)."""
    global _grading, _grading_solver
    command_end = None if end_epoch is None else time.monotonic() + (end_epoch - time.time())
    if _grading is None or _grading[0] != per_colour or _grading_solver is None:
        _grading_solver = LixsoSolver("sat", per_colour)
    _grading = (per_colour, command_end)


def grade_in_worker(grid: Grid) -> dict:
    """The grade of one grid as ``lixso grade`` reports it: ``{"name", "status", "level",
    "hardest"}``. A grid whose deductions stop short of every cell is level 6 only when the
    solver proves it unique; one they find no solution for is unsolvable."""
    assert _grading is not None and _grading_solver is not None, "start_grader was not called"
    per_colour, command_end = _grading
    deadline = Deadline(None)
    if command_end is not None:
        deadline.end = command_end
        deadline.seconds = max(command_end - time.monotonic(), 0.0)
    level: int | None = None
    why: dict = {}
    try:
        deadline.check()  # past the limit nothing is built: every later grid is unknown at once
        result = deducer_for(grid.height, grid.width, grid.per_colour(per_colour), deadline).grade(grid, deadline=deadline)
        level, hardest = result.level, result.hardest
        status = Verdict.UNIQUE.value
        if level is None:
            status = Verdict.UNSOLVABLE.value
            why = _why_not_proper(SolveReport(grid, Verdict.UNSOLVABLE), deadline)
        elif level == HARDEST:
            verdict = _grading_solver.solve(grid, 2, deadline)
            status = verdict.status.value
            if verdict.status is not Verdict.UNIQUE:
                level, hardest = None, f"not unique ({status})" if status != "unknown" else "the time limit came first"
                why = _why_not_proper(verdict, deadline)
    except TimeUp:
        level, status, hardest = None, Verdict.UNKNOWN.value, "the time limit came first"
    return {"name": grid.label(), "status": status, "level": level, "hardest": hardest} | why


def _why_not_proper(report: SolveReport, deadline: Deadline) -> dict:
    """A grade row's account of a grid that is not a proper puzzle (placesat.lixso.why): its
    JSON fields, and its lines under "why"; nothing when the time limit comes first."""
    from .why import ambiguity, conflicting_clues

    assert _grading_solver is not None
    try:
        if report.status is Verdict.UNSOLVABLE:
            found = conflicting_clues(_grading_solver, report.grid, deadline)
            return found.to_json() | {"why": found.lines()}
        if report.status is Verdict.MULTIPLE:
            shared = ambiguity(_grading_solver, report.grid, report.solutions, deadline)
            return shared.to_json() | {"why": shared.words()}
    except TimeUp:
        pass
    return {}


def prepare(grids: list[Grid], backend: str, time_limit: float | None, grade_all: bool,
            command_end: float | None = None, checkers: tuple[str, ...] = ()) -> None:
    """Set up this process's verifier and build what checking ``grids`` needs
    (:meth:`Verifier.warm`), before the worker processes start: forked from this one, they
    inherit it (one build instead of one per worker)."""
    start_worker(backend, time_limit, grade_all, command_end, checkers)
    assert _worker is not None
    _worker.warm(grids)


def check_in_worker(grid: Grid) -> Check:
    """Check one puzzle with this process's verifier."""
    assert _worker is not None, "start_worker was not called"
    return _worker.check(grid)
