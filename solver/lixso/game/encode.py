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

from dataclasses import dataclass

from solver.core.backend import Formula
from solver.core.limits import Deadline

from .rules import GameRules, State, bits


@dataclass
class SideModel:
    """A side's tile set as a formula: ``tiles[v]`` is the (colour, placement) of variable ``v``;
    ``remaining[k]`` is colour ``k``'s supply left; ``unblockable`` (sure models only) lists the
    tiles no other side can block."""

    formula: Formula
    tiles: dict[int, tuple[int, int]]
    remaining: dict[int, int]
    unblockable: list[tuple[int, int]]

    def objective(self, weight: int) -> list[tuple[int, int]]:
        """Every tile variable with ``weight`` (1: count them; -1: count them down)."""
        return [(var, weight) for var in self.tiles]


MOST, SURE = "most", "sure"
"""The two tile-set models: any set that fits (``most``); a set that blocks every
unblockable tile (``sure``)."""


def side_colours(rules: GameRules, side: int) -> tuple[int, ...]:
    """The colour indices a side's players may lay."""
    seats = rules.seating.seats_of(side)
    return tuple(sorted({k for seat in seats for k in rules.seat_colours[seat]}))


def count_cap(rules: GameRules, state: State, side: int) -> int:
    """The most tiles a side could add by counting alone: per colour, its supply left or its
    tiles still legal, whichever is fewer."""
    return sum(
        min(rules.per_colour - state.placed[k].bit_count(), state.possible[k].bit_count())
        for k in side_colours(rules, side)
    )


def unblockable_tiles(rules: GameRules, state: State, side: int) -> list[tuple[int, int]]:
    """The side's still-legal tiles that no other side can ever make illegal: of a colour only
    this side lays, and with no cell that another side's still-legal tile could cover."""
    mine = side_colours(rules, side)
    theirs = sorted({k for seat, owner in enumerate(rules.seating.sides) if owner != side for k in rules.seat_colours[seat]})
    reach = 0  # placements (of any colour index) another side could still lay
    for k in theirs:
        reach |= state.possible[k]
    safe = []
    for k in mine:
        if k in theirs:
            continue
        for p in bits(state.possible[k]):
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


def windows_meeting(rules: GameRules) -> list[tuple[int, ...]]:
    """For each placement, the 2x2 windows (by index in the lattice's list) holding one of its cells."""
    index = {window[0]: number for number, window in enumerate(rules.lattice.windows)}
    return [
        tuple(sorted({index[(r - dr, c - dc)] for r, c in cells for dr in (0, 1) for dc in (0, 1) if (r - dr, c - dc) in index}))
        for cells in rules.placements
    ]


def side_model(rules: GameRules, state: State, side: int, kind: str = MOST, deadline: Deadline | None = None) -> SideModel:
    """The formula over the tile sets ``side`` can still add (see :data:`MOST`, :data:`SURE`
    and the module docstring). A sure model offers only the tiles that block
    some unblockable tile: any other tile of a blocking set can be left out."""
    deadline = deadline or Deadline.never()
    formula = Formula()
    colours = side_colours(rules, side)
    remaining = {k: rules.per_colour - state.placed[k].bit_count() for k in colours}
    unblockable: list[tuple[int, int]] = []
    if kind == SURE:
        unblockable = unblockable_tiles(rules, state, side)
        offered = sorted({b for tile in unblockable for b in blockers(rules, state, side, tile)})
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
    tiles = {var: tile for tile, var in var_of.items()}
    for group in list(by_cell.values()) + list(by_window.values()):
        if len(group) > 1:
            formula.add_at_most_one(group)
    for k in colours:
        if len(by_colour[k]) > remaining[k]:
            formula.add_at_most(by_colour[k], remaining[k])
    for tile in unblockable:
        formula.add_clause(var_of[b] for b in blockers(rules, state, side, tile))
    return SideModel(formula, tiles, remaining, unblockable)
