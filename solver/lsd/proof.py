"""Proof files of LSD's forced wins (:mod:`placesat.core.proof`): written from ``forced``'s
replayed strategy, checked by replaying them on the plain rules.

The goal is the game's own: the player's line (the rules' winner). The others play together
against the player, so the proof answers every legal move of every other player (a ``skip``
where the rules give one). The bound is the player's own moves within ``forced``'s plies.
"""

from __future__ import annotations

from typing import Any

from placesat.core.limits import Deadline
from placesat.core.proof import ProofVerdict, check_proof, header_mismatch, proof_document, read_header

from .forced import MAX_DEPTH, ForcedAnswer, Replaying, RulesView, plies_of, replay_key
from .model import Position, dumps, move_text, position_to_json
from .rules import winner

GAME = "lsd"
GOAL = "line"
GOAL_WORDS = "a line"


def root_text(position: Position) -> str:
    """The position as the proof's root (the JSON ``lsd new`` and ``lsd play --out`` write)."""
    return dumps(position_to_json(position))


def forced_proof(position: Position, answer: ForcedAnswer) -> dict[str, Any] | None:
    """The proof file of ``forced``'s win (None unless the answer is a win whose strategy was
    replayed: a line made already has none)."""
    if answer.tree is None or not answer.within:
        return None
    own = plies_of(position, answer.player, answer.within)
    return proof_document(GAME, root_text(position), answer.player, f"player {answer.player}", own, GOAL, GOAL_WORDS,
                          answer.tree, move_text)


def check_forced_proof(position: Position, data: Any, deadline: Deadline | None = None) -> ProofVerdict:
    """Replay a proof file's strategy from ``position`` on the plain rules, against every legal
    move of every other player; the goal: the player's line. ``InputError`` for a file of the
    wrong shape."""
    header = read_header(data, GAME, MAX_DEPTH)
    player = header.target
    name = f"player {player}" if player <= position.players else None
    refused = header_mismatch(header, GAME, root_text(position), name, GOAL, GOAL_WORDS)
    if refused is not None:
        return refused
    return check_proof(RulesView(), Replaying(position), header, player, lambda at: winner(at.position) == player,
                       lambda at, move: move_text(move), key=replay_key, deadline=deadline)
