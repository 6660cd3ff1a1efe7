"""Laido: stones on a hexagonal board of triangles; a group is worth its connection part (a
chordless path between two edge stones) minus the rest of it.

Rooms, as in every game package: ``model`` (positions, game records, JSON), ``rules`` (the plain
referee, no solver), ``encode`` (rules as SAT / CP-SAT constraints), ``score`` and ``reach``
(queries: encode, solve, decode, replay on ``rules``), ``render`` (text and SVG), ``answers``
(the ``--json`` records the commands and the calls below share). The rules as implemented,
with every interpretation, are in ``seeds/laido.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.selfplay import SelfplayReport
    from .forced import ForcedAnswer
    from .model import Position, Record
    from .reach import BestAnswer, ReachAnswer
    from .score import Score

__all__ = [
    "parse_game", "load_game", "new", "replay", "score", "play", "moves", "reach", "forced", "best", "selfplay",
    "Position", "Record", "Score", "ReachAnswer", "BestAnswer", "ForcedAnswer", "Answer",
    "position_to_json", "record_to_json", "InputError",
]


def new(side: int = 9, *, position: bool = False) -> Position | Record:
    """A new game on an empty board, Black to move (``laido new``): a game record with no move
    yet, or with ``position`` the empty position; ``side`` points on each side of the board
    (9 is the usual board). ``record_to_json`` / ``position_to_json`` of it is the command's record."""
    from .model import MAX_SIZE, MIN_SIZE, Position, Record

    if not MIN_SIZE <= side <= MAX_SIZE:
        raise InputError(f"--side must be from {MIN_SIZE} to {MAX_SIZE}, not {side}")
    return Position(side) if position else Record(side)


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


def play(game: Position | Record | str, move: str | None = None, *, backend: str = "sat", tiebreak: str = "pass") -> Answer:
    """Step through a game record, or add ``move`` (a point ``"q,r"``, ``"pass"`` or
    ``"swap"``) to a game (``laido play``), every move checked by the rules (an illegal one
    raises ``InputError``): each move with who made it and the state after it, the position
    reached, and its score once the game is over. ``answer.position`` is the position reached,
    ``answer.record`` the game with the move (a record stays a record); ``answer.to_json()``
    the command's record."""
    from ..core.answers import Answer
    from .answers import play_record
    from .model import Record, parse_game, parse_move
    from .rules import IllegalMove, play as play_move, replay
    from .score import score_position

    if isinstance(game, str):
        game = parse_game(game)
    if isinstance(game, Record):
        try:
            positions = replay(game)
        except IllegalMove as error:
            raise InputError(str(error)) from None
        record = game
    elif move is None:
        raise InputError("this is a position, not a game record: give a move to play on it")
    else:
        positions, record = [game], Record(game.size, ())
    position = positions[-1]
    if move is not None:
        played = parse_move(move, position.lattice)
        try:
            after = play_move(position, played)
        except IllegalMove as error:
            raise InputError(f"MOVE: {error}") from None
        record = Record(record.size, record.moves + (played,))
        positions, position = positions + [after], after
    steps = [(number, before, record.moves[number - 1], after)
             for number, (before, after) in enumerate(zip(positions, positions[1:]), start=1)]
    final = score_position(position, backend=backend, tiebreak=tiebreak) if position.is_over else None
    kept = record if isinstance(game, Record) else position
    return Answer(play_record(steps, position, final), _Played(position, kept))


class _Played:
    """What :func:`play` reached: the position, and the game to keep (a record stays a record)."""

    def __init__(self, position: Position, record: Position | Record) -> None:
        self.position = position
        self.record = record


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
         backend: str | None = None, engine: str = "lookahead") -> Answer:
    """The move the engine recommends for the player to move, and why (``laido best``): a
    forced win, else the move that stops the other side's, else the evaluation's choice.
    ``answer.move``, ``answer.kind``, ``answer.reason``: the
    :class:`~placesat.core.play.Advice`; ``answer.to_json()`` the command's record.
    ``engine``: ``"lookahead"`` (the default, as the command's) or ``"best"`` (the game's own
    engine alone), or a selfplay spec such as ``"lookahead:p2:400n"``."""
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.selfplay import engine_advice
    from .answers import advice_record
    from .forced import DEFAULT_BACKEND
    from .play import LaidoPlayable

    start = _to_move(position)
    advice = engine_advice(engine, LaidoPlayable(start.size, backend or DEFAULT_BACKEND), start, Deadline(time_limit), depth)
    return Answer(advice_record(advice), advice)


def selfplay(games: int, position: Position | Record | str | None = None, *, seed: int = 0, engine_a: str = "best:d2",
             engine_b: str = "best:d2", players: int = 2, opening_plies: int = 2, max_plies: int = 1000,
             jobs: int = 1) -> SelfplayReport:
    """Engine against engine (``placesat selfplay laido``): ``games`` games from ``position``
    (default: the opening for ``players``), each starting with ``opening_plies`` random plies
    (seeded: game i depends only on ``(seed, i)``), engine A in seat 1 and engine B in the
    others, written as the command takes them (``"best:d2"``: a depth, ``"best:0.5s"``: seconds
    a move, ``"random"``). The report: the first player's win rate, each seat's wins, draws,
    game lengths, first moves; ``report.to_json()`` is the command's record."""
    from ..core.answers import selfplay as play_games
    from .play import LaidoPlayable
    start = None if position is None else _position(position)
    return play_games(LaidoPlayable(), start, games, seed=seed, engine_a=engine_a, engine_b=engine_b,
                      players=players, opening_plies=opening_plies, max_plies=max_plies, jobs=jobs)


export(__name__, {
    "parse_game": ".model", "load_game": ".model", "Position": ".model", "Record": ".model",
    "position_to_json": ".model", "record_to_json": ".model", "replay": ".rules", "Score": ".score",
    "ReachAnswer": ".reach", "BestAnswer": ".reach", "ForcedAnswer": ".forced", "Answer": "..core.answers",
})

