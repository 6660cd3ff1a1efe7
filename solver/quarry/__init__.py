"""Quarry: Shaun R. Mather's stacking connection game. Stones of cubes are laid and stacked on a
10 x 9 board; a player wins when, seen from above, its colour joins one Quarry zone to the other.

Rooms, as in every game package: ``stones`` (the stone table), ``model`` (board, positions, moves,
JSON and text), ``rules`` (the plain referee, no solver), ``encode`` (one-sided building as SAT /
CP-SAT constraints), ``reach`` (cheapest wins: encode, solve, decode, order, replay on ``rules``),
``threats`` (one-move wins and blocks, by the rules alone), ``render`` (text and SVG),
``answers`` (the ``--json`` records the commands and the calls below share). The rules
as implemented, with every interpretation, are in ``seeds/quarry.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.selfplay import SelfplayReport
    from .model import Position
    from .reach import ReachAnswer
    from .rules import State

__all__ = [
    "parse_position", "load_position", "new", "replay", "show", "stones", "play", "moves", "threats", "block", "reach", "race", "forced", "best", "selfplay",
    "Position", "State", "ReachAnswer", "Answer", "position_to_json", "InputError",
]


def new(length: int | None = None, width: int | None = None, *, zones: str = "outside", first: str = "black") -> Position:
    """A new game (``quarry new``): the empty board (``length`` rows from one Quarry zone to the
    other, ``width`` columns; default 10 x 9), the default stones, ``first`` to move; ``zones``
    ``"inside"`` makes the first and last two rows the zones. ``position_to_json`` of it is the
    command's record."""
    from .model import DEFAULT_LENGTH, DEFAULT_WIDTH, PLAYERS, ZONE_READINGS, Position, check_board
    from .stones import default_stones

    if zones not in ZONE_READINGS:
        raise InputError(f"--zones must be {' or '.join(ZONE_READINGS)}, not {zones!r}")
    if first not in PLAYERS:
        raise InputError(f"--first must be black or blue, not {first!r}")
    board = check_board(DEFAULT_LENGTH if length is None else length, DEFAULT_WIDTH if width is None else width, zones)
    return Position(board, default_stones(), first)


def state_of(position: Position | State | str) -> State:
    """The state after every move of a position (each checked by the rules), from a
    :class:`Position`, its JSON text, or a :class:`State` (as it is)."""
    from .model import parse_position
    from .rules import State, replay

    if isinstance(position, State):
        return position
    return replay(parse_position(position) if isinstance(position, str) else position)


def reach(position: Position | State | str, player: str, *, objective: str = "stones", max_stones: int | None = None,
          backend: str = "cpsat", time_limit: Deadline | float | None = None) -> ReachAnswer:
    """The cheapest way for ``player`` (``"black"`` or ``"blue"``) to join one Quarry zone to
    the other, seen from above, if the opponent does nothing (``quarry reach``): fewest stones
    (``objective="stones"``) or fewest points given up (``"points"``), with at most
    ``max_stones`` stones. "possible" with the stones in building order (replayed by the
    rules), "impossible" (proved), or "unknown" past ``time_limit`` seconds.
    ``answer.to_json(state_of(position))`` is ``quarry reach --json``'s answer."""
    from .reach import reach as cheapest_win

    return cheapest_win(state_of(position), player, objective, max_stones, backend, time_limit)


def moves(position: Position | State | str, player: str | None = None, *, stone: str | None = None) -> Answer:
    """The legal placements of ``player`` (default: the player to move), grouped by stone,
    each once, with the height each would rest at (``quarry moves``); ``stone``: only that
    stone (a name or its prefix). ``answer["moves"]``; ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import moves_record

    state = state_of(position)
    only = None
    if stone is not None:
        kind = state.stones.find(stone)
        if kind is None:
            raise InputError(f"--stone: unknown stone {stone!r} (stones: {', '.join(state.stones.names)})")
        only = (kind.name,)
    return Answer(moves_record(state, _player(player, state), only))


def _player(player: str | None, state: State) -> str:
    from .model import PLAYERS

    if player is None:
        return state.to_move
    if player not in PLAYERS:
        raise InputError(f"--player must be black or blue, not {player!r}")
    return player


def show(position: Position | State | str) -> Answer:
    """The board (``quarry show``): whose turn, the winner, each cell's height and the colour
    seen from above, the stones each player has left, the tournament points and the winning
    line. ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import state_record

    return Answer(state_record(state_of(position)))


def stones(position: Position | State | str | None = None, *, stone_file: str | None = None,
           source: str = "the position") -> Answer:
    """The stone set in use (``quarry stones``): each stone's name, cubes, faces, points and
    count per player; with ``position``, its stones and how many each player has left (the
    record names it ``source``, where the command names the file); ``stone_file``: a stone
    file (JSON) instead of the default stones. ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import stones_record
    from .model import PLAYERS
    from .stones import default_stones, load_stones

    if position is not None and stone_file is not None:
        raise InputError("give POS or --stones, not both: a position keeps the stones it was made with")
    if position is not None:
        state = state_of(position)
        return Answer(stones_record(state.stones, source, {p: state.supply(p) for p in PLAYERS}))
    if stone_file is not None:
        return Answer(stones_record(load_stones(stone_file), stone_file))
    return Answer(stones_record(default_stones(), "the default stones"))


def play(position: Position | str, move: str) -> Answer:
    """Play ``move`` (``"beam c3 s"``, ``"pass"``) for the player to move (``quarry play``),
    checked by the rules: an illegal move raises ``InputError`` naming the rule it breaks.
    ``answer.position`` is the game record with the move; ``answer.to_json()`` the command's
    record."""
    from ..core.answers import Answer
    from .answers import played_record
    from .model import PASS, parse_move, parse_position
    from .rules import record

    game = parse_position(position) if isinstance(position, str) else position
    state = state_of(game)
    chosen = parse_move(move, game.board, game.stones)
    after_position, after = record(game, state, chosen)
    height = after.laid[-1].base if chosen != PASS else None
    return Answer(played_record(state.to_move, chosen, height, state, after, after_position), _Played(after_position, after))


class _Played:
    """What :func:`play` reached: the game record with the move, and the state after it."""

    def __init__(self, position: Position, state: State) -> None:
        self.position = position
        self.state = state


def forced(position: Position | str, moves: int, player: str | None = None, *,
           time_limit: Deadline | float | None = None) -> Answer:
    """Can ``player`` (default: the player to move) complete a line within ``moves`` of its own
    moves, whatever the other plays (``quarry forced``)? "win" with a line of play (the
    strategy replayed on the rules against every reply), "no forced win", or "unknown" past
    ``time_limit`` seconds. ``answer.answer``, ``answer.line``: the library's answer;
    ``answer.to_json()`` the command's record (with ``title``: the question and the answer)."""
    from ..core.answers import Answer
    from ..core.limits import as_deadline
    from .answers import forced_record
    from .forced import check_moves, forced_win
    from .model import parse_position

    deadline = as_deadline(time_limit)
    check_moves(moves)
    game = parse_position(position) if isinstance(position, str) else position
    state = state_of(game)
    result = forced_win(game, state, _player(player, state), moves, deadline, strategy=True)
    return Answer(forced_record(result, state), result)


def threats(position: Position | State | str) -> Answer:
    """Every single stone that would win at once, for each player, as if it were that
    player's turn (``quarry threats``), found by the plain rules. ``answer["black"]``;
    ``answer.to_json()`` is the command's record."""
    from ..core.answers import Answer
    from .answers import threats_record

    return Answer(threats_record(state_of(position)))


def block(position: Position | State | str, player: str | None = None, *,
          time_limit: Deadline | float | None = None) -> Answer:
    """The moves for ``player`` (default: the player to move) after which the opponent has no
    winning stone (``quarry block``); a move that wins at once counts. ``answer["blocks"]``,
    each with the cells it covers; ``answer.to_json()`` is the command's record. Past
    ``time_limit`` seconds: ``{"player", "answer": "unknown"}``."""
    from ..core.answers import Answer
    from ..core.limits import Deadline, TimeUp
    from .answers import block_record
    from .model import PLAYERS
    from .rules import placements
    from .threats import blocks, threats as threats_now

    deadline = Deadline(time_limit)
    state = state_of(position)
    who = _player(player, state)
    other = PLAYERS[1] if who == PLAYERS[0] else PLAYERS[0]
    try:
        legal = list(placements(state, who))
        found = blocks(state, who, legal, deadline)
        now = threats_now(state)[other]
    except TimeUp:
        return Answer({"player": who, "answer": "unknown"})
    return Answer(block_record(state, who, now, found, legal), found)


def race(position: Position | State | str, *, backend: str | None = None, time_limit: float | None = None) -> Answer:
    """Each player's cheapest win, if the other did nothing (``quarry race``): by fewest
    stones and by fewest points, and who is ahead by how much. ``answer.fewest_stones``: the
    library's :class:`ReachAnswer` per player; ``answer.to_json()`` the command's record."""
    from ..core.answers import Answer
    from .answers import race_record
    from .reach import DEFAULT_REACH_BACKEND, race as cheapest_wins

    state = state_of(position)
    result = cheapest_wins(state, backend or DEFAULT_REACH_BACKEND, time_limit)
    return Answer(race_record(state, result), result)


def best(position: Position | str, *, depth: int | None = None, time_limit: float = 5.0, engine: str = "lookahead") -> Answer:
    """The move the engine recommends for the player to move, and why (``quarry best``): a win
    at once, the only moves that stop the other's, a forced win, a defence against the
    other's, else the evaluation's choice. ``answer.move``, ``answer.kind``, ``answer.reason``:
    the :class:`~placesat.core.play.Advice`; ``answer.to_json()`` the command's record.
    ``engine``: ``"lookahead"`` (the default, as the command's) or ``"best"`` (the game's own
    engine alone), or a selfplay spec such as ``"lookahead:p2:400n"``."""
    from ..core.answers import Answer
    from ..core.limits import Deadline
    from ..core.selfplay import engine_advice
    from .answers import advice_record
    from .model import parse_position
    from .play import Game, QuarryPlayable

    game = Game.of(parse_position(position) if isinstance(position, str) else position)
    if game.state.is_over:
        raise InputError("the game is over: there is no move to recommend")
    advice = engine_advice(engine, QuarryPlayable(), game, Deadline(time_limit), depth)
    return Answer(advice_record(game.state, advice), advice)


def selfplay(games: int, position: Position | str | None = None, *, seed: int = 0, engine_a: str = "best:d2",
             engine_b: str = "best:d2", players: int = 2, opening_plies: int = 2, max_plies: int = 1000,
             jobs: int = 1) -> SelfplayReport:
    """Engine against engine (``placesat selfplay quarry``): ``games`` games from ``position``
    (default: the opening for ``players``), each starting with ``opening_plies`` random plies
    (seeded: game i depends only on ``(seed, i)``), engine A in seat 1 and engine B in the
    others, written as the command takes them (``"best:d2"``: a depth, ``"best:0.5s"``: seconds
    a move, ``"random"``). The report: the first player's win rate, each seat's wins, draws,
    game lengths, first moves; ``report.to_json()`` is the command's record."""
    from ..core.answers import selfplay as play_games
    from .model import parse_position
    from .play import Game, QuarryPlayable

    if isinstance(position, str):
        position = parse_position(position)
    start = None if position is None else Game.of(position)
    return play_games(QuarryPlayable(), start, games, seed=seed, engine_a=engine_a, engine_b=engine_b,
                      players=players, opening_plies=opening_plies, max_plies=max_plies, jobs=jobs)


__all__.append("state_of")

export(__name__, {
    "parse_position": ".model", "load_position": ".model", "Position": ".model",
    "position_to_json": ".model", "replay": ".rules", "State": ".rules", "ReachAnswer": ".reach",
    "Answer": "..core.answers",
})
