"""Solve a position of the Lixso strategic game: its value with perfect play and a best move.

The value is the final margin, side A's tiles minus side B's (player 1 minus player 2, team
A minus team B), with both sides playing their best; a positive value is a win for side A.
:mod:`placesat.lixso.game.search` does the game-tree search; this module tells it about Lixso:

- *positions* are the fast engine's states (:mod:`placesat.lixso.game.rules`); the table's key
  is the colour of every cell and the seat to move (the tiles laid are a set, so many move
  orders meet in one position);
- *an exact value without search*: when no cell can still be reached by both sides (in
  particular when one side can lay nothing more) and each side is one player, neither can
  block the other any more, and each lays as many tiles as fit (every set of tiles that
  fit can be laid in any order): the value is the margin plus the difference of the two
  sides' most, each found by a small branch-and-bound. (With four players a side is two
  players who must each lay when they can, so the rest of its game still needs search.)
  Likewise when only the player to move can still lay. The move named there comes from the
  same count: a tile of the largest set the mover's count found, which keeps both counts,
  and it is checked like every other best move (the position after it is searched, and
  counted, again);
- *bounds*: a side lays at most, per colour, its supply left, its tiles still legal and a
  third of the cells they cover; the side to move lays at least one. At the root, the
  solver's bounds (:mod:`placesat.lixso.game.bounds`) replace these;
- *move order*: the move the table remembers, then tiles that take the most of the other
  side's legal tiles away and the fewest of the mover's own;
- *symmetry*: the grid's symmetries (turns and mirror images, combined with swapping the
  two colours of one player) that map the clues onto themselves; while the tiles laid are
  symmetric too, moves that are images of each other are searched once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.core.signals import Stop

from ..model import COLOURS, EMPTY
from . import GAME_BACKEND
from .bounds import Bounds, bounds
from .model import Move
from .rules import OVER, GameRules, PlacedTile, State, bits
from .search import Answer, Search

Node = tuple[State, tuple[int, ...]]
"""A search position: the state and the symmetries (by index) that map its tiles onto themselves."""

WIN, LOSS, DRAW, UNKNOWN = "win", "loss", "draw", "unknown"
DEEPEN_SHARE = 0.1
"""With a time limit, the share of it that depth-limited searches may take before the exact
search starts: little, since the answer wanted is the exact one (measured: deepening to the
end makes exact solves 3 to 5 times slower), but enough for a considered move if the time
runs out."""
ROOT_BOUNDS_SHARE = 0.2
"""With a time limit, the most of it the solver's bounds at the root may take (they are
usually a few hundredths of a second; without them the search still runs)."""
DEEPEN_SECONDS = 2.0
"""... and at most this many seconds, however long the time limit."""
PLAYING_SHARE = 0.5
"""The share for the computer opponent (``play-vs``), which needs a good move more than a proof."""


# --------------------------------------------------------------------------- symmetry


def _geometric(height: int, width: int) -> list:
    """The turns and mirror images of a height x width grid, as functions of a cell."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (height - 1 - r, width - 1 - c),
        lambda r, c: (height - 1 - r, c),
        lambda r, c: (r, width - 1 - c),
    ]
    if height == width:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (width - 1 - c, height - 1 - r),
            lambda r, c: (c, height - 1 - r),
            lambda r, c: (width - 1 - c, r),
        ]
    return maps


def symmetries(rules: GameRules) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The game's symmetries other than the identity, each as (colour map, placement map).

    A symmetry moves cells by a turn or mirror image of the grid and may swap the two
    colours of a player who holds two; it must map every clue onto a clue of the mapped
    colour, so that it maps legal moves onto legal moves and each side's tiles onto its own.
    """
    colour_maps = [tuple(range(len(COLOURS)))]
    for seat in rules.seat_colours:
        if len(seat) == 2:
            a, b = seat
            colour_maps += [tuple(b if k == a else a if k == b else k for k in m) for m in colour_maps]
    found = []
    for number, cells_map in enumerate(_geometric(rules.height, rules.width)):
        for colours in colour_maps:
            if number == 0 and colours == colour_maps[0]:
                continue  # the identity
            clue_ok = all(
                rules.grid.rows[cells_map(r, c)[0]][cells_map(r, c)[1]]
                == (EMPTY if rules.grid.rows[r][c] == EMPTY else COLOURS[colours[COLOURS.index(rules.grid.rows[r][c])]])
                for r in range(rules.height)
                for c in range(rules.width)
            )
            if not clue_ok:
                continue
            placements = tuple(
                rules.index[tuple(sorted(cells_map(r, c) for r, c in cells))] for cells in rules.placements
            )
            found.append((colours, placements))
    return found


def _fixes(symmetry: tuple[tuple[int, ...], tuple[int, ...]], state: State) -> bool:
    colours, placements = symmetry
    for k, laid in enumerate(state.placed):
        image = 0
        for p in bits(laid):
            image |= 1 << placements[p]
        if image != state.placed[colours[k]]:
            return False
    return True


# --------------------------------------------------------------------------- the game for the search


class Facts(NamedTuple):
    """What counting says about a position: each side's most by count, and whether the value
    is counted: the sides are apart (no cell both can reach) with one seat each, or the seat
    to move is ``alone`` (the only one that can still lay). (A named tuple: one is made at
    nearly every position searched.)"""

    most: tuple[int, ...]
    apart: bool
    alone: bool


class LixsoSearch:
    """The Lixso game as :class:`placesat.lixso.game.search.SearchGame` sees it (two sides)."""

    def __init__(self, rules: GameRules, deadline: Deadline | None = None, use_symmetry: bool = True) -> None:
        if rules.seating.side_count != 2:
            raise InputError(f"solving needs two sides; this game has {rules.seating.side_count} players"
                             " who each play for themselves")
        self.rules = rules
        self.deadline = deadline or Deadline.never()
        self.symmetries = symmetries(rules) if use_symmetry else []
        self.sides = rules.seating.sides
        self.side_colours = tuple(
            tuple(sorted({k for seat in rules.seating.seats_of(side) for k in rules.seat_colours[seat]})) for side in (0, 1)
        )
        self.root_bounds: dict[int, tuple[float, float]] = {}
        self.solo_memo: dict[tuple, int] = {}
        self.one_seat_per_side = len(rules.seat_colours) == 2
        self._last_facts: tuple[Node, int, Facts] | None = None

    def root(self, state: State) -> Node:
        """A search position for ``state``, with the symmetries its tiles have."""
        return state, tuple(number for number, g in enumerate(self.symmetries) if _fixes(g, state))

    # ----------------------------------------------------------------- SearchGame

    def key(self, node: Node) -> int:
        """The colour of every cell and the seat to move, as one number: the tiles are a set
        (same-coloured tiles never touch, so the colours tell them apart), and with two or
        four players the scores follow from the colours."""
        state = node[0]
        return (state.board << 3) | (state.to_move + 1)

    def maximising(self, node: Node) -> bool:
        """Side A (player 1, team A) wants the margin high."""
        return self.sides[node[0].to_move] == 0

    def final(self, node: Node) -> int | None:
        """The margin when the game is over; the margin plus what each side lays alone when
        the sides are apart or only one player can still lay; otherwise None."""
        state = node[0]
        margin = state.scores[0] - state.scores[1]
        if state.to_move == OVER:
            return margin
        facts = self._facts(node)
        if facts.apart:
            return margin + self.solo_most(state, self.side_colours[0]) - self.solo_most(state, self.side_colours[1])
        if not facts.alone:
            return None
        seat = state.to_move
        most = self.solo_most(state, self.rules.seat_colours[seat])  # one player left, alone
        return margin + most if self.sides[seat] == 0 else margin - most

    def bounds(self, node: Node) -> tuple[float, float]:
        """The margin, give or take each side's most by count; the side to move lays at least
        one tile. At the root, the solver's bounds too."""
        state = node[0]
        facts = self._facts(node)
        margin = state.scores[0] - state.scores[1]
        mover = self.sides[state.to_move]
        lower = margin + (1 if mover == 0 else 0) - facts.most[1]
        upper = margin + facts.most[0] - (1 if mover == 1 else 0)
        extra = self.root_bounds.get(self.key(node))
        if extra is not None:
            lower, upper = max(lower, extra[0]), min(upper, extra[1])
        return lower, upper

    def estimate(self, node: Node) -> float:
        """The margin plus half the difference of the sides' most by count."""
        state = node[0]
        facts = self._facts(node)
        return state.scores[0] - state.scores[1] + (facts.most[0] - facts.most[1]) / 2

    def moves(self, node: Node, first: PlacedTile | None) -> list[PlacedTile]:
        """The legal tiles (one of each set of images while the position is symmetric), those
        that take the most of the other side's legal tiles and the fewest of the mover's first.

        Where the value is counted (:meth:`final`: the sides apart, or one player left), a
        tile of the mover's largest set goes first: it keeps the count (the rest of that set
        still fits, and the other side's tiles are untouched), so it keeps the value."""
        state, stab = node
        rules = self.rules
        mover = self.sides[state.to_move]
        theirs = [state.possible[k] for k in self.side_colours[1 - mover]]
        mine = self.side_colours[mover]
        scored = []
        for k, p in rules.moves(state):
            if stab and not self._representative(stab, k, p):
                continue
            overlaps = rules.overlaps[p]
            taken = sum((mask & overlaps).bit_count() for mask in theirs)
            lost = sum((state.possible[j] & (rules.near[p] if j == k else overlaps)).bit_count() for j in mine)
            scored.append((lost - 6 * taken, k, p))
        scored.sort()
        ordered = [(k, p) for _, k, p in scored]
        if first is None:
            facts = self._facts(node)  # remembered: the search asked final and bounds of this node just now
            if facts.apart or facts.alone:
                keepers = set(self.count_keepers(node))
                first = next((move for move in ordered if move in keepers), None)
        if first is not None and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def play(self, node: Node, move: PlacedTile) -> Node:
        """Lay the tile; the symmetries left are those that map it onto itself."""
        state, stab = node
        k, p = move
        child = self.rules.play(state, k, p)
        if stab:
            stab = tuple(g for g in stab if self.symmetries[g][0][k] == k and self.symmetries[g][1][p] == p)
        return child, stab

    # ----------------------------------------------------------------- helpers

    def _representative(self, stab: tuple[int, ...], k: int, p: int) -> bool:
        """Whether (k, p) is the smallest of its images under the symmetries in ``stab``."""
        for g in stab:
            colours, placements = self.symmetries[g]
            if (colours[k], placements[p]) < (k, p):
                return False
        return True

    def _facts(self, node: Node) -> "Facts":
        """The counting bounds of both sides and whether the value is counted (remembered for
        the last position asked about: the search asks final, bounds, then moves of one
        position, the same node each time)."""
        last = self._last_facts
        if last is not None and last[0] is node:
            return last[2]
        key = self.key(node)
        if last is not None and last[1] == key:
            return last[2]
        state = node[0]
        rules = self.rules
        most = []
        covers = []
        for colours in self.side_colours:
            total = 0
            tiles = 0
            for k in colours:
                possible = state.possible[k]
                tiles |= possible
                total += min(rules.per_colour - state.placed[k].bit_count(), possible.bit_count())
            union = rules.cover(tiles)
            most.append(min(total, union.bit_count() // 3))
            covers.append(union)
        # apart: no cell both sides can still reach, so neither can ever block the other; with
        # one seat per side each then lays its own most, whatever the order of turns
        apart = self.one_seat_per_side and not covers[0] & covers[1]
        seat = state.to_move
        # alone: every other seat has passed for good (a tile that cannot be laid now never can be)
        alone = not any(rules.can_lay(state, other) for other in range(len(rules.seat_colours)) if other != seat)
        facts = Facts(tuple(most), apart, alone)
        self._last_facts = (node, key, facts)
        return facts

    def count_keepers(self, node: Node) -> list[PlacedTile]:
        """Where :meth:`final` counts the value rather than searching it, the tiles of one
        largest set the mover could lay alone (the set its count found); empty elsewhere.
        Laying any of them first keeps the mover's count, one less and one tile laid, and
        leaves the other side's count as it was, so it keeps the value."""
        state = node[0]
        if state.to_move == OVER:
            return []
        facts = self._facts(node)
        if facts.apart:
            colours = self.side_colours[self.sides[state.to_move]]
        elif facts.alone:
            colours = self.rules.seat_colours[state.to_move]
        else:
            return []
        return self.solo_tiles(state, colours)

    def solo_tiles(self, state: State, colours: tuple[int, ...]) -> list[PlacedTile]:
        """A largest set of tiles of ``colours`` one player could add alone, :meth:`solo_most`
        of them: read off the branch-and-bound's own choices (take the first legal tile
        exactly when leaving it gives fewer)."""
        rules = self.rules
        possible = tuple(state.possible[k] for k in colours)
        left = tuple(rules.per_colour - state.placed[k].bit_count() for k in colours)
        best = self._solo(possible, left)
        tiles: list[PlacedTile] = []
        while best:
            first, p, without, (taken, rest) = self._branch(possible, left)
            if self._solo(without, left) == best:
                possible = without
                continue
            tiles.append((colours[first], p))
            possible, left, best = taken, rest, best - 1
        return tiles

    def solo_most(self, state: State, colours: tuple[int, ...]) -> int:
        """The most tiles of ``colours`` one player could add alone: a branch-and-bound over
        the legal tiles, taking or leaving the first one, with the positions met remembered."""
        rules = self.rules
        possible = tuple(state.possible[k] for k in colours)
        left = tuple(rules.per_colour - state.placed[k].bit_count() for k in colours)
        return self._solo(possible, left)

    def _solo(self, possible: tuple[int, ...], left: tuple[int, ...]) -> int:
        key = (possible, left)
        known = self.solo_memo.get(key)
        if known is not None:
            return known
        self.deadline.check()
        if not any(possible):
            return 0
        _, _, without, (taken, rest) = self._branch(possible, left)
        best = self._solo(without, left)
        if 1 + sum(min(n, m.bit_count()) for n, m in zip(rest, taken)) > best:
            best = max(best, 1 + self._solo(taken, rest))
        self.solo_memo[key] = best
        return best

    def _branch(self, possible: tuple[int, ...], left: tuple[int, ...]) -> tuple:
        """The branch-and-bound's step at the first legal tile (the lowest placement of the
        first colour that has one): (that colour's index, the placement, the legal tiles when
        it is left out, and (legal tiles, supplies) when it is laid: the tiles it overlaps,
        and those of its colour it comes near, are gone; a spent supply takes its colour's)."""
        rules = self.rules
        first = next(i for i, mask in enumerate(possible) if mask)
        p = (possible[first] & -possible[first]).bit_length() - 1
        without = list(possible)
        without[first] &= ~(1 << p)
        taken = [mask & ~rules.overlaps[p] for mask in possible]
        taken[first] &= ~rules.near[p]
        rest = list(left)
        rest[first] -= 1
        if rest[first] == 0:
            taken[first] = 0
        return first, p, tuple(without), (tuple(taken), tuple(rest))


# --------------------------------------------------------------------------- the query


@dataclass
class Solution:
    """What solving a position found.

    ``value``: the proven final margin (side A minus side B) with perfect play, or None;
    ``lower``/``upper``: what is proven about it; ``move``: the best move found (checked by
    the referee), None when the game is over; ``outcome``: win / loss / draw for the side to
    move, or unknown when not proven.

    ``line``: the line of play from the position, ``move`` first (every move checked by the
    referee). With the value proven (``line_proven``), each move keeps it, and the line goes
    to the end of the game unless the time limit cut it short (``line_complete``); otherwise
    it is the line the searches so far prefer. ``stopped``: the Ctrl-C or SIGTERM that ended
    the search (what is here was found before it).
    """

    to_move: int | None
    lower: float
    upper: float
    move: Move | None
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0
    estimate: float | None = None
    root_bounds: Bounds | None = None
    stats: dict = field(default_factory=dict)
    line: tuple[Move, ...] = ()
    line_proven: bool = False
    line_complete: bool = False
    stopped: Stop | None = None
    move_checked: bool = False

    @property
    def value(self) -> int | None:
        """The proven margin, or None."""
        return int(self.lower) if self.lower == self.upper else None

    def outcome_for(self, side: int) -> str:
        """``win``, ``loss``, ``draw`` for ``side`` when the proven bounds say it, else ``unknown``."""
        sign = 1 if side == 0 else -1
        low, high = sorted((sign * self.lower, sign * self.upper))
        if low > 0:
            return WIN
        if high < 0:
            return LOSS
        if low == high == 0:
            return DRAW
        return UNKNOWN

    @property
    def outcome(self) -> str:
        """The outcome for the side to move (for side A when the game is over)."""
        return self.outcome_for(self.to_move if self.to_move is not None else 0)

    def to_json(self) -> dict:
        """The answer as ``lixso game solve --json`` gives it, without the position's own
        fields (``to_move``, ``value_is_for``: side A, the side ``value`` is counted for)."""
        return {
            "outcome": self.outcome,
            "value": self.value,
            "lower": int(self.lower),
            "upper": int(self.upper),
            "best_move": None if self.move is None else str(self.move),
            "proven": self.value is not None,
            "line": [str(move) for move in self.line],
            "line_proven": self.line_proven,
            "line_complete": self.line_complete,
            "move_checked": self.move_checked,
            "interrupted": self.stopped is not None,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


TABLE_BYTES = 400_000_000
"""Memory the transposition table may take, about (measured: 175 bytes an entry on 9x9)."""


def table_limit(rules: GameRules) -> int:
    """How many table entries fit in :data:`TABLE_BYTES` for this grid (keys grow with it)."""
    entry = 120 + 4 * rules.cell_count // 8
    return max(100_000, TABLE_BYTES // entry)


def remaining_moves(rules: GameRules, state: State) -> int:
    """No game from ``state`` lasts more moves than this: a third of the empty cells, and the supplies left."""
    empty = rules.cell_count - sum(mask.bit_count() for mask in state.placed) * 3
    supply = sum(rules.per_colour - mask.bit_count() for mask in state.placed)
    return min(empty // 3, supply)


def solve(
    rules: GameRules,
    state: State,
    deadline: Deadline | None = None,
    backend: str = GAME_BACKEND,
    use_root_bounds: bool = True,
    use_symmetry: bool = True,
    deepen_share: float | None = None,
) -> Solution:
    """The value of ``state`` with perfect play and a best move, within ``deadline``.

    Past the deadline: the best move found so far (from the deepest finished search) and
    whatever bounds were proven. The move is checked by the referee before it is returned.
    With a deadline, a share of the time may go to depth-limited searches first, so that the
    move is a considered one if the exact search does not finish: ``deepen_share`` of it, or
    by default :data:`DEEPEN_SHARE` of it and at most :data:`DEEPEN_SECONDS`.
    ``use_root_bounds`` and ``use_symmetry`` switch parts of the search off (for tests and
    measurements); the answer is the same. The solution holds the line of play too (see
    :class:`Solution`). A Ctrl-C or SIGTERM does not escape: the solution holds what was
    found before it, and the stop (``stopped``) for the caller to raise once it is shown.
    """
    deadline = deadline or Deadline.never()
    started = time.perf_counter()
    game = LixsoSearch(rules, deadline, use_symmetry)
    node = game.root(state)
    to_move = None if state.over else rules.seating.sides[state.to_move]
    root = None
    stopped: Stop | None = None
    if use_root_bounds and not state.over:
        remaining = deadline.remaining()
        share = deadline if remaining is None else deadline.sooner(ROOT_BOUNDS_SHARE * remaining)
        try:
            root = bounds(rules, state, backend, share)
        except TimeUp:
            root = None
        except Stop as stop:  # before any search: nothing found yet, said so by the caller
            stopped = stop
        if root is not None and root.known():
            a, b = root.sides
            low = a.laid + a.sure - (b.laid + b.most)  # type: ignore[operator]
            high = a.laid + a.most - (b.laid + b.sure)  # type: ignore[operator]
            game.root_bounds[game.key(node)] = (low, high)
    search = Search(game, deadline, table_limit(rules))
    remaining = deadline.remaining()
    if remaining is None:
        look_ahead = 0.0  # the exact answer will come; no move is needed before it
    elif deepen_share is None:
        look_ahead = min(DEEPEN_SHARE * remaining, DEEPEN_SECONDS)
    else:
        look_ahead = deepen_share * remaining
    longest = max(remaining_moves(rules, state), 1)
    if stopped is None:
        answer: Answer = search.solve(node, longest, look_ahead)
    else:
        answer = Answer(*game.bounds(node), None, stopped=stopped)
    move = None
    if answer.move is not None:
        move = rules.move_of(*answer.move)
        broken = rules.violation(state, move)
        if broken is not None:
            raise RuntimeError(f"the search chose an illegal move {move}: {broken}")
    elif not state.over and answer.stopped is None:
        first = rules.moves(state)[0]  # no search finished: at least a legal move
        move = rules.move_of(*first)
    line, proven, complete = _line_of_play(search, node, answer, longest)
    if proven and line and line[0] != answer.move:
        # the line's first move is the first that keeps the value, the best move tried first
        raise RuntimeError(f"the best move {move} does not keep the proven value {answer.value}")
    return Solution(to_move, answer.lower, answer.upper, move, answer.nodes, time.perf_counter() - started,
                    answer.depth, answer.estimate, root, answer.stats, _replayed_line(rules, state, line, answer.value if complete else None),
                    proven, complete, answer.stopped, answer.move_checked or (proven and bool(line)))


def _line_of_play(search: Search, node: Node, answer: Answer, longest: int) -> tuple[list[PlacedTile], bool, bool]:
    """The line of play from the root: (moves, proven, complete). With the value proven and
    no stop, best play to the end of the game (as far as the deadline allows); otherwise the
    line the searches preferred, read off the table."""
    if answer.move is None:
        return [], False, False
    if answer.value is None or answer.stopped is not None:
        return search.table_line(node, answer.move, longest), False, False
    line: list[PlacedTile] = []
    try:
        search.principal_line(node, answer.value, longest, answer.move, line)
    except TimeUp:
        return line, True, False
    except Stop as stop:
        answer.stopped = stop
        return line, True, False
    return line, True, True


def _replayed_line(rules: GameRules, state: State, line: list[PlacedTile], value: int | None) -> tuple[Move, ...]:
    """The line as moves, each laid by the referee; a complete proven line must end the game
    with the proven margin."""
    moves = []
    for tile in line:
        move = rules.move_of(*tile)
        state = rules.lay(state, move)  # IllegalMove: a defect of the search, never of the input
        moves.append(move)
    if value is not None and (not state.over or state.scores[0] - state.scores[1] != value):
        raise RuntimeError(f"the line of play ends {'with' if state.over else 'before the end, at'} a margin of"
                           f" {state.scores[0] - state.scores[1]}, not the proven {value}")
    return tuple(moves)


class WinTest:
    """Does ``side`` win with perfect play? ``solve``'s own search asked one null-window
    question (value at least 1 for side A, at most -1 for side B) instead of the whole
    margin; used by ``forced`` when its horizon holds the whole game. The table stays warm,
    so :meth:`winning_move` then names a move that keeps the win at any position of it."""

    def __init__(self, rules: GameRules, side: int, deadline: Deadline | None = None, backend: str = GAME_BACKEND) -> None:
        self.rules = rules
        self.side = side
        self.deadline = deadline or Deadline.never()
        self.game = LixsoSearch(rules, self.deadline)
        self.search = Search(self.game, self.deadline, table_limit(rules))
        self.backend = backend

    @property
    def nodes(self) -> int:
        """Positions searched so far."""
        return self.search.nodes

    def wins(self, state: State) -> bool:
        """Whether ``side`` ends ahead with perfect play from ``state`` (``TimeUp`` past the deadline)."""
        node = self.game.root(state)
        if self.side == 0:
            value, _, _ = self.search.search(node, 0, 1, float("inf"))
            return value >= 1
        value, _, _ = self.search.search(node, -1, 0, float("inf"))
        return value <= -1

    def winning_move(self, state: State) -> PlacedTile:
        """A move of ``side`` (to move in ``state``, which it wins) that keeps the win."""
        node = self.game.root(state)
        entry = self.search.table.get(self.game.key(node))
        target, maximising = (1, True) if self.side == 0 else (-1, False)
        for move in self.game.moves(node, entry.move if entry is not None else None):
            if self.search._achieves(node, move, target, maximising):
                return move
        raise RuntimeError("no move keeps a win the search proved")
