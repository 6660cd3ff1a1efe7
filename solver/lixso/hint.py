"""The next facts a person can deduce on a puzzle, with their reasons (``lixso hint``).

The query behind the command: the grid is solved first (with no solution the clues that
cannot all hold are named; with several, the cells all solutions share, and hints go on as far
as the rules force cells); a person's progress is checked against the solution; then the
easiest next step (:mod:`placesat.lixso.explain`), or every step to the end. The answer is a
:class:`HintReport`: the lines the command prints and the record it prints with ``--json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import InputError
from ..core.limits import Deadline, TimeUp
from .model import Grid
from .solve import LixsoSolver, Verdict


@dataclass
class HintReport:
    """The hints for one grid: ``record`` is ``lixso hint --json``'s object (name, status,
    outcome, hints, and the reason a grid is not a proper puzzle, the cells a person got wrong,
    the solution when asked); ``lines`` the command's text after the grid's name; ``settled``
    False where the command exits 1 (not a proper puzzle, a wrong cell, no step found, the
    time limit)."""

    record: dict
    lines: list[str] = field(default_factory=list)
    settled: bool = True

    def to_json(self) -> dict:
        """``lixso hint --json``'s record."""
        return self.record

    @property
    def hints(self) -> list[dict]:
        """The hints found, in order, each ``{"fact", "level", "why", "cells"}`` (``{"level",
        "region"}`` with ``level_only``)."""
        return self.record["hints"]


def progress_grid(puzzle: Grid, state: Grid, solution: tuple[str, ...]) -> tuple[Grid, list[str]]:
    """The puzzle with a person's progress (``state``: the same grid with the colours they have
    placed) written in, and the cells they got wrong (``solution``: the solution, or the cells
    all solutions share with '.' elsewhere)."""
    if (state.height, state.width) != (puzzle.height, puzzle.width):
        raise InputError(f"the progress grid is {state.height}x{state.width}, the puzzle is {puzzle.height}x{puzzle.width}", state.path, state.line)
    rows, wrong = [], []
    for r, (clue_row, mine) in enumerate(zip(puzzle.rows, state.rows)):
        row = []
        for c, (clue, written) in enumerate(zip(clue_row, mine)):
            if clue != "." and written not in (".", clue):
                wrong.append(f"r{r + 1}c{c + 1} is a {clue} clue (you wrote {written})")
            elif written != "." and solution[r][c] not in (".", written):  # '.': solutions differ there
                wrong.append(f"r{r + 1}c{c + 1} ({written} is not right there)")
            row.append(clue if clue != "." else written)
        rows.append("".join(row))
    return Grid(tuple(rows), name=puzzle.name, metadata=puzzle.metadata, path=puzzle.path, line=puzzle.line), wrong


def where_hints_stop(decided: tuple[str, ...], shown: tuple[str, ...]) -> str:
    """Where hints on a grid with several solutions stop: at the cells the solutions share,
    or short of them where nested trials would be needed."""
    open_cells = sum(row.count(".") for row in decided)
    missing = sum(1 for a, b in zip("".join(decided), "".join(shown)) if a != "." and b == ".")
    if not missing:
        return (f"stops here: every cell that all solutions share is deduced; the other {open_cells}"
                " differ between solutions, so no rule can force them")
    return (f"stops here: no further step by the rules up to level 5; {missing} cells that every solution"
            f" shares still need nested trials (level 6), and the other {open_cells} differ between solutions")


def level_words(level: int) -> str:
    """What a level's deductions are, in a few words (seeds/lixso.md)."""
    from .deduce import LEVELS

    return LEVELS.get(level, "")


class _Done(Exception):
    """The hints are settled: carries the report (the command's ``finish``)."""

    def __init__(self, report: HintReport) -> None:
        self.report = report


def hint_grid(puzzle: Grid, state: Grid | None = None, *, steps: bool = False, level_only: bool = False,
              verbose: bool = False, show_solution: bool = False, per_colour: int | None = None,
              time_limit: Deadline | float | None = None) -> HintReport:
    """The next fact a person can deduce on ``puzzle`` (with ``state``: from their progress),
    with its reason in words that name the cells, clues and rule; ``steps``: every step to the
    end; ``level_only``: only how hard the next step is and where to look. The easiest next
    fact is the one of the weakest level resting on the fewest facts (a whole tile when one is
    known); levels as in ``lixso grade`` (seeds/lixso.md)."""
    from .explain import Contradiction, explainer_for
    from .why import reasons

    deadline = time_limit if isinstance(time_limit, Deadline) else Deadline(time_limit)
    solver = LixsoSolver("sat", per_colour)
    report = solver.solve(puzzle, 2, deadline)
    result: dict = {"name": puzzle.label(), "status": report.status.value, "hints": []}

    def finish(settled: bool, lines: list[str]) -> None:
        if show_solution and report.solutions:
            result["solution"] = list(report.solutions[0])
        raise _Done(HintReport(result, lines, settled))

    try:
        words = ""
        why_lines: list[str] = []
        if report.status is not Verdict.UNIQUE:
            words = {
                Verdict.UNSOLVABLE: "no solution: the clues and the rules allow none, so there is nothing to deduce",
                Verdict.MULTIPLE: "not a proper puzzle: it has more than one solution, so some cells cannot be deduced",
                Verdict.UNKNOWN: "unknown: the time limit came before the grid was checked",
            }[report.status]
            why_lines, why_fields = reasons(solver, report, deadline)
            result.update(why_fields)
            if "decided" not in why_fields:
                finish(False, why_lines if report.status is Verdict.UNSOLVABLE and why_fields else [words] + why_lines)
        # several solutions: the hints go on as far as the rules force cells (every deduction is
        # sound whatever the number of solutions), checked against the cells all solutions share
        decided = tuple(result["decided"]) if "decided" in result else None
        preface = [] if decided is None else [words] + why_lines
        done = decided is None
        solution = report.solutions[0] if decided is None else decided
        grid = puzzle
        if state is not None:
            grid, wrong = progress_grid(puzzle, state, solution)
            if wrong:
                result["status"] = "wrong"
                result["wrong"] = wrong
                finish(False, ["some of your cells are wrong; fix them first:"] + [f"  {w}" for w in wrong])
        clue_cells = {r * puzzle.width + c for r, c, _ in puzzle.clues()}
        explainer = explainer_for(grid.height, grid.width, puzzle.per_colour(per_colour))
        lines: list[str] = list(preface)
        try:
            session = explainer.session(grid, clue_cells, deadline, verbose)
            if session.complete():
                result["outcome"] = "filled"
                finish(done, preface + ["nothing left to deduce: every cell is filled in"])
            while True:
                found = session.next()
                if not found:
                    break
                best = found[0]
                result["hints"].append(best.to_json())
                if level_only:
                    lines.append(f"the next step needs level {best.level} ({level_words(best.level)}); look at {best.region()}")
                    result["hints"][-1] = {"level": best.level, "region": best.region()}
                    break
                lines.append(f"{len(result['hints'])}. [level {best.level}] {best.fact}: {best.reason}")
                if not steps:
                    break
                session.accept(best)
                if session.complete():
                    result["outcome"] = "solved"
                    lines.append("solved: every cell is filled in")
                    break
        except TimeUp:
            result["status"] = "unknown"
            finish(False, lines + ["unknown: the time limit came before the next step"])
        except Contradiction:  # only a wrong progress grid can clash, and that was caught above
            raise InputError("the coloured cells break the rules")
        if decided is not None and (not result["hints"] or steps):
            result["outcome"] = "stopped"
            result["stop"] = where_hints_stop(decided, session.rows())
            lines.append(result["stop"])
            finish(done, lines)
        if not result["hints"] or (steps and not session.complete()):
            result["outcome"] = "level 6"
            lines.append(
                "no further step by the rules up to level 5: from here it needs nested trials (level 6)"
                if result["hints"] or not steps else
                "no step by the rules up to level 5: the next one needs nested trials (level 6)"
            )
            finish(bool(result["hints"]), lines)
        result.setdefault("outcome", "next")
        finish(done, lines)
    except _Done as settled:
        return settled.report
    raise AssertionError("every path above finishes")  # pragma: no cover
