"""Proof files of Laido's forced wins (:mod:`placesat.core.proof`): written from ``forced``'s
replayed strategy, checked by replaying them on the plain rules.

The goal is ``forced``'s (seeds/laido.md, "Forced wins"): the game over with the target as the
winner, scored by the plain rules, or the other side to move in a *decided* position, one the
target wins however the game goes on. Deciding a position asks the reach solver whether the
other side can still win with every empty point: its "no" is the one part of a Laido proof
that the checker takes from a solver rather than from the rules' replay.
"""

from __future__ import annotations

from typing import Any

from placesat.core.limits import Deadline
from placesat.core.proof import ProofVerdict, check_proof, header_mismatch, proof_document, read_header

from .forced import DEFAULT_BACKEND, MAX_MOVES, ForcedAnswer, LaidoGame, LaidoRules, Memory, colour_of, move_text, seat_of
from .model import COLOURS, Position, dumps, position_to_json

GAME = "laido"
GOAL = "decided win"
GOAL_WORDS = "a decided win (the game over as its winner, or the other side to move in a position it wins however the game goes on)"


def root_text(position: Position) -> str:
    """The position as the proof's root: the position JSON every ``laido`` command reads."""
    return dumps(position_to_json(position))


def forced_proof(position: Position, answer: ForcedAnswer) -> dict[str, Any] | None:
    """The proof file of ``forced``'s win from ``position`` (None unless the answer is a win
    with its replayed strategy)."""
    if answer.strategy is None or answer.within is None:
        return None
    return proof_document(GAME, root_text(position), seat_of(answer.player), answer.player, answer.within, GOAL,
                          GOAL_WORDS, answer.strategy, move_text)


def check_forced_proof(position: Position, data: Any, backend: str = DEFAULT_BACKEND,
                       deadline: Deadline | None = None) -> ProofVerdict:
    """Replay a proof file's strategy from ``position`` on the plain rules, against every reply
    of the other side (the pie swap too): every end of game scored by the rules, every decided
    leaf asked of the reach solver again. ``InputError`` for a file of the wrong shape."""
    header = read_header(data, GAME, MAX_MOVES)
    name = colour_of(header.target) if header.target <= len(COLOURS) else None
    refused = header_mismatch(header, GAME, root_text(position), name, GOAL, GOAL_WORDS)
    if refused is not None:
        return refused
    deadline = deadline or Deadline.never()
    game = LaidoGame(name, backend, deadline, Memory(LaidoRules(backend)))

    def reached(at: Position) -> bool:
        if at.is_over:
            return game.rules.verdict(at, deadline).winner == name
        return at.to_move != name and game.decided(at)

    # positions are told apart whole (the swap flag too), not by the search's key
    return check_proof(game.rules, position, header, header.target, reached, lambda at, move: move_text(move),
                       deadline=deadline)
