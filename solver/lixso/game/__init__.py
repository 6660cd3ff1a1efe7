"""The Lixso strategic game for 2 or 4 players (and 3), played on a Lixso grid.

The rooms, as in every game package:

- ``model``: positions (game records) and their text and JSON formats, players, moves;
- ``rules``: the plain rule engine, without any solver: the referee that names a broken
  rule, and the fast bit-set engine the search runs on (each checks the other in the tests);
- ``encode``: the tile sets one side can still lay, as constraints (through the backend);
- ``bounds``: the query on them: most and sure tiles per side, who can still win;
- ``search``: a game-tree search that knows nothing of Lixso (alpha-beta, transposition
  table, bounds as cut-offs, deadline), so that another game could use it;
- ``solve``: Lixso for that search, and the query: the value with perfect play and a move;
- ``render``: the board as text, in colour, and as SVG;
- ``answers``: the ``--json`` records the commands and the calls below share.

The rules as implemented are stated in ``seeds/lixso.md`` ("The strategic game").
"""

from __future__ import annotations

GAME_BACKEND = "sat"
"""The backend of every game command that has one (bounds; solve and play-vs, whose root
bounds use it). Measured per command (benchmarks/lixso_game_bench.py backends, median CPU
of 5 runs on 9x9 positions where a solver has work to do): bounds 0.002-0.06 s with sat
against 0.009-0.046 s with cpsat, sat the faster on 14 of 15 positions; solve and play-vs
alike (their search does not depend on the backend); and cpsat adds OR-Tools' import."""

from typing import TYPE_CHECKING  # noqa: E402

from ...core.errors import InputError  # noqa: E402
from ...core.exports import export  # noqa: E402

if TYPE_CHECKING:
    from ...core.answers import Answer
    from ...core.limits import Deadline
    from ...core.selfplay import SelfplayReport
    from .model import Position
    from .rules import Game

__all__ = ["parse_position", "load_position", "show", "play", "moves", "bounds", "solve", "forced", "best", "selfplay",
           "Position", "Answer", "position_to_json", "format_text", "InputError", "GAME_BACKEND"]


def _game(position: Position | str) -> Game:
    """A position (or its text, or JSON) replayed, every move checked by the referee."""
    from .model import parse_position
    from .rules import replay_position

    return replay_position(parse_position(position) if isinstance(position, str) else position)


def _to_move(game: Game) -> Game:
    """The game, when somebody is to move in it."""
    if game.state.over:
        raise InputError("the game is over: nobody is to move")
    return game


def show(position: Position | str) -> Answer:
    """The position with what follows from it (``lixso game show``): each side's tiles, who is
    to move, whether the game is over and who won. ``answer.to_json()`` is the command's record."""
    from ...core.answers import Answer
    from .rules import game_json

    game = _game(position)
    return Answer(game_json(game), game)


def play(position: Position | str, move: str) -> Answer:
    """Lay ``move`` (``"I r1c1 r1c2 r2c1"``) for the player to move (``lixso game play``): an
    illegal move raises ``InputError`` naming the rule it breaks (turn, shape, empty, clue,
    touch, clue-touch, supply, or the game being over). ``answer.position`` is the position
    after it; ``answer.to_json()`` the command's record."""
    from ...core.answers import Answer
    from .model import parse_move
    from .rules import IllegalMove, game_json, replay_position

    game = _game(position)
    try:
        chosen = parse_move(move)
    except InputError as error:
        raise InputError(f"MOVE {move!r}: {error.message}") from None
    try:
        game.rules.lay(game.state, chosen)
    except IllegalMove as error:
        raise InputError(f"MOVE {chosen} is illegal: {error.violation}") from None
    after = replay_position(game.position.with_move(chosen))
    return Answer(game_json(after), after)


def moves(position: Position | str) -> Answer:
    """Every tile the player to move may lay (``lixso game moves``): ``answer["moves"]``, in
    the move notation (``"I r1c1 r1c2 r2c1"``); ``answer.to_json()`` is the command's record."""
    from ...core.answers import Answer
    from .answers import moves_record

    return Answer(moves_record(_game(position)))


def bounds(position: Position | str, *, backend: str = GAME_BACKEND, time_limit: Deadline | float | None = None) -> Answer:
    """How many tiles each side can still lay, at most and for sure, and who can still win
    (``lixso game bounds``): most is what a side could lay if nobody else laid another, sure
    what it lays whatever anybody does. ``answer.sides`` (the library's ``Bounds``);
    ``answer.to_json()`` is the command's record; past ``time_limit`` seconds a figure is None."""
    from ...core.answers import Answer
    from ...core.limits import as_deadline
    from .answers import bounds_record
    from .bounds import bounds as side_bounds

    game = _game(position)
    result = side_bounds(game.rules, game.state, backend, as_deadline(time_limit))
    return Answer(bounds_record(game, result), result)


def solve(position: Position | str, *, time_limit: float | None = None, backend: str = GAME_BACKEND) -> Answer:
    """The result of a position with perfect play (``lixso game solve``): the final margin
    (side A's tiles minus side B's), a best move and the line of play, each move checked by the
    referee. ``position``: a :class:`Position` or its text (or JSON; see
    :func:`parse_position`). Past ``time_limit`` seconds, the best move found so far and the
    bounds proven (``answer.value`` None). ``answer.outcome``, ``answer.move``, ...: the
    library's ``Solution``; ``answer.to_json()`` is the command's record."""
    from ...core.answers import Answer
    from ...core.limits import Deadline
    from .answers import solution_record
    from .solve import solve as perfect_play

    game = _game(position)
    solution = perfect_play(game.rules, game.state, Deadline(time_limit), backend)
    if solution.stopped is not None:
        raise solution.stopped
    return Answer(solution_record(game, solution), solution)


def forced(position: Position | str, turns: int, *, backend: str = GAME_BACKEND,
           time_limit: Deadline | float | None = None) -> Answer:
    """Can the side to move settle its win within ``turns`` of its turns, whatever the others
    do (``lixso game forced``)? Settled: every way the game can still go ends with the side
    ahead. "win" with a first move and a line of play (the strategy replayed on the rules
    against every reply), "no forced win", or "unknown" past ``time_limit`` seconds.
    ``answer.answer``, ``answer.line``: the library's answer; ``answer.to_json()`` the command's record."""
    from ...core.answers import Answer
    from ...core.limits import as_deadline
    from .answers import forced_record
    from .forced import check_turns, forced as forced_win

    check_turns(turns)
    game = _to_move(_game(position))
    result = forced_win(game.rules, game.state, turns, as_deadline(time_limit), backend, record=game)
    return Answer(forced_record(game, result), result)


def best(position: Position | str, *, depth: int | None = None, time_limit: float | None = None,
         backend: str = GAME_BACKEND, engine: str = "lookahead") -> Answer:
    """The move the engine recommends for the player to move, and why (``lixso game best``):
    a result proven with perfect play, else a win settled by force within a few turns, else
    the only tiles that stop the other side's, else the evaluation of the look-ahead.
    ``depth`` alone (no ``time_limit``): the same answer every time; neither: 5 seconds.
    ``answer.move``, ``answer.kind``, ``answer.reason``: the library's
    :class:`~placesat.core.play.Advice`; ``answer.to_json()`` the command's record.
    ``engine``: ``"lookahead"`` (the default, as the command's) or ``"best"`` (the game's own
    engine alone), or a selfplay spec such as ``"lookahead:p2:400n"``."""
    from ...core.answers import Answer
    from ...core.limits import Deadline
    from ...core.selfplay import BEST, command_engine, engine_advice
    from ...core.signals import pending_stop
    from .answers import advice_record
    from .play import LixsoPlayable

    game = _to_move(_game(position))
    deadline = Deadline(time_limit if time_limit is not None or depth is not None else 5.0)
    chosen = command_engine(engine)
    if chosen.kind == BEST:
        advice, stopped = LixsoPlayable(backend=backend).advise(game, deadline, depth)
    else:
        advice, stopped = engine_advice(chosen, LixsoPlayable(backend=backend), game, deadline, depth), pending_stop()
    if stopped is not None:
        raise stopped
    return Answer(advice_record(game, advice), advice)


def selfplay(games: int, position: Position | str | None = None, *, seed: int = 0, engine_a: str = "best:d2",
             engine_b: str = "best:d2", players: int = 2, opening_plies: int = 2, max_plies: int = 1000,
             jobs: int = 1) -> SelfplayReport:
    """Engine against engine (``placesat selfplay lixso-game``): ``games`` games from ``position``
    (default: the opening for ``players``), each starting with ``opening_plies`` random plies
    (seeded: game i depends only on ``(seed, i)``), engine A in seat 1 and engine B in the
    others, written as the command takes them (``"best:d2"``: a depth, ``"best:0.5s"``: seconds
    a move, ``"random"``). The report: the first player's win rate, each seat's wins, draws,
    game lengths, first moves; ``report.to_json()`` is the command's record."""
    from ...core.answers import selfplay as play_games
    from .play import LixsoPlayable
    start = None if position is None else _game(position)
    return play_games(LixsoPlayable(), start, games, seed=seed, engine_a=engine_a, engine_b=engine_b,
                      players=players, opening_plies=opening_plies, max_plies=max_plies, jobs=jobs)


export(__name__, {
    "parse_position": ".model", "load_position": ".model", "Position": ".model", "Answer": "...core.answers",
    "position_to_json": ".model", "format_text": ".model",
})
