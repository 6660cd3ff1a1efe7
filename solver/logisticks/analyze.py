"""Circuit-satisfiability queries over the completions of a Logi-Sticks position.

Every "possible" answer is backed by a witness: the pieces a solver model adds, put in an order
that follows the signals, given owners from the supplies and turns in rotation, then replayed
step by step by the rule engine. The answer is read from the *replayed* board's signals, and the
solver's own values must agree with them (an internal error otherwise). Every "impossible"
answer is an unsatisfiable call; a call cut short by the time limit answers "unknown".

With certificates asked for, each unsatisfiable call an answer rests on (a set of questions
proved impossible at once, a maximum's bound, a score out of reach) is re-proven on a fresh
proof-logging solver when it is made, and the proof replayed by independent checkers
(:class:`placesat.core.certified_calls.CallCertifier`); a question whose proof a checker rejects
answers "unknown". Impossibilities proved earlier are added to the solver as unit clauses only
once certified, so every later proof rests on proven clauses alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from placesat.core.backend import Backend, Result, Status, make_backend
from placesat.core.certified_calls import CallCertifier
from placesat.core.lattice import Point
from placesat.core.limits import Deadline

from .encode import CompletionEncoding, encode_completions
from .model import WHITE, Piece, Placement, Position, square_name
from .rules import (
    PlannedPlacement,
    Signal,
    capacitor_usable,
    facing,
    feeds,
    game_over,
    place,
    replay,
    scores,
    signal_text,
    signals,
    target_resolved,
)


# CP-SAT's presolve costs more than it saves on these formulas (tens of thousands of short
# clauses, solved many times with different assumptions): measured 3x faster per call without it.
BACKEND_OPTIONS: dict[str, dict[str, Any]] = {
    "cpsat": {"parameters": {"cp_model_presolve": False, "symmetry_level": 0, "linearization_level": 0}},
}


# How condition (3), no feedback loop, is encoded: "levels" in full, or "lazy" (cut loops as
# models show them). Both give the same answers; see encode.py.
LOOPS = "lazy"
# Rounds of loop cuts after which the full loop encoding is added to the live solver.
LAZY_ROUNDS = 6
# Seconds allowed for each try that answers one open question on many squares at once (at
# least; three times the last satisfiable call if that is more), and the fewest squares worth
# such a try.
BULK_SECONDS = 0.25
BULK_SMALLEST = 3


class EncodingDisagrees(AssertionError):
    """The solver's model and the rule engine's replay of it disagree: a bug, never bad input."""


# --------------------------------------------------------------------------- witnesses


def order_placements(position: Position, added: list[Placement]) -> list[Placement]:
    """The added pieces in an order where each comes after every piece that feeds it.

    On the final board the signal graph has no loop, so such an order exists; each piece then
    finds all its sources already on the board when it is placed.
    """
    final = position.copy()
    for placement in added:
        final.pieces[placement.square] = Piece(placement.kind, 0, None)
    new = {p.square: p for p in added}
    waiting = {square: 0 for square in new}
    for square in new:
        for fed in feeds(final, square):
            if fed in waiting:
                waiting[fed] += 1
    ready = sorted(s for s, n in waiting.items() if n == 0)
    ordered: list[Placement] = []
    while ready:
        square = ready.pop(0)
        ordered.append(new[square])
        for fed in feeds(final, square):
            if fed in waiting:
                waiting[fed] -= 1
                if waiting[fed] == 0:
                    ready.append(fed)
    if len(ordered) != len(new):
        raise EncodingDisagrees("the added pieces run round a loop")
    return ordered


def schedule(position: Position, ordered: list[Placement]) -> list[PlannedPlacement]:
    """Give each placement an owner and a turn: owners are players whose supply still holds the
    piece (the one whose turn comes soonest), turns follow the rotation, and a piece played off a
    Capacitor waits until that Capacitor's owner has had a turn again. Players without a step on a
    turn wait (a plan for cooperating players, see seeds/logisticks.md)."""
    supply = {p: dict(s) for p, s in position.supply.items()}
    n = position.players

    def player_on(turn: int) -> int:
        return (position.to_move - 1 + turn - position.turn) % n + 1

    board = position.copy()
    plan: list[PlannedPlacement] = []
    turn = position.turn
    for placement in ordered:
        earliest = turn
        for side in placement.kind.inputs:
            seen = facing(board, placement.square, side)
            if seen.what == "output":
                while not capacitor_usable(board, seen.square, earliest):
                    earliest += 1
        owners = [p for p in range(1, n + 1) if supply[p][placement.kind.type] > 0]
        if not owners:
            raise EncodingDisagrees(f"no supply holds a {placement.kind.type}")

        def first_turn(player: int) -> int:
            t = earliest
            while player_on(t) != player:
                t += 1
            return t

        owner = min(owners, key=lambda p: (first_turn(p), p))
        at = first_turn(owner)
        supply[owner][placement.kind.type] -= 1
        board.pieces[placement.square] = Piece(placement.kind, owner, at)
        plan.append(PlannedPlacement(at, owner, placement))
        turn = at + 1
    return plan


@dataclass
class Witness:
    """A line of legal placements and the board it leads to (replayed by the rule engine)."""

    plan: list[PlannedPlacement]
    final: Position
    values: dict[Point, Signal]

    def to_json(self) -> list[dict]:
        """The line as a list of steps."""
        return [step.to_json() for step in self.plan]


def witness_from_model(enc: CompletionEncoding, result: Result) -> Witness:
    """Decode a model into a placement line, replay it with the rule engine, and check that the
    replayed signals are the model's signals on every square."""
    try:
        witness = witness_from_placements(enc.position, enc.added_placements(result))
    except ValueError as error:
        raise EncodingDisagrees(f"witness line does not replay: {error}") from None
    values = witness.values
    for square in enc.is_true:
        claimed: Signal = None
        if _truth(result, enc.is_true[square]):
            claimed = True
        elif _truth(result, enc.is_false[square]):
            claimed = False
        if claimed != values.get(square):
            raise EncodingDisagrees(
                f"on {square_name(square)} the solver says {signal_text(claimed)}, "
                f"the replay {signal_text(values.get(square))}"
            )
    return witness


def witness_from_placements(position: Position, added: list[Placement]) -> Witness:
    """Order, schedule and replay a set of added pieces; ``ValueError`` when a step is illegal."""
    plan = schedule(position, order_placements(position, added))
    final = replay(position, plan)
    return Witness(plan, final, signals(final))


def trim_witness(position: Position, witness: Witness, player: int, points: int) -> Witness:
    """Drop every added piece the line can do without while ``player`` keeps ``points`` (each
    shorter line is ordered, scheduled and replayed again by the rule engine), and end the line
    where the game would end."""
    kept = [step.placement for step in witness.plan]
    for index in reversed(range(len(kept))):
        trial = kept[:index] + kept[index + 1 :]
        try:
            shorter = witness_from_placements(position, trial)
        except (ValueError, EncodingDisagrees):
            continue  # some piece lost its source
        if scores(shorter.final)[player].points >= points:
            kept, witness = trial, shorter
    # A real game stops when the last target settles; settled signals never change, so the
    # line cut there scores the same.
    board = position
    for index, step in enumerate(witness.plan):
        board = place(board, step.placement, step.player, step.turn)
        if target_resolved(board) and index + 1 < len(witness.plan):
            plan = witness.plan[: index + 1]
            final = replay(position, plan)
            return Witness(plan, final, signals(final))
    return witness


def _truth(result: Result, lit) -> bool:
    return lit if isinstance(lit, bool) else result.value(lit)


# --------------------------------------------------------------------------- the analysis


@dataclass
class Question:
    """Can the piece on ``square`` end up outputting ``value``? ``answer`` is True (witness
    index in ``witness``), False (proved impossible) or None (not settled: time limit)."""

    square: Point
    value: bool
    answer: bool | None = None
    witness: int | None = None
    unproven: bool = False  # its proof of impossibility was rejected: "unknown", never asked again
    on_board: bool = False  # impossible as the board stands (a settled signal, a square no piece can take): no call


@dataclass
class TargetVerdict:
    """What can still happen to one target stone."""

    player: int
    square: Point
    colour: str
    now: Signal
    can_true: Question
    can_false: Question

    def _can(self, value: bool) -> bool | None:
        return (self.can_true if value else self.can_false).answer

    @property
    def can_match(self) -> bool | None:
        """Some completion sends this target its own colour's signal."""
        return self._can(self.colour == WHITE)

    @property
    def can_mismatch(self) -> bool | None:
        """Some completion sends this target the other colour's signal."""
        return self._can(self.colour != WHITE)

    @property
    def verdict(self) -> str:
        """``matched`` / ``unmatched`` when decided, ``open`` when both can happen, ``no signal``
        when neither can (the target can only end MUTABLE or unreached), ``unknown``."""
        match, mismatch = self.can_match, self.can_mismatch
        if match is None or mismatch is None:
            return "unknown"
        if match and mismatch:
            return "open"
        if not match and not mismatch:
            return NO_SIGNAL
        return "matched" if match else "unmatched"


NO_SIGNAL = "no signal"
"""The verdict of a target that can end neither matched nor unmatched: whatever is played, it
ends MUTABLE or receives no signal at all."""


@dataclass
class MutableVerdict:
    """Whether a piece whose output is MUTABLE now can still resolve to TRUE and to FALSE."""

    square: Point
    can_true: Question
    can_false: Question


@dataclass
class ScoreVerdict:
    """A player's maximum achievable score, proven optimal, with a witness; None on timeout."""

    player: int
    now: int
    best: int | None
    witness: int | None
    certified: bool | None = None  # with certificates: whether the bound's proof was accepted


@dataclass
class Analysis:
    """Everything ``analyze`` establishes about a position's completions."""

    position: Position
    backend: str
    targets: list[TargetVerdict] = field(default_factory=list)
    mutable: list[MutableVerdict] = field(default_factory=list)
    best_scores: list[ScoreVerdict] = field(default_factory=list)
    witnesses: list[Witness] = field(default_factory=list)
    solver_calls: int = 0
    seconds: float = 0.0
    certification: CallCertifier | None = None
    """With certificates asked for: one per unsatisfiable call an answer rests on."""

    def to_json(self, with_witnesses: bool = False) -> dict[str, Any]:
        """Every answer as "possible" / "impossible" / "unknown"; witness lines on request;
        with certificates, ``certified``, ``checker``, ``proofs`` and ``proof_steps``."""

        def q(question: Question) -> Any:
            return {True: "possible", False: "impossible", None: "unknown"}[question.answer]

        data: dict[str, Any] = {
            "backend": self.backend,
            "targets": [
                {
                    "player": t.player,
                    "square": square_name(t.square),
                    "colour": t.colour,
                    "now": signal_text(t.now),
                    "can_end_matched": q(t.can_true if t.colour == WHITE else t.can_false),
                    "can_end_unmatched": q(t.can_false if t.colour == WHITE else t.can_true),
                    "verdict": t.verdict,
                    **(
                        {"witness": {"matched": _wid(t.can_true if t.colour == WHITE else t.can_false),
                                     "unmatched": _wid(t.can_false if t.colour == WHITE else t.can_true)}}
                        if with_witnesses else {}
                    ),
                }
                for t in self.targets
            ],
            "mutable": [
                {"square": square_name(m.square), "can_be_true": q(m.can_true), "can_be_false": q(m.can_false),
                 **({"witness": {"true": _wid(m.can_true), "false": _wid(m.can_false)}} if with_witnesses else {})}
                for m in self.mutable
            ],
            "max_score": [
                {"player": s.player, "now": s.now, "max": s.best,
                 **({"witness": s.witness} if with_witnesses else {}),
                 **({"certified": s.certified} if self.certification is not None else {})}
                for s in self.best_scores
            ],
            "solver_calls": self.solver_calls,
            "seconds": round(self.seconds, 3),
        }
        if self.certification is not None:
            data |= self.certification.to_json()
        if with_witnesses:
            data["witnesses"] = [w.to_json() for w in self.witnesses]
        return data


def _wid(question: Question) -> int | None:
    return question.witness if question.answer else None


class _Session:
    """One encoded position on one backend, with a clock and a list of replayed witnesses."""

    def __init__(self, enc: CompletionEncoding, backend: str, deadline: Deadline,
                 checkers: Sequence[str] | None = None) -> None:
        self.enc = enc
        self.backend_name = backend
        if checkers is not None and backend != "sat":
            raise ValueError("certificates need the SAT backend: CP-SAT writes no proofs")
        self.solver: Backend = make_backend(backend, self.enc.formula, **BACKEND_OPTIONS.get(backend, {}))
        self.deadline = deadline.end  # time.monotonic() at which the query's time runs out, or None
        self.certifier = None if checkers is None else CallCertifier(tuple(checkers), deadline)
        self.witnesses: list[Witness] = []
        self.calls = 0
        self.cut_rounds = 0
        self.last_sat_seconds = 0.0

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None: no limit)."""
        return None if self.deadline is None else max(self.deadline - time.monotonic(), 0.0)

    def out_of_time(self) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def record(self, result: Result) -> int:
        """Replay the model as a witness line; its index in ``witnesses``."""
        self.witnesses.append(witness_from_model(self.enc, result))
        return len(self.witnesses) - 1

    def _loop_free(self, call) -> Result:
        """Repeat ``call`` while its model shows a feedback loop, cutting each loop found (only
        with the lazy loop encoding; the full one never yields a loop)."""
        while True:
            self.calls += 1
            started = time.monotonic()
            result = call()
            if result.status is Status.SAT:
                self.last_sat_seconds = time.monotonic() - started
            if result.status is not Status.SAT or self.enc.loops != "lazy":
                return result
            loops = self.enc.model_loops(result)
            if not loops:
                return result
            self.cut_rounds += 1
            if self.cut_rounds > LAZY_ROUNDS:
                # loops keep coming (an open board offers many long ones): switch to the full
                # encoding of condition (3), added to the live solver
                self.enc.add_levels(self.solver)
                continue
            for loop in loops:
                self.solver.add_clause([lit for lit in self.enc.loop_cut(loop) if not isinstance(lit, bool)])

    def solve(self, assumptions: list[int], budget: float | None = None) -> Result:
        """A loop-free completion under ``assumptions``, within ``budget`` seconds if given."""
        left = self.remaining()
        limit = left if budget is None else (budget if left is None else min(budget, left))
        return self._loop_free(lambda: self.solver.solve(assumptions, limit))

    def maximize(self, objective: list[tuple[int, int]]) -> Result:
        """A loop-free completion maximising ``objective``, proven optimal (or UNKNOWN)."""
        return self._loop_free(lambda: self.solver.maximize(objective, [], self.remaining()))

    def certify(self, assumptions: list[int], name: str, claim: str) -> bool:
        """With certificates asked for: certify the call just made under ``assumptions`` (it
        was unsatisfiable); whether the claim now stands (always, without certificates)."""
        if self.certifier is None:
            return True
        return self.certifier.certify(self.solver, assumptions, name, claim).certified

    def certify_bound(self, result: Result, name: str, claim: str) -> bool:
        """With certificates asked for: certify the call that proves ``result``'s optimum."""
        if self.certifier is None:
            return True
        if result.bound_assumptions is None:
            return self.certifier.needs_no_proof(name, claim, "no proof needed: every target counted is matched").certified
        return self.certify(result.bound_assumptions, name, claim)


def _settle(session: _Session, questions: list[Question]) -> None:
    """Answer every question; every model found answers all the questions its replayed witness
    shows.

    First, *bulk* tries: one model asked to answer one open question on every square at once,
    each try with a short budget of its own; a try that fails is split in halves (an
    unsatisfiable or unfinished try proves nothing, it only costs time). Then, until nothing is
    open, one call per round asks for a completion in which *at least one* open question holds (a
    clause behind a fresh selector): a model answers at least one, an unsatisfiable call proves
    all the open ones impossible at once. A question whose literal is the constant False (a
    settled signal, or a square no piece can take) is impossible without a call."""

    def harvest(index: int) -> int:
        values = session.witnesses[index].values
        answered = 0
        for q in questions:
            if q.answer is None and values.get(q.square) is q.value:
                q.answer, q.witness = True, index
                answered += 1
        return answered

    enc = session.enc
    solver = session.solver

    def still_open() -> list[Question]:
        found = []
        for q in questions:
            if q.answer is None and not q.unproven:
                if enc.value_lit(q.square, q.value) is False:
                    q.answer, q.on_board = False, True
                else:
                    found.append(q)
        return found

    def bulk(lits: list[int]) -> None:
        if len(lits) < BULK_SMALLEST or session.out_of_time():
            return
        # a few times what a plain call took: CP-SAT's overhead per call alone can pass 0.25 s
        result = session.solve(lits, max(BULK_SECONDS, 3 * session.last_sat_seconds))
        if result.status is Status.SAT:
            harvest(session.record(result))
            return
        middle = len(lits) // 2
        bulk(lits[:middle])
        bulk(lits[middle:])

    for index in range(len(session.witnesses)):
        harvest(index)
    while True:  # bulk passes, while they answer something
        before = len(still_open())
        chosen: dict[Point, int | bool] = {}
        for q in still_open():
            chosen.setdefault(q.square, enc.value_lit(q.square, q.value))
        bulk([lit for lit in chosen.values() if not isinstance(lit, bool)])
        if len(still_open()) in (0, before):
            break
    while True:
        open_qs = still_open()
        if not open_qs or session.out_of_time():
            return
        open_lits = [enc.value_lit(q.square, q.value) for q in open_qs]
        if any(lit is True for lit in open_lits):
            selector = None
            result = session.solve([])
        else:
            selector = solver.new_var()
            solver.add_clause([-selector] + open_lits)
            result = session.solve([selector])
        if selector is not None:
            solver.add_clause([-selector])  # retire this call's clause
        if result.status is Status.SAT:
            if harvest(session.record(result)) == 0:
                raise EncodingDisagrees("a model for the open questions answers none of them")
        elif result.status is Status.UNSAT:
            claim = "no completion gives " + ", ".join(
                f"{square_name(q.square)} {signal_text(q.value)}" for q in open_qs)
            if not session.certify([] if selector is None else [selector], "cannot", claim):
                for q in open_qs:
                    q.unproven = True
                continue
            for q in open_qs:
                q.answer = False
                lit = enc.value_lit(q.square, q.value)
                if not isinstance(lit, bool):
                    solver.add_clause([-lit])  # a proved impossibility helps later calls
        else:
            return


def _frozen_if_over(position: Position) -> Position:
    """A finished game has no completions but itself: the same position with empty supplies."""
    if not game_over(position):
        return position
    frozen = position.copy()
    for counts in frozen.supply.values():
        for piece_type in counts:
            counts[piece_type] = 0
    return frozen


def _objective(enc: CompletionEncoding, position: Position, player: int) -> list[tuple[int, int]]:
    """One point per target of ``player`` receiving its own colour (constants left out)."""
    terms = []
    for owner, square, colour in position.target_list():
        if owner != player:
            continue
        lit = enc.value_lit(square, colour == WHITE)
        if not isinstance(lit, bool):
            terms.append((lit, 1))
    return terms


def _constant_points(enc: CompletionEncoding, position: Position, player: int) -> int:
    return sum(
        1
        for owner, square, colour in position.target_list()
        if owner == player and enc.value_lit(square, colour == WHITE) is True
    )


def analyze(
    position: Position,
    backend: str = "sat",
    player: int | None = None,
    time_limit: float | None = None,
    loops: str = LOOPS,
    checkers: Sequence[str] | None = None,
) -> Analysis:
    """For every target (of ``player``, or of everyone): can it still end matched, can it still
    end unmatched (receive the other colour); each player's maximum achievable score; and for
    every piece whose output is MUTABLE now, can it still resolve to TRUE and to FALSE. All over
    the completions of the position (see ``encode.py`` and seeds/logisticks.md).

    ``checkers``: certify every "impossible" and every maximum's bound (SAT backend only; see
    the module docstring); an answer whose proof is rejected is "unknown"."""
    started = time.monotonic()
    deadline = Deadline(time_limit)  # from the start: encoding counts against the limit too
    session = _Session(encode_completions(_frozen_if_over(position), loops), backend, deadline, checkers)
    analysis = Analysis(position, backend, certification=session.certifier)
    now = signals(position)
    players = [player] if player is not None else list(range(1, position.players + 1))

    # Maximum scores first: their witnesses answer many target questions at once.
    current = scores(position)
    for p in players:
        objective = _objective(session.enc, position, p)
        base = _constant_points(session.enc, position, p)
        unproven = None if session.certifier is None else False
        if session.out_of_time():
            analysis.best_scores.append(ScoreVerdict(p, current[p].points, None, None, unproven))
            continue
        result = session.maximize(objective)
        if result.status is Status.SAT:
            index = session.record(result)
            best = base + (result.objective or 0)
            got = scores(session.witnesses[index].final)[p].points
            if got != best:
                raise EncodingDisagrees(f"player {p}: optimum {best} but the witness scores {got}")
            certified = session.certify_bound(result, f"max-score-player-{p}", f"no completion gives player {p} more than {best} point(s)")
            analysis.best_scores.append(ScoreVerdict(p, current[p].points, best if certified else None, index,
                                                     None if session.certifier is None else certified))
        else:
            analysis.best_scores.append(ScoreVerdict(p, current[p].points, None, None, unproven))

    questions: list[Question] = []
    for owner, square, colour in position.target_list():
        if owner not in players:
            continue
        verdict = TargetVerdict(owner, square, colour, now.get(square), Question(square, True), Question(square, False))
        analysis.targets.append(verdict)
        questions += [verdict.can_true, verdict.can_false]
    for square in sorted(position.pieces):
        if now[square] is None:
            verdict_m = MutableVerdict(square, Question(square, True), Question(square, False))
            analysis.mutable.append(verdict_m)
            questions += [verdict_m.can_true, verdict_m.can_false]
    # Several targets share a square in a corner (3-4 players): ask once per square and value.
    unique: dict[tuple[Point, bool], Question] = {}
    for q in questions:
        unique.setdefault((q.square, q.value), q)
    _settle(session, list(unique.values()))
    for q in questions:
        first = unique[(q.square, q.value)]
        q.answer, q.witness, q.unproven, q.on_board = first.answer, first.witness, first.unproven, first.on_board

    analysis.witnesses = session.witnesses
    analysis.solver_calls = session.calls
    analysis.seconds = time.monotonic() - started
    session.solver.close()
    return analysis


# --------------------------------------------------------------------------- satisfy


@dataclass
class Satisfaction:
    """The outcome of ``satisfy``: a replayed witness line reaching ``score`` points, or a proof
    (an unsatisfiable call) that ``wanted`` points cannot be reached, or ``unknown``."""

    player: int
    status: str  # "possible", "impossible" or "unknown"
    wanted: int | None
    score: int | None
    witness: Witness | None
    certification: CallCertifier | None = None
    """With certificates asked for: the proof behind "impossible" or behind the maximum."""

    def to_json(self) -> dict[str, Any]:
        """The answer, the score reached, the line and the player's target signals after it;
        with certificates, ``certified``, ``checker``, ``proofs`` and ``proof_steps``."""
        data: dict[str, Any] = {"player": self.player, "status": self.status, "wanted": self.wanted, "score": self.score}
        if self.certification is not None:
            data |= self.certification.to_json()
        if self.witness is not None:
            data["plan"] = self.witness.to_json()
            final = self.witness.final
            data["targets"] = {
                square_name(s): signal_text(self.witness.values.get(s))
                for owner, s, _c in final.target_list()
                if owner == self.player
            }
        return data


def satisfy(
    position: Position,
    player: int,
    backend: str = "sat",
    at_least: int | None = None,
    time_limit: float | None = None,
    loops: str = LOOPS,
    checkers: Sequence[str] | None = None,
) -> Satisfaction:
    """A line of legal placements after which ``player`` scores its maximum (proven optimal), or
    at least ``at_least`` points; "impossible" when no completion scores that much.

    ``checkers``: certify the "impossible", or the maximum's bound (SAT backend only; see the
    module docstring); an answer whose proof is rejected, or cut short by the time limit, is
    "unknown" (a line found is kept)."""
    deadline = Deadline(time_limit)
    enc = encode_completions(_frozen_if_over(position), loops)
    objective = _objective(enc, position, player)
    base = _constant_points(enc, position, player)
    if at_least is not None:
        needed = at_least - base
        if needed > len(objective):
            answer = Satisfaction(player, "impossible", at_least, None, None)
            if checkers is not None:
                answer.certification = CallCertifier(tuple(checkers))
                answer.certification.needs_no_proof(
                    "impossible", f"no completion gives player {player} {at_least} point(s)",
                    f"read off the board: at most {base + len(objective)} of player {player}'s targets can still be matched")
            return answer
        if needed > 0:
            enc.formula.add_at_least([lit for lit, _ in objective], needed)
    session = _Session(enc, backend, deadline, checkers)
    result = session.solve([]) if at_least is not None else session.maximize(objective)
    try:
        if result.status is Status.UNKNOWN:
            return Satisfaction(player, "unknown", at_least, None, None, session.certifier)
        if result.status is Status.UNSAT:
            certified = session.certify([], "impossible", f"no completion gives player {player} {at_least} point(s)")
            return Satisfaction(player, "impossible" if certified else "unknown", at_least, None, None, session.certifier)
        witness = session.witnesses[session.record(result)]
        got = scores(witness.final)[player].points
        if at_least is None:
            if got != base + (result.objective or 0):
                raise EncodingDisagrees(f"optimum {base + (result.objective or 0)} but the witness scores {got}")
        elif got < at_least:
            raise EncodingDisagrees(f"asked for {at_least} points, the witness scores {got}")
        certified = at_least is not None or session.certify_bound(
            result, "max-score", f"no completion gives player {player} more than {got} point(s)")
        witness = trim_witness(position, witness, player, got)
        return Satisfaction(player, "possible" if certified else "unknown", at_least, got, witness, session.certifier)
    finally:
        session.solver.close()


# --------------------------------------------------------------------------- reach within


def reach_within(
    position: Position,
    player: int,
    pieces: int,
    at_least: int | None = None,
    target: Point | None = None,
    backend: str = "sat",
    deadline: Deadline | None = None,
    loops: str = LOOPS,
) -> Satisfaction:
    """Whether some completion adding at most ``pieces`` pieces gives ``player`` at least
    ``at_least`` points, or sends the player's target on ``target`` its colour's signal.

    ``satisfy``'s question with a cap on the pieces added: no line of ``pieces`` plies can add
    more, whoever places them, so "impossible" means the goal is out of reach within that many
    plies even if every player helped (``forced``'s cut-off). A "possible" answer carries a
    witness line replayed by the rule engine; "unknown" at the deadline."""
    deadline = deadline or Deadline.never()
    enc = encode_completions(_frozen_if_over(position), loops)
    if target is not None:
        colour = position.targets[player][target]
        wanted = [enc.value_lit(target, colour == WHITE)]
        needed = 1
    else:
        wanted = _objective(enc, position, player)  # type: ignore[assignment]
        wanted = [lit for lit, _ in wanted]  # type: ignore[misc]
        needed = (at_least or 0) - _constant_points(enc, position, player)
    if needed > 0:
        free = [lit for lit in wanted if not isinstance(lit, bool)]
        if any(lit is True for lit in wanted):
            needed = 0
        elif needed > len(free):
            return Satisfaction(player, "impossible", at_least, None, None)
        else:
            enc.formula.add_at_least(free, needed)
    added = [var for kinds in enc.kind_var.values() for var in kinds.values()]
    if added:
        enc.formula.add_at_most(added, pieces)
    session = _Session(enc, backend, deadline)
    try:
        result = session.solve([])
        if result.status is Status.UNKNOWN:
            return Satisfaction(player, "unknown", at_least, None, None)
        if result.status is Status.UNSAT:
            return Satisfaction(player, "impossible", at_least, None, None)
        witness = session.witnesses[session.record(result)]
        got = scores(witness.final)[player].points
        reached = (matches_colour(position, player, target, witness.values) if target is not None
                   else got >= (at_least or 0))
        if not reached or len(witness.plan) > pieces:
            raise EncodingDisagrees(f"the witness of a reach within {pieces} pieces does not reach the goal")
        return Satisfaction(player, "possible", at_least, got, witness)
    finally:
        session.solver.close()


def matches_colour(position: Position, player: int, target: Point, values: dict[Point, Signal]) -> bool:
    """Whether ``player``'s target on ``target`` receives its colour's signal in ``values``."""
    value = values.get(target)
    return value is not None and value == (position.targets[player][target] == WHITE)
