"""Pictures of a game position: text for pipes, colours for terminals, SVG for files.

Laid tiles show their colour letter in upper case; a clue cell no tile covers yet shows its
clue in lower case; an empty cell is a dot. Rows and columns are numbered, so that a move
can be read off and typed (``I r3c4 r3c5 r4c4``). Same-coloured tiles never touch, so the
colours alone tell the tiles apart.
"""

from __future__ import annotations

from html import escape

from ..model import EMPTY
from ..render import SVG_FILL, TERMINAL_STYLE
from .model import Cell, Move
from .rules import Game, GameRules, State


CLUE_STYLE = {colour: style.split(" on ")[-1] for colour, style in TERMINAL_STYLE.items()}
"""An uncovered clue: its letter in its tile colour, on no background."""


def cell_letters(rules: GameRules, state: State) -> list[list[str]]:
    """Each cell's letter: the tile's colour (upper case), an uncovered clue (lower case), or ``.``."""
    board = rules.cell_colours(state)
    return [
        [board[r][c] if board[r][c] != EMPTY else rules.grid.rows[r][c].lower() for c in range(rules.width)]
        for r in range(rules.height)
    ]


def _column_header(width: int) -> str:
    return "    " + " ".join(f"{c + 1:>2}" for c in range(width))


def _shown(letters: list[list[str]], numbers: dict[Cell, int] | None) -> list[list[str]]:
    """The letters, with every cell of a numbered tile showing its number instead."""
    if not numbers:
        return letters
    return [[str(numbers[(r, c)]) if (r, c) in numbers else ch for c, ch in enumerate(row)] for r, row in enumerate(letters)]


def plain(rules: GameRules, state: State, numbers: dict[Cell, int] | None = None) -> str:
    """The board as text with numbered rows and columns; ``numbers`` (cell: number) marks the
    tiles of a line of play, each cell of such a tile showing its number."""
    lines = [_column_header(rules.width)]
    for r, row in enumerate(_shown(cell_letters(rules, state), numbers)):
        lines.append(f"{r + 1:>3} " + " ".join(f"{ch:>2}" for ch in row))
    return "\n".join(lines)


def coloured(rules: GameRules, state: State, last: Move | None = None, numbers: dict[Cell, int] | None = None):
    """The board as a ``rich`` Text: tiles on their colour (the last one laid underlined),
    uncovered clues in their colour; ``numbers`` as for :func:`plain`. Its characters are
    those of :func:`plain`, so that the column numbers stand over their cells."""
    from rich.text import Text

    recent = set(last.cells) if last is not None else set()
    board = cell_letters(rules, state)
    text = Text()
    text.append(_column_header(rules.width) + "\n", style="dim")
    for r, row in enumerate(_shown(board, numbers)):
        text.append(f"{r + 1:>3} ", style="dim")
        for c, ch in enumerate(row):
            if c:
                text.append(" ")
            colour = board[r][c]
            if colour.isupper():
                style = TERMINAL_STYLE[colour] + (" underline" if (r, c) in recent else "")
                text.append(f"{ch:>2}", style=style)
            elif ch != EMPTY:
                text.append(f"{ch:>2}", style=CLUE_STYLE[ch.upper()])
            else:
                text.append(" ·", style="dim")
        text.append("\n")
    text.rstrip()
    return text


def wrapped(items: list[str], width: int, lead: str = "", separator: str = "  ") -> list[str]:
    """``items`` joined by ``separator`` in lines of at most ``width`` characters (when the
    items allow), broken only between items: a move is never cut in two. Lines after the
    first are indented as far as ``lead`` is long."""
    lines: list[str] = []
    current = lead
    indent = " " * len(lead)
    for item in items:
        start = current in (lead, indent)
        if not start and len(current) + len(separator) + len(item) > width:
            lines.append(current)
            current = indent
            start = True
        current += item if start else separator + item
    if current not in (lead, indent) or not lines:
        lines.append(current)
    return lines


def svg(
    rules: GameRules,
    state: State,
    title: str = "",
    labels: dict[Cell, str] | None = None,
    new: frozenset[Cell] | set[Cell] = frozenset(),
    footer: tuple[str, ...] | list[str] = (),
    cell: int = 40,
) -> str:
    """An SVG picture: every laid tile filled with its colour and outlined; ``labels`` (a
    tile's first cell: text) written on tiles, larger on the tiles of ``new`` (a line of
    play, whose tiles keep their full colour while the others fade); uncovered clues as
    coloured letters; the cells' names (``r3``, ``c7``, as moves are typed) on all four
    rims; ``title`` (one or more lines) above and ``footer`` lines below."""
    labels = labels or {}
    height, width = rules.height, rules.width
    pad = cell
    titles = title.splitlines()
    title_h = 24 * len(titles) + 6 if titles else 0
    line_h = 18
    text_w = int(7.2 * max([len(line) for line in footer] + [len(line) * 1.2 for line in titles] + [0])) + 2 * 12
    board_w = width * cell + 2 * pad
    total_w = max(board_w, text_w)
    left = (total_w - width * cell) // 2
    top = pad + title_h
    total_h = top + height * cell + pad + (len(footer) * line_h + 8 if footer else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">',
        f'<rect width="{total_w}" height="{total_h}" fill="white"/>',
    ]
    for number, line in enumerate(titles):
        out.append(f'<text x="12" y="{26 + 24 * number}" font-size="17" font-weight="bold">{_svg_text(line)}</text>')
    letters = cell_letters(rules, state)
    owner: dict[Cell, Cell] = {}
    for _, cells in rules.tiles(state):
        for here in cells:
            owner[here] = cells[0]
    for r in range(height):
        for c in range(width):
            x, y = left + c * cell, top + r * cell
            ch = letters[r][c]
            fill = SVG_FILL[ch] if ch.isupper() else "white"
            faded = ' fill-opacity="0.35"' if new and ch.isupper() and owner[(r, c)] not in new else ""
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"{faded} stroke="#bbb" stroke-width="1"/>')
            if ch.isupper() and (r, c) in labels:
                size = cell // 2 if (r, c) in new else cell // 2.6
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + size / 2.8:.1f}" font-size="{size:.0f}" '
                           f'text-anchor="middle" font-weight="bold">{_svg_text(labels[(r, c)])}</text>')
            elif ch != EMPTY and not ch.isupper():
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" font-size="{cell // 2.4:.0f}" '
                           f'text-anchor="middle" font-weight="bold" fill="{SVG_FILL[ch.upper()]}">{ch.upper()}</text>')
    for r in range(height):
        for c in range(width):
            x, y = left + c * cell, top + r * cell
            here = owner.get((r, c))
            if c + 1 < width and here != owner.get((r, c + 1)) and (here or owner.get((r, c + 1))):
                out.append(f'<line x1="{x + cell}" y1="{y}" x2="{x + cell}" y2="{y + cell}" stroke="black" stroke-width="3"/>')
            if r + 1 < height and here != owner.get((r + 1, c)) and (here or owner.get((r + 1, c))):
                out.append(f'<line x1="{x}" y1="{y + cell}" x2="{x + cell}" y2="{y + cell}" stroke="black" stroke-width="3"/>')
    for c in range(width):
        x = left + c * cell + cell / 2
        out.append(f'<text x="{x}" y="{top - 10}" font-size="13" text-anchor="middle" fill="#555">c{c + 1}</text>')
        out.append(f'<text x="{x}" y="{top + height * cell + 20}" font-size="13" text-anchor="middle" fill="#555">c{c + 1}</text>')
    for r in range(height):
        y = top + r * cell + cell / 2 + 5
        out.append(f'<text x="{left - 8}" y="{y}" font-size="13" text-anchor="end" fill="#555">r{r + 1}</text>')
        out.append(f'<text x="{left + width * cell + 8}" y="{y}" font-size="13" text-anchor="start" fill="#555">r{r + 1}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{width * cell}" height="{height * cell}" fill="none" stroke="black" stroke-width="3"/>')
    for number, line in enumerate(footer):
        y = top + height * cell + pad + number * line_h + 4
        out.append(f'<text x="12" y="{y}" font-size="14">{_svg_text(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_text(text: str) -> str:
    """Text for an SVG: XML-escaped, and control characters (which XML forbids, and which a
    name from a file may hold) written as escapes."""
    return escape("".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text))


def record_labels(moves: tuple[Move, ...]) -> dict[Cell, str]:
    """Each tile of a record numbered by the move that laid it (on its first cell)."""
    return {move.cells[0]: str(number) for number, move in enumerate(moves, start=1)}


def colours_line(game: Game) -> str:
    """Which colours are whose, in one short line (for a picture's legend)."""
    seating = game.rules.seating
    return " · ".join(f"{seating.side_name(side)}: {' and '.join(seating.colours_of(side))}" for side in range(seating.side_count))


def setup_line(game: Game) -> str:
    """Who plays what, the supply and the rule variant, in one line."""
    seating = game.rules.seating
    if seating.players == 4:
        order = " ".join(seating.seats)
        who = f"4 players in the order {order}: team A ({', '.join(seating.colours_of(0))}) against team B ({', '.join(seating.colours_of(1))})"
    elif seating.players == 3:
        who = "3 players: " + ", ".join(f"player {n + 1} ({seat[0]})" for n, seat in enumerate(seating.seats)) + f", {seating.shared} shared"
    else:
        who = f"2 players: player 1 ({', '.join(seating.seats[0])}) against player 2 ({', '.join(seating.seats[1])})"
    rule = "on" if game.rules.clue_touch else "off"
    return f"{who}; {game.rules.per_colour} tiles of each colour; clue-touch rule {rule}"


def status_lines(game: Game) -> list[str]:
    """The score, who had to pass on the last turn, and who is to move (or who won)."""
    rules, state = game.rules, game.state
    seating = rules.seating
    lines = [" · ".join(f"{seating.side_name(side)}: {score} tile{'s' if score != 1 else ''}" for side, score in enumerate(state.scores))]
    if game.turns and game.turns[-1].passed and not state.over:
        lines.append(", ".join(seating.seat_name(seat) for seat in game.turns[-1].passed) + " cannot lay a tile: passes")
    if state.over:
        winner = rules.winner(state)
        if winner is None:
            each = max(state.scores)
            lines.append(f"game over: a draw, {each} tile{'s' if each != 1 else ''} each")
        else:
            others = sorted((s for side, s in enumerate(state.scores) if side != winner), reverse=True)
            lines.append(f"game over: {seating.side_name(winner)} wins, {state.scores[winner]} tiles to {others[0]}")
    else:
        lines.append(f"{seating.seat_name(state.to_move)} to move")
    return lines


def moves_line(moves: tuple[Move, ...]) -> str:
    """The record, numbered."""
    return "  ".join(f"{number}. {move}" for number, move in enumerate(moves, start=1))
