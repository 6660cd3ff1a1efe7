"""Forced wins: can a player make a line within D plies whatever the others play?

The target player ``P`` plays against all the others as one coalition: P needs one move that
works, the coalition one move that refutes. An opponent's line, a draw, or D plies without P's
line all count against P. The search is :class:`solver.lsd.search.AndOrSearch` (depth-bounded
AND/OR search with a transposition table and iterative deepening); this module gives it the
game, seen from P's side, with its cut-offs:

- a win at once ends P's node (:func:`solver.lsd.rules.winning_placements`), and an opponent's
  win at once refutes the coalition's node;
- the last ply: before P's final ply, the coalition's mover needs one move after which P has no
  win at once; only moves near P's almost-lines can change that, so the others are judged
  together by the field as it is (:func:`threat_zone`);
- hopeless nodes: P cannot win within the plies left even with help. First a count (some run of
  cells must already hold enough of P's tiles for the plies P has left), then, from
  ``reach_from`` plies on, the solver (:func:`solver.lsd.reach.reach_win` answering "no").

Every "win" comes with a first move that the plain rules replay; the search itself plays
only through :mod:`solver.lsd.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

from solver.core.errors import InputError
from solver.core.limits import Deadline, TimeUp, as_deadline

from .model import SKIP, Cell, Move, Placement, Position, move_text, neighbour, SIDES
from .reach import NO, reach_win
from .rules import captures, near_lines, placements_on, play, winner, winning_placements
from .search import AndOrSearch, SearchStats, Settled

WIN, NO_WIN, UNKNOWN = "win", "no forced win", "unknown"
MAX_DEPTH = 12
DEFAULT_REACH_FROM: int | None = None
"""The remaining depth from which ``hopeless`` also asks the solver (None: never); chosen by
measurement (``benchmarks/lsd_bench.py``, README): see seeds/lsd.md."""


def plies_of(position: Position, player: int, depth: int) -> int:
    """How many of the next ``depth`` plies are ``player``'s (every ply passes the turn on)."""
    offset = (player - position.to_move) % position.players
    return 0 if offset >= depth else (depth - 1 - offset) // position.players + 1


def line_possible(position: Position, player: int, own_plies: int) -> bool:
    """Whether some run of cells in a row or column already holds ``player``'s tiles on all but at
    most ``own_plies`` of its cells: otherwise no line can be finished in ``own_plies`` placements."""
    length = position.line_length
    need = length - own_plies
    if need <= 0:
        return own_plies > 0
    mine = {c for c, t in position.field.items() if t.player == player}
    for x, y in mine:
        for dx, dy in ((1, 0), (0, 1)):
            for start in range(length):
                run = [(x + (i - start) * dx, y + (i - start) * dy) for i in range(length)]
                if sum(c in mine for c in run) >= need:
                    return True
    return False


def threat_zone(position: Position, player: int) -> set[Cell]:
    """The cells where a placement could change whether ``player`` has a win at once.

    ``player`` wins at once by placing on an empty cell that completes a run of its tiles. A
    placement elsewhere changes that only through the cells it fills or empties: its own cell
    and the tiles it captures, which are next to it. What matters is the runs missing one cell
    (their tiles, and the missing cell if empty, or the tile on it, which a capture could
    remove) and the neighbours of those missing cells (which decide what fits there). The zone
    is those cells and their neighbours; a placement outside it leaves ``player``'s wins at once
    as they are.
    """
    length = position.line_length
    field = position.field
    mine = {c for c, t in field.items() if t.player == player}
    core: set[Cell] = set()
    starts = {(x - i * dx, y - i * dy, dx, dy) for x, y in mine for dx, dy in ((1, 0), (0, 1)) for i in range(length)}
    for x, y, dx, dy in starts:
        run = [(x + i * dx, y + i * dy) for i in range(length)]
        missing = [c for c in run if c not in mine]
        if len(missing) == 1:
            core.update(run)
            core.update(neighbour(missing[0], s) for s in SIDES)
    return core | {neighbour(c, s) for c in core for s in SIDES}


@dataclass
class LsdGame:
    """LSD seen from ``target``'s side, for :class:`~solver.lsd.search.AndOrSearch`."""

    target: int
    reach_from: int | None = DEFAULT_REACH_FROM
    backend: str = "sat"
    deadline: Deadline = field(default_factory=Deadline.never)
    reach_calls: int = 0
    reach_cuts: int = 0

    def key(self, state: Position) -> Hashable:
        """The field, the supplies and the mover (captured tiles no longer matter)."""
        return (frozenset(state.field.items()), state.supplies, state.to_move)

    def result(self, state: Position) -> bool | None:
        won = winner(state)
        return None if won is None else won == self.target

    def target_moves(self, state: Position) -> bool:
        return state.to_move == self.target

    def moves(self, state: Position) -> Sequence[Move]:
        placed = list(placements_on(state.field, state.supplies[state.to_move - 1]))
        if placed:
            return placed
        others = (p for p in range(1, state.players + 1) if p != state.to_move)
        if any(next(placements_on(state.field, state.supplies[p - 1]), None) for p in others):
            return [SKIP]
        return []  # nobody can place: a draw

    def play(self, state: Position, move: Move) -> Position:
        return play(state, move)

    def settle(self, state: Position, depth: int) -> Settled[Move] | None:
        mover = state.to_move
        wins = winning_placements(state, mover)
        if mover == self.target:
            if wins:
                return Settled(True, wins[0])
            return Settled(False) if depth == 1 else None
        if wins:
            return Settled(False, wins[0])  # the coalition ends the game with a line of its own
        if plies_of(state, self.target, depth) == 0:
            return Settled(False)
        if depth == 2 and state.next_player() == self.target:
            return self._last_ply(state)
        return None

    def _last_ply(self, state: Position) -> Settled[Move]:
        """The coalition's mover, right before the target's last ply: is there a move after which
        the target has no win at once? Moves outside :func:`threat_zone` leave the target's wins
        at once as they are now, so they are judged together."""
        moves = self.moves(state)
        if not moves:
            return Settled(False)
        target_wins_now = bool(winning_placements(state, self.target))
        zone = threat_zone(state, self.target)
        far = next((m for m in moves if m == SKIP or m.cell not in zone), None)  # type: ignore[union-attr]
        if far is not None and not target_wins_now:
            return Settled(False, far)
        for move in moves:
            if move == SKIP or move.cell not in zone:  # type: ignore[union-attr]
                continue
            after = play(state, move)
            if not winning_placements(after, self.target):
                return Settled(False, move)
        return Settled(True)

    def hopeless(self, state: Position, depth: int) -> bool:
        own = plies_of(state, self.target, depth)
        if own == 0 or not line_possible(state, self.target, own):
            return True
        if self.reach_from is not None and depth >= self.reach_from:
            self.reach_calls += 1
            if reach_win(state, self.target, depth, self.backend, self.deadline).answer == NO:
                self.reach_cuts += 1
                return True
        return False

    def order(self, state: Position, moves: Sequence[Move]) -> Sequence[Move]:
        """Moves on the cells of the target's fullest runs first; then those capturing most of
        the target's tiles (for the coalition) or anyone's (for the target)."""
        heat = _heat(state, self.target)
        mine = state.to_move == self.target
        colour = state.icon_colour(state.to_move)

        def score(move: Move) -> float:
            if not isinstance(move, Placement):
                return 0.0
            taken = captures(state.field, move.cell, move.icon, colour, state.icon_colours)
            hurt = sum(1 for c in taken if state.field[c].player == self.target)
            return heat.get(move.cell, 0) + (len(taken) if mine else 4 * hurt)

        return sorted(moves, key=score, reverse=True)


def _heat(position: Position, player: int) -> dict[Cell, int]:
    """For each empty cell, how much it would add to ``player``'s runs: the sum over runs through
    it of the square of the number of ``player``'s tiles in the run."""
    length = position.line_length
    field = position.field
    mine = {c for c, t in field.items() if t.player == player}
    heat: dict[Cell, int] = {}
    starts = {(x - i * dx, y - i * dy, dx, dy) for x, y in mine for dx, dy in ((1, 0), (0, 1)) for i in range(length)}
    for x, y, dx, dy in starts:
        run = [(x + i * dx, y + i * dy) for i in range(length)]
        count = sum(c in mine for c in run)
        for c in run:
            if c not in field:
                heat[c] = heat.get(c, 0) + count * count
    return heat


@dataclass
class ForcedAnswer:
    """``answer``: "win" (``move`` wins by force within ``depth`` plies), "no forced win", or
    "unknown" (the time limit came first)."""

    player: int
    depth: int
    answer: str
    move: Move | None = None
    within: int | None = None
    strategy: dict[str, Any] | None = None
    stats: SearchStats = field(default_factory=SearchStats)
    reach_calls: int = 0
    reach_cuts: int = 0

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON, with the strategy's first two levels when it wins."""
        return {
            "player": self.player,
            "depth": self.depth,
            "answer": self.answer,
            "move": None if self.move is None else move_text(self.move),
            "within": self.within,
            "positions": self.stats.nodes,
            "reach_calls": self.reach_calls,
            "reach_cuts": self.reach_cuts,
            "strategy": self.strategy,
        }


def check_depth(depth: int) -> int:
    """``depth`` when it is from 0 to :data:`MAX_DEPTH`."""
    if not 0 <= depth <= MAX_DEPTH:
        raise InputError(f"--depth must be from 0 to {MAX_DEPTH}, not {depth}")
    return depth


def forced_win(
    position: Position,
    player: int,
    depth: int,
    time_limit: "Deadline | float | None" = None,
    reach_from: int | None = DEFAULT_REACH_FROM,
    backend: str = "sat",
    strategy: bool = False,
) -> ForcedAnswer:
    """Can ``player`` force a line within ``depth`` plies, the others playing together against it?

    "win" with a first move (replayed by the rules) and, with ``strategy``, the strategy's first
    two levels: the first move, every reply of the next player, and the player's answer to each
    when it moves next; "no forced win" (proven by exhausting the search); "unknown" when the
    time limit comes first.
    """
    check_depth(depth)
    if not 1 <= player <= position.players:
        raise InputError(f"--player must be from 1 to {position.players}, not {player}")
    deadline = as_deadline(time_limit)
    game = LsdGame(player, reach_from, backend, deadline)
    search: AndOrSearch[Position, Move] = AndOrSearch(game, deadline)
    answer = ForcedAnswer(player, depth, UNKNOWN, stats=search.stats)
    try:
        won = winner(position)
        if won is not None:
            answer.answer = WIN if won == player else NO_WIN
            answer.within = 0 if won == player else None
            return answer
        within = next((d for d in range(1, depth + 1) if search.wins(position, d, deepen=False)), None)
        if within is None:
            answer.answer = NO_WIN
            return answer
        answer.answer, answer.within = WIN, within
        if position.to_move == player:
            answer.move = search.best_move(position)
            play(position, answer.move)  # the rules must accept it
        if strategy:
            answer.strategy = _strategy(search, position, player, within)
    except TimeUp:
        answer.answer, answer.move, answer.strategy = UNKNOWN, None, None
    finally:
        answer.reach_calls, answer.reach_cuts = game.reach_calls, game.reach_cuts
    return answer


def _strategy(search: AndOrSearch[Position, Move], position: Position, player: int, within: int) -> dict[str, Any]:
    """The first two levels of a winning strategy, each reply re-proven (fast: the table is warm)."""
    if position.to_move != player:
        replies = _replies(search, position, player, within)
        return {"move": None, "replies": replies}
    move = search.best_move(position)
    after = play(position, move)
    if winner(after) == player:
        return {"move": move_text(move), "wins_at_once": True, "replies": []}
    return {"move": move_text(move), "wins_at_once": False, "replies": _replies(search, after, player, within - 1)}


def _replies(search: AndOrSearch[Position, Move], state: Position, player: int, depth: int) -> list[dict[str, Any]]:
    out = []
    for reply in search.game.moves(state):
        after = play(state, reply)
        entry: dict[str, Any] = {"move": move_text(reply), "answer": None}
        if after.to_move == player and winner(after) is None:
            if not search.wins(after, depth - 1, deepen=False):
                raise AssertionError(f"the reply {move_text(reply)} refutes a strategy proven to win")
            answer = search.best_move(after)
            entry["answer"] = None if answer is None else move_text(answer)
        out.append(entry)
    return out
