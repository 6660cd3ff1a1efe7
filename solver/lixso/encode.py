"""Lixso rules compiled into a :class:`placesat.core.backend.Formula`.

The clue-independent part of a grid size is encoded once (a *template*); a puzzle's clues
are then passed to the solver as assumptions, so a pack of same-sized grids shares one
compiled formula and one warm solver.

Variables:

* ``colour[cell][k]``: the cell is covered by a tile of colour ``k``;
* ``tile[p][k]``: placement ``p`` (three cells of a 2x2 block) holds a tile of colour ``k``.

Rules, each as the constraints that carry it:

* cover: each cell has exactly one colour, and a cell of colour ``k`` lies in exactly one
  placed tile of colour ``k``; a tile colours its three cells;
* no touching: a tile of colour ``k`` forbids colour ``k`` on every cell that touches it by
  a side or a corner without being part of it;
* supply: at most ``per_colour`` tiles of each colour, counted as ``3 * per_colour`` cells.

Redundant constraints that let unit propagation see what a person sees:

* three cells of one placement all coloured ``k`` are that tile (their group can only be it);
* a 2x2 block never has one colour on all four cells;
* two cells that touch and share colour ``k`` are in one tile, one of the few placements
  that hold both;
* (the grading levels) a cell of colour ``k`` lies in one of the ``k`` tiles through it: a
  cell that every one of them covers is ``k`` ("cover_all"), and a cell that every one of
  them touches is not ``k`` ("touch_all"; it holds "pair", and with the rules "triple" and
  "window": the grading templates need none of those three);
* (the solver's template only) each cell lies in exactly one placed tile, whatever its
  colour: a variable ``placed[p]`` per placement says some tile lies there, so that a tile
  forced into place rules out every placement overlapping it before any colour is known.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.backend import Formula
from ..core.limits import Deadline
from ..core.lattice import SquareLattice
from ..core.shapes import L_TROMINO
from .model import COLOURS, Grid

Cell = tuple[int, int]


@dataclass
class LixsoTemplate:
    """The compiled rules for one grid size and colour supply."""

    height: int
    width: int
    per_colour: int
    formula: Formula = field(default_factory=Formula)
    colour: list[list[int]] = field(default_factory=list)  # colour[cell index][k]
    placements: list[tuple[Cell, ...]] = field(default_factory=list)
    tile: list[list[int]] = field(default_factory=list)  # tile[placement index][k]

    placed: list[int] = field(default_factory=list)  # placed[placement index]: some tile lies there ("tiling" only)

    cells: tuple[Cell, ...] = ()
    # the literals the supply counts, one list per colour (empty without the supply rule)
    supply: list[list[int]] = field(default_factory=list)

    def cell_index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def clue_assumptions(self, grid: Grid) -> list[int]:
        """The literals that say "each clue cell has its clue's colour"."""
        return [self.colour[r * self.width + c][COLOURS.index(ch)] for r, c, ch in grid.clues()]

    def decode(self, model: list[bool]) -> tuple[str, ...]:
        """The colour grid of a model."""
        rows = []
        for r in range(self.height):
            row = []
            for c in range(self.width):
                lits = self.colour[r * self.width + c]
                row.append(next((COLOURS[k] for k in range(len(COLOURS)) if model[lits[k]]), "."))
            rows.append("".join(row))
        return tuple(rows)

    def solution_literals(self, solution: tuple[str, ...]) -> list[int]:
        """The colour literals that a solution makes true, one per cell."""
        return [
            self.colour[r * self.width + c][COLOURS.index(ch)]
            for r, row in enumerate(solution)
            for c, ch in enumerate(row)
        ]


# The redundant families a solver gets (with "tiling" on small grids, solve.py).
ALL_REDUNDANT = frozenset({"triple", "window", "pair"})
# The families each direct grading level propagates over, besides the rules (seeds/lixso.md,
# "Difficulty levels"; level 2 also counts the supply): a family changed here changes grades,
# and solver/lixso/explain.py states the same rules in words (tests/test_lixso_explain.py
# checks that both reach the same facts).
GRADING_FAMILIES = {1: frozenset({"cover_all"}), 2: frozenset({"cover_all", "touch_all"})}


def build_template(
    height: int,
    width: int,
    per_colour: int,
    redundant: frozenset[str] = ALL_REDUNDANT,
    supply: bool = True,
    deadline: Deadline | None = None,
) -> LixsoTemplate:
    """Encode the Lixso rules for a ``height`` x ``width`` grid with ``per_colour`` tiles of each colour.

    ``redundant`` picks the redundant constraint families (see the module docstring), so
    that benchmarks can measure what each one is worth. ``supply=False`` leaves the colour
    supply out (the weakest grading level reasons without it). The colour and tile
    variables are numbered the same way whatever the options. ``deadline`` is checked as the
    rules are written (``TimeUp`` when it comes first).
    """
    check = deadline.check if deadline is not None else (lambda: None)
    template = LixsoTemplate(height, width, per_colour)
    formula = template.formula
    lattice = SquareLattice(height, width)
    ncol = len(COLOURS)
    cells = template.cells = lattice.points
    template.colour = [formula.new_vars(ncol) for _ in cells]
    template.placements = L_TROMINO.placements(lattice)
    template.tile = [formula.new_vars(ncol) for _ in template.placements]
    colour, tile = template.colour, template.tile
    # every process that solves a grid builds its template (a fifth of `lixso solve` on one
    # 9x9 grid): the clauses below are fresh lists of ints, appended as they are, and each
    # cell's number and neighbours are looked up once
    add_clause = formula.clauses.append
    index = {cell: i for i, cell in enumerate(cells)}.__getitem__
    touching = {cell: lattice.touching(cell) for cell in cells}

    placements_at: list[list[int]] = [[] for _ in cells]
    for p, placement in enumerate(template.placements):
        for cell in placement:
            placements_at[index(cell)].append(p)

    # cover: one colour per cell; a coloured cell lies in exactly one tile of its colour
    for i in range(len(cells)):
        formula.add_exactly_one(colour[i])
        for k in range(ncol):
            add_clause([-colour[i][k]] + [tile[p][k] for p in placements_at[i]])
            formula.add_at_most_one([tile[p][k] for p in placements_at[i]])

    for p, placement in enumerate(template.placements):
        if p % 512 == 0:
            check()
        members = set(placement)
        ring = sorted({n for cell in placement for n in touching[cell]} - members)
        placement_colours = [colour[index(cell)] for cell in placement]
        ring_colours = [colour[index(n)] for n in ring]
        for k in range(ncol):
            tile_lit = tile[p][k]
            for cell_colour in placement_colours:
                add_clause([-tile_lit, cell_colour[k]])
            # no touching: a tile's colour appears on no cell around it
            for n_colour in ring_colours:
                add_clause([-tile_lit, -n_colour[k]])
            if "triple" in redundant:
                # three cells of a placement in colour k can only be that tile
                add_clause([tile_lit] + [-cell_colour[k] for cell_colour in placement_colours])

    if "window" in redundant:
        for window in lattice.windows:
            for k in range(ncol):
                # a 2x2 block is never one colour (that would be a group of 4)
                add_clause([-colour[index(cell)][k] for cell in window])

    if "pair" in redundant:
        # two touching cells of one colour share a tile
        holding: dict[tuple[int, int], list[int]] = {}
        for p, placement in enumerate(template.placements):
            ids = sorted(index(cell) for cell in placement)
            for a in range(3):
                for b in range(a + 1, 3):
                    holding.setdefault((ids[a], ids[b]), []).append(p)
        for (a, b), ps in holding.items():
            for k in range(ncol):
                add_clause([-colour[a][k], -colour[b][k]] + [tile[p][k] for p in ps])

    if "cover_all" in redundant or "touch_all" in redundant:
        rings = [{n for cell in placement for n in touching[cell]} - set(placement) for placement in template.placements]
        for i, cell in enumerate(cells):
            through = placements_at[i]
            covered = {c for p in through for c in template.placements[p]} - {cell}
            touched = set().union(*(rings[p] for p in through)) - {cell}
            for k in range(ncol):
                if "cover_all" in redundant:
                    # a k cell's tile is one of the k tiles through it: what all of them cover is k
                    for c in sorted(covered):
                        others = [tile[p][k] for p in through if c not in template.placements[p]]
                        add_clause([-colour[i][k], colour[index(c)][k]] + others)
                if "touch_all" in redundant:
                    # ... and what all of them touch is not k
                    for c in sorted(touched):
                        others = [tile[p][k] for p in through if c not in rings[p]]
                        add_clause([-colour[i][k], -colour[index(c)][k]] + others)

    if "tiling" in redundant:
        # each cell lies in exactly one placed tile, whatever its colour (numbered after the
        # colour and tile variables, so that their literals mean the same in every template)
        placed = template.placed = formula.new_vars(len(template.placements))
        for p, lits in enumerate(tile):
            add_clause([-placed[p]] + lits)
            for lit in lits:
                add_clause([-lit, placed[p]])
        for i in range(len(cells)):
            formula.add_exactly_one([placed[p] for p in placements_at[i]])

    # supply, counted over cells (three per tile): measured faster than counting the tiles,
    # and faster without the implied lower bound (README, "What we measured while looking for
    # speed")
    if supply:
        for k in range(ncol):
            template.supply.append([colour[i][k] for i in range(len(cells))])
            formula.add_at_most(template.supply[k], 3 * per_colour)
    return template


# templates built in this process, by (height, width, per_colour, full, tiling, grading level);
# building one takes about 20 ms at 9x9 and 0.3 s at 21x21
_templates: dict[tuple[int, int, int, bool, bool, int], LixsoTemplate] = {}


def template_for(height: int, width: int, per_colour: int, full: bool = True, deadline: Deadline | None = None,
                 tiling: bool = False, grading: int = 0) -> LixsoTemplate:
    """The process's one template per grid size and supply, built on first use: with the
    solver's redundant families and the supply (``full``), or the rules alone; ``tiling`` adds
    the "tiling" family to a full template (for solving). ``grading`` 1 or 2: the rules and
    that direct grading level's families (GRADING_FAMILIES; the supply at level 2).
    Shared read-only: solvers add their clauses to themselves, never to the template."""
    key = (height, width, per_colour, full, full and tiling, grading)
    if key not in _templates:
        if grading:
            _templates[key] = build_template(height, width, per_colour, redundant=GRADING_FAMILIES[grading],
                                             supply=grading >= 2, deadline=deadline)
        elif full:
            redundant = ALL_REDUNDANT | {"tiling"} if tiling else ALL_REDUNDANT
            _templates[key] = build_template(height, width, per_colour, redundant=redundant, deadline=deadline)
        else:
            _templates[key] = build_template(height, width, per_colour, redundant=frozenset(), supply=False, deadline=deadline)
    return _templates[key]


def propagation_clauses(template: LixsoTemplate) -> list[list[int]]:
    """The template's rules as plain clauses, for unit propagation without cardinality encodings.

    Unit propagation over these clauses, with the supply checked as a count beside them
    (``template.supply``: once a colour has ``3 * per_colour`` cells, no other cell takes
    it; one more is a contradiction), reaches exactly the colour and tile facts that unit
    propagation over the whole compiled template reaches (tests/test_lixso_propagate.py
    checks it on random states):

    * one colour per cell: at least one of the four, and no two (pairwise: no auxiliaries);
    * the "at most one tile of a colour per cell" cardinality is left out: a placed tile
      already rules out every other same-coloured tile through its cells, because such a
      tile has a cell on the placed tile's ring (no touching), which the ring makes
      not that colour;
    * the supply is left to the count (its encoding's auxiliaries would only add work).
    """
    clauses = [list(clause) for clause in template.formula.clauses]
    for lits in template.colour:
        clauses.append(list(lits))
        clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
    return clauses
