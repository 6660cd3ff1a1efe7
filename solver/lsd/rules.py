"""The rules of LSD, written plainly, without any solver.

This module is the referee: which placements are legal (dots meet dots, empty sides meet
empty sides, at least one dot completed), what a placement captures, who has a line, when a
player must skip and when the game is drawn. It checks positions read from files, plays and
replays moves, and lists immediate wins. The solver-based queries (:mod:`placesat.lsd.reach`,
:mod:`placesat.lsd.forced`) replay every answer here.

The rules as implemented, with every interpretation, are in ``seeds/lsd.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Iterator, Mapping

from placesat.core.errors import InputError

from .model import (
    OPPOSITE,
    PLUS,
    SIDE_LETTERS,
    SIDES,
    SKIP,
    STEP,
    Cell,
    Move,
    Placement,
    Position,
    Record,
    Tile,
    cell_text,
    dots_text,
    field_order,
    move_text,
    neighbour,
    on_table,
    rotations,
    supply_of,
)

FIRST_CELL: Cell = (0, 0)
"""Where the first tile goes: the field is unbounded, so the first cell only names the origin."""

Field = Mapping[Cell, Tile]


class IllegalMove(Exception):
    """A move the rules do not allow in this position."""


# --------------------------------------------------------------------------- connecting


def side_demands(field: Field, cell: Cell) -> tuple[int, int]:
    """What the neighbours of ``cell`` ask of a tile placed on it: (the sides that must carry a
    half dot, the sides that must not).

    A side facing a neighbour's half dot must carry one (else it obstructs the dot), a side
    facing a neighbour's empty side must not (else the tile's own dot is obstructed); a side
    facing an empty cell is free.
    """
    dotted = blank = 0
    x, y = cell
    for side in SIDES:
        dx, dy = STEP[side]
        tile = field.get((x + dx, y + dy))
        if tile is not None:
            if tile.dots & OPPOSITE[side]:
                dotted |= side
            else:
                blank |= side
    return dotted, blank


def connects(dots: int, dotted: int, blank: int) -> bool:
    """Whether a tile showing ``dots`` meets the demands (:func:`side_demands`) and completes at
    least one dot: every dotted side has a dot, no blank side has one, and some side is dotted."""
    return dotted != 0 and dots & dotted == dotted and not dots & blank


def fits(field: Field, cell: Cell, dots: int) -> bool:
    """Whether a tile showing ``dots`` may be placed on ``cell`` (the supply aside).

    On an empty field only :data:`FIRST_CELL` is offered, with any dots; otherwise the cell must
    be empty and the tile must connect (:func:`connects`).
    """
    if not field:
        return cell == FIRST_CELL
    if cell in field:
        return False
    return connects(dots, *side_demands(field, cell))


# --------------------------------------------------------------------------- capturing


def captures(field: Field, cell: Cell, icon: str, colour: str, icon_colours: tuple[str, ...]) -> list[Cell]:
    """The cells whose tiles are captured when a tile with ``icon`` in icon colour ``colour`` is
    placed on ``cell`` (``field`` without it), in field order.

    The placed tile captures together with a partner already on the field with the same icon
    in the same icon colour (the owners do not matter). Two ``+`` in one row or column with one
    cell between them capture the tile in that cell; two ``x`` touching corner to corner capture
    the other two tiles of their 2x2 block. Only tiles whose icon colour is the other one are
    captured; all captures of one placement happen together.
    """
    x, y = cell

    def partner(at: Cell) -> bool:
        tile = field.get(at)
        return tile is not None and tile.icon == icon and icon_colours[tile.player - 1] == colour

    def victim(at: Cell) -> bool:
        tile = field.get(at)
        return tile is not None and icon_colours[tile.player - 1] != colour

    taken: set[Cell] = set()
    if icon == PLUS:
        for dx, dy in STEP.values():
            between = (x + dx, y + dy)
            if partner((x + 2 * dx, y + 2 * dy)) and victim(between):
                taken.add(between)
    else:
        for dx in (-1, 1):
            for dy in (-1, 1):
                if partner((x + dx, y + dy)):
                    taken.update(c for c in ((x + dx, y), (x, y + dy)) if victim(c))
    return sorted(taken, key=field_order)


# --------------------------------------------------------------------------- lines


def lines(field: Field, player: int, length: int) -> list[tuple[Cell, ...]]:
    """Every run of ``length`` cells in a row or column that all hold ``player``'s tiles
    (a longer run counts once for each window of ``length`` in it)."""
    mine = {c for c, t in field.items() if t.player == player}
    found = []
    for x, y in sorted(mine, key=field_order):
        for dx, dy in ((1, 0), (0, 1)):
            run = tuple((x + i * dx, y + i * dy) for i in range(length))
            if all(c in mine for c in run):
                found.append(run)
    return found


def has_line(field: Field, player: int, length: int) -> bool:
    """Whether ``player`` has ``length`` tiles of its own colour in a straight row or column."""
    mine = {c for c, t in field.items() if t.player == player}
    for x, y in mine:
        # count each run once, from its west (south) end
        if (x - 1, y) not in mine:
            run = 1
            while (x + run, y) in mine:
                run += 1
            if run >= length:
                return True
        if (x, y - 1) not in mine:
            run = 1
            while (x, y + run) in mine:
                run += 1
            if run >= length:
                return True
    return False


def line_owners(position: Position) -> list[int]:
    """The players who have a winning line on the field."""
    return [p for p in range(1, position.players + 1) if has_line(position.field, p, position.line_length)]


# --------------------------------------------------------------------------- the state of the game


def winner(position: Position) -> int | None:
    """The player with a winning line, if any (a checked position has at most one)."""
    owners = line_owners(position)
    return owners[0] if owners else None


def placements(position: Position, player: int | None = None) -> list[Placement]:
    """Every legal placement for ``player`` (default: the player to move) from its supply, on
    the field as it is, each rotation of each kind once, in field order; none once the game is won.

    On an empty field the first tile goes on :data:`FIRST_CELL`, any kind, any rotation.
    """
    player = position.to_move if player is None else player
    if winner(position) is not None:
        return []
    return list(placements_on(position.field, position.supplies[player - 1]))


def placements_on(field: Field, supply) -> Iterator[Placement]:
    """The legal placements of tiles from ``supply`` on ``field``, whoever places them (see
    :func:`placements`; the game's end is not looked at)."""
    kinds = [(rotations(pat), icon) for (pat, icon), n in supply if n > 0]
    if not field:
        for masks, icon in kinds:
            for dots in masks:
                yield Placement(FIRST_CELL, dots, icon)
        return
    for cell in frontier(field):
        dotted, blank = side_demands(field, cell)
        if not dotted:
            continue
        for dots in range(16):
            if dots & dotted != dotted or dots & blank:
                continue
            for masks, icon in kinds:
                if dots in masks:
                    yield Placement(cell, dots, icon)


def frontier(field: Field) -> list[Cell]:
    """The empty cells next to the field (sharing a side with a tile) and on the table, in
    field order."""
    cells = set()
    for x, y in field:  # the four neighbours, written out: asked at every node of a search
        cells.update(((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)))
    return sorted((c for c in cells if c not in field and on_table(c)), key=field_order)


def can_place(position: Position, player: int) -> bool:
    """Whether ``player`` has a legal placement now (it must skip otherwise)."""
    return next(placements_on(position.field, position.supplies[player - 1]), None) is not None


def is_draw(position: Position) -> bool:
    """Nobody has a line and nobody can place: the game ends in a draw."""
    return winner(position) is None and not any(can_place(position, p) for p in range(1, position.players + 1))


def is_over(position: Position) -> bool:
    """Somebody has a line, or nobody can place."""
    return winner(position) is not None or is_draw(position)


def legal_moves(position: Position) -> list[Move]:
    """The legal moves of the player to move: its placements, or a skip when it has none
    (and the game is not over)."""
    if winner(position) is not None:
        return []
    return legal_moves_unchecked(position)


def legal_moves_unchecked(position: Position) -> list[Move]:
    """:func:`legal_moves` for a position known to have no line yet (the search knows): the
    mover's placements; a skip when it has none but somebody else can place; none in a draw."""
    placed = list(placements_on(position.field, position.supplies[position.to_move - 1]))
    if placed:
        return placed
    others = (p for p in range(1, position.players + 1) if p != position.to_move)
    if any(next(placements_on(position.field, position.supplies[p - 1]), None) is not None for p in others):
        return [SKIP]
    return []


def completes_line(field: Field, cell: Cell, player: int, length: int) -> bool:
    """Whether a tile of ``player``'s on ``cell`` stands in a run of at least ``length`` of its
    tiles in the row or the column through ``cell`` (the tile on ``cell`` itself, if any, aside)."""
    x, y = cell
    for dx, dy in ((1, 0), (0, 1)):
        run = 1
        for sign in (1, -1):
            step = 1
            while True:
                tile = field.get((x + sign * step * dx, y + sign * step * dy))
                if tile is None or tile.player != player:
                    break
                run += 1
                step += 1
        if run >= length:
            return True
    return False


def move_outcomes(position: Position) -> Iterator[tuple[Move, list[Cell], bool]]:
    """Every legal move of the player to move (as :func:`legal_moves`, in the same order), each
    with the cells it would capture and whether it would win, found one by one without playing
    any: a field of thousands of tiles has hundreds of thousands of placements, and a copy of
    the position per placement does not fit in memory.

    The win is read on the field before the captures, through the placed cell: a placement
    captures only tiles of the other icon colour, never its mover's (:func:`resolve_placement`),
    and the mover had no line before (the game would be over), so a line it makes passes through
    the placed tile and stands after the captures.
    """
    if winner(position) is not None:
        return
    mover = position.to_move
    colour = position.icon_colour(mover)
    found = False
    for move in placements_on(position.field, position.supplies[mover - 1]):
        found = True
        taken = captures(position.field, move.cell, move.icon, colour, position.icon_colours)
        yield move, taken, completes_line(position.field, move.cell, mover, position.line_length)
    if not found:
        for move in legal_moves_unchecked(position):  # a skip, or nothing in a draw
            yield move, [], False


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True)
class Turn:
    """One move played: the position after it, the tiles it captured, and the winner if it won."""

    before: Position
    move: Move
    after: Position
    captured: tuple[tuple[Cell, Tile], ...] = ()
    winner: int | None = None


def play_turn(position: Position, move: Move) -> Turn:
    """Play ``move`` for the player to move; :class:`IllegalMove` if the rules do not allow it.

    A placement takes a tile of the move's kind from the mover's supply, puts it on the cell
    turned as written (it must fit: :func:`fits`), then removes every tile it captures
    (:func:`captures`), and only then looks for a winning line: the order of
    :func:`resolve_placement`. A skip is legal only when the mover has no legal placement.
    The turn passes to the player on the left either way.
    """
    if winner(position) is not None:
        raise IllegalMove(f"the game is over: player {winner(position)} has a line")
    mover = position.to_move
    if move == SKIP:
        if can_place(position, mover):
            raise IllegalMove(f"player {mover} can place a tile, so may not skip")
        if is_draw(position):
            raise IllegalMove("the game is over: nobody can place a tile (a draw)")
        return Turn(position, move, skip_turn(position))
    assert isinstance(move, Placement)
    supply = position.supply(mover)
    if supply.get(move.kind, 0) <= 0:
        raise IllegalMove(f"player {mover} has no {dots_text(move.kind[0])}{move.icon} tile left")
    reason = _misfit(position.field, move)
    if reason:
        raise IllegalMove(f"{move_text(move)}: {reason}")
    return resolve_placement(position, move)


def skip_turn(position: Position) -> Position:
    """The position after a skip: nothing changes but the turn, which passes to the left (the
    caller checks that the mover cannot place)."""
    return replace(position, to_move=position.next_player())


def resolve_placement(position: Position, move: Placement) -> Turn:
    """The one place where a placement takes effect, in this order: the tile goes down, then all
    its captures happen together, then the field is searched for a winning line.

    Captures remove only tiles whose icon colour differs from the mover's, and all of a
    player's tiles share its icon colour, so a placement never captures its mover's tiles: a
    line the move completes always stands. Nobody else can hold a line before the move (the
    game would be over), and a placement adds no tile of theirs: the winner, if any, is the
    mover. The legality of the move is the caller's to check.
    """
    mover = position.to_move
    colour = position.icon_colour(mover)
    taken = captures(position.field, move.cell, move.icon, colour, position.icon_colours)
    field = dict(position.field)
    field[move.cell] = Tile(mover, move.dots, move.icon)
    lost = tuple((c, field.pop(c)) for c in taken)
    captured = list(position.captured)
    for _, tile in lost:
        counts = Counter(dict(captured[tile.player - 1]))
        counts[tile.kind] += 1
        captured[tile.player - 1] = supply_of(counts)
    supplies = list(position.supplies)
    left = dict(supplies[mover - 1])
    left[move.kind] -= 1
    supplies[mover - 1] = supply_of(left)
    after = replace(position, field=field, captured=tuple(captured), supplies=tuple(supplies), to_move=position.next_player())
    won = mover if has_line(field, mover, position.line_length) else None
    return Turn(position, move, after, lost, won)


def _misfit(field: Field, move: Placement) -> str | None:
    """Why ``move`` does not fit on the field (None when it does)."""
    cell = move.cell
    if not field:
        return None if cell == FIRST_CELL else f"the first tile goes on {cell_text(FIRST_CELL)} (the field is unbounded; that cell names its origin)"
    if cell in field:
        return f"cell {cell_text(cell)} already holds a tile"
    dotted, blank = side_demands(field, cell)
    if not dotted and not blank:
        return f"cell {cell_text(cell)} does not touch the field"
    for side in SIDES:
        if dotted & side and not move.dots & side:
            return f"its empty {SIDE_LETTERS[side]} side would obstruct the half dot of the tile at {cell_text(neighbour(cell, side))}"
        if blank & side and move.dots & side:
            return f"its half dot on the {SIDE_LETTERS[side]} side would meet the empty side of the tile at {cell_text(neighbour(cell, side))}"
    if not dotted:
        return "it completes no dot (no neighbour has a half dot facing it)"
    return None


def play(position: Position, move: Move) -> Position:
    """The position after ``move`` (see :func:`play_turn`)."""
    return play_turn(position, move).after


def replay(record: Record) -> list[Turn]:
    """Every turn of a game record, in order; an illegal move is an :class:`IllegalMove` naming
    it (``moves[3]: ...``). Nothing may follow a win or a draw."""
    turns: list[Turn] = []
    position = record.start
    for i, move in enumerate(record.moves):
        try:
            turn = play_turn(position, move)
        except IllegalMove as error:
            raise IllegalMove(f"moves[{i}]: {error}") from None
        turns.append(turn)
        position = turn.after
    return turns


# --------------------------------------------------------------------------- immediate wins


def run_gaps(mine: set[Cell]) -> Iterator[tuple[Cell, list[Cell], list[Cell]]]:
    """Every cell not in ``mine`` at an end of a run of ``mine`` in a row or column, once per
    direction, with the runs of ``mine`` on its two sides along that direction (nearest first)."""
    for dx, dy in ((1, 0), (0, 1)):
        before: dict[Cell, list[Cell]] = {}  # the run that ends just before the cell
        after: dict[Cell, list[Cell]] = {}  # the run that starts just after it
        for x, y in mine:
            if (x - dx, y - dy) in mine:
                continue  # not the start of a run
            run = [(x, y)]
            while (nxt := (run[-1][0] + dx, run[-1][1] + dy)) in mine:
                run.append(nxt)
            after[(x - dx, y - dy)] = run
            before[nxt] = run[::-1]
        for cell in before.keys() | after.keys():
            yield cell, before.get(cell, []), after.get(cell, [])


def completing_cells(field: Field, player: int, length: int) -> list[Cell]:
    """The empty cells on the table where a tile of ``player``'s would complete a line of
    ``length``: the player's runs on its two sides, in a row or in a column, add up to ``length
    - 1`` or more. In field order."""
    mine = {c for c, t in field.items() if t.player == player}
    found = set()
    for dx, dy in ((1, 0), (0, 1)):
        # each run of mine, from its first tile: the cells just before and after it gain its
        # length; a cell between two runs gains both (what run_gaps lists, counted only)
        gained: dict[Cell, int] = {}
        for x, y in mine:
            if (x - dx, y - dy) in mine:
                continue
            n = 1
            while (x + n * dx, y + n * dy) in mine:
                n += 1
            for cell in ((x - dx, y - dy), (x + n * dx, y + n * dy)):
                gained[cell] = gained.get(cell, 0) + n
        found.update(cell for cell, n in gained.items() if n >= length - 1)
    return sorted((cell for cell in found if cell not in field and on_table(cell)), key=field_order)


def winning_placements(position: Position, player: int, first_only: bool = False) -> list[Placement]:
    """The placements that would win at once if it were ``player``'s turn: legal placements from
    its supply that complete a line (after their captures, see :func:`resolve_placement`), in
    field order; ``first_only``: stop at the first one."""
    if winner(position) is not None:
        return []
    return winning_placements_unchecked(position, player, first_only)


def winning_placements_unchecked(position: Position, player: int, first_only: bool = False) -> list[Placement]:
    """:func:`winning_placements` for a position known to have no line yet (the search knows)."""
    field = position.field
    turn_of = position if position.to_move == player else replace(position, to_move=player)
    supply = [(rotations(pat), icon) for (pat, icon), n in position.supplies[player - 1] if n > 0]
    wins = []
    for cell in completing_cells(field, player, position.line_length):
        dotted, blank = side_demands(field, cell)
        if not dotted:
            continue
        for masks, icon in supply:
            for dots in masks:
                if connects(dots, dotted, blank):
                    move = Placement(cell, dots, icon)
                    if resolve_placement(turn_of, move).winner == player:
                        wins.append(move)
                        if first_only:
                            return wins
    return sorted(wins, key=lambda m: (field_order(m.cell), m.dots, m.icon))


# --------------------------------------------------------------------------- checking a position


def check_position(position: Position) -> None:
    """Refuse a field that no game could produce, naming the tile (``field[3]``).

    Checked: no half dot meets an empty side; at most one player has a line; and, when no
    tile has been captured yet, a field of two or more tiles is connected and every tile has
    a completed dot (each tile completed one when placed, and only captures undo that). After
    captures, a tile without a completed dot must face an empty cell with a half dot: the
    cell where a captured tile completed it. (Counts and icon colours are checked while the
    position is read, by :func:`placesat.lsd.model.position_from_json`.)
    """
    field = position.field
    index = {cell: i for i, cell in enumerate(field)}

    def name(cell: Cell) -> str:
        return f"field[{index[cell]}] at {cell_text(cell)}"

    for cell, tile in field.items():
        for side in SIDES:
            other = field.get(neighbour(cell, side))
            if other is None:
                continue
            mine, theirs = bool(tile.dots & side), bool(other.dots & OPPOSITE[side])
            if mine and not theirs:
                raise InputError(
                    f"{name(cell)}: its half dot on the {SIDE_LETTERS[side]} side is obstructed by the empty side of "
                    f"{name(neighbour(cell, side))}"
                )
    owners = line_owners(position)
    if len(owners) > 1:
        raise InputError(f"field: players {' and '.join(map(str, owners))} both have a line; the game ends at the first line")
    if len(field) < 2:
        return
    any_captured = any(n for supply in position.captured for _, n in supply)
    for cell, tile in field.items():
        completed = any(tile.dots & s and neighbour(cell, s) in field for s in SIDES)
        if completed:
            continue
        if not any_captured:
            raise InputError(f"{name(cell)}: completes no dot, and no tile has been captured that could have completed it")
        open_dot = any(tile.dots & s and neighbour(cell, s) not in field for s in SIDES)
        if not open_dot:
            raise InputError(f"{name(cell)}: completes no dot, and no half dot of it faces an empty cell where a captured tile could have been")
    if not any_captured and len(pieces(field)) > 1:
        raise InputError("field: falls apart into pieces, though no tile has been captured (only captures split the field)")


def pieces(field: Field) -> list[set[Cell]]:
    """The connected pieces of the field (tiles sharing a side), in field order of their first cell."""
    left = set(field)
    found = []
    for start in sorted(field, key=field_order):
        if start not in left:
            continue
        piece = {start}
        left.discard(start)
        stack = [start]
        while stack:
            cell = stack.pop()
            for side in SIDES:
                nxt = neighbour(cell, side)
                if nxt in left:
                    left.discard(nxt)
                    piece.add(nxt)
                    stack.append(nxt)
        found.append(piece)
    return found
