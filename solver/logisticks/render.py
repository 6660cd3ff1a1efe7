"""Logi-Sticks boards for a person: plain text for pipes, the same text in colour for a
terminal, and SVG pictures.

The text board is laid out once, as rows of (text, style) segments (:func:`board_segments`):
:func:`board_text` drops the styles, :func:`board_rich` turns them into a ``rich`` Text. A piece
reads ``OWNER:TYPE/INPUTS=SIGNAL`` (``1:AND/SW=T``: player 1's AND reading south and west,
outputting TRUE); a target stone ``W+``/``B+`` matched, ``W-``/``B-`` the wrong signal,
``W?``/``B?`` nothing yet (:func:`target_mark`, also the "now" column of ``analyze``).
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from placesat.core.lattice import Point

from .model import BLACK, CENTRE_POINTS, FILES, SIDES, TARGET_SIDE, WHITE, Piece, Position, square_name
from .rules import Score, Signal, game_over, matches, scores, signal_text, signals, winners

CELL = 11  # "1:PASS/W=T" and a space

EDGE_NAME = {"S": "south", "N": "north", "W": "west", "E": "east"}

# Terminal styles. Signals look like the stones that stand for them (white TRUE, black FALSE);
# MUTABLE is dim: not known yet. Players get four hues that stay apart from those and from the
# green/red of matched/wrong targets.
SIGNAL_STYLE = {True: "bold black on white", False: "bold white on grey37", None: "dim"}
STONE_STYLE = {WHITE: "black on white", BLACK: "white on grey37"}
MARK_STYLE = {"+": "bold green", "-": "bold red", "?": "dim"}
PLAYER_STYLE = {1: "bold cyan", 2: "bold magenta", 3: "bold yellow", 4: "bold blue"}

Segment = tuple[str, str]  # (text, rich style; "" for none)


def value_char(value: Signal) -> str:
    """``T``, ``F`` or ``?`` (MUTABLE)."""
    return "?" if value is None else ("T" if value else "F")


def target_mark(colour: str, value: Signal) -> str:
    """A target stone and what it receives: ``W+`` matched, ``W-`` the wrong signal, ``W?`` none yet."""
    if value is None:
        return f"{colour}?"
    return f"{colour}+" if matches(colour, value) else f"{colour}-"


def target_segments(colour: str, value: Signal) -> list[Segment]:
    """:func:`target_mark` with its styles: the stone as a stone, the mark green/red/dim."""
    mark = target_mark(colour, value)
    return [(mark[0], STONE_STYLE[colour]), (mark[1], MARK_STYLE[mark[1]])]


def _piece_text(piece: Piece) -> str:
    return f"{piece.player}:{piece.kind.type}/{piece.kind.orientation}=T"


def piece_segments(piece: Piece, value: Signal) -> list[Segment]:
    """``OWNER:TYPE/INPUTS=SIGNAL`` with the owner's style and the signal's."""
    style = PLAYER_STYLE.get(piece.player, "bold")
    return [(f"{piece.player}:{piece.kind.type}/{piece.kind.orientation}", style), ("=", ""),
            (value_char(value), SIGNAL_STYLE[value])]


def _centred(segments: list[Segment], width: int, align: str = "^") -> list[Segment]:
    """``segments`` padded with spaces to ``width`` (centred, or right-aligned with ``>``)."""
    room = max(width - sum(len(text) for text, _ in segments), 0)
    left = room if align == ">" else room // 2
    return [(" " * left, "")] + segments + [(" " * (room - left), "")]


def _edge_label(player: int, position: Position) -> list[Segment]:
    """``p2`` in player 2's style, where that player's target stones are; blank otherwise."""
    if player > position.players:
        return [("  ", "")]
    return [(f"p{player}", PLAYER_STYLE[player])]


NUMBER_STYLE = "bold reverse"


def board_segments(position: Position, numbered: dict[Point, int] | None = None) -> list[list[Segment]]:
    """The board as rows of styled segments (see the module docstring), then a legend, then
    each player's score and supply in words and whose turn it is. ``numbered``: pieces of a
    line of play, each with its place in the line (``#3 1:NOT/S=T``: the line's third piece)."""
    numbered = numbered or {}
    values = signals(position)
    # a cell holds its widest piece and a space (the numbers make a line's cells wider)
    cell_width = max([CELL] + [len(f"#{n} ") + len(_piece_text(position.pieces[s])) + 1 for s, n in numbered.items()])
    targets = {
        (square, TARGET_SIDE[player]): colour
        for player, stones in position.targets.items()
        for square, colour in stones.items()
    }

    def target_at(square, side: str) -> list[Segment]:
        colour = targets.get((square, side))
        return target_segments(colour, values.get(square)) if colour else []

    def file_row() -> list[Segment]:
        row: list[Segment] = [*_edge_label(3, position), ("   ", "")]
        row += [(f"{f:^{cell_width}}", "dim") for f in FILES]
        return row + [("   ", ""), *_edge_label(4, position)]

    def target_row(player: int, row: int, side: str) -> list[Segment]:
        segments = [*_edge_label(player, position), ("   ", "")]
        for col in range(8):
            segments += _centred(target_at((row, col), side), cell_width)
        return segments

    rows: list[list[Segment]] = [file_row(), target_row(2, 0, "N")]
    for row in range(8):
        rank = 8 - row
        line = _centred(target_at((row, 0), "W"), 2, ">") + [(f" {rank} ", "dim")]
        for col in range(8):
            square = (row, col)
            if square in CENTRE_POINTS:
                stones: list[Segment] = [("[", "dim")]
                for side in SIDES:
                    if (square, side) in position.centre:
                        if len(stones) > 1:
                            stones.append((" ", ""))
                        colour = position.centre[(square, side)]
                        stones += [(side.lower(), ""), (colour, STONE_STYLE[colour])]
                stones.append(("]", "dim"))
                cell = stones
            elif square in position.pieces:
                cell = piece_segments(position.pieces[square], values[square])
                if square in numbered:
                    cell = [(f"#{numbered[square]}", NUMBER_STYLE), (" ", "")] + cell
            else:
                cell = [(".", "dim")]
            line += _centred(cell, cell_width)
        line += [(f" {rank} ", "dim"), *target_at((row, 7), "E")]
        rows.append(line)
    rows += [target_row(1, 7, "S"), file_row(), []]
    rows += [[(text, "dim")] for text in legend_lines(position, bool(numbered))]
    rows.append([])
    rows += status_segments(position)
    return rows


def plain_text(rows: list[list[Segment]]) -> str:
    """Rows of styled segments as plain text, one line each."""
    return "\n".join("".join(text for text, _ in row).rstrip() for row in rows)


def rich_text(rows: list[list[Segment]]):
    """Rows of styled segments as one ``rich`` Text, in colour."""
    from rich.text import Text

    lines = []
    for row in rows:
        line = Text()
        for part, style in row:
            line.append(part, style=style or None)
        line.rstrip()  # as plain_text does
        lines.append(line)
    return Text("\n").join(lines)


def board_text(position: Position, numbered: dict[Point, int] | None = None) -> str:
    """The board as plain text (for a pipe or a file); ``numbered`` as in :func:`board_segments`."""
    return plain_text(board_segments(position, numbered))


def board_rich(position: Position):
    """The board as a ``rich`` Text, in colour (for a terminal)."""
    return rich_text(board_segments(position))


def legend_lines(position: Position, numbered: bool = False) -> list[str]:
    """What the marks on the text board mean (``numbered``: with a line's pieces numbered)."""
    edges = ", ".join(f"p{p} {EDGE_NAME[TARGET_SIDE[p]]}" for p in range(1, position.players + 1))
    return [
        "piece OWNER:TYPE/INPUTS=SIGNAL: T TRUE, F FALSE, ? MUTABLE; centre [nW wB]: a stone's side and colour",
        f"targets W/B: + matched, - wrong signal, ? nothing yet; each player's edge: {edges}",
    ] + (["#N before a piece: the line's Nth placement"] if numbered else [])


# --------------------------------------------------------------------------- the score in words


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def score_words(position: Position, score: Score) -> tuple[str, str]:
    """A player's score and its tie-breaks, named: ``2 points, 2 of 8 targets matched`` and
    ``tie-breaks: 1 white target matched, 4 black target stones``."""
    total = len(position.targets.get(score.player, {}))
    return (f"{_plural(score.points, 'point')}, {score.points} of {_plural(total, 'target')} matched",
            f"tie-breaks: {_plural(score.true_matched, 'white target')} matched, "
            f"{_plural(score.black_stones, 'black target stone')}")


def result_words(position: Position) -> str:
    """Who leads or won, and what decided it: points, then white targets matched, then black
    target stones (the rule's order), or a tie."""
    table = scores(position)
    best = winners(position)
    if len(best) > 1:
        return "tie between players " + ", ".join(map(str, best))
    top = table[best[0]].key()
    others = [table[p].key() for p in table if p != best[0]]
    decided = 0
    for i in range(3):  # the first place where the winner is ahead of everyone still level
        level = [key for key in others if key[:i] == top[:i]]
        if level and all(top[i] > key[i] for key in level):
            decided = i
            break
    why = ("on points", "on the first tie-break (white targets matched)",
           "on the second tie-break (black target stones)")[decided]
    return f"player {best[0]} {'wins' if game_over(position) else 'leads'} {why}"


def position_words(position: Position) -> str:
    """The position in a few words, for a picture's title: the players, the pieces placed and
    whose turn it is, or the result."""
    state = f"game over: {result_words(position)}" if game_over(position) else f"turn {position.turn}, player {position.to_move} to move"
    return f"Logi-Sticks, {position.players} players, {_plural(len(position.pieces), 'piece')} placed: {state}"


def status_segments(position: Position) -> list[list[Segment]]:
    """Each player's score (in words) and supply, then whose turn it is or the result."""
    rows: list[list[Segment]] = []
    table = scores(position)
    for player in range(1, position.players + 1):
        edge = EDGE_NAME[TARGET_SIDE[player]]
        points, tie_breaks = score_words(position, table[player])
        rows.append([(f"player {player}", PLAYER_STYLE[player]), (f" ({edge} edge): {points}", "")])
        supply = ", ".join(f"{t} {n}" for t, n in position.supply[player].items())
        rows.append([(f"  {tie_breaks}", "dim")])
        rows.append([(f"  supply: {supply}", "dim")])
    if game_over(position):
        rows.append([("game over: ", "bold"), (result_words(position), "bold")])
    else:
        rows.append([(f"turn {position.turn}: ", ""), (f"player {position.to_move}", PLAYER_STYLE[position.to_move]), (" to move", "")])
    return rows


# --------------------------------------------------------------------------- SVG

SQUARE = 60
# outside each edge, from the board out: the target stones (their centres TARGET_OUT away), the
# coordinates (COORDINATE_OUT), the player's label (LABEL_OUT)
TARGET_OUT = 24
COORDINATE_OUT = 50
LABEL_OUT = 76
MARGIN = 88
TITLE_LINE = 22  # height of a line of the title
FILL = {True: "#ffffff", False: "#222222", None: "#a8a8a8"}
INK = {True: "#000000", False: "#ffffff", None: "#000000"}
STONE = {WHITE: "#ffffff", BLACK: "#111111"}
PLAYER_FILL = {1: "#0e7c8c", 2: "#b0357e", 3: "#b8860b", 4: "#3352c4"}
RING = {"+": "#1e9e3e", "-": "#d22222", "?": "#999999"}
LINE = 18  # height of a text line under the board


def _side_point(x: float, y: float, side: str, inset: float) -> tuple[float, float]:
    half = SQUARE / 2
    cx, cy = x + half, y + half
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
    return cx + dx * (half - inset), cy + dy * (half - inset)


def _legend(top: float, players: int, numbered: bool = False) -> tuple[list[str], float]:
    """The legend's SVG elements from ``top`` down, and the height it takes."""
    out = [f'<text x="{MARGIN}" y="{top + 12}" font-size="13" font-weight="bold">Legend</text>']
    y = top + 22
    x = MARGIN
    for value, label in ((True, "TRUE"), (False, "FALSE"), (None, "MUTABLE")):
        out.append(f'<rect x="{x}" y="{y}" width="18" height="18" rx="3" fill="{FILL[value]}" stroke="#333"/>')
        out.append(f'<text x="{x + 24}" y="{y + 14}" font-size="12">{label} output</text>')
        x += 134
    out.append(f'<circle cx="{x + 8}" cy="{y + 9}" r="5" fill="#c0392b"/>')
    out.append(f'<text x="{x + 18}" y="{y + 14}" font-size="12">input side</text>')
    y += 26
    x = MARGIN
    for mark, label in (("+", "target matched"), ("-", "wrong signal"), ("?", "nothing yet")):
        out.append(f'<circle cx="{x + 9}" cy="{y + 9}" r="7" fill="#ffffff" stroke="{RING[mark]}" stroke-width="3"/>')
        out.append(f'<text x="{x + 24}" y="{y + 14}" font-size="12">{label}</text>')
        x += 134
    y += 26
    x = MARGIN
    for player in range(1, players + 1):
        out.append(_owner_badge(x + 9, y + 9, player))
        out.append(f'<text x="{x + 24}" y="{y + 14}" font-size="12">player {player}\'s piece</text>')
        x += 134
    if numbered:
        y += 26
        out.append(_step_badge(MARGIN + 9, y + 9, 1))
        out.append(f'<text x="{MARGIN + 24}" y="{y + 14}" font-size="12">the line\'s placements, in order</text>')
    return out, y + 26 - top


def _owner_badge(cx: float, cy: float, player: int) -> str:
    return (f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="8" fill="{PLAYER_FILL[player]}" stroke="#fff" stroke-width="1.5"/>'
            f'<text x="{cx:.0f}" y="{cy + 4:.0f}" font-size="11" font-weight="bold" text-anchor="middle" fill="#fff">{player}</text>')


def board_svg(position: Position, title: str | None = None, notes: Sequence[str] = (),
              numbered: dict[Point, int] | None = None) -> str:
    """The board as an SVG picture: pieces shaded by their signal (white TRUE, black FALSE, grey
    MUTABLE) with a notch on each input side and a badge naming the owner, centre stones on the
    centre block's edges, target stones outside the edges ringed green when matched and red
    when they get the wrong signal, the files and ranks beyond them on all four rims, each
    edge labelled with its player; ``title`` above (wrapped to the width); under the board a
    legend, each player's score in words and whose turn it is (``notes`` add lines).
    ``numbered``: pieces of a line of play, each with its place in the line on a gold badge."""
    import textwrap

    numbered = numbered or {}
    values = signals(position)
    width = 8 * SQUARE + 2 * MARGIN
    title_lines = textwrap.wrap(title, int(width / 9)) if title else []
    board_top = MARGIN + (TITLE_LINE * len(title_lines) + 16 if title_lines else 0)
    legend, legend_height = _legend(board_top + 8 * SQUARE + MARGIN, position.players, bool(numbered))
    wrapped = [piece for note in notes for piece in textwrap.wrap(note, int((width - MARGIN - 24) / 7.4), subsequent_indent="  ")]
    lines = [*status_segments(position), *([(note, "")] for note in wrapped)]
    height = board_top + 8 * SQUARE + MARGIN + legend_height + LINE * len(lines) + 12
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#f4efe4"/>',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for number, text in enumerate(title_lines):
        out.append(f'<text x="{width / 2}" y="{24 + TITLE_LINE * number}" font-size="16" font-weight="bold" '
                   f'text-anchor="middle">{escape(text)}</text>')

    def corner(row: int, col: int) -> tuple[float, float]:
        return MARGIN + col * SQUARE, board_top + row * SQUARE

    for row in range(8):
        for col in range(8):
            x, y = corner(row, col)
            square = (row, col)
            shade = "#8a7a5c" if square in CENTRE_POINTS else ("#d9ccb0" if (row + col) % 2 else "#e8dec8")
            out.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{shade}" stroke="#6b5d43"/>')
            piece = position.pieces.get(square)
            if piece is None:
                continue
            value = values[square]
            pad = 6
            owner = PLAYER_FILL.get(piece.player, "#333")
            out.append(
                f'<rect x="{x + pad}" y="{y + pad}" width="{SQUARE - 2 * pad}" height="{SQUARE - 2 * pad}" rx="6" '
                f'fill="{FILL[value]}" stroke="{owner}" stroke-width="3"><title>{escape(square_name(square))} {escape(str(piece.kind))} '
                f'of player {piece.player}: {signal_text(value)}</title></rect>'
            )
            for side in piece.kind.inputs:
                px, py = _side_point(x, y, side, pad)
                out.append(f'<circle cx="{px:.0f}" cy="{py:.0f}" r="5" fill="#c0392b"/>')
            out.append(
                f'<text x="{x + SQUARE / 2}" y="{y + SQUARE / 2 + 5}" font-size="13" text-anchor="middle" '
                f'fill="{INK[value]}">{piece.kind.type}</text>'
            )
            if piece.player in PLAYER_FILL:
                out.append(_owner_badge(x + SQUARE - pad - 3, y + SQUARE - pad - 3, piece.player))
            if square in numbered:
                out.append(_step_badge(x + pad + 4, y + pad + 4, numbered[square]))
    for (square, side), colour in position.centre.items():
        x, y = corner(*square)
        px, py = _side_point(x, y, side, 0)
        out.append(f'<circle cx="{px:.0f}" cy="{py:.0f}" r="7" fill="{STONE[colour]}" stroke="#555"/>')
    for player, stones in position.targets.items():
        side = TARGET_SIDE[player]
        for square, colour in stones.items():
            x, y = corner(*square)
            px, py = _side_point(x, y, side, -TARGET_OUT)
            value = values.get(square)
            mark = target_mark(colour, value)[1]
            out.append(
                f'<circle cx="{px:.0f}" cy="{py:.0f}" r="10" fill="{STONE[colour]}" stroke="{RING[mark]}" stroke-width="4">'
                f"<title>player {player}'s target on {square_name(square)}: {'white' if colour == WHITE else 'black'}, "
                f"receives {signal_text(value) if value is not None else 'nothing yet'}</title></circle>"
            )
    out += _edge_labels(position, board_top)
    out += _coordinates(board_top)
    out += legend
    y = board_top + 8 * SQUARE + MARGIN + legend_height
    for line in lines:
        y += LINE
        out.append(_svg_line(MARGIN, y, line))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_line(x: float, y: float, segments: list[Segment]) -> str:
    """A line of styled segments as SVG text: a player's name in the player's colour, bold text
    bold, dim text grey, leading spaces as an indent."""
    text = "".join(part for part, _ in segments)
    indent = len(text) - len(text.lstrip(" "))
    spans = []
    for number, (part, style) in enumerate(segments):
        if number == 0:
            part = part.lstrip(" ")
        player = next((p for p, name in PLAYER_STYLE.items() if style == name), None)
        attributes = ""
        if player is not None:
            attributes = f' fill="{PLAYER_FILL[player]}" font-weight="bold"'
        elif "bold" in style:
            attributes = ' font-weight="bold"'
        elif "dim" in style:
            attributes = ' fill="#555"'
        spans.append(f"<tspan{attributes}>{escape(part)}</tspan>")
    return f'<text x="{x + 7 * indent}" y="{y}" font-size="13" xml:space="preserve">{"".join(spans)}</text>'


def _coordinates(board_top: float) -> list[str]:
    """The files above and below the board and the ranks left and right of it, beyond the
    target stones (where no piece or stone covers them), as the commands write squares."""
    out = []
    style = 'font-size="16" font-weight="bold" fill="#5a4d36" text-anchor="middle" dominant-baseline="central"'
    bottom = board_top + 8 * SQUARE
    for col, name in enumerate(FILES):
        x = MARGIN + (col + 0.5) * SQUARE
        for y in (board_top - COORDINATE_OUT, bottom + COORDINATE_OUT):
            out.append(f'<text x="{x:.0f}" y="{y:.0f}" {style}>{name}</text>')
    for row in range(8):
        y = board_top + (row + 0.5) * SQUARE
        for x in (MARGIN - COORDINATE_OUT, MARGIN + 8 * SQUARE + COORDINATE_OUT):
            out.append(f'<text x="{x:.0f}" y="{y:.0f}" {style}>{8 - row}</text>')
    return out


def _step_badge(cx: float, cy: float, number: int) -> str:
    """A line's ``number``-th placement: a gold badge with the number."""
    return (f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="10" fill="#f0c419" stroke="#6b4f00" stroke-width="1.5"/>'
            f'<text x="{cx:.0f}" y="{cy + 4:.0f}" font-size="12" font-weight="bold" text-anchor="middle" fill="#000">'
            f'{number}</text>')


def _edge_labels(position: Position, board_top: float) -> list[str]:
    """"player N's targets" beside each player's edge, in the player's colour."""
    out = []
    middle_x = MARGIN + 4 * SQUARE
    middle_y = board_top + 4 * SQUARE
    for player in range(1, position.players + 1):
        side = TARGET_SIDE[player]
        label = f"player {player}'s targets"
        style = f'font-size="13" font-weight="bold" fill="{PLAYER_FILL[player]}" text-anchor="middle"'
        style += ' dominant-baseline="central"'
        if side == "N":
            out.append(f'<text x="{middle_x}" y="{board_top - LABEL_OUT}" {style}>{label}</text>')
        elif side == "S":
            out.append(f'<text x="{middle_x}" y="{board_top + 8 * SQUARE + LABEL_OUT}" {style}>{label}</text>')
        elif side == "W":
            x = MARGIN - LABEL_OUT
            out.append(f'<text x="{x}" y="{middle_y}" {style} transform="rotate(-90 {x} {middle_y})">{label}</text>')
        else:
            x = MARGIN + 8 * SQUARE + LABEL_OUT
            out.append(f'<text x="{x}" y="{middle_y}" {style} transform="rotate(90 {x} {middle_y})">{label}</text>')
    return out
