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
from .stones import Face, StoneKind, StoneSet

SYMBOL = {BLACK: "X", BLUE: "O"}
STYLE = {BLACK: "bold white on grey11", BLUE: "bold white on blue"}
FILL = {BLACK: ((0x55, 0x55, 0x55), (0x0c, 0x0c, 0x0c)), BLUE: ((0x9c, 0xc0, 0xff), (0x0b, 0x3d, 0xa8))}
"""SVG fills from height 1 (first) to height 5 (second): higher is darker."""
NEW_STYLE = "bold black on yellow"
"""A new stone's number in a coloured text view."""
BOARD_FILL = "#e9d9b4"
ZONE_FILL = "#b9a27a"


def _column_letters(width: int, cell: int = 4) -> str:
    return "    " + "".join(chr(ord("a") + c).center(cell)[: cell] for c in range(width))


def new_stone_number(state: State, cell: Cell, new_from: int | None) -> int | None:
    """The building-order number (1, 2, ...) of the new stone whose cube is on top of ``cell``:
    the stones laid from index ``new_from`` on are the answer's new stones; None for an old top."""
    if new_from is None:
        return None
    stone = _top_stone(state, cell)
    return stone - new_from + 1 if stone is not None and stone >= new_from else None


def render_text(state: State, line: list[Cell] | None = None, colour: bool = False, new_from: int | None = None) -> str:
    """The top view, one text row per board row (row 1 at the top), with the Quarry zones drawn
    above and below (``inside``: the zone rows are marked ``q``). With ``new_from``, the stones
    laid from that index on are an answer's new stones: each cell they top shows their number in
    the building order after its height and mark (``O2*1``), and the cells are wider."""
    board = state.board
    marked = set(line or ())
    first, last = board.goal_rows()
    cell_width = 4 if new_from is None else 6
    span = cell_width * board.width + 1
    rule = "    " + "~" * span
    zone = "    " + " quarry ".center(span, "~")
    lines = [_column_letters(board.width, cell_width), zone if board.zones != INSIDE else rule]
    for r in range(board.length):
        cells = []
        for c in range(board.width):
            i = r * board.width + c
            who, h = state.top[i], state.height[i]
            text = " ." if who is None else f"{SYMBOL[who]}{h}"
            text += "*" if (r, c) in marked else " "
            if colour and who is not None:
                text = f"[{STYLE[who]}]{text}[/]"
            if new_from is not None:
                number = new_stone_number(state, (r, c), new_from)
                tag = f"{number:<2}" if number is not None else "  "
                text += f"[{NEW_STYLE}]{tag}[/]" if colour and number is not None else tag
            cells.append(" " + text)
        side = "q" if board.zones == INSIDE and (r in first or r in last) else " "
        lines.append(f"{r + 1:>3}{side}" + "".join(cells) + f" {side}{r + 1}")
    lines.append(zone if board.zones != INSIDE else rule)
    lines.append(_column_letters(board.width, cell_width))
    return "\n".join(lines) + "\n"


def legend_text(state: State) -> str:
    """How to read :func:`render_text`."""
    zones = "rows marked q are the Quarry zones" if state.board.zones == INSIDE else "the Quarry zones lie above row 1 and below the last row"
    return f"X black, O blue, digit: height in cubes, .: bare board, *: the winning line; {zones}"


def legend_numbered(state: State) -> str:
    """How to read :func:`render_text` with new stones numbered."""
    return legend_text(state) + "; a number after a cell: the new stone on top there, in building order"



def _shade(player: str, height: int) -> str:
    low, high = FILL[player]
    t = (min(height, 5) - 1) / 4
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(low, high))


def _top_stone(state: State, cell: Cell) -> int | None:
    h = state.height_at(cell)
    return state.owner.get((cell[0], cell[1], h - 1)) if h else None


NUMBER_INK = "#c0281a"
"""The ring of the line and the badges numbering new stones."""


def wrap_title(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width`` at font ``size`` (about 0.55 em a
    character in sans-serif); a long title breaks first after the question's colon."""
    fits = max(12, int(width / (size * 0.55)))
    if len(text) <= fits:
        return [text]
    parts = text.split(": ", 1)
    if len(parts) == 2:
        parts[0] += ":"
    out: list[str] = []
    for part in parts:
        current = ""
        for word in part.split(" "):
            if current and len(current) + 1 + len(word) > fits:
                out.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    return out


def _heading(lines: list[str], width: float, size: float, y: float) -> list[str]:
    return [f'<text x="{width / 2:.1f}" y="{y + i * size * 1.25:.1f}" text-anchor="middle" font-size="{size:.1f}" font-weight="bold">{escape(t)}</text>'
            for i, t in enumerate(lines)]


def _top_view(state: State, line: list[Cell] | None, step: float, new_from: int | None, heading: str | None) -> tuple[list[str], float, float]:
    """The elements of :func:`render_svg`, and the picture's width and height."""
    board = state.board
    margin = step
    band = step * 0.8 if board.zones != INSIDE else 0.0
    width = 2 * margin + step * board.width
    size = step * 0.36
    titled = wrap_title(heading, width - step * 0.4, size) if heading else []
    head = len(titled) * size * 1.25 + (size * 0.6 if titled else 0.0)
    height = 2 * margin + 2 * band + step * board.length + head
    margin_top = margin + head
    top = margin_top + band
    out = _heading(titled, width, size, size * 1.2)
    if band:
        for y in (margin_top, top + step * board.length):
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
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.42:.1f}" fill="none" stroke="{NUMBER_INK}" stroke-width="3"/>')
    # the new stones: a badge with the building-order number in the corner of each cell they top
    for r in range(board.length):
        for c in range(board.width):
            number = new_stone_number(state, (r, c), new_from)
            if number is None:
                continue
            x, y = margin + c * step + step * 0.2, top + r * step + step * 0.2
            out.append(f'<circle class="new-stone" cx="{x:.1f}" cy="{y:.1f}" r="{step * 0.2:.1f}" fill="white" stroke="{NUMBER_INK}" stroke-width="1"/>')
            out.append(f'<text class="new-stone" x="{x:.1f}" y="{y + step * 0.1:.1f}" text-anchor="middle" font-size="{step * 0.28:.1f}" font-weight="bold" fill="{NUMBER_INK}">{number}</text>')
    # coordinates on all four rims, as the commands read them (c3: column letter, row number)
    label = step * 0.35
    for c in range(board.width):
        x = margin + c * step + step / 2
        for y in (margin_top - margin * 0.3, top + step * board.length + band + margin * 0.6):
            out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{label:.1f}">{chr(ord("a") + c)}</text>')
    for r in range(board.length):
        y = top + r * step + step * 0.62
        for x in (margin * 0.5, width - margin * 0.5):
            out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{label:.1f}">{r + 1}</text>')
    return out, width, height


def _document(body: list[str], width: float, height: float, title: str | None) -> str:
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    return "\n".join(out + body + ["</svg>"]) + "\n"


def render_svg(state: State, line: list[Cell] | None = None, title: str | None = None, step: float = 40.0,
               new_from: int | None = None, heading: str | None = None) -> str:
    """The top view as SVG: each cell in its player's colour, darker the higher it stands, with its
    height written in it; a line between cells whose top cubes belong to different stones; the
    Quarry zones as bands (or, with zones inside, shaded rows); the winning line as a ring; the
    coordinates on all four rims. With ``new_from``, the stones laid from that index on are an
    answer's new stones, each cell they top badged with their building-order number; ``heading``
    is written above the board (the question and the answer)."""
    body, width, height = _top_view(state, line, step, new_from, heading)
    return _document(body, width, height, title or heading)


def render_panels(panels: list[tuple[State, list[Cell] | None, int | None, str]], heading: str, title: str | None = None, step: float = 34.0) -> str:
    """Several top views side by side (each ``(state, line, new_from, heading)``, as in
    :func:`render_svg`) under one ``heading``: a race's answers, one board per player."""
    parts = [_top_view(state, line, step, new_from, sub) for state, line, new_from, sub in panels]
    gap = step * 0.5
    width = sum(w for _, w, _ in parts) + gap * (len(parts) - 1)
    size = step * 0.45
    titled = wrap_title(heading, width - step, size)
    head = len(titled) * size * 1.25 + size * 0.6
    height = head + max(h for _, _, h in parts)
    body = _heading(titled, width, size, size * 1.2)
    x = 0.0
    for elements, w, h in parts:
        body.append(f'<g transform="translate({x:.1f},{head:.1f})">')
        body.extend(elements)
        body.append("</g>")
        x += w + gap
    return _document(body, width, height, title or heading)


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
    corners = [point(r, c, z) for r in (-2, board.length + 2) for c in (-1.5, board.width + 1.5) for z in (0, tallest)]
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
    # back to front: farther (smaller r + c) first, lower first
    for r, c, z in sorted(state.owner, key=lambda cube: (cube[0] + cube[1], cube[2], cube[0])):
        player = state.laid[state.owner[(r, c, z)]].player
        top, side_l, side_r = FACE_SHADES[player]
        out.append(polygon([point(r, c, z + 1), point(r, c + 1, z + 1), point(r + 1, c + 1, z + 1), point(r + 1, c, z + 1)], top))
        out.append(polygon([point(r + 1, c, z), point(r + 1, c + 1, z), point(r + 1, c + 1, z + 1), point(r + 1, c, z + 1)], side_l))
        out.append(polygon([point(r, c + 1, z), point(r + 1, c + 1, z), point(r + 1, c + 1, z + 1), point(r, c + 1, z + 1)], side_r))
    # coordinates last, on all four rims outside the board and its zones, each on a white card:
    # drawn before the cubes they hid behind the stacks at the back
    size = step * 0.45
    reach_out = 1.4 if board.zones != INSIDE else 0.7
    labels = [(point(r + 0.5, c, 0), str(r + 1)) for r in range(board.length) for c in (-0.7, board.width + 0.7)]
    labels += [(point(r, c + 0.5, 0), chr(ord("a") + c)) for c in range(board.width) for r in (-reach_out, board.length + reach_out)]
    for (x, y), text in labels:
        w = size * (0.65 * len(text) + 0.5)
        out.append(f'<rect class="label" x="{x - w / 2:.1f}" y="{y - size * 0.55:.1f}" width="{w:.1f}" height="{size * 1.1:.1f}" rx="{size * 0.3:.1f}" fill="white" fill-opacity="0.85"/>')
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" text-anchor="middle" font-size="{size:.1f}">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _stone_cubes(face: Face, step: float, player: str, dx: float, dy: float) -> list[str]:
    """A face's cubes in the isometric view of :func:`render_isometric`, back to front."""
    half, rise = step / 2, step * 0.62

    def point(r: float, c: float, z: float) -> tuple[float, float]:
        return (dx + (c - r) * step * 0.87, dy + (c + r) * half - z * rise)

    def polygon(points: list[tuple[float, float]], fill: str) -> str:
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        return f'<polygon points="{coords}" fill="{fill}" stroke="#222" stroke-width="0.6"/>'

    top, side_l, side_r = FACE_SHADES[player]
    out = []
    for r, c, z in sorted(face.cubes, key=lambda cube: (cube[0] + cube[1], cube[2], cube[0])):
        out.append(polygon([point(r, c, z + 1), point(r, c + 1, z + 1), point(r + 1, c + 1, z + 1), point(r + 1, c, z + 1)], top))
        out.append(polygon([point(r + 1, c, z), point(r + 1, c + 1, z), point(r + 1, c + 1, z + 1), point(r + 1, c, z + 1)], side_l))
        out.append(polygon([point(r, c + 1, z), point(r + 1, c + 1, z), point(r + 1, c + 1, z + 1), point(r, c + 1, z + 1)], side_r))
    return out


def render_stones(stones: StoneSet, left: dict[str, dict[str, int]] | None = None, title: str = "Quarry stones", step: float = 18.0) -> str:
    """Every stone of a set, each face drawn in cubes (isometric, as :func:`render_isometric`),
    under its name, cubes, points and count (or, with ``left``, how many each player has left)."""
    columns = 5
    box_w, box_h = step * 7.5, step * 8.5
    rows: list[tuple[StoneKind, Face]] = [(kind, face) for kind in stones.kinds for face in kind.faces]
    lines = (len(rows) + columns - 1) // columns
    size = step * 0.8
    head = size * 2.2
    width, height = columns * box_w, head + lines * box_h
    body = _heading([title], width, size * 1.1, size * 1.4)
    for i, (kind, face) in enumerate(rows):
        x0, y0 = (i % columns) * box_w, head + (i // columns) * box_h
        body.append(f'<rect x="{x0 + 3:.1f}" y="{y0 + 3:.1f}" width="{box_w - 6:.1f}" height="{box_h - 6:.1f}" fill="none" stroke="#ccc"/>')
        name = kind.name + (f" ({face.name})" if len(kind.faces) > 1 else "")
        body.append(f'<text x="{x0 + box_w / 2:.1f}" y="{y0 + size * 1.3:.1f}" text-anchor="middle" font-size="{size:.1f}" font-weight="bold">{escape(name)}</text>')
        if left is None:
            count = f"{kind.count} each"
        else:
            count = ", ".join(f"{p} {left[p][kind.name]}" for p in left) + " left"
        info = [f"{kind.cubes} cube{'' if kind.cubes == 1 else 's'}, {kind.points} pt", count]
        for j, text in enumerate(info):
            y = y0 + box_h - size * (1.6 - 0.95 * j)
            body.append(f'<text x="{x0 + box_w / 2:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{size * 0.7:.1f}">{escape(text)}</text>')
        rows_, cols_ = 1 + max(r for r, _ in face.footprint), 1 + max(c for _, c in face.footprint)
        # centre the footprint's middle under the name; higher stones sit lower so their tops show
        cx = x0 + box_w / 2 - (cols_ - rows_) * step * 0.87 / 2
        cy = y0 + box_h * 0.55 - (cols_ + rows_) * step / 4 + max(z for _, _, z in face.cubes) * step * 0.3
        body.extend(_stone_cubes(face, step, BLUE, cx, cy))
    return _document(body, width, height, title)
