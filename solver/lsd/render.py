"""Pictures of an LSD position: a text board (in colour in a terminal) and an SVG drawing.

In text, each tile is three characters between grid lines: its owner, its icon and its icon
colour (``1+b``: player 1, a ``+``, black). Half dots sit on the grid lines between cells:
``●`` a completed dot (two half dots meeting), ``○`` a half dot facing an empty cell. In a
terminal the tile is also filled with its owner's colour and the icon printed in its icon
colour. ``x`` grows to the east (columns), ``y`` to the north (rows, the top row first).
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Mapping

from .model import BLACK, E, N, PLUS, S, W, Cell, Position, Tile, cell_text, kind_text
from .rules import is_draw, winner

PLAYER_NAMES = {1: "red", 2: "blue", 3: "green", 4: "orange"}
SVG_FILL = {1: "#e05a47", 2: "#3d85c6", 3: "#4caf50", 4: "#c27c0e"}
"""Tile colours: the text lets each player choose one; these four are told apart easily, and are
mid-tones on which a black and a white icon both stand out."""
TERMINAL_FILL = {player: f"on {colour}" for player, colour in SVG_FILL.items()}

COMPLETED, OPEN = "●", "○"

# box-drawing junctions by which arms (up, right, down, left) are drawn
_JUNCTION = {
    (0, 0, 0, 0): " ", (1, 0, 1, 0): "│", (0, 1, 0, 1): "─",
    (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘",
    (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
    (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷", (0, 0, 0, 1): "╴",
}

Segment = tuple[str, str]  # (text, rich style; "" for none)


def bounds(position: Position, margin: int = 1, extra: Iterable[Cell] = ()) -> tuple[int, int, int, int]:
    """(x min, x max, y min, y max) of the field and ``extra`` cells, grown by ``margin``."""
    cells = list(position.field) + list(extra)
    if not cells:
        return (-margin, margin, -margin, margin)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return (min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin)


def tile_label(tile: Tile, position: Position) -> str:
    """Three characters for a tile: owner, icon, icon colour (``2xw``)."""
    return f"{tile.player}{tile.icon}{'b' if position.icon_colour(tile.player) == BLACK else 'w'}"


# Parts of the field farther apart than this (in rows or in columns) are drawn as boards of
# their own: after captures a field can be split, and one board over the whole span (up to
# 2,001 cells a side) would be mostly empty, millions of characters long
PART_GAP = 4


def field_parts(cells: Iterable[Cell]) -> list[list[Cell]]:
    """``cells`` in groups drawn as one board each: two cells within :data:`PART_GAP` of each
    other in both rows and columns are in one group, and so is everything such steps link.
    Groups in field order of their first cell."""
    cells = sorted(set(cells), key=lambda c: (-c[1], c[0]))
    group = list(range(len(cells)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, (x, y) in enumerate(cells):
        for j in range(i):
            u, v = cells[j]
            if abs(u - x) <= PART_GAP and abs(v - y) <= PART_GAP:
                group[root(i)] = root(j)
    parts: dict[int, list[Cell]] = {}
    for i, cell in enumerate(cells):
        parts.setdefault(root(i), []).append(cell)
    return list(parts.values())


def boards(
    position: Position,
    highlight: Iterable[Cell] = (),
    marks: Mapping[Cell, str] | None = None,
) -> list[list[list[Segment]]]:
    """The field as boards of styled lines (:func:`board_segments`), one per part of the field
    (:func:`field_parts`; one board for a field in one piece, or an empty one)."""
    marks = dict(marks or {})
    cells = list(position.field) + list(marks)
    if not cells:
        return [board_segments(position, highlight, marks, bounds(position, 0))]
    return [
        board_segments(position, highlight, marks, (min(xs), max(xs), min(ys), max(ys)))
        for part in field_parts(cells)
        for xs, ys in [([c[0] for c in part], [c[1] for c in part])]
    ]


def board_segments(
    position: Position,
    highlight: Iterable[Cell] = (),
    marks: Mapping[Cell, str] | None = None,
    box: tuple[int, int, int, int] | None = None,
) -> list[list[Segment]]:
    """The board as lines of styled pieces of text (see the module docstring).

    ``highlight``: cells whose tiles are underlined (a winning line, the last move);
    ``marks``: up to three characters shown on empty cells (``*`` for a winning cell);
    ``box``: the cells drawn, (x min, x max, y min, y max); by default all of the field.
    """
    field = position.field
    marks = dict(marks or {})
    lit = set(highlight)
    x0, x1, y0, y1 = box or bounds(position, 0, marks)

    def occupied(x: int, y: int) -> bool:
        return (x, y) in field

    def vertical(x: int, y: int) -> bool:  # the line between (x - 1, y) and (x, y) is drawn
        return occupied(x - 1, y) or occupied(x, y)

    def horizontal(x: int, y: int) -> bool:  # the line between (x, y) and (x, y - 1) is drawn
        return occupied(x, y) or occupied(x, y - 1)

    def edge_mark(a: Tile | None, a_side: int, b: Tile | None, b_side: int, line: str) -> str:
        dots = (a is not None and bool(a.dots & a_side)) + (b is not None and bool(b.dots & b_side))
        if a is None and b is None:
            return " "
        return COMPLETED if dots == 2 else OPEN if dots == 1 else line

    rows: list[list[Segment]] = []
    # row numbers right-aligned in a column as wide as the widest ("-1000" takes five)
    label_w = max(4, *(len(str(y)) for y in range(y0, y1 + 1)))
    rows.append([(_column_numbers(x0, x1, label_w + 2), "dim")])
    for y in range(y1 + 1, y0 - 1, -1):
        # the grid line above row y - 1 (below row y), then row y - 1's cells
        line: list[Segment] = [(" " * (label_w + 1), "")]
        for x in range(x0, x1 + 2):
            arms = (
                int(vertical(x, y)) if y <= y1 else 0,
                int(horizontal(x, y)) if x <= x1 else 0,
                int(vertical(x, y - 1)) if y - 1 >= y0 else 0,
                int(horizontal(x - 1, y)) if x - 1 >= x0 else 0,
            )
            line.append((_JUNCTION[arms], "dim"))
            if x <= x1:
                above, below = field.get((x, y)), field.get((x, y - 1))
                mark = edge_mark(above, S, below, N, "─")
                text = " " if mark == " " else f"─{mark}─"
                line.append((text if mark != " " else "   ", "" if mark in (COMPLETED, OPEN) else "dim"))
        rows.append(line)
        if y - 1 < y0:
            break
        row = y - 1
        cells: list[Segment] = [(f"{row:>{label_w}} ", "dim")]
        for x in range(x0, x1 + 2):
            left, right = field.get((x - 1, row)), field.get((x, row))
            mark = edge_mark(left, E, right, W, "│")
            cells.append((mark, "" if mark in (COMPLETED, OPEN) else "dim"))
            if x > x1:
                break
            tile = field.get((x, row))
            if tile is None:
                cells.append((f"{marks.get((x, row), ''):^3}"[:3], "bold"))
                continue
            fg = "#000000" if position.icon_colour(tile.player) == BLACK else "#ffffff"
            style = f"bold {fg} {TERMINAL_FILL[tile.player]}" + (" underline" if (x, row) in lit else "")
            cells.append((tile_label(tile, position), style))
        rows.append(cells)
    return [_trimmed(r) for r in rows]


def _column_numbers(x0: int, x1: int, indent: int) -> str:
    """The line of column numbers: the first cell begins ``indent`` characters in, four
    characters a column, each number centred over its cell; a number that would run into the
    one before it ("-100" is wider than a cell) is left out, so wide numbers stand over every
    other column."""
    text: list[str] = []
    for x in range(x0, x1 + 1):
        label = str(x)
        start = indent + 4 * (x - x0) + (3 - len(label)) // 2
        if start < len(text) + (1 if text else 0):
            continue  # no room: the number before it took the space
        text.extend(" " * (start - len(text)))
        text.extend(label)
    return "".join(text)


def _trimmed(row: list[Segment]) -> list[Segment]:
    """The row without trailing blanks (the same in colour and in plain text)."""
    end = len(row)
    while end and not row[end - 1][0].strip():
        end -= 1
    row = row[:end]
    if row:
        text, style = row[-1]
        row[-1] = (text.rstrip(), style)
    return row


def render_text(position: Position, highlight: Iterable[Cell] = (), marks: Mapping[Cell, str] | None = None) -> str:
    """The board as plain text (for pipes and files); parts of the field far apart are boards
    of their own, a blank line between them."""
    return "\n".join(
        "".join("".join(t for t, _ in row).rstrip() + "\n" for row in board)
        for board in boards(position, highlight, marks)
    )


def render_rich(position: Position, highlight: Iterable[Cell] = (), marks: Mapping[Cell, str] | None = None):
    """The board as a ``rich`` Text: tiles filled with their owner's colour, icons in theirs."""
    from rich.text import Text

    text = Text()
    for number, board in enumerate(boards(position, highlight, marks)):
        if number:
            text.append("\n")
        for row in board:
            for piece, style in row:
                text.append(piece, style=style or None)
            text.append("\n")
    return text


def line_of_play_lines(line: list[dict], left_out: int, players: int, first_mover: int, indent: str = "  ") -> list[str]:
    """A line of play (:func:`placesat.lsd.forced.line_of_play`) as indented text, one move a line,
    each reply under the move it answers; the replies left out counted where they would stand."""
    out: list[str] = []

    def walk(steps: list[dict], more: int, mover: int, depth: int) -> None:
        for step in steps:
            out.append(f"{indent * depth}player {step['player']}: {step['move']}" + ("  wins" if step["wins"] else ""))
            walk(step["replies"], step["left_out"], step["player"] % players + 1, depth + 1)
        if more:
            shown = "more " if steps else ""
            out.append(f"{indent * depth}... {more} {shown}move(s) of player {mover}, each answered as well (not shown)")

    walk(line, left_out, first_mover, 1)
    return out


LEGEND = "1+b = player 1's tile, icon + in black (w: white); ● completed dot, ○ open half dot; x grows east, y north"


def status_lines(position: Position) -> list[str]:
    """Who is to move (or who won, or that the game is drawn), and each player's supply and
    captured tiles."""
    lines = []
    won = winner(position)
    if won is not None:
        lines.append(f"player {won} has a line: player {won} wins")
    elif is_draw(position):
        lines.append("nobody can place a tile: the game is a draw")
    else:
        lines.append(f"player {position.to_move} to move")
    for player in range(1, position.players + 1):
        supply = position.supplies[player - 1]
        left = sum(n for _, n in supply)
        listed = " ".join(f"{kind_text(k)}:{n}" for k, n in supply) or "none"
        lost = sum(n for _, n in position.captured[player - 1])
        lines.append(
            f"player {player} ({PLAYER_NAMES[player]} tiles, {position.icon_colour(player)} icons): "
            f"{left} in supply ({listed}); {lost} captured"
        )
    return lines


# --------------------------------------------------------------------------- SVG


def render_svg(
    position: Position,
    highlight: Iterable[Cell] = (),
    marks: Mapping[Cell, str] | None = None,
    title: str | None = None,
    cell: int = 56,
    heading: str | None = None,
    numbers: Mapping[Cell, int] | None = None,
) -> str:
    """The field as an SVG picture: tiles in their owner's colour, half dots as half discs on
    their sides (two meeting make a whole dot), icons in their icon colour, the cells' coordinates
    along the edges, highlighted tiles framed, marked empty cells with their mark.

    ``heading``: a question and its answer written above the field (wrapped to its width);
    ``numbers``: tiles numbered in a disc at their lower right corner (the order a line of play
    placed them)."""
    marks = dict(marks or {})
    numbers = dict(numbers or {})
    lit = set(highlight)
    x0, x1, y0, y1 = bounds(position, 1, marks)
    pad = 30
    lines = status_lines(position)
    width = max((x1 - x0 + 1) * cell + 2 * pad, 2 * pad + 7 * max(len(t) for t in lines))
    heading_lines = _wrapped(heading, max(40, (width - 2 * pad) // 8)) if heading else []
    head_room = 22 * len(heading_lines) + (8 if heading_lines else 0)
    height = (y1 - y0 + 1) * cell + 2 * pad + 18 * len(lines) + head_room

    def corner(c: Cell) -> tuple[float, float]:
        return pad + (c[0] - x0) * cell, head_room + pad + (y1 - c[1]) * cell

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f"<title>{escape(title or 'LSD position')}</title>",
        f'<rect width="{width}" height="{height}" fill="#f4efe4"/>',
    ]
    for i, text in enumerate(heading_lines):
        out.append(f'<text x="{pad}" y="{24 + 22 * i}" font-size="15" font-weight="bold" fill="#222">{escape(text)}</text>')
    for x in range(x0, x1 + 1):
        cx = corner((x, 0))[0] + cell / 2
        out.append(f'<text x="{cx:.0f}" y="{head_room + pad - 10}" font-size="11" fill="#777" text-anchor="middle">{x}</text>')
    for y in range(y0, y1 + 1):
        cy = corner((0, y))[1] + cell / 2 + 4
        out.append(f'<text x="{pad - 8}" y="{cy:.0f}" font-size="11" fill="#777" text-anchor="end">{y}</text>')
    r = cell * 0.13
    for c, tile in sorted(position.field.items()):
        left, top = corner(c)
        out.append(
            f'<rect x="{left + 1:.1f}" y="{top + 1:.1f}" width="{cell - 2}" height="{cell - 2}" rx="4" '
            f'fill="{SVG_FILL[tile.player]}" stroke="#333" stroke-width="1"><title>player {tile.player} at {cell_text(c)}: '
            f"{kind_text(tile.kind)}</title></rect>"
        )
        mid_x, mid_y = left + cell / 2, top + cell / 2
        half = cell / 2
        # a half disc on each dotted side, flat edge on the tile's border
        # from left to right (N, S) or top to bottom (E, W); the sweep flag bends the arc inwards
        for side, (ex, ey), flag in ((N, (0, -half), 0), (E, (half, 0), 0), (S, (0, half), 1), (W, (-half, 0), 1)):
            if not tile.dots & side:
                continue
            px, py = mid_x + ex, mid_y + ey
            a, b = ((px - r, py), (px + r, py)) if side in (N, S) else ((px, py - r), (px, py + r))
            out.append(f'<path d="M {a[0]:.1f} {a[1]:.1f} A {r:.1f} {r:.1f} 0 0 {flag} {b[0]:.1f} {b[1]:.1f} Z" fill="#222"/>')
        colour = "#111" if position.icon_colour(tile.player) == BLACK else "#fff"
        rim = "#fff" if colour == "#111" else "#111"
        arm = cell * 0.2
        if tile.icon == PLUS:
            strokes = [(mid_x - arm, mid_y, mid_x + arm, mid_y), (mid_x, mid_y - arm, mid_x, mid_y + arm)]
        else:
            strokes = [(mid_x - arm, mid_y - arm, mid_x + arm, mid_y + arm), (mid_x - arm, mid_y + arm, mid_x + arm, mid_y - arm)]
        for stroke, wide in ((rim, 7.5), (colour, 4.5)):
            for ax, ay, bx, by in strokes:
                out.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{stroke}" stroke-width="{wide}" stroke-linecap="round"/>')
        out.append(f'<text x="{left + 6:.1f}" y="{top + 14:.1f}" font-size="10" fill="#fff">{tile.player}</text>')
        if c in lit:
            out.append(f'<rect x="{left + 3:.1f}" y="{top + 3:.1f}" width="{cell - 6}" height="{cell - 6}" rx="4" fill="none" stroke="#ffe14d" stroke-width="3"/>')
        if c in numbers:
            out.append(f'<circle cx="{left + cell - 11:.1f}" cy="{top + cell - 11:.1f}" r="8.5" fill="#fff" stroke="#222" stroke-width="1.5"/>')
            out.append(f'<text x="{left + cell - 11:.1f}" y="{top + cell - 7:.1f}" font-size="11" font-weight="bold" fill="#222" text-anchor="middle">{numbers[c]}</text>')
    for c, mark in sorted(marks.items()):
        if c in position.field:
            continue
        left, top = corner(c)
        out.append(f'<rect x="{left + 4:.1f}" y="{top + 4:.1f}" width="{cell - 8}" height="{cell - 8}" fill="none" stroke="#c0392b" stroke-width="2" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{left + cell / 2:.1f}" y="{top + cell / 2 + 6:.1f}" font-size="16" fill="#c0392b" text-anchor="middle">{escape(mark)}</text>')
    base = head_room + (y1 - y0 + 1) * cell + 2 * pad
    for i, text in enumerate(lines):
        out.append(f'<text x="{pad}" y="{base + 14 + 18 * i}" font-size="12" fill="#222">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken between words."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


