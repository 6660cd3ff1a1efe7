"""Forced wins in the strategic game: can the side to move make its win certain within K turns?

*The question* (seeds/lixso.md, "Forced wins"): can the side to move (a player; with 4
players the team to move, its two players choosing together) play so that, within its next
``K`` turns, its win is *settled*, whatever every other player does (with 3 or 4 players the
others play together against it)? A position is settled for a side when every way the game
can still go, its own later moves included, ends with that side ahead of every other: a
lead that can no longer be caught. A game over with the side ahead is settled; so is a
position where the side has more tiles than any other can still reach.

*The turns*: seats take turns in a fixed rotation; a seat that can lay no tile passes, and
its turn still counts (for the target: one of its ``K``). So the plies up to the target's
K-th turn are the same on every line, and the search is the game-independent
:class:`placesat.core.andor.AndOrSearch` to that many plies, with a pass as a move.

*Settled is monotone*: the tiles laid only ever take futures away, so a settled position
stays settled, and the coalition can keep an unsettled one unsettled (some future of it
ends with the target not ahead, and its first move is the coalition's to make). So the
goal needs checking only at the target's last turn within the horizon (``settle``): a move
after which the position is settled. That check is exact (:class:`SettledTest`: a search
for a *spoiling* future, one that ends with the target not ahead, with counting cut-offs).

*Where ``solve`` answers it*: when the horizon holds more full rounds of turns than tiles
can still be laid, the game is over within it, and the question is whether the side to
move wins with perfect play, the sign of ``solve``'s value: with two sides :func:`forced`
asks ``solve``'s own search (one null-window test) instead of a second search.

Cut-offs: the solver's bounds at the root (:mod:`placesat.lixso.game.bounds`: a side whose
tiles plus its most cannot pass another's tiles plus its sure never wins; one whose sure
count passes every other's most has won already), counting bounds at every node (the
target's tiles plus its most by count not above another side's tiles: hopeless), the
transposition table, and moves that take the most of the others' legal tiles first. Where the
two sides (one seat each) are apart (``PRUNE``): the settled test counts instead of searching
(:meth:`SettledTest._apart_spoils`), and the other side's turn searches one keeper
(:meth:`ForcedGame.moves`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterator, NamedTuple, Sequence

from placesat.core.andor import SearchStats, Settled, check_own_moves
from placesat.core.dfpn import DEFAULT_TABLE_MB, ForcedSearch, new_search
from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp, as_deadline

from . import GAME_BACKEND
from .bounds import bounds as solver_bounds
from .encode import side_colours
from .model import Move
from .rules import GameRules, PlacedTile, State, bits

WIN, NO_WIN, UNKNOWN = "win", "no forced win", "unknown"
PASS = "pass"
"""The move of a seat that can lay no tile: its turn goes by."""
MAX_TURNS = 60
"""The largest K accepted (a 9x9 game holds at most 28 tiles, a 30x30 one a few hundred:
beyond a game's length K asks what ``solve`` answers)."""
SEARCH = "id"
"""The forced search by default (:data:`placesat.core.dfpn.SEARCHES`): see docs/performance.md, "Proof-number search"."""
SETTLED_MEMO_LIMIT = 2_000_000
"""Entries the settled test remembers before it starts again (memory stays bounded)."""
ROOT_BOUNDS_SHARE = 0.2
"""With a time limit, the most of it the solver's bounds at the root may take."""
PRUNE = True
"""Whether the settled test counts positions where the two sides are apart instead of searching
them (:meth:`SettledTest._apart_spoils`); False gives the plain search, to compare."""
INFINITE_TILES = 10**6
SETTLING_COMMON = 8
"""The target's last turns are tested in its move order while at least one in this many had a
tile that settles the win (:meth:`ForcedGame.settle`); where fewer do, unordered first."""
UNCOUNTED = object()
"""What the settled test's counts hold for a position they have not counted yet."""

ForcedMove = PlacedTile | str
"""A move of the search: a tile (colour index, placement index) or :data:`PASS`."""


class Node(NamedTuple):
    """A search position: the state and the seat whose turn it is in the rotation (it
    differs from ``state.to_move`` when that seat must pass). A named tuple: the search
    makes one per move."""

    state: State
    turn: int


def side_names(rules: GameRules, side: int) -> str:
    """The target as the output names it: ``player 1``, ``team A``."""
    return rules.seating.side_name(side)


class SettledTest:
    """Whether a side's win is settled: no future of the game ends with it not ahead.

    A depth-first search for a *spoiling* future, over every move of every player, the
    side's own included (laying is compulsory, and a careless tile of its own could cost it
    the lead). Positions met are remembered. Counting cuts it short: settled at once when the
    side has more tiles than any other side's tiles plus its most by count; spoiled at once
    when the side's tiles plus its own most by count do not pass some other side's tiles.
    """

    def __init__(self, rules: GameRules, side: int, deadline: Deadline | None = None, apart: bool | None = None) -> None:
        self.rules = rules
        self.side = side
        self.deadline = deadline or Deadline.never()
        self.colours = tuple(side_colours(rules, s) for s in range(rules.seating.side_count))
        self.others = tuple(o for o in range(rules.seating.side_count) if o != side)
        self.sides = tuple(rules.seating.sides)
        self.memo: dict[Hashable, bool] = {}  # position: whether some future spoils the lead (exact)
        self.counts: dict[Hashable, bool | None] = {}  # position: what counting alone says
        self.covers: dict[int, int] = {}  # legal tiles: the cells they cover
        self.calls = 0
        self.killers: dict[int, PlacedTile] = {}  # per tiles laid: the move that spoiled last there
        # apart positions counted (two sides, one seat each): see _apart_spoils
        self.apart = (PRUNE if apart is None else apart) and rules.seating.side_count == 2 and len(rules.seat_colours) == 2
        self.counted_apart = 0
        self.fewest_memo: dict[tuple, int] = {}
        self._solo: Any = None

    def most(self, state: State, side: int, exact_cover: bool = True) -> int:
        """The most tiles ``side`` could still add, by counting: per colour its supply left or
        its legal tiles, whichever is fewer, and (``exact_cover``) at most a third of the
        cells they cover."""
        count, tiles = self._cheap(state, self.colours[side])
        return self._within_cover(count, tiles) if exact_cover else count

    def _cheap(self, state: State, colours: tuple[int, ...]) -> tuple[int, int]:
        """The most tiles of ``colours`` by the cheap count (per colour its supply left or its
        legal tiles, whichever is fewer), and their legal tiles (one bit set)."""
        per_colour = self.rules.per_colour
        placed, possible = state.placed, state.possible
        count = tiles = 0
        for k in colours:
            mask = possible[k]
            if mask:  # a spent or blocked colour adds nothing
                count += min(per_colour - placed[k].bit_count(), mask.bit_count())
                tiles |= mask
        return count, tiles

    def _within_cover(self, count: int, tiles: int) -> int:
        """``count`` tiles, but at most a third of the cells the legal tiles ``tiles`` cover."""
        return min(count, self.covered(tiles).bit_count() // 3) if count else 0

    def covered(self, tiles: int) -> int:
        """The cells some tile of the bit set ``tiles`` covers (:meth:`GameRules.cover`),
        remembered: the same legal tiles of a side recur in many positions (a tile laid far
        off leaves them), and both :meth:`most` and :meth:`sides_apart` ask."""
        cells = self.covers.get(tiles)
        if cells is None:
            cells = self.rules.cover(tiles)
            if len(self.covers) >= SETTLED_MEMO_LIMIT:
                self.covers.clear()
            self.covers[tiles] = cells
        return cells

    def quick(self, state: State) -> bool | None:
        """Settled (True) or spoiled (False) by counting alone; None when it cannot tell.
        Besides each side's most by count: the seat to move lays one more tile for sure.
        The cheap count (without the cells covered) first, the sharper one (:meth:`most`)
        only where it could change the verdict."""
        scores = state.scores
        me = self.side
        if state.over:
            return all(scores[me] > s for o, s in enumerate(scores) if o != me)
        mover = self.sides[state.to_move]
        mine = scores[me]
        surely = mine + 1 if mover == me else mine
        cheap = [self._cheap(state, colours) for colours in self.colours]
        reach = leader = -1  # the others' best tiles plus cheap count, and best tiles for sure
        for o in self.others:
            score = scores[o]
            reach = max(reach, score + cheap[o][0])
            leader = max(leader, score + 1 if o == mover else score)
        if surely > reach:
            return True
        if mine + cheap[me][0] <= leader:
            return False
        if all(scores[o] + self._within_cover(*cheap[o]) < surely for o in self.others):
            return True
        if mine + self._within_cover(*cheap[me]) <= leader:
            return False
        return None

    def counted(self, state: State, key: Hashable = None) -> bool | None:
        """:meth:`quick`, remembered: the search asks it of every position twice (its
        result, then whether it is hopeless), and the settled test once more. ``key``: the
        position's key, when the caller has made it."""
        if key is None:
            key = (state.board, state.to_move, state.scores)
        known = self.counts.get(key, UNCOUNTED)
        if known is not UNCOUNTED:
            return known
        known = self.quick(state)
        if len(self.counts) >= SETTLED_MEMO_LIMIT:
            self.counts.clear()
        self.counts[key] = known
        return known

    def known_settled(self, state: State) -> bool:
        """Whether the position is known to be settled already: by counting, or by an
        earlier settled test (never a search of its own)."""
        key = (state.board, state.to_move, state.scores)
        if self.memo.get(key) is False:
            return True
        return self.counted(state, key) is True

    def settled(self, state: State) -> bool:
        """Whether every future of ``state`` ends with the side ahead of every other side."""
        self.calls += 1
        return not self._spoils(state)

    def _spoils(self, state: State) -> bool:
        key = (state.board, state.to_move, state.scores)
        memo = self.memo.get(key)
        if memo is not None:
            return memo
        known = self.counted(state, key)
        if known is not None:
            return not known
        self.deadline.check()
        if self.apart:
            counted = self._apart_spoils(state)
            if counted is not None:
                self.counted_apart += 1
                if len(self.memo) >= SETTLED_MEMO_LIMIT:
                    self.memo.clear()
                self.memo[key] = counted
                return counted
        found = False
        laid = sum(state.scores)
        for k, p in self._spoiling_first(state):
            if self._spoils(self.rules.play(state, k, p)):
                self.killers[laid] = (k, p)
                found = True
                break
        if len(self.memo) >= SETTLED_MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = found
        return found

    def _apart_spoils(self, state: State) -> bool | None:
        """Whether some future spoils the lead, counted instead of searched where the two sides
        (one seat each) are *apart*: no cell is covered both by a legal tile of the side's and
        by one of the other side's; None where they are not.

        Apart stays apart, and neither side's tiles can ever take a tile from the other: a
        tile takes away only the tiles it overlaps and, of its own colour, those it comes
        near, and each side's legal tiles only shrink. So the two sides' futures are
        independent: each lays, on its turns, any sequence of its own legal tiles that goes on
        until it has none (laying is compulsory; a seat with none passes, and the game ends
        when neither has one), and any two such sequences make one future. Some future then
        leaves the side not ahead exactly when its tiles plus the *fewest* it can end up
        laying (:meth:`_fewest`) are not above the other side's tiles plus the *most* it can
        lay (``solve``'s count of what one side lays alone). Both are counted over one side's
        own tiles alone, where the search for a spoiling future goes over every interleaving
        of both sides' moves."""
        if not self.sides_apart(state):
            return None
        me, other = self.side, 1 - self.side
        scores = state.scores
        most = self.alone().solo_most(state, self.colours[other])
        return scores[me] + self._fewest(*self._own(state, me)) <= scores[other] + most

    def sides_apart(self, state: State) -> bool:
        """Two sides of one seat each, and no cell covered both by a legal tile of one side's
        and by one of the other's."""
        if not self.apart:
            return False
        possible = state.possible
        tiles = []
        for colours in self.colours:
            mask = 0
            for k in colours:
                mask |= possible[k]
            tiles.append(mask)
        if tiles[0] & tiles[1]:  # a placement legal for both: its cells are in both covers
            return False
        return not self.covered(tiles[0]) & self.covered(tiles[1])

    def alone(self) -> Any:
        """``solve``'s counts of what one side lays alone (:class:`placesat.lixso.game.solve.LixsoSearch`)."""
        if self._solo is None:
            from .solve import LixsoSearch

            self._solo = LixsoSearch(self.rules, self.deadline, use_symmetry=False)
        return self._solo

    def _own(self, state: State, side: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The side's legal tiles per colour and the tiles left in each colour's supply."""
        colours = self.colours[side]
        per_colour = self.rules.per_colour
        return tuple(state.possible[k] for k in colours), tuple(per_colour - state.placed[k].bit_count() for k in colours)

    def _laid(self, possible: tuple[int, ...], left: tuple[int, ...], i: int, p: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """One side's legal tiles and supplies after it lays placement ``p`` in its ``i``-th
        colour (what :meth:`GameRules.play` does to them): the tiles it overlaps are gone,
        and of its colour those it comes near; a spent supply takes its colour's."""
        rules = self.rules
        overlaps = rules.overlaps[p]
        after = [mask & ~overlaps for mask in possible]
        after[i] &= ~rules.near[p]
        rest = list(left)
        rest[i] -= 1
        if rest[i] <= 0:
            after[i] = 0
        return tuple(after), tuple(rest)

    def _fewest(self, possible: tuple[int, ...], left: tuple[int, ...]) -> int:
        """The fewest tiles a side can end up laying when it must lay while it can: the
        shortest sequence of its legal tiles after which it has none (every tile tried first)."""
        key = (possible, left)
        known = self.fewest_memo.get(key)
        if known is not None:
            return known
        self.deadline.check()
        best = 0
        if any(possible):
            best = INFINITE_TILES
            for i, mask in enumerate(possible):
                for p in bits(mask):
                    best = min(best, 1 + self._fewest(*self._laid(possible, left, i, p)))
                    if best == 1:
                        break
                if best == 1:
                    break
        if len(self.fewest_memo) >= SETTLED_MEMO_LIMIT:
            self.fewest_memo.clear()
        self.fewest_memo[key] = best
        return best

    def _spoiling_first(self, state: State):
        """The mover's tiles, those likeliest to spoil first: the tile that spoiled a sibling
        last at this depth (a killer move: it often spoils here too, and costs no scoring),
        then for the side itself tiles that take the most of its own legal tiles away; for
        the others, the fewest of their own and the most of the side's."""
        rules = self.rules
        possible = state.possible
        killer = self.killers.get(sum(state.scores))
        if killer is not None and killer[0] in rules.seat_colours[state.to_move] and possible[killer[0]] >> killer[1] & 1:
            yield killer
        mover = rules.seating.sides[state.to_move]
        mine = self.colours[self.side]
        theirs = self.colours[mover]
        near, overlaps = rules.near, rules.overlaps
        scored = []
        for k, p in rules.moves(state):
            near_p, over_p = near[p], overlaps[p]
            taken = 0
            for j in mine:
                taken += (possible[j] & (near_p if j == k else over_p)).bit_count()
            if mover == self.side:
                scored.append((-taken, k, p))
            else:
                own = 0
                for j in theirs:
                    own += (possible[j] & (near_p if j == k else over_p)).bit_count()
                scored.append((own - 2 * taken, k, p))
        scored.sort()
        for _, k, p in scored:
            if (k, p) != killer:
                yield k, p


class ForcedGame:
    """The strategic game seen from ``target``'s side, for :class:`AndOrSearch`: the
    target's turns are the OR nodes, every other seat's the AND nodes."""

    def __init__(self, rules: GameRules, target: int, deadline: Deadline | None = None) -> None:
        self.rules = rules
        self.target = target
        self.deadline = deadline or Deadline.never()
        self.test = SettledTest(rules, target, self.deadline)
        self.pruned = 0  # the other side's tiles left unsearched where the sides are apart
        self.seats = len(rules.seat_colours)
        self.sides = rules.seating.sides
        self.record: Any = None  # the replayed record at the root, when the caller has it
        self._own_turns: dict[tuple[int, int], int] = {}
        self.last_turns = 0  # the target's last turns settled (settle), and those where a tile settles
        self.settling = 0

    def root(self, state: State) -> Node:
        """The search position of ``state``: the turn is the seat to move's."""
        return Node(state, state.to_move)

    def own_turns(self, turn: int, plies: int) -> int:
        """How many of the next ``plies`` turns (from seat ``turn`` on) are the target's
        (remembered: the search asks at every node)."""
        known = self._own_turns.get((turn, plies))
        if known is None:
            known = sum(1 for i in range(plies) if self.sides[(turn + i) % self.seats] == self.target)
            self._own_turns[turn, plies] = known
        return known

    def plies_for(self, turn: int, own: int) -> int:
        """The plies from seat ``turn``'s turn to the end of the target's ``own``-th turn."""
        plies = 0
        while own > 0:
            if self.sides[(turn + plies) % self.seats] == self.target:
                own -= 1
            plies += 1
        return plies

    # ----------------------------------------------------------------- the Game protocol

    def key(self, node: Node) -> Hashable:
        """The colour of every cell, the scores (with 3 players a shared tile counts for who
        laid it) and the turn."""
        state = node.state
        return (state.board, state.scores, node.turn)

    def result(self, node: Node) -> bool | None:
        """The game over: whether the target is ahead; before: settled by counting, or not yet known."""
        state = node.state
        if state.over:
            return self.test.quick(state)
        return True if self.test.known_settled(state) else None

    def target_moves(self, node: Node) -> bool:
        """The target's turns are the OR nodes."""
        return self.sides[node.turn] == self.target

    def moves(self, node: Node) -> Sequence[ForcedMove]:
        """The seat's legal tiles; a pass when it can lay none; nothing once the game is over.
        Where the two sides are apart, the other side's turn has one tile: a keeper.

        Apart (:meth:`SettledTest.sides_apart`: two sides of one seat each, no cell both can
        still reach) stays apart, and from then on the target's win is settled exactly when
        its tiles plus the fewest it can end up laying pass the other side's tiles plus the
        most that side can lay alone (:meth:`SettledTest._apart_spoils`); call the latter the
        other side's reach. No tile of the other side's touches the target's tiles, so the
        other side's moves act on the goal only through its reach, which no move raises. A
        *keeper*, a tile of a largest set the other side could lay alone (``solve``'s
        ``solo_tiles``), leaves its reach as it was, and so does every later keeper until
        the other side has no tile; any other tile, or none, can only lower it. So whatever
        the target can force after another tile it can force after a keeper (the same own
        moves, the same turns, facing a reach never higher), and the keeper alone is searched."""
        state = node.state
        if state.over:
            return []
        if state.to_move != node.turn:
            return [PASS]
        if self.test.apart and self.sides[node.turn] != self.target and self.test.sides_apart(state):
            keepers = self.test.alone().solo_tiles(state, self.test.colours[self.sides[node.turn]])
            if keepers:
                self.pruned += len(self.rules.moves(state)) - 1
                return [keepers[0]]
        return self.rules.moves(state)

    def play(self, node: Node, move: ForcedMove) -> Node:
        """Lay the tile (or pass); the turn goes to the next seat in the rotation."""
        following = (node.turn + 1) % self.seats
        if move == PASS:
            return Node(node.state, following)
        k, p = move  # type: ignore[misc]
        return Node(self.rules.play(node.state, k, p), following)

    def settle(self, node: Node, depth: int) -> Settled[ForcedMove] | None:
        """No target turn left within ``depth``: settled now or never (the others can keep it
        open). The target's last turn: a move after which the position is settled."""
        own = self.own_turns(node.turn, depth)
        state = node.state
        if own == 0:
            return Settled(self.test.settled(state))
        if own == 1 and self.target_moves(node):
            play, settled = self.rules.play, self.test.settled
            moves = self.moves(node)
            self.last_turns += 1
            if self.last_turns > SETTLING_COMMON * self.settling:
                # where no tile settles, every tile is tested whatever the order: test them
                # unordered, and order them only once one does, to give the move the ordered
                # test gives (the first in order; the tests before it are mostly remembered
                # ones by then). Where settling tiles are common, the order finds one sooner.
                for move in moves:
                    if settled(state if move == PASS else play(state, *move)):  # type: ignore[misc]
                        break
                else:
                    return Settled(False)
            for move in self.order(node, moves):
                if settled(state if move == PASS else play(state, *move)):  # type: ignore[misc]
                    self.settling += 1
                    return Settled(True, move)
            return Settled(False)
        return None

    def hopeless(self, node: Node, depth: int) -> bool:
        """The target's tiles plus its most by count do not pass another side's tiles."""
        return self.test.counted(node.state) is False

    def order(self, node: Node, moves: Sequence[ForcedMove]) -> Iterator[ForcedMove]:
        """Tiles that take the most of the other sides' legal tiles and the fewest of the
        mover's own first (ties: by colour and placement). The first comes before the rest
        are sorted: the search mostly needs no second (the other side's first tile refutes)."""
        if len(moves) <= 1 or moves[0] == PASS:
            yield from moves
            return
        rules = self.rules
        state = node.state
        mover = self.sides[node.turn]
        own = self.test.colours[mover]
        theirs = [k for side, colours in enumerate(self.test.colours) if side != mover for k in colours if k not in own]
        possible = state.possible
        their_tiles = [possible[j] for j in theirs if possible[j]]  # spent colours count nothing
        own_tiles = [(j, possible[j]) for j in own if possible[j]]
        near, all_overlaps = rules.near, rules.overlaps
        scored = []
        for k, p in moves:  # type: ignore[misc]
            overlaps = all_overlaps[p]
            taken = 0
            for mask in their_tiles:
                taken += (mask & overlaps).bit_count()
            lost = 0
            for j, mask in own_tiles:
                lost += (mask & (near[p] if j == k else overlaps)).bit_count()
            scored.append((lost - 6 * taken, k, p))
        best = min(scored)
        yield best[1], best[2]
        scored.remove(best)
        scored.sort()
        for _, k, p in scored:
            yield k, p


# --------------------------------------------------------------------------- the query


@dataclass
class ForcedAnswer:
    """What :func:`forced` found.

    ``answer``: :data:`WIN` (``move`` starts a strategy that settles the win within
    ``within`` of the side's turns, replayed on the referee against every reply),
    :data:`NO_WIN` (searched in full) or :data:`UNKNOWN` (the time limit came first;
    ``no_win_within`` is the most turns proven not to suffice before it). ``how`` says
    which search decided: ``"search"`` (the AND/OR search), ``"solve"`` (the horizon holds
    the whole game: ``solve``'s search), ``"bounds"`` (the solver's bounds at the root), or
    ``"settled"`` (won already). ``line``: a line of play, the others' strongest reply at
    each of their turns, until the win is settled. ``strategy_positions``: the positions of
    the strategy tree replayed.
    """

    side: int
    side_name: str
    turns: int
    players: int
    answer: str = UNKNOWN
    move: Move | None = None
    passes: bool = False
    within: int | None = None
    how: str = "search"
    line: tuple[tuple[int, Move | None], ...] = ()
    no_win_within: int | None = None
    positions: int = 0
    settled_tests: int = 0
    strategy_positions: int = 0
    strategy: Any = None
    """The replayed strategy tree (:class:`placesat.core.andor.StrategyNode`), when it wins."""
    stats: SearchStats = field(default_factory=SearchStats)

    def to_json(self) -> dict[str, Any]:
        """The answer as ``lixso game forced --json`` prints it."""
        return {
            "side": self.side + 1,
            "name": self.side_name,
            "turns": self.turns,
            "answer": self.answer,
            "move": None if self.move is None else str(self.move),
            "within": self.within,
            "decided_by": self.how,
            "against": "every other player together" if self.players > 2 else "the other player",
            "line": [{"seat": seat + 1, "move": None if move is None else str(move)} for seat, move in self.line],
            "no_win_within": self.no_win_within,
            "positions": self.positions,
            "settled_tests": self.settled_tests,
            "strategy_positions": self.strategy_positions,
            "strategy": None if self.strategy is None else strategy_json(self.strategy, STRATEGY_LEVELS),
        }


def check_turns(turns: int) -> int:
    """``turns`` when it is from 1 to :data:`MAX_TURNS`."""
    return check_own_moves(turns, MAX_TURNS)


def whole_game_within(rules: GameRules, state: State, plies: int) -> bool:
    """Whether the game is surely over within ``plies`` turns: every full round of turns
    before the end lays at least one tile, and no more tiles than :func:`remaining_moves` fit."""
    from .solve import remaining_moves

    return plies // len(rules.seat_colours) >= remaining_moves(rules, state)


def forced(
    rules: GameRules,
    state: State,
    turns: int,
    time_limit: "Deadline | float | None" = None,
    backend: str = GAME_BACKEND,
    use_solve: bool = True,
    use_bounds: bool = True,
    record: Any = None,
    searcher: str | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> ForcedAnswer:
    """Can the side to move settle its win within ``turns`` of its turns, whatever the
    others do? (See the module docstring.) Every "win" is replayed on the referee against
    every reply before it is returned (:func:`replay_strategy`). ``use_solve`` and
    ``use_bounds`` switch the two shortcuts off (for tests and measurements). ``record``:
    the replayed record standing at ``state`` (:class:`placesat.lixso.game.rules.Game`),
    for the replay to play on from."""
    check_turns(turns)
    deadline = as_deadline(time_limit)
    if state.over:
        raise InputError("the game is over: nobody is to move")
    side = rules.seating.sides[state.to_move]
    answer = ForcedAnswer(side, side_names(rules, side), turns, rules.seating.players)
    game = ForcedGame(rules, side, deadline)
    game.record = record
    search = new_search(game, deadline, searcher or SEARCH, table_mb)
    answer.stats = search.stats
    root = game.root(state)
    try:
        if game.test.quick(state) is True:
            return _won(answer, rules, state, game, None, 0, "settled")
        if use_bounds:
            remaining = deadline.remaining()
            share = deadline if remaining is None else deadline.sooner(ROOT_BOUNDS_SHARE * remaining)
            try:
                found = solver_bounds(rules, state, backend, share)
            except TimeUp:
                found = None
            if found is not None and found.known():
                if found.sure_win(side):
                    return _won(answer, rules, state, game, None, 0, "bounds")
                if not found.can_win(side):
                    answer.answer, answer.how = NO_WIN, "bounds"
                    return answer
        last = game.plies_for(root.turn, turns)
        if use_solve and rules.seating.side_count == 2 and whole_game_within(rules, state, last):
            return _by_solve(answer, rules, state, game, deadline, backend)
        for own in range(1, turns + 1):
            if search.wins(root, game.plies_for(root.turn, own), deepen=False):
                answer.positions = search.stats.nodes
                return _won(answer, rules, state, game, _and_or_strategy(search, game), own, "search")
            answer.no_win_within = own
        answer.answer, answer.no_win_within = NO_WIN, None
    except TimeUp:
        answer.answer, answer.move, answer.within = UNKNOWN, None, None
    finally:
        answer.positions = max(answer.positions, search.stats.nodes)
        answer.settled_tests = game.test.calls
    return answer


Strategy = Callable[[Node, int], ForcedMove]
"""The target's move at a node of a winning strategy, given the target turns left."""


def _and_or_strategy(search: ForcedSearch, game: ForcedGame) -> Strategy:
    """The AND/OR search's strategy: at each target node, re-prove the win within the turns
    left (fast: the table is warm) and take the move that decided it."""

    def choose(node: Node, own: int) -> ForcedMove:
        plies = game.plies_for(node.turn, own)
        if not search.wins(node, plies, deepen=False):
            raise StrategyBug("a position of the strategy no longer wins")
        move = search.best_move(node)
        if move is None:  # settled already: any move keeps it
            move = game.moves(node)[0]
        return move

    return choose


def _by_solve(answer: ForcedAnswer, rules: GameRules, state: State, game: ForcedGame, deadline: Deadline,
              backend: str) -> ForcedAnswer:
    """The horizon holds the whole game: ask ``solve``'s search whether the side to move wins."""
    from .solve import WinTest

    test = WinTest(rules, answer.side, deadline, backend)
    answer.how = "solve"
    try:
        wins = test.wins(state)
    except TimeUp:
        answer.positions = test.nodes
        raise
    if not wins:
        answer.answer = NO_WIN
        answer.positions = test.nodes
        return answer
    answer.positions = test.nodes

    def choose(node: Node, own: int) -> ForcedMove:
        if node.state.to_move != node.turn:
            return PASS
        if node.state.over or game.test.quick(node.state) is True:
            return game.moves(node)[0]
        return test.winning_move(node.state)

    return _won(answer, rules, state, game, choose, answer.turns, "solve")


class StrategyBug(RuntimeError):
    """A winning strategy that the referee's replay rejects: a defect, never bad input."""


def _won(answer: ForcedAnswer, rules: GameRules, state: State, game: ForcedGame, choose: Strategy | None, within: int,
         how: str) -> ForcedAnswer:
    """A win: replay its strategy on the referee against every reply, then fill the answer."""
    root = game.root(state)
    answer.answer, answer.within, answer.how = WIN, within, how
    if choose is None or within == 0:
        answer.within = 0
        return answer
    replayed = replay_strategy(rules, state, game, choose, within, game.record)
    answer.strategy_positions, answer.strategy = replayed.positions, replayed.tree
    first = choose(root, within)
    if first == PASS:
        answer.passes = True
    else:
        answer.move = rules.move_of(*first)  # type: ignore[misc]
    answer.line = _line(rules, game, root, choose, within)
    return answer


@dataclass(frozen=True)
class TurnPosition:
    """A position as the strategy replay sees it: the replayed record (``game``, a
    :class:`placesat.lixso.game.rules.Game`), the seat whose turn it is in the rotation, and
    the target's turns left. Positions with the same tiles, scores, turn and turns left are
    equal (transpositions are replayed once)."""

    game: Any = field(compare=False, hash=False)
    key: Hashable
    turn: int
    own_left: int


class TurnView:
    """The replayed game (:class:`placesat.lixso.game.rules.Game`, as the Playable plays it),
    seen as the forced-win question sees it, for :func:`placesat.core.andor.replay_strategy`:
    the target side is seat 1 and the others seat 2 (so a team's two players both play the
    strategy), and a seat that can lay no tile has one move, :data:`PASS`, that spends its
    turn. Every position, legal tile and end of game is the replayed record's: the referee's."""

    def __init__(self, rules: GameRules, target: int) -> None:
        self.rules = rules
        self.target = target
        self.seats = len(rules.seat_colours)

    def position(self, game: Any, turn: int, own_left: int) -> TurnPosition:
        """The view's position of a replayed record."""
        state = game.state
        return TurnPosition(game, (state.board, state.scores), turn, own_left)

    def outcome(self, position: TurnPosition):
        """The replayed game's outcome."""
        return position.game.outcome()

    def to_move(self, position: TurnPosition) -> int:
        """1 at the target side's turns, 2 at the others'."""
        return 1 if self.rules.seating.sides[position.turn] == self.target else 2

    def moves(self, position: TurnPosition) -> list:
        """The replayed game's legal tiles; a pass for a seat that can lay none."""
        game = position.game
        if game.state.over:
            return []
        if game.state.to_move != position.turn:
            return [PASS]
        return game.moves()

    def play(self, position: TurnPosition, move) -> TurnPosition:
        """The referee lays the tile on the replayed game; the turn passes on."""
        own = position.own_left - (1 if self.to_move(position) == 1 else 0)
        following = (position.turn + 1) % self.seats
        if move == PASS:
            if position.game.state.to_move == position.turn:
                raise StrategyBug("a pass where a tile is legal")
            return self.position(position.game, following, own)
        return self.position(position.game.then(move), following, own)


def replay_strategy(rules: GameRules, state: State, game: ForcedGame, choose: Strategy, within: int,
                    record: Any = None) -> Any:
    """Play the strategy against every reply with :func:`placesat.core.andor.replay_strategy`
    on the replayed game (:class:`TurnView`), the goal the exact settled test, within ``within``
    of the target's turns. ``record``: the replayed record of ``state``, when known.
    Returns the :class:`placesat.core.andor.ReplayedStrategy` (its tree and positions);
    raises :class:`StrategyBug` when the strategy fails anywhere."""
    from placesat.core.andor import StrategyFailed
    from placesat.core.andor import replay_strategy as replay

    view = TurnView(rules, game.target)
    test = SettledTest(rules, game.target, apart=False)  # the check counts nothing apart: it searches
    root = view.position(record if record is not None else _game_at(rules, state), state.to_move, within)

    def chosen(position: TurnPosition):
        move = choose(Node(position.game.state, position.turn), position.own_left)
        return move if move == PASS else rules.move_of(*move)  # type: ignore[misc]

    try:
        replayed = replay(view, root, 1, within, chosen, lambda position: test.settled(position.game.state), game.deadline)
    except StrategyFailed as failure:
        raise StrategyBug(f"the strategy fails on replay: {failure.reason}") from None
    return replayed


def _game_at(rules: GameRules, state: State):
    """A replayed game standing at ``state`` when only the state is known (its record is
    not): one turn that holds the state. The referee plays on from it."""
    from .model import Position
    from .rules import Game, Turn

    position = Position(rules.grid, rules.seating, rules.per_colour, rules.clue_touch, players_given=True)
    if state == rules.start():
        return Game(position, rules, ())
    return Game(position, rules, (Turn(state.to_move, None, (), state),))  # type: ignore[arg-type]


STRATEGY_LEVELS = 3
"""Levels of the strategy tree in ``--json``: the first move, every reply, the answer to each."""


def strategy_json(node: Any, levels: int) -> dict[str, Any]:
    """The first ``levels`` levels of a replayed strategy tree as JSON: ``{"move", "then"}``
    at the side's turns, ``{"replies": [{"reply", "then"}]}`` at the others', ``{"settled":
    true}`` where the win is settled; deeper levels as ``{"more": true}``."""
    if node.reached:
        return {"settled": True}
    if levels <= 0:
        return {"more": True}
    if node.move is not None:
        return {"move": str(node.move), "then": strategy_json(node.then, levels - 1)}
    return {"replies": [{"reply": str(reply), "then": strategy_json(after, levels - 1)} for reply, after in node.replies]}


LINE_MOVES = 24
"""At most this many turns in a line of play."""


def _line(rules: GameRules, game: ForcedGame, root: Node, choose: Strategy, within: int) -> tuple[tuple[int, Move | None], ...]:
    """A line of play: the strategy's move at the target's turns, the others' first reply in
    the search's order at theirs, until the win is settled (a pass: ``None``)."""
    line: list[tuple[int, Move | None]] = []
    node, own = root, within
    while len(line) < LINE_MOVES and own >= 0 and not node.state.over and not game.test.settled(node.state):
        if game.target_moves(node):
            move = choose(node, own)
            own -= 1
        else:
            move = next(game.order(node, game.moves(node)))
        line.append((node.turn, None if move == PASS else rules.move_of(*move)))  # type: ignore[misc]
        node = game.play(node, move)
    return tuple(line)


def settled_for(rules: GameRules, state: State, side: int, deadline: Deadline | None = None) -> bool:
    """Whether ``side``'s win is settled in ``state`` (every future ends with it ahead)."""
    return SettledTest(rules, side, deadline).settled(state)


__all__ = ["forced", "ForcedAnswer", "SettledTest", "settled_for", "WIN", "NO_WIN", "UNKNOWN", "PASS", "MAX_TURNS"]
