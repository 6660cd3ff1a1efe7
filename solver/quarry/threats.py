"""One-move questions, answered by the rules alone: which single stone wins now (a *threat*),
and which moves leave the opponent no such stone (a *block*).

A stone covers a connected set of cells and turns them all to its player's colour, so it wins
exactly when those cells, together with the player's regions they touch or cover, reach both
Quarry zones. The regions are labelled once per position; each cell then says whether a stone
covering it reaches the first zone's side, the second's, or neither, and a stone is checked by
the rules only when its cells reach both. Most stones are rejected by that test alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from placesat.core.limits import Deadline

from .model import PLAYERS, Placement, opponent
from .rules import State, anchors_over, laid_at, lay, layings, line, resting_level
from .stones import Orientation


@dataclass(frozen=True)
class Sides:
    """For one player: per cell, whether a stone covering it would join the first zone's side
    (``first``) or the second's (``second``)."""

    first: list[bool]
    second: list[bool]

    def any_stone_can_win(self, spread: int, width: int) -> bool:
        """Whether some cell of each side lie within ``spread`` steps (a stone's reach) of each other."""
        return bool(spread_mask(cell_mask(self.first), spread, width, len(self.first)) & cell_mask(self.second))


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def cell_mask(marked: list[bool]) -> int:
    """The marked cells as the bits of one integer (bit i: cell i)."""
    return int(bytes(marked[::-1]).translate(_DIGITS), 2) if marked else 0


def colour_mask(state: State, player: str) -> int:
    """The cells showing ``player``'s colour from above, as bits (:func:`cell_mask`)."""
    return cell_mask([who == player for who in state.top])


def side_masks(state: State, player: str) -> tuple[int, int]:
    """:func:`sides` as bits (``first``, ``second``), by flooding: the cells of ``player``'s
    colour joined to a goal row's cell of its colour form the regions touching that zone; the
    side is the goal rows, those regions and the cells next to them."""
    return masks_of_sides(state.board, colour_mask(state, player))


def masks_of_sides(board, mine: int) -> tuple[int, int]:
    """:func:`side_masks` for the cells ``mine`` (bits) showing the player's colour."""
    width, n = board.width, board.cells
    out = []
    for rows in board.goal_rows():
        goal = sum(((1 << width) - 1) << (r * width) for r in rows)
        region = mine & goal
        while True:
            grown = spread_mask(region, 1, width, n) & mine
            if grown == region:
                break
            region = grown
        out.append(goal | spread_mask(region, 1, width, n))
    return out[0], out[1]


@lru_cache(maxsize=16)
def _edges(width: int, cells: int) -> tuple[int, int, int]:
    """The whole board, the cells with a neighbour on their left, those with one on their right."""
    return (1 << cells) - 1, sum(1 << i for i in range(cells) if i % width), sum(1 << i for i in range(cells) if (i + 1) % width)


def spread_mask(mask: int, steps: int, width: int, cells: int) -> int:
    """The cells at most ``steps`` side-to-side steps from a cell of ``mask`` (bits as in
    :func:`cell_mask`), one step at a time: up, down, and sideways without leaving the row."""
    board, no_left, no_right = _edges(width, cells)
    for _ in range(steps):
        mask |= ((mask << width) | (mask >> width) | ((mask & no_right) << 1) | ((mask & no_left) >> 1)) & board
    return mask


def sides(state: State, player: str) -> Sides:
    """Label the regions of ``player``'s colour (seen from above) and mark, for each cell, which
    zone sides a stone covering it would reach: its own row if it is a goal row, the region it
    covers, and the regions next to it."""
    board = state.board
    width = board.width
    n = board.cells
    first_rows, last_rows = board.goal_rows()
    region = [-1] * n
    adjacent = board.adjacent
    reaches: list[tuple[bool, bool]] = []
    for start in range(n):
        if region[start] != -1 or state.top[start] != player:
            continue
        label = len(reaches)
        region[start] = label
        stack = [start]
        touch_first = touch_last = False
        while stack:
            i = stack.pop()
            r = i // width
            touch_first |= r in first_rows
            touch_last |= r in last_rows
            for j in adjacent[i]:
                if region[j] == -1 and state.top[j] == player:
                    region[j] = label
                    stack.append(j)
        reaches.append((touch_first, touch_last))
    first = [i // width in first_rows for i in range(n)]
    second = [i // width in last_rows for i in range(n)]
    # a cell of a region, and each cell next to it, reaches what the region reaches
    for i in range(n):
        label = region[i]
        if label == -1:
            continue
        to_first, to_last = reaches[label]
        if to_first:
            first[i] = True
            for j in adjacent[i]:
                first[j] = True
        if to_last:
            second[i] = True
            for j in adjacent[i]:
                second[j] = True
    return Sides(first, second)


def _spread(orientation: Orientation) -> int:
    return orientation.spread


def reach_of(state: State, player: str) -> int:
    """The most side-to-side steps between two cells of one of ``player``'s remaining stones;
    -1 when it has none."""
    return max((_spread(o) for kind in state.stones.kinds if state.left(player, kind.name) > 0 for o in kind.orientations), default=-1)


def may_win_at_once(board, mine: int, reach: int) -> bool:
    """Whether, with the cells ``mine`` (bits) showing the player's colour, a cell of the first
    zone's side lies within ``reach`` steps of one of the second's: a winning stone covers one of
    each (:func:`winning_moves`), so without it the player has no win at once."""
    first, second = masks_of_sides(board, mine)
    return reach >= 0 and bool(spread_mask(first, reach, board.width, board.cells) & second)


def winning_moves(state: State, player: str, first_only: bool = False) -> list[tuple[Placement, int]]:
    """Every legal stone that completes ``player``'s line at once (as if it were its turn), with
    the level it rests at (``first_only``: the first found, for a yes or no). Empty once the game
    is over."""
    if state.is_over:
        return []
    kinds = {kind.name for kind in state.stones.kinds if state.left(player, kind.name) > 0}
    spread = max((_spread(o) for kind in state.stones.kinds if kind.name in kinds for o in kind.orientations), default=-1)
    if spread < 0:
        return []
    first_mask, second_mask = side_masks(state, player)
    return wins_between(state, player, first_mask, second_mask, spread, kinds, first_only)


def wins_between(
    state: State, player: str, first_mask: int, second_mask: int, spread: int, kinds: set[str], first_only: bool = False,
    within: int | None = None,
) -> list[tuple[Placement, int]]:
    """:func:`winning_moves` for the sides ``first_mask`` and ``second_mask`` (:func:`side_masks`
    of this state), ``player``'s stone kinds left ``kinds`` and their largest ``spread``: a
    winning stone covers a cell of each side, so it is anchored through one of each (anchors as
    bits, :func:`placesat.quarry.rules.anchors_over`), and only those anchors are checked by the
    rules. With ``within`` (bits), only the stones covering one of those cells."""
    board = state.board
    width = board.width
    if not spread_mask(first_mask, spread, width, board.cells) & second_mask:
        return []  # no cell of one side within a stone's reach of the other's
    height, top = state.height, state.top
    found = []
    for laying in layings(state.stones, board):
        if laying.kind not in kinds:
            continue
        both = anchors_over(first_mask, laying.offsets, laying.inside)
        if both:
            both = anchors_over(second_mask, laying.offsets, both)
        if within is not None and both:
            both = anchors_over(within, laying.offsets, both)
        for placed in laid_at(height, top, width, player, laying, both):
            found.append(placed)
            if first_only:
                return found
    return found


def threats(state: State) -> dict[str, list[tuple[Placement, int]]]:
    """For each player, every single stone that would win now."""
    return {player: winning_moves(state, player) for player in PLAYERS}


@dataclass(frozen=True)
class Block:
    """A move for the player after which the opponent has no one-move win (``wins``: the move
    itself completes the player's line)."""

    placement: Placement
    base: int
    wins: bool


def blocks(state: State, player: str, candidates: list[tuple[Placement, int]], deadline: Deadline | None = None) -> list[Block]:
    """Of ``candidates`` (legal placements for ``player``), those after which the opponent has no
    winning stone; a move that wins at once counts (the game is over). ``TimeUp`` when
    ``deadline`` comes before every candidate is checked (on a large board that takes a minute)."""
    other = opponent(player)
    before = winning_moves(state, other)
    found = []
    for placement, base in candidates:
        if deadline is not None:
            deadline.check()
        after = state.copy()
        lay(after, player, placement, base)
        if line(after, player) is not None:
            found.append(Block(placement, base, True))
            continue
        # most moves leave one of the opponent's present wins standing: try those first
        if any(_still_wins(after, other, win) for win, _ in before):
            continue
        if not winning_moves(after, other):
            found.append(Block(placement, base, False))
    return found


def _still_wins(state: State, player: str, placement: Placement) -> bool:
    """Whether ``placement`` is still legal for ``player`` and completes its line."""
    orientation = state.stones[placement.stone].orientation(placement.face, placement.direction)
    base, broken, _ = resting_level(state, player, orientation, placement.at)
    if broken is not None:
        return False
    after = state.copy()
    lay(after, player, placement, base)
    return line(after, player) is not None

