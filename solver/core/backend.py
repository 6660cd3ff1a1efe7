"""One small interface over two solvers: python-sat (CDCL SAT) and OR-Tools CP-SAT.

An encoder writes its rules once into a backend-neutral :class:`Formula`: Boolean variables
(positive integers; ``-v`` is the negation of ``v``), clauses, and cardinality constraints
``lo <= sum(lits) <= hi``. :func:`make_backend` compiles that formula for one solver; queries
then call :meth:`Backend.solve` with assumptions (literals that hold for this call only),
add permanent clauses with :meth:`Backend.add_clause`, and optimise with
:meth:`Backend.maximize`.

Both backends give the same answers; only their speed differs. ``ortools`` is imported only
when a CP-SAT backend is made: it takes a large part of a second to import.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterable, Sequence

from .limits import Deadline
from .signals import Interrupted, raise_if_stopped

BACKENDS = ("sat", "cpsat")
DEFAULT_BACKEND = "sat"
DEFAULT_SAT_SOLVER = "cadical195"
FIRST_SLICE_CONFLICTS = 2_000  # most of our calls finish within the first slice
MAX_SLICE_CONFLICTS = 1_000_000
LOAD_CHUNK_CLAUSES = 50_000  # clauses handed to a native solver between two looks at the clock
# python-sat solvers that take cardinality constraints natively (SatBackend's native_cardinality)
NATIVE_CARDINALITY_SOLVERS = ("minicard", "gluecard3", "gluecard4")
SLICE_SECONDS = 0.1  # a signal or a deadline waits at most about this long (x2) for a slice to end


class SolverInterrupted(Interrupted):
    """A native solver stopped by Ctrl-C inside a call: no answer, and the solver is not used again.

    It is an :class:`placesat.core.signals.Interrupted`, never an ordinary error: no
    ``except Exception`` may treat an interrupt as a failed attempt and carry on.
    """


class Status(str, Enum):
    """What a solver call established."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"  # a time limit or an interrupt came first: no claim either way


@dataclass
class Formula:
    """Boolean variables, clauses and cardinality constraints, written once by an encoder."""

    num_vars: int = 0
    clauses: list[list[int]] = field(default_factory=list)
    # (literals, lo, hi): lo <= number of true literals <= hi. A literal may repeat (a weight).
    cardinalities: list[tuple[list[int], int, int]] = field(default_factory=list)

    def new_var(self) -> int:
        """A fresh Boolean variable."""
        self.num_vars += 1
        return self.num_vars

    def new_vars(self, count: int) -> list[int]:
        """``count`` fresh Boolean variables."""
        first = self.num_vars + 1
        self.num_vars += count
        return list(range(first, first + count))

    def add_clause(self, lits: Iterable[int]) -> None:
        """At least one of ``lits`` holds."""
        self.clauses.append([int(lit) for lit in lits])

    def add_implication(self, premise: int, conclusion: int) -> None:
        """``premise`` implies ``conclusion``."""
        self.clauses.append([-premise, conclusion])

    def add_count(self, lits: Sequence[int], lo: int = 0, hi: int | None = None) -> None:
        """Between ``lo`` and ``hi`` (inclusive) of ``lits`` hold."""
        lits = [int(lit) for lit in lits]
        hi = len(lits) if hi is None else hi
        if lo > hi or lo > len(lits):
            self.clauses.append([])  # cannot hold
            return
        if lo <= 0 and hi >= len(lits):
            return
        self.cardinalities.append((lits, max(lo, 0), min(hi, len(lits))))

    def add_at_most(self, lits: Sequence[int], bound: int) -> None:
        """At most ``bound`` of ``lits`` hold."""
        self.add_count(lits, 0, bound)

    def add_at_least(self, lits: Sequence[int], bound: int) -> None:
        """At least ``bound`` of ``lits`` hold."""
        self.add_count(lits, bound, None)

    def add_at_most_one(self, lits: Sequence[int]) -> None:
        """No two of ``lits`` hold together."""
        self.add_count(lits, 0, 1)

    def add_exactly_one(self, lits: Sequence[int]) -> None:
        """Exactly one of ``lits`` holds."""
        self.add_count(lits, 1, 1)


@dataclass
class Result:
    """The outcome of one solver call; ``model[v]`` is the value of variable ``v`` when SAT."""

    status: Status
    model: list[bool] | None = None
    objective: int | None = None
    bound_assumptions: list[int] | None = None
    """For a proven optimum from the SAT backend: the assumptions of the unsatisfiable call
    that proved no better model exists (a certificate re-proves that call); None when the
    optimum is every objective literal, which needs no proof."""

    def __bool__(self) -> bool:
        return self.status is Status.SAT

    def value(self, lit: int) -> bool:
        """The truth value of literal ``lit`` in the model."""
        assert self.model is not None, "no model: the call was not SAT"
        return self.model[lit] if lit > 0 else not self.model[-lit]

    def true_vars(self, candidates: Iterable[int]) -> list[int]:
        """Those of ``candidates`` (variables) that are true in the model."""
        assert self.model is not None, "no model: the call was not SAT"
        model = self.model
        return [v for v in candidates if model[v]]


class Backend:
    """A compiled formula, ready for repeated solving under assumptions."""

    name = "abstract"

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Result:
        """Find a model in which every assumption holds; UNKNOWN when ``time_limit`` s pass first."""
        raise NotImplementedError

    def status(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        """:meth:`solve` without the model: only whether the assumptions can hold."""
        return self.solve(assumptions, time_limit).status

    def core(self) -> list[int] | None:
        """After a call that answered UNSAT: a subset of its assumptions that cannot all hold,
        or None when this solver does not say (then all of them)."""
        return None

    def add_clause(self, lits: Sequence[int]) -> None:
        """Add a clause that holds from now on, for every later call."""
        raise NotImplementedError

    def enumerate(
        self,
        project: Sequence[int],
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        on_model: Callable[[list[bool]], None] | None = None,
    ) -> tuple[list[list[bool]], bool]:
        """Models that differ on the ``project`` variables, up to ``limit`` of them.

        Returns the models and whether the enumeration is complete (no further model exists);
        it is not complete when the limit or ``time_limit`` stopped it. ``on_model`` is called
        with each model as it is found, so that what the caller does with each one (a check
        by the rules) runs within ``time_limit`` rather than after it.
        """
        raise NotImplementedError

    def new_var(self) -> int:
        """A fresh variable (for example a selector for a clause that can be switched off)."""
        raise NotImplementedError

    def maximize(
        self,
        objective: Sequence[tuple[int, int]],
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
    ) -> Result:
        """A model maximising ``sum(weight for lit, weight in objective if lit holds)``.

        ``Result.objective`` is the proven optimum. UNKNOWN when the optimum was not proven
        within ``time_limit`` (a better-than-nothing model is never passed off as optimal).
        """
        raise NotImplementedError

    def close(self) -> None:
        """Free the solver's memory."""


def make_backend(name: str, formula: Formula, **options: object) -> Backend:
    """The one place that picks a backend: ``"sat"`` (python-sat) or ``"cpsat"`` (OR-Tools)."""
    if name == "sat":
        return SatBackend(formula, **options)  # type: ignore[arg-type]
    if name == "cpsat":
        return CpSatBackend(formula, **options)  # type: ignore[arg-type]
    raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")


# --------------------------------------------------------------------------- python-sat


LARGE_COUNT_LITERALS = 128
"""A cardinality constraint over this many literals or more, that the plain totalizer would
encode (a bound from 3 up, or any "at least" from 2), is encoded by its bound
(:func:`_large_count_clauses`); a smaller one keeps the plain totalizer, so that every 9x9
Lixso formula (and so every shipped pack, and what a seed generates at 9x9) stays the same clauses.
Bounds 1 and 2 keep their sequential counter whatever the size: it is linear already, and
the commands that use it on many literals (``lsd reach``, ``laido best``) stay as they were."""

SMALL_BOUND = 21
"""The largest bound that :func:`_large_count_clauses` gives an incremental totalizer rather
than a cardinality network: fewer clauses up to here on 128, 441 and 3,364 literals
(441 literals, at most 20: 11,354 against 12,392; at most 22: 12,245 against 12,392)."""


def _large_count_clauses(lits: list[int], bound: int, top: int) -> tuple[list[list[int]], int]:
    """CNF for "at most ``bound`` of ``lits``" over many literals: an incremental totalizer cut
    at the bound (about ``len(lits) * bound`` clauses) for a small bound, a cardinality network
    (about ``len(lits) * log(bound)**2``) for a larger one. The plain totalizer grows with the
    square of the literals whatever the bound (3,364 literals, at most 40: 5.7 million clauses
    against 126,000). Both are arc-consistent: unit propagation finds every literal the count
    forces (tests/test_cardinality_encodings.py); never the k-modulo totalizers, which are not,
    and the Lixso grader's level 2 is unit propagation through the supply."""
    from pysat.card import CardEnc, EncType, ITotalizer

    if bound <= SMALL_BOUND:
        counter = ITotalizer(lits=lits, ubound=bound, top_id=top)
        try:
            clauses = counter.cnf.clauses + [[-counter.rhs[bound]]]
            return clauses, max(top, counter.top_id)
        finally:
            counter.delete()
    cnf = CardEnc.atmost(lits, bound=bound, top_id=top, encoding=EncType.cardnetwrk)
    return cnf.clauses, max(top, cnf.nv)


def _cardinality_clauses(lits: list[int], lo: int, hi: int, top: int) -> tuple[list[list[int]], int]:
    """CNF for ``lo <= sum(lits) <= hi``; auxiliary variables are numbered above ``top``."""
    from pysat.card import CardEnc, EncType

    clauses: list[list[int]] = []
    n = len(lits)
    large = n >= LARGE_COUNT_LITERALS
    if hi < n:
        if hi == 0:
            clauses.extend([-lit] for lit in lits)
        elif hi == 1 and n <= 6:
            clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
        elif large and hi > 2:  # the sequential counter below is already linear in the literals
            more, top = _large_count_clauses(lits, hi, top)
            clauses.extend(more)
        else:
            enc = EncType.pairwise if hi == 1 and n <= 6 else (
                EncType.seqcounter if hi <= 2 else EncType.totalizer
            )
            cnf = CardEnc.atmost(lits, bound=hi, top_id=top, encoding=enc)
            clauses.extend(cnf.clauses)
            top = max(top, cnf.nv)
    if lo > 0:
        if lo == 1:
            clauses.append(list(lits))
        elif lo == n:
            clauses.extend([lit] for lit in lits)
        elif large:
            more, top = _large_count_clauses([-lit for lit in lits], n - lo, top)
            clauses.extend(more)
        else:
            # at least lo of lits  <=>  at most n - lo of their negations
            negated = [-lit for lit in lits]
            cnf = CardEnc.atmost(negated, bound=n - lo, top_id=top, encoding=EncType.totalizer)
            clauses.extend(cnf.clauses)
            top = max(top, cnf.nv)
    return clauses, top


def cnf_of(formula: Formula, deadline: "Deadline | None" = None) -> tuple[list[list[int]], int]:
    """The formula as plain clauses (cardinalities encoded) and the highest variable used.

    Kept on the formula while it does not change, so that many solvers over one template
    (one per generated puzzle, say) encode the cardinalities once. ``deadline`` is checked
    between cardinality constraints (encoding a large one takes a while).
    """
    key = (formula.num_vars, len(formula.clauses), len(formula.cardinalities))
    cached = getattr(formula, "_cnf_cache", None)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    # the clause lists are shared, not copied (a copy was half the cost of a small engine, which
    # the Lixso grader builds per puzzle): nothing changes a clause once it is in a formula
    clauses = list(formula.clauses)
    top = formula.num_vars
    for lits, lo, hi in formula.cardinalities:
        if deadline is not None and len(lits) > 64:
            deadline.check()
        more, top = _cardinality_clauses(lits, lo, hi, top)
        clauses.extend(more)
    formula._cnf_cache = (key, clauses, top)  # type: ignore[attr-defined]
    return clauses, top


def solve_in_slices(solver, assumptions: Sequence[int], time_limit: float | None, budget: int = FIRST_SLICE_CONFLICTS,
                    by_clock: bool = True) -> tuple[bool | None, int]:
    """Solve a python-sat ``solver`` in slices of conflicts, looking at the clock and at signals
    in between: the answer (None when ``time_limit`` seconds passed first) and the slice budget
    to start the next call with.

    python-sat holds the interpreter while a native solver runs: a Python signal handler
    (SIGTERM, and Ctrl-C under CaDiCaL) waits until the call returns, and a timer thread
    cannot run. So every call is cut into slices of a conflict budget that grows while slices
    stay short; learnt clauses carry over from slice to slice. Glucose and MiniSat catch
    Ctrl-C inside a slice themselves (python-sat then raises).

    Each slice ends the solver's search and the next one starts a new search (with what was
    learnt), so where the slices end decides which model a satisfiable call finds. With
    ``by_clock`` False every slice gets the same budget, whatever the slices took, so the same
    call finds the same model on a fast machine and a loaded one. (Random 12x12 Lixso draws take
    about as long as with the clock's schedule, whose slices of 2,000 conflicts already take
    about the 0.1 s that stops their growth at that size; doubling every slice made their tail
    longer.)
    """
    if time_limit is not None and time_limit <= 0:
        return None, budget
    deadline = None if time_limit is None else time.monotonic() + time_limit
    while True:
        raise_if_stopped()
        solver.conf_budget(budget)
        started = time.monotonic()
        outcome = solver.solve_limited(assumptions=list(assumptions))
        if outcome is not None:
            return outcome, budget
        took = time.monotonic() - started
        if deadline is not None and time.monotonic() >= deadline:
            return None, budget
        if not by_clock:
            continue
        if took < SLICE_SECONDS:
            budget = min(2 * budget, MAX_SLICE_CONFLICTS)
        elif took > 2 * SLICE_SECONDS and budget > FIRST_SLICE_CONFLICTS:
            budget //= 2


class SatBackend(Backend):
    """python-sat: the formula as CNF in one incremental solver (CaDiCaL 1.9.5 by default)."""

    name = "sat"

    def __init__(
        self, formula: Formula, solver: str | None = None, deadline: "Deadline | None" = None, native_cardinality: bool = False,
        reproducible: bool = False,
    ) -> None:
        """``deadline``: building stops with ``TimeUp`` when it comes first.

        ``native_cardinality``: the cardinality constraints go to the solver as they are
        (``Solver.add_atmost``), not encoded as clauses; only for a solver that takes them
        (:data:`NATIVE_CARDINALITY_SOLVERS`). No auxiliary variables, and no clause history:
        such a solver's calls cannot be certified (:meth:`clause_history` refuses).

        ``reproducible``: the calls are sliced by conflicts alone, never by the clock
        (:func:`solve_in_slices`), so the models found are the same on every machine: for a
        caller whose output must follow from its seed (a generator's random draws).
        """
        from pysat.solvers import Solver

        solver = solver or DEFAULT_SAT_SOLVER
        self._solver_name = solver
        self._num_formula_vars = formula.num_vars
        self._native = native_cardinality
        if native_cardinality:
            if solver not in NATIVE_CARDINALITY_SOLVERS:
                raise ValueError(f"{solver} takes no native cardinality constraints; use one of {', '.join(NATIVE_CARDINALITY_SOLVERS)}")
            clauses, self._top = formula.clauses, formula.num_vars
        else:
            clauses, self._top = cnf_of(formula, deadline)
        # what the solver holds, kept so that a certificate can re-prove any call on exactly it
        self._base = clauses
        self._added: list[list[int]] = []
        self._solver = Solver(name=solver)
        if native_cardinality:
            for lits, lo, hi in formula.cardinalities:
                self._add_native_count(lits, lo, hi)
        # loading millions of clauses takes seconds: in chunks, so a deadline is seen between them
        for start in range(0, len(clauses), LOAD_CHUNK_CLAUSES):
            if deadline is not None:
                deadline.check()
            self._solver.append_formula(clauses[start : start + LOAD_CHUNK_CLAUSES])
        self._broken = False
        self._slice_budget = FIRST_SLICE_CONFLICTS
        self._by_clock = not reproducible

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        """Unit propagation alone: whether the assumptions survive it, and every literal it sets.

        Not every python-sat solver supports this; MiniSat 2.2 and Glucose do, and fast.
        """
        if self._broken:
            raise SolverInterrupted("this solver was interrupted earlier; its answers can no longer be trusted")
        try:
            ok, lits = self._solver.propagate(assumptions=list(assumptions))
        except Exception as error:
            self._broken = True
            raise SolverInterrupted(f"the SAT solver was interrupted: {error}") from error
        return bool(ok), lits

    def new_var(self) -> int:
        self._top += 1
        return self._top

    def add_clause(self, lits: Sequence[int]) -> None:
        self._add([[int(lit) for lit in lits]])

    def add_count(self, lits: Sequence[int], lo: int, hi: int) -> None:
        """Add ``lo <= sum(lits) <= hi`` permanently."""
        if self._native:
            self._add_native_count([int(x) for x in lits], lo, hi)
            return
        clauses, self._top = _cardinality_clauses([int(x) for x in lits], lo, hi, self._top)
        self._add(clauses)

    def _add_native_count(self, lits: list[int], lo: int, hi: int) -> None:
        # "at least lo" is "at most len - lo of the negations"; one literal is a clause
        if hi < len(lits):
            self._solver.add_atmost(lits, hi)
        if lo == 1:
            self._solver.add_clause(lits)
        elif lo > 1:
            self._solver.add_atmost([-lit for lit in lits], len(lits) - lo)

    def _add(self, clauses: list[list[int]]) -> None:
        self._added.extend(clauses)
        self._solver.append_formula(clauses)

    def clause_history(self) -> tuple[list[list[int]], list[list[int]], int]:
        """Every clause this solver holds: the formula's (shared with other solvers of the same
        formula), those added since, and the highest variable. A certificate for a call is a
        refutation of these plus the call's assumptions (see :mod:`placesat.core.certify`).
        Not for a solver with native cardinality constraints (they are no clauses)."""
        if self._native:
            raise ValueError("a solver with native cardinality constraints has no clause history to certify")
        return self._base, self._added, self._top

    def _limited_solve(self, assumptions: Sequence[int], time_limit: float | None) -> bool | None:
        outcome, self._slice_budget = solve_in_slices(self._solver, assumptions, time_limit, self._slice_budget, self._by_clock)
        return outcome

    def _model(self) -> list[bool]:
        values = [False] * (self._top + 1)
        for lit in self._solver.get_model() or ():
            if lit > 0 and lit <= self._top:
                values[lit] = True
        return values

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Result:
        status = self.status(assumptions, time_limit)
        return Result(status, self._model()) if status is Status.SAT else Result(status)

    def status(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        """:meth:`solve` without reading the model: only whether the assumptions can hold. On a
        large formula, reading a model costs a good share of a short call (0.5 of 2 ms on a
        9x9 Lixso formula of 5,600 variables)."""
        if self._broken:
            raise SolverInterrupted("this solver was interrupted earlier; its answers can no longer be trusted")
        try:
            outcome = self._limited_solve(assumptions, time_limit)
        except Exception as error:
            # python-sat raises when a signal (Ctrl-C) reaches a solve; the native solver may
            # then answer every later call with a false "unsatisfiable", so it is never used again
            self._broken = True
            raise SolverInterrupted(f"the SAT solver was interrupted: {error}") from error
        if outcome is None:
            return Status.UNKNOWN
        return Status.SAT if outcome else Status.UNSAT

    def core(self) -> list[int] | None:
        """After a call that answered UNSAT: assumptions of that call that cannot all hold
        together (the solver's final conflict; not necessarily minimal)."""
        found = self._solver.get_core()
        return None if found is None else list(found)

    def enumerate(
        self,
        project: Sequence[int],
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        on_model: Callable[[list[bool]], None] | None = None,
    ) -> tuple[list[list[bool]], bool]:
        """Solve, block the model's projection behind a selector, repeat.

        The selector is switched off for good at the end, so the blocking clauses never
        constrain a later call, while what the solver learnt about the formula stays.
        """
        import time

        deadline = None if time_limit is None else time.monotonic() + time_limit
        selector = self.new_var()
        models: list[list[bool]] = []
        complete = False
        try:
            while limit is None or len(models) < limit:
                remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
                result = self.solve(list(assumptions) + [selector], remaining)
                if result.status is Status.UNKNOWN:
                    break
                if result.status is Status.UNSAT:
                    complete = True
                    break
                models.append(result.model)
                if on_model is not None:
                    on_model(result.model)
                self._add([[-selector] + [-v if result.model[v] else v for v in project]])
        finally:
            self._add([[-selector]])
        return models, complete

    def maximize(
        self,
        objective: Sequence[tuple[int, int]],
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
    ) -> Result:
        """Climb: find a model, then ask for a strictly better one until none exists.

        The objective is turned into a count of literals (a weight ``w`` repeats a literal
        ``|w|`` times; a negative weight counts the negated literal), so ``sum >= v`` is one
        output of an incremental totalizer, passed as an assumption.
        """
        import time

        from pysat.card import ITotalizer

        deadline = None if time_limit is None else time.monotonic() + time_limit
        counted: list[int] = []
        offset = 0
        for lit, weight in objective:
            if weight > 0:
                counted.extend([lit] * weight)
            elif weight < 0:
                counted.extend([-lit] * (-weight))
                offset += weight
        n = len(counted)

        def remaining() -> float | None:
            return None if deadline is None else max(deadline - time.monotonic(), 0.0)

        first = self.solve(assumptions, remaining())
        if first.status is not Status.SAT:
            return first
        best = first
        best_count = sum(1 for lit in counted if best.value(lit))
        if n == 0 or best_count == n:
            best.objective = best_count + offset
            return best
        # sum(counted) >= k  <=>  sum(negations) <= n - k; rhs[j] false means "at most j".
        if deadline is not None and time.monotonic() >= deadline:
            return Result(Status.UNKNOWN)
        # every bound asked below is under n - best_count: a counter cut there is smaller
        # (the plain one grows with the square of n)
        totalizer = ITotalizer(lits=[-lit for lit in counted], ubound=n - best_count, top_id=self._top)
        self._top = max(self._top, totalizer.top_id)
        # the counter of a large objective is hundreds of thousands of clauses (900 literals:
        # 400,000, a second to load on a busy machine): loaded in chunks, the time limit seen
        # between them. Part of a counter loaded is sound (its clauses only define its own
        # new variables); past the limit there is no answer, as after any slice.
        counter = totalizer.cnf.clauses
        for start in range(0, len(counter), LOAD_CHUNK_CLAUSES):
            if deadline is not None and time.monotonic() >= deadline:
                return Result(Status.UNKNOWN)
            self._add(counter[start : start + LOAD_CHUNK_CLAUSES])
        proof_assumptions = None
        while best_count < n:
            bound = n - (best_count + 1)
            attempt = self.solve(list(assumptions) + [-totalizer.rhs[bound]], remaining())
            if attempt.status is Status.UNKNOWN:
                return Result(Status.UNKNOWN)
            if attempt.status is Status.UNSAT:
                proof_assumptions = list(assumptions) + [-totalizer.rhs[bound]]
                break
            best = attempt
            best_count = sum(1 for lit in counted if best.value(lit))
        best.objective = best_count + offset
        best.bound_assumptions = proof_assumptions
        return best

    def close(self) -> None:
        self._solver.delete()


# --------------------------------------------------------------------------- OR-Tools CP-SAT


def _solve_stoppably(solver, model, callback=None):
    """``solver.solve(model)`` in a helper thread, so that a signal reaches the main thread.

    CP-SAT releases the interpreter while it searches, but the main thread would sit inside
    the call until it returned; waiting in short slices instead lets Ctrl-C or SIGTERM raise
    here at once, and the search is then told to stop, and waited for, before the exception
    goes on. The wait is on an event the worker sets, not on ``Thread.join``: in Python 3.11
    a signal that interrupts ``join`` marks the thread finished while it still runs, and the
    interpreter would then exit under a live native search (the C++ runtime aborts).
    """
    outcome: list = []
    failure: list[BaseException] = []
    finished = threading.Event()

    def work() -> None:
        try:
            outcome.append(solver.solve(model, callback) if callback is not None else solver.solve(model))
        except BaseException as error:  # handed to the main thread below
            failure.append(error)
        finally:
            finished.set()

    thread = threading.Thread(target=work, name="cp-sat", daemon=True)
    thread.start()
    try:
        while not finished.wait(0.05):
            raise_if_stopped()
    except BaseException:
        solver.stop_search()
        _wait_through_signals(finished)
        raise
    if failure:
        raise failure[0]
    return outcome[0]


def _wait_through_signals(finished: threading.Event) -> None:
    """Wait until the native search has returned, whatever further signals arrive: the
    first stop is already on its way, and leaving a search running would abort the exit."""
    while not finished.is_set():
        try:
            finished.wait(0.05)
        except BaseException:  # a second Ctrl-C: the first one already says what happens
            continue


class CpSatBackend(Backend):
    """OR-Tools CP-SAT: the formula as a CpModel; each call solves a copy with its assumptions."""

    name = "cpsat"

    def __init__(self, formula: Formula, workers: int = 1, parameters: dict | None = None, deadline: "Deadline | None" = None) -> None:
        """``parameters``: extra CP-SAT solver parameters by name (e.g. ``cp_model_presolve``),
        for an encoder that knows presolve does not pay off on its many small calls.
        ``deadline``: building stops with ``TimeUp`` when it comes first."""
        from ortools.sat.python import cp_model

        self._cp = cp_model
        self._workers = workers
        self._parameters = dict(parameters or {})
        self._model = cp_model.CpModel()
        self._vars: list = [None]
        self._grow(formula.num_vars)
        for number, clause in enumerate(formula.clauses):
            if deadline is not None and number % 20_000 == 0:
                deadline.check()
            self._model.add_bool_or([self._lit(lit) for lit in clause])
        for lits, lo, hi in formula.cardinalities:
            self._add_count(self._model, lits, lo, hi)

    def _grow(self, upto: int) -> None:
        while len(self._vars) <= upto:
            self._vars.append(self._model.new_bool_var(f"v{len(self._vars)}"))

    def _lit(self, lit: int):
        return self._vars[lit] if lit > 0 else self._vars[-lit].Not()

    def _add_count(self, model, lits: Sequence[int], lo: int, hi: int) -> None:
        terms = [self._lit(lit) for lit in lits]
        distinct = len(set(lits)) == len(lits)
        if distinct and lo == 1 and hi == 1:
            model.add_exactly_one(terms)
        elif distinct and lo == 0 and hi == 1:
            model.add_at_most_one(terms)
        elif lo == 1 and hi >= len(lits):
            model.add_bool_or(terms)
        else:
            model.add_linear_constraint(sum(terms), lo, hi)

    def new_var(self) -> int:
        self._grow(len(self._vars))
        return len(self._vars) - 1

    def add_clause(self, lits: Sequence[int]) -> None:
        self._model.add_bool_or([self._lit(int(lit)) for lit in lits])

    def add_count(self, lits: Sequence[int], lo: int, hi: int) -> None:
        """Add ``lo <= sum(lits) <= hi`` permanently."""
        self._add_count(self._model, [int(x) for x in lits], lo, hi)

    def _run(self, model, time_limit: float | None, optimising: bool) -> Result:
        cp = self._cp
        if time_limit is not None and time_limit <= 0:
            return Result(Status.UNKNOWN)
        solver = cp.CpSolver()
        solver.parameters.num_workers = self._workers
        # CP-SAT would catch Ctrl-C itself and answer "unknown"; the interrupt is ours to handle
        solver.parameters.catch_sigint_signal = False
        for name, value in self._parameters.items():
            setattr(solver.parameters, name, value)
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        status = _solve_stoppably(solver, model)
        if status == cp.INFEASIBLE:
            return Result(Status.UNSAT)
        if status == cp.OPTIMAL or (status == cp.FEASIBLE and not optimising):
            values = [False] + [bool(solver.boolean_value(v)) for v in self._vars[1:]]
            objective = int(round(solver.objective_value)) if optimising else None
            return Result(Status.SAT, values, objective)
        return Result(Status.UNKNOWN)

    def _with_assumptions(self, assumptions: Sequence[int]):
        model = self._model.clone()
        # clone() keeps variable indices, so our variable objects index the copy too
        for lit in assumptions:
            var = model.get_bool_var_from_proto_index(self._vars[abs(lit)].index)
            model.add_bool_or([var if lit > 0 else var.Not()])
        return model

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Result:
        return self._run(self._with_assumptions(assumptions), time_limit, optimising=False)

    def enumerate(
        self,
        project: Sequence[int],
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        on_model: Callable[[list[bool]], None] | None = None,
    ) -> tuple[list[list[bool]], bool]:
        """CP-SAT's own enumeration of all solutions, keeping those with a new projection."""
        cp = self._cp
        if time_limit is not None and time_limit <= 0:
            return [], False
        model = self._with_assumptions(assumptions)
        variables = self._vars
        seen: set[tuple[bool, ...]] = set()
        models: list[list[bool]] = []

        class Collector(cp.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                values = [False] + [bool(self.boolean_value(v)) for v in variables[1:]]
                key = tuple(values[v] for v in project)
                if key not in seen:
                    seen.add(key)
                    models.append(values)
                    if on_model is not None:
                        on_model(values)
                    if limit is not None and len(models) >= limit:
                        self.stop_search()

        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.catch_sigint_signal = False
        solver.parameters.enumerate_all_solutions = True
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        status = _solve_stoppably(solver, model, Collector())
        stopped_early = limit is not None and len(models) >= limit
        complete = not stopped_early and status in (cp.OPTIMAL, cp.INFEASIBLE)
        return models, complete

    def maximize(
        self,
        objective: Sequence[tuple[int, int]],
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
    ) -> Result:
        model = self._with_assumptions(assumptions)
        terms = []
        for lit, weight in objective:
            var = model.get_bool_var_from_proto_index(self._vars[abs(lit)].index)
            terms.append(weight * (var if lit > 0 else 1 - var))
        model.maximize(sum(terms))
        return self._run(model, time_limit, optimising=True)
