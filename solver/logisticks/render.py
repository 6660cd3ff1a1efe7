"""Logi-Sticks boards for the terminal (plain text) and as SVG pictures."""

from __future__ import annotations

from html import escape

from .model import CENTRE_POINTS, FILES, SIDES, TARGET_SIDE, WHITE, Position, square_name
from .rules import Signal, game_over, matches, scores, signals, winners

CELL = 9


def _value_char(value: Signal) -> str:
    return "?" if value is None else ("T" if value else "F")


def _target_mark(colour: str, value: Signal) -> str:
    """A target stone and what it receives: ``W+`` matched, ``W-`` the wrong signal, ``W?`` none yet."""
    if value is None:
        return f"{colour}?"
    return f"{colour}+" if matches(colour, value) else f"{colour}-"


def board_text(position: Position) -> str:
    """The board as text: each piece as ``TYPE/INPUTS=VALUE`` (T, F, or ? for MUTABLE), the centre
    squares with their stones (``nW`` = white stone on the north edge), the target stones round
    the edges with ``+`` matched / ``-`` wrong signal / ``?`` nothing yet; then whose turn it is,
    the supplies and the scores."""
    values = signals(position)
    targets = {
        (square, TARGET_SIDE[player]): colour
        for player, stones in position.targets.items()
        for square, colour in stones.items()
    }

    def target_at(square, side: str) -> str:
        colour = targets.get((square, side))
        return _target_mark(colour, values.get(square)) if colour else ""

    lines = []
    header = "     " + "".join(f"{f:^{CELL}}" for f in FILES)
    lines.append(header)
    lines.append("     " + "".join(f"{target_at((0, c), 'N'):^{CELL}}" for c in range(8)))
    for row in range(8):
        cells = []
        for col in range(8):
            square = (row, col)
            if square in CENTRE_POINTS:
                stones = [
                    f"{side.lower()}{position.centre[(square, side)]}"
                    for side in SIDES
                    if (square, side) in position.centre
                ]
                text = "[" + " ".join(stones) + "]"
            elif square in position.pieces:
                kind = position.pieces[square].kind
                text = f"{kind.type}/{kind.orientation}={_value_char(values[square])}"
            else:
                text = "."
            cells.append(f"{text:^{CELL}}")
        rank = 8 - row
        lines.append(f"{target_at((row, 0), 'W'):>2} {rank} " + "".join(cells) + f" {rank} {target_at((row, 7), 'E')}")
    lines.append("     " + "".join(f"{target_at((7, c), 'S'):^{CELL}}" for c in range(8)))
    lines.append(header)
    lines.append("")
    lines.extend(status_lines(position))
    return "\n".join(line.rstrip() for line in lines)


def status_lines(position: Position) -> list[str]:
    """Turn, player to move, supplies, scores, and the result when the game is over."""
    lines = []
    table = scores(position)
    for player in range(1, position.players + 1):
        supply = " ".join(f"{t}:{n}" for t, n in position.supply[player].items())
        score = table[player]
        lines.append(
            f"player {player}: {score.points} point(s) ({score.true_matched} TRUE matched, "
            f"{score.black_stones} black stones)  supply {supply}"
        )
    if game_over(position):
        best = winners(position)
        result = f"player {best[0]} wins" if len(best) == 1 else "tie between players " + ", ".join(map(str, best))
        lines.append(f"game over: {result}")
    else:
        lines.append(f"turn {position.turn}: player {position.to_move} to move")
    return lines


# --------------------------------------------------------------------------- SVG

SQUARE = 60
MARGIN = 40
FILL = {True: "#ffffff", False: "#222222", None: "#a8a8a8"}
INK = {True: "#000000", False: "#ffffff", None: "#000000"}
STONE = {WHITE: "#ffffff", "B": "#111111"}


def _side_point(x: float, y: float, side: str, inset: float) -> tuple[float, float]:
    half = SQUARE / 2
    cx, cy = x + half, y + half
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
    return cx + dx * (half - inset), cy + dy * (half - inset)


def board_svg(position: Position) -> str:
    """The board as an SVG picture: pieces shaded by their signal (white TRUE, black FALSE, grey
    MUTABLE) with a notch on each input side, centre stones on the centre block's edges, and
    target stones outside the edges ringed green when matched and red when they get the wrong
    signal."""
    values = signals(position)
    size = 8 * SQUARE + 2 * MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
        'font-family="sans-serif">',
        f'<rect width="{size}" height="{size}" fill="#f4efe4"/>',
    ]
    for row in range(8):
        for col in range(8):
            x, y = MARGIN + col * SQUARE, MARGIN + row * SQUARE
            square = (row, col)
            shade = "#8a7a5c" if square in CENTRE_POINTS else ("#d9ccb0" if (row + col) % 2 else "#e8dec8")
            out.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{shade}" stroke="#6b5d43"/>')
            piece = position.pieces.get(square)
            if piece is None:
                continue
            value = values[square]
            pad = 6
            out.append(
                f'<rect x="{x + pad}" y="{y + pad}" width="{SQUARE - 2 * pad}" height="{SQUARE - 2 * pad}" rx="6" '
                f'fill="{FILL[value]}" stroke="#333"><title>{escape(square_name(square))} {escape(str(piece.kind))} '
                f'player {piece.player}: {"MUTABLE" if value is None else str(value).upper()}</title></rect>'
            )
            for side in piece.kind.inputs:
                px, py = _side_point(x, y, side, pad)
                out.append(f'<circle cx="{px:.0f}" cy="{py:.0f}" r="5" fill="#c0392b"/>')
            out.append(
                f'<text x="{x + SQUARE / 2}" y="{y + SQUARE / 2 + 5}" font-size="13" text-anchor="middle" '
                f'fill="{INK[value]}">{piece.kind.type}</text>'
            )
    for (square, side), colour in position.centre.items():
        row, col = square
        px, py = _side_point(MARGIN + col * SQUARE, MARGIN + row * SQUARE, side, 0)
        out.append(f'<circle cx="{px:.0f}" cy="{py:.0f}" r="7" fill="{STONE[colour]}" stroke="#555"/>')
    for player, stones in position.targets.items():
        side = TARGET_SIDE[player]
        for square, colour in stones.items():
            row, col = square
            px, py = _side_point(MARGIN + col * SQUARE, MARGIN + row * SQUARE, side, -MARGIN / 2)
            value = values.get(square)
            ring = "#999" if value is None else ("#1e9e3e" if matches(colour, value) else "#d22")
            out.append(
                f'<circle cx="{px:.0f}" cy="{py:.0f}" r="10" fill="{STONE[colour]}" stroke="{ring}" stroke-width="4">'
                f"<title>player {player} target {square_name(square)}</title></circle>"
            )
    for col, name in enumerate(FILES):
        out.append(f'<text x="{MARGIN + col * SQUARE + 4}" y="{MARGIN + 8 * SQUARE - 4}" font-size="10" fill="#444">{name}</text>')
    for row in range(8):
        out.append(f'<text x="{MARGIN + 3}" y="{MARGIN + row * SQUARE + 12}" font-size="10" fill="#444">{8 - row}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
