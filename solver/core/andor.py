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
from typing import Generic, Hashable, Iterable, Protocol, Sequence, TypeVar

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

    def order(self, state: S, moves: Sequence[M]) -> Iterable[M]:
        """The moves, most promising first (for the side to move). Asked only when the move
        that decided the node before (tried first) does not decide it again."""


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
    work: int = 0  # nodes searched below it (what a full table keeps longest)


ENTRY_BYTES = 400
"""One entry's own memory besides its key (the entry object and its place in the dict), with
room for what the measured key size misses."""


def record_result(entry, depth: int, value: bool, move: object) -> None:
    """Keep in a table entry that its position is a win within ``depth`` plies (``value``) or
    not, and the move that shows it: a win within d is a win within more (the least depth is
    kept), a failure within d a failure within fewer (the greatest). Both searches' entries."""
    if value:
        entry.win_within = depth if entry.win_within is None else min(entry.win_within, depth)
    else:
        entry.fail_within = max(entry.fail_within, depth)
    if move is not None:
        entry.move = move
    entry.work += 1


class AndOrSearch(Generic[S, M]):
    """Depth-bounded AND/OR search with a transposition table and iterative deepening.

    ``table_mb`` caps the table (None: no cap): an entry counts :data:`ENTRY_BYTES` and its
    key's size, measured on the first key; when full, the entries with the least work below
    them are dropped until a quarter of the room is free (a dropped node is searched again
    when met again: slower, never wrong)."""

    def __init__(self, game: Game[S, M], deadline: Deadline | None = None, table_mb: float | None = None) -> None:
        self.game = game
        self.deadline = deadline or Deadline.never()
        self.table: dict[Hashable, _Entry] = {}
        self.stats = SearchStats()
        self.capacity = None if table_mb is None else int(table_mb * 2**20)
        self.entry_bytes: int | None = None
        self.most_entries = 0
        self.evicted = 0

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
        if self.capacity is not None and self.entry_bytes is None:
            from placesat.core.dfpn import allocated

            key, key_bytes = allocated(lambda: game.key(state))
            self.entry_bytes = ENTRY_BYTES + key_bytes
        else:
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
            entry = _Entry()
            self._keep(key, entry)
        settled = game.settle(state, depth)
        if settled is not None:
            stats.settled += 1
            return self._store(key, entry, depth, settled.value, settled.move)
        if game.hopeless(state, depth):
            stats.hopeless += 1
            return self._store(key, entry, depth, False, None)
        moves = list(game.moves(state))
        if not moves:
            return self._store(key, entry, depth, False, None)
        before = stats.nodes
        target = game.target_moves(state)
        # the move that decided the node last first: searched again at a greater depth, it
        # mostly decides it again, and then the game need not order the moves at all
        first = entry.move if entry.move is not None and entry.move in moves else None
        for move in self._moves_from(state, moves, first):
            value = self._prove(game.play(state, move), depth - 1)
            if value == target:  # a winning move (OR) or a refutation (AND) decides the node
                entry.work += stats.nodes - before
                return self._store(key, entry, depth, value, move)
        entry.work += stats.nodes - before
        return self._store(key, entry, depth, not target, None)

    def _moves_from(self, state: S, moves: list[M], first: M | None):
        """The moves to search, in turn: ``first`` (when given), then the game's order of the
        others, asked only when the search goes on past ``first``."""
        if first is not None:
            yield first
        for move in self.game.order(state, moves):
            if first is None or move != first:
                yield move

    def _store(self, key: Hashable, entry: _Entry, depth: int, value: bool, move: object) -> bool:
        record_result(entry, depth, value, move)
        if self.table.get(key) is not entry:  # dropped while its moves were searched
            self._keep(key, entry)
        return value

    def _keep(self, key: Hashable, entry: _Entry) -> None:
        """Put ``entry`` in the table; when the cap is passed, drop the entries with the least
        work below them (never this one) until a quarter of the room is free."""
        table = self.table
        table[key] = entry
        if self.capacity is None or self.entry_bytes is None:
            return
        if len(table) * self.entry_bytes > self.capacity:
            keep = max(int(0.75 * self.capacity / self.entry_bytes), 1)
            for dropped in sorted(table, key=lambda k: table[k].work)[: len(table) - keep]:
                if dropped != key:
                    del table[dropped]
                    self.evicted += 1
        self.most_entries = max(self.most_entries, len(table))


def check_own_moves(moves: int, most: int) -> int:
    """``moves`` (a forced question's ``--moves``/``-k``, the target's own moves) when it is from 1
    to ``most`` (each game's deepest search it accepts); one line naming the bounds otherwise."""
    if not 1 <= moves <= most:
        from placesat.core.errors import InputError

        raise InputError(f"--moves must be from 1 to {most}, not {moves}")
    return moves


# --- Checking a forced win on the plain rules -------------------------------------------------


class StrategyFailed(Exception):
    """A strategy that does not win when replayed: ``position`` is where it failed, ``reason``
    says how (no move given, an illegal move, the game ended otherwise, the own moves ran out)."""

    def __init__(self, position: object, reason: str) -> None:
        super().__init__(reason)
        self.position = position
        self.reason = reason


@dataclass
class StrategyNode(Generic[M]):
    """One position of a replayed strategy: where the goal is reached (``reached``), the target's
    move and what follows it (``move``, ``then``), or the others' turn with every legal reply
    and what follows each (``replies``, in the order the rules list them)."""

    reached: bool = False
    move: M | None = None
    then: "StrategyNode[M] | None" = None
    replies: list[tuple[M, "StrategyNode[M]"]] = field(default_factory=list)

    def to_json(self, text) -> dict:
        """The tree as JSON, moves written by ``text(move)``."""
        if self.reached:
            return {"reached": True}
        if self.move is not None:
            return {"move": text(self.move), "then": self.then.to_json(text) if self.then else None}
        return {"replies": [{"reply": text(reply), "then": node.to_json(text)} for reply, node in self.replies]}


@dataclass
class ReplayedStrategy(Generic[M]):
    """A strategy that won against every legal reply: its tree, how many positions the replay
    visited (each distinct position once), and the most own moves any branch needed."""

    tree: StrategyNode[M]
    positions: int
    own_moves_used: int


def replay_strategy(
    playable,
    root: S,
    target: int,
    own_moves: int,
    choose,
    reached=None,
    deadline: Deadline | None = None,
    key=None,
) -> ReplayedStrategy:
    """Replay a forced win on the plain rules: that ``target`` (a seat, from 1) reaches its
    goal within ``own_moves`` of its own moves from ``root`` whatever every other seat plays.

    ``playable`` is the game's :class:`placesat.core.play.Playable`, so every position, legal
    move list and end of game comes from the game's rule engine, not from the search that found
    the strategy. ``choose(position)`` gives the target's move where it is to move (from the
    search's table: :meth:`AndOrSearch.best_move`); where it gives None (a node the search settled
    without a move, such as a win at once), the target's legal moves are tried for one that
    reaches the goal at once. At every other seat's turn *every* legal move is replayed.
    ``reached(position)`` says whether the goal holds (default: the game is over and ``target``
    won). Raises :class:`StrategyFailed` at the first position where the strategy does not win,
    and :class:`placesat.core.limits.TimeUp` when ``deadline`` comes first. A position met again
    with the same own moves left is replayed once: positions are told apart by ``key(position)``
    (default: the position itself, when it is hashable; a game whose positions are not gives a
    hashable key equal for positions that play on the same).
    """
    deadline = deadline or Deadline.never()
    if reached is None:
        def reached(position) -> bool:
            ended = playable.outcome(position)
            return ended is not None and ended.winner == target
    seen: dict = {}
    deepest = 0
    visited = 0

    def goal_at_once(position):
        for move in playable.moves(position):
            deadline.check()
            if reached(playable.play(position, move)):
                return move
        return None

    def walk(position, left: int, used: int) -> StrategyNode:
        nonlocal deepest, visited
        deadline.check()
        try:
            memo_key = (position if key is None else key(position), left)
            hash(memo_key)
        except TypeError:
            memo_key = None
        if memo_key is not None and memo_key in seen:
            return seen[memo_key]
        visited += 1
        if reached(position):
            deepest = max(deepest, used)
            node = StrategyNode(reached=True)
        elif playable.outcome(position) is not None:
            raise StrategyFailed(position, "the game ended without the goal")
        elif playable.to_move(position) == target:
            if left <= 0:
                raise StrategyFailed(position, f"the {own_moves} own moves ran out before the goal")
            legal = list(playable.moves(position))
            move = choose(position)
            if move is None:
                move = goal_at_once(position)
                if move is None:
                    raise StrategyFailed(position, "the strategy gives no move here")
            elif move not in legal:
                raise StrategyFailed(position, "the strategy's move is not legal here")
            node = StrategyNode(move=move, then=walk(playable.play(position, move), left - 1, used + 1))
        else:
            legal = list(playable.moves(position))
            if not legal:
                raise StrategyFailed(position, "no legal move and no end of game")
            node = StrategyNode(replies=[(reply, walk(playable.play(position, reply), left, used)) for reply in legal])
        if memo_key is not None:
            seen[memo_key] = node
        return node

    tree = walk(root, own_moves, 0)
    return ReplayedStrategy(tree=tree, positions=visited, own_moves_used=deepest)
