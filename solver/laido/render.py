"""Pictures of a Laido position: a text board for the terminal and an SVG drawing.

In both, each group's connection part is marked: in text its stones are capitals (``X`` for
Black, ``O`` for White, against ``x`` and ``o`` for surplus stones); in SVG a coloured line runs
along it.
"""

from __future__ import annotations

import math
from typing import Iterable
from xml.sax.saxutils import escape

from solver.core.lattice import HexLattice, Point

from .model import BLACK, WHITE, Position

STONE_CHAR = {BLACK: "x", WHITE: "o"}


def _parts(parts: Iterable[Iterable[Point]] | None) -> set[Point]:
    return {p for part in parts or () for p in part}


def render_text(position: Position, connection_parts: Iterable[Iterable[Point]] | None = None) -> str:
    """The board as text, one line per row ``r`` (top to bottom), labelled with ``r``; points in
    a row are two columns apart and each row is shifted by half a step, so the six neighbours of a
    point sit around it as on the board. ``.`` is an empty point."""
    lattice = position.lattice
    marked = _parts(connection_parts)
    n = lattice.radius
    width = 4 * n + 1
    lines = []
    for r in range(-n, n + 1):
        row = [" "] * width
        for q in range(max(-n, -n - r), min(n, n - r) + 1):
            colour = position.colour_at((q, r))
            char = "." if colour is None else STONE_CHAR[colour]
            if (q, r) in marked:
                char = char.upper()
            row[2 * q + r + 2 * n] = char
        lines.append(f"{r:>3} " + "".join(row).rstrip())
    return "\n".join(lines) + "\n"


def legend_text(position: Position) -> str:
    """How to read :func:`render_text`, with the axial coordinates of the corners."""
    n = position.lattice.radius
    return (
        "x black, o white, capitals: connection part, . empty; "
        f"row = r, q grows to the right; top-left corner [0, {-n}], left corner [{-n}, 0]"
    )


def _xy(point: Point, step: float, margin: float, radius: int) -> tuple[float, float]:
    q, r = point
    x = margin + step * (q + r / 2 + radius)
    y = margin + step * math.sqrt(3) / 2 * (r + radius)
    return x, y


def render_svg(
    position: Position,
    connection_parts: Iterable[Iterable[Point]] | None = None,
    title: str | None = None,
    step: float = 36.0,
) -> str:
    """The board as an SVG picture: its lines, the stones, and each connection part as a line."""
    lattice: HexLattice = position.lattice
    n = lattice.radius
    margin = step
    width = 2 * margin + step * 2 * n
    height = 2 * margin + step * math.sqrt(3) * n
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}">',
        f'<rect width="100%" height="100%" fill="#e8c98c"/>',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for point in lattice.points:
        x1, y1 = _xy(point, step, margin, n)
        for nxt in lattice.neighbours(point):
            if nxt > point:
                x2, y2 = _xy(nxt, step, margin, n)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#6b4f1d" stroke-width="1"/>')
    for colour, fill, stroke in ((BLACK, "#1b1b1b", "#000"), (WHITE, "#fafafa", "#444")):
        for point in sorted(position.stones(colour)):
            x, y = _xy(point, step, margin, n)
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.42:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="1.5">'
                f"<title>{colour} [{point[0]}, {point[1]}]</title></circle>"
            )
    for part in connection_parts or ():
        part = list(part)
        if not part:
            continue
        colour = position.colour_at(part[0])
        line = "#e0402a" if colour == BLACK else "#2a6fe0"
        coords = " ".join("{:.1f},{:.1f}".format(*_xy(p, step, margin, n)) for p in part)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{line}" stroke-width="{step * 0.16:.1f}" stroke-linecap="round" stroke-linejoin="round"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
