"""One-sided building as constraints: which stones a player can add to a position, stacked on
each other, while the opponent does nothing; and the line they make, seen from above.

*Candidates* (:func:`candidates`). Every way to lay one of the player's remaining stones at
some height: on the board as it stands, or on top of the player's own new stones. A candidate at
base ``b`` needs, under each column that is not open, either the present top exactly at its level
(and, under an end, the board or the player's colour), or a new stone's cube just below it.
Candidates whose needed cubes no candidate can give are dropped until none is left to drop. With
a *budget* (the most stones or points an answer may cost), a candidate is dropped too when it
cannot be paid for: its own cost plus the cheapest stone under its dearest need, counted down to
the board, is over the budget.

*Constraints* (:class:`BuildEncoding`), over one Boolean per candidate (chosen or not):

- each cube of space holds at most one chosen stone, and ``occupied`` says whether one does;
- a chosen stone's needed cubes are occupied (it rests on what was added before it);
- no more stones of a kind than the player has left, counted in unary (``used``);
- ``covered[cell]``: some chosen stone covers the cell, so the top view shows the player there.

Every set of stones a legal sequence can add satisfies these. Conversely, a chosen set is laid
in the order of its columns, bottom first (:func:`placesat.quarry.reach.building_order`), and then
every stone finds what it needs below it; the order exists unless stones interlock (one above
another in one column and below it in another), which no default stone can do, and which the
query cuts off when a stone file allows it.

*The line* (:func:`add_line`): one unit of flow from the first zone's rows to the second's,
through cells showing the player's colour.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from placesat.core.backend import Formula
from placesat.core.limits import Deadline

from .model import Cell, Placement
from .rules import State
from .stones import END, MAX_LEVELS, OPEN, Cube, Orientation

UNPAID = float("inf")


@dataclass(frozen=True)
class Candidate:
    """One way to add a stone: the placement, the level of its bottom, its cubes, and the cubes
    of new stones it needs right under it."""

    stone: str
    orientation: Orientation
    at: Cell
    base: int
    cubes: tuple[Cube, ...]
    needs: tuple[Cube, ...]

    @property
    def placement(self) -> Placement:
        """The move that lays it."""
        return Placement(self.stone, self.orientation.face, self.orientation.direction, self.at)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells it covers, seen from above."""
        r0, c0 = self.at
        return tuple((r0 + col.dr, c0 + col.dc) for col in self.orientation.columns)

    def lowest(self, cell: Cell) -> int:
        """The level of its lowest cube over ``cell``."""
        return min(z for r, c, z in self.cubes if (r, c) == cell)


def candidates(
    state: State,
    player: str,
    deadline: Deadline | None = None,
    budgets: list[tuple[dict[str, int], int]] = (),
    stacked: bool = True,
) -> list[Candidate]:
    """Every stone ``player`` could add in some one-sided continuation (see the module
    docstring); with ``budgets`` (costs per stone and the most an answer may cost), only those an
    answer within every budget could use; without ``stacked``, only those resting on what stands
    now, none on a new stone (a smaller model, whose answers are real answers but not always the
    cheapest)."""
    board = state.board
    width = board.width
    height, top = state.height, state.top
    found: list[Candidate] = []
    for kind in state.stones.kinds:
        if state.left(player, kind.name) <= 0:
            continue
        for orientation in kind.orientations:
            if deadline is not None:
                deadline.check()
            rows = [col.dr for col in orientation.columns]
            cols = [col.dc for col in orientation.columns]
            for r0 in range(-min(rows), board.length - max(rows)):
                for c0 in range(-min(cols), width - max(cols)):
                    for base in range(MAX_LEVELS - orientation.height + 1):
                        needs = []
                        for col in orientation.columns:
                            i = (r0 + col.dr) * width + c0 + col.dc
                            level = base + col.bottom
                            if level < height[i]:
                                break  # the stone would go into or under what is there
                            if col.role == OPEN:
                                continue
                            if level == height[i]:
                                if col.role == END and level > 0 and top[i] != player:
                                    break  # an end on the opponent's colour
                            elif stacked:
                                needs.append((r0 + col.dr, c0 + col.dc, level - 1))
                            else:
                                break
                        else:
                            cubes = tuple((r0 + r, c0 + c, base + z) for r, c, z in orientation.cubes)
                            found.append(Candidate(kind.name, orientation, (r0, c0), base, cubes, tuple(needs)))
    found = supported(found)
    for costs, budget in budgets:
        lowest = _lowest_costs(found, costs, deadline)
        found = supported([c for c, cost in zip(found, lowest) if cost <= budget])
    return found


def supported(found: list[Candidate]) -> list[Candidate]:
    """Of ``found``, those whose needed cubes other kept candidates can give (dropping until none
    is left to drop)."""
    while True:
        given = {cube for candidate in found for cube in candidate.cubes}
        kept = [candidate for candidate in found if all(cube in given for cube in candidate.needs)]
        if len(kept) == len(found):
            return kept
        found = kept


def _lowest_costs(found: list[Candidate], costs: dict[str, int], deadline: Deadline | None) -> list[float]:
    """For each candidate, a lower bound on what any answer using it costs: its own cost plus,
    for its dearest need, the cheapest candidate giving that cube (counted the same way)."""
    lowest = [UNPAID] * len(found)
    while True:
        if deadline is not None:
            deadline.check()
        cheapest: dict[Cube, float] = {}
        for candidate, cost in zip(found, lowest):
            for cube in candidate.cubes:
                if cost < cheapest.get(cube, UNPAID):
                    cheapest[cube] = cost
        changed = False
        for i, candidate in enumerate(found):
            under = max((cheapest.get(cube, UNPAID) for cube in candidate.needs), default=0)
            cost = costs[candidate.stone] + under
            if cost < lowest[i]:
                lowest[i] = cost
                changed = True
        if not changed:
            return lowest


@dataclass
class BuildEncoding:
    """The constraints of one-sided building (see the module docstring) and their variables."""

    formula: Formula
    candidates: list[Candidate]
    chosen: list[int]
    occupied: dict[Cube, int]
    covered: dict[Cell, int]
    used: dict[str, list[int]]
    own: dict[Cell, int | bool] = field(default_factory=dict)

    def add_budget(self, terms: list[tuple[int, int]], budget: int) -> None:
        """Require ``sum(weight for lit, weight in terms if lit) <= budget``."""
        self.formula.add_count([lit for lit, weight in terms for _ in range(weight)], 0, budget)

    def stones_terms(self) -> list[tuple[int, int]]:
        """(literal, weight) terms whose sum is the number of stones added."""
        return [(lit, 1) for lits in self.used.values() for lit in lits]

    def points_terms(self, points: dict[str, int]) -> list[tuple[int, int]]:
        """(literal, weight) terms whose sum is the tournament points of the stones added."""
        return [(lit, points[name]) for name, lits in self.used.items() for lit in lits if points[name]]


def encode_build(
    state: State, player: str, found: list[Candidate], deadline: Deadline | None = None, top_view_only: bool = False
) -> BuildEncoding:
    """The constraints of ``player`` adding some of the candidate stones ``found`` to ``state``
    while the opponent does nothing.

    ``top_view_only``: a relaxation that keeps what the stones cover seen from above and how many
    of each kind there are, and forgets heights: one choice per stone and set of cells, stones may
    overlap, and of what stands under them only this is kept: where a stone rests on a new stone at
    every height it could take (it is *propped* there), a chosen stone that is not propped there
    covers that cell too. That is the bottom of the stack: of the new stones over a cell, the
    lowest rests on what stood there before or stands open over it. Every answer of the full
    constraints is one of these at no greater cost, so "none within a budget" here proves it for
    the full constraints, in a model a fraction of the size.
    """
    formula = Formula()
    propped: list[list[Cell]] = []
    if top_view_only:
        variants: dict[tuple[str, tuple[Cell, ...]], list[Candidate]] = {}
        for candidate in found:
            variants.setdefault((candidate.stone, tuple(sorted(candidate.cells))), []).append(candidate)
        found = [listed[0] for listed in variants.values()]
        propped = [_propped_cells(listed) for listed in variants.values()]
    chosen = formula.new_vars(len(found))
    occupied: dict[Cube, int] = {}
    if top_view_only:
        # under each such cell, the bottom of the stack: a chosen stone not propped there. "Any
        # other chosen stone" let two stones hold each other up (a Beam and an Arch on the same
        # cells), a ring no building has, and proving that no line fits then took a minute
        bottoms: dict[Cell, list[int]] = {}
        for lit, candidate, cells in zip(chosen, found, propped):
            for cell in set(candidate.cells) - set(cells):
                bottoms.setdefault(cell, []).append(lit)
        for lit, cells in zip(chosen, propped):
            for cell in cells:
                formula.add_clause([-lit] + bottoms.get(cell, []))
    else:
        covering: dict[Cube, list[int]] = {}
        for lit, candidate in zip(chosen, found):
            for cube in candidate.cubes:
                covering.setdefault(cube, []).append(lit)
        for cube, lits in covering.items():
            occupied[cube] = formula.new_var()
            formula.add_exactly_one(lits + [-occupied[cube]])  # at most one stone, and occupied iff one
        for lit, candidate in zip(chosen, found):
            for cube in candidate.needs:
                formula.add_implication(lit, occupied[cube])
    if deadline is not None:
        deadline.check()
    by_cell: dict[Cell, list[int]] = {}
    for lit, candidate in zip(chosen, found):
        for cell in candidate.cells:
            by_cell.setdefault(cell, []).append(lit)
    covered: dict[Cell, int] = {}
    for cell, lits in sorted(by_cell.items()):
        # over stones, not cubes: a stone counts once per cell however many of its cubes are there
        covered[cell] = formula.new_var()
        formula.add_clause([-covered[cell]] + lits)
        for lit in lits:
            formula.add_implication(lit, covered[cell])
    used: dict[str, list[int]] = {}
    by_kind: dict[str, list[int]] = {}
    for lit, candidate in zip(chosen, found):
        by_kind.setdefault(candidate.stone, []).append(lit)
    for name, lits in by_kind.items():
        left = min(state.left(player, name), len(lits))
        used[name] = formula.new_vars(left)
        # stones of this kind <= used: the count is paid for, and at most what is left
        formula.add_count(lits + [-u for u in used[name]], 0, left)
        for more, fewer in zip(used[name][1:], used[name]):
            formula.add_implication(more, fewer)
    encoding = BuildEncoding(formula, found, chosen, occupied, covered, used)
    width = state.board.width
    for i in range(state.board.cells):
        cell = divmod(i, width)
        if state.top[i] == player:
            encoding.own[cell] = True
        elif cell in covered:
            encoding.own[cell] = covered[cell]
    return encoding


def _propped_cells(variants: list[Candidate]) -> list[Cell]:
    """The cells under which one stone on one set of cells needs a new cube at every height it
    could take. Where such a stone is chosen, a new stone lies under it over that cell, and the
    lowest new stone there needs nothing new under it, so its own choice (its kind and cells, all
    heights together) is not propped there."""
    cells = set(variants[0].cells)
    for variant in variants:
        cells &= {(r, c) for r, c, _ in variant.needs}
    return sorted(cells)


def _distances(state: State, cells: set[Cell], rows: tuple[int, ...]) -> dict[Cell, int]:
    """Steps from the given rows to each of ``cells``, moving through ``cells`` only."""
    board = state.board
    dist = {cell: 0 for cell in cells if cell[0] in rows}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        for nxt in board.neighbours(cell):
            if nxt in cells and nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


@dataclass
class LineEncoding:
    """The line as one unit of flow: ``on_line[cell]`` for the cells it passes, ``arcs[(u, v)]``
    for each step between neighbours, ``starts``/``ends`` for where it enters and leaves."""

    on_line: dict[Cell, int]
    arcs: dict[tuple[Cell, Cell], int]
    starts: dict[Cell, int]
    ends: dict[Cell, int]


def add_line(state: State, encoding: BuildEncoding) -> LineEncoding | None:
    """Require a line of the player's colour from one zone to the other; None when no line can
    exist at all (then nothing is added).

    One unit of flow enters a cell of the first zone's rows, passes from cell to neighbouring
    cell, and leaves from a cell of the second zone's rows: every cell it passes has exactly one
    way in and one way out, and shows the player's colour. Following the flow from where it
    enters never meets a cell twice (one way in), so it reaches the second zone: that walk is a
    line. Cycles elsewhere are allowed and harmless. Flow conservation is linear, so the
    solver's LP sees that the line needs a cell in every row, which is what bounds the stones.
    """
    formula = encoding.formula
    board = state.board
    first, last = board.goal_rows()
    possible = set(encoding.own)
    to_first = _distances(state, possible, first)
    to_last = _distances(state, possible, last)
    useful = sorted(cell for cell in possible if cell in to_first and cell in to_last)
    if not useful:
        return None
    kept = set(useful)
    on_line = {cell: formula.new_var() for cell in useful}
    arcs = {(u, v): formula.new_var() for u in useful for v in board.neighbours(u) if v in kept}
    starts = {cell: formula.new_var() for cell in useful if cell[0] in first}
    ends = {cell: formula.new_var() for cell in useful if cell[0] in last}
    formula.add_exactly_one(list(starts.values()))
    for cell in useful:
        ins = [arcs[(n, cell)] for n in board.neighbours(cell) if n in kept] + ([starts[cell]] if cell in starts else [])
        outs = [arcs[(cell, n)] for n in board.neighbours(cell) if n in kept] + ([ends[cell]] if cell in ends else [])
        formula.add_exactly_one(ins + [-on_line[cell]])
        formula.add_exactly_one(outs + [-on_line[cell]])
        own = encoding.own[cell]
        if own is not True:
            formula.add_implication(on_line[cell], own)
    return LineEncoding(on_line, arcs, starts, ends)
