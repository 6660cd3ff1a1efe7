"""Laido: stones on a hexagonal board of triangles; a group is worth its connection part (a
chordless path between two edge stones) minus the rest of it.

Rooms, as in every game package: ``model`` (positions, game records, JSON), ``rules`` (the plain
referee, no solver), ``encode`` (rules as SAT / CP-SAT constraints), ``score`` and ``reach``
(queries: encode, solve, decode, replay on ``rules``), ``render`` (text and SVG). The rules as
implemented, with every interpretation, are in ``seeds/laido.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.limits import Deadline
    from .model import Position, Record
    from .score import Score

__all__ = [
    "parse_game", "load_game", "replay", "score",
    "Position", "Record", "Score", "position_to_json", "record_to_json", "InputError",
]


def _position(game: Position | Record | str) -> Position:
    """A position from a position, a game record (the position after its last move) or JSON text."""
    from .model import Record, parse_game
    from .rules import IllegalMove, replay

    if isinstance(game, str):
        game = parse_game(game)
    if isinstance(game, Record):
        try:
            return replay(game)[-1]
        except IllegalMove as error:
            raise InputError(str(error)) from None
    return game


def score(position: Position | Record | str, *, reading: str = "longest", backend: str = "sat",
          time_limit: Deadline | float | None = None, tiebreak: str = "pass") -> Score:
    """The score of a position as the game would end now (``laido score``): each group's value
    (its connection part, a chordless path between two edge stones, minus the rest) and the
    winner. ``position``: a :class:`Position`, a :class:`Record` (scored after its last move),
    or their JSON text. ``score.to_json()`` is ``laido score --json``'s answer; past
    ``time_limit`` seconds its status is ``unknown``."""
    from .score import score_position

    return score_position(_position(position), reading, backend, time_limit, tiebreak)


export(__name__, {
    "parse_game": ".model", "load_game": ".model", "Position": ".model", "Record": ".model",
    "position_to_json": ".model", "record_to_json": ".model", "replay": ".rules", "Score": ".score",
})
