"""Logi-Sticks: logic-gate pieces on a chess board carry TRUE/FALSE signals from the centre
stones to target stones at the players' edges.

Rooms as in every game package: ``model`` (position and its JSON), ``rules`` (the plain rule
engine), ``encode`` (completions as a formula), ``analyze`` (the queries), ``render``,
``answers`` (the ``--json`` records the commands and the calls below share).
The rules as implemented are stated in ``seeds/logisticks.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.selfplay import SelfplayReport
    from .analyze import Analysis, Satisfaction
    from .forced import ForcedAnswer
    from .model import Position

__all__ = ["parse_position", "load_position", "new", "show", "play", "moves", "analyze", "satisfy", "forced", "best", "selfplay",
           "Position", "Analysis", "Satisfaction", "ForcedAnswer", "Answer", "position_to_json", "InputError"]


def new(players: int = 2, layout: str = "alternate", seed: int | None = None) -> Position:
    """A starting position (``logisticks new``): the empty board, the centre stones, target
    stones laid out by ``layout`` (``"alternate"``, or ``"random"`` drawn with ``seed``), full
    supplies. ``position_to_json`` of it is the command's record."""
    from .model import starting_position

    try:
        return starting_position(players, layout, seed)
    except ValueError as error:
        raise InputError(str(error)) from None


def _position(position: Position | str) -> Position:
    from .rules import parse_position

    return parse_position(position) if isinstance(position, str) else position


def show(position: Position | str) -> Answer:
    """The position with what follows from it (``logisticks show``): every square's signal,
    each player's score, whether the game is over and who won. ``answer.to_json()`` is the
    command's record."""
    from ..core.answers import Answer
    from .answers import state_record

    return Answer(state_record(_position(position)))


def play(position: Position | str, move: str) -> Answer:
    """Make ``move`` (``"d6 NOT S"``, or ``"pass"``) for the player to move (``logisticks
    play``): an illegal move raises ``InputError`` naming the rule it breaks.
    ``answer.to_json()`` is the new position (the command's record)."""
    from ..core.answers import Answer
    from .model import parse_move, position_to_json
    from .rules import apply_move

    try:
        after = apply_move(_position(position), parse_move(move))
    except ValueError as error:
        raise InputError(f"illegal move {move!r}: {error}") from None
    return Answer(position_to_json(after), after)


def moves(position: Position | str) -> Answer:
    """Every legal placement of the player to move (``logisticks moves``), as typed (``"d6
    NOT S"``), ``"pass"`` when none fits, none once the game is over. ``answer["moves"]``;
    ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import moves_record

    return Answer(moves_record(_position(position)))


def satisfy(position: Position | str, player: int, *, score: int | None = None, backend: str = "sat",
            time_limit: float | None = None) -> Satisfaction:
    """A line of legal placements, every player cooperating, after which ``player`` scores its
    maximum (proven optimal) or at least ``score`` points (``logisticks satisfy``), replayed by
    the rules; "impossible" when no completion scores that much, "unknown" past ``time_limit``
    seconds. ``answer.to_json()`` is the command's record."""
    from .analyze import satisfy as line_to_score

    start = _position(position)
    if not 1 <= player <= start.players:
        raise InputError(f"--player {player}: the position has {start.players} players")
    return line_to_score(start, player, backend, score, time_limit)


def forced(position: Position | str, moves: int, *, score: int | None = None, target: str | None = None,
           player: int | None = None, time_limit: Deadline | float | None = None) -> ForcedAnswer:
    """Can ``player`` (default: the player to move) force a score of at least ``score`` (or
    its ``target``, a square like ``"c1"``) within ``moves`` own moves, every other player
    against it (``logisticks forced``)? "win" with the strategy (replayed on the rules against
    every reply) and its line of play, "no forced win", or "unknown" past ``time_limit``
    seconds. ``answer.to_json()`` is the command's record."""
    from ..core.limits import as_deadline
    from .forced import DEFAULT_REACH_FROM, check_moves, forced as force_goal, make_goal
    from .rules import game_over

    deadline = as_deadline(time_limit)
    check_moves(moves)
    start = _position(position)
    goal = make_goal(start, start.to_move if player is None else player, score, target)
    if game_over(start):
        raise InputError("the game is over: nothing more can be forced")
    return force_goal(start, goal, moves, deadline, DEFAULT_REACH_FROM)


def best(position: Position | str, *, depth: int | None = None, time_limit: float = 5.0, engine: str = "lookahead") -> Answer:
    """The move the engine recommends for the player to move, and why (``logisticks best``):
    the only legal move, a point at once or forced within a few own moves, the move that stops
    the next player's point, else the evaluation's choice. ``answer.move``, ``answer.kind``,
    ``answer.reason``: the :class:`~placesat.core.play.Advice`; ``answer.to_json()`` the
    command's record.
    ``engine``: ``"lookahead"`` (the default, as the command's) or ``"best"`` (the game's own
    engine alone), or a selfplay spec such as ``"lookahead:p2:400n"``."""
    from ..core.answers import Answer
    from ..core.limits import as_deadline
    from ..core.selfplay import engine_advice
    from .answers import advice_record
    from .play import LogiSticks
    from .rules import game_over

    start = _position(position)
    if game_over(start):
        raise InputError("the game is over: there is no move to recommend")
    advice = engine_advice(engine, LogiSticks(), start, as_deadline(time_limit), depth)
    return Answer(advice_record(start, advice), advice)


def analyze(position: Position | str, *, player: int | None = None, backend: str = "sat",
            time_limit: float | None = None) -> Analysis:
    """Over every way the board can still be completed (``logisticks analyze``): for each
    target (of ``player``, or everyone's) whether it can still end matched and unmatched, each
    player's best achievable score, and which MUTABLE outputs can still resolve either way.
    ``position``: a :class:`Position` or its JSON text. ``analysis.to_json()`` is
    ``logisticks analyze --json``'s answer; answers past ``time_limit`` seconds are "unknown"."""
    from .analyze import analyze as analyze_completions
    from .rules import parse_position

    if isinstance(position, str):
        position = parse_position(position)
    return analyze_completions(position, backend, player, time_limit)


def selfplay(games: int, position: Position | str | None = None, *, seed: int = 0, engine_a: str = "best:d2",
             engine_b: str = "best:d2", players: int = 2, opening_plies: int = 2, max_plies: int = 1000,
             jobs: int = 1) -> SelfplayReport:
    """Engine against engine (``placesat selfplay logisticks``): ``games`` games from ``position``
    (default: the opening for ``players``), each starting with ``opening_plies`` random plies
    (seeded: game i depends only on ``(seed, i)``), engine A in seat 1 and engine B in the
    others, written as the command takes them (``"best:d2"``: a depth, ``"best:0.5s"``: seconds
    a move, ``"random"``). The report: the first player's win rate, each seat's wins, draws,
    game lengths, first moves; ``report.to_json()`` is the command's record."""
    from ..core.answers import selfplay as play_games
    from .play import LogiSticks
    start = None if position is None else _position(position)
    return play_games(LogiSticks(), start, games, seed=seed, engine_a=engine_a, engine_b=engine_b,
                      players=players, opening_plies=opening_plies, max_plies=max_plies, jobs=jobs)


export(__name__, {
    "parse_position": ".rules", "load_position": ".rules", "Position": ".model",
    "position_to_json": ".model", "Analysis": ".analyze", "Satisfaction": ".analyze", "ForcedAnswer": ".forced",
    "Answer": "..core.answers",
})
