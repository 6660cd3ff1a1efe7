"""Why a typed-in grid is not a proper puzzle: the clues that clash, or what the solutions share.

* An unsolvable grid: a set of its clues that cannot all hold together, *minimal* in the
  sense that dropping any one of them leaves a grid with a solution (a minimal unsatisfiable
  subset, found by deletion; there may be other such sets, and smaller ones).
* A grid with several solutions: its *backbone* (every cell whose colour all solutions
  share) and a clue to add, a cell and a colour, that leaves exactly one solution, when one
  exists; else a few clues, taken greedily from one solution, that do.

Clues enter the solver as assumptions over the size's compiled template
(:class:`placesat.lixso.solve.LixsoSolver`), so every question is one call on one warm solver.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.backend import Status
from ..core.limits import Deadline, TimeUp
from .model import COLOURS, Grid
from .solve import LixsoSolver, SolveReport, SolverBug, Verdict
from .rules import find_violation

Clue = tuple[int, int, str]  # row, column (from 0), colour letter


def clue_words(clues: list[Clue]) -> str:
    """Clues as a person reads them: ``r1c2=I, r3c3=X`` (rows and columns from 1)."""
    return ", ".join(f"r{r + 1}c{c + 1}={k}" for r, c, k in clues)


def clue_json(clues: list[Clue]) -> list[dict]:
    return [{"row": r + 1, "col": c + 1, "colour": k} for r, c, k in clues]


@dataclass
class Conflict:
    """Clues of an unsolvable grid that cannot all hold. ``minimal``: removing any one of them
    gives a grid with a solution (False when the time limit cut the shrinking short)."""

    clues: list[Clue]
    minimal: bool
    where: str | None = None  # the hints' direct rules meeting the clash among these clues

    def lines(self) -> list[str]:
        """The clues, then where the direct rules find the clash (or that they need trials)."""
        if not self.clues:
            return [self.words()]
        if self.where is None:
            return [self.words(), "the direct rules (levels 1 and 2) find no clash among them: it takes trials"]
        return [self.words(), f"where: {self.where}"]

    def words(self) -> str:
        if not self.clues:
            return "no solution: the grid's size and colour supply allow none, whatever the clues"
        n = len(self.clues)
        what = f"these {n} clues cannot all hold" if n > 1 else "this clue cannot hold"
        tail = "" if self.minimal else " (the time limit came first: maybe not the fewest)"
        return f"no solution: {what}: {clue_words(self.clues)}{tail}"

    def to_json(self) -> dict:
        return {"conflict": clue_json(self.clues), "conflict_minimal": self.minimal, "clash": self.where}


def _status(solver: LixsoSolver, grid: Grid, assumptions: list[int], deadline: Deadline) -> Status:
    backend = solver.compiled(grid, deadline).backend
    return backend.status(assumptions, deadline.remaining())


def conflicting_clues(solver: LixsoSolver, grid: Grid, deadline: Deadline) -> Conflict:
    """For a grid the solver found unsolvable: a minimal set of its clues that cannot all hold.

    Deletion: start from the solver's core over the clue assumptions, drop each clue in turn,
    and keep it dropped when the rest still has no solution (then shrink to that call's core).
    Every clue kept was tried: without it the others have a solution. ``TimeUp`` when the
    limit comes before even the first call; a later cut returns the set so far, not minimal.
    """
    template = solver.compiled(grid, deadline).template
    backend = solver.compiled(grid, deadline).backend
    lit_of = {template.colour[template.cell_index((r, c))][COLOURS.index(k)]: (r, c, k) for r, c, k in grid.clues()}
    kept = list(lit_of)
    status = _status(solver, grid, kept, deadline)
    if status is Status.UNKNOWN:
        raise TimeUp("the time limit came before the clues were checked")
    if status is Status.SAT:
        raise SolverBug("a grid called unsolvable has a solution")

    def shrink(candidates: list[int]) -> list[int]:
        core = backend.core()
        if core is None:
            return candidates
        failed = set(core)
        return [lit for lit in candidates if lit in failed]

    kept = shrink(kept)
    minimal = True
    i = 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1:]
        status = _status(solver, grid, trial, deadline) if not deadline.expired() else Status.UNKNOWN
        if status is Status.UNKNOWN:
            minimal = False
            break
        if status is Status.UNSAT:
            # the clues before i were each needed, so every core of ``trial`` keeps them
            kept = shrink(trial)
        else:
            i += 1
    clues = sorted(lit_of[lit] for lit in kept)
    where = None
    if clues:
        from .explain import explainer_for

        only = [["."] * grid.width for _ in range(grid.height)]
        for r, c, k in clues:
            only[r][c] = k
        where = explainer_for(grid.height, grid.width, solver.cap_for(grid)).clash(Grid(tuple("".join(row) for row in only)), deadline)
    return Conflict(clues, minimal, where)


@dataclass
class Ambiguity:
    """What the solutions of a grid with several share, and how to make it unique.

    ``decided``: the solution's colour on each cell every solution agrees on, else ``.``
    (clue cells included); ``complete`` False when the time limit came first (then some cells
    shown open may be decided). ``suggestion``: clues to add that leave exactly one solution
    (one when a single clue does; ``suggestion_fewest`` says whether no single clue could);
    empty when none was found in time.
    """

    decided: tuple[str, ...]
    complete: bool
    suggestion: list[Clue] = field(default_factory=list)
    suggestion_checked_all: bool = False  # every single clue was tried

    def open_cells(self) -> int:
        return sum(row.count(".") for row in self.decided)

    def words(self) -> list[str]:
        cells = sum(len(row) for row in self.decided)
        open_cells = self.open_cells()
        lines = [f"{cells - open_cells} of {cells} cells are the same in every solution"
                 + ("" if self.complete else " (at least: the time limit came first)")
                 + f"; {open_cells} differ (shown '.'):"]
        lines += ["  " + row for row in self.decided]
        if len(self.suggestion) == 1:
            lines.append(f"adding the clue {clue_words(self.suggestion)} leaves exactly one solution")
        elif self.suggestion:
            why = "no single clue does" if self.suggestion_checked_all else "no single clue was found in time"
            lines.append(f"{why}; adding these {len(self.suggestion)} clues leaves exactly one solution"
                         f" (chosen greedily, maybe not the fewest): {clue_words(self.suggestion)}")
        else:
            lines.append("no clue to add was found before the time limit")
        return lines

    def to_json(self) -> dict:
        return {
            "decided": list(self.decided),
            "decided_cells": sum(len(row) for row in self.decided) - self.open_cells(),
            "backbone_complete": self.complete,
            "suggestion": clue_json(self.suggestion),
        }


def _solution(solver: LixsoSolver, grid: Grid, assumptions: list[int], deadline: Deadline) -> tuple[str, ...] | None | Status:
    """A solution under these assumptions, replayed through the rule checker; None when there
    is none; Status.UNKNOWN when the time limit came first."""
    compiled = solver.compiled(grid, deadline)
    result = compiled.backend.solve(assumptions, deadline.remaining())
    if result.status is Status.UNKNOWN:
        return Status.UNKNOWN
    if result.status is Status.UNSAT:
        return None
    solution = compiled.template.decode(result.model)
    violation = find_violation(grid, solution, solver.cap_for(grid))
    if violation is not None:
        raise SolverBug(f"the solver gave an invalid solution: {violation}")
    return solution


def ambiguity(solver: LixsoSolver, grid: Grid, solutions: list[tuple[str, ...]], deadline: Deadline) -> Ambiguity:
    """The backbone of a grid with several solutions (two of them given) and a clue that makes
    it unique.

    Backbone: a cell is decided when no solution gives it another colour than the first
    solution does; each cell still in doubt is asked once, and a solution found that way
    clears every cell where it differs. Suggestion: each open cell, with each colour some
    found solution gives it (the rarer colours first: they cut more), is tried as one more
    clue until one leaves a unique grid; when none does, clues from the first solution are
    added one at a time, the backbone recomputed, until one solution is left.
    """
    template = solver.compiled(grid, deadline).template
    clues = template.clue_assumptions(grid)

    def lit(r: int, c: int, k: str) -> int:
        return template.colour[template.cell_index((r, c))][COLOURS.index(k)]

    def backbone(assumed: list[int], found: list[tuple[str, ...]]) -> tuple[set[tuple[int, int]], bool]:
        first = found[0]
        open_cells = {(r, c) for r in range(grid.height) for c in range(grid.width)
                      if any(s[r][c] != first[r][c] for s in found)}
        for r in range(grid.height):
            for c in range(grid.width):
                if (r, c) in open_cells:
                    continue
                answer = _solution(solver, grid, assumed + [-lit(r, c, first[r][c])], deadline) if not deadline.expired() else Status.UNKNOWN
                if answer is Status.UNKNOWN:
                    return open_cells, False
                if answer is not None:
                    found.append(answer)
                    open_cells |= {(a, b) for a in range(grid.height) for b in range(grid.width) if answer[a][b] != first[a][b]}
        return open_cells, True

    found = list(solutions)
    open_cells, complete = backbone(clues, found)
    first = found[0]
    decided = tuple("".join("." if (r, c) in open_cells else first[r][c] for c in range(grid.width)) for r in range(grid.height))
    report = Ambiguity(decided, complete)
    if not complete:
        return report

    def unique_with(extra: list[int]) -> bool | None:
        answer = _solution(solver, grid, clues + extra, deadline)
        if answer is Status.UNKNOWN or answer is None:
            return None if answer is Status.UNKNOWN else False
        blocked = [-lit(r, c, answer[r][c]) for r, c in sorted(open_cells)]
        # a second solution differs from this one on some open cell: one clause says so
        backend = solver.compiled(grid, deadline).backend
        selector = backend.new_var()
        backend.add_clause([-selector] + blocked)
        try:
            second = backend.status(clues + extra + [selector], deadline.remaining())
        finally:
            backend.add_clause([-selector])
        if second is Status.UNKNOWN:
            return None
        return second is Status.UNSAT

    try:
        candidates = []
        for r, c in sorted(open_cells):
            counts: dict[str, int] = {}
            for s in found:
                counts[s[r][c]] = counts.get(s[r][c], 0) + 1
            candidates += [(n, r, c, k) for k, n in counts.items()]
        for _, r, c, k in sorted(candidates):
            if deadline.expired():
                return report
            verdict = unique_with([lit(r, c, k)])
            if verdict is None:
                return report
            if verdict:
                report.suggestion = [(r, c, k)]
                return report
        report.suggestion_checked_all = True
        # greedy: fix open cells to the first solution's colours until one solution is left
        added: list[Clue] = []
        remaining_open, still = set(open_cells), [first]
        while remaining_open:
            r, c = min(remaining_open)
            added.append((r, c, first[r][c]))
            extra = [lit(a, b, k) for a, b, k in added]
            still = [first]
            remaining_open, done = backbone(clues + extra, still)
            if not done:
                return report
        report.suggestion = added
    except TimeUp:
        pass
    return report


def reasons(solver: LixsoSolver, report: SolveReport, deadline: Deadline) -> tuple[list[str], dict]:
    """Why a solved grid is not a proper puzzle,
    in lines and JSON fields: for an unsolvable one the clues that cannot all hold, for one with
    several solutions the cells they share and a clue that makes it unique. Nothing for the
    others, or when the time limit comes first (then a line says so)."""
    try:
        if report.status is Verdict.UNSOLVABLE:
            conflict = conflicting_clues(solver, report.grid, deadline)
            return conflict.lines(), conflict.to_json()
        if report.status is Verdict.MULTIPLE and len(report.solutions) >= 2:
            found = ambiguity(solver, report.grid, report.solutions, deadline)
            return found.words(), found.to_json()
    except TimeUp:
        return ["the time limit came before the reason was found"], {}
    return [], {}
