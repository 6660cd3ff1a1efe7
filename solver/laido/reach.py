"""Reachable wins: what a player can make of a position with a few more stones.

The question is one-sided: the player adds at most K stones on its turns while the other side
only passes; the game then ends with two passes. :func:`reach_win` asks whether some such
continuation ends in a win for the player; :func:`reach_best` asks for the highest value the
player's best group can reach. Both use the longest reading (the owner's choice of connection
part). Each answer found by a solver is replayed move by move on :mod:`placesat.laido.rules` and
the final position re-scored; a "no" is a proof by the solver that no set of stones wins.

Who wins a full tie: the player who passed first. When nobody has passed yet, the first pass
of the continuation is the other side's if it is to move or if the player places a stone, and
the player's own only when the player is to move and adds no stone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from placesat.core.backend import Status
from placesat.core.certified_calls import CallCertifier
from placesat.core.limits import Deadline, TimeUp
from placesat.core.errors import InputError
from placesat.core.lattice import Point

from .encode import GrowthEncoding, encode_best, encode_reach, ring_cut, rings
from .model import BLACK, Move, Position, move_json, opponent, point_json
from .rules import HILLS_TIEBREAK, LONGEST, PASS_TIEBREAK, board_order, hill_counts, finish_with, is_opening, stones_available, verdict_of
from .score import GroupScore, Score, SolverFailure, open_backend, score_groups, score_position

DEFAULT_REACH_BACKEND = "cpsat"

YES, NO, UNKNOWN = "yes", "no", "unknown"


@dataclass
class ReachAnswer:
    """``answer`` is "yes" (``stones`` win), "no" (no set of at most ``limit`` stones wins) or "unknown"."""

    player: str
    limit: int
    answer: str
    stones: tuple[Point, ...] = ()
    moves: list[Move] = field(default_factory=list)
    final: Score | None = None
    certification: CallCertifier | None = None
    """With certificates asked for: the proofs behind "no" and behind "the fewest"."""

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON; with "yes", the stones, the moves to the end and the final score;
        with certificates, ``certified``, ``checker``, ``proofs`` and ``proof_steps``."""
        return {
            "player": self.player,
            "stones_allowed": self.limit,
            "answer": self.answer,
            "stones": [point_json(p) for p in self.stones],
            "moves": [move_json(m) for m in self.moves],
            "final": self.final.to_json() if self.final else None,
        } | (self.certification.to_json() if self.certification is not None else {})


@dataclass
class BestAnswer:
    """``answer`` is "yes" with the best reachable ``group`` and its value, "no" (the player can
    have no group at all), or "unknown"."""

    player: str
    limit: int
    answer: str
    value: int | None = None
    stones: tuple[Point, ...] = ()
    group: GroupScore | None = None
    certification: CallCertifier | None = None
    """With certificates asked for: the proof that no group is worth more (or that there is none)."""

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON (with certificates: ``certified``, ``checker``, ``proofs``, ``proof_steps``)."""
        return {
            "player": self.player,
            "stones_allowed": self.limit,
            "answer": self.answer,
            "best_value": self.value,
            "stones": [point_json(p) for p in self.stones],
            "group": self.group.to_json() if self.group else None,
        } | (self.certification.to_json() if self.certification is not None else {})


def _limits(position: Position, player: str, stones: int) -> tuple[int, int]:
    """How many stones the player may add (at most, at least) in the one-sided continuation."""
    if stones < 0:
        raise InputError(f"--stones must be 0 or more, not {stones}")
    if is_opening(position) and player != BLACK:
        raise InputError("the game has not started: Black must place the first stone, so the other side cannot only pass")
    capacity = stones_available(position, player, stones)
    at_least = 1 if is_opening(position) else 0
    if at_least > capacity:
        raise InputError("the game has not started: Black must place the first stone, so allow at least 1 stone")
    return capacity, at_least


@dataclass
class Claims:
    """What a query's unsatisfiable calls mean, for their certificates: ``none`` (file stem,
    claim) when no model exists at all, ``bound(optimum)`` (file stem, claim) for the call that
    proves no better model exists."""

    certifier: CallCertifier
    none: tuple[str, str]
    bound: Callable[[int], tuple[str, str]]


def _certifier(checkers: Sequence[str] | None, backend: str, deadline: Deadline) -> CallCertifier | None:
    """A certifier when certificates are asked for (they need the SAT backend's proofs)."""
    if checkers is None:
        return None
    if backend != "sat":
        raise ValueError("certificates need the SAT backend: CP-SAT writes no proofs")
    return CallCertifier(tuple(checkers), deadline)


def _solve_with_cuts(
    position: Position,
    growth: GrowthEncoding,
    objective: list[tuple[int, int]],
    backend: str,
    deadline: Deadline,
    shrink: Callable[[list[Point]], list[Point]] | None = None,
    progress: Callable[[str], None] = lambda text: None,
    claims: Claims | None = None,
    fewest: bool = True,
) -> tuple[Status, list[Point], int | None]:
    """Optimise ``objective`` (or, without one but with ``growth.at_most_stones``, find the
    fewest stones) and cut off rings until every class's path is one path.

    ``shrink`` drops needless stones from a model's stones without a solver (checked by the
    plain rules), so that the next bound asked for is usually the one that fails.
    The rank encoding already forbids rings in grown groups, so the cuts are a safety net.
    Fewest stones without an objective: a model with any number of stones first, then a model
    with one stone fewer, and so on until none exists; on CP-SAT such feasibility calls are much
    faster than one optimisation. Returns the status, the added stones and the proven optimum.

    ``claims``: certify the unsatisfiable call behind a "no" and behind the optimum, each at
    once, over the clauses the solver holds then (ring cuts included). ``fewest=False``: the
    first model's stones, no descent (a yes/no question).
    """
    lattice = position.lattice
    progress("loading the model into the solver")
    solver = open_backend(backend, growth.formula, presolve=False, deadline=deadline)

    def one_path_each(assumptions: list[int]):
        """One solver answer in which no class holds a ring (cutting rings and asking again)."""
        while True:
            if objective:
                result = solver.maximize(objective, assumptions, time_limit=deadline.remaining())
            else:
                result = solver.solve(assumptions, time_limit=deadline.remaining())
            if result.status is not Status.SAT:
                return result
            found: set[frozenset[Point]] = set()
            for stone_class in growth.classes:
                found.update(rings(lattice, [p for p, lit in stone_class.on_path.items() if result.value(lit)]))
            # a ring is cut off in every class where it could appear, not only where it did
            cuts = [
                clause
                for ring in sorted(found, key=lambda r: sorted(r))
                for stone_class in growth.classes
                for clause in ring_cut(lattice, stone_class.on_path, ring)
            ]
            if not cuts:
                return result
            for clause in cuts:
                solver.add_clause(clause)

    def stones_of(result) -> list[Point]:
        """The new stones of a model, in board order."""
        return sorted((p for p, lit in growth.added.items() if result.value(lit)), key=board_order)

    try:
        progress("solver: looking for an answer")
        result = one_path_each([])
        if result.status is not Status.SAT:
            if result.status is Status.UNSAT and claims is not None:
                progress("certifying the answer: a proof, then its check")
                claims.certifier.certify(solver, [], *claims.none)
            return result.status, [], None
        stones = stones_of(result)
        if objective and claims is not None and result.objective is not None:
            progress("certifying the optimum: a proof, then its check")
            name, claim = claims.bound(result.objective)
            if result.bound_assumptions is None:
                claims.certifier.needs_no_proof(name, claim, "no proof needed: the objective's own maximum")
            else:
                claims.certifier.certify(solver, result.bound_assumptions, name, claim)
        if objective or not growth.at_most_stones or not fewest:
            return Status.SAT, stones, result.objective
        while stones:
            if shrink is not None:
                stones = shrink(stones)
            if not stones or len(stones) - 1 not in growth.at_most_stones:
                break
            progress(f"solver: {len(stones)} stone(s) win; trying {len(stones) - 1}")
            fewer = one_path_each([growth.at_most_stones[len(stones) - 1]])
            if fewer.status is Status.UNKNOWN:
                return Status.UNKNOWN, [], None
            if fewer.status is Status.UNSAT:
                break
            stones = stones_of(fewer)
        return Status.SAT, stones, -len(stones)
    finally:
        solver.close()


def reach_win(
    position: Position,
    player: str,
    stones: int,
    backend: str = DEFAULT_REACH_BACKEND,
    time_limit: float | None = None,
    progress: Callable[[str], None] = lambda text: None,
    tiebreak: str = PASS_TIEBREAK,
    checkers: Sequence[str] | None = None,
    fewest: bool = True,
    deadline: Deadline | None = None,
) -> ReachAnswer:
    """Can ``player``, adding at most ``stones`` stones while the other side only passes, reach
    a position that it wins when the game then ends? The fewest stones that do it, or "no";
    "unknown" when ``time_limit`` seconds (model building included) pass first. ``progress``
    hears what the query is doing, in words; ``tiebreak`` is how a full tie is broken.

    ``checkers``: certify the answer (SAT backend only): a "no", and for a "yes" that no fewer
    stones win, are re-proven on a fresh proof-logging solver and every checker replays the
    proof (``answer.certification``); a "no" whose proof a checker rejects (or the time limit
    cuts short) is "unknown".

    ``fewest=False`` asks only yes or no: a "yes" gives the stones of the first win the solver
    finds (replayed all the same), not the fewest (forced's cut-offs ask this, many times).
    ``deadline``: a :class:`Deadline` shared with other work, instead of ``time_limit``.
    """
    deadline = deadline or Deadline(time_limit)
    certifier = _certifier(checkers, backend, deadline)
    try:
        answer = _reach_win(position, player, stones, backend, deadline, progress, tiebreak, certifier, fewest)
    except TimeUp:
        answer = ReachAnswer(player, stones, UNKNOWN)
    answer.certification = certifier
    if certifier is not None and not certifier.certified and answer.answer == NO:
        answer.answer = UNKNOWN  # a proof rejected, or cut short by the time limit
    return answer


def _reach_win(
    position: Position,
    player: str,
    stones: int,
    backend: str,
    deadline: Deadline,
    progress: Callable[[str], None] = lambda text: None,
    tiebreak: str = PASS_TIEBREAK,
    certifier: CallCertifier | None = None,
    fewest: bool = True,
) -> ReachAnswer:
    """:func:`reach_win` within ``deadline`` (``TimeUp`` when it comes first)."""
    capacity, at_least = _limits(position, player, stones)
    other = opponent(player)
    lattice = position.lattice
    progress(f"scoring {other}'s groups")
    status, theirs = score_groups(lattice, other, position.stones(other), LONGEST, backend, deadline)
    if status is Status.UNKNOWN:
        return ReachAnswer(player, stones, UNKNOWN)
    if at_least == 0:
        # no stone at all is the cheapest try, and the plain scorer answers it directly
        moves, final = finish_with(position, player, [])
        final_score = score_position(final, LONGEST, backend, deadline, tiebreak)
        if final_score.status is Status.UNKNOWN or final_score.verdict is None:
            return ReachAnswer(player, stones, UNKNOWN)
        if final_score.verdict.winner == player:
            return ReachAnswer(player, stones, YES, (), moves, final_score)
        if capacity == 0 and certifier is None:
            # the scorer's word; a certificate needs the solver's call below (with no stones)
            return ReachAnswer(player, stones, NO)
    if position.first_pass is not None:
        tie_break = "mine" if position.first_pass == player else "theirs"
    elif position.to_move == player:
        tie_break = "mine_if_no_stones"
    else:
        tie_break = "theirs"
    progress("building the model")
    growth = encode_reach(
        lattice,
        position.stones(player),
        position.stones(other),
        [g.value for g in theirs],
        capacity,
        at_least,
        tie_break,
        counting="counter" if backend == "sat" else "linear",
        hills=(hill_counts(lattice, position.stones(player)), hill_counts(lattice, position.stones(other)))
        if tiebreak == HILLS_TIEBREAK
        else None,
        ranked=False,  # reaching a threshold seldom builds a ring: cut those that appear
        deadline=deadline,
    )
    # the fewest stones: by descending bounds where the encoding has them (CP-SAT), else by
    # maximising minus their number (the SAT backend climbs down the same way, incrementally)
    objective = [] if growth.at_most_stones or not fewest else [(lit, -1) for lit in growth.added.values()]
    their_values = [g.value for g in theirs]

    def still_wins(stones: list[Point]) -> bool:
        """Whether these stones alone still win, by the plain rules (the other side's values fixed)."""
        if len(stones) < at_least:
            return False
        _, final = finish_with(position, player, stones)
        status, mine = score_groups(lattice, player, final.stones(player), LONGEST, backend, deadline)
        if status is not Status.SAT:
            return False
        values = [g.value for g in mine]
        verdict = verdict_of(final, *((values, their_values) if player == BLACK else (their_values, values)), tiebreak)
        return verdict.winner == player

    def shrink(stones: list[Point]) -> list[Point]:
        """Drop each stone the win does not need, one at a time."""
        for point in list(stones):
            fewer = [p for p in stones if p != point]
            if still_wins(fewer):
                stones = fewer
        return stones

    claims = None
    if certifier is not None:
        claims = Claims(
            certifier,
            ("no-win", f"{player} cannot win by adding at most {stones} stone(s) while {other} passes"),
            lambda optimum: ("fewest", f"{player} cannot win by adding fewer than {-optimum} stone(s) while {other} passes"),
        )
    status, added, _ = _solve_with_cuts(position, growth, objective, backend, deadline, shrink, progress, claims, fewest)
    if status is Status.UNKNOWN:
        return ReachAnswer(player, stones, UNKNOWN)
    if status is Status.UNSAT:
        return ReachAnswer(player, stones, NO)
    progress("checking the answer with the plain rules")
    moves, final = finish_with(position, player, added)
    final_score = score_position(final, LONGEST, backend, deadline, tiebreak)
    if final_score.status is Status.UNKNOWN or final_score.verdict is None:
        return ReachAnswer(player, stones, UNKNOWN, tuple(added), moves)
    if final_score.verdict.winner != player:
        raise SolverFailure(f"the stones {added} were claimed to win for {player}, but the replay says otherwise")
    return ReachAnswer(player, stones, YES, tuple(added), moves, final_score)


def reach_best(
    position: Position,
    player: str,
    stones: int,
    backend: str = DEFAULT_REACH_BACKEND,
    time_limit: float | None = None,
    progress: Callable[[str], None] = lambda text: None,
    checkers: Sequence[str] | None = None,
    deadline: Deadline | None = None,
) -> BestAnswer:
    """The highest value that ``player``'s best group can reach by adding at most ``stones``
    stones (the other side only passes), with the stones and that group; "unknown" when
    ``time_limit`` seconds (model building included) pass first.

    ``checkers``: certify that no group can be worth more, or that there can be none (SAT
    backend only; see :func:`reach_win`); a proof a checker rejects (or the time limit cuts
    short) makes the answer "unknown". ``deadline``: a :class:`Deadline` shared with other
    work, instead of ``time_limit``.
    """
    deadline = deadline or Deadline(time_limit)
    certifier = _certifier(checkers, backend, deadline)
    try:
        answer = _reach_best(position, player, stones, backend, deadline, progress, certifier)
    except TimeUp:
        answer = BestAnswer(player, stones, UNKNOWN)
    answer.certification = certifier
    if certifier is not None and not certifier.certified:
        answer.answer = UNKNOWN  # a proof rejected, or cut short by the time limit
    return answer


def _reach_best(
    position: Position,
    player: str,
    stones: int,
    backend: str,
    deadline: Deadline,
    progress: Callable[[str], None] = lambda text: None,
    certifier: CallCertifier | None = None,
) -> BestAnswer:
    """:func:`reach_best` within ``deadline`` (``TimeUp`` when it comes first)."""
    capacity, at_least = _limits(position, player, stones)
    other = opponent(player)
    lattice = position.lattice
    progress("building the model")
    growth = encode_best(lattice, position.stones(player), position.stones(other), capacity, at_least)
    deadline.check()
    objective = growth.classes[0].value_terms()
    claims = None
    if certifier is not None:
        claims = Claims(
            certifier,
            ("no-group", f"{player} can have no group after adding at most {stones} stone(s)"),
            lambda optimum: ("best-bound", f"no group of {player} is worth more than {optimum} after adding at most {stones} stone(s)"),
        )
    status, added, value = _solve_with_cuts(position, growth, objective, backend, deadline, progress=progress, claims=claims)
    if status is Status.UNKNOWN:
        return BestAnswer(player, stones, UNKNOWN)
    if status is Status.UNSAT:
        return BestAnswer(player, stones, NO)
    _, final = finish_with(position, player, added)
    status, mine = score_groups(lattice, player, final.stones(player), LONGEST, backend, deadline)
    if status is Status.UNKNOWN:
        return BestAnswer(player, stones, UNKNOWN, value, tuple(added))
    best = max(mine, key=lambda g: g.value)
    if best.value != value:
        raise SolverFailure(f"best value {value} claimed, but the replayed position's best group has {best.value}")
    return BestAnswer(player, stones, YES, value, tuple(added), best)
