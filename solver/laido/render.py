"""Pictures of a Laido position: a text board for the terminal and an SVG drawing.

In both, each group's connection part is marked: in text its stones are capitals (``X`` for
Black, ``O`` for White, against ``x`` and ``o`` for surplus stones); in SVG a coloured line runs
along it.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence
from html import escape

from solver.core.lattice import HexLattice, Point

from .model import BLACK, WHITE, Position

STONE_CHAR = {BLACK: "x", WHITE: "o"}


def _parts(parts: Iterable[Iterable[Point]] | None) -> set[Point]:
    return {p for part in parts or () for p in part}


def render_text(
    position: Position,
    connection_parts: Iterable[Iterable[Point]] | None = None,
    last_move: Point | None = None,
) -> str:
    """The board as text, one line per row ``r`` (top to bottom); points in a row are two
    columns apart and each row is shifted by half a step, so the six neighbours of a point sit
    around it as on the board. ``.`` is an empty point. The rims carry coordinates: on the left
    of each row its ``r`` and the ``q`` of its first point, on the right the ``q`` of its last
    point (``q`` grows by one per point to the right). ``last_move`` is marked with brackets."""
    lattice = position.lattice
    marked = _parts(connection_parts)
    n = lattice.radius
    width = 4 * n + 3
    lines = [f"{'r':>3} {'q':>3}  " + " " * (2 * n) + "q at the row's end"]
    for r in range(-n, n + 1):
        first, last = max(-n, -n - r), min(n, n - r)
        row = [" "] * width
        for q in range(first, last + 1):
            colour = position.colour_at((q, r))
            char = "." if colour is None else STONE_CHAR[colour]
            if (q, r) in marked:
                char = char.upper()
            column = 2 * q + r + 2 * n + 1
            row[column] = char
            if (q, r) == last_move:
                row[column - 1], row[column + 1] = "[", "]"
        lines.append(f"{r:>3} {first:>3}  " + "".join(row).rstrip().ljust(2 * last + r + 2 * n + 2) + f"  {last}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def legend_text(position: Position) -> str:
    """How to read :func:`render_text`."""
    return (
        "x black, o white, capitals: connection part, . empty, [ ] the last move; "
        "left: r of the row and q of its first point; right: q of its last point"
    )


def _xy(point: Point, step: float, margin: float, radius: int) -> tuple[float, float]:
    q, r = point
    x = margin + step * (q + r / 2 + radius)
    y = margin + step * math.sqrt(3) / 2 * (r + radius)
    return x, y


def _wrap(text: str, columns: int) -> list[str]:
    """``text`` cut at spaces into lines of at most ``columns`` characters."""
    import textwrap

    return textwrap.wrap(text, max(columns, 20)) or [""]


def render_svg(
    position: Position,
    connection_parts: Iterable[Iterable[Point]] | None = None,
    title: str | None = None,
    step: float = 36.0,
    caption: Sequence[str] = (),
    last_move: Point | None = None,
) -> str:
    """The board as an SVG picture: its lines, the stones, each connection part as a line, the
    coordinates on the rims (``r`` at the left end of each row, ``q`` above the top row and
    below the bottom row, following the lines of constant ``q``), ``last_move`` ringed, and
    ``caption`` lines (the score, the verdict, whose turn) under the board."""
    lattice: HexLattice = position.lattice
    n = lattice.radius
    margin = step * 1.7
    width = 2 * margin + step * 2 * n
    board_height = 2 * margin + step * math.sqrt(3) * n
    line_height = step * 0.5
    font = step * 0.36
    lines = sum(len(_wrap(text, int(width / (font * 0.62)))) for text in caption)
    height = board_height + line_height * lines + (step * 0.3 if caption else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="#e8c98c"/>',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for point in lattice.points:
        x1, y1 = _xy(point, step, margin, n)
        for nxt in lattice.neighbours(point):
            if nxt > point:
                x2, y2 = _xy(nxt, step, margin, n)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#6b4f1d" stroke-width="1"/>')
    label = f'font-size="{font:.1f}" fill="#4a3510" text-anchor="middle" dominant-baseline="central"'
    for r in range(-n, n + 1):
        x, y = _xy((max(-n, -n - r), r), step, margin, n)
        out.append(f'<text x="{x - step * 0.85:.1f}" y="{y:.1f}" {label}>r={r}</text>')
    for q in range(0, n + 1):  # the top row: r = -n, q from 0 to n
        x, y = _xy((q, -n), step, margin, n)
        out.append(f'<text x="{x - step * 0.3:.1f}" y="{y - step * 0.75:.1f}" {label}>q={q}</text>')
    for q in range(-n, 1):  # the bottom row: r = n, q from -n to 0
        x, y = _xy((q, n), step, margin, n)
        out.append(f'<text x="{x + step * 0.3:.1f}" y="{y + step * 0.75:.1f}" {label}>q={q}</text>')
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
    if last_move is not None:
        x, y = _xy(last_move, step, margin, n)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.2:.1f}" fill="none" stroke="#e0a000" stroke-width="{step * 0.08:.1f}">'
            f"<title>last move [{last_move[0]}, {last_move[1]}]</title></circle>"
        )
    wrapped = [piece for text in caption for piece in _wrap(text, int(width / (font * 0.62)))]
    for i, text in enumerate(wrapped):
        y = board_height + line_height * (i + 0.5)
        out.append(f'<text x="{step * 0.4:.1f}" y="{y:.1f}" font-size="{font * 1.1:.1f}" fill="#222">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
