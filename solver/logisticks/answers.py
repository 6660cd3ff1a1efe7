"""The records Logi-Sticks' commands print with ``--json`` where the library's answer is not
the whole of it, built here once so that the command line and the Python API
(:mod:`placesat.logisticks`) print the same."""

from __future__ import annotations

from typing import Any

from .forced import move_words
from .model import Position, position_to_json, square_name
from .rules import game_over, legal_placements, scores, signal_text, signals, winners


def moves_record(position: Position) -> dict[str, Any]:
    """``logisticks moves --json``: every legal placement of the player to move ("pass" when
    none fits; none once the game is over)."""
    over = game_over(position)
    found = [] if over else [str(m) for m in legal_placements(position)] or ["pass"]
    return {"player": position.to_move, "turn": position.turn, "game_over": over, "moves": found}


def advice_record(position: Position, advice, interrupted: bool = False) -> dict[str, Any]:
    """``logisticks best --json``: the move the engine recommends, and why; ``interrupted``:
    a Ctrl-C cut the search short."""
    return {
        "player": position.to_move,
        "move": move_words(advice.move),
        "kind": advice.kind,
        "reason": advice.reason,
        "line": [move_words(m) for m in advice.line],
        "evaluation": advice.evaluation,
        "evaluation_name": advice.evaluation_name,
        "depth": advice.depth,
        "interrupted": interrupted,
    }


def state_record(position: Position) -> dict[str, Any]:
    """``logisticks show --json``: the position, every square's signal, each player's score,
    whether the game is over and who won."""
    values = signals(position)
    table = scores(position)
    over = game_over(position)
    return {
        "position": position_to_json(position),
        "signals": {square_name(s): signal_text(v) for s, v in sorted(values.items())},
        "scores": {str(p): {"points": s.points, "true_matched": s.true_matched, "black_stones": s.black_stones} for p, s in table.items()},
        "game_over": over,
        "winners": winners(position) if over else None,
    }
