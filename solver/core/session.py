"""A game played move by move through a :class:`placesat.core.play.Playable`, with undo.

``play-vs`` keeps one: every move goes through the game's rules (``Playable.play``), and
``undo`` takes back a seat's last move of this session with everything played after it, so
the position is again exactly the one that seat moved from. Moves of the position the session
started from are never taken back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .play import Playable

P = TypeVar("P")
M = TypeVar("M")


@dataclass(frozen=True)
class Played(Generic[P, M]):
    """One move of the session: the position it was played in, the seat, the move and its text."""

    before: P
    seat: int
    move: M
    text: str


@dataclass
class PlaySession(Generic[P, M]):
    """The position now and the moves played since the session began."""

    game: Playable
    position: Any
    history: list[Played] = field(default_factory=list)

    def play(self, move: Any) -> Played:
        """Play ``move`` for the seat to move (the game's rules check it) and remember it."""
        game = self.game
        before = self.position
        played = Played(before, game.to_move(before), move, game.move_text(before, move))
        self.position = game.play(before, move)
        self.history.append(played)
        return played

    def undo(self, seat: int) -> list[Played]:
        """Take back ``seat``'s last move of this session and every move after it; the moves
        taken back, first played first (none when ``seat`` has not moved in this session)."""
        last = next((i for i in range(len(self.history) - 1, -1, -1) if self.history[i].seat == seat), None)
        if last is None:
            return []
        taken = self.history[last:]
        self.position = taken[0].before
        del self.history[last:]
        return taken

    def moves_text(self) -> list[str]:
        """The moves of this session as typed."""
        return [played.text for played in self.history]
