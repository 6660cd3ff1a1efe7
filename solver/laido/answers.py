"""The records Laido's commands print with ``--json`` where the library's answer is not the
whole of it, built here once so that the command line and the Python API
(:mod:`placesat.laido`) print the same."""

from __future__ import annotations

from typing import Any

from .model import Move, Position, move_json
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
