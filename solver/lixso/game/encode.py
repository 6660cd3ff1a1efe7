"""The game's bounds as constraints: what one side can still lay, at most and for sure.

Both questions are about a *set* of tiles one side adds to the position. The order does
not matter: every rule only ever forbids more as tiles are laid, so a set of tiles that fit
together and with the position can be laid in any order, and every tile a side lays until
the end of a game belongs to such a set. The constraints on a set (one Boolean per tile the
side could still lay: colour and placement):

- *no overlap*: at most one of the side's tiles covers each cell;
- *no touching*: two tiles of one colour never share a 2x2 window (two cells touch, by a
  side or a corner, exactly when some 2x2 window holds both), so at most one tile of each
  colour meets each window;
- *supply*: at most the colour's remaining supply of each colour.

The clues, the clue-touch rule and the tiles already laid are in the tiles offered: only
those still legal for their colour get a Boolean (:attr:`State.possible`).

*Most*: maximise the number of tiles in the set. *Sure*: the game ends only when nobody
can lay a tile, so at the end every tile of the side that no other side can ever block is
no longer legal, and only the side itself can have made it so: by covering one of its
cells, by laying a tile of its colour that touches it, or by using up its colour's supply.
A tile is *unblockable* when its colour is the side's alone and no tile another side could
still lay covers one of its cells (other colours interact with it only by covering its
cells). So at the end of every game, either some colour with an unblockable tile has used
up its supply (the side laid at least that colour's remaining supply), or the side's new
tiles block every unblockable tile by covering or touching it. The side surely lays the
smaller of: the fewest tiles of a set that blocks them all, and the smallest remaining
supply among those colours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from placesat.core.backend import Formula
from placesat.core.limits import Deadline

from ..model import TILE_CELLS
from .rules import GameRules, State, bits


@dataclass
class SideModel:
    """A side's tile set as a formula: ``tiles[v]`` is the (colour, placement) of variable ``v``;
    ``covers[cell]`` is the variable "a tile of the set covers this cell" (for every cell an
    offered tile covers); ``remaining[k]`` is colour ``k``'s supply left; ``unblockable``
    (sure models only) lists the tiles no other side can block."""

    formula: Formula
    tiles: dict[int, tuple[int, int]]
    remaining: dict[int, int]
    unblockable: list[tuple[int, int]]
    covers: dict[int, int] = field(default_factory=dict)

    def objective(self, weight: int) -> list[tuple[int, int]]:
        """The tiles of the set counted through the cells they cover, each cell with ``weight``
        (1: count them; -1: count them down): three cells a tile, as no two tiles of a set
        overlap. A count over the cells is what a SAT solver's climb can afford on a large
        grid: a 30x30 grid has 900 cells but 3,364 placements per colour, and the counter the
        climb builds grows with the square of what it counts (6,728 tiles: 23 million clauses)."""
        return [(var, weight) for var in self.covers.values()]

    @staticmethod
    def tiles_counted(objective: int) -> int:
        """The number of tiles an objective value of :meth:`objective` stands for."""
        return abs(objective) // TILE_CELLS


MOST, SURE = "most", "sure"
"""The two tile-set models: any set that fits (``most``); a set that blocks every
unblockable tile (``sure``)."""


def side_colours(rules: GameRules, side: int) -> tuple[int, ...]:
    """The colour indices a side's players may lay."""
    seats = rules.seating.seats_of(side)
    return tuple(sorted({k for seat in seats for k in rules.seat_colours[seat]}))


def colour_cap(rules: GameRules) -> int:
    """The most tiles of one colour a grid of this size can ever hold: two tiles of a colour
    whose 2x2 blocks (the block each fills three quarters of) overlap or lie side by side
    always share a cell or touch, so the top-left cells of their blocks are at least two
    rows or two columns apart, and at most ``floor(height / 2) * floor(width / 2)`` such
    cells fit (225 on 30x30). A supply at least this large never binds."""
    return (rules.height // 2) * (rules.width // 2)


def count_cap(rules: GameRules, state: State, side: int) -> int:
    """The most tiles a side could add by counting alone: per colour, the fewest of its
    supply left, its tiles still legal and :func:`colour_cap`."""
    return sum(
        min(rules.per_colour - state.placed[k].bit_count(), state.possible[k].bit_count(), colour_cap(rules))
        for k in side_colours(rules, side)
    )


def unblockable_tiles(rules: GameRules, state: State, side: int, deadline: Deadline | None = None) -> list[tuple[int, int]]:
    """The side's still-legal tiles that no other side can ever make illegal: of a colour only
    this side lays, and with no cell that another side's still-legal tile could cover."""
    deadline = deadline or Deadline.never()
    mine = side_colours(rules, side)
    theirs = sorted({k for seat, owner in enumerate(rules.seating.sides) if owner != side for k in rules.seat_colours[seat]})
    reach = 0  # placements (of any colour index) another side could still lay
    for k in theirs:
        reach |= state.possible[k]
    safe = []
    for k in mine:
        if k in theirs:
            continue
        for number, p in enumerate(bits(state.possible[k])):
            if number % 256 == 0:
                deadline.check()
            if not rules.overlaps[p] & reach:
                safe.append((k, p))
    return safe


def blockers(rules: GameRules, state: State, side: int, tile: tuple[int, int]) -> list[tuple[int, int]]:
    """The side's still-legal tiles that would make ``tile`` illegal: any of its colours
    covering one of its cells, or its own colour touching it."""
    colour, placement = tile
    found = []
    for k in side_colours(rules, side):
        reach = rules.overlaps[placement] | (rules.near[placement] if k == colour else 0)
        found.extend((k, q) for q in bits(state.possible[k] & reach))
    return found


@lru_cache(maxsize=4)
def windows_meeting(rules: GameRules) -> tuple[tuple[int, ...], ...]:
    """For each placement, the 2x2 windows (by index in the lattice's list) holding one of its
    cells (kept for the last few grids: a 30x30 grid's table takes a quarter of a second)."""
    index = {window[0]: number for number, window in enumerate(rules.lattice.windows)}
    return tuple(
        tuple(sorted({index[(r - dr, c - dc)] for r, c in cells for dr in (0, 1) for dc in (0, 1) if (r - dr, c - dc) in index}))
        for cells in rules.placements
    )


def side_model(rules: GameRules, state: State, side: int, kind: str = MOST, deadline: Deadline | None = None) -> SideModel:
    """The formula over the tile sets ``side`` can still add (see :data:`MOST`, :data:`SURE`
    and the module docstring). A sure model offers only the tiles that block
    some unblockable tile: any other tile of a blocking set can be left out.

    The deadline is checked every few hundred tiles, and no constraint is written whose
    encoding would grow with the square of a large grid: the count to optimise and a
    colour's supply are counts of covered cells (three per tile), and a supply that cannot
    bind (at least the colour's tiles offered, or :func:`colour_cap`) is left out.
    """
    deadline = deadline or Deadline.never()
    formula = Formula()
    colours = side_colours(rules, side)
    remaining = {k: rules.per_colour - state.placed[k].bit_count() for k in colours}
    unblockable: list[tuple[int, int]] = []
    blocking: dict[tuple[int, int], list[tuple[int, int]]] = {}
    if kind == SURE:
        unblockable = unblockable_tiles(rules, state, side, deadline)
        for number, tile in enumerate(unblockable):
            if number % 256 == 0:
                deadline.check()
            blocking[tile] = blockers(rules, state, side, tile)
        offered = sorted({b for found in blocking.values() for b in found})
    else:
        offered = [(k, p) for k in colours for p in bits(state.possible[k])]
    var_of: dict[tuple[int, int], int] = {}
    by_cell: dict[int, list[int]] = {}
    by_colour_cell: dict[tuple[int, int], list[int]] = {}
    by_window: dict[tuple[int, int], list[int]] = {}
    by_colour: dict[int, list[int]] = {k: [] for k in colours}
    meeting = windows_meeting(rules)
    for number, (k, p) in enumerate(offered):
        if number % 256 == 0:
            deadline.check()
        var = formula.new_var()
        var_of[(k, p)] = var
        by_colour[k].append(var)
        for cell in bits(rules.cells_mask[p]):
            by_cell.setdefault(cell, []).append(var)
            by_colour_cell.setdefault((k, cell), []).append(var)
        for window in meeting[p]:
            by_window.setdefault((k, window), []).append(var)
    deadline.check()
    tiles = {var: tile for tile, var in var_of.items()}
    for group in list(by_cell.values()) + list(by_window.values()):
        if len(group) > 1:
            formula.add_at_most_one(group)
    covers = {cell: _covered(formula, group) for cell, group in sorted(by_cell.items())}
    cap = colour_cap(rules)
    for k in colours:
        if remaining[k] >= min(len(by_colour[k]), cap):
            continue  # the supply cannot bind
        cells = [(cell, group) for (colour, cell), group in sorted(by_colour_cell.items()) if colour == k]
        if len(cells) < len(by_colour[k]):
            formula.add_at_most([_covered(formula, group) for _, group in cells], TILE_CELLS * remaining[k])
        else:
            formula.add_at_most(by_colour[k], remaining[k])
    deadline.check()
    for tile in unblockable:
        formula.add_clause(var_of[b] for b in blocking[tile])
    return SideModel(formula, tiles, remaining, unblockable, covers)


def _covered(formula: Formula, group: list[int]) -> int:
    """A variable true exactly when one of the tiles ``group`` is in the set."""
    if len(group) == 1:
        return group[0]
    var = formula.new_var()
    formula.add_clause([-var, *group])
    for tile in group:
        formula.add_implication(tile, var)
    return var
