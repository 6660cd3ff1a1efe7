"""The records LSD's commands print with ``--json`` where the library's answer is not the
whole of it, built here once so that the command line and the Python API (:mod:`placesat.lsd`)
print the same."""

from __future__ import annotations

from typing import Any, Iterable

from .model import Move, Position, move_text, position_to_json
from .rules import Turn, is_draw, lines, move_outcomes, winner, winning_placements


def state_fields(position: Position) -> dict[str, Any]:
    """Whose turn (None once won or drawn), the winner, the winning line, a draw."""
    won = winner(position)
    line = lines(position.field, won, position.line_length)[0] if won else None
    return {
        "to_move": None if won or is_draw(position) else position.to_move,
        "winner": won,
        "line": [list(c) for c in line] if line else None,
        "draw": won is None and is_draw(position),
    }


def show_record(position: Position) -> dict[str, Any]:
    """``lsd show --json``: the position and its state."""
    return {"position": position_to_json(position), **state_fields(position)}


def move_outcome_json(move: Move, taken: Iterable, wins: bool) -> dict[str, Any]:
    """One legal move as ``lsd moves --json`` lists it: what it captures, whether it wins."""
    return {"move": move_text(move), "captures": [list(c) for c in taken], "wins": wins}


def moves_record(position: Position) -> dict[str, Any]:
    """``lsd moves --json`` (the command writes it as the moves are found): the player to move
    (None when there is no move), every legal move, their count."""
    listed = [move_outcome_json(move, taken, wins) for move, taken, wins in move_outcomes(position)]
    return {"to_move": position.to_move if listed else None, "moves": listed, "count": len(listed)}


def play_record(turns: list[Turn], position: Position) -> dict[str, Any]:
    """``lsd play --json``: each move played (who, what it captured, whether it won), the
    position reached and its state."""
    return {
        "moves": [
            {"move": move_text(t.move), "player": t.before.to_move, "captures": [list(c) for c, _ in t.captured], "wins": t.winner is not None}
            for t in turns
        ],
        "position": position_to_json(position),
        **state_fields(position),
    }


def threats_record(position: Position) -> dict[str, Any]:
    """``lsd threats --json``: for each player, the placements that would win at once."""
    found = {p: winning_placements(position, p) for p in range(1, position.players + 1)}
    return {"threats": {str(p): [move_text(m) for m in wins] for p, wins in found.items()}, "winner": winner(position)}
