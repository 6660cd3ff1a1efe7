"""Logi-Sticks as ``best``, ``play-vs`` and ``selfplay`` see it (:class:`placesat.core.play.Playable`).

Positions are :class:`placesat.logisticks.model.Position` values, moves placements or ``pass``
(:data:`placesat.logisticks.forced.PASS`), both through the plain rule engine
(:mod:`placesat.logisticks.rules`). The game's own scoring decides the outcome: most points,
then most white targets matched, then most black target stones; players still level draw.

``best`` (:func:`best_move`), in this order:

1. one legal move: that move;
2. a point by force: the player to move can make sure of one more point within K own moves
   whatever the others play (``forced`` with a score one above the player's, K deepened
   while time lasts; K = 1 is a point at once);
3. a defence: the next player could score at once if the player passed; the moves that leave
   them no point at once ("the only move that stops player 2's point on c8", "one of 3 moves
   ...");
4. otherwise the evaluation's choice (:func:`evaluation`): points plus the closeness of the
   targets still open, own minus the best opponent's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.core.signals import Stop
from placesat.core.play import DEFENCE, EVALUATION, FORCED_WIN, ONLY_MOVE, Advice

from .forced import (
    INFINITE,
    MAX_MOVES,
    PASS,
    WIN,
    Goal,
    RuleGame,
    Move,
    Node,
    first_steps,
    forced,
    goal_moves,
    legal_moves,
    move_words,
    play_move,
)
from .model import Position, parse_move, position_to_json, square_name, starting_position
from .render import board_rich, board_text
from .rules import game_over, matches, placement_problem, scores, target_signals

CLOSENESS_WEIGHT = 0.5
"""What the closeness of the open targets counts beside a point: a target one piece away is
worth a quarter point, so a point made always beats getting closer."""


@dataclass(frozen=True)
class Standing:
    """One player's evaluation: points, and the closeness of the targets still open (the sum
    over them of 1 / (1 + the pieces a signal path to them still needs))."""

    player: int
    points: int
    closeness: float

    @property
    def value(self) -> float:
        """Points plus :data:`CLOSENESS_WEIGHT` times the closeness."""
        return self.points + CLOSENESS_WEIGHT * self.closeness


LOOKAHEAD_POINT = 3.0
"""A point in the look-ahead engine's evaluation (:meth:`LogiSticks.evaluate`), against
:data:`CLOSENESS_WEIGHT` per unit of closeness."""

EVALUATION_NAME = "points plus closeness of the open targets, own minus the best opponent's"


def standings(position: Position) -> dict[int, Standing]:
    """Every player's :class:`Standing` (closeness from :func:`placesat.logisticks.forced.path_distances`)."""
    node = Node(position)
    out = {}
    for player in range(1, position.players + 1):
        goal = Goal(player, score=len(position.targets.get(player, {})))
        points = goal.points(position, node.values)
        closeness = sum(1.0 / (1 + node.dist[s]) for s, _ in goal.open_targets(position, node.values)
                        if node.dist.get(s, INFINITE) < INFINITE)
        out[player] = Standing(player, points, closeness)
    return out


def evaluation(position: Position, player: int) -> tuple[float, str]:
    """``player``'s :class:`Standing` value minus the best other player's, and the sum in words."""
    table = standings(position)
    own = table[player]
    rival = max((s for p, s in table.items() if p != player), key=lambda s: (s.value, -s.player))
    value = own.value - rival.value
    words = (f"own {own.points} point(s) + {own.closeness:.2f} closeness vs player {rival.player}'s "
             f"{rival.points} + {rival.closeness:.2f}: {value:+.2f}")
    return value, words


def point_threats(position: Position) -> tuple[int, list[Move]]:
    """The next player, and the moves that would score them a point at once if the player to
    move passed (the threats a defence must stop)."""
    rival = position.next_player()
    passed = position.copy()
    passed.to_move = rival
    passed.turn = position.turn + 1
    goal = Goal(rival, score=scores(position)[rival].points + 1)
    return rival, goal_moves(Node(passed), goal)


def stops_threat(before: Position, after: Position, rival: int) -> bool:
    """Whether the move from ``before`` to ``after`` leaves ``rival`` (to move in ``after``)
    without a point: none made by the move itself, and none at once (or the game is over)."""
    goal = Goal(rival, score=scores(before)[rival].points + 1)
    node = Node(after)
    if goal.reached(after, node.values):
        return False
    return node.over or not goal_moves(node, goal, first_only=True)


def best_move(position: Position, deadline: Deadline, depth: int | None = None) -> Advice[Move]:
    """The move recommended for the player to move, and why (module docstring: a point by
    force, a defence, or the evaluation). Answers by ``deadline`` with the best found so far;
    ``depth`` caps the own moves of the forced search (``None``: deepen while time lasts)."""
    moves = legal_moves(position)
    if not moves:
        raise InputError("the game is over: there is no move to recommend")
    player = position.to_move
    if len(moves) == 1:
        why = "no legal placement: the player passes" if moves[0] == PASS else "the only legal move"
        return Advice(moves[0], ONLY_MOVE, why)
    limit = MAX_MOVES if depth is None else max(1, min(depth, MAX_MOVES))
    points = scores(position)[player].points
    goal = Goal(player, score=points + 1)
    ranked: list[tuple[float, int, str]] = []  # (evaluation, -index, words) of each move weighed
    rival, threats, defences = position.next_player(), [], []
    checked = False  # every move was checked against the threats
    try:
        at_once = goal_moves(Node(position), goal, first_only=True, deadline=deadline)
        if at_once:
            target = _scored(position, play_move(position, at_once[0]), player)
            return Advice(at_once[0], FORCED_WIN, f"scores a point at once: {move_words(at_once[0])} matches {target}",
                          line=(at_once[0],), depth=1)
        for index, move in enumerate(moves):
            deadline.check()
            value, words = evaluation(play_move(position, move), player)
            ranked.append((value, -index, words))
        rival, threats = point_threats(position)
        if threats:
            for index, move in enumerate(moves):
                deadline.check()
                if stops_threat(position, play_move(position, move), rival):
                    defences.append(index)
            checked = True
        if limit >= 2:  # forced deepens 1, 2, ... own moves itself, on one transposition table
            answer = forced(position, goal, limit, deadline)
            if answer.answer == WIN and answer.move is not None:
                line = tuple(first_steps(position, answer.strategy)) if answer.strategy else (answer.move,)
                return Advice(answer.move, FORCED_WIN,
                              f"forces a point within {answer.within} own moves whatever the others play: "
                              + ", ".join(move_words(m) for m in line),
                              line=line, depth=answer.within or limit)
    except (TimeUp, Stop):
        pass  # the time limit, or Ctrl-C: the best found so far (the caller sees the stop pending)
    if not ranked:  # the time came before any move was weighed
        return Advice(moves[0], EVALUATION, "the time limit came first: the first legal move", evaluation_name=EVALUATION_NAME)
    by_value = {-neg: (value, words) for value, neg, words in ranked}
    if threats and defences and len(defences) < len(moves):
        chosen = max(defences, key=lambda i: (by_value[i][0], -i) if i in by_value else (-INFINITE, -i))
        squares = ", ".join(sorted({square_name(m.square) for m in threats if m != PASS}))  # type: ignore[union-attr]
        if not checked:
            how = "a move"
        else:
            how = "the only move" if len(defences) == 1 else f"one of {len(defences)} moves"
        value = by_value.get(chosen, (None, ""))[0]
        return Advice(moves[chosen], DEFENCE,
                      f"{how} that stop{'s' if len(defences) == 1 or not checked else ''} player {rival}'s point at once (a piece on {squares})",
                      evaluation=value, evaluation_name=EVALUATION_NAME, depth=1)
    value, neg, words = max(ranked)
    return Advice(moves[-neg], EVALUATION, f"{EVALUATION_NAME}: {words}",
                  evaluation=value, evaluation_name=EVALUATION_NAME, depth=1)


def _scored(before: Position, after: Position, player: int) -> str:
    """The targets of ``player`` matched in ``after`` but not in ``before``, in words."""
    old, new = target_signals(before), target_signals(after)
    made = [square_name(s) for s, c in after.targets[player].items()
            if matches(c, new[(player, s)]) and not matches(c, old[(player, s)])]
    return "target " + ", ".join(made) if made else "a target"


class LogiSticks(RuleGame):
    """Logi-Sticks as a :class:`placesat.core.play.Playable` (seats, moves, playing them and
    the outcome from :class:`placesat.logisticks.forced.RuleGame`)."""

    name = "logisticks"
    review_drop = 1
    """A fall ``review`` marks: a point."""
    forced_win_is_game_win = False
    """``best``'s forced win is a point by force, not the game (``review`` reads it so)."""

    def opening(self, players: int) -> Position:
        """The starting position (:func:`placesat.logisticks.model.starting_position`)."""
        return starting_position(players)

    def move_text(self, position: Position, move: Move) -> str:
        """``d6 NOT S`` or ``pass``, as the ``play`` command reads it."""
        return move_words(move)

    def parse_move(self, position: Position, text: str) -> Move:
        """The legal move typed (``d6 NOT S``, ``pass``); ``InputError`` naming the rule otherwise."""
        try:
            placement = parse_move(text)
        except ValueError as error:
            raise InputError(str(error)) from None
        if game_over(position):
            raise InputError("the game is over")
        if placement is None:
            if legal_moves(position) != [PASS]:
                raise InputError(f"player {position.to_move} has a legal placement, so may not pass")
            return PASS
        problem = placement_problem(position, placement, position.to_move, position.turn)
        if problem:
            raise InputError(f"illegal move {text!r}: {problem}")
        return placement

    def board_text(self, position: Position, colour: bool) -> str:
        """The board as ``logisticks show`` draws it (in colour: with terminal colour codes)."""
        if not colour:
            return board_text(position)
        from rich.console import Console

        console = Console(force_terminal=True, width=200)
        with console.capture() as captured:
            console.print(board_rich(position))
        return captured.get().rstrip("\n")

    def save_text(self, position: Position) -> str:
        """The position as a JSON position file."""
        return json.dumps(position_to_json(position), indent=1) + "\n"

    def evaluate(self, position: Position, seat: int, deadline: Deadline) -> float:
        """For the look-ahead engine (an engine choice, seeds/logisticks.md): :func:`evaluation`
        for ``seat`` with a point worth :data:`LOOKAHEAD_POINT` (not 1): a point the other is
        let make must cost more than any gain in closeness a move makes instead."""
        table = standings(position)
        own = table[seat]
        rival = max((s for p, s in table.items() if p != seat), key=lambda s: (s.value, -s.player))
        return LOOKAHEAD_POINT * (own.points - rival.points) + CLOSENESS_WEIGHT * (own.closeness - rival.closeness)

    def best(self, position: Position, deadline: Deadline, depth: int | None = None) -> Advice[Move]:
        """The recommended move (:func:`best_move`)."""
        return best_move(position, deadline, depth)
