"""Proof files of Quarry's forced wins (:mod:`placesat.core.proof`): written from ``forced``'s
replayed strategy, checked by replaying them on the plain rules.

The goal is the game's own: the target completes its line (the rules' referee says so, a move
at a time). Moves are written as ``quarry play`` reads them (``beam c3 s``, ``pass``); the root
is the game record (``quarry new`` / ``quarry play --out``), so a proof from a position after
some moves replays from there.
"""

from __future__ import annotations

from typing import Any

from placesat.core.limits import Deadline
from placesat.core.proof import ProofVerdict, check_proof, header_mismatch, proof_document, read_header

from .forced import MAX_MOVES, ForcedAnswer
from .model import PLAYERS, Position, dumps, move_text
from .play import Game, QuarryPlayable, seat
from .rules import State

GAME = "quarry"
GOAL = "line"
GOAL_WORDS = "a completed line"


def root_text(position: Position) -> str:
    """The record as the proof's root (what ``quarry new`` and ``quarry play --out`` write)."""
    return dumps(position)


def forced_proof(position: Position, state: State, answer: ForcedAnswer) -> dict[str, Any] | None:
    """The proof file of ``forced``'s win (None unless the answer is a win whose strategy was
    kept: ``forced_win(..., strategy=True)``)."""
    if answer.strategy is None or answer.within is None:
        return None
    return proof_document(GAME, root_text(position), seat(answer.player), answer.player, answer.within, GOAL, GOAL_WORDS,
                          answer.strategy, lambda move: move_text(move, state.stones))


def check_forced_proof(position: Position, state: State, data: Any, deadline: Deadline | None = None) -> ProofVerdict:
    """Replay a proof file's strategy from the game ``position`` (``state`` on its board) on the
    rules, against every reply of the other player; the goal: the target's line completed.
    ``InputError`` for a file of the wrong shape."""
    header = read_header(data, GAME, MAX_MOVES)
    name = PLAYERS[header.target - 1] if header.target <= len(PLAYERS) else None
    refused = header_mismatch(header, GAME, root_text(position), name, GOAL, GOAL_WORDS)
    if refused is not None:
        return refused
    rules = QuarryPlayable(position)

    def reached(game: Game) -> bool:
        return game.state.winner == name

    return check_proof(rules, Game(position, state), header, header.target, reached, rules.move_text, deadline=deadline)
