"""The rules of Quarry, written plainly, without any solver.

This module is the referee: where a stone comes to rest and whether it may be laid there, the
top view, the winning line, turns and passes, replaying a game, and tournament points. The
solver-based queries (:mod:`placesat.quarry.reach`) replay their answers here, and the fast
single-move queries (:mod:`placesat.quarry.threats`) are built on it.

A stone is laid by lowering it from above until one of its columns touches what stands below:
its height is therefore never a choice, and no stone ever goes under another (rule 3). Then:
every column that is not open must touch too (no overhang, rule 5), nothing may reach above
level 5 (rule 2), and every end must rest on the board or on the player's own colour (rule 1).
The rules as implemented, with every interpretation, are in ``seeds/quarry.md``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterator

from placesat.core.errors import InputError
from placesat.core.inputs import json_path

from .model import PASS, PLAYERS, Board, Cell, Move, Placement, Played, Position, cell_name, opponent
from .stones import END, MAX_LEVELS, OPEN, Cube, Orientation, StoneSet

WINNER_FACTOR = 2
"""Tournament scoring: the winner scores its unplayed stones double, the loser at face value."""


class IllegalMove(InputError):
    """A move the rules forbid; the message names the rule it breaks."""


@dataclass(frozen=True)
class Laid:
    """A stone on the board: who laid it, the placement, the level of its bottom, its cubes."""

    player: str
    placement: Placement
    base: int
    cubes: tuple[Cube, ...]

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells it covers, seen from above."""
        return tuple(sorted({(r, c) for r, c, _ in self.cubes}))


@dataclass
class State:
    """What stands on the board, and whose turn it is.

    ``height[i]`` is the number of levels filled or covered in cell ``i`` (row * width + column):
    the level the next cube there would sit at. ``top[i]`` is the colour seen from above (None for
    the bare board). ``owner`` maps each cube to the number of the stone it belongs to in ``laid``.
    """

    board: Board
    stones: StoneSet
    to_move: str
    height: list[int]
    top: list[str | None]
    owner: dict[Cube, int] = field(default_factory=dict)
    laid: list[Laid] = field(default_factory=list)
    used: dict[str, dict[str, int]] = field(default_factory=dict)
    winner: str | None = None
    passes: int = 0

    @classmethod
    def empty(cls, board: Board, stones: StoneSet, first: str) -> "State":
        """The empty board, ``first`` to move."""
        return cls(board, stones, first, [0] * board.cells, [None] * board.cells, used={p: {} for p in PLAYERS})

    def copy(self) -> "State":
        """An independent copy (the stone list and the tables are copied, the stones shared)."""
        return State(
            self.board, self.stones, self.to_move, list(self.height), list(self.top), dict(self.owner),
            list(self.laid), {p: dict(u) for p, u in self.used.items()}, self.winner, self.passes,
        )

    def index(self, cell: Cell) -> int:
        """The list index of ``cell``."""
        return cell[0] * self.board.width + cell[1]

    def height_at(self, cell: Cell) -> int:
        """Levels filled or covered in ``cell``."""
        return self.height[self.index(cell)]

    def top_at(self, cell: Cell) -> str | None:
        """The colour seen from above in ``cell`` (None: the bare board)."""
        return self.top[self.index(cell)]

    def left(self, player: str, stone: str) -> int:
        """How many stones of this kind ``player`` has not played yet."""
        return self.stones[stone].count - self.used[player].get(stone, 0)

    def supply(self, player: str) -> dict[str, int]:
        """The stones ``player`` has left, by kind (kinds with none left included)."""
        return {name: self.left(player, name) for name in self.stones.names}

    @property
    def is_over(self) -> bool:
        """A line was completed, or neither player could move (two passes in a row)."""
        return self.winner is not None or self.passes >= 2


# --------------------------------------------------------------------------- laying one stone


def orientation_of(stones: StoneSet, placement: Placement) -> Orientation:
    """The oriented shape a placement lays."""
    return stones[placement.stone].orientation(placement.face, placement.direction)


def drop(state: State, player: str, orientation: Orientation, at: Cell) -> tuple[int, str | None]:
    """Lower a stone over ``at`` until it touches; ``(base, None)`` when it may stay there, else
    ``(base, the broken rule)``. ``base`` is the level of the stone's bottom (-1 if off the board).

    The rules, in the order they are checked: every cube on the board; the stone comes down until
    a column touches (so it is never under anything, rule 3); no level above 5 (rule 2); every
    column that is not open rests on what is below (no overhang, rule 5); every end rests on the
    board or the player's own colour (rule 1; between its ends it may cross the opponent's).
    """
    base, fault, col = resting_level(state, player, orientation, at)
    if fault is None:
        return base, None
    r, c = at[0] + col.dr, at[1] + col.dc  # type: ignore[union-attr]
    if fault == OFF_BOARD:
        board = state.board
        return -1, f"off the board: the {orientation.stone} would cover {_name(r, c)}, outside a1-{cell_name((board.length - 1, board.width - 1))}"
    if fault == TOO_HIGH:
        return base, f"too high: the {orientation.stone} would rest at height {base} and reach {base + orientation.height}; no stone goes above {MAX_LEVELS} (rule 2)"
    i = r * state.board.width + c
    if fault == OVERHANG:
        gap = base + col.bottom - state.height[i]  # type: ignore[union-attr]
        return base, (
            f"overhang: resting at height {base}, the {orientation.stone}'s cube over {_name(r, c)} "
            f"would hang {gap} level(s) above what is there; no stone may overhang (rule 5)"
        )
    return base, (
        f"end on the opponent: the {orientation.stone}'s end at {_name(r, c)} would rest on "
        f"{state.top[i]}'s stone; a stone's ends rest on the board or on its own colour (rule 1)"
    )


OFF_BOARD, TOO_HIGH, OVERHANG, END_ON_OPPONENT = "off the board", "too high", "overhang", "end on the opponent"
"""The rules :func:`resting_level` can find broken, in the order it checks them."""


def resting_level(state: State, player: str, orientation: Orientation, at: Cell) -> tuple[int, str | None, object]:
    """:func:`drop` without the words (the move generator asks it hundreds of thousands of times):
    the base, the first rule broken (None, or one of :data:`OFF_BOARD` ... :data:`END_ON_OPPONENT`)
    and the column that breaks it."""
    board = state.board
    width = board.width
    height = state.height
    r0, c0 = at
    base = 0
    for col in orientation.columns:
        r, c = r0 + col.dr, c0 + col.dc
        if not (0 <= r < board.length and 0 <= c < width):
            return -1, OFF_BOARD, col
        need = height[r * width + c] - col.bottom
        if need > base:
            base = need
    if base + orientation.height > MAX_LEVELS:
        return base, TOO_HIGH, orientation.columns[0]
    top = state.top
    for col in orientation.columns:
        i = (r0 + col.dr) * width + c0 + col.dc
        if col.role != OPEN and height[i] != base + col.bottom:
            return base, OVERHANG, col
        if col.role == END and height[i] > 0 and top[i] != player:
            return base, END_ON_OPPONENT, col
    return base, None, None


def _name(r: int, c: int) -> str:
    if r < 0 or c < 0:
        return f"row {r + 1} column {c + 1}"
    return cell_name((r, c))


def check_placement(state: State, player: str, placement: Placement) -> int:
    """The base a legal placement rests at; :class:`IllegalMove` naming the broken rule otherwise."""
    if state.winner is not None:
        raise IllegalMove(f"the game is over: {state.winner} has won")
    if state.left(player, placement.stone) <= 0:
        raise IllegalMove(f"{player} has no {placement.stone} left (all {state.stones[placement.stone].count} played)")
    base, broken = drop(state, player, orientation_of(state.stones, placement), placement.at)
    if broken is not None:
        raise IllegalMove(f"{placement.text(state.stones)}: {broken}")
    return base


def lay(state: State, player: str, placement: Placement, base: int) -> None:
    """Put a stone on the board (in place), assuming :func:`check_placement` allowed it; the
    cells it covers show ``player``'s colour and are covered up to its top (open cells too)."""
    orientation = orientation_of(state.stones, placement)
    r0, c0 = placement.at
    number = len(state.laid)
    cubes = tuple((r0 + r, c0 + c, base + z) for r, c, z in orientation.cubes)
    for cube in cubes:
        state.owner[cube] = number
    width = state.board.width
    for col in orientation.columns:
        i = (r0 + col.dr) * width + c0 + col.dc
        state.height[i] = base + col.top + 1
        state.top[i] = player
    state.laid.append(Laid(player, placement, base, cubes))
    state.used[player][placement.stone] = state.used[player].get(placement.stone, 0) + 1


@dataclass(frozen=True)
class Laying:
    """One orientation of a stone on a board of one size, for the move generator: its columns
    as flat cell offsets (``row * width + column`` from the anchor), with their bottom level
    and role, and the anchors (bits, bit ``row * width + column``) where every cell is on the board."""

    kind: str
    orientation: Orientation
    offsets: tuple[int, ...]
    columns: tuple[tuple[int, int, str], ...]
    inside: int


_LAYINGS: dict[tuple[int, int, int], tuple[StoneSet, tuple[Laying, ...], dict[Placement, tuple[int, ...]]]] = {}
"""Per stone set and board size: the layings, and the cells of each placement asked (a few
thousand on the standard board), kept."""


def layings(stones: StoneSet, board: Board) -> tuple[Laying, ...]:
    """Every listed orientation of every stone kind (the order of :func:`placements`) on a board
    of this size; made once per stone set and size."""
    key = (id(stones), board.length, board.width)
    made = _LAYINGS.get(key)
    if made is None or made[0] is not stones:
        made = _make_layings(stones, board)
        _LAYINGS[key] = made
    return made[1]


def placement_indices(stones: StoneSet, board: Board, placement: Placement) -> tuple[int, ...]:
    """The cells ``placement`` covers (on the board), as indices ``row * width + column``."""
    key = (id(stones), board.length, board.width)
    made = _LAYINGS.get(key)
    if made is None or made[0] is not stones:
        layings(stones, board)
        made = _LAYINGS[key]
    known = made[2].get(placement)
    if known is not None:
        return known
    r0, c0 = placement.at
    width = board.width
    orientation = orientation_of(stones, placement)
    found = made[2][placement] = tuple((r0 + col.dr) * width + c0 + col.dc for col in orientation.columns)
    return found


def placement_cells(stones: StoneSet, board: Board, placement: Placement) -> int:
    """The cells ``placement`` covers, as bits (bit ``row * width + column``)."""
    out = 0
    for i in placement_indices(stones, board, placement):
        out |= 1 << i
    return out


def _make_layings(stones: StoneSet, board: Board):
    width = board.width
    out = []
    for kind in stones.kinds:
        for orientation in kind.orientations:
            rows = [col.dr for col in orientation.columns]
            cols = [col.dc for col in orientation.columns]
            inside = 0
            # (the anchor is a cell of the stone, so every anchor on the board is a cell's bit)
            for r in range(max(0, -min(rows)), board.length - max(rows)):
                for c in range(max(0, -min(cols)), width - max(cols)):
                    inside |= 1 << (r * width + c)
            columns = tuple((col.dr * width + col.dc, col.bottom, col.role) for col in orientation.columns)
            out.append(Laying(kind.name, orientation, tuple(o for o, _, _ in columns), columns, inside))
    return stones, tuple(out), {}


def anchors_over(marked: int, offsets: tuple[int, ...], inside: int) -> int:
    """The anchors in ``inside`` (bits) from which a stone with these flat cell ``offsets``
    covers a cell of ``marked``. Counted on the flat index an offset that leaves its row would
    land on another row's cell, but an anchor in ``inside`` keeps every cell on the board, where
    the flat offset is the cell's own: so these are exactly the anchors covering a marked cell."""
    out = 0
    for shift in offsets:
        out |= marked >> shift if shift >= 0 else marked << -shift
    return out & inside


def rest_base(height: list[int], top: list[str | None], player: str, laying: Laying, anchor: int) -> int:
    """:func:`resting_level` for a stone whose cells are all on the board (``anchor``: the flat
    index of its anchor): the level it rests at when ``player`` may lay it there, else -1."""
    base = 0
    for offset, bottom, _ in laying.columns:
        need = height[anchor + offset] - bottom
        if need > base:
            base = need
    if base + laying.orientation.height > MAX_LEVELS:
        return -1
    for offset, bottom, role in laying.columns:
        level = height[anchor + offset]
        if role != OPEN and level != base + bottom:
            return -1
        if role == END and level > 0 and top[anchor + offset] != player:
            return -1
    return base


def placements(
    state: State, player: str, stones: tuple[str, ...] | None = None, touching: tuple[int, ...] | None = None
) -> Iterator[tuple[Placement, int]]:
    """Every legal placement for ``player`` (whoever is to move) with its base: each way of
    laying a stone it still has, listed once (a Brick laid east from a1 is the Brick laid west
    from b1, and only the first is listed). Nothing once the game is over. With ``touching``
    (cell sets as bits, bit ``r * width + c``), only the placements covering a cell of each set,
    in the same order (the others are not checked against the rules at all)."""
    if state.winner is not None:
        return
    width = state.board.width
    height, top = state.height, state.top
    left = {name: state.left(player, name) for name in state.stones.names}
    for laying in layings(state.stones, state.board):
        if (stones is not None and laying.kind not in stones) or left[laying.kind] <= 0:
            continue
        anchors = laying.inside
        if touching is not None:
            for need in touching:
                anchors = anchors_over(need, laying.offsets, anchors)
        yield from laid_at(height, top, width, player, laying, anchors)


def laid_at(height: list[int], top: list[str | None], width: int, player: str, laying: Laying, anchors: int) -> Iterator[tuple[Placement, int]]:
    """``laying`` laid by ``player`` at each of ``anchors`` (bits, lowest first) where the rules
    let it rest (:func:`rest_base`), with its base: the placements of that stone there."""
    orientation = laying.orientation
    while anchors:
        low = anchors & -anchors
        anchors ^= low
        at = low.bit_length() - 1
        base = rest_base(height, top, player, laying, at)
        if base >= 0:
            yield Placement(laying.kind, orientation.face, orientation.direction, divmod(at, width)), base


def legal_moves(state: State) -> list[Move]:
    """The mover's placements in the rules' order; a pass when none fits; none once the game is over."""
    if state.is_over:
        return []
    found: list[Move] = [p for p, _ in placements(state, state.to_move)]
    return found or [PASS]


def has_placement(state: State, player: str) -> bool:
    """Whether ``player`` can lay any stone."""
    return next(placements(state, player), None) is not None


# --------------------------------------------------------------------------- the line


def line(state: State, player: str) -> list[Cell] | None:
    """A winning line of ``player``: a shortest path of cells showing its colour from above,
    joined side to side, from a cell in a row next to (or, with zones inside, in) one Quarry zone
    to one at the other. None when there is none."""
    board = state.board
    width = board.width
    first, last = board.goal_rows()
    ends = {r * width + c for r in last for c in range(width)}
    parent: dict[int, int | None] = {}
    queue: deque[int] = deque()
    adjacent = board.adjacent
    for r in first:
        for c in range(width):
            i = r * width + c
            if state.top[i] == player:
                parent[i] = None
                queue.append(i)
    while queue:
        i = queue.popleft()
        if i in ends:
            path = []
            node: int | None = i
            while node is not None:
                path.append(divmod(node, width))
                node = parent[node]
            return path[::-1]
        for j in adjacent[i]:
            if j not in parent and state.top[j] == player:
                parent[j] = i
                queue.append(j)
    return None


# --------------------------------------------------------------------------- turns and games


def play(state: State, move: Move, height: int | None = None) -> State:
    """The state after the player to move makes ``move`` (a new state; ``state`` is unchanged).

    A pass is allowed only to a player who cannot lay any stone; two passes in a row end the game
    without a winner. A stone that completes the mover's line wins at once (the opponent's line
    cannot appear: a stone only covers cells with the mover's colour). ``height``, when given,
    must be where the stone really rests.
    """
    if state.is_over:
        raise IllegalMove(f"the game is over: {state.winner} has won" if state.winner else "the game is over: neither player could move")
    player = state.to_move
    after = state.copy()
    if move == PASS:
        if has_placement(state, player):
            raise IllegalMove(f"{player} may not pass: a player passes only when no stone fits")
        after.passes += 1
        after.to_move = opponent(player)
        return after
    placement: Placement = move  # type: ignore[assignment]
    base = check_placement(state, player, placement)
    if height is not None and height != base:
        rule = "; a stone is never placed under another (rule 3)" if height < base else ""
        raise IllegalMove(f"{placement.text(state.stones)}: the stone rests at height {base}, not {height}{rule}")
    lay(after, player, placement, base)
    after.passes = 0
    if line(after, player) is not None:
        after.winner = player
    after.to_move = opponent(player)
    return after


def replay(position: Position) -> State:
    """The state after every move of ``position``, each checked; :class:`IllegalMove` names the
    first move that breaks a rule (by its JSON path, ``moves[i]``)."""
    state = State.empty(position.board, position.stones, position.first)
    for i, played in enumerate(position.moves):
        where = json_path("moves", i)
        if played.player != state.to_move and not state.is_over:
            raise IllegalMove(f"{where}: it is {state.to_move}'s turn, not {played.player}'s")
        try:
            state = play(state, played.move, played.height)
        except IllegalMove as error:
            raise IllegalMove(f"{where}: {error.message}") from None
    return state


def record(position: Position, state: State, move: Move) -> tuple[Position, State]:
    """``position`` with ``move`` added for the player to move (checked), and the state after it."""
    after = play(state, move)
    height = after.laid[-1].base if move != PASS else None
    return position.with_move(Played(state.to_move, move, height)), after


def tournament_points(state: State) -> dict[str, int]:
    """Each player's tournament score: the points of its unplayed stones, doubled for the winner
    (so a player can win the game and lose on points)."""
    scores = {}
    for player in PLAYERS:
        left = sum(state.stones[name].points * n for name, n in state.supply(player).items())
        scores[player] = left * (WINNER_FACTOR if state.winner == player else 1)
    return scores


def points_given_up(state: State, stones: list[str]) -> int:
    """The tournament points a player gives up by playing these stones (at face value)."""
    return sum(state.stones[name].points for name in stones)

