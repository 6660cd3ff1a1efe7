"""Forced wins: can a player complete its line within K of its own stones whatever the other plays?

The *target* plays against the other player: it needs one move that works, the other one move
that refutes. The other's line, the end of the game by two passes, or K own moves without a
line all count against the target. The search is :class:`placesat.core.dfpn.ProofNumberSearch`
by default (depth-bounded df-pn; ``searcher="id"``: :class:`placesat.core.andor.AndOrSearch`,
iterative deepening; both with a transposition table, docs/performance.md compares them), counted in
plies (both players' moves); this module gives it the game, seen from the target's side, with
its cut-offs, all from the plain rules (:mod:`placesat.quarry.rules`, :mod:`placesat.quarry.threats`):

- a win at once ends the target's node (:func:`placesat.quarry.threats.winning_moves`), and the
  other's win at once refutes the other's node;
- a player facing wins at once of the other only has the moves that take every one of them away
  (the rest lose at once): when none does, the node is settled, and the search sees only those;
- the last ply: right before the target's last move, the other needs one move after which the
  target has no win at once. When the target has none now, a stone far from every place where a
  winning stone could lie cannot give it one (:func:`threat_zone`), and the first such stone is
  the refutation;
- hopeless nodes: seen from above, the target's line must cross every cell of some path between
  the zones that is not its colour yet, each of its stones turns at most its footprint's cells,
  and the other's stones never turn a cell to the target's colour (:func:`stones_at_least`). When
  the target's stones left within its moves cannot cover the cheapest such path, the branch is
  cut. (The reach solver's "no line within N stones" is not used as a cut: it assumes the other
  passes, and the other's stones can help, by levelling the ground a crossing stone rests on.)
- threats first (``threats_first``, :meth:`QuarryGame._threatening`): at the target's
  second-to-last move only the stones after which it has a win at once are searched; after any
  other the other's quiet stone refutes (the last ply above), so no win is lost. They are found
  mostly without playing them (:func:`threat_stones`), and the node is settled in place
  (:meth:`QuarryGame._second_to_last`): each threat's answer is the last-ply question above.
- move order only (no answer depends on it): the other's block found last right before the
  target's last move is tried first at the next such node, and the other's stone that refuted
  the target's move before a second-to-last move is put first at its next turns.
- the target's stones out of reach (``prune``, :meth:`QuarryGame._reaching`): the same count
  after each of its stones (:func:`gap_after_at_least`, no stone laid) against its own moves
  left; a stone that leaves the line out of reach is not searched.

Every move tried comes from :func:`placesat.quarry.rules.placements`; every "win" is replayed on
the rules (:func:`placesat.core.andor.replay_strategy`) by :func:`forced_win` before it is given.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

from placesat.core.andor import SearchStats, Settled, StrategyFailed, check_own_moves, replay_strategy
from placesat.core.dfpn import DEFAULT_TABLE_MB, new_search
from placesat.core.limits import Deadline, TimeUp, as_deadline

from .model import PASS, PLAYERS, Cell, Move, Placement, Position, opponent
from .referee import Game, QuarryReferee, seat
from .rules import State, has_placement, lay, legal_moves, line, orientation_of, placement_cells, placement_indices, placements, play, resting_level
from .stones import MAX_LEVELS
from .threats import colour_mask, masks_of_sides, side_masks, spread_mask, wins_between, winning_moves

WIN, NO_WIN, UNKNOWN = "win", "no forced win", "unknown"
MAX_MOVES = 8
"""The most own moves ``forced`` accepts (3 already takes minutes on a mid-game position of the
default board; see docs/quarry.md)."""
SEARCH = "dfpn"
"""The forced search by default (:data:`placesat.core.dfpn.SEARCHES`): see docs/performance.md, "Proof-number search"."""

PRUNE = True
"""Whether the target's stones that leave its line out of reach are cut (:meth:`QuarryGame._reaching`);
False gives the plain search (the tests and benchmarks compare the two)."""
THREATS_FIRST = True
"""Whether the target's second-to-last move keeps only the stones after which it has a win at
once (:meth:`QuarryGame._threatening`); False searches them all (the tests compare the two)."""
KILLERS = 4
"""How many of the last refutations right before the target's last move are tried first at the next such node."""
PACE = 32
"""Moves between two looks at the clock inside a node's own loops (each costs tens of microseconds)."""


def plies_for(state: State, player: str, own_moves: int) -> int:
    """How many plies hold ``own_moves`` moves of ``player``, the last ply being its own."""
    return 2 * own_moves - 1 if state.to_move == player else 2 * own_moves


def own_plies(state: State, player: str, depth: int) -> int:
    """How many of the next ``depth`` plies are ``player``'s (the players alternate, passes too)."""
    return (depth + 1) // 2 if state.to_move == player else depth // 2


def footprint(state: State, stone: str) -> int:
    """The most cells one stone of this kind covers, seen from above."""
    return max(len(o.columns) for o in state.stones[stone].orientations)


def line_gap(state: State, player: str) -> int | None:
    """The fewest cells not yet showing ``player``'s colour on any path of cells joined side to
    side from a first-zone row to a last-zone row: each must be covered by one of its stones for
    the line. A cell filled to the top (:data:`MAX_LEVELS`) can take no stone and blocks the
    path. None when no path is left."""
    board = state.board
    width = board.width
    first, last = board.goal_rows()
    far = board.cells + 1
    gap = [far] * board.cells
    queue: deque[int] = deque()
    top, height = state.top, state.height

    def cost(i: int) -> int | None:
        if top[i] == player:
            return 0
        return None if height[i] >= MAX_LEVELS else 1

    for r in first:
        for c in range(width):
            i = r * width + c
            step = cost(i)
            if step is not None and step < gap[i]:
                gap[i] = step
                (queue.appendleft if step == 0 else queue.append)(i)
    ends = {r * width + c for r in last for c in range(width)}
    while queue:
        i = queue.popleft()
        if i in ends:
            return gap[i]
        for j in board.adjacent[i]:
            step = cost(j)
            if step is not None and gap[i] + step < gap[j]:
                gap[j] = gap[i] + step
                (queue.appendleft if step == 0 else queue.append)(j)
    return None


def stones_at_least(state: State, player: str) -> int | None:
    """A lower bound on the stones ``player`` needs for its line, whatever the other plays: the
    fewest of its remaining stones, largest footprints first, whose footprints add up to
    :func:`line_gap` (the other's stones never turn a cell to ``player``'s colour). None when its
    stones cannot cover that gap at all."""
    return stones_for_gap(state, player, line_gap(state, player))


def stones_for_gap(state: State, player: str, gap: int | None) -> int | None:
    """:func:`stones_at_least` for a known :func:`line_gap`."""
    if gap is None:
        return None
    if gap == 0:
        return 0
    sizes = sorted((footprint(state, name) for name, n in state.supply(player).items() for _ in range(n)), reverse=True)
    covered = 0
    for count, size in enumerate(sizes, start=1):
        covered += size
        if covered >= gap:
            return count
    return None


def threat_zone(state: State, player: str) -> set[Cell]:
    """The cells a stone of the other player must touch to give ``player`` a win at once that it
    does not have now.

    A stone of ``player``'s wins exactly when its cells, with the regions of its colour they cover
    or touch, reach both zones (:func:`placesat.quarry.threats.sides`). Another's stone only makes
    regions smaller, so such a winning stone has a cell marked for the first zone and one marked
    for the second, within its own reach of each other; and it was not legal before, so it rests
    on a cell the other's stone changed. So the other's stone touches a cell within a stone's reach
    of both a first-side and a second-side cell; these are the zone."""
    board = state.board
    width = board.width
    first, second = side_masks(state, player)
    reach = max((len(o.columns) - 1 for name, n in state.supply(player).items() if n for o in state.stones[name].orientations), default=-1)
    if reach < 0:
        return set()
    n = board.cells
    both = spread_mask(first, reach, width, n) & spread_mask(second, reach, width, n)
    return {divmod(i, width) for i in range(n) if both >> i & 1}


def cells_of(state: State, move: Move) -> list[Cell]:
    """The cells a placement covers (none for a pass)."""
    if move == PASS:
        return []
    r0, c0 = move.at  # type: ignore[union-attr]
    return [(r0 + col.dr, c0 + col.dc) for col in orientation_of(state.stones, move).columns]  # type: ignore[arg-type]


def still_wins(state: State, player: str, placement: Placement) -> bool:
    """Whether ``placement`` is legal for ``player`` here and completes its line."""
    base, broken, _ = resting_level(state, player, orientation_of(state.stones, placement), placement.at)
    if broken is not None:
        return False
    after = state.copy()
    lay(after, player, placement, base)
    return line(after, player) is not None


@dataclass
class QuarryGame:
    """Quarry seen from ``target``'s side, for :class:`placesat.core.andor.AndOrSearch`."""

    target: str
    deadline: Deadline = field(default_factory=Deadline.never)
    prune: bool = field(default_factory=lambda: PRUNE)
    threats_first: bool = field(default_factory=lambda: THREATS_FIRST)
    pruned: int = 0  # the target's stones cut by _reaching
    quiet: int = 0  # the target's stones cut by _threatening
    _kept: tuple[Hashable, list[Move]] | None = None  # the moves settle left to a node, by its key
    _killers: list[Move] = field(default_factory=list)  # the last refutations found by _blocking_last
    _refuters: list[Move] = field(default_factory=list)  # the other's last stones before a refuted second-to-last move

    def key(self, state: State) -> Hashable:
        """What decides the rest of the game: heights, colours from above, the mover, the stones
        each player has used, passes in a row (which cube belongs to which stone does not matter)."""
        used = tuple(tuple(sorted((k, v) for k, v in state.used[p].items() if v)) for p in PLAYERS)
        return (tuple(state.height), tuple(state.top), state.to_move, used, state.passes, state.winner)

    def result(self, state: State) -> bool | None:
        """A line ends the game (the target's is its goal); two passes end it with no winner."""
        if state.winner is not None:
            return state.winner == self.target
        return False if state.passes >= 2 else None

    def target_moves(self, state: State) -> bool:
        """The target's own plies are the OR nodes."""
        return state.to_move == self.target

    def moves(self, state: State) -> Sequence[Move]:
        """The mover's legal moves, or those :meth:`settle` left (the others lose at once)."""
        if self._kept is not None and self._kept[0] == self.key(state):
            return self._kept[1]
        return legal_moves(state)

    def play(self, state: State, move: Move) -> State:
        """The move through the rules (:func:`placesat.quarry.rules.play`)."""
        return play(state, move)

    def settle(self, state: State, depth: int) -> Settled[Move] | None:
        """No ply of the target's left; the other's ply right before the target's last
        (:meth:`_quiet_last_ply`, :meth:`_last_ply`); the count (:func:`stones_at_least`
        against the target's plies left); wins at once; the moves left by the next player's wins
        at once (:meth:`_answers`), kept for :meth:`moves`."""
        self._kept = None
        mover = state.to_move
        other = opponent(mover)
        own = own_plies(state, self.target, depth)
        if own == 0:
            return Settled(False)
        if mover != self.target and own == 1:
            return self._before_last(state)
        bound = stones_at_least(state, self.target)
        if bound is None or bound > own:
            return Settled(False)  # cheaper than every move: the target cannot finish in time anyway
        wins = winning_moves(state, mover, first_only=True)
        if wins:
            return Settled(mover == self.target, wins[0][0])
        if mover == self.target and own == 1:
            return Settled(False)  # its last move, and no win at once
        against = [p for p, _ in winning_moves(state, other)]
        kept = self._answers(state, against) if against else None
        if kept is not None and not kept:
            return Settled(mover != self.target)  # every move leaves the next player a win at once
        legal = legal_moves(state) if mover == self.target and (self.prune or self.threats_first and own == 2) else None
        if self.prune and mover == self.target and not (self.threats_first and own == 2):
            # (at the second-to-last move the threats are found exactly, and each stone costs
            # about what the count does, so the count would only add its own cost)
            kept = self._reaching(state, legal if kept is None else kept, own - 1)
            if not kept:
                return Settled(False)  # no stone of the target's leaves its line within reach
        if self.threats_first and mover == self.target and own == 2:
            kept = self._threatening(state, legal if kept is None else kept, legal)
            return self._second_to_last(state, kept)
        if kept is not None:
            self._kept = (self.key(state), kept)
        return None

    def _before_last(self, state: State) -> Settled[Move]:
        """The other's move right before the target's last: without a win at once now the
        target needs the other's help, and a quiet stone refutes (:meth:`_quiet_last_ply`; the
        other's own win would too); else the other must leave it none (:meth:`_blocking_last`)."""
        target_wins = [p for p, _ in winning_moves(state, self.target)]
        if not target_wins:
            return self._quiet_last_ply(state)
        wins = winning_moves(state, state.to_move, first_only=True)
        if wins:
            return Settled(False, wins[0][0])
        return self._blocking_last(state, target_wins)

    def _second_to_last(self, state: State, threats: list[Move]) -> Settled[Move]:
        """The target's second-to-last move, with ``threats`` the only stones that may win
        (:meth:`_threatening`): it wins when one of them leaves the other no answer
        (:meth:`_before_last` on each, the value its child node would have), in the search's
        order. When none does, the stone the other laid last refuted the target's move before
        it: kept as a *refuter*, tried first at the other's next turns (:meth:`order`)."""
        for count, threat in enumerate(self.order(state, threats)):
            if count % PACE == 0:
                self.deadline.check()
            if self._before_last(play(state, threat)).value:
                return Settled(True, threat)
        if state.laid and state.laid[-1].player != self.target:
            refuter = state.laid[-1].placement
            self._refuters = [refuter] + [m for m in self._refuters if m != refuter][: KILLERS - 1]
        return Settled(False)  # no stone of the target's makes a win at once it keeps for its last move

    def _threatening(self, state: State, moves: list[Move], legal: list[Move] | None = None) -> list[Move]:
        """The target's second-to-last move: of ``moves``, those after which it has a win at once
        (a *threat*); the others are cut (``threats_first``). After a stone with no win at once
        for the target, the other moves right before the target's last with none to answer,
        and a move that leaves the board with none (a stone outside :func:`threat_zone`, or a
        pass) refutes it: :meth:`settle` decides that child False, and an OR node loses nothing
        by not trying a move that loses. A move that ends the game (a second pass, or a stone
        that wins at once, which :meth:`settle` has ruled out here) ends it: cut too.

        Which stones leave a win at once is :func:`threat_stones`, found without playing most
        of them: the answer of the child's own first question
        (:func:`placesat.quarry.threats.winning_moves` after the stone), not made a node of."""
        kept = threat_stones(state, self.target, moves, self.deadline, legal)
        self.quiet += len(moves) - len(kept)
        return kept

    def _reaching(self, state: State, moves: list[Move], own_after: int) -> list[Move]:
        """The target's ``moves`` after which its line may still be made with ``own_after`` more
        stones: the others are cut (``prune``). After a stone, the target needs at least
        :func:`stones_for_gap` of :func:`gap_after_at_least` more stones (its present supply
        counted, a stone more than it will have: a lower bound still), so the gap must be at
        most what its ``own_after`` largest footprints cover, whatever the other
        plays (the other's stones never turn a cell to the target's colour); more than it has
        moves left and the move cannot win in time. A stone far from every cheap path between
        the zones leaves the gap as it was: with a gap wider than one stone covers, it is cut."""
        distances = zone_distances(state, self.target)
        # the most cells own_after stones can cover, largest footprints first (stones_for_gap)
        sizes = sorted((footprint(state, name) for name, n in state.supply(self.target).items() for _ in range(n)), reverse=True)
        reach = sum(sizes[:own_after])
        kept = []
        for count, move in enumerate(moves):
            if count % PACE == 0:
                self.deadline.check()
            if gap_after_at_least(state, distances, move) <= reach:
                kept.append(move)
        self.pruned += len(moves) - len(kept)
        return kept

    def _answer_candidates(self, state: State, against: list[Placement]) -> list[Move]:
        """The mover's moves that may leave none of the next player's wins at once ``against``
        standing, in the rules' order (a pass when it has no stone to lay). A winning
        stone's line runs through its cells and the regions of the next player's colour it
        covers or touches (two regions never touch, so these are all the line's cells); a stone
        that covers none of them leaves that stone as legal (its cells' heights and colours
        unchanged) and as winning as it was, so only the others are played out."""
        mover = state.to_move
        nxt = opponent(mover)
        # a stone missing one of these leaves a win at once standing untouched: not generated
        needs = line_cells(state, nxt, against)
        moves: list[Move] = [p for p, _ in placements(state, mover, touching=needs)]
        if not moves and not state.is_over and not has_placement(state, mover):
            moves = [PASS]  # (the rules' only move; it touches nothing)
        return moves

    def _answers(self, state: State, against: list[Placement]) -> list[Move]:
        """The mover's moves after which none of the next player's wins at once ``against`` is
        left (another win it had not may still come up; the search looks there): of
        :meth:`_answer_candidates`, those the rules confirm."""
        nxt = opponent(state.to_move)
        kept = []
        for count, move in enumerate(self._answer_candidates(state, against)):
            if count % PACE == 0:
                self.deadline.check()
            after = play(state, move)
            if after.is_over or not any(still_wins(after, nxt, p) for p in against):
                kept.append(move)  # (a pass that ends the game leaves the next player no move at all)
        return kept

    def _blocking_last(self, state: State, against: list[Placement]) -> Settled[Move]:
        """The other's move right before the target's last, the target having the wins at once
        ``against`` (the other none): is there a move after which the target has no win at
        once? The target's last move wins only by a win at once, so any such move refutes,
        and the first found is enough: the refutations found last at such nodes (*killers*:
        the same block often answers the sibling threats) are tried first, if legal here; then
        :meth:`_answer_candidates` in the search's order (:meth:`_last_ply` on :meth:`_answers`
        finds the same move: a move that leaves one of ``against`` standing is never a
        refutation, and the order keeps the others' places). None: the target wins."""
        target = self.target
        mover = state.to_move
        for killer in self._killers:
            if killer == PASS or state.left(mover, killer.stone) <= 0:  # type: ignore[union-attr]
                continue
            if resting_level(state, mover, orientation_of(state.stones, killer), killer.at)[1] is not None:  # type: ignore[arg-type, union-attr]
                continue
            after = play(state, killer)
            if after.is_over or not (any(still_wins(after, target, p) for p in against) or winning_moves(after, target, first_only=True)):
                return Settled(False, killer)
        candidates = self._answer_candidates(state, against)
        for count, move in enumerate(self.heat_order(state, candidates)):
            if count % PACE == 0:
                self.deadline.check()
            after = play(state, move)
            if after.is_over or not (any(still_wins(after, target, p) for p in against) or winning_moves(after, target, first_only=True)):
                if move != PASS:
                    self._killers = [move] + [k for k in self._killers if k != move][: KILLERS - 1]
                return Settled(False, move)
        return Settled(True)

    def _quiet_last_ply(self, state: State) -> Settled[Move]:
        """The other's move right before the target's last, the target having no win at once now:
        a stone outside :func:`threat_zone` cannot give it one, so the first such (in the rules'
        order, generated no further) refutes; else each stone is tried (a pass leaves the board
        as it is)."""
        zone = threat_zone(state, self.target)
        near: list[Move] = []
        for count, (placement, _) in enumerate(placements(state, state.to_move)):
            if count % PACE == 0:
                self.deadline.check()
            if not any(cell in zone for cell in cells_of(state, placement)):
                return Settled(False, placement)
            near.append(placement)
        if not near:
            return Settled(False, PASS)
        return self._last_ply(state, near)

    def _last_ply(self, state: State, kept: list[Move]) -> Settled[Move]:
        """The other's move right before the target's last: is there one of ``kept`` (the moves
        not leaving a present win of the target's) after which the target has no win at once?"""
        for count, move in enumerate(self.heat_order(state, kept)):
            if count % PACE == 0:
                self.deadline.check()
            if not winning_moves(play(state, move), self.target, first_only=True):
                return Settled(False, move)
        return Settled(True)

    def hopeless(self, state: State, depth: int) -> bool:
        """Settled in :meth:`settle` (the bound is the cheapest cut, so it is asked first)."""
        return False

    def order(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """:meth:`heat_order`, with the other's last refuters (:meth:`_second_to_last`) first at
        its turns: a stone that answered one move of the target's often answers its siblings."""
        ordered = self.heat_order(state, moves)
        if state.to_move == self.target or not self._refuters:
            return ordered
        listed = set(ordered)
        first = [m for m in self._refuters if m in listed]
        return first + [m for m in ordered if m not in first] if first else ordered

    def heat_order(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """Moves on the target's cheapest paths between the zones first (for the target: cells
        its line still needs; for the other: cells it can cut, the target's own ones above
        all), more cells before fewer."""
        width = state.board.width
        heat = [0] * state.board.cells
        for (r, c), warmth in path_heat(state, self.target).items():
            heat[r * width + c] = warmth
        mine = state.to_move == self.target
        target, top = self.target, state.top

        def score(move: Move) -> float:
            cells = () if move == PASS else placement_indices(state.stones, state.board, move)  # type: ignore[arg-type]
            if mine:
                return sum(heat[i] for i in cells if top[i] != target) + 0.1 * len(cells)
            return sum(heat[i] * (2 if top[i] == target else 1) for i in cells) + 0.1 * len(cells)

        scores = [score(m) for m in moves]
        return [moves[i] for i in sorted(range(len(moves)), key=lambda i: -scores[i])]


def line_cells(state: State, player: str, wins: Sequence[Placement]) -> tuple[int, ...]:
    """For each of ``player``'s winning stones ``wins`` (different cell sets once each), the
    cells its line runs through, as bits: the stone's cells and the regions of ``player``'s
    colour it covers or touches (two regions never touch, so these are all the line's cells).
    Another's stone missing them leaves that stone as legal (its cells' heights and colours
    unchanged) and as winning as it was."""
    board = state.board
    width, n = board.width, board.cells
    parts = colour_parts(colour_mask(state, player), width, n)
    found: dict[int, None] = {}
    for p in wins:
        laid = placement_cells(state.stones, board, p)
        halo = spread_mask(laid, 1, width, n)
        found[laid | sum(part for part in parts if part & halo)] = None
    return tuple(found)


def laid_by(state: State, player: str, placement: Placement, line_checked: bool = True) -> State:
    """The state after ``player`` lays ``placement`` (legal for it), whoever is to move; a stone
    that completes its line makes it the winner, as :func:`placesat.quarry.rules.play` does
    (without ``line_checked``, the caller knows it does not)."""
    base, broken, _ = resting_level(state, player, orientation_of(state.stones, placement), placement.at)
    assert broken is None, broken
    after = state.copy()
    lay(after, player, placement, base)
    after.passes = 0
    if line_checked and line(after, player) is not None:
        after.winner = player
    return after


def colour_parts(mine: int, width: int, cells: int) -> list[int]:
    """The regions of the cells ``mine`` (bits), cells joined side to side, each as bits."""
    parts = []
    rest = mine
    while rest:
        part = rest & -rest
        while True:
            grown = spread_mask(part, 1, width, cells) & mine
            if grown == part:
                break
            part = grown
        parts.append(part)
        rest &= ~part
    return parts


def threat_stones(
    state: State, player: str, moves: Sequence[Move], deadline: Deadline | None = None, legal: Sequence[Move] | None = None
) -> list[Move]:
    """Of ``moves`` (``player``'s), those after which ``player`` has a win at once: the moves
    ``m`` with ``winning_moves(play(state, m), player)`` not empty, in their order, where
    ``player`` has no win at once now (else every move is played out, as that definition reads).
    ``legal``: all of ``player``'s legal moves, when the caller has them.

    A winning stone ``w`` covers a cell of each side (:func:`placesat.quarry.threats.side_masks`)
    of the board it is laid on. After a stone ``s`` of cells ``S``, ``player``'s colour is its
    colour now and ``S``; the regions of its colour now are its components, two of which never
    touch, so the region a side grows to is the side's region now with ``S`` and the components
    next to ``S`` when ``S`` meets that side, and the side's region now otherwise: each side
    after ``s`` is known without playing it. ``s`` meeting both sides wins at once itself (the
    game is over: no win at once after it). Then a winning ``w`` after ``s``:

    - missing ``S``: its cells' heights and colours are as now, so it is one of ``player``'s
      legal stones now (its kind still in hand after ``s``), and one that meets both sides
      after ``s``; since none meets both now, ``s`` has joined one side and ``w`` meets the
      other side's cells now: only those stones are looked at;
    - covering a cell of ``S``: it lies within a stone's reach (the largest spread of a stone
      left) of both sides after ``s``, which is tested on bits first; only then is ``s``
      played and such stones are asked of the rules
      (:func:`placesat.quarry.threats.wins_between`)."""
    board = state.board
    width, n = board.width, board.cells
    if winning_moves(state, player, first_only=True):
        return [m for m in moves if m != PASS and winning_moves(laid_by(state, player, m), player, first_only=True)]  # type: ignore[arg-type]
    mine = colour_mask(state, player)
    first, second = masks_of_sides(board, mine)
    parts = colour_parts(mine, width, n)
    left = {name: k for name, k in state.supply(player).items() if k > 0}
    if legal is None:
        legal = [p for p, _ in placements(state, player)]
    legal = [(placement_cells(state.stones, board, p), p.stone) for p in legal if p != PASS]  # type: ignore[union-attr, arg-type]
    meet_first = [(cells, kind) for cells, kind in legal if cells & first]
    meet_second = [(cells, kind) for cells, kind in legal if cells & second]
    near_first = near_second = 0  # the cells those stones cover
    for cells, _ in meet_first:
        near_first |= cells
    for cells, _ in meet_second:
        near_second |= cells
    spreads = {kind.name: max(o.spread for o in kind.orientations) for kind in state.stones.kinds}
    kept = []
    for count, move in enumerate(moves):
        if deadline is not None and count % PACE == 0:
            deadline.check()
        if move == PASS:
            continue  # (the board as it is: no win at once, or the game over)
        laid = placement_cells(state.stones, board, move)  # type: ignore[arg-type]
        joins_first, joins_second = bool(laid & first), bool(laid & second)
        if joins_first and joins_second:
            continue  # it wins at once itself
        halo = spread_mask(laid, 1, width, n)
        joined = laid
        for part in parts:
            if part & halo:
                joined |= part
        grown = spread_mask(joined, 1, width, n)
        first_after = first | grown if joins_first else first
        second_after = second | grown if joins_second else second
        stone = move.stone  # type: ignore[union-attr]
        hand = set(left) if left[stone] > 1 else set(left) - {stone}
        # a legal stone now, missing the new cells, meeting the side the stone did not join
        if joins_first and near_second & first_after and any(
            cells & first_after and not cells & laid and kind in hand for cells, kind in meet_second
        ):
            kept.append(move)
            continue
        if joins_second and near_first & second_after and any(
            cells & second_after and not cells & laid and kind in hand for cells, kind in meet_first
        ):
            kept.append(move)
            continue
        # a stone over the new cells, within a stone's reach of both sides
        reach = max((spreads[name] for name in hand), default=-1)
        if reach < 0:
            continue
        near = spread_mask(laid, reach, width, n)
        if near & first_after and near & second_after:
            after = laid_by(state, player, move, line_checked=False)  # type: ignore[arg-type]
            if wins_between(after, player, first_after, second_after, reach, hand, first_only=True, within=laid):
                kept.append(move)
    return kept


def zone_distances(state: State, player: str) -> tuple[list[int], list[int], list[int | None]]:
    """``down[i]``: the fewest cells not yet ``player``'s on a path of cells joined side to
    side from a first-zone row to cell ``i`` (``i`` counted); ``up[i]``: the same from a
    last-zone row; ``cost[i]``: 0 for ``player``'s colour, 1 for a cell a stone can still go
    on, None for a cell filled to the top (it blocks). Unreachable cells: more than the board's
    cells."""
    board = state.board
    width = board.width
    first, last = board.goal_rows()
    top, height = state.top, state.height
    cost: list[int | None] = [0 if top[i] == player else (None if height[i] >= MAX_LEVELS else 1) for i in range(board.cells)]

    def spread(rows) -> list[int]:
        far = board.cells + 1
        dist = [far] * board.cells
        queue: deque[int] = deque()
        for r in rows:
            for c in range(width):
                i = r * width + c
                step = cost[i]
                if step is not None and step < dist[i]:
                    dist[i] = step
                    (queue.appendleft if step == 0 else queue.append)(i)
        while queue:
            i = queue.popleft()
            for j in board.adjacent[i]:
                step = cost[j]
                if step is not None and dist[i] + step < dist[j]:
                    dist[j] = dist[i] + step
                    (queue.appendleft if step == 0 else queue.append)(j)
        return dist

    return spread(first), spread(last), cost


def gap_after_at_least(state: State, distances, move: Move) -> int:
    """A lower bound on :func:`line_gap` for the mover once its ``move`` is laid (``distances``:
    :func:`zone_distances` for the mover, now). The stone turns its own cells to the mover's
    colour and changes no other cell's cost, so a path that misses them costs what it did, at
    least the gap now; one that crosses them costs at least its part before the first cell
    it crosses plus its part after the last, at least ``down[a] - cost[a]`` and
    ``up[b] - cost[b]`` for some cells ``a`` and ``b`` of the stone."""
    down, up, cost = distances
    width = state.board.width
    last = state.board.goal_rows()[1]
    gap = min((down[i] for r in last for i in range(r * width, r * width + width)), default=state.board.cells + 1)
    if move == PASS:
        return gap
    cells = placement_indices(state.stones, state.board, move)  # type: ignore[arg-type]
    if any(cost[i] is None for i in cells):
        return 0  # (a stone over a cell filled to the top is not legal: no bound claimed)
    before = min(down[i] - cost[i] for i in cells)  # type: ignore[operator]
    after = min(up[i] - cost[i] for i in cells)  # type: ignore[operator]
    return min(gap, before + after)


def path_heat(state: State, player: str) -> dict[Cell, int]:
    """For each cell on one of ``player``'s cheapest paths between the zones (:func:`line_gap`),
    3; on a path one cell dearer, 1."""
    board = state.board
    width = board.width
    last = board.goal_rows()[1]
    down, up, cost = zone_distances(state, player)
    best = min((down[i] for r in last for i in range(r * width, r * width + width)), default=board.cells + 1)
    heat: dict[Cell, int] = {}
    for i in range(board.cells):
        step = cost[i]
        if step is None:
            continue
        slack = down[i] + up[i] - step - best
        if slack <= 1:
            heat[divmod(i, width)] = 3 if slack == 0 else 1
    return heat


@dataclass
class ForcedAnswer:
    """``answer``: "win" (``move`` wins by force within ``within`` own moves; its strategy was
    replayed on the rules against every reply), "no forced win" (the search was complete), or
    "unknown" (the time limit came first; ``no_win_within``: the most own moves proven not to
    be enough before it). ``positions``: the nodes the search visited; ``replayed``: the
    positions the rules' replay of the strategy visited."""

    player: str
    moves: int
    answer: str
    move: Move | None = None
    within: int | None = None
    line: list[Move] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    positions: int = 0
    replayed: int = 0
    strategy: Any = None
    no_win_within: int | None = None
    note: str = ""
    search: Any = field(default=None, repr=False, compare=False)

    def to_json(self, state: State) -> dict[str, Any]:
        """The answer as JSON; the line of play as typed moves; the strategy tree (the target's
        move, then every reply) when one was replayed."""
        text = lambda m: PASS if m == PASS else m.text(state.stones)  # noqa: E731
        return {
            "player": self.player,
            "moves": self.moves,
            "answer": self.answer,
            "move": None if self.move is None else text(self.move),
            "within": self.within,
            "line": [text(m) for m in self.line],
            "positions": self.positions,
            "replayed": self.replayed,
            "no_win_within": self.no_win_within,
            "note": self.note or None,
            "strategy": None if self.strategy is None else self.strategy.to_json(text),
        }


def check_moves(moves: int) -> int:
    """``moves`` when it is from 1 to :data:`MAX_MOVES`."""
    return check_own_moves(moves, MAX_MOVES)


def forced_win(
    position: Position,
    state: State,
    player: str,
    moves: int,
    time_limit: "Deadline | float | None" = None,
    strategy: bool = False,
    check: bool = True,
    searcher: str | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> ForcedAnswer:
    """Can ``player`` complete its line within ``moves`` of its own moves, whatever the other plays?

    "win" with the first move (when ``player`` is to move), the principal line (the other's
    strongest reply by the search's order at each turn) and, with ``strategy``, the whole tree as
    replayed; "no forced win" when the search was complete; "unknown" when the time limit comes
    first, with the most own moves proven not to be enough before it. Every "win" is replayed on
    the plain rules against every reply of the other (:func:`placesat.core.andor.replay_strategy`)
    before it is returned: when that replay does not finish in the time, the answer is "unknown".
    Without ``check`` (for choosing a move, never for an answer shown as proven), a win is
    returned unreplayed, with its first move as its line.
    """
    check_moves(moves)
    deadline = as_deadline(time_limit)
    answer = ForcedAnswer(player, moves, UNKNOWN)
    if state.winner is not None or state.is_over:
        answer.answer = WIN if state.winner == player else NO_WIN
        answer.within = 0 if state.winner == player else None
        return answer
    game = QuarryGame(player, deadline)
    search = new_search(game, deadline, searcher or SEARCH, table_mb)
    answer.stats = search.stats
    within = None
    try:
        for k in range(1, moves + 1):
            if search.wins(state, plies_for(state, player, k), deepen=False):
                within = k
                break
            answer.no_win_within = k
    except TimeUp:
        answer.positions = search.stats.nodes
        return answer
    answer.positions = search.stats.nodes
    if within is None:
        answer.answer = NO_WIN
        return answer
    answer.search = search
    if not check:
        answer.answer, answer.within, answer.no_win_within = WIN, within, None
        answer.move = search.best_move(state) if state.to_move == player else None
        answer.line = [] if answer.move is None else [answer.move]
        return answer
    try:
        replay_win(answer, position, state, within, deadline, strategy)
    except TimeUp:
        answer.note = f"a win within {within} own move(s) was found, but its replay on the rules did not finish in the time"
        answer.no_win_within = within - 1 if within > 1 else None
    return answer


def replay_win(answer: ForcedAnswer, position: Position, state: State, within: int, deadline: Deadline, strategy: bool = False) -> None:
    """Replay the win ``answer``'s search proved within ``within`` own moves on the plain rules,
    against every reply of the other (:func:`placesat.core.andor.replay_strategy`), and make
    ``answer`` a "win" with its line of play; :class:`TimeUp` when ``deadline`` comes first.
    A strategy the rules refuse is a defect of the search, never an answer: RuntimeError."""
    search = answer.search
    search.deadline = search.game.deadline = deadline  # the replay re-proves nodes on its own clock
    player = answer.player
    root_plies = len(position.moves)
    total = plies_for(state, player, within)

    def choose(g: "Game") -> Move | None:
        left = total - (len(g.position.moves) - root_plies)
        if left <= 0 or not search.wins(g.state, left, deepen=False):
            return None
        return search.best_move(g.state)

    try:
        replayed = replay_strategy(QuarryReferee(), Game(position, state), seat(player), within, choose, deadline=deadline)
    except StrategyFailed as failed:
        raise RuntimeError(f"a forced win failed its replay on the rules: {failed.reason}") from None
    answer.answer, answer.within, answer.no_win_within, answer.note = WIN, within, None, ""
    answer.replayed = replayed.positions
    answer.strategy = replayed.tree if strategy else None
    answer.line = principal_line(replayed.tree, search.game, state)
    answer.move = answer.line[0] if state.to_move == player and answer.line else None


def principal_line(tree, game: QuarryGame, state: State) -> list[Move]:
    """The replayed strategy's main line: the target's move where it moves, the other's strongest
    reply by the search's move order where it moves, until the line is complete."""
    out: list[Move] = []
    node = tree
    while node is not None and not node.reached:
        if node.move is not None:
            out.append(node.move)
            state = play(state, node.move)
            node = node.then
        elif node.replies:
            replies = dict(node.replies)
            ordered = [m for m in game.heat_order(state, list(replies))]
            strongest = ordered[0]
            out.append(strongest)
            state = play(state, strongest)
            node = replies[strongest]
        else:
            break
    return out
