"""Pictures of a Laido position: a text board for the terminal and an SVG drawing.

In both, each group's connection part is marked: in text its stones are capitals (``X`` for
Black, ``O`` for White, against ``x`` and ``o`` for surplus stones); in SVG a coloured line runs
along it.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence
from html import escape

from placesat.core.lattice import HexLattice, Point

from .model import BLACK, WHITE, Position

STONE_CHAR = {BLACK: "x", WHITE: "o"}


def _parts(parts: Iterable[Iterable[Point]] | None) -> set[Point]:
    return {p for part in parts or () for p in part}


# the marks of a line's new stones in the text board, in order: one character each
STEP_MARKS = "123456789abcdefghijklmnpqrstuvwyz"


def step_mark(number: int) -> str:
    """The text board's mark of a line's ``number``-th new stone: ``1`` to ``9``, then the
    small letters but ``o`` and ``x`` (the stones), then ``*``."""
    return STEP_MARKS[number - 1] if number <= len(STEP_MARKS) else "*"


def render_text(
    position: Position,
    connection_parts: Iterable[Iterable[Point]] | None = None,
    last_move: Point | None = None,
    numbered: dict[Point, int] | None = None,
) -> str:
    """The board as text, one line per row ``r`` (top to bottom); points in a row are two
    columns apart and each row is shifted by half a step, so the six neighbours of a point sit
    around it as on the board. ``.`` is an empty point. The rims carry coordinates: on the left
    of each row its ``r`` and the ``q`` of its first point, on the right the ``q`` of its last
    point (``q`` grows by one per point to the right). ``last_move`` is marked with brackets;
    ``numbered`` stones (a line's new stones, by their place in it) by :func:`step_mark`."""
    lattice = position.lattice
    marked = _parts(connection_parts)
    numbered = numbered or {}
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
            if (q, r) in numbered:
                char = step_mark(numbered[(q, r)])
            column = 2 * q + r + 2 * n + 1
            row[column] = char
            if (q, r) == last_move:
                row[column - 1], row[column + 1] = "[", "]"
        lines.append(f"{r:>3} {first:>3}  " + "".join(row).rstrip().ljust(2 * last + r + 2 * n + 2) + f"  {last}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def legend_text(position: Position, numbered: str | None = None) -> str:
    """How to read :func:`render_text` (``numbered``: the colour of a line's numbered stones)."""
    new = f"1 2 3 ... {numbered}'s new stones in order, " if numbered else ""
    return (
        f"x black, o white, capitals: connection part, {new}. empty, [ ] the last move\n"
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


def _rim_labels(lattice: HexLattice, step: float, margin: float) -> list[str]:
    """Each rim point's coordinates ``q,r`` (as the commands take a point) just outside it,
    away from the centre: the row ``r`` of a point ends at two rim labels, its line of
    constant ``q`` (running down to the right) at two more."""
    n = lattice.radius
    rim = lattice.edge_points
    longest = max(len(f"{q},{r}") for q, r in rim)
    font = min(step * 0.32, step * 0.95 / (0.56 * longest))
    cx, cy = _xy((0, 0), step, margin, n)
    out = []
    for point in rim:
        x, y = _xy(point, step, margin, n)
        dx, dy = x - cx, y - cy
        length = math.hypot(dx, dy) or 1.0
        # out from the centre; a little further on the sides, where the text is wide
        away = step * (0.7 + 0.3 * abs(dx) / length)
        out.append(
            f'<text x="{x + dx / length * away:.1f}" y="{y + dy / length * away:.1f}" font-size="{font:.1f}" '
            f'fill="#4a3510" text-anchor="middle" dominant-baseline="central">{point[0]},{point[1]}</text>'
        )
    return out


def render_svg(
    position: Position,
    connection_parts: Iterable[Iterable[Point]] | None = None,
    title: str | None = None,
    step: float = 36.0,
    caption: Sequence[str] = (),
    last_move: Point | None = None,
    numbered: dict[Point, int] | None = None,
) -> str:
    """The board as an SVG picture: its lines, the stones, each connection part as a line, each
    rim point's coordinates ``q,r`` outside it, ``last_move`` ringed, ``numbered`` stones (a
    line's new stones) ringed in gold with their place in the line, ``title`` above the board
    (wrapped to its width) and ``caption`` lines (the score, the verdict, whose turn) under it."""
    lattice: HexLattice = position.lattice
    numbered = numbered or {}
    n = lattice.radius
    font = step * 0.36
    width = 2 * step * 1.7 + step * 2 * n
    columns = int(width / (font * 0.62))
    heading = [piece for piece in _wrap(title, int(width / (font * 1.2 * 0.62)))] if title else []
    title_height = step * 0.55 * len(heading) + (step * 0.2 if heading else 0)
    margin = step * 1.7

    def xy(point: Point) -> tuple[float, float]:
        x, y = _xy(point, step, margin, n)
        return x, y + title_height

    board_height = title_height + 2 * margin + step * math.sqrt(3) * n
    line_height = step * 0.5
    lines = sum(len(_wrap(text, columns)) for text in caption)
    height = board_height + line_height * lines + (step * 0.3 if caption else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="#e8c98c"/>',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for i, text in enumerate(heading):
        out.append(f'<text x="{width / 2:.1f}" y="{step * 0.6 + step * 0.55 * i:.1f}" font-size="{font * 1.2:.1f}" '
                   f'font-weight="bold" fill="#222" text-anchor="middle">{escape(text)}</text>')
    for point in lattice.points:
        x1, y1 = xy(point)
        for nxt in lattice.neighbours(point):
            if nxt > point:
                x2, y2 = xy(nxt)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#6b4f1d" stroke-width="1"/>')
    out.append(f'<g transform="translate(0 {title_height:.1f})">')
    out += _rim_labels(lattice, step, margin)
    out.append("</g>")
    for colour, fill, stroke in ((BLACK, "#1b1b1b", "#000"), (WHITE, "#fafafa", "#444")):
        for point in sorted(position.stones(colour)):
            x, y = xy(point)
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
        coords = " ".join("{:.1f},{:.1f}".format(*xy(p)) for p in part)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{line}" stroke-width="{step * 0.16:.1f}" stroke-linecap="round" stroke-linejoin="round"/>')
    for point, number in sorted(numbered.items(), key=lambda item: item[1]):
        x, y = xy(point)
        ink = "#fff" if position.colour_at(point) == BLACK else "#000"
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.42:.1f}" fill="none" stroke="#f0b400" stroke-width="{step * 0.09:.1f}">'
            f"<title>new stone {number}: [{point[0]}, {point[1]}]</title></circle>"
        )
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font * 1.1:.1f}" font-weight="bold" fill="{ink}" '
                   f'stroke="{"#000" if ink == "#fff" else "#fff"}" stroke-width="{step * 0.05:.1f}" paint-order="stroke" '
                   f'text-anchor="middle" dominant-baseline="central">{number}</text>')
    if last_move is not None:
        x, y = xy(last_move)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.2:.1f}" fill="none" stroke="#e0a000" stroke-width="{step * 0.08:.1f}">'
            f"<title>last move [{last_move[0]}, {last_move[1]}]</title></circle>"
        )
    wrapped = [piece for text in caption for piece in _wrap(text, columns)]
    for i, text in enumerate(wrapped):
        y = board_height + line_height * (i + 0.5)
        out.append(f'<text x="{step * 0.4:.1f}" y="{y:.1f}" font-size="{font * 1.1:.1f}" fill="#222">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
