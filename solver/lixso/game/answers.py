"""The records the game's commands print with ``--json``, built here once so that the command
line and the Python API (:mod:`placesat.lixso.game`) print the same: each is the library's
answer with the position's own fields (who is to move), moves in the game's notation."""

from __future__ import annotations

from typing import Any

from .rules import to_move_json


def moves_record(game) -> dict[str, Any]:
    """``lixso game moves --json``: who is to move, and every tile they may lay."""
    rules, state = game.rules, game.state
    return {"to_move": to_move_json(rules.seating, state), "moves": [str(rules.move_of(k, p)) for k, p in rules.moves(state)]}


def bounds_record(game, result) -> dict[str, Any]:
    """``lixso game bounds --json``: who is to move, and each side's figures."""
    return {"to_move": to_move_json(game.rules.seating, game.state), **result.to_json()}


def solution_record(game, solution) -> dict[str, Any]:
    """``lixso game solve --json``: the position's own fields where they always stood (who
    moves first, and whose value), then the solution."""
    seating = game.rules.seating
    answer = solution.to_json()
    return {"to_move": to_move_json(seating, game.state), **{key: answer[key] for key in ("outcome", "value", "lower", "upper")},
            "value_is_for": seating.side_name(0), **answer}


def forced_record(game, answer) -> dict[str, Any]:
    """``lixso game forced --json``: who is to move, and the answer."""
    return {"to_move": to_move_json(game.rules.seating, game.state), **answer.to_json()}


def advice_record(game, advice) -> dict[str, Any]:
    """``lixso game best --json``: who is to move, the move and why."""
    return {"to_move": to_move_json(game.rules.seating, game.state), "move": str(advice.move), "kind": advice.kind,
            "reason": advice.reason, "line": [str(m) for m in advice.line],
            "evaluation": advice.evaluation, "evaluation_name": advice.evaluation_name, "depth": advice.depth}
