"""Forced wins: can the player to move make its win certain within K of its own moves, whatever
the other side plays?

A Laido game ends only when both players pass in a row, so a side that is behind never has to
let it end while an empty point is left. What a player can force is a *decided* position: one
that it wins however the game goes on, even if it only passes from then on and the other side
adds any stones it likes (the other side's ``reach`` with every empty point answers "no").
So the question is: can the target, whatever the other side plays, within K own moves (a
stone or a pass each) either end the game as its winner or leave the other side to move in a
decided position? (seeds/laido.md, "Forced wins", states this reading and why.)

The search is :class:`placesat.core.dfpn.ProofNumberSearch` by default (depth-bounded df-pn;
``searcher="id"``: :class:`placesat.core.andor.AndOrSearch`, iterative deepening; both with a
transposition table, docs/performance.md compares them); this module gives it the game, seen from the
target's side, with its cut-offs, all through :mod:`placesat.laido.reach` and the plain rules:

- ``result``: the game over (scored), or, with the other side to move, a decided position.
  Deciding is checked cheapest first: the game ending now (the plain scorer), the other side's
  winning stones found before (replayed by the plain rules), the solver with two stones, and
  only then the solver with every empty point;
- ``settle``: a pass that ends the game in the mover's favour right away;
- ``hopeless``: the target cannot win within its own moves left even if the other side only
  passes (``reach`` with that many stones answers "no"): the other side's "always pass" is one
  defence, so no strategy of the target's beats every defence;
- the must-play point (``prune``, :meth:`LaidoGame.must_play`): at the other side's turn with
  a target's move still to come, when a stone of the target's would decide the position were
  it the target's turn, every other stone of the other side's loses to it and is not searched;
- the plans cut (``outbuild``, :meth:`LaidoGame.outbuilt`, :mod:`placesat.laido.plans`): the
  other side has more places than the target has moves left where it can still build a group
  worth more than the best the target can reach, so no position can become decided;
- ``order``: the stones of the winning sets the solver found (both sides': a threat is where to
  build or where to block) first, then a pass, then the rest in board order.

Every "win" is replayed before it is reported (:func:`placesat.core.andor.replay_strategy`):
the target's moves from the search, every legal reply of the other side from
:mod:`placesat.laido.rules`, each end of game scored, each decided leaf checked again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Hashable, Sequence

from placesat.core.andor import ReplayedStrategy, SearchStats, Settled, StrategyNode, check_own_moves, replay_strategy
from placesat.core.dfpn import DEFAULT_TABLE_MB, ForcedSearch, new_search
from placesat.core.backend import Status
from placesat.core.errors import InputError
from placesat.core.lattice import Point
from placesat.core.limits import Deadline, TimeUp, as_deadline
from placesat.core.play import Outcome

from .model import BLACK, COLOURS, PASS, SWAP, WHITE, Move, Position, move_json, opponent
from .plans import PlanPool
from .reach import NO, UNKNOWN as UNKNOWN_REACH, YES, reach_best, reach_win
from .rules import IllegalMove, Verdict, board_order, finish_with, group_value, groups, legal_moves, play, verdict_of
from .score import best_connection_part

WIN, NO_WIN, UNKNOWN = "win", "no forced win", "unknown"
MAX_MOVES = 8
"""The most own moves a search may be asked for (a mid-game 9-side board settles one or two)."""
SEARCH = "dfpn"
"""The forced search by default (:data:`placesat.core.dfpn.SEARCHES`): see docs/performance.md, "Proof-number search"."""
DEFAULT_BACKEND = "sat"
"""The solver behind the cut-offs: the SAT backend answers the small reach questions the
search asks faster than CP-SAT on the shipped positions, on one core, and the same way every run."""
QUICK_STONES = (2, 6)
"""Before asking whether a side can win with every empty point, ask with these many: a small
question usually finds its win, and costs far less on a large board (measured on mid9-2, SAT:
4 stones 0.7 s of CPU, 16 stones 2.8 s, 64 stones 9.7 s)."""
WITNESSES_KEPT = 24
"""Winning stone sets remembered per side, newest first (tried again by the plain rules)."""
PRUNE = True
"""Whether searches cut the other side's stones that cannot stop a threat (:meth:`LaidoGame.must_play`);
False gives the plain search (the tests and benchmarks compare the two)."""
OUTBUILD = True
"""Whether searches cut the positions where the other side has more plans worth more than the
target's best group than the target has moves left (:meth:`LaidoGame.outbuilt`); False gives
the search without it (the tests and benchmarks compare the two)."""
OUTBUILD_TRIES = 8
"""With two own moves or more left, the plans are packed starting from each of this many plans
in turn (with one, from the first only: there a cut saves a few leaves, not a subtree)."""
NODE_BOUND_POINTS = 19
"""On boards of at most this many points (side 3), a node the root's bound does not cut asks
the solver for its own bound on the target's groups (milliseconds there; a second or more on a
9-side board, where the root's bound alone is used)."""
NO_GROUP = -(10**6)
"""Below any group's value: what the target's best is worth when it can have no group."""
THREATS_TRIED = 3
"""Target's one-stone winning sets tried as threats at one node of the other side's (each try
may ask whether a position is decided, the dearest question)."""

SEATS = {BLACK: 1, WHITE: 2}
"""The seats of play-vs and selfplay are the colours: Black is 1, White is 2."""


def seat_of(colour: str) -> int:
    """The seat (from 1) that plays ``colour``."""
    return SEATS[colour]


def colour_of(seat: int) -> str:
    """The colour played from ``seat``."""
    return COLOURS[seat - 1]


def move_text(move: Move) -> str:
    """A move as a player types it: ``q,r``, ``pass`` or ``swap`` (what ``laido play`` reads)."""
    return move if isinstance(move, str) else f"{move[0]},{move[1]}"


def own_moves_within(plies: int, target_to_move: bool) -> int:
    """How many of the next ``plies`` plies are the target's (the players alternate; the search
    never plays the pie swap, the only move after which the same colour moves again)."""
    return (plies + 1) // 2 if target_to_move else plies // 2


class LaidoRules:
    """The plain rules seen as seats (Black 1, White 2), what :func:`replay_strategy` needs:
    the seat to move, the legal moves (the swap included), a move, and the end of the game,
    scored in the longest reading with the half point for the first pass."""

    name = "laido"

    def __init__(self, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend
        # by board size and stones: a rules object is meant for one board, but a caller may share it
        self._values: dict[tuple[int, frozenset[Point]], int] = {}
        self._all_values: dict[tuple[int, frozenset[Point]], list[int]] = {}

    def players(self, position: Position) -> int:
        """Two."""
        return 2

    def to_move(self, position: Position) -> int:
        """The seat of the colour to move."""
        return seat_of(position.to_move)

    def moves(self, position: Position) -> Sequence[Move]:
        """Every empty point, a pass (not as the first move), a swap when the pie rule allows it."""
        return legal_moves(position)

    def play(self, position: Position, move: Move) -> Position:
        """The position after ``move`` (:func:`placesat.laido.rules.play`)."""
        return play(position, move)

    def values(self, position: Position, colour: str, deadline: Deadline | None = None) -> list[int]:
        """``colour``'s group values, each group's longest connection part found once (a group
        is worth the same wherever it stands on the same board), and the whole list kept per
        stone set: a colour's stones alone make its groups, so its values are the same in
        every position with those stones on a board of that size."""
        stones = position.stones(colour)
        known = self._all_values.get((position.size, stones))
        if known is not None:
            # a forced search scores the same stone set again and again (every decided test
            # ends the game by passes, and the other side's moves leave this side's stones)
            return list(known)
        lattice = position.lattice
        found = []
        for group in groups(lattice, stones):
            value = self._values.get((position.size, group))
            if value is None:
                status, part = best_connection_part(lattice, group, backend=self.backend, deadline=deadline)
                if status is Status.UNKNOWN:
                    raise TimeUp("the time limit came first")
                value = self._values[position.size, group] = group_value(group, part)
            found.append(value)
        if len(self._all_values) >= Memory.FORGET_AT:
            self._all_values.clear()
        self._all_values[position.size, stones] = found
        return list(found)

    def verdict(self, position: Position, deadline: Deadline | None = None) -> Verdict:
        """Who wins ``position`` if both players pass from here (the game over: who won)."""
        return verdict_of(position, self.values(position, BLACK, deadline), self.values(position, WHITE, deadline))

    def outcome(self, position: Position) -> Outcome | None:
        """The winner once two passes in a row ended the game; None before."""
        if not position.is_over:
            return None
        verdict = self.verdict(position)
        return Outcome(seat_of(verdict.winner), verdict.describe())

    def winner_after(self, position: Position, colour: str, stones: Sequence[Point], deadline: Deadline | None = None) -> str | None:
        """Who wins when ``colour`` places ``stones`` on its turns and then passes, the other side
        passing on each of its turns, until the game ends (None: the game ends first, or a stone
        is taken)."""
        try:
            _, final = finish_with(position, colour, list(stones))
        except IllegalMove:
            return None
        return self.verdict(final, deadline).winner


@dataclass
class Memory:
    """What searches on one board can share, whichever side they are for: group values, the
    winning stone sets found, which positions are decided, the most stones proven not to win.
    Each fact depends on the position only (its key holds the colour to move and the passes)."""

    rules: LaidoRules = field(default_factory=LaidoRules)
    witnesses: dict[str, list[tuple[Point, ...]]] = field(default_factory=lambda: {BLACK: [], WHITE: []})
    decided: dict[Hashable, bool] = field(default_factory=dict)
    reach_no: dict[Hashable, int] = field(default_factory=dict)

    FORGET_AT = 200_000
    """Past this many remembered positions, forget them (a long selfplay run)."""

    def trim(self) -> None:
        """Forget the positions when there are too many (the winning sets stay)."""
        if len(self.decided) + len(self.reach_no) > self.FORGET_AT:
            self.decided.clear()
            self.reach_no.clear()


@dataclass
class LaidoGame:
    """Laido seen from ``target``'s side, for :class:`placesat.core.andor.AndOrSearch`."""

    target: str
    backend: str = DEFAULT_BACKEND
    deadline: Deadline = field(default_factory=Deadline.never)
    memory: Memory = field(default_factory=Memory)
    reach_calls: int = 0
    reach_cuts: int = 0
    prune: bool = field(default_factory=lambda: PRUNE)
    pruned: int = 0  # the other side's moves not searched (must_play)
    outbuild: bool = field(default_factory=lambda: OUTBUILD)
    outbuilt_cuts: int = 0  # positions cut by :meth:`outbuilt`
    anchor: Position | None = None  # the search's root: the target's bound is worked out there
    _pool: PlanPool | None = None
    _bounds: dict[Hashable, int] = field(default_factory=dict)
    _kept: tuple[Hashable, list[Move]] | None = None  # the moves must_play left to a node, by its key

    @property
    def rules(self) -> LaidoRules:
        return self.memory.rules

    @property
    def witnesses(self) -> dict[str, list[tuple[Point, ...]]]:
        return self.memory.witnesses

    @property
    def other(self) -> str:
        return opponent(self.target)

    def key(self, position: Position) -> Hashable:
        """The stones, the colour to move and the passes (the swap flag changes no colour's play)."""
        return (position.black, position.white, position.to_move, position.passes, position.first_pass)

    def result(self, position: Position) -> bool | None:
        """The game over: whether the target won; the other side to move in a decided position: won."""
        if position.is_over:
            return self.rules.verdict(position, self.deadline).winner == self.target
        if position.to_move != self.target and self.decided(position):
            return True
        return None

    def target_moves(self, position: Position) -> bool:
        """The target's plies are the OR nodes."""
        return position.to_move == self.target

    def moves(self, position: Position) -> Sequence[Move]:
        """The legal moves but the pie swap (it exchanges the players, not the colours: the
        search is about a colour, and a swap leaves the same colour to move on the same board);
        at the other side's turn, those :meth:`must_play` left."""
        if self._kept is not None and self._kept[0] == self.key(position):
            return self._kept[1]
        return [m for m in legal_moves(position) if m != SWAP]

    def play(self, position: Position, move: Move) -> Position:
        """The move through the rules (the moves come from :meth:`moves`, so they are legal)."""
        return play(position, move)

    def settle(self, position: Position, depth: int) -> Settled[Move] | None:
        """After a pass, the mover who wins if the game ends now ends it with a pass of its own."""
        if position.passes == 1 and self.rules.winner_after(position, position.to_move, (), self.deadline) == position.to_move:
            return Settled(position.to_move == self.target, PASS)
        return None

    def hopeless(self, position: Position, depth: int) -> bool:
        """The target cannot win within its own moves left even if the other side only passes.

        Proof: against the other side's passes, a target that wins (the game ended, or a decided
        position after its move, which the other side's pass and its own then end as its win)
        has won with at most that many stones, so ``reach`` with that many would say yes."""
        self._kept = None
        own = own_moves_within(depth, position.to_move == self.target)
        if own == 0:
            # the other side places a stone where it can, and the target has no move left
            return bool(position.empty_points)
        if not self._can_win(position, self.target, own):
            return True
        if self.outbuild and self.outbuilt(position, own):
            self.outbuilt_cuts += 1
            return True
        if self.prune and position.to_move != self.target and depth >= 2:
            kept = self.must_play(position)
            if kept is not None:
                self._kept = (self.key(position), kept)
        return False

    def must_play(self, position: Position) -> list[Move] | None:
        """At the other side's turn, the target's next move coming within the plies left: the
        other side's moves that are not lost to a threat, or None when no threat is known.

        A threat is a point ``s`` such that the target's stone there, were it the target's turn
        now (the same stones, passes and first pass), leaves the other side to move in a decided
        position Q (:meth:`decided`: the other side cannot win even if the target only passes).
        Then any stone ``r`` of the other side's but ``s`` loses: the target answers ``s``, and
        the other side is to move in Q plus ``r``, with the same passes and first pass. Laido
        scores the final stones (and the first pass), whatever the order they came in, and
        every stone is a placement on an empty point. From Q plus ``r``, the other side adding
        stones A (one at least) ends the game exactly as adding ``r`` and A from Q does, the
        target passing first both times unless a first pass is already recorded; and Q is
        decided, so that loses. Only adding nothing differs: from Q plus ``r`` the other side
        then passes first, where from Q, adding ``r``, the target did. So when no first pass
        is recorded yet, ``r`` is kept if the other side wins by passing at once after ``s``
        (the plain scorer). The other side's pass is always kept (it records the first pass,
        which Q did not have), and so is ``s`` itself. The cut stones lose: not searching
        them leaves every node's value as it was, and the replay still plays them all.

        The threats tried are the target's one-stone winning sets found so far (a win when the
        other side only passes: a decided Q is one), at most :data:`THREATS_TRIED` of them; no
        solver call is made to look for more (one per node would cost more than it saves where
        no threat is decided)."""
        null = replace(position, to_move=self.target)
        empty = set(position.empty_points)
        candidates = [stones[0] for stones in self.witnesses[self.target] if len(stones) == 1 and stones[0] in empty]
        for threat in candidates[:THREATS_TRIED]:
            if not self.decided(play(null, threat)):
                continue
            moves = [m for m in legal_moves(position) if m != SWAP]
            kept: list[Move] = []
            for move in moves:
                if move == PASS or move == threat:
                    kept.append(move)
                elif position.first_pass is None:
                    tie = self.rules.winner_after(play(play(position, move), threat), position.to_move, (), self.deadline)
                    if tie == position.to_move:
                        kept.append(move)  # its first pass might win a tie: searched
            self.pruned += len(moves) - len(kept)
            return kept
        return None

    def outbuilt(self, position: Position, own: int) -> bool:
        """Whether the other side has ``own + 1`` plans, each worth more than the best group
        the target can have, that the target's ``own`` stones cannot all spoil
        (:mod:`placesat.laido.plans`: the module's text is the proof that the target then has
        no forced win within ``own`` own moves).

        The bound on the target's groups is ``reach --best`` on the anchor (the search's root)
        with the target's stones since the anchor plus ``own``: every stone the target has at a
        leaf below is one of the anchor's, one placed since, or one of its ``own`` moves to come,
        and its values depend on its stones only. On small boards (:data:`NODE_BOUND_POINTS`)
        a node the root's bound does not cut asks for its own: the target's stones there plus
        ``own``, on the board without the other side's stones (which only take points away, so
        the bound stays an upper one). Not tried when the target to move can end the game with
        a pass (the one ending the defence cannot stop), nor on a position that does not follow
        the anchor."""
        anchor = self.anchor = self.anchor or position
        if not (anchor.black <= position.black and anchor.white <= position.white):
            return False
        if position.to_move == self.target and position.passes == 1:
            if self.rules.winner_after(position, self.target, (), self.deadline) == self.target:
                return False
        count = len(position.stones(self.target)) - len(anchor.stones(self.target)) + own
        bound = self._target_best(count)
        if self._pool is None:
            self._pool = PlanPool(anchor, self.other)
        pool = self._pool
        # a cut high in the tree saves a large subtree: worth a few starts of the packing there
        tries = OUTBUILD_TRIES if own >= 2 else 1
        if pool.outbuilt(position, bound, own + 1, 2 * own, tries) is not None:
            return True
        if len(position.lattice.points) > NODE_BOUND_POINTS:
            return False
        # the bound of this node's own (a solver call each): only when its least possible
        # value, the target's best group as it stands, would leave the other side plans enough
        floor = max(self.rules.values(position, self.target, self.deadline), default=NO_GROUP)
        if floor >= bound or pool.outbuilt(position, floor, own + 1, 2 * own) is None:
            return False
        # the other side's stones left out (they only take points away): one call serves
        # every reply of the other side's to the same stones of the target's
        tighter = self._target_best(own, Position(position.size, **{self.target: position.stones(self.target)}))
        return tighter < bound and pool.outbuilt(position, tighter, own + 1, 2 * own) is not None

    def _target_best(self, stones: int, position: Position | None = None) -> int:
        """The highest value a group of the target's can have with at most ``stones`` more
        stones on the empty points of ``position`` (by default the anchor), proved by the
        solver, kept per stones and position."""
        at = position or self.anchor
        key = (stones, at.black, at.white)
        known = self._bounds.get(key)
        if known is None:
            # the turn and the passes play no part in what the stones are worth
            neutral = replace(at, to_move=self.target, passes=0, first_pass=None)
            answer = reach_best(neutral, self.target, stones, self.backend, deadline=self.deadline)
            self.reach_calls += 1
            if answer.answer == UNKNOWN_REACH:
                raise TimeUp("the time limit came first")
            # "no": the target can have no group at all, below any group of the other side's
            known = self._bounds[key] = answer.value if answer.answer == YES else NO_GROUP
        return known

    def order(self, position: Position, moves: Sequence[Move]) -> Sequence[Move]:
        """The stones of the winning sets found (the mover's own first: where to build; then the
        other side's: where to block), then a pass, then the other moves in board order."""
        mover = position.to_move
        rank: dict[Move, int] = {}
        for colour in (mover, opponent(mover)):
            for stones in self.witnesses[colour]:
                for point in stones:
                    rank.setdefault(point, len(rank))
        rank.setdefault(PASS, len(rank))
        last = len(rank)
        return sorted(moves, key=lambda m: (rank.get(m, last), () if isinstance(m, str) else board_order(m)))

    # ------------------------------------------------------------------ the questions behind the cut-offs

    def decided(self, position: Position) -> bool:
        """With the other side to move: does the target win however the game goes on, even if it
        only passes from here? The other side's win is looked for cheapest first: passing now
        (the plain scorer), a winning set of stones found before (the plain rules), the solver
        with :data:`QUICK_STONES` stones, the solver with every empty point ("no" decides)."""
        key = self.key(position)
        known = self.memory.decided.get(key)
        if known is not None:
            return known
        other = position.to_move
        empty = set(position.empty_points)
        answer = self.rules.winner_after(position, other, (), self.deadline) != other
        if answer:
            for stones in self.witnesses[other]:
                if empty.issuperset(stones) and self.rules.winner_after(position, other, stones, self.deadline) == other:
                    answer = False
                    break
        if answer:
            answer = not self._can_win(position, other, len(empty))
        self.memory.decided[key] = answer
        return answer

    def _can_win(self, position: Position, colour: str, stones: int) -> bool:
        """Whether ``colour`` wins by adding at most ``stones`` while the other side only passes:
        the remembered winning sets first (the plain rules), then the solver, a few stones first."""
        empty = set(position.empty_points)
        for found in self.witnesses[colour]:
            if len(found) <= stones and empty.issuperset(found) and self.rules.winner_after(position, colour, found, self.deadline) == colour:
                return True
        key = (self.key(position), colour)
        if self.memory.reach_no.get(key, -1) >= stones:
            return False
        for asked in sorted({min(quick, stones) for quick in QUICK_STONES} | {stones}):
            if asked <= self.memory.reach_no.get(key, -1):
                continue
            if self._reach(position, colour, asked):
                return True
            self.memory.reach_no[key] = asked
        self.reach_cuts += 1
        return False

    def _reach(self, position: Position, colour: str, stones: int) -> bool:
        """``reach`` (yes or no, not the fewest); a winning set is remembered for the plain rules."""
        self.reach_calls += 1
        answer = reach_win(position, colour, stones, self.backend, fewest=False, deadline=self.deadline)
        if answer.answer == YES:
            kept = self.witnesses[colour]
            if answer.stones not in kept:
                kept.insert(0, answer.stones)
                del kept[WITNESSES_KEPT:]
            return True
        if answer.answer == NO:
            return False
        raise TimeUp("the time limit came first")  # reach gives "unknown" only at the time limit


@dataclass
class ForcedAnswer:
    """``answer``: "win" (``move`` starts a strategy that wins within ``within`` own moves,
    replayed against every reply), "no forced win" (the search was complete), or "unknown" (the
    time limit came first; ``no_win_within``: the most own moves proven not to win before it)."""

    player: str
    moves: int
    answer: str
    move: Move | None = None
    within: int | None = None
    line: list[Move] = field(default_factory=list)
    strategy: StrategyNode | None = None
    replayed_positions: int = 0
    stats: SearchStats = field(default_factory=SearchStats)
    positions: int = 0
    reach_calls: int = 0
    reach_cuts: int = 0
    no_win_within: int | None = None
    pruned: int = 0  # the other side's moves the must-play cut left unsearched
    outbuilt: int = 0  # positions cut because the other side has plans enough (LaidoGame.outbuilt)

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON: with "win", the first move, the line of play (the other side's
        longest defence) and the strategy's first levels (every reply, with the answer to it)."""
        return {
            "player": self.player,
            "moves": self.moves,
            "answer": self.answer,
            "move": None if self.move is None else move_json(self.move),
            "within": self.within,
            "line": [move_json(m) for m in self.line],
            "strategy": None if self.strategy is None else strategy_json(self.strategy, STRATEGY_LEVELS),
            "replayed_positions": self.replayed_positions,
            "positions": self.positions,
            "reach_calls": self.reach_calls,
            "reach_cuts": self.reach_cuts,
            "no_win_within": self.no_win_within,
        }


STRATEGY_LEVELS = 3
"""Levels of the strategy tree written out in JSON: the first move, every reply, the answer to each."""


def strategy_json(node: StrategyNode, levels: int) -> dict[str, Any] | None:
    """The strategy's first ``levels`` levels as JSON (a replayed tree can hold a reply for every
    empty point at every level of the other side's)."""
    if node.reached:
        return {"reached": True}
    if levels <= 0:
        return None
    if node.move is not None:
        return {"move": move_json(node.move), "then": None if node.then is None else strategy_json(node.then, levels - 1)}
    return {"replies": [{"reply": move_json(r), "then": strategy_json(n, levels - 1)} for r, n in node.replies]}


def check_moves(moves: int) -> int:
    """``moves`` when it is from 1 to :data:`MAX_MOVES`."""
    return check_own_moves(moves, MAX_MOVES)


def forced_win(
    position: Position,
    moves: int,
    time_limit: "Deadline | float | None" = None,
    backend: str = DEFAULT_BACKEND,
    memory: Memory | None = None,
    searcher: str | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> ForcedAnswer:
    """Can the player to move force a win within ``moves`` of its own moves, whatever the other
    side plays? A win is the game over with this player the winner, or the other side to move
    in a decided position (this player wins however the game goes on: see the module's text).

    "win" with its first move and a strategy replayed on the plain rules against every legal
    reply; "no forced win" (the search was complete); "unknown" when the time limit comes first,
    with the most own moves proven not to win before it (``no_win_within``). ``memory``: what
    earlier searches on the same board found (``best`` runs many).
    """
    check_moves(moves)
    deadline = as_deadline(time_limit)
    if position.is_over:
        raise InputError("the game is over (two passes in a row): nobody moves any more")
    player = position.to_move
    memory = memory or Memory(LaidoRules(backend))
    memory.trim()
    game = LaidoGame(player, backend, deadline, memory, anchor=position)
    search = new_search(game, deadline, searcher or SEARCH, table_mb)
    answer = ForcedAnswer(player, moves, UNKNOWN, stats=search.stats)
    within = None
    try:
        for own in range(1, moves + 1):
            if search.wins(position, 2 * own - 1, deepen=False):
                within = own
                break
            answer.no_win_within = own
        answer.positions = search.stats.nodes
        if within is None:
            answer.answer = NO_WIN
        else:
            replayed = replay_win(search, game, position, within, deadline)
            answer.answer, answer.within, answer.no_win_within = WIN, within, None
            answer.strategy, answer.replayed_positions = replayed.tree, replayed.positions
            answer.move = replayed.tree.move
            answer.line = line_of_play(replayed.tree)
    except TimeUp:
        answer.answer, answer.move, answer.within = UNKNOWN, None, None
        answer.positions = search.stats.nodes
    answer.reach_calls, answer.reach_cuts, answer.pruned = game.reach_calls, game.reach_cuts, game.pruned
    answer.outbuilt = game.outbuilt_cuts
    return answer


def replay_win(
    search: ForcedSearch, game: LaidoGame, root: Position, within: int, deadline: Deadline
) -> ReplayedStrategy:
    """The strategy the search proved, replayed on the plain rules against every legal reply of
    the other side (the pie swap too): raises :class:`placesat.core.andor.StrategyFailed` when it
    does not win. At each of the target's turns the move is the one that wins soonest from there
    (re-proven, fast with the table warm), so no branch runs out of own moves."""

    def choose(position: Position) -> Move | None:
        for own in range(1, within + 1):
            if search.wins(position, 2 * own - 1, deepen=False):
                return search.best_move(position)
        return None

    def reached(position: Position) -> bool:
        if position.is_over:
            return game.rules.verdict(position, deadline).winner == game.target
        return position.to_move != game.target and game.decided(position)

    return replay_strategy(game.rules, root, seat_of(game.target), within, choose, reached, deadline)


def line_of_play(tree: StrategyNode) -> list[Move]:
    """The main line of a replayed strategy: the target's moves and, at each turn of the other
    side, the reply that holds out longest (the first such in the rules' order)."""
    left: dict[int, int] = {}  # the replay shares a node between the lines that reach it

    def own_moves_left(node: StrategyNode) -> int:
        """How many own moves the target still plays on the longest branch below ``node``."""
        known = left.get(id(node))
        if known is None:
            if node.reached:
                known = 0
            elif node.move is not None:
                known = 1 + (own_moves_left(node.then) if node.then is not None else 0)
            else:
                known = max((own_moves_left(n) for _, n in node.replies), default=0)
            left[id(node)] = known
        return known

    line: list[Move] = []
    current: StrategyNode | None = tree
    while current is not None and not current.reached:
        if current.move is not None:
            line.append(current.move)
            current = current.then
        elif current.replies:
            reply, current = max(current.replies, key=lambda item: own_moves_left(item[1]))
            line.append(reply)
        else:
            break
    return line
