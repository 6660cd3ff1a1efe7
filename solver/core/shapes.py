"""Polyomino shapes and their placements on a square lattice."""

from __future__ import annotations

from dataclasses import dataclass

from .lattice import Point, SquareLattice


def normalise(cells: frozenset[Point] | set[Point]) -> frozenset[Point]:
    """The same cells shifted so that the smallest row and column are 0."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


@dataclass(frozen=True)
class Shape:
    """A polyomino, given by its cells in one orientation."""

    name: str
    cells: frozenset[Point]

    def orientations(self, reflections: bool = True) -> list[frozenset[Point]]:
        """The distinct rotations (and, if allowed, mirror images) of the shape, normalised."""
        seen: list[frozenset[Point]] = []
        cells = self.cells
        for mirror in (False, True) if reflections else (False,):
            current = frozenset((r, -c) for r, c in cells) if mirror else cells
            for _ in range(4):
                current = frozenset((c, -r) for r, c in current)
                shape = normalise(current)
                if shape not in seen:
                    seen.append(shape)
        return sorted(seen, key=sorted)

    def placements(self, lattice: SquareLattice, reflections: bool = True) -> list[tuple[Point, ...]]:
        """Every way to lay the shape on the lattice: tuples of cells, in a fixed order."""
        found: list[tuple[Point, ...]] = []
        for shape in self.orientations(reflections):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for top in range(lattice.rows - height + 1):
                for left in range(lattice.cols - width + 1):
                    found.append(tuple(sorted((top + r, left + c) for r, c in shape)))
        return found


L_TROMINO = Shape("L-tromino", frozenset({(0, 0), (1, 0), (1, 1)}))
