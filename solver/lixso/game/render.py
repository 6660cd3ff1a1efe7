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
from .model import Move
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


def plain(rules: GameRules, state: State) -> str:
    """The board as text with numbered rows and columns."""
    lines = [_column_header(rules.width)]
    for r, row in enumerate(cell_letters(rules, state)):
        lines.append(f"{r + 1:>3} " + " ".join(f"{ch:>2}" for ch in row))
    return "\n".join(lines)


def coloured(rules: GameRules, state: State, last: Move | None = None):
    """The board as a ``rich`` Text: tiles on their colour (the last one laid underlined),
    uncovered clues in their colour."""
    from rich.text import Text

    recent = set(last.cells) if last is not None else set()
    text = Text()
    text.append(_column_header(rules.width) + "\n", style="dim")
    for r, row in enumerate(cell_letters(rules, state)):
        text.append(f"{r + 1:>3} ", style="dim")
        for c, ch in enumerate(row):
            text.append(" ")
            if ch.isupper():
                text.append(f" {ch}", style=TERMINAL_STYLE[ch] + (" underline" if (r, c) in recent else ""))
            elif ch != EMPTY:
                text.append(f" {ch}", style=CLUE_STYLE[ch.upper()])
            else:
                text.append(" ·", style="dim")
        text.append("\n")
    text.rstrip()
    return text


def svg(rules: GameRules, state: State, moves: tuple[Move, ...] = (), title: str = "", cell: int = 40) -> str:
    """An SVG picture: every laid tile filled with its colour, outlined, and numbered by the
    move that laid it; uncovered clues as coloured letters; row and column numbers around."""
    height, width = rules.height, rules.width
    pad = cell
    total_w, total_h = width * cell + 2 * pad, height * cell + 2 * pad + (24 if title else 0)
    top = pad + (24 if title else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">',
        f'<rect width="{total_w}" height="{total_h}" fill="white"/>',
    ]
    if title:
        out.append(f'<text x="{pad}" y="{pad // 2 + 12}" font-size="16">{escape(title)}</text>')
    number_of: dict[tuple[int, int], int] = {}
    for number, move in enumerate(moves, start=1):
        number_of[move.cells[0]] = number
    letters = cell_letters(rules, state)
    owner: dict[tuple[int, int], tuple[int, int]] = {}
    for _, cells in rules.tiles(state):
        for here in cells:
            owner[here] = cells[0]
    for r in range(height):
        for c in range(width):
            x, y = pad + c * cell, top + r * cell
            ch = letters[r][c]
            fill = SVG_FILL[ch] if ch.isupper() else "white"
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#bbb" stroke-width="1"/>')
            if ch.isupper() and (r, c) in number_of:
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" font-size="{cell // 2.4:.0f}" '
                           f'text-anchor="middle" font-weight="bold">{number_of[(r, c)]}</text>')
            elif ch != EMPTY and not ch.isupper():
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" font-size="{cell // 2.4:.0f}" '
                           f'text-anchor="middle" font-weight="bold" fill="{SVG_FILL[ch.upper()]}">{ch.upper()}</text>')
    for r in range(height):
        for c in range(width):
            x, y = pad + c * cell, top + r * cell
            here = owner.get((r, c))
            if c + 1 < width and here != owner.get((r, c + 1)) and (here or owner.get((r, c + 1))):
                out.append(f'<line x1="{x + cell}" y1="{y}" x2="{x + cell}" y2="{y + cell}" stroke="black" stroke-width="3"/>')
            if r + 1 < height and here != owner.get((r + 1, c)) and (here or owner.get((r + 1, c))):
                out.append(f'<line x1="{x}" y1="{y + cell}" x2="{x + cell}" y2="{y + cell}" stroke="black" stroke-width="3"/>')
    for c in range(width):
        out.append(f'<text x="{pad + c * cell + cell / 2}" y="{top - 8}" font-size="12" text-anchor="middle" fill="#666">{c + 1}</text>')
    for r in range(height):
        out.append(f'<text x="{pad - 8}" y="{top + r * cell + cell / 2 + 4}" font-size="12" text-anchor="end" fill="#666">{r + 1}</text>')
    out.append(f'<rect x="{pad}" y="{top}" width="{width * cell}" height="{height * cell}" fill="none" stroke="black" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


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
