"""Generate Lixso puzzles with exactly one solution, at a chosen level.

For levels 1-4 (and 5 on large grids) a puzzle is grown rather than carved: starting from a
random full solution and no clues, the deductions of the target level run; while some cell
is undecided, the solution's colour of one such cell (chosen at random) becomes a clue, and
the deductions go on from where they were. When every cell is decided, the clues decide the solution by
deductions of that level, so the puzzle is unique. If the level below can finish it too,
clues are dropped in random order, each only while the target level still suffices, until
the level below no longer can; the grade is then exactly the target (when no clue can go,
a new solution is tried). With ``minimal``, clues are dropped further while the target
level suffices.

Level 6, and level 5 up to :data:`CARVE_LEVEL5_MAX_CELLS` cells, start from a carve: clues
are removed from a full solution (drawn by tiling), in random order, as long as the solver
proves the solution unique. A carve that level 5 cannot finish is a level 6 puzzle (about
one carve in four at 9x9). Level 5 is rare among carves (one in twenty to fifty) and among grown-and-hardened clue sets (one attempt in seven
to fifty), but a level-6 carve is a good core: for about half of them, one clue of the
solution added leaves level 4 stuck while level 5 finishes (see :func:`_level5_clue`).

Every puzzle's randomness comes from its own seed (the pack seed and its index), so the
same seed gives the same pack however many worker processes share the work, and on any
machine: the SAT calls whose model becomes the puzzle's solution are sliced by conflicts, not
by the clock (``SatBackend(..., reproducible=True)``).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ..core.backend import Formula, SatBackend, Status, cnf_of
from ..core.errors import InputError
from .deduce import HARDEST, Deducer, Deduction, deducer_for
from .encode import Cell, LixsoTemplate
from .model import COLOURS, TILE_CELLS, Grid, coverable
from .rules import find_violation
from .solve import solving_template

MAX_ATTEMPTS = 200
# Levels 5 and 6 are made from carves (see the module docstring; level 5 only up to
# CARVE_LEVEL5_MAX_CELLS), and a carve's full solution is drawn by tiling at every size: 5 ms
# rather than 44 ms for the SAT draw at 9x9, and a level-6 puzzle takes about four carves.
# (Grown puzzles keep the SAT draw up to SAT_DRAW_MAX_CELLS, so that the shipped packs of
# levels 1-4 are still what their documented command makes.)
CARVE_FROM_LEVEL = 5
# Level 5 is carved up to this many cells, and grown and hardened as levels 1-4 above: per
# puzzle, carving took 1.0-1.2 s at 9x9 against 6-7 s grown; 4-9 s at 12x12 against 2-7 s
# (two puzzles each); 36 s at 15x15 against 4 s (one puzzle): carves grow dear with the grid,
# while grown clue sets of large grids more often hold a spot that needs a dilemma.
CARVE_LEVEL5_MAX_CELLS = 121
# A level-6 carve is tried with at most this many added clues, most promising first, before a
# new solution is drawn. Measured on level-6 carves of 9x9: 2 in 3 have some clue that makes
# them level 5 (half of them among their 24 most promising), 3% of all clues do, and the cost
# per puzzle is lowest from about 16 to 32 tries.
CORE_TRIES = 24
# A carve asks about its first clues in blocks of this many, doubling while whole blocks can go
# (see _Uniqueness.carve; the carve is the same as asking clue by clue).
CARVE_FIRST_BLOCK = 4
# Growing a puzzle of level 4 or more, clues are chosen among the cells that unit propagation
# leaves open until at most this share of the grid is open; trials run from then on. (Level 3
# grows with trials from the first clue, as before issue 12, so that its shipped pack is still
# what its documented command makes.)
GROW_TRIALS_FROM = 0.5
GROW_TRIALS_FROM_LEVEL = 4


class GenerationFailed(Exception):
    """No puzzle of the asked kind could be made (an ordinary failure, reported per puzzle)."""


# The uniqueness questions of carves and hardening go to MiniCard with the colour supply and the
# one-of constraints as native cardinality constraints: no totalizer, 3,500 variables rather than
# 5,600, and about half the time per SAT call of Glucose on the clause encoding (0.96 against
# 2.08 ms, the questions of 40 carves replayed). Unit propagation is the solver's first step, so
# the questions it settles need no separate look (that look cost more than it saved).
UNIQUENESS_SOLVER = "minicard"
RANDOM_SOLUTION_SOLVER = "cadical195"  # the python-sat solver that honours preferred phases
# Up to this many cells the solver draws a random solution in one go (the shipped packs were
# made so, and the same seed must keep giving them); above it the tiles are laid first and
# coloured after, because one SAT call with random phases takes minutes from 21x21 on.
SAT_DRAW_MAX_CELLS = 144
# L-tromino shapes as offsets from their first cell in reading order
FIRST_CELL_SHAPES = (((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 0), (1, -1)))


@dataclass
class Generated:
    """A generated puzzle, its unique solution and its level."""

    grid: Grid
    solution: tuple[str, ...]
    level: int
    attempts: int

    def to_json(self) -> dict:
        """The puzzle as ``lixso generate --json`` lists it: ``{"name", "clues"}``."""
        return {"name": self.grid.name, "clues": len(self.grid.clues())}


def random_solution(template: LixsoTemplate, rng: random.Random, tiled: bool = False) -> tuple[str, ...]:
    """A random full solution.

    Up to :data:`SAT_DRAW_MAX_CELLS` cells: a SAT model found with a random preferred colour
    per cell, given as CaDiCaL's initial phases (MiniSat and Glucose ignore phases set
    through python-sat 1.9, and would return the same model every time). Larger grids, or
    any size with ``tiled``: a random tiling, then a colouring of it (:func:`tiled_solution`).
    """
    cells = template.height * template.width
    if not coverable(template.height, template.width):
        # the SAT draw would have to prove that no cover exists, which takes the solver hours
        raise GenerationFailed(f"a {template.height}x{template.width} grid has {cells} cells, not a multiple of {TILE_CELLS}: L-tiles cannot cover it")
    if tiled or cells > SAT_DRAW_MAX_CELLS:
        return tiled_solution(template.height, template.width, template.per_colour, rng)
    engine = SatBackend(template.formula, solver=RANDOM_SOLUTION_SOLVER, reproducible=True)
    phases = []
    for lits in template.colour:
        preferred = rng.randrange(len(COLOURS))
        phases.extend(lit if k == preferred else -lit for k, lit in enumerate(lits))
    engine._solver.set_phases(phases)
    result = engine.solve()
    engine.close()
    if not result:
        raise GenerationFailed(f"no {template.height}x{template.width} grid can be covered with this colour supply")
    return template.decode(result.model)


@lru_cache(maxsize=4)
def _tiling_tables(height: int, width: int) -> tuple[tuple, tuple]:
    """For :func:`random_tiling`, on a grid with a border of one cell (index ``r * (width + 2) + c``,
    border cells never free): per cell, the cells of each of its first-cell shapes (in
    :data:`FIRST_CELL_SHAPES` order; None when a shape leaves the board) with the cells next to
    them that a laid tile may leave uncoverable, and per cell the three other cells of each
    2x2 block around it."""
    stride = width + 2

    def at(r: int, c: int) -> int:
        return (r + 1) * stride + c + 1

    shapes, blocks = [None] * ((height + 2) * stride), [()] * ((height + 2) * stride)
    for r in range(height):
        for c in range(width):
            here = []
            for shape in FIRST_CELL_SHAPES:
                cells = [(r + dr, c + dc) for dr, dc in shape]
                if not all(0 <= rr < height and 0 <= cc < width for rr, cc in cells):
                    here.append(None)
                    continue
                near = sorted({at(rr + dr, cc + dc) for rr, cc in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                               if 0 <= rr + dr < height and 0 <= cc + dc < width} - {at(rr, cc) for rr, cc in cells})
                here.append((tuple(at(rr, cc) for rr, cc in cells), tuple(near)))
            shapes[at(r, c)] = tuple(here)
            blocks[at(r, c)] = tuple(
                tuple(at(rr, cc) for rr, cc in ((top, left), (top, left + 1), (top + 1, left), (top + 1, left + 1)) if (rr, cc) != (r, c))
                for top in (r - 1, r)
                for left in (c - 1, c)
            )
    return tuple(shapes), tuple(blocks)


def random_tiling(height: int, width: int, rng: random.Random, budget: int) -> list[tuple[Cell, ...]] | None:
    """A random cover of the grid by L-tiles, or None when ``budget`` placements were not enough.

    Depth first in reading order: the first empty cell takes one of the (at most four) tiles
    that have it as their first cell, in random order. A tile is not laid when it leaves a
    cell next to it that no tile can still cover (no 2x2 block around it with three empty
    cells), which cuts most dead ends early.
    """
    stride = width + 2
    shapes, blocks = _tiling_tables(height, width)
    free = bytearray((height + 2) * stride)  # 1: an empty cell of the board
    order = [(r + 1) * stride + c + 1 for r in range(height) for c in range(width)]
    for cell in order:
        free[cell] = 1
    laid: list[tuple[int, ...]] = []
    tried: list[tuple[int, list]] = []  # per laid tile: its first cell and the shapes left to try there
    position, choices = 0, None
    for _ in range(budget):
        while position < len(order) and not free[order[position]]:
            position += 1
        if position == len(order):
            return [tuple((cell // stride - 1, cell % stride - 1) for cell in tile) for tile in laid]
        if choices is None:
            choices = list(range(len(FIRST_CELL_SHAPES)))
            rng.shuffle(choices)
        here = shapes[order[position]]
        while choices:
            shape = here[choices.pop()]
            if shape is None:
                continue
            cells, near = shape
            if not (free[cells[0]] and free[cells[1]] and free[cells[2]]):
                continue
            for cell in cells:
                free[cell] = 0
            if all(not free[cell] or any(free[a] + free[b] + free[c] >= 2 for a, b, c in blocks[cell]) for cell in near):
                laid.append(cells)
                tried.append((position, choices))
                choices = None
                break
            for cell in cells:
                free[cell] = 1
        else:
            if not tried:
                return None
            position, choices = tried.pop()
            for cell in laid.pop():
                free[cell] = 1
    return None


def colour_tiles(height: int, width: int, tiles: list[tuple[Cell, ...]], per_colour: int, rng: random.Random) -> tuple[str, ...] | None:
    """Colours for the tiles such that touching tiles differ and no colour is used more than
    ``per_colour`` times, as rows of colour letters; None when there are none.

    A SAT model, found from a greedy colouring (in reading order, the least used colour the
    neighbours leave, ties broken at random) given as preferred phases: with the supply as
    tight as it is, the greedy colouring alone gets stuck on a few tiles, and the solver
    repairs it nearby.
    """
    owner = {cell: t for t, cells in enumerate(tiles) for cell in cells}
    touching = [
        {owner[(r + dr, c + dc)] for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (r + dr, c + dc) in owner} - {t}
        for t, cells in enumerate(tiles)
    ]
    ncol = len(COLOURS)
    greedy = [-1] * len(tiles)
    used = [0] * ncol
    for t in range(len(tiles)):
        taken = {greedy[u] for u in touching[t]}
        left = [k for k in range(ncol) if k not in taken and used[k] < per_colour]
        if left:
            least = min(used[k] for k in left)
            greedy[t] = rng.choice([k for k in left if used[k] == least])
            used[greedy[t]] += 1
    formula = Formula()
    colour = [formula.new_vars(ncol) for _ in tiles]
    for t, lits in enumerate(colour):
        for u in touching[t]:
            if u > t:
                for k in range(ncol):
                    formula.add_clause([-lits[k], -colour[u][k]])
    counts, top = _colouring_counts(len(tiles), per_colour)
    formula.clauses.extend(counts)
    formula.new_vars(top - formula.num_vars)
    engine = SatBackend(formula, solver=RANDOM_SOLUTION_SOLVER, reproducible=True)
    phases = []
    for t, lits in enumerate(colour):
        preferred = greedy[t] if greedy[t] >= 0 else rng.randrange(ncol)
        phases.extend(lit if k == preferred else -lit for k, lit in enumerate(lits))
    engine._solver.set_phases(phases)
    result = engine.solve()
    engine.close()
    if not result:
        return None
    rows = [["."] * width for _ in range(height)]
    for t, cells in enumerate(tiles):
        letter = COLOURS[next(k for k, lit in enumerate(colour[t]) if result.model[lit])]
        for r, c in cells:
            rows[r][c] = letter
    return tuple("".join(row) for row in rows)


@lru_cache(maxsize=4)
def _colouring_counts(tiles: int, per_colour: int) -> tuple[list[list[int]], int]:
    """The clauses of :func:`colour_tiles`' counting constraints (one colour per tile, at most
    ``per_colour`` tiles of each colour) over its colour variables (tile ``t`` colour ``k`` is
    ``ncol * t + k + 1``), and the highest variable they use. They are the same for every
    tiling with this many tiles, so they are encoded once; the solver is given exactly the
    clauses, in the order, that the constraints themselves would give it (the encoding goes
    after all the plain clauses), so it finds the same colouring. Shared: never changed."""
    ncol = len(COLOURS)
    formula = Formula()
    colour = [formula.new_vars(ncol) for _ in range(tiles)]
    for lits in colour:
        formula.add_exactly_one(lits)
    for k in range(ncol):
        formula.add_at_most([lits[k] for lits in colour], per_colour)
    clauses, top = cnf_of(formula)
    return clauses, top


def tiled_solution(height: int, width: int, per_colour: int, rng: random.Random, attempts: int = 50) -> tuple[str, ...]:
    """A random full solution drawn in two steps: a random tiling (:func:`random_tiling`), then
    a colouring of its tiles within the supply (:func:`colour_tiles`); a tiling that cannot be
    coloured, or a tiling search that runs long, is drawn again."""
    for _ in range(attempts):
        tiles = random_tiling(height, width, rng, budget=20 * height * width)
        if tiles is not None:
            solution = colour_tiles(height, width, tiles, per_colour, rng)
            if solution is not None:
                violation = find_violation(Grid(tuple("." * width for _ in range(height))), solution, per_colour)
                if violation is not None:
                    raise AssertionError(f"a drawn solution breaks the rules: {violation}")
                return solution
    raise GenerationFailed(f"no {height}x{width} solution drawn in {attempts} tilings")


def _puzzle(solution: tuple[str, ...], clues: set[int], width: int, name: str) -> Grid:
    rows = [
        "".join(solution[r][c] if r * width + c in clues else "." for c in range(width))
        for r in range(len(solution))
    ]
    return Grid(tuple(rows), name=name)


class _Factory:
    """Growing and hardening puzzles of one solution.

    Whether a clue can go is asked in three steps, cheapest first, each exact: unit
    propagation that already finds the clue's colour (it can go); a solver that finds a second
    solution without it (it cannot: no sound deduction decides a grid with two solutions);
    else the deductions themselves.
    """

    def __init__(self, deducer: Deducer, solution: tuple[str, ...], per_colour: int | None) -> None:
        template = self.template = deducer.template
        self.deducer = deducer
        self.solution = solution
        self.colours = template.solution_literals(solution)
        self.uniqueness = _Uniqueness.for_size(template.height, template.width, per_colour)
        self._unique: dict[frozenset[int], bool] = {}  # the last clue set asked about, and its answer
        self._stuck: dict[frozenset[int], Deduction] = {}  # the last deduction that fell short

    def puzzle(self, clues: set[int], name: str = "") -> Grid:
        return _puzzle(self.solution, clues, self.template.width, name)

    def grow(self, level: int, rng: random.Random) -> set[int]:
        """Clues (cell indices) that level ``level`` decides completely, grown one at a time."""
        clues: set[int] = set()
        if level >= GROW_TRIALS_FROM_LEVEL:
            # while most of the grid is open, trials find nothing that unit propagation does not,
            # and cost the most: the first clues are chosen among the cells it leaves open
            engine, cells = self.deducer.engine, len(self.colours)
            while True:
                ok, implied = engine.propagate([self.colours[i] for i in sorted(clues)])
                known = set(implied)
                open_cells = [i for i in range(cells) if not any(lit in known for lit in self.template.colour[i])]
                if len(open_cells) <= GROW_TRIALS_FROM * cells:
                    break
                clues.add(rng.choice(open_cells))
        target = self.deducer.start(self.puzzle(clues), level, solution=self.solution)
        while True:
            target.run()
            if target.complete():
                return clues
            cell = rng.choice(target.undecided())
            clues.add(cell)
            target.add([self.colours[cell]])

    def decides(self, clues: set[int], level: int) -> bool:
        """Whether deductions up to ``level`` decide every cell from these clues."""
        deduction = self.deducer.start(self.puzzle(clues), level, solution=self.solution)
        deduction.run()
        return deduction.complete()

    def can_drop(self, clues: set[int], cell: int, level: int) -> bool:
        """Whether ``level`` still decides every cell without the clue at ``cell``.

        ``clues`` must be decided completely at ``level``. Then deducing the dropped cell's
        colour from the other clues is enough: with it, the deductions reach everything the
        full clue set reaches. So the deductions can stop as soon as that cell is known; and
        when the other clues leave a second solution, no deduction can find it.
        """
        rest = [self.colours[i] for i in sorted(clues) if i != cell]
        engine = self.deducer.engine if level >= 2 else self.deducer.direct_engine()
        ok, implied = engine.propagate(rest)
        if ok and self.colours[cell] in implied:
            return True
        key = frozenset(clues) - {cell}
        if key not in self._unique:
            self._unique = {key: self.uniqueness.unique_without(rest, self.colours[cell])}
        if not self._unique[key]:
            return False
        deduction = self._stuck.get(key)
        if deduction is not None and deduction.level < level:
            # the level below stopped short on these very clues: go on from where it stopped
            deduction.level = level
        else:
            deduction = self.deducer.start(self.puzzle(clues - {cell}), level, solution=self.solution)
        deduction.run(until=cell)
        if not deduction.contradiction and deduction._decided(cell):
            return True
        self._stuck = {key: deduction}
        return False

    def harden(self, clues: set[int], level: int, rng: random.Random) -> set[int] | None:
        """Drop clues in random order until level ``level`` still decides every cell and ``level - 1`` does not.

        A clue the level below can do without goes (the puzzle keeps its level and loses a
        clue); the first clue that only the target level can do without goes last. None when
        no clue is of either kind.
        """
        if level == 1 or not self.decides(clues, level - 1):
            return clues
        order = sorted(clues)
        rng.shuffle(order)
        for cell in order:
            if self.can_drop(clues, cell, level - 1):
                clues = clues - {cell}
            elif self.can_drop(clues, cell, level):
                return clues - {cell}
        return None

    def prune(self, clues: set[int], level: int, rng: random.Random) -> set[int]:
        """Drop clues, in random order, while level ``level`` still decides every cell."""
        order = sorted(clues)
        rng.shuffle(order)
        for cell in order:
            if self.can_drop(clues, cell, level):
                clues = clues - {cell}
        return clues


def generate_one(height: int, width: int, level: int, seed: str, name: str, per_colour: int | None = None, minimal: bool = False) -> Generated:
    """One puzzle of exactly ``level``, unique, from the seed string ``seed``.

    With ``minimal``, clues are then dropped while the level still suffices (slower); level
    6 puzzles are always minimal (no clue can go without losing uniqueness).
    """
    if not 1 <= level <= HARDEST:
        raise ValueError(f"level must be 1 to {HARDEST}")
    rng = random.Random(seed)
    deducer = deducer_for(height, width, per_colour)
    template = deducer.template
    carving = level >= CARVE_FROM_LEVEL and (level == HARDEST or height * width <= CARVE_LEVEL5_MAX_CELLS)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        solution = random_solution(template, rng, tiled=carving)
        if not carving:
            factory = _Factory(deducer, solution, per_colour)
            clues = factory.harden(factory.grow(level, rng), level, rng)
            if clues is None:
                continue
            if minimal:
                clues = factory.prune(clues, level, rng)
        else:
            carve = _graded_carve(deducer, solution, rng, per_colour)
            if carve.level < level:
                continue
            clues = carve.clues
            if carve.level > level:
                cell = _level5_clue(deducer, solution, carve, rng)
                if cell is None:
                    continue
                clues = clues | {cell}
            if minimal and level < HARDEST:
                clues = _Factory(deducer, solution, per_colour).prune(clues, level, rng)
        return Generated(_puzzle(solution, clues, width, name), solution, level, attempt)
    raise GenerationFailed(f"no level-{level} puzzle found in {MAX_ATTEMPTS} attempts")


@dataclass
class _Carve:
    """A carved clue set and how far the deductions get on it."""

    clues: set[int]
    level: int  # its grade, 4 standing for "4 or lower"
    stuck: list[int]  # when level 4 cannot finish it: the facts of level 4's fixed point
    level4: Deduction | None  # ... and that deduction itself, stopped there (its trials' answers kept)
    open_cells: list[int]  # when level 5 cannot finish it either: the cells it leaves undecided


def _graded_carve(deducer: Deducer, solution: tuple[str, ...], rng: random.Random, per_colour: int | None) -> _Carve:
    """A carve of ``solution`` (:func:`_carve`), graded as far as levels 5 and 6 need: level 4
    runs to its fixed point first, and level 5 goes on from there only when it is stuck."""
    width = deducer.template.width
    clues = _carve(solution, rng, per_colour, "")
    deduction = deducer.start(_puzzle(solution, clues, width, ""), 4, solution=solution)
    deduction.run()
    if deduction.complete():
        return _Carve(clues, 4, [], None, [])
    stuck, level4 = sorted(deduction.known), deduction.copy()
    deduction.level = 5  # level 5's fixed point contains level 4's: go on from it
    deduction.run()
    if deduction.complete():
        return _Carve(clues, 5, stuck, level4, [])
    return _Carve(clues, 6, stuck, level4, deduction.undecided())


def _level5_clue(deducer: Deducer, solution: tuple[str, ...], carve: _Carve, rng: random.Random) -> int | None:
    """A cell whose colour, added as a clue to a level-6 carve, makes it exactly level 5; None
    when none of the :data:`CORE_TRIES` most promising is.

    The carve is unique, so it stays unique with any clue of its solution added. The clue
    must leave level 4 stuck while level 5 finishes. Each candidate goes on from a copy of
    the carve's level-4 deduction at its fixed point, trial answers and all, with its clue
    added: level 4 reaches from there the fixed point it reaches from the clues (everything
    it had from the fewer clues it has with more, and repeating deductions adds nothing),
    and only the trials the clue may change run again. Candidates are the cells level 5
    leaves open, the clues that unit propagation takes furthest last: those mostly let level
    4 finish (none of those adding more than about a hundred facts made a level-5 puzzle in
    the measurements).

    A cell that level 5 decided on a failed candidate is passed over, still counted among
    the tries: it would fail for certain (its clue adds nothing to that candidate's level-5
    fixed point, and deductions only grow with facts, so level 5 stops short again), so the
    cell found is the same; this spares about one try in nine (66 against 74 ms a core).
    """
    colours = deducer.template.solution_literals(solution)
    failing: set[int] = set()  # cells decided by level 5 on a failed candidate
    for cell in _core_candidates(deducer, colours, carve, rng)[:CORE_TRIES]:
        if cell in failing:
            continue
        deduction = carve.level4.copy()
        deduction.add([colours[cell]])
        deduction.run()
        if deduction.complete():
            continue
        deduction.level = 5
        deduction.run()
        if deduction.complete():
            return cell
        failing.update(set(range(len(colours))).difference(deduction.undecided()))
    return None


def _core_candidates(deducer: Deducer, colours: list[int], carve: _Carve, rng: random.Random) -> list[int]:
    """The cells :func:`_level5_clue` tries on a level-6 carve, in order: those level 5 leaves
    open, the clue that unit propagation from the level-4 facts takes least far first, ties in
    random order."""
    cells = list(carve.open_cells)
    rng.shuffle(cells)
    reach = {cell: len(deducer.engine.propagate(carve.stuck + [colours[cell]])[1]) for cell in cells}
    cells.sort(key=reach.__getitem__)
    return cells


def _carve(solution: tuple[str, ...], rng: random.Random, per_colour: int | None, name: str) -> set[int]:
    """Remove clues from the full solution, in random order, while the solution stays unique."""
    height, width = len(solution), len(solution[0])
    return _Uniqueness.for_size(height, width, per_colour).carve(solution, rng)


class _Uniqueness:
    """Whether clues leave one solution, for a generator that knows the solution and drops
    one clue at a time: one SAT call for a solution that gives the dropped cell another colour
    (:data:`UNIQUENESS_SOLVER`; its unit propagation often refutes that at once). One warm
    solver per grid size, so what it learns about the rules serves every puzzle."""

    _cache: dict[tuple[int, int, int | None], "_Uniqueness"] = {}

    def __init__(self, height: int, width: int, per_colour: int | None) -> None:
        self.deducer = deducer_for(height, width, per_colour)
        # the solver's template (the tiling family made level 5 and 6 puzzles 10-15% cheaper,
        # the same puzzles); its colour literals are the deducer's
        template = solving_template(height, width, self.deducer.template.per_colour)
        backend = self.backend = SatBackend(template.formula, solver=UNIQUENESS_SOLVER, native_cardinality=True)
        # To ask about several dropped clues in one call: a switch per cell and colour that,
        # when on, says the cell is not that colour, and a master switch that turns at least
        # one of them on. A question assumes the master on and every switch off but those of
        # the dropped cells' own colours: "some dropped cell takes another colour". Off, they
        # constrain nothing, so the one-clue questions are unchanged.
        self.switch = [[backend.new_var() for _ in lits] for lits in self.deducer.template.colour]
        for lits, switches in zip(self.deducer.template.colour, self.switch):
            for lit, switch in zip(lits, switches):
                backend.add_clause([-switch, -lit])
        self.some_switch = backend.new_var()
        backend.add_clause([-self.some_switch] + [switch for switches in self.switch for switch in switches])

    @classmethod
    def for_size(cls, height: int, width: int, per_colour: int | None) -> "_Uniqueness":
        key = (height, width, per_colour)
        if key not in cls._cache:
            cls._cache.clear()  # one grid size at a time is all a pack needs
            cls._cache[key] = cls(height, width, per_colour)
        return cls._cache[key]

    def unique_without(self, clues: list[int], dropped: int) -> bool:
        """Whether the clue literals ``clues`` still leave one solution once ``dropped`` (the
        colour literal of one more clue) is no longer given, when together they leave exactly
        one: any other solution would have to give the dropped cell another colour (one that
        agrees with it there satisfies every clue, so it is the solution), so one SAT call that
        asks for just that decides it."""
        return self.backend.status(clues + [-dropped]) is Status.UNSAT

    def unique_without_all(self, clues: list[int], dropped: list[int]) -> bool:
        """:meth:`unique_without` for several dropped clue literals at once: any other solution
        of ``clues`` must give some dropped cell another colour, so one SAT call that asks for
        just that decides it (see the switches in ``__init__``)."""
        colour = self.deducer.template.colour
        keep_off = set(dropped)
        off = [-switch for lits, switches in zip(colour, self.switch) for lit, switch in zip(lits, switches) if lit not in keep_off]
        return self.backend.status(clues + [self.some_switch] + off) is Status.UNSAT

    def carve(self, solution: tuple[str, ...], rng: random.Random) -> set[int]:
        """Clues dropped from the full solution in random order while it stays the only one.

        The result is that of asking about one clue at a time, in that order, but the first
        clues, which almost always go, are asked about in blocks (:data:`CARVE_FIRST_BLOCK`,
        doubling while whole blocks go): when a block can go, each of its clues could have
        gone in turn, since each question's clues include the block's rest. After the first
        block that cannot go, blocks halve down to one clue and stay there.
        """
        colours = self.deducer.template.solution_literals(solution)
        cells = len(colours)
        clues = set(range(cells))
        order = list(range(cells))
        rng.shuffle(order)
        position, block, growing = 0, CARVE_FIRST_BLOCK, True
        while position < cells:
            if block > 1:
                batch = order[position : position + block]
                rest = [colours[i] for i in sorted(clues.difference(batch))]
                if self.unique_without_all(rest, [colours[i] for i in batch]):
                    clues.difference_update(batch)
                    position += len(batch)
                    block *= 2 if growing else 1
                else:
                    growing, block = False, block // 2
                continue
            cell = order[position]
            if self.unique_without([colours[i] for i in sorted(clues) if i != cell], colours[cell]):
                clues.discard(cell)
            position += 1
        return clues


@dataclass(frozen=True)
class Order:
    """One puzzle to generate: its size, level, seed string and name."""

    height: int
    width: int
    level: int
    seed: str
    name: str
    per_colour: int | None = None
    minimal: bool = False


def fulfil(order: Order) -> Generated | str:
    """Generate one ordered puzzle (for worker processes); a failure comes back as its message.

    Only :class:`GenerationFailed` is a failure; an interrupt or a defect goes on up.
    """
    try:
        return generate_one(order.height, order.width, order.level, order.seed, order.name, order.per_colour, order.minimal)
    except GenerationFailed as error:
        return str(error)


def orders(count: int, level: int, height: int, width: int, seed: int, per_colour: int | None = None, minimal: bool = False,
           prefix: str | None = None) -> list[Order]:
    """The orders for a pack: puzzle ``i`` gets the seed string ``"<seed>:<size>:<level>:<i>"``."""
    return list(order_stream(0, count, level, height, width, seed, per_colour, minimal, prefix))


def order_stream(start: int, count: int, level: int, height: int, width: int, seed: int,
                 per_colour: int | None = None, minimal: bool = False, prefix: str | None = None) -> Iterator[Order]:
    """The orders of puzzles ``start`` to ``count - 1`` of a pack, one at a time. Puzzle ``i``
    depends on nothing but ``(seed, i)`` and the options, so any range can be made again, by
    any number of workers or machines, and come out the same (the name's prefix changes the
    names only)."""
    for i in range(start, count):
        yield Order(height, width, level, f"{seed}:{height}x{width}:{level}:{i}", puzzle_name(level, seed, i, prefix), per_colour, minimal)


def check_prefix(prefix: str) -> str:
    """``prefix`` when it can begin the names of a pack's puzzles: not empty, and no whitespace or
    control character (a name is the rest of its ``# name:`` line, read stripped)."""
    if not prefix:
        raise InputError("--prefix: the prefix of the puzzles' names is empty")
    bad = next((c for c in prefix if c.isspace() or unicodedata.category(c)[0] == "C"), None)
    if bad is not None:
        raise InputError(f"--prefix: the prefix of the puzzles' names has {bad!r} in it (no whitespace or control characters)")
    return prefix


def name_prefix(level: int, seed: int, prefix: str | None = None) -> str:
    """What a pack's puzzle names start with: ``prefix``, or by default ``L<level>-s<seed>``."""
    return f"L{level}-s{seed}" if prefix is None else prefix


def puzzle_name(level: int, seed: int, index: int, prefix: str | None = None) -> str:
    """The name of a pack's puzzle ``index`` (from 0): ``<prefix>-<index + 1>``, three digits at
    least, the prefix by default ``L<level>-s<seed>``."""
    return f"{name_prefix(level, seed, prefix)}-{index + 1:03d}"


def pack_header(level: int, height: int, width: int, seed: int, per_colour: int | None = None, minimal: bool = False,
                prefix: str | None = None) -> str:
    """The comment line a generated pack starts with: what made it (``--resume`` checks that
    it continues the same run, names included). The supply, --minimal and the names' prefix are
    named only when given, so that packs made before they were named read the same."""
    extra = (f", {per_colour} per colour" if per_colour is not None else "") + (", minimal" if minimal else "")
    extra += f", names {prefix}-NNN" if prefix is not None else ""
    return f"# Lixso puzzles made by placesat: level {level}, {height}x{width}, seed {seed}{extra}\n"


_HEADER = re.compile(r"# Lixso puzzles made by placesat: level [0-9]+, [0-9]+x[0-9]+, seed ([0-9]+)")


def header_seed(path: str) -> int | None:
    """The seed named by a generated pack's first line, when ``path`` is one."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(4096).decode("utf-8", errors="replace")
    except OSError:
        return None
    match = _HEADER.match(first)
    return int(match[1]) if match else None


def answers_header(header: str) -> str:
    """The first line of the answers file that goes with a pack whose first line is ``header``."""
    return "# Answers to the " + header[2:]


def resume_point(path: str, header: str, level: int, seed: int, height: int, width: int,
                 before: int | None = None, prefix: str | None = None) -> tuple[int, int] | None:
    """Where an interrupted run that writes ``path`` stopped: ``(the index of the next puzzle
    to make, the length in bytes of the file's complete part)``, read in one pass with memory
    flat in the file's length. A record counts when it is whole (the name of a puzzle of this
    pack after the last one counted, and every row); a cut-short last record does not, nor
    (``before``) one of a puzzle from that index on. None when the file does not begin with
    ``header`` (another run's pack: not to be continued). The answers file is read the same
    way: its records are the pack's, with the solution as the grid."""
    head = header.encode("utf-8")
    with open(path, "rb") as handle:
        first = handle.read(len(head))
        if first != head:
            return (0, 0) if head.startswith(first) else None
        offset = len(head)
        keep, next_index = offset, 0
        name: int | None = None
        rows = 0
        for raw in handle:
            offset += len(raw)
            if not raw.endswith(b"\n"):
                break  # cut short: not a whole line
            line = raw[:-1]
            if not line:
                name, rows = None, 0
                continue
            if line.startswith(b"# name: "):
                index = _index_of(line[8:].decode("utf-8", errors="replace"), level, seed, prefix)
                name = index if index is not None and index >= next_index and (before is None or index < before) else None
                rows = 0
            elif not line.startswith(b"#"):
                rows += 1
                if name is not None and rows == height and len(line) == width:
                    keep, next_index = offset, name + 1
    return next_index, keep


def _index_of(name: str, level: int, seed: int, prefix: str | None = None) -> int | None:
    start = name_prefix(level, seed, prefix) + "-"
    number = name[len(start):]
    if not name.startswith(start) or not number.isdigit() or not number.isascii():
        return None
    return int(number) - 1


def minimal_unique(height: int, width: int, seed: str, name: str, per_colour: int | None = None) -> tuple[Grid, tuple[str, ...]]:
    """A random puzzle from which no clue can be removed without losing uniqueness, and its solution.

    Whatever its level: these are the hard case for a solver (the benchmark packs).
    """
    rng = random.Random(seed)
    solution = random_solution(deducer_for(height, width, per_colour).template, rng)
    clues = _carve(solution, rng, per_colour, name)
    return _puzzle(solution, clues, width, name), solution
