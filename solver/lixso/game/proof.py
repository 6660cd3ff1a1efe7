"""Proof files of the strategic game's forced wins (:mod:`placesat.core.proof`): written from
``forced``'s replayed strategy, checked by replaying them on the referee.

The goal is ``forced``'s (seeds/lixso.md, "Forced wins"): the side's win *settled*, every way
the game can still go ending with it ahead (the exact settled test, a search over the rules'
futures with counting cut-offs). With 3 or 4 players the others play together against the
side, so the proof answers every legal tile of every other seat; a seat that can lay no tile
passes (``pass``), and its turn counts. When ``forced``'s horizon holds the whole game, a
settled win is the game's result with perfect play: the proof is then ``solve``'s answer for
the side to move ("it wins"), not the margin (the value) ``solve`` gives.

The root is the game record as every ``lixso game`` command reads it, its players written
out (``# players:``), so the proof names the seating it was found for.
"""

from __future__ import annotations

from typing import Any

from placesat.core.limits import Deadline
from placesat.core.proof import ProofVerdict, check_proof, header_mismatch, proof_document, read_header

from .forced import MAX_TURNS, PASS, ForcedAnswer, SettledTest, TurnView, side_names
from .model import format_text
from .rules import Game

GAME = "lixso game"
GOAL = "settled win"
GOAL_WORDS = "a settled win (every way the game can still go ends with it ahead)"
TARGET_SEAT = 1
"""The seat the strategy plays in the replay's view (:class:`placesat.lixso.game.forced.TurnView`):
the target side is seat 1 there, every other seat 2."""


def root_text(game: Game) -> str:
    """The record as the proof's root (the game text, its players written out)."""
    return format_text(game.position)


def move_words(move: Any) -> str:
    """A tile as ``lixso game play`` reads it (``I r2c5 r3c5 r3c6``), or ``pass``."""
    return PASS if move == PASS else str(move)


def forced_proof(game: Game, answer: ForcedAnswer) -> dict[str, Any] | None:
    """The proof file of ``forced``'s win from ``game`` (None unless the answer is a win with
    a replayed strategy: a win settled already, or by the bounds alone, has no tree)."""
    if answer.strategy is None or answer.within is None:
        return None
    return proof_document(GAME, root_text(game), answer.side + 1, answer.side_name, answer.within, GOAL, GOAL_WORDS,
                          answer.strategy, move_words)


def check_forced_proof(game: Game, data: Any, deadline: Deadline | None = None) -> ProofVerdict:
    """Replay a proof file's strategy from ``game`` on the referee, against every tile of every
    other seat; each leaf checked by the exact settled test. ``InputError`` for a file of the
    wrong shape."""
    rules, state = game.rules, game.state
    header = read_header(data, GAME, MAX_TURNS)
    side = header.target - 1
    name = side_names(rules, side) if 0 <= side < rules.seating.side_count else None
    refused = header_mismatch(header, GAME, root_text(game), name, GOAL, GOAL_WORDS)
    if refused is not None:
        return refused
    view = TurnView(rules, side)
    test = SettledTest(rules, side, deadline)
    root = view.position(game, state.to_move, header.own_moves)
    return check_proof(view, root, header, TARGET_SEAT, lambda at: test.settled(at.game.state),
                       lambda at, move: move_words(move), deadline=deadline)
