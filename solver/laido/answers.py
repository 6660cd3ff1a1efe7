"""The records Laido's commands print with ``--json`` where the library's answer is not the
whole of it, built here once so that the command line and the Python API
(:mod:`placesat.laido`) print the same."""

from __future__ import annotations

from typing import Any

from .model import Move, Position, move_json, position_to_json
from .rules import legal_moves
from .score import Score


def moves_record(position: Position) -> dict[str, Any]:
    """``laido moves --json``: who is to move (None once the game is over) and every legal move."""
    return {"to_move": None if position.is_over else position.to_move, "moves": [move_json(m) for m in legal_moves(position)]}


def score_record(score: Score, last: Move | None = None) -> dict[str, Any]:
    """``laido score --json``: the score, and the move that led to the position (a record's last)."""
    return score.to_json() | {"last_move": None if last is None else move_json(last)}


def advice_record(advice) -> dict[str, Any]:
    """``laido best --json``: the move the engine recommends, and why."""
    return {"move": move_json(advice.move), "kind": advice.kind, "reason": advice.reason, "line": list(advice.line),
            "evaluation": advice.evaluation, "evaluation_name": advice.evaluation_name, "depth": advice.depth}


def play_record(steps: list[tuple[int, Position, Move, Position]], position: Position, final: Score | None) -> dict[str, Any]:
    """``laido play --json``: each move (its number, the colour that made it, the state after
    it), the position reached, and its score once the game is over (else None). ``steps``:
    ``(number, before, move, after)``."""
    return {
        "moves": [
            {"number": number, "colour": before.to_move, "move": move_json(m), "to_move": after.to_move,
             "passes": after.passes, "game_over": after.is_over}
            for number, before, m, after in steps
        ],
        "position": position_to_json(position),
        "score": final.to_json() if final else None,
    }
