"""The play page: puzzles, their hidden answers and their hint steps, inlined into one HTML file."""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from html import escape
from importlib import resources

from ...core.limits import Deadline, TimeUp
from ..explain import Contradiction, explainer_for
from ..model import COLOURS, Grid, default_per_colour, puzzle_id
from ..render import SVG_FILL
from ..sheets import LEVEL_COLOURS

HINTS_SOLVED = "solved"
"""The hint steps reach the end: every cell follows."""
HINTS_LEVEL6 = "level 6"
"""The hint steps stop where nested trials would be needed (or none can be found)."""
HINTS_BUDGET = "budget"
"""The time for hints ran out while the page was written: no more hints prepared."""
HINTS_NONE = "none"
"""The page holds no answers, so no hints (``--solutions none``)."""


@dataclass(frozen=True)
class PagePuzzle:
    """One puzzle of the page: the grid, its level (None: unknown), its unique solution (None:
    the page holds no answers) and the hint steps from the empty grid, with how they end."""

    grid: Grid
    level: int | None
    solution: tuple[str, ...] | None
    hints: list[dict] = field(default_factory=list)
    hints_end: str = HINTS_BUDGET


def hint_steps(puzzle: Grid, per_colour: int | None = None, deadline: Deadline | None = None) -> tuple[list[dict], str]:
    """The hints ``placesat lixso hint --steps`` gives from the clues alone, each accepted in
    turn, as the page shows them: ``fact``, ``level``, ``why``, ``cells`` (the cells involved,
    1-based) and ``target`` (the cells the fact is about, their colour letter and whether the
    fact says they have it). Stops at ``deadline`` (the end is then :data:`HINTS_BUDGET`), at
    the end (:data:`HINTS_SOLVED`) or where nested trials would be needed (:data:`HINTS_LEVEL6`)."""
    explainer = explainer_for(puzzle.height, puzzle.width, puzzle.per_colour(per_colour))
    board = explainer.board
    steps: list[dict] = []
    try:
        session = explainer.session(puzzle, None, deadline)
        while not session.complete():
            found = session.next()
            if not found:
                return steps, HINTS_LEVEL6
            best = found[0]
            kind, where, colour = best.key
            cells = board.cells_of[where] if kind == "tile" else (where,)
            step = best.to_json()
            step["target"] = {
                "cells": [[i // puzzle.width + 1, i % puzzle.width + 1] for i in cells],
                "colour": COLOURS[colour],
                "value": best.value,
            }
            steps.append(step)
            session.accept(best)
    except TimeUp:
        return steps, HINTS_BUDGET
    except Contradiction:  # a unique puzzle's clues never clash; no hints rather than a wrong one
        return steps, HINTS_LEVEL6
    return steps, HINTS_SOLVED


def prepare_puzzle(grid: Grid, embed: bool = True, hint_seconds: float | None = None, deadline: Deadline | None = None) -> PagePuzzle | str:
    """One puzzle made ready for the page: solved (a puzzle goes on the page only when it is
    unique; otherwise its verdict, ``multiple``, ``unsolvable`` or ``unknown``, is returned),
    its level (the stated one, else graded now; None when the time runs out), and with
    ``embed`` its solution and hint steps (at most ``hint_seconds`` of them, within
    ``deadline``)."""
    from ..deduce import shown_level
    from ..solve import Verdict

    deadline = deadline or Deadline.never()
    report = _solver().solve(grid, 2, deadline)
    if report.status is not Verdict.UNIQUE:
        return report.status.value
    level = shown_level(grid, deadline)
    if not embed:
        return PagePuzzle(grid, level, None, [], HINTS_NONE)
    steps, end = hint_steps(grid, None, deadline.sooner(hint_seconds))
    return PagePuzzle(grid, level, report.solutions[0], steps, end)


def prepare_in_worker(job: tuple) -> PagePuzzle | str:
    """:func:`prepare_puzzle` for ``solver.core.parallel.run_jobs`` (one argument)."""
    return prepare_puzzle(*job)


@functools.cache
def _solver():
    """One solver a process: it keeps each grid size's compiled rules from puzzle to puzzle."""
    from ..solve import LixsoSolver

    return LixsoSolver()


def _key(puzzle: Grid) -> bytes:
    """The puzzle's own XOR key: from its ID and name, so the same page is written the same way."""
    return hashlib.sha256(f"lixso-play:{puzzle_id(puzzle)}:{puzzle.label()}".encode()).digest()


def scramble(secret: object, key: bytes) -> str:
    """``secret`` as JSON, XORed with ``key`` and written in base64: the page's answers are not
    readable at a glance in its source (this hides, it does not protect)."""
    data = json.dumps(secret, separators=(",", ":")).encode()
    return base64.b64encode(bytes(b ^ key[i % len(key)] for i, b in enumerate(data))).decode("ascii")


def unscramble(text: str, key: bytes) -> object:
    """The inverse of :func:`scramble` (the page's script does the same)."""
    data = base64.b64decode(text)
    return json.loads(bytes(b ^ key[i % len(key)] for i, b in enumerate(data)))


def _puzzle_data(puzzle: PagePuzzle) -> dict:
    grid = puzzle.grid
    entry: dict = {
        "id": puzzle_id(grid),
        "name": grid.label(),
        "level": puzzle.level,
        "rows": list(grid.rows),
        "perColour": grid.per_colour() or default_per_colour(grid.height, grid.width),
    }
    if puzzle.solution is not None:
        key = _key(grid)
        entry["key"] = base64.b64encode(key).decode("ascii")
        entry["secret"] = scramble(
            {"solution": list(puzzle.solution), "hints": puzzle.hints, "hintsEnd": puzzle.hints_end}, key
        )
    return entry


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>`` or ``<!--`` can end it early."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_html(puzzles: list[PagePuzzle], title: str = "Lixso") -> str:
    """The whole page: the template with its style, script and the puzzles inlined; nothing
    is fetched when it opens. Without solutions (``solution`` None) the page can still tell a
    finished grid by the rules, but it cannot name wrong cells or give hints."""
    data = {
        "fills": SVG_FILL,
        "levelColours": LEVEL_COLOURS,
        "puzzles": [_puzzle_data(p) for p in puzzles],
    }
    parts = {
        "STYLE": _asset("play.css"),
        "SCRIPT": _asset("play.js").replace("</", "<\\/"),
        "DATA": _script_json(data),
        "TITLE": escape(title),
    }
    # one pass over the template alone: inlined text is never scanned for marks again
    return re.sub(r"@@([A-Z]+)@@", lambda match: parts[match[1]], _asset("play.html"))
