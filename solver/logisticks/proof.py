"""Proof files of Logi-Sticks' forced goals (:mod:`placesat.core.proof`): written from
``forced``'s replayed strategy, checked by replaying them on the plain rules.

The goal is ``forced``'s: the player's points (own targets receiving their colour's signal)
reach at least a score, or one own target is matched, read off the rules' signals. Points once
made stay (a settled signal never changes), so a branch ends as soon as the goal holds. The
file's ``goal`` names it: ``{"player": 1, "score": 2}`` or ``{"player": 1, "target": "c1"}``.
"""

from __future__ import annotations

import json
from typing import Any

from placesat.core.errors import InputError
from placesat.core.limits import Deadline
from placesat.core.proof import ProofVerdict, check_proof, header_mismatch, proof_document, read_header

from .forced import MAX_MOVES, ForcedAnswer, Goal, RuleGame, move_words
from .model import Position, position_to_json, square_name, square_point

GAME = "logisticks"


def root_text(position: Position) -> str:
    """The position as the proof's root (a JSON position file, as ``play --out`` writes it)."""
    return json.dumps(position_to_json(position), indent=1) + "\n"


def goal_json(goal: Goal) -> dict[str, Any]:
    """The goal as the file's ``goal`` field."""
    if goal.target is not None:
        return {"player": goal.player, "target": square_name(goal.target)}
    return {"player": goal.player, "score": goal.score}


def goal_of(value: Any, player: int) -> Goal:
    """The goal a file's ``goal`` field names (``InputError`` with its JSON path otherwise)."""
    if not isinstance(value, dict) or value.get("player") != player or len(value) != 2 or not ({"score", "target"} & set(value)):
        raise InputError(f'$.goal: must be {{"player": {player}, "score": S}} or {{"player": {player}, "target": SQUARE}}, not {json.dumps(value)[:60]}')
    if "score" in value:
        score = value["score"]
        if isinstance(score, bool) or not isinstance(score, int) or score < 1:
            raise InputError(f"$.goal.score: must be a whole number from 1, not {json.dumps(score)[:20]}")
        return Goal(player, score=score)
    try:
        return Goal(player, target=square_point(value["target"] if isinstance(value["target"], str) else ""))
    except ValueError as error:
        raise InputError(f"$.goal.target: {error}") from None


def forced_proof(position: Position, answer: ForcedAnswer) -> dict[str, Any] | None:
    """The proof file of ``forced``'s win (None unless the answer is a win with a replayed
    strategy: a goal that holds already has none)."""
    if answer.strategy is None or answer.within is None:
        return None
    goal = answer.goal
    return proof_document(GAME, root_text(position), goal.player, f"player {goal.player}", answer.within, goal_json(goal),
                          goal.words(), answer.strategy.tree, move_words)


def check_forced_proof(position: Position, data: Any, deadline: Deadline | None = None) -> ProofVerdict:
    """Replay a proof file's strategy from ``position`` on the plain rules, against every legal
    reply of every other player; the goal read off the rules' signals. ``InputError`` for a
    file of the wrong shape."""
    header = read_header(data, GAME, MAX_MOVES)
    player = header.target
    goal = goal_of(header.goal, player)
    name = f"player {player}" if player <= position.players else None
    refused = header_mismatch(header, GAME, root_text(position), name, goal_json(goal), goal.words())
    if refused is not None:
        return refused
    rules = RuleGame()
    return check_proof(rules, position, header, player, goal.reached, lambda at, move: move_words(move), deadline=deadline)
