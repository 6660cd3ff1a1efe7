"""Forced results: can a player force a score, or one target, within K of their own moves?

Logi-Sticks has no line to make: a player scores one point per own target stone that receives
its colour's signal, and a settled signal never changes (seeds/logisticks.md), so points once
made are kept. The question ``forced`` answers is therefore "can player P make sure of at least
S points (or of target T matched) within K of P's own moves, whatever everybody else plays?".
The others play as one coalition against P (with three or four players too): P needs one move
that works, the coalition one move that refutes. The game ending first without the goal, or K
own moves without it, count against P; so does a goal reached only after P's K-th move.

The search is :class:`placesat.core.andor.AndOrSearch`; this module gives it the game seen from
P's side (:class:`LogiGame`), with its cut-offs:

- a goal reached at once ends P's node: only a piece whose own output is settled when placed
  can settle a signal, and only one joined to P's open targets can score
  (:func:`goal_moves`); P's last own ply is decided by that alone, and the coalition's ply
  right before it by trying its placements one by one until one leaves P no goal at once;
- the must-play region (``prune``, :func:`must_play`): at the coalition's ply right before
  P's, with a move of P's still to come, when P would have goals at once were it P's turn
  now, only the coalition's pieces that touch every such goal move's region are searched
  (the others leave one of those goal moves standing, and lose). No square is cut for lying
  far from every open target: such a piece is no pass (it spends a piece of the mover's, and
  may be the only tempo move it has), and two far pieces are not interchangeable (each changes
  which squares next to it can take a piece, and so which far moves are left), so cutting
  them all but one would need a proof this module does not have;
- the target's second-to-last move must make a threat (``prune``, :meth:`LogiGame._threatening`):
  a move after which P, on its last ply's turn, has no goal move, and against which each other
  player in turn has a reply that leaves it none, is refuted without a node of its own (both
  tests rest on the lemma of :func:`_new_threat_squares`);
- hopeless nodes: even if every player placed for P, the open targets are too far from any
  settled signal for the pieces the plies left can add (:func:`pieces_needed`, a path count
  on the board); and, from ``reach_from`` plies on, the completion solver proves that no
  completion of the board adding that few pieces reaches the goal
  (:func:`placesat.logisticks.analyze.reach_within`, the ``satisfy`` encoding with a cap on
  the pieces added).

Every "win" is replayed before it is reported: the strategy the search found is played on the
plain rules (:class:`RuleGame`, over :mod:`.rules`) against every
legal reply of every other player (:func:`placesat.core.andor.replay_strategy`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Hashable, Sequence, Union

from placesat.core.andor import ReplayedStrategy, SearchStats, Settled, StrategyFailed, check_own_moves, replay_strategy
from placesat.core.dfpn import DEFAULT_TABLE_MB, ForcedSearch, new_search
from placesat.core.errors import InputError
from placesat.core.lattice import Point
from placesat.core.play import Outcome
from placesat.core.limits import Deadline, TimeUp, as_deadline

from .analyze import reach_within
from .model import ALL_KINDS, BOARD, CENTRE_POINTS, OPPOSITE, SIDES, Piece, Placement, Position, neighbour, square_name, square_point
from .rules import (
    Signal,
    apply_move,
    can_place,
    feeds,
    game_over,
    gate,
    legal_placements,
    matches,
    place,
    placement_problem,
    placements,
    scores,
    signals,
    signals_after,
    winners,
)

WIN, NO_WIN, UNKNOWN = "win", "no forced win", "unknown"
PASS = "pass"
"""The move of a player with no legal placement (``rules.apply_move`` writes it ``None``)."""
Move = Union[Placement, str]
MAX_MOVES = 6
"""The most own moves ``forced`` accepts (on the shipped mid-game positions 2 already takes
seconds: every move of the coalition is searched; see docs/logisticks.md)."""
SEARCH = "id"
"""The forced search by default (:data:`placesat.core.dfpn.SEARCHES`): see docs/performance.md, "Proof-number search"."""
DEFAULT_REACH_FROM: int | None = None
"""The plies left from which ``hopeless`` also asks the completion solver (None: never); chosen
by measurement (2 own moves for 2 points more, CPU seconds): on late.json the solver's one call
at the root settles it (0.06 s against 0.13 s without), but on midgame.json it cuts nothing
(0.83 s against 0.22 s) and on the open board (start.json) its one call costs 1.2 s where the
search needs 0.08 s."""
INFINITE = 10**6
PRUNE = True
"""Whether the coalition's pieces outside the must-play region are left unsearched
(:func:`must_play`); False gives the plain search (the tests and benchmarks compare the two)."""


def rules_move(move: Move) -> Placement | None:
    """The move as :func:`placesat.logisticks.rules.apply_move` takes it (None is a pass)."""
    return None if move == PASS else move  # type: ignore[return-value]


def move_words(move: Move) -> str:
    """A move as the ``play`` command reads it: ``d6 NOT S`` or ``pass``."""
    return PASS if move == PASS else str(move)


def legal_moves(position: Position) -> list[Move]:
    """The moves of the player to move, in board order: every legal placement, ``pass`` when
    there is none, nothing once the game is over (:func:`placesat.logisticks.rules.game_over`)."""
    if game_over(position):
        return []
    return list(legal_placements(position)) or [PASS]


def play_move(position: Position, move: Move) -> Position:
    """The position after ``move``, through :func:`placesat.logisticks.rules.apply_move`."""
    return apply_move(position, rules_move(move))


class RuleGame:
    """Logi-Sticks as the plain rules play it: the seats, the legal moves, a move played, the
    end and its winner (what :func:`placesat.core.andor.replay_strategy` needs of a
    :class:`placesat.core.play.Playable`; :class:`placesat.logisticks.play.LogiSticks` adds the
    rest)."""

    def players(self, position: Position) -> int:
        """How many seats play."""
        return position.players

    def to_move(self, position: Position) -> int:
        """The player to move."""
        return position.to_move

    def moves(self, position: Position) -> Sequence[Move]:
        """Every legal placement in board order, ``pass`` when there is none, nothing once the
        game is over."""
        return legal_moves(position)

    def play(self, position: Position, move: Move) -> Position:
        """The position after ``move`` (:func:`placesat.logisticks.rules.apply_move`)."""
        return play_move(position, move)

    def outcome(self, position: Position) -> Outcome | None:
        """None while the game goes on; then the winner by the game's scoring (points, then
        white targets matched, then black target stones), or a draw between players still level."""
        if not game_over(position):
            return None
        table = scores(position)
        best = winners(position)
        points = tuple(table[p].points for p in range(1, position.players + 1))
        detail = "scores " + "-".join(map(str, points))
        if len(best) > 1:
            return Outcome(None, f"{detail}: a tie between players {', '.join(map(str, best))}", points)
        return Outcome(best[0], f"{detail}: player {best[0]} wins", points)


# --------------------------------------------------------------------------- the goal


@dataclass(frozen=True)
class Goal:
    """What ``player`` wants: at least ``score`` points, or the own target on ``target`` matched."""

    player: int
    score: int | None = None
    target: Point | None = None

    def open_targets(self, position: Position, values: dict[Point, Signal]) -> list[tuple[Point, str]]:
        """The targets the goal still needs one of: the player's unmatched targets whose signal
        is not settled yet (a settled signal never changes, so a wrong one is lost for good)."""
        stones = position.targets.get(self.player, {})
        squares = [self.target] if self.target is not None else list(stones)
        return [(s, stones[s]) for s in squares if values.get(s) is None]

    def points(self, position: Position, values: dict[Point, Signal]) -> int:
        """The player's points: own targets receiving their colour's signal."""
        return sum(1 for s, colour in position.targets.get(self.player, {}).items() if matches(colour, values.get(s)))

    def still_needed(self, position: Position, values: dict[Point, Signal]) -> int:
        """How many more targets must be matched (0: reached)."""
        if self.target is not None:
            return 0 if matches(position.targets[self.player][self.target], values.get(self.target)) else 1
        return max(0, self.score - self.points(position, values))  # type: ignore[operator]

    def reached(self, position: Position, values: dict[Point, Signal] | None = None) -> bool:
        """Whether the goal holds in ``position`` (read off the plain rules' signals)."""
        return self.still_needed(position, signals(position) if values is None else values) == 0

    def words(self) -> str:
        """The goal in a sentence's words: "a score of at least 3", "target c1 (white) matched"."""
        if self.target is not None:
            return f"target {square_name(self.target)} matched"
        return f"a score of at least {self.score}"


def make_goal(position: Position, player: int, score: int | None, target: str | None) -> Goal:
    """The goal a command asks for: exactly one of ``score`` (1 to the player's number of
    targets) and ``target`` (one of the player's own target squares)."""
    if not 1 <= player <= position.players:
        raise InputError(f"--player must be from 1 to {position.players}, not {player}")
    stones = position.targets.get(player, {})
    if (score is None) == (target is None):
        raise InputError("give exactly one of --score S and --target SQUARE")
    if score is not None:
        if not 1 <= score <= len(stones):
            raise InputError(f"--score must be from 1 to {len(stones)} (player {player}'s targets), not {score}")
        return Goal(player, score=score)
    try:
        square = square_point(str(target).lower())
    except ValueError as error:
        raise InputError(f"--target: {error}") from None
    if square not in stones:
        owned = ", ".join(square_name(s) for s in sorted(stones, key=lambda s: (s[1], -s[0])))
        raise InputError(f"--target {target} is not one of player {player}'s targets ({owned})")
    return Goal(player, target=square)


def check_moves(moves: int) -> int:
    """``moves`` when it is from 1 to :data:`MAX_MOVES`."""
    return check_own_moves(moves, MAX_MOVES)


def plies_for(position: Position, player: int, own: int) -> int:
    """The plies from ``position`` up to and including ``player``'s ``own``-th own move (every
    ply passes the turn on, a pass too)."""
    offset = (player - position.to_move) % position.players
    return offset + (own - 1) * position.players + 1


def own_plies(position: Position, player: int, depth: int) -> int:
    """How many of the next ``depth`` plies are ``player``'s."""
    offset = (player - position.to_move) % position.players
    return 0 if offset >= depth else (depth - 1 - offset) // position.players + 1


# --------------------------------------------------------------------------- the path count


def settled_sources(position: Position, values: dict[Point, Signal]) -> set[Point]:
    """Squares a new piece could take a settled signal from: every square next to a centre
    stone or to a piece whose output is settled."""
    near: set[Point] = set()
    for square in BOARD.points:
        if square in CENTRE_POINTS or (square in position.pieces and values.get(square) is not None):
            for side in SIDES:
                other = neighbour(square, side)
                if other is not None and other not in CENTRE_POINTS:
                    near.add(other)
    return near


def _costs(position: Position, values: dict[Point, Signal]) -> dict[Point, int]:
    """What a square costs a signal path: an empty square one new piece, a square whose piece is
    still MUTABLE nothing (its open input can be filled upstream); settled pieces and centre
    squares are no part of a path (they are its sources)."""
    costs = {}
    for square in BOARD.points:
        if square in CENTRE_POINTS:
            continue
        if square not in position.pieces:
            costs[square] = 1
        elif values.get(square) is None:
            costs[square] = 0
    return costs


def path_distances(position: Position, values: dict[Point, Signal], costs: dict[Point, int] | None = None) -> dict[Point, int]:
    """For each square a path may use, the fewest new pieces that give its piece a settled
    output, counting the square itself: a 0-1 breadth-first search from :func:`settled_sources`.

    A piece's output is settled only when at least one of its inputs is (AND FALSE or OR TRUE
    need one, the rest all of theirs), so a settled signal reaches a square only along a chain
    of side-adjacent pieces starting next to a centre stone or a settled piece; each empty
    square of the chain needs a new piece. The count ignores which way pieces face and what
    the supplies hold, so it is a lower bound.
    """
    costs = _costs(position, values) if costs is None else costs
    dist: dict[Point, int] = {}
    todo: deque[tuple[int, Point]] = deque()
    for square in settled_sources(position, values):
        if square in costs:
            d = costs[square]
            if d < dist.get(square, INFINITE):
                dist[square] = d
                (todo.appendleft if d == 0 else todo.append)((d, square))
    return _spread(dist, todo, costs)


def pieces_needed(position: Position, goal: Goal, values: dict[Point, Signal] | None = None,
                  dist: dict[Point, int] | None = None) -> int:
    """A lower bound on the pieces any line (everybody placing for the goal) must add before
    ``goal`` holds: with ``k`` more targets to match, the ``k``-th nearest open target's path
    count (:func:`path_distances`), at least one piece per empty target square among them, and
    at least one piece (a MUTABLE signal settles only when an open input is filled).
    :data:`INFINITE` when fewer than ``k`` targets are still open."""
    values = signals(position) if values is None else values
    needed = goal.still_needed(position, values)
    if needed == 0:
        return 0
    dist = path_distances(position, values) if dist is None else dist
    open_targets = goal.open_targets(position, values)
    reach = sorted(dist.get(s, INFINITE) for s, _ in open_targets)
    if len(reach) < needed or reach[needed - 1] >= INFINITE:
        return INFINITE
    with_piece = sum(1 for s, _ in open_targets if s in position.pieces)
    # a signal still MUTABLE settles only when a new piece fills an open input: one at least
    return max(1, reach[needed - 1], needed - with_piece)


# --------------------------------------------------------------------------- the search


class Node:
    """A search state: a position, with what the search asks of it worked out once. ``values``
    may be given (the signals worked out from the parent's: :func:`child`)."""

    __slots__ = ("position", "_values", "_moves", "_over", "_dist", "kept")

    def __init__(self, position: Position, values: dict[Point, Signal] | None = None) -> None:
        self.position = position
        self._values = values
        self._moves: list[Move] | None = None
        self._over: bool | None = None
        self._dist: dict[Point, int] | None = None
        self.kept: list[Move] | None = None  # the moves must_play left (None: all of them)

    @property
    def values(self) -> dict[Point, Signal]:
        """Every piece's signal (:func:`placesat.logisticks.rules.signals`)."""
        if self._values is None:
            self._values = signals(self.position)
        return self._values

    @property
    def over(self) -> bool:
        """Whether the game is over (:func:`placesat.logisticks.rules.game_over`: every target
        square holds a piece with a settled signal, or nobody can place), read off ``values``."""
        if self._over is None:
            state, values = self.position, self.values
            resolved = all(values.get(square) is not None for stones in state.targets.values() for square in stones)
            self._over = resolved or not any(can_place(state, p, None) for p in range(1, state.players + 1))
        return self._over

    @property
    def moves(self) -> list[Move]:
        """The legal moves (:func:`legal_moves`)."""
        if self._moves is None:
            self._moves = [] if self.over else (list(legal_placements(self.position)) or [PASS])
        return self._moves

    @property
    def dist(self) -> dict[Point, int]:
        """The path counts (:func:`path_distances`)."""
        if self._dist is None:
            self._dist = path_distances(self.position, self.values)
        return self._dist


def child(node: Node, move: Move) -> Node:
    """The node after ``move`` (:func:`advance`), its signals worked out from ``node``'s
    (:func:`placesat.logisticks.rules.signals_after`: only the new piece and what it feeds)."""
    after = advance(node.position, move)
    if move == PASS:
        return Node(after, node.values)
    return Node(after, signals_after(after, node.values, move.square))  # type: ignore[union-attr]


def new_output(position: Position, values: dict[Point, Signal], move: Placement) -> Signal:
    """The output the placed piece has at once: its inputs read from the centre stones and the
    outputs they face, an open input MUTABLE (:func:`placesat.logisticks.rules.gate`)."""
    arriving = {side: _arriving(position, values, move.square, side) for side in move.kind.inputs}
    return gate(move.kind.type, [arriving[side] for side in move.kind.inputs])


def is_quiet(position: Position, values: dict[Point, Signal], move: Placement) -> bool:
    """Whether ``move`` looks *quiet*: its output is MUTABLE as it is placed
    (:func:`new_output`) and none of its inputs is open. Only an order of preference for the
    other side's refutations in :meth:`LogiGame._threatening` (such a piece changes no signal
    when placed); what makes a refutation sound is checked there (a quiet piece can still
    settle later, when a piece upstream of it does, and reach a target)."""
    pieces = position.pieces
    for side in move.kind.inputs:
        other = neighbour(move.square, side)
        if other is None or (other not in CENTRE_POINTS and other not in pieces):
            return False
    return new_output(position, values, move) is None


def _arriving(position: Position, values: dict[Point, Signal], square: Point, side: str) -> Signal:
    """The signal an input on ``side`` of ``square`` would read: a centre stone's colour, the
    output it faces, MUTABLE when open (or facing an input: such a placement is illegal anyway).
    (:func:`placesat.logisticks.rules.facing` read without making its answer: it is asked for
    every side of every empty square of every position searched.)"""
    other = neighbour(square, side)
    if other is None:
        return None
    if other in CENTRE_POINTS:
        return position.centre[(other, OPPOSITE[side])] == "W"
    piece = position.pieces.get(other)
    if piece is not None and OPPOSITE[side] in piece.kind.outputs:
        return values.get(other)
    return None


def _upstream(position: Position, squares: set[Point]) -> set[Point]:
    """The squares of the pieces that feed, directly or not, a piece on one of ``squares``
    (those pieces too): the pieces whose downstream (:func:`_downstream`) meets ``squares``."""
    pieces = position.pieces
    seen = {s for s in squares if s in pieces}
    todo = list(seen)
    while todo:
        square = todo.pop()
        for side in pieces[square].kind.inputs:
            other = neighbour(square, side)
            piece = None if other is None else pieces.get(other)
            if piece is not None and OPPOSITE[side] in piece.kind.outputs and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _downstream(position: Position, start: Point) -> set[Point]:
    """The squares of the pieces fed, directly or not, by the piece on ``start`` (itself too)."""
    seen = {start}
    todo = [start]
    while todo:
        for nxt in feeds(position, todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _feeding(position: Position, wanted: set[Point]) -> tuple[set[Point], set[Point]]:
    """The pieces that feed a ``wanted`` target, directly or not (:func:`_upstream`), and the
    squares where a new piece could change a wanted target's signal: the empty wanted squares
    and those an input of such a piece faces (a new piece reaches its own square and what the
    open inputs it fills feed)."""
    pieces = position.pieces
    joined = _upstream(position, wanted)
    near = {s for s in wanted if s not in pieces}
    for square in joined:
        for side in pieces[square].kind.inputs:
            other = neighbour(square, side)
            if other is not None and other not in CENTRE_POINTS and other not in pieces:
                near.add(other)
    return joined, near


def _new_threat_squares(after: Position, square: Point, wanted: set[Point]) -> set[Point] | None:
    """Where a goal move can be after the piece on ``square`` (``after``: just placed) that was
    none without it: the empty squares next to that piece or to a piece it feeds, directly or
    not (its downstream ``D``); None (anywhere) when ``D`` holds an open target (``wanted``).

    Let ``g``, on a square next to no piece of ``D``, be a goal move after the piece ``m``
    and ``D`` hold no open target. ``g``'s sides face what they faced without ``m``, and the
    pieces they read are outside ``D``, the only pieces whose signal ``m`` can change; so
    ``g`` is legal without ``m`` (a loop it would close then is there with ``m`` too) and
    puts out the same signal. A signal that differs between "after ``m`` and ``g``" and
    "after ``g`` alone" is downstream of ``m``; as ``g`` feeds no piece of ``D`` and reads none,
    downstream of ``m`` is ``D`` either way, which holds no open target, and a settled target
    keeps its signal: the target's points are the same, so ``g`` was a goal move without
    ``m``. (Targets of other players do not count for the goal.)"""
    region = _downstream(after, square)
    if region & wanted:
        return None
    pieces = after.pieces
    near: set[Point] = set()
    for piece_square in region:
        for side in SIDES:
            other = neighbour(piece_square, side)
            if other is not None and other not in CENTRE_POINTS and other not in pieces:
                near.add(other)
    return near


def goal_moves(node: Node, goal: Goal, first_only: bool = False, deadline: Deadline | None = None,
               squares: set[Point] | None = None) -> list[Move]:
    """The placements of the player to move after which ``goal`` holds, in board order.

    A placement changes signals only when the new piece's output is settled as it is placed
    (a MUTABLE one leaves every open input it fills MUTABLE), so only squares facing a centre
    stone or a settled output can take such a piece; and what it changes is its own square and
    the pieces downstream of it. So only settled placements joined to an open target of the
    goal are played out (through the rules) and checked with the rules' signals. With
    ``squares``, only placements on those squares are looked at.
    """
    position, values = node.position, node.values
    wanted = {s for s, _ in goal.open_targets(position, values)}
    if not wanted:
        return []
    player, turn = position.to_move, position.turn
    pieces = position.pieces
    found: list[Move] = []
    joined, near = _feeding(position, wanted)
    if squares is not None:
        near &= squares

    def feeds_joined(square: Point, kind) -> bool:
        for side in kind.outputs:
            other = neighbour(square, side)
            piece = None if other is None else pieces.get(other)
            if piece is not None and OPPOSITE[side] in piece.kind.inputs and other in joined:
                return True
        return False

    for square in BOARD.points:
        if square not in near:
            continue
        arriving = {side: _arriving(position, values, square, side) for side in SIDES}
        if all(value is None for value in arriving.values()):
            continue  # a settled output needs a settled input
        if deadline is not None:
            deadline.check()
        for kind in ALL_KINDS:
            if gate(kind.type, [arriving[side] for side in kind.inputs]) is None:
                continue
            if square not in wanted and not feeds_joined(square, kind):
                continue
            move = Placement(square, kind)
            if placement_problem(position, move, player, turn):
                continue
            after = advance(position, move)
            if goal.reached(after, signals_after(after, values, square)):
                found.append(move)
                if first_only:
                    return found
    return found


def advance(position: Position, move: Move) -> Position:
    """:func:`placesat.logisticks.rules.apply_move` for a position the search knows is not over
    (its end is :meth:`LogiGame.result`'s to find) and a move it knows is legal (every move
    here comes from the rules' move generator or passed
    :func:`placesat.logisticks.rules.placement_problem`; the win found is replayed on the
    checked rules): the piece put down from the mover's supply, the turn passed on. The
    targets and the centre stones, which no move changes, are shared with ``position``."""
    supply = dict(position.supply)
    pieces = position.pieces
    if move != PASS:
        mover = position.to_move
        pieces = dict(pieces)
        pieces[move.square] = Piece(move.kind, mover, position.turn)  # type: ignore[union-attr]
        supply[mover] = dict(supply[mover])
        supply[mover][move.kind.type] -= 1  # type: ignore[union-attr]
    return replace(position, pieces=pieces, supply=supply, to_move=position.next_player(), turn=position.turn + 1)


def must_play(node: Node, goal: Goal, deadline: Deadline | None = None) -> set[Point] | None:
    """The squares where a piece of the player to move (the coalition's, with ``goal.player``
    to move next) can stop the goal at once; None when there is nothing to stop.

    The goal moves are those the goal's player would have were it its turn now, at the turn it
    will play (:func:`goal_moves`, every one). For a goal move ``g``, its region is its square,
    the squares of the pieces it feeds once placed (directly or not), and every square next to
    these. A coalition piece ``r`` outside the region leaves ``g`` legal and still reaching the
    goal right after it:

    - ``g``'s legality reads only its own square, its neighbours (rim, input against input,
      sources, open inputs) and the feedback loops through it; a loop through ``g`` runs
      through pieces ``g`` feeds, all of which are closed under feeding and untouched by
      ``r`` (not next to any of them), so ``r`` closes no new loop through ``g``. The turn
      is the same, so are the Capacitor waits and the player's supply;
    - signals are Kleene-monotone (seeds/logisticks.md): ``r`` can only settle MUTABLE
      signals, and a signal settled with ``g`` alone is the same with ``r`` and ``g``; every
      point the goal counts after ``g`` is a settled match, so it is one after ``r`` and ``g``;
    - the game does not end at ``r`` without the goal: ``g`` is still a legal placement, so
      somebody can place; and were every target resolved after ``r``, each target's signal
      settled by ``r`` alone would be the one it has after ``r`` and ``g``, so the goal would
      hold after ``r`` already.

    So only the squares in every goal move's region can hold a piece that refutes: their
    intersection is returned. Moves are kept or cut by square (the kind does not matter)."""
    state = node.position
    null = state.copy()
    null.to_move, null.turn = goal.player, state.turn + 1  # its turn, as after the coalition's move
    threats = goal_moves(Node(null, node.values), goal, deadline=deadline)
    if not threats:
        return None
    region: set[Point] | None = None
    for threat in threats:
        placed = _downstream(place(null, threat, goal.player, null.turn), threat.square)  # type: ignore[arg-type, union-attr]
        near = set(placed)
        for square in placed:
            for side in SIDES:
                other = neighbour(square, side)
                if other is not None:
                    near.add(other)
        region = near if region is None else region & near
        if not region:
            break
    return region


@dataclass
class LogiGame:
    """Logi-Sticks seen from ``goal.player``'s side, for :class:`placesat.core.andor.AndOrSearch`."""

    goal: Goal
    reach_from: int | None = DEFAULT_REACH_FROM
    backend: str = "sat"
    deadline: Deadline = field(default_factory=Deadline.never)
    reach_calls: int = 0
    reach_cuts: int = 0
    prune: bool = field(default_factory=lambda: PRUNE)
    pruned: int = 0  # the coalition's moves left unsearched (must_play)
    threats_cut: int = 0  # the target's moves refuted quietly (:meth:`_threatening`)

    @property
    def target(self) -> int:
        """The player the goal is for."""
        return self.goal.player

    def key(self, node: Node) -> Hashable:
        """The pieces (kind, and the turns a Capacitor still waits; the owner no longer
        matters), the supplies and the player to move."""
        state = node.position
        pieces = frozenset(
            (square, piece.kind, max(0, piece.turn + state.players - state.turn) if piece.kind.type == "CAP" and piece.turn is not None else 0)
            for square, piece in state.pieces.items()
        )
        supplies = tuple(tuple(sorted(state.supply[p].items())) for p in sorted(state.supply))
        return (pieces, supplies, state.to_move)

    def result(self, node: Node) -> bool | None:
        """The goal reached is a win; the game over without it is not."""
        if self.goal.reached(node.position, node.values):
            return True
        return False if node.over else None

    def target_moves(self, node: Node) -> bool:
        """The target's own plies are the OR nodes."""
        return node.position.to_move == self.target

    def moves(self, node: Node) -> Sequence[Move]:
        """The legal moves (a pass when the mover has no placement); at the coalition's ply
        right before the target's, those :func:`must_play` left."""
        return node.moves if node.kept is None else node.kept

    def play(self, node: Node, move: Move) -> Node:
        """The move through the rules (:func:`advance`)."""
        return child(node, move)

    def settle(self, node: Node, depth: int) -> Settled[Move] | None:
        """The target's goal reached at once, and the target's last ply (decided by that
        alone); no ply of the target's left for the coalition's mover."""
        state = node.position
        own = own_plies(state, self.target, depth)
        if state.to_move == self.target:
            wins = goal_moves(node, self.goal, first_only=True, deadline=self.deadline)
            if wins:
                return Settled(True, wins[0])
            if own == 1:
                return Settled(False)
            node.kept = None
            if self.prune and own == 2:
                node.kept = self._threatening(node)
                if node.kept is not None and not node.kept:
                    return Settled(False)  # every move of the target's is refuted quietly
            return None
        if own == 0:
            return Settled(False)
        before_target = state.next_player() == self.target
        if own == 1 and before_target:
            return self._last_ply(node)
        region = must_play(node, self.goal, self.deadline) if self.prune and before_target else None
        if region is not None and node.moves[0] != PASS:
            node.kept = [m for m in node.moves if m.square in region]  # type: ignore[union-attr]
            self.pruned += len(node.moves) - len(node.kept)
            if not node.kept:
                return Settled(True)  # every piece leaves a goal move standing
        return None

    def _threatening(self, node: Node) -> list[Move] | None:
        """The target's second-to-last own ply (its move, one ply of each other player's, its
        last): the moves that are not *refuted quietly*; None when one of the others has no
        placement to try (nothing is cut). With two players:

        After the target's move ``m`` the other's move ``r`` is its last before the target's
        last, so ``r`` refutes when the goal does not hold after it and the target then has no
        goal move at once (the target's last ply is settled by that alone). ``m`` is dropped
        when, two turns on (the target to move, the turn its last ply is played on):

        - the goal does not hold after ``m`` and the target has no goal move after ``m``
          (:func:`goal_moves`; by the lemma of :func:`_new_threat_squares` a goal move after
          ``m`` is one the target has now, two turns on, or lies next to ``m``'s downstream,
          so when it has none now only those squares are looked at, and only those that can
          change an open target's signal at all: the squares :func:`_feeding` gives now,
          which ``m`` does not change when its downstream holds no open target);
        - and some placement ``r`` of the other's (:meth:`_quiet_replies`) is legal after ``m``,
          has no open target of the target's downstream of it (so the goal does not hold after
          it either), and leaves no goal move next to its downstream: by the same lemma every
          goal move after ``m`` and ``r`` is then one after ``m`` alone, and there is none.

        The candidates ``r`` are the other's placements now (its supply does not change with
        ``m``), quiet ones (:func:`is_quiet`) first; each is checked after ``m``. With three or
        four players each of the others in turn places such a piece (:meth:`_quiet_replies`),
        and "two turns on" is the turn of the target's last ply."""
        state, values = node.position, node.values
        target, players = self.target, state.players
        last_turn = state.turn + players  # the target's last ply
        replies: dict[int, list[Placement]] = {}
        for step in range(1, players):
            mover = (target - 1 + step) % players + 1
            replies[mover] = list(placements(state, mover, state.turn + step))
            if not replies[mover]:
                return None
            replies[mover].sort(key=lambda r: not is_quiet(state, values, r))
        later = replace(state, turn=last_turn)  # the target to move, on its last ply's turn
        wanted = {square for square, _ in self.goal.open_targets(state, values)}
        feeding_now: set[Point] | None = None
        threats_now: bool | None = None
        kept: list[Move] = []
        for move in node.moves:
            self.deadline.check()
            if move == PASS:
                kept.append(move)
                continue
            after = child(node, move)
            if self.goal.reached(after.position, after.values):
                kept.append(move)
                continue
            if threats_now is None:
                threats_now = bool(goal_moves(Node(later, values), self.goal, first_only=True, deadline=self.deadline))
            look: set[Point] | None = None  # every square
            if not threats_now:
                look = _new_threat_squares(after.position, move.square, wanted)  # type: ignore[union-attr]
                if look:
                    if feeding_now is None:
                        feeding_now = _feeding(state, wanted)[1]
                    look &= feeding_now
            two_on = replace(after.position, to_move=target, turn=last_turn)
            if self._goal_move_within(two_on, after.values, look) or not self._quiet_replies(after, replies, last_turn):
                kept.append(move)
            else:
                self.threats_cut += 1
        return kept

    def _goal_move_within(self, state: Position, values: dict[Point, Signal], look: set[Point] | None) -> bool:
        """Whether the target, to move in ``state`` (signals ``values``), has a goal move on
        ``look`` (None: anywhere)."""
        if look is not None and not look:
            return False
        return bool(goal_moves(Node(state, values), self.goal, first_only=True, deadline=self.deadline, squares=look))

    def _quiet_replies(self, after: Node, replies: dict[int, list[Placement]], last_turn: int) -> bool:
        """Whether the others, from ``after`` (the target's second-to-last move just made) to
        the target's last ply, can each place a piece of ``replies`` (their placements before
        that move, quiet ones first) that is legal then, has no open target of the target's
        downstream of it, and leaves the target, to move on ``last_turn``, no goal move next to
        that downstream (:func:`_new_threat_squares`). By that lemma, piece after piece, the
        target's goal moves after them all are among those after its own move, which has none."""
        node = after
        while node.position.to_move != self.target:
            state = node.position
            wanted = {square for square, _ in self.goal.open_targets(state, node.values)}
            for reply in replies[state.to_move]:
                if placement_problem(state, reply, state.to_move, state.turn) is not None:
                    continue
                answered = child(node, reply)
                look = _new_threat_squares(answered.position, reply.square, wanted)
                if look is None:
                    continue
                final = replace(answered.position, to_move=self.target, turn=last_turn)
                if self._goal_move_within(final, answered.values, look):
                    continue
                node = answered
                break
            else:
                return False
        return True

    def _last_ply(self, node: Node) -> Settled[Move]:
        """The coalition's mover right before the target's last ply: one move after which the
        target has no goal at once refutes, so the moves are tried one by one as the rules
        give them (the first usually does) instead of listed, ordered and searched. Once the
        first has failed (the target has a goal move to stop), with ``prune`` the pieces
        outside the must-play region (:func:`must_play`) are not tried: each leaves a goal
        move standing."""
        state = node.position
        tried = 0
        region: set[Point] | None = None
        for move in placements(state, state.to_move, state.turn):
            tried += 1
            if tried % 16 == 0:
                self.deadline.check()
            if region is not None and move.square not in region:
                self.pruned += 1
                continue
            if not self._target_scores_after(node, move):
                return Settled(False, move)
            if tried == 1 and self.prune:
                region = must_play(node, self.goal, self.deadline)
        if tried == 0 and not self._target_scores_after(node, PASS):
            return Settled(False, PASS)  # no placement: the mover passes
        return Settled(True)

    def _target_scores_after(self, node: Node, move: Move) -> bool:
        """Whether, after ``move``, the goal holds or the target (to move) reaches it at once."""
        after = child(node, move)
        ended = self.result(after)
        if ended is not None:
            return ended
        return bool(goal_moves(after, self.goal, first_only=True, deadline=self.deadline))

    def hopeless(self, node: Node, depth: int) -> bool:
        """More pieces needed (:func:`pieces_needed`) than the plies up to the target's last
        own ply can add; or, from ``reach_from`` plies on, no completion adding that many
        pieces reaches the goal (:func:`placesat.logisticks.analyze.reach_within`)."""
        state = node.position
        own = own_plies(state, self.target, depth)
        if own == 0:
            return True
        plies = plies_for(state, self.target, own)
        supply = sum(sum(counts.values()) for counts in state.supply.values())
        if pieces_needed(state, self.goal, node.values, node.dist) > min(plies, supply):
            return True
        if self.reach_from is not None and depth >= self.reach_from:
            self.reach_calls += 1
            verdict = reach_within(state, self.goal.player, plies, self.goal.score, self.goal.target,
                                   self.backend, self.deadline)
            if verdict.status == "unknown":
                raise TimeUp("the time limit came first")
            if verdict.status == "impossible":
                self.reach_cuts += 1
                return True
        return False

    def order(self, node: Node, moves: Sequence[Move]) -> Sequence[Move]:
        """Pieces on the target's open target squares and on the shortest signal paths to them
        first (:func:`heat`); for the target, those with a settled output before the rest."""
        state = node.position
        values = node.values
        hot = heat(node, self.goal)
        mine = state.to_move == self.target
        wanted = {s for s, _ in self.goal.open_targets(state, values)}

        def score(move: Move) -> float:
            if move == PASS:
                return 0.0
            square = move.square  # type: ignore[union-attr]
            settled = new_output(state, values, move) is not None  # type: ignore[arg-type]
            if mine:
                return hot.get(square, 0) + (2 if settled else 0)
            return hot.get(square, 0) + (3 if square in wanted else 0) + (1 if settled else 0)

        scores = [score(m) for m in moves]
        best_first = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
        return [moves[i] for i in best_first]


def heat(node: Node, goal: Goal) -> dict[Point, float]:
    """For each square, how many of the goal's open targets it lies on a shortest signal path
    to (path counts from the settled sources and back from each target add up to the
    target's own count there)."""
    position, values = node.position, node.values
    costs = _costs(position, values)
    from_sources = node.dist
    hot: dict[Point, float] = {}
    for target, _ in goal.open_targets(position, values):
        best = from_sources.get(target, INFINITE)
        if best >= INFINITE or target not in costs:
            continue
        back = _distances_from(target, costs)
        for square, d in back.items():
            if from_sources.get(square, INFINITE) + d - costs[square] <= best:
                hot[square] = hot.get(square, 0) + 1.0 / (1 + best)
    return hot


def _distances_from(start: Point, costs: dict[Point, int]) -> dict[Point, int]:
    """Path counts from ``start`` (its own cost included) over the squares a path may use."""
    dist = {start: costs[start]}
    todo: deque[tuple[int, Point]] = deque([(costs[start], start)])
    return _spread(dist, todo, costs)


# --------------------------------------------------------------------------- the answer


@dataclass
class ForcedAnswer:
    """``answer``: "win" (``move`` forces the goal within ``within`` own moves), "no forced
    win" (the search was complete), or "unknown" (the time limit came first).
    ``positions``: the nodes the search visited; ``replayed``: the positions the strategy's
    replay on the plain rules visited (every reply of every other player)."""

    goal: Goal
    players: int
    moves: int
    answer: str
    move: Move | None = None
    within: int | None = None
    stats: SearchStats = field(default_factory=SearchStats)
    positions: int = 0
    replayed: int = 0
    strategy: ReplayedStrategy | None = None
    line: list[dict[str, Any]] | None = None
    line_left_out: int = 0
    no_win_within: int | None = None
    reach_calls: int = 0
    reach_cuts: int = 0

    @property
    def against(self) -> str:
        """Who plays against the player, in words ("player 2", "players 2, 3 and 4 together")."""
        others = [p for p in range(1, self.players + 1) if p != self.goal.player]
        if len(others) == 1:
            return f"player {others[0]}"
        return "players " + ", ".join(map(str, others[:-1])) + f" and {others[-1]} together"

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON, with the replayed strategy tree and the line of play for a win."""
        return {
            "player": self.goal.player,
            "goal": {"score": self.goal.score, "target": None if self.goal.target is None else square_name(self.goal.target)},
            "moves": self.moves,
            "against": [p for p in range(1, self.players + 1) if p != self.goal.player],
            "answer": self.answer,
            "move": None if self.move is None else move_words(self.move),
            "within": self.within,
            "positions": self.positions,
            "replayed": self.replayed,
            "reach_calls": self.reach_calls,
            "reach_cuts": self.reach_cuts,
            "strategy": None if self.strategy is None else self.strategy.tree.to_json(move_words),
            "line": self.line,
            "line_left_out": self.line_left_out,
            "no_win_within": self.no_win_within,
        }


def forced(
    position: Position,
    goal: Goal,
    moves: int,
    time_limit: "Deadline | float | None" = None,
    reach_from: int | None = DEFAULT_REACH_FROM,
    backend: str = "sat",
    searcher: str | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> ForcedAnswer:
    """Can ``goal.player`` force ``goal`` within ``moves`` of its own moves, all the other
    players together playing against it?

    "win" with the first move (when the player is to move), the strategy replayed on the plain
    rules against every legal reply (:func:`placesat.core.andor.replay_strategy`; a strategy
    that fails there is a bug and raises), and its line of play; "no forced win" when the
    search was complete; "unknown" when the time limit came first, with the most own moves
    proven not to suffice before it (``no_win_within``).
    """
    check_moves(moves)
    deadline = as_deadline(time_limit)
    game = LogiGame(goal, reach_from, backend, deadline)
    search = new_search(game, deadline, searcher or SEARCH, table_mb)
    root = Node(position)
    answer = ForcedAnswer(goal, position.players, moves, UNKNOWN, stats=search.stats)
    try:
        if goal.reached(position, root.values):
            answer.answer, answer.within = WIN, 0
            return answer
        within = None
        for own in range(1, moves + 1):
            if search.wins(root, plies_for(position, goal.player, own), deepen=False):
                within = own
                break
            answer.no_win_within = own  # settled: what an interrupted search still knows
        answer.positions = search.stats.nodes
        if within is None:
            answer.answer = NO_WIN
            return answer
        plies = plies_for(position, goal.player, within)
        answer.strategy = replay_strategy(
            RuleGame(), position, goal.player, within, _chooser(search, position, plies),
            reached=goal.reached, deadline=deadline,
        )
        answer.replayed = answer.strategy.positions
        answer.answer, answer.within, answer.no_win_within = WIN, within, None
        answer.move = answer.strategy.tree.move
        answer.line, answer.line_left_out = line_of_play(answer.strategy.tree, position)
    except TimeUp:
        answer.answer, answer.move, answer.strategy, answer.within = UNKNOWN, None, None, None
        answer.positions = search.stats.nodes
    except StrategyFailed as failure:
        raise AssertionError(f"a strategy proven to force {goal.words()} fails on the rules: {failure.reason}") from None
    finally:
        answer.reach_calls, answer.reach_cuts = game.reach_calls, game.reach_cuts
    return answer


def _chooser(search: ForcedSearch, root: Position, plies: int):
    """The strategy's move in a position met in the replay: the search's winning move there,
    re-proven with the plies left (fast: the table is warm)."""

    def choose(position: Position) -> Move | None:
        left = plies - (position.turn - root.turn)
        node = Node(position)
        if left <= 0 or not search.wins(node, left, deepen=False):
            return None
        return search.best_move(node)

    return choose


LINE_WIDTH = 3
"""At most this many replies of the others are shown at each of their turns in a line of play."""
LINE_STEPS = 24
"""At most this many moves in a line of play; the replies beyond are counted, not shown."""


def line_of_play(tree, position: Position, width: int = LINE_WIDTH, steps: int = LINE_STEPS) -> tuple[list[dict[str, Any]], int]:
    """The replayed strategy written out for a reader: the player's move where it moves, the
    others' first ``width`` replies in the search's order of threat where they move (each with
    the player's answer), ``steps`` moves in all. Each move is ``{"player", "move", "reached",
    "replies", "left_out"}``. Returns the moves at the root and how many are left out there."""
    budget = [steps]

    def walk(node, state: Position) -> tuple[list[dict[str, Any]], int]:
        if node.reached:
            return [], 0
        mover = state.to_move
        if node.move is not None:
            chosen = [(node.move, node.then)]
            left_out = 0
        else:
            replies = _threat_first(node.replies)
            chosen = replies[: max(0, min(width, budget[0]))]
            left_out = len(replies) - len(chosen)
        shown = []
        for move, then in chosen:
            budget[0] -= 1
            after = play_move(state, move)
            step: dict[str, Any] = {"player": mover, "move": move_words(move), "reached": then.reached}
            step["replies"], step["left_out"] = walk(then, after)
            shown.append(step)
        return shown, left_out

    return walk(tree, position)


def _threat_first(replies: list) -> list:
    """The others' replies, those the strategy needed the most own moves against first, then
    one reply per square before a second on the same square."""

    def length(node) -> int:
        if node.reached:
            return 0
        if node.move is not None:
            return 1 + length(node.then)
        return max((length(then) for _, then in node.replies), default=0)

    ranked = sorted(replies, key=lambda pair: -length(pair[1]))
    first, rest, squares = [], [], set()
    for move, then in ranked:
        where = move.square if isinstance(move, Placement) else move
        (rest if where in squares else first).append((move, then))
        squares.add(where)
    return first + rest


def line_lines(line: list[dict[str, Any]], left_out: int, indent: str = "  ") -> list[str]:
    """A line of play as indented text, one move a line: "player 1: c2 PASS N", replies
    indented under the move they answer, replies not shown counted."""
    out: list[str] = []

    def walk(steps: list[dict[str, Any]], left: int, depth: int) -> None:
        for step in steps:
            mark = "  (goal reached)" if step["reached"] else ""
            out.append(f"{indent * (depth + 1)}player {step['player']}: {step['move']}{mark}")
            walk(step["replies"], step["left_out"], depth + 1)
        if left:
            out.append(f"{indent * (depth + 1)}... {left} more repl{'y' if left == 1 else 'ies'}, each answered too (replayed)")

    walk(line, left_out, 0)
    return out


def first_steps(position: Position, strategy: ReplayedStrategy, count: int = 6) -> list[Move]:
    """The strategy's principal line: the player's moves, against each the others' reply that
    the strategy needed the most own moves to beat."""
    out: list[Move] = []
    node = strategy.tree
    state = position
    while not node.reached and len(out) < count:
        if node.move is not None:
            out.append(node.move)
            state = play_move(state, node.move)
            node = node.then
        else:
            if not node.replies:
                break
            reply, node = _threat_first(node.replies)[0]
            out.append(reply)
            state = play_move(state, reply)
    return out


__all__ = ["forced", "Goal", "make_goal", "ForcedAnswer", "LogiGame", "goal_moves", "pieces_needed"]


def _spread(dist: dict[Point, int], todo: "deque[tuple[int, Point]]", costs: dict[Point, int]) -> dict[Point, int]:
    """``dist`` completed from the queued ``(count, square)`` starts: the least path count to
    every square a path may use (``costs``, :func:`_costs`: 0 for a square whose piece is still
    MUTABLE, 1 for an empty one), by 0-1 breadth-first search (a free step goes first)."""
    while todo:
        d, square = todo.popleft()
        if d > dist.get(square, INFINITE):
            continue
        for other in _NEIGHBOURS[square]:
            cost = costs.get(other)
            if cost is None:
                continue
            nd = d + cost
            if nd < dist.get(other, INFINITE):
                dist[other] = nd
                (todo.appendleft if cost == 0 else todo.append)((nd, other))
    return dist


_NEIGHBOURS: dict[Point, tuple[Point, ...]] = {
    square: tuple(other for other in (neighbour(square, side) for side in SIDES) if other is not None)
    for square in BOARD.points
}
"""Each square's neighbours on the board (N, E, S, W order), for the path counts' inner loop."""
