"""The rules of the Lixso strategic game, written plainly, without any solver.

Players take turns laying one L-tile of one of their colours. A tile may be laid when:

1. *turn*: its colour is one the player to move plays;
2. *shape*: its three cells fill three quarters of a 2x2 block inside the grid;
3. *empty*: none of its cells is covered yet;
4. *clue*: every clue cell it covers has its colour;
5. *touch*: it touches (by a side or a corner) no tile of its colour;
6. *clue-touch* (on by default): it touches no clue cell of its colour that it does not cover;
7. *supply*: its colour's supply is not used up.

A player who can lay no tile passes; the game ends when nobody can lay one. The side
(player or team) with the most tiles laid wins; equal counts are a draw.

Two engines live here, kept apart so that each checks the other (the tests compare them):

- :meth:`GameRules.violation` checks a move cell by cell, rule by rule, and names the first
  rule it breaks: the referee for typed moves and for records;
- :meth:`GameRules.play` and :meth:`GameRules.moves` keep, per colour, the set of tiles still
  legal as a bit set over every L-placement of the grid, updated by table look-ups: the
  engine that the search runs millions of times.

Every rule only ever forbids more as tiles are laid, never less: a tile that cannot be laid
now can never be laid later. So a player who passes passes for the rest of the game, and
whose turn it is follows from the record alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from placesat.core.errors import InputError
from placesat.core.lattice import SquareLattice
from placesat.core.play import Outcome
from placesat.core.shapes import L_TROMINO

from ..model import COLOURS, EMPTY, Grid
from ..rules import Violation, is_l_tile
from .model import CLUE_TOUCH_DEFAULT, Cell, Move, Position, Seating, cell_name, position_to_json

COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}
OVER = -1
"""``State.to_move`` once nobody can lay a tile."""

PlacedTile = tuple[int, int]
"""A tile as the fast engine sees it: (colour index, placement index)."""


class State(NamedTuple):
    """Where a game stands, as the fast engine keeps it.

    ``placed[k]`` and ``possible[k]`` are bit sets over the grid's placements (bit ``p`` is
    placement ``p``): the tiles of colour ``k`` laid so far, and those colour ``k`` may still
    be laid on (empty when its supply is used up). ``scores`` counts the tiles of each side,
    ``to_move`` is the seat to play (:data:`OVER` at the end). ``board`` holds the colour
    of every cell, a cell mask per colour side by side (colour ``k`` from bit
    ``k * cells``): the tiles laid can be read off it, because same-coloured tiles never
    touch. ``possible`` and ``board`` follow from ``placed``; they are kept so that a move
    costs a few look-ups.
    """

    placed: tuple[int, ...]
    possible: tuple[int, ...]
    scores: tuple[int, ...]
    to_move: int
    board: int = 0

    @property
    def over(self) -> bool:
        """Whether nobody can lay a tile any more."""
        return self.to_move == OVER


def _union(masks) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total


def bits(mask: int):
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Turn:
    """One step of a replayed record: the seat that laid ``move``, the seats that passed
    before it did (they could lay nothing), and the state after it."""

    seat: int
    move: Move
    passed: tuple[int, ...]
    state: State


class IllegalMove(Exception):
    """A move that breaks a rule; ``violation`` names the rule."""

    def __init__(self, move: Move, violation: Violation, number: int = 0) -> None:
        super().__init__(f"{move}: {violation}")
        self.move = move
        self.violation = violation
        self.number = number  # its index in the record being replayed


class GameRules:
    """The rules of one game: its grid, seating, supply and variant, with their tables.

    ``placements`` lists every L-tile the grid can hold (cells in reading order); the tables
    say, per placement, which cells it covers (``cells_mask``), which placements share a cell
    with it (``overlaps``) and which share a cell with it or touch it (``near``), and per
    colour which placements the clues alone allow (``allowed``).
    """

    def __init__(self, grid: Grid, seating: Seating, per_colour: int, clue_touch: bool = CLUE_TOUCH_DEFAULT) -> None:
        self.grid = grid
        self.seating = seating
        self.per_colour = per_colour
        self.clue_touch = clue_touch
        self.height, self.width = grid.height, grid.width
        self.cell_count = self.height * self.width
        lattice = SquareLattice(self.height, self.width)
        self.lattice = lattice
        # window by window (the four L-tiles of the 2x2 window with top-left cell (r, c) are
        # placements 4w .. 4w+3, w = r * (width - 1) + c), so that cover() can read a window's
        # tiles as four bits
        self.placements: list[tuple[Cell, ...]] = sorted(
            L_TROMINO.placements(lattice), key=lambda cells: (min(r for r, _ in cells), min(c for _, c in cells), cells)
        )
        self.index = {cells: number for number, cells in enumerate(self.placements)}
        self.cells_mask = [sum(1 << self.cell_bit(cell) for cell in cells) for cells in self.placements]
        ring = [0] * (self.height * self.width)  # each cell with the cells touching it
        for cell in lattice.points:
            ring[self.cell_bit(cell)] = (1 << self.cell_bit(cell)) | sum(1 << self.cell_bit(n) for n in lattice.touching(cell))
        halo = [0] * len(self.placements)
        for number, cells in enumerate(self.placements):
            for cell in cells:
                halo[number] |= ring[self.cell_bit(cell)]
        self.halo = halo
        covering: dict[int, int] = {}
        for number, mask in enumerate(self.cells_mask):
            for cell_bit in bits(mask):
                covering[cell_bit] = covering.get(cell_bit, 0) | (1 << number)
        self.covering = covering
        self.overlaps = [0] * len(self.placements)
        self.near = [0] * len(self.placements)
        for number in range(len(self.placements)):
            for cell_bit in bits(self.cells_mask[number]):
                self.overlaps[number] |= covering[cell_bit]
            for cell_bit in bits(halo[number]):
                self.near[number] |= covering.get(cell_bit, 0)
        self.allowed = tuple(self._allowed(colour) for colour in COLOURS)
        windows = len(self.placements) // 4
        self._window_ones = sum(1 << (4 * w) for w in range(windows))
        self._window_cover = [
            [_union(self.cells_mask[4 * w + o] for o in range(4) if nibble >> o & 1) for nibble in range(16)]
            for w in range(windows)
        ]
        self.seat_colours = tuple(tuple(COLOUR_INDEX[k] for k in seat) for seat in seating.seats)
        self._side_of = tuple(seating.sides)
        self._keep = [~mask for mask in self.overlaps]  # the tiles a placement leaves legal, any colour
        self._apart_from = [~mask for mask in self.near]  # ... and of its own colour

    def cell_bit(self, cell: Cell) -> int:
        """The bit of a cell in a cell mask: cells row by row."""
        return cell[0] * self.width + cell[1]

    def _allowed(self, colour: str) -> int:
        """The placements the clues allow for ``colour``: they cover only clues of that colour
        and, under the clue-touch rule, touch no clue of that colour that they leave uncovered."""
        mask = 0
        for number, cells in enumerate(self.placements):
            covered = {self.grid.rows[r][c] for r, c in cells} - {EMPTY}
            if covered - {colour}:
                continue
            if self.clue_touch and any(
                self.grid.rows[r][c] == colour for r, c in self._touching_cells(cells) if (r, c) not in cells
            ):
                continue
            mask |= 1 << number
        return mask

    def _touching_cells(self, cells: tuple[Cell, ...]) -> set[Cell]:
        return {n for cell in cells for n in self.lattice.touching(cell)}

    # ----------------------------------------------------------------- the fast engine

    def start(self) -> State:
        """The empty grid, the first seat that can lay a tile to move."""
        count = len(self.seating.seats)
        possible = self.allowed
        placed = (0,) * len(COLOURS)
        return State(placed, possible, (0,) * self.seating.side_count, self._next_seat(possible, count - 1), 0)

    def _next_seat(self, possible: tuple[int, ...], after: int) -> int:
        """The first seat after ``after`` (in turn order, ``after`` itself last) that can lay a tile."""
        seat_colours = self.seat_colours
        count = len(seat_colours)
        seat = after
        for _ in range(count):
            seat = seat + 1 if seat + 1 < count else 0
            for k in seat_colours[seat]:
                if possible[k]:
                    return seat
        return OVER

    def cover(self, tiles: int) -> int:
        """The cells (a cell mask) that some placement in the bit set ``tiles`` covers."""
        window_cover = self._window_cover
        any_tile = (tiles | tiles >> 1 | tiles >> 2 | tiles >> 3) & self._window_ones
        cells = 0
        while any_tile:
            low = any_tile & -any_tile
            shift = low.bit_length() - 1
            cells |= window_cover[shift >> 2][(tiles >> shift) & 15]
            any_tile ^= low
        return cells

    def can_lay(self, state: State, seat: int) -> bool:
        """Whether ``seat`` could lay some tile now (if it were its turn)."""
        return any(state.possible[k] for k in self.seat_colours[seat])

    def moves(self, state: State) -> list[PlacedTile]:
        """Every legal move of the seat to move: (colour index, placement index), colour by colour."""
        if state.to_move == OVER:
            return []
        return [(k, p) for k in self.seat_colours[state.to_move] for p in bits(state.possible[k])]

    def play(self, state: State, colour: int, placement: int, seat: int | None = None) -> State:
        """Lay tile ``placement`` in colour ``colour`` for the seat to move (which must be legal).

        The tile's cells are gone for every colour; its colour may no longer touch it; a
        colour whose supply runs out has nothing left; the turn goes to the next seat that
        can still lay a tile. ``seat``: lay it for this seat instead, out of turn (to replay
        what one side could do alone).
        """
        mover = state.to_move if seat is None else seat
        # the search plays millions of moves: the masks are complemented once, in __init__
        keep = self._keep[placement]
        possible = [mask & keep for mask in state.possible]
        placed = list(state.placed)
        laid = placed[colour] | (1 << placement)
        placed[colour] = laid
        if laid.bit_count() >= self.per_colour:
            possible[colour] = 0
        else:
            possible[colour] &= self._apart_from[placement]
        scores = list(state.scores)
        scores[self._side_of[mover]] += 1
        frozen = tuple(possible)
        board = state.board | (self.cells_mask[placement] << (colour * self.cell_count))
        return State(tuple(placed), frozen, tuple(scores), self._next_seat(frozen, mover), board)

    def tiles(self, state: State) -> list[tuple[str, tuple[Cell, ...]]]:
        """The tiles laid, as (colour, cells), colour by colour."""
        return [(COLOURS[k], self.placements[p]) for k in range(len(COLOURS)) for p in bits(state.placed[k])]

    def move_of(self, colour: int, placement: int) -> Move:
        """The move that lays placement ``placement`` in colour ``colour``."""
        return Move(COLOURS[colour], self.placements[placement])

    def coded(self, move: Move) -> PlacedTile | None:
        """A move as (colour index, placement index); None when its cells are no L inside the grid."""
        number = self.index.get(tuple(sorted(move.cells)))
        return None if number is None else (COLOUR_INDEX[move.colour], number)

    # ----------------------------------------------------------------- the referee

    def cell_colours(self, state: State) -> list[list[str]]:
        """The colour on every cell (``.`` for a cell no tile covers)."""
        board = [[EMPTY] * self.width for _ in range(self.height)]
        for colour, cells in self.tiles(state):
            for r, c in cells:
                board[r][c] = colour
        return board

    def violation(self, state: State, move: Move, seat: int | None = None) -> Violation | None:
        """The first rule that laying ``move`` now breaks, or None when it is legal.

        Checked cell by cell from the tiles laid, without the placement tables, in the order
        the rules are listed in the module docstring. ``seat``: the move is laid by this seat,
        out of turn (the turn rule then asks only that the seat plays the colour).
        """
        if seat is None:
            if state.to_move == OVER:
                return Violation("over", "the game is over: nobody can lay a tile")
            seat = state.to_move
        colours = self.seating.seats[seat]
        if move.colour not in colours:
            return Violation("turn", f"it is the turn of {self.seating.seat_name(seat)}, who lays {' or '.join(colours)}")
        cells = move.cells
        outside = tuple(cell for cell in cells if not (0 <= cell[0] < self.height and 0 <= cell[1] < self.width))
        if outside:
            return Violation("shape", f"outside the {self.height}x{self.width} grid", outside)
        if not is_l_tile(tuple(sorted(cells))):
            return Violation("shape", "these cells do not make an L-tile (three quarters of a 2x2 block)", cells)
        board = self.cell_colours(state)
        covered = tuple(cell for cell in cells if board[cell[0]][cell[1]] != EMPTY)
        if covered:
            return Violation("empty", "a tile already covers this cell", covered)
        for r, c in cells:
            clue = self.grid.rows[r][c]
            if clue not in (EMPTY, move.colour):
                return Violation("clue", f"this cell's clue is {clue}: only an {clue} tile may cover it", ((r, c),))
        around = sorted(self._touching_cells(cells) - set(cells))
        touched = tuple(cell for cell in around if board[cell[0]][cell[1]] == move.colour)
        if touched:
            return Violation("touch", f"an {move.colour} tile would touch another {move.colour} tile", touched)
        if self.clue_touch:
            clues = tuple(cell for cell in around if self.grid.rows[cell[0]][cell[1]] == move.colour)
            if clues:
                return Violation(
                    "clue-touch",
                    f"an {move.colour} tile may not touch an {move.colour} clue it leaves uncovered"
                    " (the rule can be dropped with --no-clue-touch-rule)",
                    clues,
                )
        laid = sum(1 for row in board for ch in row if ch == move.colour) // 3
        if laid >= self.per_colour:
            return Violation("supply", f"all {self.per_colour} {move.colour} tiles are laid already")
        return None

    def lay(self, state: State, move: Move) -> State:
        """Lay ``move`` after the referee has allowed it; ``IllegalMove`` names the broken rule."""
        broken = self.violation(state, move)
        if broken is not None:
            raise IllegalMove(move, broken)
        coded = self.coded(move)
        assert coded is not None and coded[1] in bits(state.possible[coded[0]]), f"referee and engine disagree on {move}"
        return self.play(state, *coded)

    def replay(self, moves: tuple[Move, ...] | list[Move]) -> list[Turn]:
        """Every move of a record laid in turn from the empty grid; ``IllegalMove`` at the first bad one."""
        state = self.start()
        turns: list[Turn] = []
        for number, move in enumerate(moves):
            before = state
            try:
                state = self.lay(state, move)
            except IllegalMove as error:
                raise IllegalMove(move, error.violation, number) from None
            turns.append(Turn(before.to_move, move, self.passed_between(before.to_move, state.to_move), state))
        return turns

    def passed_between(self, seat: int, following: int) -> tuple[int, ...]:
        """The seats skipped between ``seat`` and ``following``: they had to pass."""
        count = len(self.seat_colours)
        if following == OVER:
            return tuple((seat + step) % count for step in range(1, count))
        return tuple((seat + step) % count for step in range(1, (following - seat) % count or count))

    # ----------------------------------------------------------------- the result

    def winner(self, state: State) -> int | None:
        """The side with the most tiles, or None when the best are equal."""
        best = max(state.scores)
        leaders = [side for side, score in enumerate(state.scores) if score == best]
        return leaders[0] if len(leaders) == 1 else None


def rules_for(position: Position) -> GameRules:
    """The rules a position is played under."""
    return GameRules(position.grid, position.seating, position.per_colour, position.clue_touch)


def cells_text(cells: tuple[Cell, ...]) -> str:
    """Cells as people write them, e.g. ``r1c1 r1c2 r2c1``."""
    return " ".join(cell_name(cell) for cell in cells)


@dataclass(frozen=True)
class Game:
    """A position replayed: its rules, the state reached, and each turn on the way."""

    position: Position
    rules: GameRules
    turns: tuple[Turn, ...]

    @property
    def state(self) -> State:
        """The state after the last move of the record."""
        return self.turns[-1].state if self.turns else self.rules.start()

    def moves(self) -> list[Move]:
        """The legal tiles of the seat to move, colour by colour, in reading order."""
        rules = self.rules
        return [rules.move_of(k, p) for k, p in rules.moves(self.state)]

    def then(self, move: Move) -> "Game":
        """The game with ``move`` laid, checked by the referee (``IllegalMove`` names the broken rule)."""
        rules, before = self.rules, self.state
        after = rules.lay(before, move)
        turn = Turn(before.to_move, move, rules.passed_between(before.to_move, after.to_move), after)
        return Game(self.position.with_move(move), rules, self.turns + (turn,))

    def outcome(self) -> Outcome | None:
        """None while somebody can lay; then the winning side's first seat (a team's: its
        first player in turn order, from 1), or None for a draw, with the scores."""
        rules, state = self.rules, self.state
        if not state.over:
            return None
        seating = rules.seating
        scores = tuple(state.scores)
        shown = "-".join(str(s) for s in scores)
        winner = rules.winner(state)
        if winner is None:
            return Outcome(None, f"a draw, {shown}", scores)
        return Outcome(seating.seats_of(winner)[0] + 1, f"{seating.side_name(winner)} wins, {shown}", scores)


def replay_position(position: Position) -> Game:
    """Replay a position's record; an illegal move is an ``InputError`` naming the move, where
    it was written, and the rule it breaks."""
    rules = rules_for(position)
    try:
        turns = rules.replay(position.moves)
    except IllegalMove as error:
        path, line = position.where(error.number)
        raise InputError(f"move {error.number + 1} ({error.move}) is illegal: {error.violation}", path, line) from None
    return Game(position, rules, tuple(turns))


def to_move_json(seating: Seating, state: State) -> dict | None:
    """Who is to move, as every command's JSON gives it: ``{"seat", "side", "name", "colours"}``
    (seats and sides counted from 1), or None once the game is over."""
    if state.over:
        return None
    seat = state.to_move
    return {"seat": seat + 1, "side": seating.sides[seat] + 1, "name": seating.seat_name(seat), "colours": seating.seats[seat]}


def game_json(game: Game) -> dict:
    """The position with what follows from it: scores, whose turn, the winner."""
    rules, state = game.rules, game.state
    seating = rules.seating
    over = state.over
    winner = rules.winner(state) if over else None
    return {
        "position": position_to_json(game.position),
        "sides": [{"side": side + 1, "name": seating.side_name(side), "colours": seating.colours_of(side), "tiles": score}
                  for side, score in enumerate(state.scores)],
        "to_move": to_move_json(seating, state),
        "over": over,
        "winner": None if winner is None else seating.side_name(winner),
        "draw": over and winner is None,
    }
