"""Pictures of a Quarry position: the top view as text (colour and height per cell), and SVG
drawings, either the top view with heights shaded or an isometric view of the cubes.

In text, each cell shows its colour from above (``X`` black, ``O`` blue, ``.`` the bare board)
and its height in cubes; the cells of a winning line are marked with ``*``. With ``colour``, the
cells are painted in the players' colours with rich markup (the CLI prints it in colour in a
terminal and plain in a pipe).
"""

from __future__ import annotations

from html import escape

from .model import BLACK, BLUE, INSIDE, Cell, cell_name
from .rules import State

SYMBOL = {BLACK: "X", BLUE: "O"}
STYLE = {BLACK: "bold white on grey11", BLUE: "bold white on blue"}
FILL = {BLACK: ((0x55, 0x55, 0x55), (0x0c, 0x0c, 0x0c)), BLUE: ((0x9c, 0xc0, 0xff), (0x0b, 0x3d, 0xa8))}
"""SVG fills from height 1 (first) to height 5 (second): higher is darker."""
BOARD_FILL = "#e9d9b4"
ZONE_FILL = "#b9a27a"


def _column_letters(width: int) -> str:
    return "    " + "".join(f"  {chr(ord('a') + c)} " for c in range(width))


def render_text(state: State, line: list[Cell] | None = None, colour: bool = False) -> str:
    """The top view, one text row per board row (row 1 at the top), with the Quarry zones drawn
    above and below (``inside``: the zone rows are marked ``q``)."""
    board = state.board
    marked = set(line or ())
    first, last = board.goal_rows()
    rule = "    " + "~" * (4 * board.width + 1)
    zone = "    " + " quarry ".center(4 * board.width + 1, "~")
    lines = [_column_letters(board.width), zone if board.zones != INSIDE else rule]
    for r in range(board.length):
        cells = []
        for c in range(board.width):
            i = r * board.width + c
            who, h = state.top[i], state.height[i]
            text = " ." if who is None else f"{SYMBOL[who]}{h}"
            text += "*" if (r, c) in marked else " "
            if colour and who is not None:
                text = f"[{STYLE[who]}]{text}[/]"
            cells.append(" " + text)
        side = "q" if board.zones == INSIDE and (r in first or r in last) else " "
        lines.append(f"{r + 1:>3}{side}" + "".join(cells) + f" {side}{r + 1}")
    lines.append(zone if board.zones != INSIDE else rule)
    lines.append(_column_letters(board.width))
    return "\n".join(lines) + "\n"


def legend_text(state: State) -> str:
    """How to read :func:`render_text`."""
    zones = "rows marked q are the Quarry zones" if state.board.zones == INSIDE else "the Quarry zones lie above row 1 and below the last row"
    return f"X black, O blue, digit: height in cubes, .: bare board, *: the winning line; {zones}"


def _shade(player: str, height: int) -> str:
    low, high = FILL[player]
    t = (min(height, 5) - 1) / 4
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(low, high))


def _top_stone(state: State, cell: Cell) -> int | None:
    h = state.height_at(cell)
    return state.owner.get((cell[0], cell[1], h - 1)) if h else None


def render_svg(state: State, line: list[Cell] | None = None, title: str | None = None, step: float = 40.0) -> str:
    """The top view as SVG: each cell in its player's colour, darker the higher it stands, with its
    height written in it; a line between cells whose top cubes belong to different stones; the
    Quarry zones as bands (or, with zones inside, shaded rows); the winning line as a ring."""
    board = state.board
    margin = step
    band = step * 0.8 if board.zones != INSIDE else 0.0
    width = 2 * margin + step * board.width
    height = 2 * margin + 2 * band + step * board.length
    top = margin + band
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    if band:
        for y in (margin, top + step * board.length):
            out.append(f'<rect x="{margin:.1f}" y="{y:.1f}" width="{step * board.width:.1f}" height="{band:.1f}" fill="{ZONE_FILL}"/>')
            out.append(f'<text x="{width / 2:.1f}" y="{y + band * 0.68:.1f}" text-anchor="middle" font-size="{band * 0.5:.1f}" fill="#4a3b22">Quarry</text>')
    first, last = board.goal_rows()
    for r in range(board.length):
        for c in range(board.width):
            x, y = margin + c * step, top + r * step
            who = state.top_at((r, c))
            h = state.height_at((r, c))
            fill = BOARD_FILL if who is None else _shade(who, h)
            if who is None and board.zones == INSIDE and (r in first or r in last):
                fill = ZONE_FILL
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{step:.1f}" height="{step:.1f}" fill="{fill}" stroke="#8a7550" stroke-width="0.5">'
                       f'<title>{cell_name((r, c))}: {who or "empty"}, height {h}</title></rect>')
            if who is not None:
                ink = "white" if who == BLACK or h >= 3 else "#0b1d40"
                out.append(f'<text x="{x + step / 2:.1f}" y="{y + step * 0.66:.1f}" text-anchor="middle" font-size="{step * 0.45:.1f}" fill="{ink}">{h}</text>')
    # outlines of stones seen from above: a line wherever neighbouring tops belong to different stones
    for r in range(board.length):
        for c in range(board.width):
            here = _top_stone(state, (r, c))
            for dr, dc in ((0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if rr >= board.length or cc >= board.width:
                    continue
                there = _top_stone(state, (rr, cc))
                if here != there and (here is not None or there is not None):
                    x1 = margin + (c + 1) * step if dc else margin + c * step
                    y1 = top + (r + 1) * step if dr else top + r * step
                    x2 = x1 if dc else x1 + step
                    y2 = y1 + step if dc else y1
                    out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#f2c14e" stroke-width="2"/>')
    for cell in line or ():
        x, y = margin + cell[1] * step + step / 2, top + cell[0] * step + step / 2
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.42:.1f}" fill="none" stroke="#e0402a" stroke-width="3"/>')
    for c in range(board.width):
        out.append(f'<text x="{margin + c * step + step / 2:.1f}" y="{margin * 0.7:.1f}" text-anchor="middle" font-size="{step * 0.35:.1f}">{chr(ord("a") + c)}</text>')
    for r in range(board.length):
        out.append(f'<text x="{margin * 0.5:.1f}" y="{top + r * step + step * 0.62:.1f}" text-anchor="middle" font-size="{step * 0.35:.1f}">{r + 1}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


FACE_SHADES = {BLACK: ("#5a5a5a", "#2c2c2c", "#1a1a1a"), BLUE: ("#7fa8ff", "#2d5fcc", "#1c3f8f")}
"""Isometric cube faces per player: top, left, right."""


def render_isometric(state: State, title: str | None = None, step: float = 26.0) -> str:
    """The cubes in an isometric view (row 1 at the back left, column a at the back right), drawn
    from the back to the front so that nearer cubes hide farther ones."""
    board = state.board
    half = step / 2
    rise = step * 0.62

    def point(r: float, c: float, z: float) -> tuple[float, float]:
        return ((c - r) * step * 0.87, (c + r) * half - z * rise)

    tallest = max(state.height) + 1
    corners = [point(r, c, z) for r in (-1, board.length + 1) for c in (-1, board.width) for z in (0, tallest)]
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    pad = step
    left, low = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="{left:.1f} {low:.1f} {width:.1f} {height:.1f}" font-family="sans-serif">',
        '<rect x="{:.1f}" y="{:.1f}" width="100%" height="100%" fill="white"/>'.format(left, low),
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")

    def polygon(points: list[tuple[float, float]], fill: str, stroke: str = "#222", width_: float = 0.6) -> str:
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        return f'<polygon points="{coords}" fill="{fill}" stroke="{stroke}" stroke-width="{width_}"/>'

    first, last = board.goal_rows()
    for r in range(board.length):
        for c in range(board.width):
            fill = ZONE_FILL if board.zones == INSIDE and (r in first or r in last) else BOARD_FILL
            out.append(polygon([point(r, c, 0), point(r, c + 1, 0), point(r + 1, c + 1, 0), point(r + 1, c, 0)], fill, "#8a7550", 0.5))
    if board.zones != INSIDE:
        for r0, r1 in ((-0.8, 0), (board.length, board.length + 0.8)):
            out.append(polygon([point(r0, 0, 0), point(r0, board.width, 0), point(r1, board.width, 0), point(r1, 0, 0)], ZONE_FILL, "#8a7550", 0.5))
    for r in range(board.length):
        x, y = point(r + 0.5, -0.6, 0)
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{step * 0.4:.1f}">{r + 1}</text>')
    for c in range(board.width):
        x, y = point(-0.6, c + 0.5, 0)
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{step * 0.4:.1f}">{chr(ord("a") + c)}</text>')
    # back to front: farther (smaller r + c) first, lower first
    for r, c, z in sorted(state.owner, key=lambda cube: (cube[0] + cube[1], cube[2], cube[0])):
        player = state.laid[state.owner[(r, c, z)]].player
        top, side_l, side_r = FACE_SHADES[player]
        out.append(polygon([point(r, c, z + 1), point(r, c + 1, z + 1), point(r + 1, c + 1, z + 1), point(r + 1, c, z + 1)], top))
        out.append(polygon([point(r + 1, c, z), point(r + 1, c + 1, z), point(r + 1, c + 1, z + 1), point(r + 1, c, z + 1)], side_l))
        out.append(polygon([point(r, c + 1, z), point(r + 1, c + 1, z), point(r + 1, c + 1, z + 1), point(r, c + 1, z + 1)], side_r))
    out.append("</svg>")
    return "\n".join(out) + "\n"
