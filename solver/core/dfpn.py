"""Depth-first proof-number search (df-pn) for the same question as :class:`AndOrSearch`: can
the target force its goal within D plies?

It plays the same :class:`placesat.core.andor.Game` and answers through the same surface
(``wins``, ``best_move``, ``stats``, ``deadline``), so a game's ``forced`` switches with one
line and keeps its own rules. Where the iterative-deepening search proves its moves one after
the other in the game's order, df-pn keeps for every position two numbers: how many more
leaves at least must be proven to prove it (the proof number) and to disprove it (the
disproof number), and it always works below the position whose proof or disproof looks
cheapest. At a target's turn one winning move proves the node (proof number: the least of
the children's; disproof number: their sum); at another seat's turn one refutation disproves
it (the other way round). Depth-first with thresholds (Nagai 2002): a subtree is searched
until its numbers pass the thresholds its parent gave it, and the numbers are kept in the
table, so going back up costs no memory of the path. The "1+epsilon" trick (Pawlewicz and
Lew 2007) gives the best child a threshold a quarter above the second best's number instead
of one more, so the search switches between two close children less often.

**The depth bound.** A position is proven or disproven *within d plies*, so a node is a
position with its plies left. The table is kept by position alone, as in
:class:`AndOrSearch`: the least depth proven to win and the greatest depth proven not to (a
win within d plies is a win within more, a failure within d a failure within fewer), so a
proof found for K own moves serves every larger K and the replay, and a disproof every
smaller one; besides them a position keeps the numbers of the one depth it was last worked
at (the numbers are estimates: losing them costs time, never an answer). Since every ply
takes one from the depth, the graph searched is acyclic, so df-pn's troubles with cycles
(the graph-history interaction) cannot arise, and nodes met along two move orders share
their numbers and their proofs.

**Children are made as they are needed.** A position's moves are listed and ordered once,
when it is first expanded, and kept in its entry; a move's position is made (and its key
read) only when the search goes below it. A position never searched is guessed to have as
many moves as its parent (its "mobility", as in df-pn's usual start): one move to find for
the side to move, every move to refute for the other. So a position just expanded and its
siblings never searched look alike, the 1+epsilon threshold lets the search go deep below
the first before it turns to the next (as the depth-first search does, which the games' move
orders are made for), and among moves that look alike the game's ``order`` decides. The
game's ``result``, ``settle`` and ``hopeless`` are asked once per position and depth: their
answers are proofs or disproofs, kept like any other.

**The table has a cap** (``table_mb``, megabytes, estimated: each entry counts a fixed size,
its key, its moves and the keys of the positions it made below it; the key's and a move's
sizes are measured by ``tracemalloc`` on the first ones made, and the whole is raised by half
for what that misses). When a store would pass it, the entries with the least work below
them (nodes searched) are dropped until a quarter of the room is free; the table never grows
past the cap (measured on LSD's mid20 to depth 7: a 2 MB cap held 1.7 MB, traced, where the
whole search keeps 25 MB; with room, the estimate is 1.6 times what is held). A dropped entry
is searched again when needed: its proof, if it had one, is found again, so answers stay
exact, only slower; a visit keeps its children's numbers while it lasts, so a small table
slows the search but cannot make it go round in circles. The entries that cost most are kept
longest: a strategy's proofs near its root, which the replay of a win asks for first.
"""

from __future__ import annotations

import math
import tracemalloc
from typing import Generic, Hashable, TypeVar, Union

from placesat.core.andor import AndOrSearch, Game, SearchStats, record_result
from placesat.core.limits import Deadline

S = TypeVar("S")
M = TypeVar("M")

INFINITE = 1 << 60
"""A proof or disproof number meaning "cannot be proven" (the other number is then 0)."""

DEPTH_ALWAYS = 1 << 30
"""A depth beyond any search: a game over, not the goal, is a failure within every depth."""

EPSILON = 0.25
"""The 1+epsilon trick's epsilon: the best child may pass the second best by a quarter."""

DEFAULT_TABLE_MB = 256
"""The transposition table's cap in (estimated) megabytes when none is given."""

FREE_SHARE = 0.25
"""The share of the table freed at once when it is full (one sort serves many stores)."""

ENTRY_BYTES = 320
"""The fixed part of one entry: the entry object, its place in the dict, its two lists."""

MEASURED_SLACK = 1.5
"""What the estimate misses (keys deeper in the search are larger than the root's, which is
measured; the dict's spare room), measured: LSD's mid20 to depth 5 held 1.72 MB (traced) where
its entries counted 1.19 MB without it."""

GUESS_MOST = 1 << 40
"""The largest guess (far below :data:`INFINITE`, so a sum of guesses never reads as settled)."""

SEARCHES = ("dfpn", "id")
"""The searches a forced question can use: df-pn, or iterative-deepening AND/OR search."""


def allocated(call):
    """``call()``'s value and the bytes it left allocated (what it made and kept: for a key or
    a list of moves, their own memory, not the game's objects they share), by ``tracemalloc``."""
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        value = call()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        if not tracing:
            tracemalloc.stop()
    return value, max(after - before, 0)


def guess(moves: int, depth: int) -> int:
    """The numbers of a position never searched within ``depth`` plies, whose side to move
    has about ``moves`` moves: to settle it against that side (disprove the target's turn,
    prove the others'), every move at every second ply, the last ply but one settled by the
    game at once: ``moves`` to the power ``depth // 2``, at least ``moves``."""
    return min(moves ** max(1, depth // 2), GUESS_MOST)


class _Entry:
    """What the table knows of one position (the depths are plies left)."""

    __slots__ = ("win_within", "fail_within", "move", "depth", "proof", "disproof", "work", "moves", "keys", "made", "cost")

    def __init__(self) -> None:
        self.win_within: int | None = None  # least depth proven a win
        self.fail_within = -1  # greatest depth proven not a win
        self.move: object = None  # the move that proved (OR) or disproved (AND) it, as in AndOrSearch
        self.depth = -1  # the depth the two numbers below are for
        self.proof = 1
        self.disproof = 1
        self.work = 0  # nodes searched below it, all depths together
        self.moves: list | None = None  # the legal moves, ordered (None: not expanded yet)
        self.keys: list | None = None  # each move's position's key, once it was made
        self.made = 0  # how many keys were made
        self.cost = 0  # the bytes it counts in the table

    def numbers(self, depth: int) -> tuple[int, int] | None:
        """The proof and disproof numbers within ``depth`` plies (None: not known at that depth)."""
        if self.win_within is not None and self.win_within <= depth:
            return 0, INFINITE
        if self.fail_within >= depth:
            return INFINITE, 0
        if self.depth == depth:
            return self.proof, self.disproof
        return None


class ProofNumberSearch(Generic[S, M]):
    """Depth-bounded df-pn with a capped transposition table (see the module's text)."""

    def __init__(self, game: Game[S, M], deadline: Deadline | None = None, table_mb: float = DEFAULT_TABLE_MB,
                 epsilon: float = EPSILON) -> None:
        if not table_mb > 0:
            raise ValueError(f"the table's size must be above 0 MB, not {table_mb:g}")
        self.game = game
        self.deadline = deadline or Deadline.never()
        self.table: dict[Hashable, _Entry] = {}
        self.capacity = int(table_mb * 2**20)
        self.used = 0  # the bytes the entries count, never above capacity after a store
        self.most_used = 0
        self.evicted = 0
        self.epsilon = epsilon
        self.stats = SearchStats()
        self._key_bytes: int | None = None
        self._move_bytes: int | None = None

    # --- the surface AndOrSearch has ------------------------------------------------------

    def wins(self, state: S, depth: int, deepen: bool = True) -> bool:
        """Whether the target can force its goal within ``depth`` plies (``deepen``: try 1, 2, ... first)."""
        if not deepen or depth <= 0:
            return self._prove(state, depth)
        return any(self._prove(state, limit) for limit in range(1, depth + 1))

    def best_move(self, state: S) -> M | None:
        """The move that decided ``state`` last: a winning move at the target's turn (for the
        least depth proven), a refutation at another seat's (for the greatest depth disproven)."""
        entry = self.table.get(self.game.key(state))
        return None if entry is None else entry.move  # type: ignore[return-value]

    # --- the search -----------------------------------------------------------------------

    def _prove(self, state: S, depth: int) -> bool:
        if self._key_bytes is None:
            key, self._key_bytes = allocated(lambda: self.game.key(state))
        else:
            key = self.game.key(state)
        while True:
            entry = self.table.get(key)
            known = None if entry is None else entry.numbers(depth)
            if known is not None and known[0] == 0:
                return True
            if known is not None and known[1] == 0:
                return False
            # thresholds no unsolved numbers reach: it returns with the root solved
            self._search(state, key, depth, INFINITE, INFINITE)

    def _search(self, state: S, key: Hashable, depth: int, proof_limit: int, disproof_limit: int) -> None:
        """Search below ``state`` until its numbers within ``depth`` plies reach a limit (or it is solved)."""
        game = self.game
        stats = self.stats
        stats.nodes += 1
        stats.by_depth[depth] = stats.by_depth.get(depth, 0) + 1
        self.deadline.check()
        entry = self.table.get(key)
        if entry is not None:
            known = entry.numbers(depth)
            if known is not None and (known[0] == 0 or known[1] == 0):
                stats.table_hits += 1
                return
        else:
            entry = _Entry()
            ended = game.result(state)
            if ended is not None:  # over whatever the depth
                self._decide(key, entry, DEPTH_ALWAYS if not ended else 0, ended, None)
                return
        if depth <= 0:
            self._decide(key, entry, depth, False, None)
            return
        if entry.moves is None:
            # first time at this depth or any: the game's own cut-offs, then its moves
            if self._cut_off(state, depth, key, entry):
                return
            if self._move_bytes is None:
                moves, made_bytes = allocated(lambda: list(game.moves(state)))
                self._move_bytes = made_bytes // max(len(moves), 1)
            else:
                moves = list(game.moves(state))
            if not moves:
                self._decide(key, entry, depth, False, None)
                return
            entry.moves = list(game.order(state, moves))
            entry.keys = [None] * len(entry.moves)
        elif entry.depth != depth:
            # expanded at another depth: settle and hopeless had not been asked at this one
            if self._cut_off(state, depth, key, entry):
                return
            # and the moves may be others: a game's cut can hold only so many plies from the
            # end (Quarry keeps its second-to-last stones that threaten, and the stones that
            # leave its line within reach of the moves left), so they are listed again, the
            # positions already made kept
            moves = list(game.moves(state))
            if not moves:
                self._decide(key, entry, depth, False, None)
                return
            if moves != entry.moves:
                try:
                    made = {move: child for move, child in zip(entry.moves, entry.keys or []) if child is not None}
                except TypeError:  # (moves that cannot be hashed: their positions are made again)
                    made = {}
                entry.moves = list(game.order(state, moves))
                entry.keys = [made.get(move) for move in entry.moves]
        entry.depth = depth
        before = stats.nodes
        target = game.target_moves(state)
        moves, keys = entry.moves, entry.keys
        assert moves is not None and keys is not None
        table = self.table
        below = depth - 1
        if below == 0:
            # the last ply: a move's position is over or not, nothing to weigh, so the moves
            # are tried in order, as the depth-first search does (no numbers to keep up)
            for index, move in enumerate(moves):
                child_state = game.play(state, move)
                child_key = keys[index]
                if child_key is None:
                    child_key = keys[index] = game.key(child_state)
                    self._made(key, entry)
                self._search(child_state, child_key, 0, INFINITE, INFINITE)
                child = table.get(child_key)
                won = child is not None and child.win_within == 0
                if won == target:  # a winning move (target) or a refutation (the others)
                    entry.work += stats.nodes - before
                    self._decide(key, entry, depth, target, move)
                    return
            entry.work += stats.nodes - before
            self._decide(key, entry, depth, not target, None)
            return
        # the children's numbers, read from the table once a visit and then kept here as they
        # come back from below ("phi" is the number the side to move lowers: proof at the
        # target's turn, disproof at the others'; "delta" the other): a child the table drops
        # meanwhile is not searched again for nothing, and a visit costs no re-reading
        estimate = guess(len(moves), below)  # a move's position's numbers, guessed from this one's moves
        phis, deltas = [], []
        for child_key in keys:
            child_phi, child_delta = estimate, 1
            child = None if child_key is None else table.get(child_key)
            if child is not None:
                known = child.numbers(below)
                if known is not None:
                    child_phi, child_delta = known if target else (known[1], known[0])
                elif child.moves:
                    child_phi = guess(len(child.moves), below)
            phis.append(child_phi)
            deltas.append(child_delta)
        made: dict[int, S] = {}  # the children's positions made in this visit (a visit goes below many times)
        while True:
            phi = min(phis)
            if phi == 0:  # a winning move (target) or a refutation (the others) decides it
                entry.work += stats.nodes - before
                self._decide(key, entry, depth, target, moves[phis.index(0)])
                return
            delta = sum(deltas)
            if delta == 0:  # every move fails (target) or every reply loses (the others)
                entry.work += stats.nodes - before
                self._decide(key, entry, depth, not target, None)
                return
            delta = min(delta, INFINITE - 1)
            proof, disproof = (phi, delta) if target else (delta, phi)
            if proof >= proof_limit or disproof >= disproof_limit:
                break
            best = phis.index(phi)  # the first of the cheapest: the game's order breaks ties
            phis[best] = INFINITE + 1
            second = min(phis)
            phis[best] = phi
            phi_limit, delta_limit = (proof_limit, disproof_limit) if target else (disproof_limit, proof_limit)
            child_key = keys[best]
            child_state = made.get(best)
            if child_state is None:
                child_state = made[best] = game.play(state, moves[best])
            if child_key is None:
                child_key = keys[best] = game.key(child_state)
                self._made(key, entry)
            child_phi_limit = min(phi_limit, max(second + 1, math.ceil(second * (1 + self.epsilon))))
            child_delta_limit = delta_limit - delta + deltas[best]
            if target:
                self._search(child_state, child_key, below, child_phi_limit, child_delta_limit)
            else:
                self._search(child_state, child_key, below, child_delta_limit, child_phi_limit)
            child = table.get(child_key)
            known = None if child is None else child.numbers(below)
            if known is not None:
                phis[best], deltas[best] = known if target else (known[1], known[0])
            else:  # not kept (a table too small for the path): as if it had reached its limit
                phis[best] = child_phi_limit
        entry.depth, entry.proof, entry.disproof = depth, proof, disproof
        entry.work += stats.nodes - before
        self._store(key, entry)

    def _cut_off(self, state: S, depth: int, key: Hashable, entry: _Entry) -> bool:
        """Whether the game's own cut-offs decide the position within ``depth`` plies
        (``settle``, then ``hopeless``); the answer is kept like any proof or disproof."""
        settled = self.game.settle(state, depth)
        if settled is not None:
            self.stats.settled += 1
            self._decide(key, entry, depth, settled.value, settled.move)
            return True
        if self.game.hopeless(state, depth):
            self.stats.hopeless += 1
            self._decide(key, entry, depth, False, None)
            return True
        return False

    def _decide(self, key: Hashable, entry: _Entry, depth: int, value: bool, move: object) -> None:
        """Keep that ``key``'s position is a win within ``depth`` plies (``value``) or not, and the move that shows it."""
        record_result(entry, depth, value, move)
        self._store(key, entry)

    # --- the table's cap ------------------------------------------------------------------

    def _cost(self, entry: _Entry) -> int:
        cost = ENTRY_BYTES + (self._key_bytes or 0)
        if entry.moves is not None:
            # a move's own memory and its place in two lists (the move, its position's key)
            cost += len(entry.moves) * (16 + (self._move_bytes or 0))
        # the keys it made stay with it after their own entries are dropped: counted twice
        # while both are kept, so the estimate errs on the safe side
        cost += entry.made * (self._key_bytes or 0)
        return int(cost * MEASURED_SLACK)

    def _made(self, key: Hashable, entry: _Entry) -> None:
        entry.made += 1
        if self.table.get(key) is entry:
            self._store(key, entry)  # its cost grew

    def _store(self, key: Hashable, entry: _Entry) -> None:
        """Put ``entry`` in the table, its cost counted; drop the least-worked entries if the table is full."""
        cost = self._cost(entry)
        table = self.table
        if table.get(key) is entry:
            self.used += cost - entry.cost
        else:
            old = table.get(key)
            if old is not None:
                self.used -= old.cost
            table[key] = entry
            self.used += cost
        entry.cost = cost
        if self.used > self.capacity:
            self._free(key)
        self.most_used = max(self.most_used, self.used)

    def _free(self, keep: Hashable) -> None:
        """Drop the entries with the least work below them (never ``keep``, the one just
        stored, which its parent reads next) until a share of the room is free."""
        goal = self.capacity * (1 - FREE_SHARE)
        table = self.table
        for key in sorted(table, key=lambda k: table[k].work):
            if self.used <= goal:
                break
            if key == keep:
                continue
            self.used -= table.pop(key).cost
            self.evicted += 1


def new_search(game: Game[S, M], deadline: Deadline | None = None, search: str = "dfpn",
               table_mb: float = DEFAULT_TABLE_MB) -> "ProofNumberSearch[S, M] | AndOrSearch[S, M]":
    """The forced search ``search`` names (one of :data:`SEARCHES`) over ``game``: df-pn or the
    iterative-deepening AND/OR search, either with a table of at most ``table_mb`` megabytes."""
    if search == "dfpn":
        return ProofNumberSearch(game, deadline, table_mb)
    if search == "id":
        return AndOrSearch(game, deadline, table_mb)
    from placesat.core.errors import InputError

    raise InputError(f"--search must be one of {', '.join(SEARCHES)}, not {search!r}")


ForcedSearch = Union[ProofNumberSearch, AndOrSearch]
"""Either search: both answer ``wins``, ``best_move`` and keep ``stats``."""
