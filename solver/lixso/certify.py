"""Certified verdicts: "unique" and "unsolvable" backed by a proof an independent checker accepts.

A grid is *unique* when it has a solution (replayed by :mod:`placesat.lixso.rules`) and the
CNF "the rules of this grid size, the clues as unit clauses, and not this solution" has no
model. *Unsolvable* is the same without the last clause. :func:`certify` builds that CNF,
refutes it on a fresh proof-logging solver, and has the proof checked
(:mod:`placesat.core.certify`). "Multiple" needs no proof: its two solutions are replayed by the
plain rules, which is its certificate.
"""

from __future__ import annotations

import re

from ..core.backend import cnf_of
from ..core.certify import DEFAULT_CHECKERS, Certificate, certify_refutation, witnessed
from ..core.limits import Deadline, TimeUp
from .model import Grid
from .rules import find_violation
from .solve import LixsoSolver, SolveReport, SolverBug, Verdict

RULE_ENGINE = "its solutions replayed by the rule engine"
"""How "multiple" is certified: two solutions replayed by :mod:`placesat.lixso.rules`."""


def certify(
    solver: LixsoSolver,
    report: SolveReport,
    checkers: tuple[str, ...] = DEFAULT_CHECKERS,
    deadline: Deadline | None = None,
) -> Certificate:
    """Certify ``report``'s verdict (see the module docstring). A fresh solver that finds a
    model where the verdict said there is none raises :class:`SolverBug`: one of the two
    solvers is wrong, and no answer may be given."""
    if report.status is Verdict.MULTIPLE:
        return witnessed(RULE_ENGINE)
    if report.status is Verdict.UNKNOWN:
        return Certificate(False, reason="there is no answer to certify")
    grid = report.grid
    deadline = deadline or Deadline(None)
    try:
        template = solver.compiled(grid, deadline).template
        base, top = cnf_of(template.formula, deadline)
    except TimeUp:
        return Certificate(False, reason="the time limit came before the proof")
    extra: list[list[int]] = []
    if report.status is Verdict.UNIQUE:
        clue_cells = {(r, c) for r, c, _ in grid.clues()}
        cells = [(r, c) for r in range(grid.height) for c in range(grid.width)]
        solution = template.solution_literals(report.solutions[0])
        extra.append([-lit for cell, lit in zip(cells, solution) if cell not in clue_cells])
    outcome = certify_refutation(base, top, extra, template.clue_assumptions(grid), checkers, deadline)
    if not isinstance(outcome, Certificate):
        raise SolverBug(_contradiction(grid, report, template.decode(_as_model(outcome, top)), solver.cap_for(grid)))
    return outcome


def _as_model(true_literals: list[int], top: int) -> list[bool]:
    model = [False] * (top + 1)
    for lit in true_literals:
        if lit <= top:
            model[lit] = True
    return model


def _contradiction(grid: Grid, report: SolveReport, found: tuple[str, ...], cap: int) -> str:
    violation = find_violation(grid, found, cap)
    if violation is not None:
        return f"{grid.label()}: the proof solver's model breaks the rules ({violation}): an encoder defect"
    return f"{grid.label()}: the solver said {report.status.value}, but a fresh solver found a valid solution it excluded"


def proof_file_stem(grid: Grid, index: int) -> str:
    """The file name (without extension) for a grid's certificate: its name made safe, or ``grid-N``."""
    name = grid.metadata.get("name") or grid.name or ""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")
    return stem or f"grid-{index + 1}"


def certificate_comments(grid: Grid, report: SolveReport, stem: str = "NAME") -> list[str]:
    """The comment lines at the top of a certificate CNF (``stem``.cnf): what it encodes and why
    it must have no model."""
    what = "and the solution below is excluded" if report.status is Verdict.UNIQUE else "and nothing else"
    lines = [
        f"placesat lixso: {grid.label()} is {report.status.value}",
        f"the Lixso rules of a {grid.height}x{grid.width} grid, its clues as unit clauses, {what};",
        f"unsatisfiable means no (other) solution exists. Check: drat-trim {stem}.cnf {stem}.drat",
    ]
    if report.status is Verdict.UNIQUE:
        lines += [f"solution {row}" for row in report.solutions[0]]
    return lines
