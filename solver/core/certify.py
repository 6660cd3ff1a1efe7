"""Certified "no" answers: a CNF, a proof that it has no model, and an independent check.

A solver's "unsatisfiable" is a bare claim. Here such a claim is re-made on a fresh
proof-logging SAT solver that is handed exactly one CNF (the call's assumptions written
as unit clauses, so the proof must derive the empty clause), and the DRUP proof it writes
is replayed by a checker that shares no code with any solver. The certificate is the pair
(CNF, proof): :meth:`Refutation.dimacs` and :meth:`Refutation.drat` write it in the formats
every checker reads (``drat-trim problem.cnf proof.drat``).

Why a fresh solver rather than the warm incremental one: the warm solver's clause set
holds everything earlier calls added (blocking clauses behind selectors, learnt clauses
about other grids), so its proof would only certify that whole history. A fresh solver
certifies the one CNF a reader can open and check against the rules it encodes.

What a certificate does not show: that the CNF says what the rules say. That is what the
brute-force cross-checks in the tests are for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from .backend import solve_in_slices
from .limits import Deadline, TimeUp

PROOF_SOLVER = "cadical195"
"""The python-sat solver that writes proofs. Measured on Lixso's minimal-clue grids
(benchmarks/certify_bench.py): CaDiCaL 1.9.5 writes proofs about a seventh of Glucose 4's
(which logs a deletion for every clause it simplifies), so they check fastest."""

CHECKERS = ("dratify", "dratify-python")
"""Proof checkers: ``dratify`` is the dratify library's native (Rust) engine, registered by
cdclkit-native; ``dratify-python`` is its pure-Python engine, an independent implementation
(the two are differentially tested by their author, and here by our tests). ``drup`` (a
checker extracted from verified Why3 code) was measured and left out: it propagates without
watched literals and did not check one 9x9 Lixso proof in 15 minutes."""

DEFAULT_CHECKERS = ("dratify",)


class ProofRejected(Exception):
    """A checker refused a proof: the "no" it was meant to certify stays unproven."""


@dataclass
class Refutation:
    """A CNF over variables ``1..num_vars`` and a DRUP proof (text lines) that it is unsatisfiable.

    The CNF is ``base`` (a clause list shared by many refutations, such as a grid size's
    rules, converted for the checker once) followed by ``extra`` (this question's clauses:
    clues, assumptions, a blocked solution)."""

    num_vars: int
    base: Sequence[Sequence[int]]
    extra: list[list[int]]
    proof: list[str]
    solve_seconds: float = 0.0

    @property
    def clauses(self) -> list[Sequence[int]]:
        return [*self.base, *self.extra]

    @property
    def steps(self) -> int:
        """Proof lines that add a clause (deletions are bookkeeping, not steps)."""
        return sum(1 for line in self.proof if not line.startswith("d"))

    def dimacs(self, comments: Sequence[str] = ()) -> str:
        """The CNF in DIMACS, with optional ``c`` comment lines at the top."""
        head = [f"c {line}" for line in comments]
        head.append(f"p cnf {self.num_vars} {len(self.base) + len(self.extra)}")
        body = [" ".join(map(str, clause)) + " 0" for part in (self.base, self.extra) for clause in part]
        return "\n".join(head + body) + "\n"

    def drat(self) -> str:
        """The proof in textual DRAT (DRUP is a subset): one step per line."""
        return "\n".join(self.proof) + "\n"


@dataclass
class ProofCheck:
    """A checker's verdict on a refutation."""

    checker: str
    accepted: bool
    steps: int
    seconds: float
    reason: str = ""


def refute(
    base: Sequence[Sequence[int]],
    num_vars: int,
    extra: Sequence[Sequence[int]] = (),
    assumptions: Sequence[int] = (),
    deadline: Deadline | None = None,
    solver: str = PROOF_SOLVER,
) -> Refutation | list[int] | None:
    """Solve ``base`` and ``extra`` plus ``assumptions`` (as unit clauses) on a fresh
    proof-logging solver.

    Returns a :class:`Refutation` (unchecked) when there is no model, the model (the true
    literals) when there is one, and None when ``deadline`` came first.
    """
    from pysat.solvers import Solver

    added = [list(clause) for clause in extra] + [[lit] for lit in assumptions]
    top = max([num_vars] + [abs(lit) for clause in added for lit in clause])
    started = time.process_time()
    with Solver(name=solver, with_proof=True) as sat:
        for start in range(0, len(base), 50_000):
            if deadline is not None:
                deadline.check()
            sat.append_formula(base[start : start + 50_000])
        sat.append_formula(added)
        outcome, _ = solve_in_slices(sat, (), None if deadline is None else deadline.remaining())
        if outcome is None:
            return None
        if outcome:
            return [lit for lit in sat.get_model() if lit > 0]
        proof = list(sat.get_proof() or [])
    return Refutation(top, base, added, proof, time.process_time() - started)


IN_PROCESS_SIZE = 200_000
"""Clauses plus proof lines up to which a proof is checked in this process; a larger one
(seconds of native code that no signal or deadline can stop) is checked in a child process
that is killed when the time limit passes or Ctrl-C comes."""


def check(refutation: Refutation, checker: str = "dratify", deadline: Deadline | None = None) -> ProofCheck:
    """Replay ``refutation``'s proof with ``checker`` (one of :data:`CHECKERS`): accepted only
    when every step follows and the empty clause is derived. ``TimeUp`` when ``deadline``
    passes first (a large check is then stopped where it is)."""
    if checker not in CHECKERS:
        raise ValueError(f"unknown proof checker {checker!r}; choose one of: {', '.join(CHECKERS)}")
    size = len(refutation.base) + len(refutation.extra) + len(refutation.proof)
    if size <= IN_PROCESS_SIZE:
        return _check_here(refutation, checker)
    from .parallel import WorkerCrash, run_killable

    started = time.perf_counter()
    try:
        return run_killable(_check_here, (refutation, checker), deadline)
    except WorkerCrash as crash:
        return ProofCheck(checker, False, refutation.steps, time.perf_counter() - started, f"the checker failed: {crash}")


def _check_here(refutation: Refutation, checker: str) -> ProofCheck:
    import dratify

    engine = "python" if checker == "dratify-python" else _native_engine()
    started = time.process_time()
    formula = dratify.CNF(refutation.num_vars)
    formula.clauses = _converted_base(refutation.base) + _checker_clauses(refutation.extra)
    result = dratify.check_proof(formula, refutation.drat(), engine=engine)
    seconds = time.process_time() - started
    accepted = bool(result.ok and result.reached_empty)
    reason = "" if accepted else (getattr(result, "reason", "") or "the empty clause was not derived")
    return ProofCheck(checker, accepted, refutation.steps, seconds, str(reason))


def check_all(refutation: Refutation, checkers: Sequence[str] = DEFAULT_CHECKERS, deadline: Deadline | None = None) -> list[ProofCheck]:
    """Every checker's verdict, in order (``TimeUp`` when ``deadline`` passes between them)."""
    verdicts = []
    for name in checkers:
        if deadline is not None:
            deadline.check()
        verdicts.append(check(refutation, name, deadline))
    return verdicts


@dataclass
class Certificate:
    """Whether a "no" (or a "yes" shown by witnesses) is certified, by which checker, and the
    refutation itself when a proof was made. ``rejected``: a checker refused the proof, so the
    answer it was meant to certify must not stand."""

    certified: bool
    checker: str | None = None
    steps: int = 0
    seconds: float = 0.0  # proof solving and checking, CPU
    reason: str = ""  # why not certified
    rejected: bool = False
    refutation: Refutation | None = None

    def words(self) -> str:
        """How an output line says it: ``certified: proof of N steps checked by X in S s``."""
        if self.certified and self.refutation is None:
            return f"certified: {self.checker}"
        if self.certified:
            return f"certified: proof of {self.steps} steps checked by {self.checker} in {self.seconds:.2f} s"
        return f"not certified: {self.reason}"

    def to_json(self) -> dict:
        record: dict = {"certified": self.certified, "checker": self.checker,
                        "proof_steps": self.steps if self.refutation is not None else None,
                        "certify_seconds": round(self.seconds, 6)}
        if not self.certified:
            record["certify_error"] = self.reason
        return record


def witnessed(how: str) -> Certificate:
    """A "yes" needs no proof: ``how`` says which plain rule engine replayed its witnesses."""
    return Certificate(True, how)


def certify_refutation(
    base: Sequence[Sequence[int]],
    num_vars: int,
    extra: Sequence[Sequence[int]] = (),
    assumptions: Sequence[int] = (),
    checkers: Sequence[str] = DEFAULT_CHECKERS,
    deadline: Deadline | None = None,
) -> Certificate | list[int]:
    """Refute the CNF (see :func:`refute`) and have every checker replay the proof.

    Returns the :class:`Certificate`, or the model (true literals) when the CNF has one: then
    the "no" it was meant to certify was wrong, which the caller must treat as a defect."""
    started = time.process_time()
    try:
        outcome = refute(base, num_vars, extra, assumptions, deadline)
        if outcome is None:
            return Certificate(False, reason="the time limit came before the proof", seconds=time.process_time() - started)
        if not isinstance(outcome, Refutation):
            return outcome
        verdicts = check_all(outcome, checkers, deadline)
    except TimeUp:
        return Certificate(False, reason="the time limit came before the proof was checked", seconds=time.process_time() - started)
    seconds = time.process_time() - started
    refused = [v for v in verdicts if not v.accepted]
    if refused:
        return Certificate(False, refused[0].checker, outcome.steps, seconds,
                           f"{refused[0].checker} rejected the proof ({refused[0].reason})", True, outcome)
    return Certificate(True, " and ".join(v.checker for v in verdicts), outcome.steps, seconds, refutation=outcome)


def certify_call(backend, assumptions: Sequence[int] = (), checkers: Sequence[str] = DEFAULT_CHECKERS,
                 deadline: Deadline | None = None) -> Certificate | list[int]:
    """Certify that a SAT backend's call under ``assumptions`` has no model: a refutation of
    every clause the backend holds (its formula and everything added since: cuts, blocked
    models, bounds) plus the assumptions, on a fresh proof-logging solver."""
    base, added, top = backend.clause_history()
    return certify_refutation(base, top, added, assumptions, checkers, deadline)


def _checker_clauses(clauses: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The clauses in dratify's internal literals (variable ``v`` -> ``2(v-1)``, negated +1),
    normalised as its ``CNF.add`` does (repeated literals once, tautologies dropped) but
    without a Python call per literal: building the formula cost more than checking it."""
    converted = []
    for clause in clauses:
        lits = tuple(dict.fromkeys(2 * lit - 2 if lit > 0 else -2 * lit - 1 for lit in clause))
        if len({lit >> 1 for lit in lits}) == len(lits):
            converted.append(lits)
    return converted


_BASES: list[tuple[Sequence[Sequence[int]], list[tuple[int, ...]]]] = []
_MAX_BASES = 4


def _converted_base(base: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """``base`` for the checker, converted once while it is one of the last few bases seen
    (the same object: a template's clause list is shared by every question about it)."""
    for known, converted in _BASES:
        if known is base:
            return list(converted)
    converted = _checker_clauses(base)
    _BASES.insert(0, (base, converted))
    del _BASES[_MAX_BASES:]
    return list(converted)


def _native_engine() -> str:
    """``native``, after handing dratify the Rust checker that cdclkit-native carries."""
    import dratify

    if dratify.native_implementation() is None:
        try:
            import cdclkit_native
        except ImportError as error:  # a broken install: say so rather than fall back silently
            raise ProofRejected(f"the native proof checker is not installed ({error})") from None
        dratify.register_native(cdclkit_native)
    return "native"


__all__ = [
    "CHECKERS", "DEFAULT_CHECKERS", "PROOF_SOLVER", "Certificate", "ProofCheck", "ProofRejected", "Refutation", "TimeUp",
    "certify_call", "certify_refutation", "check", "check_all", "refute", "witnessed",
]
