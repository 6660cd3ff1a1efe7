"""Laido rules as constraints: connection parts, grown groups and winning positions.

Everything is written into a :class:`placesat.core.backend.Formula`, so the same encoding runs on
python-sat and on CP-SAT.

*A connection part as constraints.* One Boolean per stone says "this stone is on the path". A
stone on the path has exactly two path neighbours, or exactly one when it is an edge stone; the
path holds at most (for one group: exactly) two edge stones. Counting *all* path neighbours, not
chosen path edges, is what makes the path chordless: two path stones that touch are neighbours
on the path. What these local rules still allow is a separate ring of non-edge stones (every
stone with two neighbours on it) beside the real path. Triangles and the six-stone ring around a
point are forbidden up front; any other ring found in a solution is cut off with
:func:`cycle_cuts` and the solver is asked again, until the chosen stones form one path.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from placesat.core.backend import Formula
from placesat.core.counting import at_least_outputs
from placesat.core.limits import Deadline
from placesat.core.lattice import HexLattice, Point

from .rules import board_order, groups, neighbour_table

# rings around holes of up to this many points are cut off up front; larger ones when they appear
SMALL_HOLE = 2


# --------------------------------------------------------------------------- paths


def _triangles(points: set[Point]) -> list[tuple[Point, Point, Point]]:
    """The small triangles of the board with all three corners in ``points``."""
    found = []
    for q, r in points:
        for corners in (((q + 1, r), (q, r + 1)), ((q + 1, r), (q + 1, r - 1))):
            if all(c in points for c in corners):
                found.append(((q, r), *corners))
    return found


def _holes(lattice: HexLattice, largest: int) -> list[frozenset[Point]]:
    """Every connected set of at most ``largest`` board points, each once."""
    found: set[frozenset[Point]] = set()
    frontier = {frozenset([p]) for p in lattice.points}
    while frontier:
        found |= frontier
        frontier = {
            hole | {n}
            for hole in frontier
            if len(hole) < largest
            for p in hole
            for n in lattice.neighbours(p)
            if n not in hole
        } - found
    return sorted(found, key=lambda h: sorted(h, key=board_order))


@lru_cache(maxsize=None)
def small_rings(lattice: HexLattice, largest_hole: int = SMALL_HOLE) -> tuple[frozenset[Point], ...]:
    """The rings around the small holes of the board: for each connected set of at most
    ``largest_hole`` points, the points around it, when none is on the rim and they form a
    chordless cycle (each has exactly two neighbours among them)."""
    found = []
    for hole in _holes(lattice, largest_hole):
        ring = frozenset(n for p in hole for n in lattice.neighbours(p) if n not in hole)
        # an edge point has one path neighbour, so it is never on a ring: skip rings through the rim
        if len(ring) < 6 or any(lattice.is_edge(p) for p in ring):
            continue
        if all(sum(n in ring for n in lattice.neighbours(p)) == 2 for p in ring):
            found.append(ring)
    return tuple(found)


def add_path_rules(
    formula: Formula,
    lattice: HexLattice,
    on_path: Mapping[Point, int],
    ends: tuple[int, int],
    hole_cuts: bool = True,
) -> None:
    """The local rules of a connection part over the points of ``on_path``.

    A point on the path has exactly two path neighbours, one if it is an edge point (an end);
    between ``ends[0]`` and ``ends[1]`` edge points are on the path; no small triangle lies wholly
    on it, and (with ``hole_cuts``) a path through a ring around a small hole leaves that ring
    (:func:`ring_cut`).
    """
    points = set(on_path)
    joined = neighbour_table(lattice)
    for point, lit in on_path.items():
        around = [on_path[n] for n in joined[point] if n in on_path]
        degree = 1 if lattice.is_edge(point) else 2
        if len(around) < degree:
            formula.add_clause([-lit])
            continue
        # at least `degree` of `around`: dropping any degree-1 of them leaves one true
        if degree == 1:
            formula.add_clause([-lit, *around])
        else:
            for skipped in around:
                formula.add_clause([-lit, *(a for a in around if a != skipped)])
        # at most `degree`: no degree+1 of them together
        _forbid_subsets(formula, lit, around, degree + 1)
    edge_lits = [lit for point, lit in on_path.items() if lattice.is_edge(point)]
    formula.add_count(edge_lits, ends[0], ends[1])
    for triangle in _triangles(points):
        formula.add_clause([-on_path[p] for p in triangle])
    if hole_cuts:
        for ring in small_rings(lattice):
            for clause in ring_cut(lattice, on_path, ring):
                formula.add_clause(clause)


def _forbid_subsets(formula: Formula, premise: int, lits: list[int], size: int) -> None:
    """``premise`` implies that no ``size`` of ``lits`` hold together (``lits`` has at most 6)."""
    from itertools import combinations

    for chosen in combinations(lits, size):
        formula.add_clause([-premise, *(-lit for lit in chosen)])


def forbid_rings(formula: Formula, lattice: HexLattice, on_path: Mapping[Point, int], longest: int) -> None:
    """No ring at all on the path, through ranks: one end (an edge point) starts the path, and
    every other point on it has a path neighbour of smaller rank before it. Going down the
    ranks around a ring would never stop, so a ring cannot be chosen; a real path of up to
    ``longest`` points ranks its points 0, 1, 2, ... from the starting end.

    Ranks are in order encoding: ``rank[v][k - 1]`` means "the rank of v is at least k".
    """
    top = max(longest - 1, 0)
    rank = {v: formula.new_vars(top) for v in on_path}
    for steps in rank.values():
        for k in range(1, top):
            formula.add_implication(steps[k], steps[k - 1])
    starts = []
    for v, lit in on_path.items():
        before = []
        if lattice.is_edge(v):
            start = formula.new_var()
            formula.add_implication(start, lit)
            starts.append(start)
            before.append(start)
        for u in lattice.neighbours(v):
            if u not in on_path:
                continue
            step = formula.new_var()  # u comes just before v
            before.append(step)
            formula.add_implication(step, on_path[u])
            if top == 0:
                formula.add_clause([-step])
                continue
            formula.add_implication(step, rank[v][0])
            for k in range(1, top + 1):
                if k < top:
                    formula.add_clause([-step, -rank[u][k - 1], rank[v][k]])
                else:
                    formula.add_clause([-step, -rank[u][k - 1]])
        formula.add_clause([-lit, *before])
    formula.add_at_most_one(starts)


def rings(lattice: HexLattice, chosen: Iterable[Point]) -> list[frozenset[Point]]:
    """The parts of the chosen points (connected along board lines) that hold no edge point.

    A decoded connection part has none; the local rules of :func:`add_path_rules` allow them.
    """
    chosen = set(chosen)
    found: list[frozenset[Point]] = []
    seen: set[Point] = set()
    for start in sorted(chosen, key=board_order):
        if start in seen:
            continue
        part = {start}
        queue = deque([start])
        while queue:
            point = queue.popleft()
            for nxt in lattice.neighbours(point):
                if nxt in chosen and nxt not in part:
                    part.add(nxt)
                    queue.append(nxt)
        seen |= part
        if not any(lattice.is_edge(p) for p in part):
            found.append(frozenset(part))
    return found


def ring_cut(lattice: HexLattice, on_path: Mapping[Point, int], ring: frozenset[Point]) -> list[list[int]]:
    """Clauses that keep ``ring`` from being chosen on its own again.

    A connection part is connected and ends on edge points, so when it holds a point of a ring
    (which has no edge point) it must also hold a point just outside the ring: for each ring
    point ``v``, ``on_path[v]`` implies one of the ring's outside neighbours. Only for a ring
    lying wholly in ``on_path``.
    """
    if not ring <= on_path.keys():
        return []
    outside = sorted(
        {n for p in ring for n in neighbour_table(lattice)[p] if n not in ring and n in on_path}, key=board_order
    )
    return [[-on_path[point], *(on_path[n] for n in outside)] for point in sorted(ring, key=board_order)]


def cycle_cuts(
    lattice: HexLattice, on_path: Mapping[Point, int], chosen: Iterable[Point]
) -> list[list[int]]:
    """The :func:`ring_cut` clauses for every ring among ``chosen``; empty when it is one path."""
    return [clause for ring in rings(lattice, chosen) for clause in ring_cut(lattice, on_path, ring)]


def path_in_order(lattice: HexLattice, chosen: Iterable[Point]) -> tuple[Point, ...]:
    """The chosen points as a walk from one end to the other (ends are the points with one
    chosen neighbour; the end first in board order comes first)."""
    chosen = set(chosen)
    if not chosen:
        return ()
    ends = sorted(
        (p for p in chosen if sum(n in chosen for n in lattice.neighbours(p)) <= 1), key=board_order
    )
    start = ends[0] if ends else min(chosen, key=board_order)
    path = [start]
    seen = {start}
    while True:
        step = [n for n in lattice.neighbours(path[-1]) if n in chosen and n not in seen]
        if not step:
            return tuple(path)
        path.append(step[0])
        seen.add(step[0])


# --------------------------------------------------------------------------- one group


@dataclass
class ConnectionPartEncoding:
    """The connection parts of one group: ``on_path[stone]`` is true for the part's stones."""

    formula: Formula
    on_path: dict[Point, int]

    def objective(self, longest: bool) -> list[tuple[int, int]]:
        """Maximise the number of stones on the part (or, for the shortest reading, minimise it)."""
        return [(lit, 1 if longest else -1) for lit in self.on_path.values()]


def encode_connection_part(lattice: HexLattice, group: Iterable[Point], ranked: bool = False) -> ConnectionPartEncoding:
    """The connection parts of ``group``: chordless paths between exactly two edge stones.

    Rings are cut off as they appear, unless ``ranked``: then they are excluded up front with
    ranks (:func:`forbid_rings`), which pays in a solid area where rings are many (measured on a
    117-stone half board: 19 s against 79 s) and costs in a thin one.
    """
    formula = Formula()
    stones = sorted(group, key=board_order)
    on_path = dict(zip(stones, formula.new_vars(len(stones))))
    add_path_rules(formula, lattice, on_path, (2, 2))
    if ranked:
        forbid_rings(formula, lattice, on_path, len(stones))
    return ConnectionPartEncoding(formula, on_path)


# --------------------------------------------------------------------------- growing groups


@dataclass
class StoneClass:
    """A set of the player's stones after the new stones are added, closed under touching.

    It is one group, or several groups taken together (which only undervalues them). A point
    of ``member`` is in the class; a group's stones share their group's literal, so the literal
    counts once per stone. ``on_path`` marks a connection part inside it (or nothing).
    """

    member: dict[Point, int] = field(default_factory=dict)
    on_path: dict[Point, int] = field(default_factory=dict)
    active: int = 0

    def value_terms(self) -> list[tuple[int, int]]:
        """Value = 2 * |connection part| - |class|, as weighted literals."""
        return [(lit, 2) for lit in self.on_path.values()] + [(lit, -1) for lit in self.member.values()]


@dataclass
class GrowthEncoding:
    """The player's stones after adding at most ``capacity`` stones on empty points.

    ``added[point]`` says a new stone goes on ``point``; ``classes`` are the stone classes.
    """

    formula: Formula
    added: dict[Point, int]
    classes: list[StoneClass]
    levels: dict[str, int] = field(default_factory=dict)
    # at_most_stones[k]: a literal that, assumed, allows at most k new stones
    at_most_stones: dict[int, int] = field(default_factory=dict)


def empties_needed(lattice: HexLattice, mine: frozenset[Point], empty: set[Point], sources: Iterable[Point]) -> dict[Point, int]:
    """For each point, the fewest empty points (itself included) a chain of the player's stones
    and new stones from ``sources`` must fill to reach it (0-1 breadth-first search)."""
    best: dict[Point, int] = {}
    queue: deque[tuple[int, Point]] = deque()
    for s in sources:
        best[s] = 0
        queue.append((0, s))
    while queue:
        cost, point = queue.popleft()
        if cost > best.get(point, cost):
            continue
        for nxt in lattice.neighbours(point):
            if nxt in mine:
                step = 0
            elif nxt in empty:
                step = 1
            else:
                continue
            if cost + step < best.get(nxt, 1 << 30):
                best[nxt] = cost + step
                if step == 0:
                    queue.appendleft((cost, nxt))
                else:
                    queue.append((cost + 1, nxt))
    return best


def _add_stones(formula: Formula, empty: list[Point], capacity: int, min_stones: int) -> dict[Point, int]:
    added = dict(zip(empty, formula.new_vars(len(empty))))
    formula.add_count(list(added.values()), min_stones, capacity)
    return added


def _close_class(
    formula: Formula,
    lattice: HexLattice,
    stone_class: StoneClass,
    mine: frozenset[Point],
    added: Mapping[Point, int],
) -> None:
    """Touching stones are in the same class: a member's occupied neighbour is a member too."""
    member = stone_class.member
    for point, lit in member.items():
        for nxt in lattice.neighbours(point):
            if nxt in mine:
                occupied = None
            elif nxt in added:
                occupied = added[nxt]
            else:
                continue  # the opponent's stone: it never joins
            other = member.get(nxt)
            if other == lit:
                continue
            clause = [-lit] + ([-occupied] if occupied is not None else [])
            if other is not None:
                clause.append(other)
            formula.add_clause(clause)


def _add_path(
    formula: Formula,
    lattice: HexLattice,
    stone_class: StoneClass,
    mine: frozenset[Point],
    capacity: int,
    ranked: bool,
) -> None:
    """A connection part inside the class, or no path at all (then the value is -|class|).

    With ``ranked``, rings are forbidden outright (:func:`forbid_rings`): when the value is
    maximised the solver would otherwise keep finding new large rings through the player's
    stones, one cut at a time. Without, rings are cut off when they appear (cheaper when the
    solver only has to reach a threshold and seldom builds one).
    """
    stone_class.on_path = dict(
        zip(stone_class.member, formula.new_vars(len(stone_class.member)))
    )
    for point, lit in stone_class.on_path.items():
        formula.add_implication(lit, stone_class.member[point])
    add_path_rules(formula, lattice, stone_class.on_path, (0, 2), hole_cuts=not ranked)
    old = sum(1 for p in stone_class.member if p in mine)
    new = min(capacity, len(stone_class.member) - old)
    if ranked:
        forbid_rings(formula, lattice, stone_class.on_path, old + new)
    stone_class.active = formula.new_var()
    formula.add_clause([-stone_class.active, *sorted(set(stone_class.member.values()))])


def encode_growth(
    lattice: HexLattice,
    mine: frozenset[Point],
    theirs: frozenset[Point],
    capacity: int,
    min_stones: int = 0,
    ranked: bool = True,
    deadline: Deadline | None = None,
) -> GrowthEncoding:
    """The player's final groups as stone classes, after adding ``min_stones``..``capacity`` stones.

    Each existing group takes the class of a group listed before it or its own (so groups that
    new stones join can share one class); each new stone takes one class, either a group's
    class it can reach or one of ``capacity`` classes for groups made of new stones only. Every
    real outcome fits (give each final group the class of its first old group), and every
    assignment undervalues the real groups or equals them: a class holding several groups loses
    the values of the ones its path avoids. ``deadline`` is checked class by class (``TimeUp``).
    """
    check = deadline.check if deadline is not None else (lambda: None)
    formula = Formula()
    empty = [p for p in lattice.points if p not in mine and p not in theirs]
    empty_set = set(empty)
    added = _add_stones(formula, empty, capacity, min_stones)
    old = groups(lattice, mine)
    reach = [empties_needed(lattice, mine, empty_set, g) for g in old]
    classes: list[StoneClass] = []
    group_choices: list[list[int]] = [[] for _ in old]
    point_choices: dict[Point, list[int]] = {p: [] for p in empty}
    for s, group in enumerate(old):
        stone_class = StoneClass()
        for i in range(s, len(old)):
            if i == s or min(reach[s].get(p, 1 << 30) for p in old[i]) <= capacity:
                lit = formula.new_var()
                group_choices[i].append(lit)
                for p in old[i]:
                    stone_class.member[p] = lit
        for p in empty:
            if reach[s].get(p, 1 << 30) <= capacity:
                lit = formula.new_var()
                point_choices[p].append(lit)
                stone_class.member[p] = lit
        classes.append(stone_class)
    # new stones touching an old group always join an old group's class
    loose = [p for p in empty if not any(n in mine for n in lattice.neighbours(p))]
    for _ in range(capacity if loose else 0):
        stone_class = StoneClass()
        for p in loose:
            lit = formula.new_var()
            point_choices[p].append(lit)
            stone_class.member[p] = lit
        classes.append(stone_class)
    for choices in group_choices:
        formula.add_exactly_one(choices)
    for p, choices in point_choices.items():
        # a new stone on p <=> p takes exactly one class
        for lit in choices:
            formula.add_implication(lit, added[p])
        formula.add_clause([-added[p], *choices])
        formula.add_at_most_one(choices)
    for stone_class in classes:
        check()
        _close_class(formula, lattice, stone_class, mine, added)
        _add_path(formula, lattice, stone_class, mine, capacity, ranked)
    return GrowthEncoding(formula, added, classes)


def _at_least_if(formula: Formula, premise: int, terms: Sequence[tuple[int, int]], bound: int) -> None:
    """``premise`` implies ``sum(weight * lit) >= bound`` (weights may be negative)."""
    lits: list[int] = []
    offset = 0
    for lit, weight in terms:
        if weight >= 0:
            lits.extend([lit] * weight)
        else:
            # w * lit = w - w * (not lit) = -|w| + |w| * (not lit)
            lits.extend([-lit] * (-weight))
            offset += weight
    need = bound - offset
    if need <= 0:
        return
    if need > len(lits):
        formula.add_clause([-premise])
        return
    formula.add_count(lits + [-premise] * need, need, None)


def threshold_counts(their_values: Sequence[int]) -> list[tuple[int | None, int]]:
    """The thresholds at which counting groups decides the comparison, highest first, with the
    opponent's count at each: ``(t, number of their groups with value >= t)``; ``None`` is minus
    infinity (the number of groups).

    Comparing sorted value lists from the top, where a longer list wins a tie on the shorter
    one's length, is comparing ``count(t) = #{values >= t}`` from the highest ``t`` down: the
    first ``t`` where the counts differ decides. Between two of the opponent's values its count
    is constant, so checking ``t = w + 1`` and ``t = w`` for every opponent value ``w`` suffices.
    """
    thresholds = sorted({t for w in their_values for t in (w, w + 1)}, reverse=True)
    counted: list[tuple[int | None, int]] = [(t, sum(1 for w in their_values if w >= t)) for t in thresholds]
    counted.append((None, len(their_values)))
    return counted


def encode_reach(
    lattice: HexLattice,
    mine: frozenset[Point],
    theirs: frozenset[Point],
    their_values: Sequence[int],
    capacity: int,
    min_stones: int = 0,
    tie_break: str = "theirs",
    counting: str = "linear",
    hills: tuple[Sequence[int], Sequence[int]] | None = None,
    ranked: bool = True,
    deadline: Deadline | None = None,
) -> GrowthEncoding:
    """The player's final position beats ``their_values`` (the opponent's group values).

    With ``count(t)`` the number of the player's classes whose value (for the path chosen in
    it) is at least ``t``, the player wins when, at some threshold of
    :func:`threshold_counts`, its count exceeds the opponent's while at every higher threshold
    it is at least the opponent's. The claimed counts may undervalue the real ones, which only
    makes the claim harder, so a model is a real win. ``tie_break`` says who wins a full tie:
    ``"mine"``, ``"theirs"``, or ``"mine_if_no_stones"`` (the player is to move and nobody has
    passed: the player passes first only by adding no stone).

    ``hills``: with the hills tiebreak, the player's and the other side's stones per hill
    (:func:`placesat.laido.rules.hill_counts`, before the new stones): a full tie in values is
    then won by fewer stones on the first hill from the centre that differs, and only when
    every hill ties does ``tie_break`` decide.

    ``counting`` picks the form of "value >= t" that suits the backend, with the same meaning:
    ``"linear"``, one cardinality constraint per class and threshold (one linear constraint each
    for CP-SAT), or ``"counter"``, one shared unary counter per class in clauses (for SAT, where
    each cardinality constraint would become a totalizer of its own).
    """
    growth = encode_growth(lattice, mine, theirs, capacity, min_stones, ranked, deadline)
    formula = growth.formula
    thresholds = threshold_counts(their_values)
    finite = [t for t, _ in thresholds if t is not None]
    counters: list[list[int]] = []
    if counting == "counter":
        for stone_class in growth.classes:
            # 2 * |path| - |class| >= t  <=>  2 * |path| + |members left out| >= t + |member points|
            counted = [lit for lit in stone_class.on_path.values() for _ in (0, 1)]
            counted += [-lit for lit in stone_class.member.values()]
            upto = max(finite, default=0) + len(stone_class.member)
            counters.append(at_least_outputs(formula, counted, upto, deadline))
    at_least: list[list[int]] = []
    for threshold, _ in thresholds:
        lits = []
        for c, stone_class in enumerate(growth.classes):
            if threshold is None:
                lits.append(stone_class.active)
                continue
            lit = formula.new_var()
            formula.add_implication(lit, stone_class.active)
            if counting == "counter":
                k = threshold + len(stone_class.member)
                if k > len(counters[c]):
                    formula.add_clause([-lit])
                elif k > 0:
                    formula.add_implication(lit, counters[c][k - 1])
            else:
                _at_least_if(formula, lit, stone_class.value_terms(), threshold)
            lits.append(lit)
        at_least.append(lits)
    decisions = []
    for j, (_, theirs_at_j) in enumerate(thresholds):
        decision = formula.new_var()
        decisions.append(decision)
        growth.levels[f"level {j + 1}"] = decision
        for i in range(j + 1):
            need = thresholds[i][1] + (1 if i == j else 0)
            _at_least_if(formula, decision, [(lit, 1) for lit in at_least[i]], need)
    if hills is not None:
        # the hills tiebreak: values tie (or better) and, hill by hill from the centre, the
        # player's stones (old and added) equal the other side's until one hill has fewer
        mine_hills, their_hills = hills
        added_on = [[lit for p, lit in growth.added.items() if max(abs(p[0]), abs(p[1]), abs(p[0] + p[1])) == d] for d in range(len(mine_hills))]
        for d in range(len(mine_hills)):
            decision = formula.new_var()
            decisions.append(decision)
            growth.levels[f"hill {d}"] = decision
            for i, (_, theirs_at_i) in enumerate(thresholds):
                _at_least_if(formula, decision, [(lit, 1) for lit in at_least[i]], theirs_at_i)
            for e in range(d + 1):
                room = their_hills[e] - mine_hills[e] - (1 if e == d else 0)  # added stones allowed there
                _at_least_if(formula, decision, [(lit, -1) for lit in added_on[e]], -room)
                if e < d:
                    _at_least_if(formula, decision, [(lit, 1) for lit in added_on[e]], room)
    if tie_break != "theirs":
        decision = formula.new_var()
        decisions.append(decision)
        growth.levels["half point"] = decision
        for i, (_, theirs_at_i) in enumerate(thresholds):
            _at_least_if(formula, decision, [(lit, 1) for lit in at_least[i]], theirs_at_i)
        if tie_break == "mine_if_no_stones":
            for lit in growth.added.values():
                formula.add_implication(decision, -lit)
        if hills is not None:  # the half point counts only when every hill ties too
            for d, lits in enumerate(added_on):
                room = hills[1][d] - hills[0][d]
                _at_least_if(formula, decision, [(lit, 1) for lit in lits], room)
                _at_least_if(formula, decision, [(lit, -1) for lit in lits], -room)
    formula.add_clause(decisions)
    if counting == "linear":
        for k in range(capacity):
            bound = formula.new_var()
            _at_least_if(formula, bound, [(lit, -1) for lit in growth.added.values()], -k)
            growth.at_most_stones[k] = bound
    return growth


def encode_best(
    lattice: HexLattice,
    mine: frozenset[Point],
    theirs: frozenset[Point],
    capacity: int,
    min_stones: int = 0,
) -> GrowthEncoding:
    """One stone class of the player, after adding stones, whose value is to be maximised.

    Every added stone joins the class (a stone elsewhere cannot raise its value). The class is a
    set of the player's final stones closed under touching, so it holds whole groups; when it
    holds more than one its value is below that of its best group, so the maximum is a group's.
    """
    formula = Formula()
    empty = [p for p in lattice.points if p not in mine and p not in theirs]
    added = _add_stones(formula, empty, capacity, min_stones)
    stone_class = StoneClass()
    for group in groups(lattice, mine):
        lit = formula.new_var()
        for p in group:
            stone_class.member[p] = lit
    for p in empty:
        stone_class.member[p] = added[p]
    _close_class(formula, lattice, stone_class, mine, added)
    _add_path(formula, lattice, stone_class, mine, capacity, ranked=True)
    formula.add_clause(sorted(set(stone_class.member.values())))
    return GrowthEncoding(formula, added, [stone_class])
