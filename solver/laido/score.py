"""Scoring a Laido position: every group's connection part and value, and the winner.

Each group with two or more edge stones is encoded (:func:`placesat.laido.encode.encode_connection_part`)
and solved for its longest (or, in the shortest reading, smallest) connection part. The part
found is re-checked by the plain rules (:func:`placesat.laido.rules.is_connection_part`), and in the
shortest reading its length is re-checked against a breadth-first search as well.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from placesat.core.backend import DEFAULT_BACKEND, Backend, Formula, Status, make_backend
from placesat.core.limits import Deadline, TimeUp, as_deadline
from placesat.core.lattice import HexLattice, Point

from .encode import cycle_cuts, encode_connection_part, path_in_order
from .model import BLACK, COLOURS, WHITE, Position, point_json
from .rules import (
    LONGEST,
    PASS_TIEBREAK,
    SHORTEST,
    Verdict,
    board_order,
    edge_stones,
    group_value,
    groups,
    is_connection_part,
    shortest_connection_part,
    sorted_values,
    verdict_of,
)


@dataclass(frozen=True)
class GroupScore:
    """One group: its stones, its edge stones, the connection part its owner takes, its value."""

    colour: str
    stones: frozenset[Point]
    edge_stones: tuple[Point, ...]
    connection_part: tuple[Point, ...] | None
    value: int

    @property
    def surplus_part(self) -> frozenset[Point]:
        """The stones outside the connection part."""
        return self.stones - set(self.connection_part or ())

    def to_json(self) -> dict[str, Any]:
        """The group as JSON."""
        return {
            "size": len(self.stones),
            "value": self.value,
            "stones": [point_json(p) for p in sorted(self.stones, key=board_order)],
            "edge_stones": [point_json(p) for p in self.edge_stones],
            "connection_part": [point_json(p) for p in self.connection_part or ()],
        }


@dataclass
class Score:
    """The score of a position: ``status`` is UNKNOWN when a time limit stopped a solver call."""

    position: Position
    reading: str
    status: Status
    groups: dict[str, list[GroupScore]] = field(default_factory=dict)
    verdict: Verdict | None = None

    def values(self, colour: str) -> list[int]:
        """A player's group values, highest first."""
        return sorted_values(g.value for g in self.groups.get(colour, []))

    def to_json(self) -> dict[str, Any]:
        """``{"black": {"values", "groups"}, "white": {...}, "winner", "decided_by", ...}``; a
        player's values and groups are null when the score is unknown (an empty list would say
        "no group")."""
        out: dict[str, Any] = {"status": self.status.value, "reading": self.reading}
        for colour in COLOURS:
            if self.status is Status.UNKNOWN:
                out[colour] = {"values": None, "groups": None}
                continue
            ordered = sorted(self.groups.get(colour, []), key=lambda g: -g.value)
            out[colour] = {"values": self.values(colour), "groups": [g.to_json() for g in ordered]}
        out["winner"] = self.verdict.winner if self.verdict else None
        out["decided_by"] = self.verdict.to_json() if self.verdict else None
        out["game_over"] = self.position.is_over
        return out


def open_backend(name: str, formula: Formula, presolve: bool = True, deadline: Deadline | None = None) -> Backend:
    """The backend ``name`` for ``formula``; every backend honours a deadline itself.

    ``presolve=False`` skips CP-SAT's presolve, which costs more than it saves on the reach
    encodings (measured: about 2.5 s against 1 s on a 9-side mid-game position).
    """
    if name == "cpsat" and not presolve:
        return make_backend(name, formula, parameters={"cp_model_presolve": False}, deadline=deadline)
    return make_backend(name, formula, deadline=deadline)


# after this many rounds of ring cuts in one group, switch to the ranked encoding
RANK_AFTER_ROUNDS = 2

# every group's longest part is first sought by the sweep (solver.laido.sweep); one with a
# frontier too wide to pack, or past the sweep's limits (sweep.DEFAULT_LIMITS: states,
# memory, the work expected), goes to the solver
METHODS = ("auto", "sweep", "solver")

# ... but a group whose sweep plan expects less work than this goes to the solver at once:
# the solver takes 0.01 to 0.2 s on such groups (solid regions up to the 6-side half board,
# cost 4000; the groups of random full 9-side boards cost up to about 5400), and the sweep
# would first load its kernels (a millisecond, compiled at install; 0.9 s when this was
# measured, under numba's JIT). Measured again with compiled kernels: sweeping every group instead
# changes a random full 9-side board's score by +-0.02 s, so the rule stays.
SWEEP_FROM = 6000.0


class SolverFailure(RuntimeError):
    """A solver answer that the plain rules reject: a bug, never a user error."""


def best_connection_part(
    lattice: HexLattice,
    group: frozenset[Point],
    reading: str = LONGEST,
    backend: str = DEFAULT_BACKEND,
    deadline: Deadline | None = None,
    method: str = "auto",
) -> tuple[Status, tuple[Point, ...] | None]:
    """The connection part the owner takes: one with the most stones (the longest reading) or
    the fewest (the shortest reading). None when the group has fewer than two edge stones (a
    connected group with two edge stones always has a connection part). UNKNOWN on timeout.

    ``method``: how a longest part is proved longest. ``"auto"``: by the sweep of
    :mod:`placesat.laido.sweep`, unless the group is small (:data:`SWEEP_FROM`) or too wide
    and open for it (too many states), then by the solver (``backend``); ``"sweep"`` (no
    limit on states) or ``"solver"`` force one (tests compare them).
    """
    deadline = deadline or Deadline(None)
    if len(edge_stones(lattice, group)) < 2:
        return Status.SAT, None
    whole = path_in_order(lattice, group)
    if len(whole) == len(group) and is_connection_part(lattice, group, whole):
        return Status.SAT, whole  # the group is itself a path: its only connection part
    if reading == LONGEST and method != "solver":
        from . import sweep  # imports numpy: on first use, not at every command's start-up

        plan = sweep.plan_sweep(lattice, group)
        if method == "sweep" or plan.cost >= SWEEP_FROM:
            limits = sweep.NO_LIMITS if method == "sweep" else sweep.DEFAULT_LIMITS
            try:
                part = sweep.longest_connection_part(lattice, group, limits, deadline, plan)
            except TimeUp:
                return Status.UNKNOWN, None
            except sweep.TooManyStates:
                pass  # too wide and open for the sweep: the solver takes over
            else:
                if part is None or not is_connection_part(lattice, group, part):
                    raise SolverFailure(f"the sweep's connection part {part} breaks the rules")
                return Status.SAT, part
    encoding = encode_connection_part(lattice, group)
    try:
        solver = open_backend(backend, encoding.formula, deadline=deadline)
    except TimeUp:
        return Status.UNKNOWN, None
    rounds = 0
    try:
        while True:
            result = solver.maximize(encoding.objective(reading == LONGEST), time_limit=deadline.remaining())
            if result.status is Status.UNKNOWN:
                return Status.UNKNOWN, None
            if result.status is Status.UNSAT:
                raise SolverFailure(f"no connection part found in a group with two edge stones: {sorted(group)}")
            chosen = [p for p, lit in encoding.on_path.items() if result.value(lit)]
            cuts = cycle_cuts(lattice, encoding.on_path, chosen)
            if not cuts:
                break
            rounds += 1
            if rounds == RANK_AFTER_ROUNDS:
                # rings keep coming: a solid area; rule them all out with ranks and start again
                solver.close()
                encoding = encode_connection_part(lattice, group, ranked=True)
                try:
                    solver = open_backend(backend, encoding.formula, deadline=deadline)
                except TimeUp:
                    return Status.UNKNOWN, None
                continue
            for clause in cuts:
                solver.add_clause(clause)
    finally:
        solver.close()
    part = path_in_order(lattice, chosen)
    if len(part) != len(chosen) or not is_connection_part(lattice, group, part):
        raise SolverFailure(f"the solver's connection part {part} breaks the rules")
    if reading == SHORTEST:
        shortest = shortest_connection_part(lattice, group)
        if shortest is None or len(shortest) != len(part):
            raise SolverFailure(f"the solver's smallest part has {len(part)} stones, search finds {shortest}")
    return Status.SAT, part


def score_groups(
    lattice: HexLattice,
    colour: str,
    stones: frozenset[Point],
    reading: str = LONGEST,
    backend: str = DEFAULT_BACKEND,
    deadline: Deadline | None = None,
    method: str = "auto",
) -> tuple[Status, list[GroupScore]]:
    """Every group of ``stones`` with its connection part and value."""
    scored = []
    for group in groups(lattice, stones):
        status, part = best_connection_part(lattice, group, reading, backend, deadline, method)
        if status is Status.UNKNOWN:
            return Status.UNKNOWN, scored
        scored.append(
            GroupScore(colour, group, tuple(edge_stones(lattice, group)), part, group_value(group, part))
        )
    return Status.SAT, scored


def score_position(
    position: Position,
    reading: str = LONGEST,
    backend: str = DEFAULT_BACKEND,
    time_limit: Deadline | float | None = None,
    tiebreak: str = PASS_TIEBREAK,
    method: str = "auto",
) -> Score:
    """Score ``position`` as the game would end now.

    When the game is not over, this is the result if both players passed from here (the player
    to move passing first, unless someone has passed already). ``time_limit``: seconds from
    now, or a :class:`Deadline` shared with other work. ``tiebreak``: how a full tie is broken
    (:data:`placesat.laido.rules.TIEBREAKS`).
    """
    deadline = as_deadline(time_limit)
    score = Score(position, reading, Status.SAT)
    for colour in COLOURS:
        status, scored = score_groups(position.lattice, colour, position.stones(colour), reading, backend, deadline, method)
        score.groups[colour] = scored
        if status is Status.UNKNOWN:
            score.status = Status.UNKNOWN
            return score
    score.verdict = verdict_of(position, score.values(BLACK), score.values(WHITE), tiebreak)
    return score
