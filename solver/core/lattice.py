"""Lattices: the points of a board, their neighbours, and their edge points.

Geometry is kept apart from rules, so that the same region, shape or path constraint can be
written for a square board (Lixso, Logi-Sticks, the stacking game) or for the hexagonal board
of triangles (Laido).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

Point = tuple[int, int]

SIDE_OFFSETS: tuple[Point, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
CORNER_OFFSETS: tuple[Point, ...] = ((-1, -1), (-1, 1), (1, 1), (1, -1))
HEX_OFFSETS: tuple[Point, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class SquareLattice:
    """A ``rows`` x ``cols`` board of square cells; a point is ``(row, column)``, from 0 at the top left."""

    rows: int
    cols: int

    def __contains__(self, point: object) -> bool:
        if not isinstance(point, tuple) or len(point) != 2:
            return False
        r, c = point
        return 0 <= r < self.rows and 0 <= c < self.cols

    @cached_property
    def points(self) -> tuple[Point, ...]:
        """Every cell, row by row."""
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def index(self, point: Point) -> int:
        """The position of ``point`` in :attr:`points`."""
        return point[0] * self.cols + point[1]

    def side_neighbours(self, point: Point) -> list[Point]:
        """The cells sharing a side with ``point``."""
        r, c = point
        return [(r + dr, c + dc) for dr, dc in SIDE_OFFSETS if (r + dr, c + dc) in self]

    def touching(self, point: Point) -> list[Point]:
        """The cells sharing a side or a corner with ``point`` (its king-move neighbours)."""
        r, c = point
        return [
            (r + dr, c + dc)
            for dr, dc in SIDE_OFFSETS + CORNER_OFFSETS
            if (r + dr, c + dc) in self
        ]

    @cached_property
    def windows(self) -> tuple[tuple[Point, Point, Point, Point], ...]:
        """Every 2x2 block of cells, as (top-left, top-right, bottom-left, bottom-right).

        Two distinct cells touch by a side or a corner exactly when some window holds both.
        """
        return tuple(
            ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            for r in range(self.rows - 1)
            for c in range(self.cols - 1)
        )

    def is_edge(self, point: Point) -> bool:
        """Whether ``point`` lies on the rim of the board."""
        r, c = point
        return r in (0, self.rows - 1) or c in (0, self.cols - 1)


@dataclass(frozen=True)
class HexLattice:
    """The points of a hexagonal board of triangles with ``side`` points on each side.

    Axial coordinates ``(q, r)`` with the centre at ``(0, 0)``: the points are those with
    ``max(|q|, |r|, |q + r|) <= side - 1``. Each point has up to six neighbours, at the
    offsets (1,0) (-1,0) (0,1) (0,-1) (1,-1) (-1,1); the edge points are those at the maximum.
    """

    side: int

    @property
    def radius(self) -> int:
        return self.side - 1

    def distance_from_centre(self, point: Point) -> int:
        q, r = point
        return max(abs(q), abs(r), abs(q + r))

    def __contains__(self, point: object) -> bool:
        if not isinstance(point, tuple) or len(point) != 2:
            return False
        return self.distance_from_centre(point) <= self.radius  # type: ignore[arg-type]

    @cached_property
    def points(self) -> tuple[Point, ...]:
        """Every point, ordered by r then q."""
        n = self.radius
        return tuple(
            (q, r)
            for r in range(-n, n + 1)
            for q in range(-n, n + 1)
            if abs(q + r) <= n
        )

    def neighbours(self, point: Point) -> list[Point]:
        """The points joined to ``point`` by a line of the board."""
        q, r = point
        return [(q + dq, r + dr) for dq, dr in HEX_OFFSETS if (q + dq, r + dr) in self]

    def is_edge(self, point: Point) -> bool:
        """Whether ``point`` lies on the rim of the board."""
        return self.distance_from_centre(point) == self.radius

    @cached_property
    def edge_points(self) -> tuple[Point, ...]:
        return tuple(p for p in self.points if self.is_edge(p))
