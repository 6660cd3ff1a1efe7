"""A Quarry game as the plain rules see it: the record and the state after it, whose turn it is,
the legal moves, a move played and the end. This is all the replay of a forced win needs
(:func:`placesat.quarry.forced.replay_win` over :func:`placesat.core.andor.replay_strategy`),
and :class:`placesat.quarry.play.QuarryPlayable` builds the playing commands on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from placesat.core.play import Outcome

from .model import PLAYERS, Move, Position
from .rules import State, legal_moves, record, replay, tournament_points


def seat(player: str) -> int:
    """The seat of a colour, from 1 (black 1, blue 2)."""
    return PLAYERS.index(player) + 1


@dataclass(frozen=True)
class Game:
    """A game so far: its record (``position``, what is saved) and the state on the board after
    it (``state``, what the rules play on). Equal games have equal records."""

    position: Position
    state: State = field(compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, position: Position) -> "Game":
        """The game after every move of ``position``, each checked by the rules."""
        return cls(position, replay(position))


class QuarryReferee:
    """Turns, legal moves, a move played and the end of a :class:`Game`, from the rules alone
    (the part of :class:`placesat.core.play.Playable` a strategy's replay asks)."""

    def players(self, position: Game) -> int:
        """Always 2."""
        return 2

    def to_move(self, position: Game) -> int:
        """The seat to move (black 1, blue 2)."""
        return seat(position.state.to_move)

    def moves(self, position: Game) -> Sequence[Move]:
        """Every legal placement in the order ``quarry moves`` lists them; a pass when none fits."""
        return legal_moves(position.state)

    def play(self, position: Game, move: Move) -> Game:
        """The game after ``move``, checked by the rules (:func:`placesat.quarry.rules.record`)."""
        after_position, after = record(position.position, position.state, move)
        return Game(after_position, after)

    def outcome(self, position: Game) -> Outcome | None:
        """A line wins; two passes in a row end the game without a winner. Scores: tournament
        points (black, blue), the winner's doubled."""
        state = position.state
        if not state.is_over:
            return None
        points = tournament_points(state)
        scores = tuple(points[p] for p in PLAYERS)
        if state.winner is not None:
            return Outcome(seat(state.winner), f"{state.winner} completed a line", scores)
        return Outcome(None, "neither player could move", scores)
