"""LSD (Linearity, Simplicity, Duality): square tiles with half dots and capturing icons on an
unbounded grid; four tiles of one's own colour in a row win (three with four players).

Rooms, as in every game package: ``model`` (tiles, positions, game records, the JSON and move
formats), ``rules`` (the plain referee, no solver), ``encode`` (bounded model checking of the
rules as SAT / CP-SAT constraints), ``reach`` and ``forced`` (queries: encode or search, solve,
decode, replay on ``rules``), ``search`` (a game-independent AND/OR search), ``render`` (text
and SVG), ``answers`` (the ``--json`` records the commands and the calls below share). The
rules as implemented, with every interpretation, are in ``seeds/lsd.md``.
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
    from .reach import ReachAnswer

__all__ = [
    "parse_game", "load_game", "new", "replay", "show", "moves", "threats", "play", "reach", "forced", "best", "selfplay",
    "Position", "Record", "ReachAnswer", "ForcedAnswer", "Answer", "position_to_json", "InputError",
]


def new(players: int = 2, tileset: str | None = None) -> Position:
    """A starting position (``lsd new``): an empty field, every tile in its owner's supply,
    player 1 to move; 2 or 4 players. ``tileset``: a tile set file (JSON counts per kind, like
    ``{"N+": 2, "NEx": 2}``; default: the five dot patterns, each twice with + and twice with
    x). ``position_to_json`` of it is the command's record."""
    from .model import DEFAULT_TILESET, THREE_PLAYERS, load_tileset, new_position

    if players == 3:
        raise InputError(THREE_PLAYERS)
    if players not in (2, 4):
        raise InputError(f"--players must be 2 or 4, not {players}")
    return new_position(players, DEFAULT_TILESET if tileset is None else load_tileset(tileset))


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
           time_limit: Deadline | float | None = None, strategy: bool = True) -> ForcedAnswer:
    """Can ``player`` force a line within ``depth`` plies, the others playing together against
    it (``lsd forced``)? "win" with a first move and its line of play (the strategy replayed on
    the rules against every reply of the others),
    "no forced win" (the search exhausted), or "unknown" past ``time_limit`` seconds.
    ``strategy``: keep the first move and the answer to every reply (``answer.strategy``), as
    the command does with ``--json``. ``answer.to_json()`` is ``lsd forced --json``'s answer."""
    from .forced import forced_win

    return forced_win(_position(position), player, depth, time_limit, backend=backend, strategy=strategy)


def show(position: Position | Record | str) -> Answer:
    """The position and its state (``lsd show``): whose turn (None once won or drawn), the
    winner and the winning line, a draw. ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import show_record

    return Answer(show_record(_position(position)))


def moves(position: Position | Record | str) -> Answer:
    """Every legal move of the player to move (``lsd moves``): each placement (``"3,-1
    NES+"``: the cell, the dots after turning, the icon) with what it would capture and whether
    it wins, or ``"skip"`` when none fits; none once the game is won or drawn.
    ``answer["moves"]``; ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import moves_record

    return Answer(moves_record(_position(position)))


def threats(position: Position | Record | str) -> Answer:
    """For each player, the placements that would win at once if it were their turn (``lsd
    threats``): ``answer["threats"]["1"]``; ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import threats_record

    return Answer(threats_record(_position(position)))


def play(position: Position | Record | str, moves: list[str] | str) -> Answer:
    """Play ``moves`` (one move's text, or several in order: ``"3,-1 NES+"`` or ``"skip"``) on
    the position, each checked by the rules (``lsd play``): an illegal one raises
    ``InputError`` naming the rule. ``answer.position`` is the position reached;
    ``answer.to_json()`` the command's record."""
    from ..core.answers import Answer
    from .answers import play_record
    from .model import parse_move
    from .rules import IllegalMove, play_turn

    current = _position(position)
    turns = []
    for number, text in enumerate([moves] if isinstance(moves, str) else moves, start=1):
        try:
            turn = play_turn(current, parse_move(text, f"MOVE {number}"))
        except IllegalMove as error:
            raise InputError(f"MOVE {number} ({text.strip()}): {error}") from None
        turns.append(turn)
        current = turn.after
    return Answer(play_record(turns, current), _Reached(current, turns))


def best(position: Position | Record | str, *, depth: int | None = None, time_limit: float | None = None,
         engine: str = "lookahead") -> Answer:
    """The move the engine recommends for the player to move, and why (``lsd best``): a
    forced win, else the move that stops a line the next player could make or force, else the
    evaluation's choice. ``depth`` alone (no ``time_limit``): the same answer every time;
    neither: 5 seconds. ``answer.move``, ``answer.kind``, ``answer.reason``: the
    :class:`~placesat.core.play.Advice`; ``answer.to_json()`` the command's record.
    ``engine``: ``"lookahead"`` (the default, as the command's) or ``"best"`` (the game's own
    engine alone), or a selfplay spec such as ``"lookahead:p2:400n"``."""
    from ..core.answers import Answer, advice_record
    from ..core.limits import Deadline, TimeLimit
    from ..core.selfplay import engine_advice
    from .play import PLAYABLE

    start = _position(position)
    over = PLAYABLE.outcome(start)
    if over is not None:
        raise InputError(f"the game is over: {over.detail}")
    limit = time_limit if time_limit is not None or depth is not None else TimeLimit(5.0)
    advice = engine_advice(engine, PLAYABLE, start, Deadline(limit), depth)
    return Answer(advice_record(PLAYABLE, start, advice), advice)


def selfplay(games: int, position: Position | Record | str | None = None, *, seed: int = 0, engine_a: str = "best:d2",
             engine_b: str = "best:d2", players: int = 2, opening_plies: int = 2, max_plies: int = 1000,
             jobs: int = 1) -> SelfplayReport:
    """Engine against engine (``placesat selfplay lsd``): ``games`` games from ``position``
    (default: the opening for ``players``), each starting with ``opening_plies`` random plies
    (seeded: game i depends only on ``(seed, i)``), engine A in seat 1 and engine B in the
    others, written as the command takes them (``"best:d2"``: a depth, ``"best:0.5s"``: seconds
    a move, ``"random"``). The report: the first player's win rate, each seat's wins, draws,
    game lengths, first moves; ``report.to_json()`` is the command's record."""
    from ..core.answers import selfplay as play_games
    from .play import PLAYABLE
    start = None if position is None else _position(position)
    return play_games(PLAYABLE, start, games, seed=seed, engine_a=engine_a, engine_b=engine_b,
                      players=players, opening_plies=opening_plies, max_plies=max_plies, jobs=jobs)


class _Reached:
    """What :func:`play` reached: the position, and each turn played."""

    def __init__(self, position: Position, turns: list) -> None:
        self.position = position
        self.turns = turns


export(__name__, {
    "parse_game": ".model", "load_game": ".model", "Position": ".model", "Record": ".model",
    "position_to_json": ".model", "replay": ".rules", "ReachAnswer": ".reach", "ForcedAnswer": ".forced",
    "Answer": "..core.answers",
})
