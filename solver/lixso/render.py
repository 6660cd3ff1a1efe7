"""Pictures of Lixso grids: letters for pipes, outlined coloured tiles for terminals, SVG for files."""

from __future__ import annotations

from html import escape

from .model import EMPTY, Grid
from .rules import same_colour_groups

# Terminal styles and SVG fills per colour letter. The box's own colours are not recorded in
# the rule text; these four are told apart easily, also by most colour-blind readers.
TERMINAL_STYLE = {"I": "bold black on yellow", "X": "bold white on red", "S": "bold black on green", "O": "bold white on blue"}
SVG_FILL = {"I": "#f2c12e", "X": "#d64545", "S": "#4caf50", "O": "#3d6fd6"}

# box-drawing junctions, by which arms (up, right, down, left) are drawn
_JUNCTION = {
    (0, 0, 0, 0): " ", (1, 0, 1, 0): "│", (0, 1, 0, 1): "─",
    (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘",
    (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
    (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷", (0, 0, 0, 1): "╴",
}


def plain(rows: tuple[str, ...]) -> str:
    """The grid as lines of letters and dots: the file format, good for pipes and diffs."""
    return "\n".join(rows)


def tile_ids(rows: tuple[str, ...]) -> list[list[int]]:
    """A number per cell naming its tile (its same-colour group); uncoloured cells get -1 each."""
    ids = [[-1] * len(rows[0]) for _ in rows]
    for number, (_, cells) in enumerate(same_colour_groups(rows)):
        for r, c in cells:
            ids[r][c] = number
    return ids


def outlined(rows: tuple[str, ...], puzzle: Grid | None = None, labels: bool = True):
    """A ``rich`` Text of the grid with every tile outlined and filled with its colour.

    Clue cells of ``puzzle`` (when given) are underlined, so the givens stand out. ``labels``:
    column numbers above and row numbers on the left, from 1, as hints name cells (r2c7).
    """
    from rich.text import Text

    height, width = len(rows), len(rows[0])
    ids = tile_ids(rows)

    def tile(r: int, c: int) -> int | None:
        if 0 <= r < height and 0 <= c < width:
            return ids[r][c] if rows[r][c] != EMPTY else -2 - r * width - c
        return None

    def wall(a: int | None, b: int | None) -> int:
        return int(a != b)

    text = Text()
    margin = len(str(height)) + 1 if labels else 0
    if labels:
        # each number centred over its cell (a cell is three characters after a wall)
        text.append(" " * margin + "".join(f" {c + 1:^3}" for c in range(width)).rstrip() + "\n", style="dim")
    for jr in range(height + 1):
        # a line of junctions and horizontal walls
        text.append(" " * margin)
        for jc in range(width + 1):
            up = wall(tile(jr - 1, jc - 1), tile(jr - 1, jc)) if jr > 0 else 0
            down = wall(tile(jr, jc - 1), tile(jr, jc)) if jr < height else 0
            left = wall(tile(jr - 1, jc - 1), tile(jr, jc - 1)) if jc > 0 else 0
            right = wall(tile(jr - 1, jc), tile(jr, jc)) if jc < width else 0
            text.append(_JUNCTION[(up, right, down, left)], style="dim")
            if jc < width:
                text.append("───" if wall(tile(jr - 1, jc), tile(jr, jc)) else "   ", style="dim")
        text.append("\n")
        if jr == height:
            break
        if labels:
            text.append(f"{jr + 1:>{margin - 1}} ", style="dim")
        for c in range(width + 1):
            text.append("│" if wall(tile(jr, c - 1), tile(jr, c)) else " ", style="dim")
            if c == width:
                break
            letter = rows[jr][c]
            style = TERMINAL_STYLE.get(letter, "")
            if puzzle is not None and puzzle.rows[jr][c] != EMPTY:
                style = (style + " underline").strip()
            text.append(f" {letter} " if letter != EMPTY else " · ", style=style)
        text.append("\n")
    text.rstrip()
    return text


def svg(
    puzzle: Grid,
    solution: tuple[str, ...] | None = None,
    cell: int = 36,
    symbols: bool = False,
    note: str | None = None,
    labels: bool = True,
) -> str:
    """An SVG picture: the puzzle on the left and, when given, its solution with tile outlines on the right.

    ``symbols``: letters in black and white, no colour fills (for colour-blind players and
    for pen and paper). ``note``: a line of warning under the picture, in red (for example
    that the grid has no solution or more than one). ``labels``: row numbers on the left and
    column numbers above each grid, from 1, as hints name cells (r2c7).
    """
    height, width = puzzle.height, puzzle.width
    band = 14 if labels else 0  # room for the column numbers (and, beside, the row numbers)
    pad = cell // 2 + band
    panel = width * cell
    panels = 2 if solution is not None else 1
    total_w = max(pad + panels * (panel + pad), 7 * len(note or "") + 2 * pad)
    total_h = height * cell + 2 * pad + 18 + (22 if note else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">',
        f'<title>{escape(puzzle.label())}</title>',
        f'<rect width="{total_w}" height="{total_h}" fill="white"/>',
    ]

    def draw(rows: tuple[str, ...], left: int, caption: str, outline: bool) -> None:
        top = pad + 18
        out.append(f'<text x="{left}" y="{pad - band + 8}" font-size="14">{escape(caption)}</text>')
        if labels:
            for c in range(width):
                out.append(f'<text x="{left + c * cell + cell / 2}" y="{top - 5}" font-size="11" fill="dimgray" '
                           f'text-anchor="middle">{c + 1}</text>')
            for r in range(height):
                out.append(f'<text x="{left - 5}" y="{top + r * cell + cell / 2 + 4}" font-size="11" fill="dimgray" '
                           f'text-anchor="end">{r + 1}</text>')
        for r in range(height):
            for c in range(width):
                x, y = left + c * cell, top + r * cell
                letter = rows[r][c]
                clue = puzzle.rows[r][c] != EMPTY
                fill = SVG_FILL.get(letter, "white") if (outline or clue) and not symbols else "white"
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#bbb" stroke-width="1"/>')
                if letter != EMPTY:
                    weight = "bold" if clue else "normal"
                    out.append(
                        f'<text x="{x + cell / 2}" y="{y + cell / 2 + 5}" font-size="{cell // 2.6:.0f}" '
                        f'text-anchor="middle" font-weight="{weight}">{letter}</text>'
                    )
        if outline:
            ids = tile_ids(rows)
            for r in range(height):
                for c in range(width):
                    x, y = left + c * cell, top + r * cell
                    if c + 1 == width or ids[r][c] != ids[r][c + 1]:
                        out.append(f'<line x1="{x + cell}" y1="{y}" x2="{x + cell}" y2="{y + cell}" stroke="black" stroke-width="3"/>')
                    if r + 1 == height or ids[r][c] != ids[r + 1][c]:
                        out.append(f'<line x1="{x}" y1="{y + cell}" x2="{x + cell}" y2="{y + cell}" stroke="black" stroke-width="3"/>')
        out.append(f'<rect x="{left}" y="{top}" width="{panel}" height="{height * cell}" fill="none" stroke="black" stroke-width="3"/>')

    draw(puzzle.rows, pad, f"{puzzle.label()}: puzzle", outline=False)
    if solution is not None:
        draw(solution, pad + panel + pad, "solution", outline=True)
    if note:
        out.append(f'<text x="{pad}" y="{total_h - pad // 2 - 4}" font-size="14" fill="#c00000">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
