"""The records Lixso's commands print with ``--json`` where the library's answer is not the
whole of it, built here once so that the command line and the Python API
(:mod:`placesat.lixso`) print the same; and the puzzles a printed sheet or a web page takes
(every puzzle solved first: one that is not unique is left out, and named)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from ..core.errors import InputError
from ..core.limits import Deadline
from .model import Grid, GridError
from .rules import Violation


def unreadable_record(entry: InputError) -> dict[str, Any]:
    """A grid that could not be read, as a batch's JSON names it."""
    if isinstance(entry, GridError):
        name = entry.label()
    else:
        name = f"{entry.path}:{entry.line}" if entry.line else str(entry.path)
    return {"name": name, "status": "invalid", "error": str(entry)}


def check_record(violation: Violation | None) -> dict[str, Any]:
    """``lixso check --json``: whether a solution keeps every rule, else the first rule it
    breaks, in words, and the cells involved (from 1)."""
    return {
        "valid": violation is None,
        "rule": violation.rule if violation else None,
        "message": violation.message if violation else None,
        "cells": [[r + 1, c + 1] for r, c in violation.cells] if violation else [],
    }


def printable(entries: Iterable[Grid | InputError], deadline: Deadline) -> Iterator[tuple[Grid | InputError, Any]]:
    """Each entry of a pack with what ``lixso print`` makes of it: a
    :class:`~placesat.lixso.sheets.SheetPuzzle` (solved, unique, its level shown), or the
    record of why it is left out (unreadable, or not unique: ``{"name", "status"}``)."""
    from .deduce import shown_level
    from .sheets import SheetPuzzle
    from .solve import LixsoSolver, Verdict

    solver = LixsoSolver()
    for entry in entries:
        if isinstance(entry, InputError):
            yield entry, unreadable_record(entry)
            continue
        report = solver.solve(entry, 2, deadline)
        if report.status is not Verdict.UNIQUE:
            yield entry, {"name": entry.label(), "status": report.status.value}
            continue
        yield entry, SheetPuzzle(entry, shown_level(entry, deadline), report.solutions[0])


def sheets_record(out: str | None, ready: list, left_out: list[dict], per_page: int, solutions: bool,
                  cover: bool = False) -> dict[str, Any]:
    """``lixso print --json``: the file written (None when no puzzle could be printed), the
    puzzles printed, those left out, the pages of puzzles, of answers and of the cover."""
    if not ready:
        return {"file": None, "printed": [], "left_out": left_out, "pages": 0, "answer_pages": 0, "cover_pages": 0}
    return {"file": out, "printed": [puzzle.grid.label() for puzzle in ready], "left_out": left_out,
            "pages": -(-len(ready) // per_page), "answer_pages": -(-len(ready) // 12) if solutions else 0,
            "cover_pages": int(cover)}


def page_left_out(grid: Grid, result: Any) -> dict[str, Any]:
    """A puzzle ``lixso html`` leaves out: its status (not unique, or the worker preparing it
    failed: ``unknown`` with the error)."""
    from ..core.parallel import WorkerCrash

    status, error = ("unknown", str(result)) if isinstance(result, WorkerCrash) else (result, None)
    return {"name": grid.label(), "status": status, **({"error": error} if error else {})}


def page_record(out: str | None, ready: list, left_out: list[dict]) -> dict[str, Any]:
    """``lixso html --json``: the file written (None when no puzzle could go on the page), each
    puzzle with its level and the hints prepared, those left out."""
    if not ready:
        return {"file": None, "puzzles": [], "left_out": left_out}
    return {
        "file": out,
        "puzzles": [{"name": p.grid.label(), "level": p.level, "hints": len(p.hints), "hints_end": p.hints_end} for p in ready],
        "left_out": left_out,
    }


def picture_note(report) -> str | None:
    """What a picture of a grid must say when it is not a proper puzzle (``report``: its
    :class:`~placesat.lixso.solve.SolveReport`); None for a unique one."""
    from .solve import Verdict

    if report.status is Verdict.UNSOLVABLE:
        return "This grid has no solution."
    if report.status is Verdict.MULTIPLE:
        return "This grid has more than one solution: it is not a proper puzzle."
    if report.status is Verdict.UNKNOWN:
        return "Not checked: the time limit came before the solver proved one solution."
    return None


def drawn_record(report, path: str) -> dict[str, Any]:
    """``lixso draw --json``, one grid: its name, its verdict, the picture's file."""
    return {"name": report.grid.label(), "status": report.status.value, "file": path}
