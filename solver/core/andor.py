"""A game-independent, depth-bounded AND/OR search: can one side force a goal within D plies?

The *target* moves at OR nodes (one good move suffices), everyone else at AND nodes (every
move must fail them). A node's value within ``depth`` plies is proven true or false and kept in
a transposition table, by state: the least depth proven to win and the greatest depth proven
not to (a win within ``d`` plies is a win within more, a failure within ``d`` a failure within
fewer). The root is searched with growing depth, so quick wins are found first and the table
orders the moves of the next round (the move that decided a node is tried first).

The game supplies a :class:`Game`: states and moves, the end of the game, and three cut-offs:
``settle`` decides a node outright where the game can (a win at once; the last ply),
``hopeless`` says the target cannot reach its goal even if everybody helped (the branch is
cut), and ``order`` sorts moves best first. Nothing here knows any rule of any game: LSD's
``forced`` was its first user, and every game's ``forced`` uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Hashable, Protocol, Sequence, TypeVar

from placesat.core.limits import Deadline

S = TypeVar("S")
M = TypeVar("M")

# The clock is read at every node: a look costs well under a microsecond, while a node costs
# from tens of microseconds (a small field) to a tenth of a second (hundreds of tiles), so a
# count of nodes between looks cannot bound the time; the game reads it too inside its own
# long loops (move generation, ordering)


@dataclass(frozen=True)
class Settled(Generic[M]):
    """A node decided without search: its value, and the move that proves it (the target's
    winning move at an OR node, a refutation at an AND node) when there is one."""

    value: bool
    move: M | None = None


class Game(Protocol[S, M]):
    """What the search needs to know about a game, seen from the target's side."""

    def key(self, state: S) -> Hashable:
        """Equal for states that play on the same (the transposition table's key)."""

    def result(self, state: S) -> bool | None:
        """True when the target has reached its goal, False when the game ended otherwise,
        None while it goes on."""

    def target_moves(self, state: S) -> bool:
        """Whether the target is to move (an OR node)."""

    def moves(self, state: S) -> Sequence[M]:
        """The legal moves; empty only when the game is over."""

    def play(self, state: S, move: M) -> S:
        """The state after ``move``."""

    def settle(self, state: S, depth: int) -> Settled[M] | None:
        """The node's value within ``depth`` plies when the game can tell it without search."""

    def hopeless(self, state: S, depth: int) -> bool:
        """True only if the target cannot reach its goal within ``depth`` plies whatever anybody plays."""

    def order(self, state: S, moves: Sequence[M]) -> Sequence[M]:
        """The moves, most promising first (for the side to move)."""


@dataclass
class SearchStats:
    """What a search did: nodes visited, table hits, cut-offs, settled nodes."""

    nodes: int = 0
    table_hits: int = 0
    hopeless: int = 0
    settled: int = 0
    by_depth: dict[int, int] = field(default_factory=dict)


@dataclass
class _Entry:
    win_within: int | None = None  # least depth proven a win
    fail_within: int = -1  # greatest depth proven not a win
    move: object = None  # the move that decided the node last


class AndOrSearch(Generic[S, M]):
    """Depth-bounded AND/OR search with a transposition table and iterative deepening."""

    def __init__(self, game: Game[S, M], deadline: Deadline | None = None) -> None:
        self.game = game
        self.deadline = deadline or Deadline.never()
        self.table: dict[Hashable, _Entry] = {}
        self.stats = SearchStats()

    def wins(self, state: S, depth: int, deepen: bool = True) -> bool:
        """Whether the target can force its goal within ``depth`` plies (``deepen``: try 1, 2, ... first)."""
        if not deepen or depth <= 0:
            return self._prove(state, depth)
        return any(self._prove(state, limit) for limit in range(1, depth + 1))

    def best_move(self, state: S) -> M | None:
        """The move that decided ``state`` last (a winning move at an OR node, a refutation at an AND node)."""
        entry = self.table.get(self.game.key(state))
        return None if entry is None else entry.move  # type: ignore[return-value]

    def _prove(self, state: S, depth: int) -> bool:
        game = self.game
        stats = self.stats
        stats.nodes += 1
        stats.by_depth[depth] = stats.by_depth.get(depth, 0) + 1
        self.deadline.check()
        ended = game.result(state)
        if ended is not None:
            return ended
        if depth <= 0:
            return False
        key = game.key(state)
        entry = self.table.get(key)
        if entry is not None:
            if entry.win_within is not None and entry.win_within <= depth:
                stats.table_hits += 1
                return True
            if entry.fail_within >= depth:
                stats.table_hits += 1
                return False
        else:
            entry = self.table[key] = _Entry()
        settled = game.settle(state, depth)
        if settled is not None:
            stats.settled += 1
            return self._store(entry, depth, settled.value, settled.move)
        if game.hopeless(state, depth):
            stats.hopeless += 1
            return self._store(entry, depth, False, None)
        moves = list(game.moves(state))
        if not moves:
            return self._store(entry, depth, False, None)
        moves = list(game.order(state, moves))
        if entry.move is not None and entry.move in moves:
            moves.remove(entry.move)  # type: ignore[arg-type]
            moves.insert(0, entry.move)  # type: ignore[arg-type]
        target = game.target_moves(state)
        for move in moves:
            value = self._prove(game.play(state, move), depth - 1)
            if value == target:  # a winning move (OR) or a refutation (AND) decides the node
                return self._store(entry, depth, value, move)
        return self._store(entry, depth, not target, None)

    @staticmethod
    def _store(entry: _Entry, depth: int, value: bool, move: object) -> bool:
        if value:
            entry.win_within = depth if entry.win_within is None else min(entry.win_within, depth)
        else:
            entry.fail_within = max(entry.fail_within, depth)
        if move is not None:
            entry.move = move
        return value
