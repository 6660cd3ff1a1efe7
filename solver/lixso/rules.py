"""The plain Lixso rule checker, written without any solver.

A solution is the colour of every cell. It is valid for a puzzle when:

1. it has the puzzle's size and every cell has one of the colours I X S O (the grid is
   covered completely);
2. every clue cell has the clue's colour;
3. same-coloured tiles never touch, by a side or by a corner. Because of this rule the
   colours alone determine the tiles: each set of same-coloured cells connected through
   sides and corners must be exactly one L-tile (three cells filling three quarters of a
   2x2 block);
4. no colour is used for more tiles than the box offers (``per_colour``).

:func:`find_violation` names the first broken rule and the cells involved; the solver's
answers are replayed through it, and so are the tests' hand-made solutions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .model import COLOURS, EMPTY, Grid, default_per_colour

Cell = tuple[int, int]


@dataclass(frozen=True)
class Violation:
    """A broken rule: which one (``rule``), in words (``message``), and the ``cells`` involved."""

    rule: str
    message: str
    cells: tuple[Cell, ...] = ()

    def __str__(self) -> str:
        if not self.cells:
            return f"{self.rule}: {self.message}"
        shown = " ".join(cell_name(cell) for cell in self.cells)
        return f"{self.rule}: {self.message} (cells {shown})"


def cell_name(cell: Cell) -> str:
    """A cell as people write it: row and column counted from 1, e.g. ``r3c7``."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def same_colour_groups(solution: tuple[str, ...]) -> list[tuple[str, tuple[Cell, ...]]]:
    """Each set of same-coloured cells connected by sides or corners, with its colour.

    In a valid solution these are exactly the tiles.
    """
    height, width = len(solution), len(solution[0])
    seen = [[False] * width for _ in range(height)]
    groups: list[tuple[str, tuple[Cell, ...]]] = []
    for r in range(height):
        for c in range(width):
            colour = solution[r][c]
            if seen[r][c] or colour not in COLOURS:
                continue
            seen[r][c] = True
            stack, cells = [(r, c)], []
            while stack:
                cr, cc = stack.pop()
                cells.append((cr, cc))
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        nr, nc = cr + dr, cc + dc
                        if 0 <= nr < height and 0 <= nc < width and not seen[nr][nc]:
                            if solution[nr][nc] == colour:
                                seen[nr][nc] = True
                                stack.append((nr, nc))
            groups.append((colour, tuple(sorted(cells))))
    return groups


def is_l_tile(cells: tuple[Cell, ...]) -> bool:
    """Whether three cells fill three quarters of one 2x2 block (an L-tromino)."""
    if len(cells) != 3:
        return False
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    return len(rows) == 2 and len(cols) == 2 and max(rows) - min(rows) == 1 and max(cols) - min(cols) == 1


def find_violation(puzzle: Grid, solution: tuple[str, ...], per_colour: int | None = None) -> Violation | None:
    """The first Lixso rule that ``solution`` breaks for ``puzzle``, or None when it is valid."""
    height, width = puzzle.height, puzzle.width
    if len(solution) != height or any(len(row) != width for row in solution):
        got = f"{len(solution)}x{len(solution[0]) if solution else 0}"
        return Violation("size", f"the solution is {got}, the puzzle is {height}x{width}")
    solution = tuple(row.upper() for row in solution)
    for r, row in enumerate(solution):
        for c, colour in enumerate(row):
            if colour == EMPTY:
                return Violation("cover", "a cell is left uncovered", ((r, c),))
            if colour not in COLOURS:
                return Violation("cover", f"{colour!r} is not a tile colour (I X S O)", ((r, c),))
    for r, c, clue in puzzle.clues():
        if solution[r][c] != clue:
            return Violation("clue", f"the clue asks for {clue}, the solution has {solution[r][c]}", ((r, c),))
    tile_count: Counter[str] = Counter()
    for colour, cells in same_colour_groups(solution):
        if len(cells) > 3 or (len(cells) == 3 and not is_l_tile(cells)):
            return Violation(
                "touch",
                f"{colour} cells that touch form no single L-tile: same-coloured tiles touch"
                " or a tile is not an L",
                cells,
            )
        if len(cells) < 3:
            return Violation("shape", f"these {colour} cells cannot be a whole L-tile", cells)
        tile_count[colour] += 1
    cap = default_per_colour(height, width) if per_colour is None else per_colour
    for colour in COLOURS:
        if tile_count[colour] > cap:
            return Violation("supply", f"{tile_count[colour]} {colour} tiles, but only {cap} of each colour")
    return None


def tiles_of(solution: tuple[str, ...]) -> list[tuple[str, tuple[Cell, ...]]]:
    """The tiles of a valid solution, each with its colour."""
    return same_colour_groups(solution)
