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
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from .forced import ForcedAnswer
    from .model import Position, Record
    from .reach import BestAnswer, ReachAnswer
    from .score import Score

__all__ = [
    "parse_game", "load_game", "replay", "score", "moves", "reach", "forced", "best",
    "Position", "Record", "Score", "ReachAnswer", "BestAnswer", "ForcedAnswer", "Answer",
    "position_to_json", "record_to_json", "InputError",
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
          time_limit: Deadline | float | None = None, tiebreak: str = "pass") -> Answer:
    """The score of a position as the game would end now (``laido score``): each group's value
    (its connection part, a chordless path between two edge stones, minus the rest) and the
    winner. ``position``: a :class:`Position`, a :class:`Record` (scored after its last move),
    or their JSON text. The attributes (``values(colour)``, ``winner``, ``status``, ...) are
    the :class:`Score`'s; ``answer.to_json()`` is ``laido score --json``'s record (with the
    move that led to the position); past ``time_limit`` seconds its status is ``unknown``."""
    from ..core.answers import Answer
    from .answers import score_record
    from .model import parse_game
    from .score import score_position

    game = parse_game(position) if isinstance(position, str) else position
    result = score_position(_position(game), reading, backend, time_limit, tiebreak)
    return Answer(score_record(result, _last_move(game)), result)


def _last_move(game: Position | Record):
    """The move that led to a record's last position (None for a position)."""
    from .model import Record

    return game.moves[-1] if isinstance(game, Record) and game.moves else None


def moves(position: Position | Record | str) -> Answer:
    """The legal moves of the player to move (``laido moves``): every empty point ``[q, r]``,
    ``"pass"`` (never as the very first move) and ``"swap"`` when the pie rule allows it; none
    once the game is over. ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import moves_record

    return Answer(moves_record(_position(position)))


def reach(position: Position | Record | str, player: str, stones: int, *, best: bool = False,
          backend: str | None = None, time_limit: float | None = None, tiebreak: str = "pass") -> ReachAnswer | BestAnswer:
    """Can ``player`` (``"black"`` or ``"white"``) win by adding at most ``stones`` stones
    while the other side only passes (``laido reach``)? "yes" with the fewest stones that win
    (replayed and re-scored by the rules), "no", or "unknown" past ``time_limit`` seconds.
    ``best``: instead, the highest value the player's best group can reach.
    ``answer.to_json()`` is the command's record."""
    from .reach import DEFAULT_REACH_BACKEND, reach_best, reach_win

    if player not in ("black", "white"):
        raise InputError(f"--player must be black or white, not {player!r}")
    chosen = backend or DEFAULT_REACH_BACKEND
    start = _position(position)
    if best:
        return reach_best(start, player, stones, chosen, time_limit)
    return reach_win(start, player, stones, chosen, time_limit, tiebreak=tiebreak)


def _to_move(position: Position | Record | str) -> Position:
    start = _position(position)
    if start.is_over:
        raise InputError("the game is over (two passes in a row): nobody moves any more")
    return start


def forced(position: Position | Record | str, moves: int, *, backend: str | None = None,
           time_limit: Deadline | float | None = None) -> ForcedAnswer:
    """Can the player to move force a win within ``moves`` own moves, whatever the other side
    plays (``laido forced``)? "win" with the move and a line of play (replayed on the rules
    against every legal reply), "no forced win", or "unknown" past ``time_limit`` seconds.
    ``answer.to_json()`` is the command's record."""
    from ..core.limits import as_deadline
    from .forced import DEFAULT_BACKEND, check_moves, forced_win

    check_moves(moves)
    return forced_win(_to_move(position), moves, as_deadline(time_limit), backend or DEFAULT_BACKEND)


def best(position: Position | Record | str, *, depth: int | None = None, time_limit: float = 5.0,
         backend: str | None = None) -> Answer:
    """The move the engine recommends for the player to move, and why (``laido best``): a
    forced win, else the move that stops the other side's, else the evaluation's choice.
    ``answer.move``, ``answer.kind``, ``answer.reason``: the
    :class:`~placesat.core.play.Advice`; ``answer.to_json()`` the command's record."""
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from .answers import advice_record
    from .forced import DEFAULT_BACKEND
    from .play import LaidoPlayable

    start = _to_move(position)
    advice = LaidoPlayable(start.size, backend or DEFAULT_BACKEND).best(start, Deadline(time_limit), depth)
    return Answer(advice_record(advice), advice)


export(__name__, {
    "parse_game": ".model", "load_game": ".model", "Position": ".model", "Record": ".model",
    "position_to_json": ".model", "record_to_json": ".model", "replay": ".rules", "Score": ".score",
    "ReachAnswer": ".reach", "BestAnswer": ".reach", "ForcedAnswer": ".forced", "Answer": "..core.answers",
})

