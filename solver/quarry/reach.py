"""Cheapest wins: the fewest stones (or tournament points) a player needs to complete a line if
the opponent does nothing, and the race between the two players.

The question is one-sided: the player lays stones from its supply one after another while the
opponent passes. :func:`reach` compiles it (:mod:`placesat.quarry.encode`), minimises the number
of stones added or the points given up, puts the chosen stones in a building order (:func:`building_order`) and replays them on the rules, which
must accept every stone and see the line complete with the last one. "Impossible" is a proof by
the solver that no set of stones within the limit makes a line.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Sequence

from placesat.core.backend import Status, make_backend
from placesat.core.limits import Deadline, TimeUp

from .encode import Candidate, add_line, candidates, encode_build, supported
from .model import PLAYERS, Cell, Placement, cell_name
from .rules import IllegalMove, State, check_placement, lay, line

STONES = "stones"
POINTS = "points"
OBJECTIVES = (STONES, POINTS)
DEFAULT_REACH_BACKEND = "cpsat"

POSSIBLE, IMPOSSIBLE, UNKNOWN = "possible", "impossible", "unknown"


class SolverFailure(RuntimeError):
    """A solver answer the plain rules reject: a defect in the encoding, never the user's fault."""


@dataclass
class ReachAnswer:
    """``answer``: "possible" (``moves`` in order win), "impossible" (proved: nothing within the
    limit wins; ``reason`` says why when it needs no solver) or "unknown" (the time limit came)."""

    player: str
    objective: str
    answer: str
    moves: list[tuple[Placement, int]] = field(default_factory=list)
    points: int = 0
    max_stones: int | None = None
    line: list[Cell] = field(default_factory=list)
    reason: str = ""

    @property
    def stones(self) -> int:
        """Number of stones added."""
        return len(self.moves)

    def _cells(self, state: State) -> list[list[str]]:
        built = self.after(state)
        return [[cell_name(cell) for cell in laid.cells] for laid in built.laid[len(state.laid):]]

    def title(self, state: State) -> str:
        """The question and the answer in one sentence, the line in building order, as the
        pictures and the text views head it ("Blue completes a line with 2 stones: 1. arch f1 e,
        2. beam h2 s")."""
        who = self.player.capitalize()
        within = f" within {self.max_stones} stone(s)" if self.max_stones is not None else ""
        if self.answer == UNKNOWN:
            return f"{who}'s cheapest line{within}: unknown (the time limit came first)"
        if self.answer == IMPOSSIBLE:
            return f"{who} cannot complete a line{within}"
        if not self.moves:
            return f"{who} has a line already"
        count = f"{self.stones} stone" + ("" if self.stones == 1 else "s")
        cost = f"with {count}" if self.objective == STONES else f"giving up {self.points} point(s), with {count}"
        steps = ", ".join(f"{i}. {p.text(state.stones)}" for i, (p, _) in enumerate(self.moves, 1))
        return f"{who} completes a line {cost}: {steps}"

    def after(self, state: State) -> State:
        """The position with the answer's stones laid in building order (the opponent passing);
        they are the stones from index ``len(state.laid)`` on."""
        built = state.copy()
        for placement, base in self.moves:
            lay(built, self.player, placement, base)
        return built

    def to_json(self, state: State) -> dict[str, Any]:
        """The answer as JSON; moves in building order, each with the height it rests at."""
        return {
            "player": self.player,
            "objective": self.objective,
            "answer": self.answer,
            "stones": self.stones if self.answer == POSSIBLE else None,
            "points": self.points if self.answer == POSSIBLE else None,
            "max_stones": self.max_stones,
            "moves": [{"move": p.text(state.stones), "height": base, "number": i, "player": self.player, "cells": cells}
                      for i, ((p, base), cells) in enumerate(zip(self.moves, self._cells(state)), 1)],
            "title": self.title(state),
            "line": [cell_name(cell) for cell in self.line],
            "reason": self.reason or None,
        }


def building_order(chosen: Sequence[Candidate]) -> list[Candidate] | None:
    """The chosen stones in an order they can be laid: in every column, lower stones first (the
    one below must be there before the one above rests on it, and nothing goes under a stone
    later). Among stones free to go, the lowest first. None when stones interlock (no order)."""
    order, stuck = _lay_from_below(chosen)
    return None if stuck else order


def _lay_from_below(chosen: Sequence[Candidate]) -> tuple[list[Candidate], list[Candidate]]:
    """The stones in building order as far as it goes, and the stones it could not reach: those
    in a ring of "is below" (interlocked) or above one. Any set holding all of the latter
    interlocks too, so they are what a cut forbids together."""
    below: dict[int, set[int]] = {i: set() for i in range(len(chosen))}
    columns: dict[Cell, list[tuple[int, int]]] = {}
    for i, candidate in enumerate(chosen):
        for cell in candidate.cells:
            columns.setdefault(cell, []).append((candidate.lowest(cell), i))
    for stack in columns.values():
        stack.sort()
        for (_, lower), (_, upper) in zip(stack, stack[1:]):
            below[upper].add(lower)
    above: dict[int, set[int]] = {i: set() for i in below}
    for upper, lowers in below.items():
        for lower in lowers:
            above[lower].add(upper)
    waiting = {i: len(lowers) for i, lowers in below.items()}
    ready = [(chosen[i].base, chosen[i].at, i) for i, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, _, i = heapq.heappop(ready)
        order.append(i)
        for upper in above[i]:
            waiting[upper] -= 1
            if waiting[upper] == 0:
                heapq.heappush(ready, (chosen[upper].base, chosen[upper].at, upper))
    laid = set(order)
    return [chosen[i] for i in order], [c for i, c in enumerate(chosen) if i not in laid]


def replay_building(state: State, player: str, order: Sequence[Candidate]) -> tuple[State, list[tuple[Placement, int]]]:
    """Lay ``order`` for ``player`` on a copy of ``state`` with the rules (the opponent passing);
    :class:`SolverFailure` if the rules refuse a stone or it comes to rest elsewhere."""
    after = state.copy()
    laid = []
    for candidate in order:
        placement = candidate.placement
        try:
            base = check_placement(after, player, placement)
        except IllegalMove as error:  # the encoding let through what the rules forbid
            raise SolverFailure(f"the rules refuse {placement.text(state.stones)} in the building order: {error}") from None
        if base != candidate.base:
            raise SolverFailure(f"{placement.text(state.stones)} rests at height {base}, the encoding said {candidate.base}")
        lay(after, player, placement, base)
        laid.append((placement, base))
    return after, laid


CPSAT_PARAMETERS = {
    # the LP must see the clauses that tie stones to cells and cells to the line: it is what
    # proves that fewer stones cannot cross the board
    "linearization_level": 2,
    # ... and all of them from the start, so that the first LP already has the bound
    "add_lp_constraints_lazily": False,
    # probing thousands of candidates costs seconds and fixes almost nothing here
    "cp_model_probing_level": 0,
}
"""CP-SAT settings for reach, measured on the benchmark positions (see README)."""


@dataclass
class _Found:
    """A cheapest set of stones found by the solver, and its cost."""

    cost: int
    chosen: list[Candidate]


def _open_model(
    state: State,
    player: str,
    found: list[Candidate],
    objective: str,
    budgets: list[tuple[dict[str, int], int]],
    backend: str,
    deadline: Deadline,
    top_view_only: bool = False,
):
    """The encoding, its line, the objective terms and a solver for a line from ``found`` within
    the budgets; None when no line can exist at all."""
    encoding = encode_build(state, player, found, deadline, top_view_only)
    line_encoding = add_line(state, encoding)
    if line_encoding is None:
        return None
    costs = _costs(state, objective)
    terms = [(lit, costs[name]) for name, lits in encoding.used.items() for lit in lits if costs[name]]
    for stone_costs, budget in budgets:
        encoding.add_budget([(lit, stone_costs[name]) for name, lits in encoding.used.items() for lit in lits if stone_costs[name]], budget)
    deadline.check()
    options = {"parameters": CPSAT_PARAMETERS} if backend == "cpsat" else {}
    return encoding, line_encoding, terms, make_backend(backend, encoding.formula, deadline=deadline, **options)


def _relaxed_line(
    state: State, player: str, found: list[Candidate], objective: str, budgets: list[tuple[dict[str, int], int]], backend: str, deadline: Deadline
) -> tuple[list[Cell], int] | None:
    """The cells of a cheapest line in the top-view relaxation of ``found`` within the budgets,
    and its cost, which no real answer within the budgets is below; None proves that no real
    answer fits the budgets either."""
    opened = _open_model(state, player, found, objective, budgets, backend, deadline, top_view_only=True)
    if opened is None:
        return None
    _, line_encoding, terms, solver = opened
    try:
        result = solver.maximize([(lit, -weight) for lit, weight in terms], time_limit=deadline.remaining())
    finally:
        solver.close()
    if result.status is Status.UNKNOWN:
        raise TimeUp("the time limit came first")
    if result.status is Status.UNSAT:
        return None
    return [cell for cell, lit in line_encoding.on_line.items() if result.value(lit)], -(result.objective or 0)


def _near(cells: list[Cell], found: list[Candidate]) -> list[Candidate]:
    """The candidates lying wholly on ``cells`` or next to them (a corridor along a line)."""
    corridor = {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
    return [candidate for candidate in found if all(cell in corridor for cell in candidate.cells)]


def _cheapest(
    state: State,
    player: str,
    found: list[Candidate],
    objective: str,
    budgets: list[tuple[dict[str, int], int]],
    backend: str,
    deadline: Deadline,
) -> _Found | None:
    """The cheapest set of ``found`` stones that makes a line within the budgets and can be laid
    in some order (interlocking sets are cut off and the solver asked again); None when none
    exists (proved)."""
    opened = _open_model(state, player, found, objective, budgets, backend, deadline)
    if opened is None:
        return None
    encoding, _, terms, solver = opened
    try:
        while True:
            result = solver.maximize([(lit, -weight) for lit, weight in terms], time_limit=deadline.remaining())
            if result.status is Status.UNKNOWN:
                raise TimeUp("the time limit came first")
            if result.status is Status.UNSAT:
                return None
            chosen = [c for c, lit in zip(encoding.candidates, encoding.chosen) if result.value(lit)]
            _, stuck = _lay_from_below(chosen)
            if not stuck:
                return _Found(-(result.objective or 0), chosen)
            if state.stones.default:
                # no default stone can interlock (seeds/quarry.md): this would be an encoding defect
                raise SolverFailure(f"default stones chosen that no order lays: {[c.placement.text(state.stones) for c in stuck]}")
            literal = {id(c): lit for c, lit in zip(encoding.candidates, encoding.chosen)}
            solver.add_clause([-literal[id(c)] for c in stuck])
    finally:
        solver.close()


def _costs(state: State, objective: str) -> dict[str, int]:
    """What one stone of each kind costs under ``objective``."""
    return {kind.name: (1 if objective == STONES else kind.points) for kind in state.stones.kinds}


def reach(
    state: State,
    player: str,
    objective: str = STONES,
    max_stones: int | None = None,
    backend: str = DEFAULT_REACH_BACKEND,
    time_limit: float | Deadline | None = None,
) -> ReachAnswer:
    """The cheapest way for ``player`` to complete a line if the opponent does nothing: fewest
    stones or fewest points given up, with at most ``max_stones`` stones; "unknown" when
    ``time_limit`` seconds (building included) pass first."""
    deadline = time_limit if isinstance(time_limit, Deadline) else Deadline(time_limit)
    try:
        return _reach(state, player, objective, max_stones, backend, deadline)
    except TimeUp:
        return ReachAnswer(player, objective, UNKNOWN, max_stones=max_stones)


def _reach(state: State, player: str, objective: str, max_stones: int | None, backend: str, deadline: Deadline) -> ReachAnswer:
    """:func:`reach` within ``deadline``.

    1. A small model: stones resting on what stands now, none on another new stone (enough for
       most answers, and quick). Its answer, if any, is a real one and bounds the cheapest.
    2. The candidates an answer below that bound could use, and their top-view relaxation: when it
       has no line within the bound, that proves the bound is the cheapest (or that nothing works).
    3. Otherwise, once: the full model on the candidates along the relaxation's line (a corridor
       one cell wide on each side), which finds most stacked answers quickly; its answer lowers
       the bound and step 2 is asked again.
    4. Otherwise the full model within the bound: its optimum is the cheapest.
    """
    answer = ReachAnswer(player, objective, IMPOSSIBLE, max_stones=max_stones)
    if state.winner is not None:
        if state.winner == player:
            answer.answer, answer.line = POSSIBLE, line(state, player) or []
            answer.reason = f"{player} has already won"
        else:
            answer.reason = f"the game is over: {state.winner} has won"
        return answer
    if state.is_over:
        answer.reason = "the game is over: neither player could move"
        return answer
    costs = _costs(state, objective)
    limits = [] if max_stones is None else [(_costs(state, STONES), max_stones)]
    flat = candidates(state, player, deadline, limits, stacked=False)
    best = _cheapest(state, player, flat, objective, limits, backend, deadline)
    corridor_tried = False
    while True:
        budgets = limits + ([(costs, best.cost - 1)] if best is not None else [])
        whole = candidates(state, player, deadline, budgets)
        relaxed = _relaxed_line(state, player, whole, objective, budgets, backend, deadline)
        if relaxed is None:
            break  # proved: nothing cheaper than best (or nothing at all)
        cells, least = relaxed  # no real answer costs less
        if not corridor_tried:
            corridor_tried = True
            nearer = _cheapest(state, player, supported(_near(cells, whole)), objective, budgets, backend, deadline)
            if nearer is not None:
                best = nearer
                if best.cost == least:
                    break  # it meets the relaxation's bound: the cheapest
                continue
        better = _cheapest(state, player, whole, objective, budgets, backend, deadline)
        if better is not None:
            best = better  # the full model's optimum within the budgets: the cheapest
        break
    if best is None:
        return answer
    order = building_order(best.chosen)
    assert order is not None
    after, moves = replay_building(state, player, order)
    won = line(after, player)
    if won is None:
        raise SolverFailure(f"the stones {[p.text(state.stones) for p, _ in moves]} were claimed to make a line, but the rules see none")
    if len(moves) > 1:
        before, _ = replay_building(state, player, order[:-1])
        if line(before, player) is not None:
            raise SolverFailure("the line was complete before the last stone: the answer was not the cheapest")
    answer.answer = POSSIBLE
    answer.moves = moves
    answer.points = sum(state.stones[p.stone].points for p, _ in moves)
    answer.line = won
    return answer


@dataclass
class Race:
    """Both players' cheapest wins: by stones (``fewest_stones``) and by points (``fewest_points``)."""

    to_move: str
    fewest_stones: dict[str, ReachAnswer]
    fewest_points: dict[str, ReachAnswer]

    def lead(self) -> dict[str, Any]:
        """Who needs fewer stones, and by how many; who gives up fewer points, and by how many.

        Per measure: ``verdict`` is ``ahead`` (``by`` is the margin, None when the other side
        cannot complete a line at all), ``level``, ``neither`` (neither side can complete a
        line) or ``unknown`` (a side's answer is unknown: no guess).
        """
        out: dict[str, Any] = {}
        for measure, answers, value in ((STONES, self.fewest_stones, lambda a: a.stones), (POINTS, self.fewest_points, lambda a: a.points)):
            black, blue = (answers[p] for p in PLAYERS)
            if UNKNOWN in (black.answer, blue.answer):
                out[measure] = {"verdict": "unknown", "ahead": None, "by": None}
            elif black.answer == IMPOSSIBLE and blue.answer == IMPOSSIBLE:
                out[measure] = {"verdict": "neither", "ahead": None, "by": None}
            elif IMPOSSIBLE in (black.answer, blue.answer):
                out[measure] = {"verdict": "ahead", "ahead": PLAYERS[0] if blue.answer == IMPOSSIBLE else PLAYERS[1], "by": None}
            else:
                diff = value(blue) - value(black)
                if diff == 0:
                    out[measure] = {"verdict": "level", "ahead": None, "by": 0}
                else:
                    out[measure] = {"verdict": "ahead", "ahead": PLAYERS[0] if diff > 0 else PLAYERS[1], "by": abs(diff)}
        return out


def race(state: State, backend: str = DEFAULT_REACH_BACKEND, time_limit: float | None = None) -> Race:
    """Each player's cheapest win, by stones and by points, if the other did nothing."""
    deadline = Deadline(time_limit)
    stones = {p: reach(state, p, STONES, None, backend, deadline) for p in PLAYERS}
    points = {p: reach(state, p, POINTS, None, backend, deadline) for p in PLAYERS}
    return Race(state.to_move, stones, points)


__all__ = [
    "DEFAULT_REACH_BACKEND", "IMPOSSIBLE", "OBJECTIVES", "POINTS", "POSSIBLE", "Race", "ReachAnswer", "STONES",
    "SolverFailure", "UNKNOWN", "building_order", "race", "reach", "replay_building",
]
