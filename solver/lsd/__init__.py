"""LSD (Linearity, Simplicity, Duality): square tiles with half dots and capturing icons on an
unbounded grid; four tiles of one's own colour in a row win (three with four players).

Rooms, as in every game package: ``model`` (tiles, positions, game records, the JSON and move
formats), ``rules`` (the plain referee, no solver), ``encode`` (bounded model checking of the
rules as SAT / CP-SAT constraints), ``reach`` and ``forced`` (queries: encode or search, solve,
decode, replay on ``rules``), ``search`` (a game-independent AND/OR search), ``render`` (text
and SVG). The rules as implemented, with every interpretation, are in ``seeds/lsd.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.limits import Deadline
    from .forced import ForcedAnswer
    from .model import Position, Record
    from .reach import ReachAnswer

__all__ = [
    "parse_game", "load_game", "replay", "reach", "forced",
    "Position", "Record", "ReachAnswer", "ForcedAnswer", "position_to_json", "InputError",
]


def _position(game: Position | Record | str) -> Position:
    """A position from a position, a game record (after its last move) or JSON text, checked."""
    from .model import Record, parse_game
    from .rules import IllegalMove, check_position, replay

    if isinstance(game, str):
        game = parse_game(game)
    check_position(game.start if isinstance(game, Record) else game)
    if isinstance(game, Record):
        try:
            turns = replay(game)
        except IllegalMove as error:
            raise InputError(str(error)) from None
        return turns[-1].after if turns else game.start
    return game


def reach(position: Position | Record | str, player: int, plies: int, *, backend: str = "sat",
          time_limit: Deadline | float | None = None) -> ReachAnswer:
    """Can ``player`` have a line (four tiles of its colour in a row; three with four players)
    after at most ``plies`` legal plies, every player cooperating (``lsd reach``)? "yes" with
    the shortest sequence, replayed by the rules; a proven "no"; or "unknown" past
    ``time_limit`` seconds. ``position``: a :class:`Position`, a :class:`Record` or their JSON
    text. ``answer.to_json()`` is ``lsd reach --json``'s answer."""
    from .reach import reach_win

    return reach_win(_position(position), player, plies, backend, time_limit)


def forced(position: Position | Record | str, player: int, depth: int, *, backend: str = "sat",
           time_limit: Deadline | float | None = None, strategy: bool = False) -> ForcedAnswer:
    """Can ``player`` force a line within ``depth`` plies, the others playing together against
    it (``lsd forced``)? "win" with a first move and its line of play (the strategy replayed on
    the rules against every reply of the others),
    "no forced win" (the search exhausted), or "unknown" past ``time_limit`` seconds.
    ``answer.to_json()`` is ``lsd forced --json``'s answer."""
    from .forced import forced_win

    return forced_win(_position(position), player, depth, time_limit, backend=backend, strategy=strategy)


export(__name__, {
    "parse_game": ".model", "load_game": ".model", "Position": ".model", "Record": ".model",
    "position_to_json": ".model", "replay": ".rules", "ReachAnswer": ".reach", "ForcedAnswer": ".forced",
})
