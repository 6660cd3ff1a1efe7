"""An independent Lixso enumerator for tests: plain backtracking, no solver, no shared encoder code.

Every tiling of the grid by L-trominoes is enumerated (always covering the first empty
cell), then every colouring of its tiles in which touching tiles differ, clues hold and no
colour is used more than ``per_colour`` times. Each (tiling, colouring) is one colour grid.
"""

from __future__ import annotations

import math

COLOURS = "IXSO"
SHAPES = [  # the four L-trominoes, as offsets from their first cell in reading order
    ((0, 0), (0, 1), (1, 0)),
    ((0, 0), (0, 1), (1, 1)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0), (1, -1), (1, 0)),
]


def tilings(height: int, width: int):
    """Yield every tiling as a list of tiles (tuples of cells)."""
    filled = [[False] * width for _ in range(height)]
    tiles: list[tuple[tuple[int, int], ...]] = []

    def first_empty():
        for r in range(height):
            for c in range(width):
                if not filled[r][c]:
                    return r, c
        return None

    def place():
        spot = first_empty()
        if spot is None:
            yield list(tiles)
            return
        r, c = spot
        for shape in SHAPES:
            cells = tuple((r + dr, c + dc) for dr, dc in shape)
            if all(0 <= a < height and 0 <= b < width and not filled[a][b] for a, b in cells):
                for a, b in cells:
                    filled[a][b] = True
                tiles.append(cells)
                yield from place()
                tiles.pop()
                for a, b in cells:
                    filled[a][b] = False

    yield from place()


def _touch(t1, t2) -> bool:
    return any(max(abs(a - c), abs(b - d)) == 1 for a, b in t1 for c, d in t2)


def solutions(rows: list[str], per_colour: int | None = None) -> set[tuple[str, ...]]:
    """Every colour grid that solves the puzzle ``rows`` ('.' or a colour letter per cell)."""
    height, width = len(rows), len(rows[0])
    cap = math.ceil(height * width // 3 / 4) if per_colour is None else per_colour
    found: set[tuple[str, ...]] = set()
    for tiling in tilings(height, width):
        n = len(tiling)
        touching = [[j for j in range(n) if j != i and _touch(tiling[i], tiling[j])] for i in range(n)]
        allowed = []
        for tile in tiling:
            clues = {rows[r][c].upper() for r, c in tile if rows[r][c] != "."}
            allowed.append([k for k in COLOURS if clues <= {k}])
        colour = [""] * n
        used = dict.fromkeys(COLOURS, 0)

        def assign(i: int) -> None:
            if i == n:
                grid = [["."] * width for _ in range(height)]
                for t, tile in enumerate(tiling):
                    for r, c in tile:
                        grid[r][c] = colour[t]
                found.add(tuple("".join(row) for row in grid))
                return
            for k in allowed[i]:
                if used[k] < cap and all(colour[j] != k for j in touching[i] if j < i):
                    colour[i] = k
                    used[k] += 1
                    assign(i + 1)
                    used[k] -= 1
            colour[i] = ""

        assign(0)
    return found
