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
    ``counted`` is the count to optimise, as (literal, weight) pairs that add up to ``unit``
    for each tile of the set (see :func:`side_model`); ``remaining[k]`` is colour ``k``'s
    supply left; ``unblockable`` (sure models only) lists the tiles no other side can block."""

    formula: Formula
    tiles: dict[int, tuple[int, int]]
    remaining: dict[int, int]
    unblockable: list[tuple[int, int]]
    counted: list[tuple[int, int]] = field(default_factory=list)
    unit: int = 1

    def objective(self, weight: int) -> list[tuple[int, int]]:
        """The tiles of the set counted (``weight`` 1: count them; -1: count them down), in
        ``unit`` a tile."""
        return [(var, weight * each) for var, each in self.counted]

    def tiles_counted(self, objective: int) -> int:
        """The number of tiles an objective value of :meth:`objective` stands for."""
        return abs(objective) // self.unit


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

    The count to optimise is written so that a solver can prove its optimum:

    - a colour whose supply binds (fewer left than its tiles offered and than
      :func:`colour_cap`) is counted by a unary counter of its own tiles, whose outputs
      "at least j of them" (j up to the supply) are both the supply (no output beyond it)
      and the count. A side whose every colour binds has only a handful of literals to
      count (14 for two colours of seven): once a set reaches them all, the optimum is
      proven with no further search, where a count over the tiles or the cells covered
      had the solver prove that the supply caps the count (a pigeonhole proof, minutes on a
      9x9 opening);
    - the other colours' tiles (a supply that cannot bind is left out) are counted through
      the cells they cover, three a tile: a 30x30 grid has 900 cells but 3,364 placements
      per colour, and the counter a solver's climb builds grows with the square of what it
      counts (6,728 tiles: 23 million clauses).

    ``unit`` is 1 when every colour is counted by its tiles, else :data:`TILE_CELLS` (a
    counted tile then weighs three). The deadline is checked every few hundred tiles.
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
        for window in meeting[p]:
            by_window.setdefault((k, window), []).append(var)
    deadline.check()
    tiles = {var: tile for tile, var in var_of.items()}
    for group in list(by_cell.values()) + list(by_window.values()):
        if len(group) > 1:
            formula.add_at_most_one(group)
    cap = colour_cap(rules)
    binding = [k for k in colours if remaining[k] < min(len(by_colour[k]), cap)]
    free = {var for k in colours if k not in binding for var in by_colour[k]}
    unit = TILE_CELLS if free else 1
    counted = [(out, unit) for k in binding for out in _unary_count(formula, by_colour[k], remaining[k], deadline)]
    for cell, group in sorted(by_cell.items()):
        uncounted = [var for var in group if var in free]
        if uncounted:
            counted.append((_covered(formula, uncounted), 1))
    deadline.check()
    for tile in unblockable:
        formula.add_clause(var_of[b] for b in blocking[tile])
    return SideModel(formula, tiles, remaining, unblockable, counted, unit)


def _unary_count(formula: Formula, group: list[int], most: int, deadline: Deadline) -> list[int]:
    """At most ``most`` of ``group`` hold; the variables "at least j of ``group`` hold", for
    j = 1 .. ``most``, each true exactly when so (a sequential counter, read both ways:
    a count may neither be claimed beyond the tiles laid nor hidden below them)."""
    below: list[int | None] = [None] * most  # below[j]: at least j + 1 of the tiles so far (None: cannot be)
    for number, tile in enumerate(group):
        if number % 256 == 0:
            deadline.check()
        if below[most - 1] is not None:
            formula.add_clause([-tile, -below[most - 1]])  # the supply
        now: list[int | None] = []
        for j in range(most):
            if j > number:
                now.append(None)
                continue
            same, fewer = below[j], below[j - 1] if j else None
            var = formula.new_var()
            if same is not None:
                formula.add_implication(same, var)
            if j == 0:
                formula.add_implication(tile, var)
                formula.add_clause([-var, tile] + ([same] if same is not None else []))
            else:
                formula.add_clause([-tile, -fewer, var])  # type: ignore[operator]
                formula.add_clause([-var, tile] + ([same] if same is not None else []))
                formula.add_clause([-var, fewer] + ([same] if same is not None else []))  # type: ignore[list-item]
            now.append(var)
        below = now
    return [var for var in below if var is not None]


def _covered(formula: Formula, group: list[int]) -> int:
    """A variable true exactly when one of the tiles ``group`` is in the set."""
    if len(group) == 1:
        return group[0]
    var = formula.new_var()
    formula.add_clause([-var, *group])
    for tile in group:
        formula.add_implication(tile, var)
    return var
